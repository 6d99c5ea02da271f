//! The lit mesh pipeline (GPU skinning + rigid props) and the compute check path that runs
//! the very same WGSL `skin_matrix()` and reads skinned positions back.

use super::mesh::{GpuVertex, MeshData, interleave};
use super::{Gpu, RenderError};
use wgpu::util::DeviceExt;

const SKINNING_WGSL: &str = include_str!("../../shaders/skinning.wgsl");

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
        let material = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("mesh material"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
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
            compilation_options: Default::default(),
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

/// `SkinVertex` in `shaders/skin_compute.wgsl` (48 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SkinVertex {
    position: [f32; 4],
    joints: [u32; 4],
    weights: [f32; 4],
}

/// Skins `mesh`'s positions on the GPU with the same WGSL `skin_matrix()` the vertex shader
/// uses (compute pass) and reads them back — the check path for GPU skinning.
///
/// Weights are normalised exactly as at upload; joints beyond `skin_matrices` read identity.
/// A mesh without joints comes back unchanged (bind pose).
pub fn gpu_skin_positions(
    gpu: &Gpu,
    mesh: &MeshData,
    skin_matrices: &[[[f32; 4]; 4]],
) -> Result<Vec<[f32; 3]>, RenderError> {
    mesh.validate()?;
    let n = mesh.positions.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let device = &gpu.device;
    let vertices: Vec<SkinVertex> = interleave(mesh)
        .iter()
        .map(|v| SkinVertex {
            position: [v.position[0], v.position[1], v.position[2], 1.0],
            joints: v.joints.map(u32::from),
            weights: v.weights,
        })
        .collect();
    let max_joint = vertices.iter().flat_map(|v| v.joints).max().unwrap_or(0) as usize;
    let palette = padded_palette(skin_matrices, max_joint + 1);
    let joints = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("skin check joints"),
        contents: bytemuck::cast_slice(&palette),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("skin check vertices"),
        contents: bytemuck::cast_slice(&vertices),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let out_size = (n * 16) as u64;
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skin check output"),
        size: out_size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skin check readback"),
        size: out_size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let module = super::gpu::shader_module(
        device,
        "skin_compute.wgsl",
        &[
            SKINNING_WGSL,
            include_str!("../../shaders/skin_compute.wgsl"),
        ],
    );
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("skin check pipeline"),
        layout: None,
        module: &module,
        entry_point: Some("cs_main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("skin check bind group"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: joints.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: output.as_entire_binding(),
            },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups((n as u32).div_ceil(64), 1, 1);
    }
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, out_size);
    gpu.queue.submit([encoder.finish()]);
    let bytes = super::capture::read_buffer(gpu, &readback)?;
    let out: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
    Ok(out.iter().map(|p| [p[0], p[1], p[2]]).collect())
}

pub(super) const IDENTITY: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// `palette` padded with identity to at least `len` entries; non-finite matrices become
/// identity so a bad joint never produces NaN vertices.
pub(crate) fn padded_palette(palette: &[[[f32; 4]; 4]], len: usize) -> Vec<[[f32; 4]; 4]> {
    let mut out = Vec::with_capacity(len.max(palette.len()));
    extend_palette(&mut out, palette, len);
    out
}

pub(super) fn extend_palette(out: &mut Vec<[[f32; 4]; 4]>, palette: &[[[f32; 4]; 4]], len: usize) {
    for m in palette {
        let finite = m.iter().flatten().all(|c| c.is_finite());
        out.push(if finite { *m } else { IDENTITY });
    }
    for _ in palette.len()..len {
        out.push(IDENTITY);
    }
}
