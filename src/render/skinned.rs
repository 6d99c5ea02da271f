//! The lit mesh pipeline (GPU skinning + rigid props); `skin_check` (tests only) runs the very
//! same WGSL `skin_matrix()` in a compute pass.

use super::mesh::GpuVertex;

pub(super) const SKINNING_WGSL: &str = include_str!("../../shaders/skinning.wgsl");

/// Per-draw uniform (`Draw` in `shaders/skinned.wgsl`), 160 bytes, bound with a dynamic offset.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct DrawUniform {
    pub world_from_mesh: [[f32; 4]; 4],
    pub normal_from_mesh: [[f32; 4]; 4],
    pub colour: [f32; 4],
    /// x: 1 = skinned, y: first joint of the draw's palette.
    pub flags: [u32; 4],
}

/// Bind group layouts of the mesh pipeline.
pub(crate) struct MeshLayouts {
    /// group 0: frame uniform, joint palette storage, per-draw uniform (dynamic offset).
    pub frame_joints_draw: wgpu::BindGroupLayout,
    /// group 1: base-colour texture and sampler.
    pub material: wgpu::BindGroupLayout,
}

impl MeshLayouts {
    pub fn new(device: &wgpu::Device) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let frame_joints_draw = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("mesh group 0"),
            entries: &[
                uniform_entry(0, vf, false),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::VERTEX,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage { read_only: true },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                uniform_entry(2, vf, true),
            ],
        });
        let material = super::gpu::texture_sampler_layout(device, "mesh material");
        Self {
            frame_joints_draw,
            material,
        }
    }
}

/// A uniform-buffer layout entry.
pub(crate) fn uniform_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    dynamic: bool,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        },
        count: None,
    }
}

/// The lit mesh pipelines: solid (depth-tested and writing, no culling; back faces are lit
/// with flipped normals) or x-ray (`fs_xray`: alpha-blended, front faces only, no depth
/// test or write).
pub(crate) fn mesh_pipeline(
    device: &wgpu::Device,
    layouts: &MeshLayouts,
    format: wgpu::TextureFormat,
    sample_count: u32,
    xray: bool,
) -> wgpu::RenderPipeline {
    let module = super::gpu::shader_module(
        device,
        "skinned.wgsl",
        &[SKINNING_WGSL, include_str!("../../shaders/skinned.wgsl")],
    );
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("mesh layout"),
        bind_group_layouts: &[Some(&layouts.frame_joints_draw), Some(&layouts.material)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(if xray {
            "x-ray mesh pipeline"
        } else {
            "mesh pipeline"
        }),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<GpuVertex>() as u64,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &GpuVertex::ATTRIBUTES,
            })],
        },
        primitive: wgpu::PrimitiveState {
            cull_mode: xray.then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(if xray {
            super::gpu::depth_state(false, wgpu::CompareFunction::Always)
        } else {
            super::gpu::depth_state(true, wgpu::CompareFunction::Less)
        }),
        multisample: wgpu::MultisampleState {
            count: sample_count,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some(if xray { "fs_xray" } else { "fs_main" }),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &super::gpu::output_constants(format),
                ..Default::default()
            },
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

pub(super) const IDENTITY: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

pub(super) fn extend_palette(out: &mut Vec<[[f32; 4]; 4]>, palette: &[[[f32; 4]; 4]], len: usize) {
    for m in palette {
        let finite = m.iter().flatten().all(|c| c.is_finite());
        out.push(if finite { *m } else { IDENTITY });
    }
    for _ in palette.len()..len {
        out.push(IDENTITY);
    }
}
