//! GPU skinning and the lit mesh pipeline. A compute pass (`shaders/skin_compute.wgsl`) skins
//! each skinned draw's vertices once per frame into the frame's skinned-vertex buffer; the
//! mesh pipeline reads positions and normals from that buffer (or, for rigid props, from the
//! mesh's rest stream) and the surface attributes from the mesh. `skin_check` (tests only)
//! reads the very same buffer back.

use super::gpu::bind_group;

const SKINNING_WGSL: &str = include_str!("../../shaders/skinning.wgsl");
const DRAW_WGSL: &str = include_str!("../../shaders/draw.wgsl");

/// Vertex stream 0 of the mesh pipeline: what skinning does not change (24 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct SurfaceVertex {
    pub uv: [f32; 2],
    pub color: [f32; 4],
}

impl SurfaceVertex {
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 2] =
        wgpu::vertex_attr_array![2 => Float32x2, 3 => Float32x4];
}

/// Vertex stream 1 of the mesh pipeline: position (w = 1) and normal (w = 0), either a
/// mesh's rest stream or a skinned draw's range of the frame's skinned-vertex buffer
/// (`Skinned` in `shaders/skin_compute.wgsl`, 32 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct StreamVertex {
    pub position: [f32; 4],
    pub normal: [f32; 4],
}

impl StreamVertex {
    pub const ATTRIBUTES: [wgpu::VertexAttribute; 2] =
        wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4];
}

/// The skinning pass's input vertex (`SkinVertex` in `shaders/skin_compute.wgsl`, 64 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct SkinVertex {
    pub position: [f32; 4],
    pub normal: [f32; 4],
    pub joints: [u32; 4],
    pub weights: [f32; 4],
}

/// Per-draw uniform (`Draw` in `shaders/draw.wgsl`), 160 bytes, bound with a dynamic offset
/// by the mesh pipeline and the skinning pass.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct DrawUniform {
    pub world_from_mesh: [[f32; 4]; 4],
    pub normal_from_mesh: [[f32; 4]; 4],
    pub colour: [f32; 4],
    /// x: unused (0), y: first joint of the draw's palette, z: first vertex of the draw in
    /// the frame's skinned-vertex buffer.
    pub flags: [u32; 4],
}

/// Bind group layouts of the mesh pipeline and the skinning pass.
pub(crate) struct MeshLayouts {
    /// Mesh pipeline group 0: frame uniform, per-draw uniform (dynamic offset).
    pub frame_draw: wgpu::BindGroupLayout,
    /// Mesh pipeline group 1: base-colour texture and sampler.
    pub material: wgpu::BindGroupLayout,
    /// Skinning group 0: joint palettes, per-draw uniform (dynamic offset), the frame's
    /// skinned-vertex buffer (written).
    pub skin: wgpu::BindGroupLayout,
    /// Skinning group 1: one mesh's skinning input vertices.
    pub skin_vertices: wgpu::BindGroupLayout,
}

/// A storage-buffer layout entry for the compute stage.
fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl MeshLayouts {
    pub fn new(device: &wgpu::Device) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let layout = |label: &str, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        Self {
            frame_draw: layout(
                "mesh group 0",
                &[uniform_entry(0, vf, false), uniform_entry(1, vf, true)],
            ),
            material: super::gpu::texture_sampler_layout(device, "mesh material"),
            skin: layout(
                "skinning group 0",
                &[
                    storage_entry(0, true),
                    uniform_entry(1, wgpu::ShaderStages::COMPUTE, true),
                    storage_entry(2, false),
                ],
            ),
            skin_vertices: layout("skinning group 1", &[storage_entry(0, true)]),
        }
    }

    /// The skinning pass's group 1 over `input` (a mesh's skinning input vertices).
    pub fn skin_vertices_group(
        &self,
        device: &wgpu::Device,
        mesh_name: &str,
        input: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let label = format!("{mesh_name} skinning input");
        bind_group(
            device,
            &label,
            &self.skin_vertices,
            &[input.as_entire_binding()],
        )
    }
}

/// The per-draw uniform binding: one [`DrawUniform`] of `draws`, placed by a dynamic offset.
fn draw_binding(draws: &wgpu::Buffer) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer: draws,
        offset: 0,
        size: wgpu::BufferSize::new(std::mem::size_of::<DrawUniform>() as u64),
    })
}

/// The mesh pipeline's group 0.
pub(crate) fn mesh_bind_group(
    device: &wgpu::Device,
    layouts: &MeshLayouts,
    frame: &wgpu::Buffer,
    draws: &wgpu::Buffer,
) -> wgpu::BindGroup {
    let resources = [frame.as_entire_binding(), draw_binding(draws)];
    bind_group(device, "mesh bind group", &layouts.frame_draw, &resources)
}

/// The skinning pass's group 0.
pub(crate) fn skin_bind_group(
    device: &wgpu::Device,
    layouts: &MeshLayouts,
    joints: &wgpu::Buffer,
    draws: &wgpu::Buffer,
    skinned: &wgpu::Buffer,
) -> wgpu::BindGroup {
    let resources = [
        joints.as_entire_binding(),
        draw_binding(draws),
        skinned.as_entire_binding(),
    ];
    bind_group(device, "skinning bind group", &layouts.skin, &resources)
}

/// Vertices per skinning workgroup (`@workgroup_size` in `shaders/skin_compute.wgsl`).
pub(crate) const SKIN_WORKGROUP: u32 = 64;

/// The skinning pass's compute pipeline.
pub(crate) fn skin_pipeline(device: &wgpu::Device, layouts: &MeshLayouts) -> wgpu::ComputePipeline {
    let module = super::gpu::shader_module(
        device,
        "skin_compute.wgsl",
        &[
            DRAW_WGSL,
            SKINNING_WGSL,
            include_str!("../../shaders/skin_compute.wgsl"),
        ],
    );
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("skinning layout"),
        bind_group_layouts: &[Some(&layouts.skin), Some(&layouts.skin_vertices)],
        immediate_size: 0,
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("skinning pipeline"),
        layout: Some(&layout),
        module: &module,
        entry_point: Some("cs_main"),
        compilation_options: Default::default(),
        cache: None,
    })
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

/// Which faces of a draw's triangles the mesh pipeline rasterises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Faces {
    /// Front faces only (glTF: counter-clockwise), the default for single-sided materials.
    Front,
    /// Front faces of a draw whose model matrix mirrors (negative determinant): clockwise.
    FrontMirrored,
    /// Both (glTF `doubleSided`); back faces are lit with flipped normals.
    Both,
}

impl Faces {
    /// Every variant, in the order of [`Faces::index`].
    pub const ALL: [Faces; 3] = [Faces::Front, Faces::FrontMirrored, Faces::Both];

    /// Position in [`Faces::ALL`] (the renderer keeps one pipeline per variant).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The faces a draw of a mesh shows: both for a double-sided material, else the front,
    /// which a mirroring model matrix turns clockwise.
    pub fn of_draw(double_sided: bool, mirrored: bool) -> Self {
        match (double_sided, mirrored) {
            (true, _) => Faces::Both,
            (false, true) => Faces::FrontMirrored,
            (false, false) => Faces::Front,
        }
    }
}

/// The lit mesh pipelines, one per [`Faces`] (in [`Faces::ALL`] order): solid
/// (depth-tested and writing) or x-ray (`fs_xray`: alpha-blended, no depth test or write).
/// The shader module and layout are built once for the three.
pub(crate) fn mesh_pipelines(
    device: &wgpu::Device,
    layouts: &MeshLayouts,
    format: wgpu::TextureFormat,
    sample_count: u32,
    xray: bool,
) -> [wgpu::RenderPipeline; 3] {
    let module = super::gpu::shader_module(
        device,
        "skinned.wgsl",
        &[DRAW_WGSL, include_str!("../../shaders/skinned.wgsl")],
    );
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("mesh layout"),
        bind_group_layouts: &[Some(&layouts.frame_draw), Some(&layouts.material)],
        immediate_size: 0,
    });
    Faces::ALL
        .map(|faces| mesh_pipeline(device, &module, &layout, format, sample_count, xray, faces))
}

/// One of [`mesh_pipelines`], rasterising `faces`.
fn mesh_pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    layout: &wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
    sample_count: u32,
    xray: bool,
    faces: Faces,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(if xray {
            "x-ray mesh pipeline"
        } else {
            "mesh pipeline"
        }),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[
                super::gpu::per_vertex::<SurfaceVertex>(&SurfaceVertex::ATTRIBUTES),
                super::gpu::per_vertex::<StreamVertex>(&StreamVertex::ATTRIBUTES),
            ],
        },
        primitive: wgpu::PrimitiveState {
            front_face: if faces == Faces::FrontMirrored {
                wgpu::FrontFace::Cw
            } else {
                wgpu::FrontFace::Ccw
            },
            cull_mode: (faces != Faces::Both).then_some(wgpu::Face::Back),
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
            module,
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
