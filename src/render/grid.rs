//! The background gradient and the fading ground grid on y = 0 (`shaders/grid.wgsl`).

/// Background (no depth test/write, drawn first) and grid (depth-tested against the meshes,
/// no depth write, alpha-blended) pipelines.
pub(crate) struct GridPipelines {
    pub background: wgpu::RenderPipeline,
    pub grid: wgpu::RenderPipeline,
}

impl GridPipelines {
    pub fn new(
        device: &wgpu::Device,
        frame_layout: &wgpu::BindGroupLayout,
        format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        let module = super::gpu::shader_module(
            device,
            "grid.wgsl",
            &[include_str!("../../shaders/grid.wgsl")],
        );
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("grid layout"),
            bind_group_layouts: &[Some(frame_layout)],
            immediate_size: 0,
        });
        let make = |label: &str,
                    vs: &str,
                    fs: &str,
                    depth: wgpu::DepthStencilState,
                    blend: Option<wgpu::BlendState>| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState {
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil: Some(depth),
                multisample: wgpu::MultisampleState {
                    count: sample_count,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fs),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &super::gpu::output_constants(format),
                        ..Default::default()
                    },
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        use super::gpu::depth_state;
        use wgpu::CompareFunction as Cmp;
        Self {
            background: make(
                "background pipeline",
                "vs_background",
                "fs_background",
                depth_state(false, Cmp::Always),
                None,
            ),
            grid: make(
                "grid pipeline",
                "vs_grid",
                "fs_grid",
                depth_state(false, Cmp::Less),
                Some(wgpu::BlendState::ALPHA_BLENDING),
            ),
        }
    }
}
