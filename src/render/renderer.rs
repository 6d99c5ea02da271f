//! The renderer: owns pipelines, uploaded meshes and per-frame buffers (reused, grown only
//! when a frame needs more).

use super::frame_uniform::FrameUniform;
use super::gpu::GrowBuffer;
use super::grid::GridPipelines;
use super::mesh::{GpuMesh, upload};
use super::overlay::OverlayBuilder;
use super::skinned::{
    DrawUniform, Faces, MeshLayouts, SKIN_WORKGROUP, StreamVertex, mesh_bind_group, mesh_pipelines,
    skin_bind_group, skin_pipeline, uniform_entry,
};
use super::{FrameData, Gpu, MeshData, MeshHandle, MeshStyle, RenderError};

mod prepare;

/// Offscreen attachments sized to the viewport: MSAA colour (when sample_count > 1) and depth.
struct Attachments {
    size: [u32; 2],
    msaa: Option<wgpu::TextureView>,
    depth: wgpu::TextureView,
}

/// One mesh draw of a frame, in draw order.
#[derive(Clone, Copy, Debug)]
struct DrawItem {
    mesh: usize,
    /// Its [`DrawUniform`]'s slot in the draw-uniform buffer.
    slot: u32,
    /// View distance of the draw's centre (x-ray sorts far to near).
    distance: f32,
    /// Skinned draws: the first of its vertices in the frame's skinned-vertex buffer.
    skinned_first: Option<u32>,
    /// Which faces it shows (picks the pipeline).
    faces: Faces,
}

/// Bytes per vertex of the skinned-vertex buffer.
const STREAM_STRIDE: u64 = std::mem::size_of::<StreamVertex>() as u64;

/// Draws [`FrameData`] into a colour target of the format given at construction.
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    sample_count: u32,
    draw_stride: u64,
    layouts: MeshLayouts,
    frame_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    white: wgpu::TextureView,
    /// Solid meshes, one pipeline per [`Faces`] (by [`Faces::index`]).
    mesh_pipelines: [wgpu::RenderPipeline; 3],
    /// [`MeshStyle::XRay`]: alpha-blended, front faces, no depth write (`fs_xray`).
    xray_pipelines: [wgpu::RenderPipeline; 3],
    grid: GridPipelines,
    overlay_pipeline: wgpu::RenderPipeline,
    frame_buffer: wgpu::Buffer,
    frame_bind_group: wgpu::BindGroup,
    joints: GrowBuffer,
    draws: GrowBuffer,
    overlay_vertices: GrowBuffer,
    mesh_bind_group: wgpu::BindGroup,
    /// The skinning pass (see [`super::skinned`]).
    skin_pipeline: wgpu::ComputePipeline,
    /// The frame's skinned vertices: each skinned draw's range, written by the skinning pass
    /// and read as the mesh pipeline's stream 1.
    skinned_vertices: GrowBuffer,
    skin_bind_group: wgpu::BindGroup,
    meshes: Vec<GpuMesh>,
    attachments: Option<Attachments>,
    // Reused CPU scratch.
    palette: Vec<[[f32; 4]; 4]>,
    draw_bytes: Vec<u8>,
    draw_list: Vec<DrawItem>,
    overlay: OverlayBuilder,
}

impl Renderer {
    /// Builds all pipelines for targets of `format`. `sample_count` 4 gives 4× MSAA (use
    /// [`Gpu::best_sample_count`]); anything the adapter does not support falls back to 1.
    pub fn new(gpu: &Gpu, format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let device = gpu.device.clone();
        let sample_count = if sample_count > 1 && gpu.best_sample_count(format) >= sample_count {
            sample_count
        } else {
            1
        };
        let layouts = MeshLayouts::new(&device);
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("frame layout"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::VERTEX_FRAGMENT, false)],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("base colour sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let white = white_texture(gpu);
        let align = u64::from(device.limits().min_uniform_buffer_offset_alignment.max(1));
        let draw_size = std::mem::size_of::<DrawUniform>() as u64;
        let draw_stride = draw_size.div_ceil(align) * align;
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_bind_group = super::gpu::bind_group(
            &device,
            "frame bind group",
            &frame_layout,
            &[frame_buffer.as_entire_binding()],
        );
        let joints = GrowBuffer::new(
            &device,
            "joint palettes",
            64 * 64,
            wgpu::BufferUsages::STORAGE,
        );
        let draws = GrowBuffer::new(
            &device,
            "draw uniforms",
            draw_stride * 16,
            wgpu::BufferUsages::UNIFORM,
        );
        let overlay_vertices = GrowBuffer::new(
            &device,
            "overlay vertices",
            64 * 1024,
            wgpu::BufferUsages::VERTEX,
        );
        let skinned_vertices = GrowBuffer::new(
            &device,
            "skinned vertices",
            STREAM_STRIDE * 1024,
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_SRC,
        );
        let mesh_bind_group = mesh_bind_group(&device, &layouts, &frame_buffer, &draws.buffer);
        let skin_bind_group = skin_bind_group(
            &device,
            &layouts,
            &joints.buffer,
            &draws.buffer,
            &skinned_vertices.buffer,
        );
        let skin_pipeline = skin_pipeline(&device, &layouts);
        Self {
            mesh_pipelines: mesh_pipelines(&device, &layouts, format, sample_count, false),
            xray_pipelines: mesh_pipelines(&device, &layouts, format, sample_count, true),
            grid: GridPipelines::new(&device, &frame_layout, format, sample_count),
            overlay_pipeline: super::overlay::pipeline(
                &device,
                &frame_layout,
                format,
                sample_count,
            ),
            queue: gpu.queue.clone(),
            device,
            format,
            sample_count,
            draw_stride,
            layouts,
            frame_layout,
            sampler,
            white,
            frame_buffer,
            frame_bind_group,
            joints,
            draws,
            overlay_vertices,
            mesh_bind_group,
            skin_pipeline,
            skinned_vertices,
            skin_bind_group,
            meshes: Vec::new(),
            attachments: None,
            palette: Vec::new(),
            draw_bytes: Vec::new(),
            draw_list: Vec::new(),
            overlay: OverlayBuilder::default(),
        }
    }

    /// The colour format this renderer draws into.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// The MSAA sample count actually in use (1 or 4).
    pub fn sample_count(&self) -> u32 {
        self.sample_count
    }

    /// Validates and uploads `mesh`; the handle stays valid for this renderer's lifetime.
    pub fn upload_mesh(&mut self, mesh: &MeshData) -> Result<MeshHandle, RenderError> {
        let gpu_mesh = upload(
            &self.device,
            &self.queue,
            &self.layouts,
            &self.sampler,
            &self.white,
            mesh,
        )?;
        self.meshes.push(gpu_mesh);
        Ok(MeshHandle(self.meshes.len() - 1))
    }

    /// Encodes and submits one frame into `target`: a single-sample view of this renderer's
    /// format (the MSAA resolve target when multisampling). Attachments and pixel-sized
    /// overlays follow the target's actual size; the camera's projection should match its
    /// aspect ratio.
    pub fn render(
        &mut self,
        target: &wgpu::TextureView,
        frame: &FrameData,
    ) -> Result<(), RenderError> {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("anglerpose frame"),
            });
        self.encode(&mut encoder, target, frame)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Like [`Self::render`] but records into the caller's encoder (buffer uploads are queued
    /// with `Queue::write_buffer` and land before the caller's next submit). A target of
    /// another format or sample count is an error, not a wgpu validation panic.
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        frame: &FrameData,
    ) -> Result<(), RenderError> {
        let texture = target.texture();
        self.encode_pass(
            encoder,
            target,
            [0, 0, texture.width(), texture.height()],
            false,
            frame,
        )
    }

    /// Draws `frame` into the rectangle `rect` (`[x, y, width, height]` pixels) of `target`
    /// and leaves the rest of it as it was: the window's UI pass hands its surface here so
    /// the 3D view is drawn in place, with no offscreen texture to copy and sample. The
    /// background covers the whole rectangle, so its old contents do not show through.
    ///
    /// The rectangle is clipped to the target; a rectangle with nothing inside draws nothing.
    /// Needs a single-sample renderer (MSAA resolves the whole attachment) of the target's
    /// format, else an error. Attachments follow the target's size, pixel-sized overlays and
    /// the frame uniform the rectangle's; the camera's projection should match its aspect.
    pub fn encode_in_rect(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        rect: [u32; 4],
        frame: &FrameData,
    ) -> Result<(), RenderError> {
        if self.sample_count != 1 {
            return Err(RenderError::Gpu {
                during: "render".into(),
                detail: format!(
                    "drawing into part of a target needs 1 sample; this renderer has {}",
                    self.sample_count
                ),
            });
        }
        let texture = target.texture();
        let [x, y, w, h] = rect;
        let (x0, y0) = (x.min(texture.width()), y.min(texture.height()));
        let x1 = x.saturating_add(w).min(texture.width());
        let y1 = y.saturating_add(h).min(texture.height());
        if x1 <= x0 || y1 <= y0 {
            return Ok(());
        }
        self.encode_pass(encoder, target, [x0, y0, x1 - x0, y1 - y0], true, frame)
    }

    /// The frame's skinning and main pass into `rect` (inside `target`); `keep` loads the
    /// target (only `rect` is drawn) instead of clearing it.
    fn encode_pass(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        rect: [u32; 4],
        keep: bool,
        frame: &FrameData,
    ) -> Result<(), RenderError> {
        let texture = target.texture();
        // A view cannot tell its format: a texture of this format's sRGB twin passes too
        // (viewed through its `view_formats` entry, as the editor does with its surface).
        let twin = texture.format().add_srgb_suffix() == self.format.add_srgb_suffix();
        if !twin || texture.sample_count() != 1 {
            return Err(RenderError::Gpu {
                during: "render".into(),
                detail: format!(
                    "target is {:?} with {} samples; this renderer draws into {:?} (1 sample)",
                    texture.format(),
                    texture.sample_count(),
                    self.format
                ),
            });
        }
        let size = [texture.width(), texture.height()];
        self.prepare(frame, [rect[2], rect[3]]);
        self.ensure_attachments(size);
        self.encode_skinning(encoder);
        let Some(att) = &self.attachments else {
            return Ok(());
        };
        let (view, resolve) = match &att.msaa {
            Some(msaa) => (msaa, Some(target)),
            None => (target, None),
        };
        let load = if keep {
            wgpu::LoadOp::Load
        } else {
            wgpu::LoadOp::Clear(wgpu::Color::BLACK)
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("main pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: resolve,
                ops: wgpu::Operations {
                    load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &att.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if keep {
            let [x, y, w, h] = rect;
            pass.set_viewport(x as f32, y as f32, w as f32, h as f32, 0.0, 1.0);
            pass.set_scissor_rect(x, y, w, h);
        }
        pass.set_bind_group(0, &self.frame_bind_group, &[]);
        pass.set_pipeline(&self.grid.background);
        pass.draw(0..3, 0..1);

        let xray = matches!(frame.mesh_style, MeshStyle::XRay { .. });
        // X-ray meshes write no depth: the grid goes first so it shows through them.
        if frame.grid && xray {
            pass.set_pipeline(&self.grid.grid);
            pass.draw(0..6, 0..1);
        }
        self.draw_meshes(&mut pass, xray);

        pass.set_bind_group(0, &self.frame_bind_group, &[]);
        if frame.grid && !xray {
            pass.set_pipeline(&self.grid.grid);
            pass.draw(0..6, 0..1);
        }
        let overlay_count = self.overlay.vertices.len() as u32;
        if overlay_count > 0 {
            pass.set_pipeline(&self.overlay_pipeline);
            pass.set_vertex_buffer(0, self.overlay_vertices.buffer.slice(..));
            pass.draw(0..overlay_count, 0..1);
        }
        Ok(())
    }

    /// The prepared draw list's meshes, in order: x-ray or solid pipelines by `xray`.
    fn draw_meshes(&self, pass: &mut wgpu::RenderPass<'_>, xray: bool) {
        let pipelines = if xray {
            &self.xray_pipelines
        } else {
            &self.mesh_pipelines
        };
        let mut bound = None;
        for item in &self.draw_list {
            let mesh = &self.meshes[item.mesh];
            if mesh.index_count == 0 {
                continue;
            }
            if bound != Some(item.faces) {
                pass.set_pipeline(&pipelines[item.faces.index()]);
                bound = Some(item.faces);
            }
            let offset = (u64::from(item.slot) * self.draw_stride) as u32;
            pass.set_bind_group(0, &self.mesh_bind_group, &[offset]);
            pass.set_bind_group(1, &mesh.material, &[]);
            pass.set_vertex_buffer(0, mesh.surface.slice(..));
            match item.skinned_first {
                Some(first) => {
                    let start = u64::from(first) * STREAM_STRIDE;
                    let end = start + u64::from(mesh.vertex_count) * STREAM_STRIDE;
                    pass.set_vertex_buffer(1, self.skinned_vertices.buffer.slice(start..end));
                }
                None => pass.set_vertex_buffer(1, mesh.rest.slice(..)),
            }
            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..mesh.index_count, 0, 0..1);
        }
    }

    /// The skinning pass of the prepared frame: each skinned draw's vertices, once.
    fn encode_skinning(&self, encoder: &mut wgpu::CommandEncoder) {
        let jobs = || {
            self.draw_list.iter().filter_map(|item| {
                let mesh = &self.meshes[item.mesh];
                let group = mesh.skin_vertices.as_ref()?;
                (item.skinned_first.is_some() && mesh.vertex_count > 0)
                    .then_some((item, mesh, group))
            })
        };
        if jobs().next().is_none() {
            return;
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("skinning pass"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.skin_pipeline);
        for (item, mesh, group) in jobs() {
            let offset = (u64::from(item.slot) * self.draw_stride) as u32;
            pass.set_bind_group(0, &self.skin_bind_group, &[offset]);
            pass.set_bind_group(1, group, &[]);
            pass.dispatch_workgroups(mesh.vertex_count.div_ceil(SKIN_WORKGROUP), 1, 1);
        }
    }

    /// Test support ([`super::skin_check`]): prepares `frame` and runs only its skinning pass.
    /// Returns the skinned-vertex buffer and the byte range of the first skinned draw's
    /// vertices ([`StreamVertex`]es), or `None` when the frame skins nothing.
    #[cfg(feature = "test-support")]
    pub fn skin_only(&mut self, frame: &FrameData) -> Option<(wgpu::Buffer, std::ops::Range<u64>)> {
        self.prepare(frame, [1, 1]);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("skinning only"),
            });
        self.encode_skinning(&mut encoder);
        self.queue.submit([encoder.finish()]);
        let item = self.draw_list.iter().find(|i| i.skinned_first.is_some())?;
        let start = u64::from(item.skinned_first?) * STREAM_STRIDE;
        let len = u64::from(self.meshes[item.mesh].vertex_count) * STREAM_STRIDE;
        Some((self.skinned_vertices.buffer.clone(), start..start + len))
    }

    fn ensure_attachments(&mut self, size: [u32; 2]) {
        if self.attachments.as_ref().is_some_and(|a| a.size == size) {
            return;
        }
        let extent = wgpu::Extent3d {
            width: size[0],
            height: size[1],
            depth_or_array_layers: 1,
        };
        let make = |label: &str, format: wgpu::TextureFormat| {
            self.device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: extent,
                    mip_level_count: 1,
                    sample_count: self.sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&Default::default())
        };
        let msaa = (self.sample_count > 1).then(|| make("msaa colour", self.format));
        let depth = make("depth", super::gpu::DEPTH_FORMAT);
        self.attachments = Some(Attachments { size, msaa, depth });
    }

    /// The frame-uniform layout (for callers adding their own pipelines in the same pass).
    pub fn frame_layout(&self) -> &wgpu::BindGroupLayout {
        &self.frame_layout
    }
}

/// A 1×1 white sRGB texture for untextured meshes.
fn white_texture(gpu: &Gpu) -> wgpu::TextureView {
    super::mesh::srgb_texture_view(&gpu.device, &gpu.queue, "white", [1, 1], &[255; 4])
}
