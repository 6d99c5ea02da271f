//! The renderer: owns pipelines, uploaded meshes and per-frame buffers (reused, grown only
//! when a frame needs more).

use super::camera::FrameUniform;
use super::gpu::GrowBuffer;
use super::grid::GridPipelines;
use super::mesh::{GpuMesh, upload};
use super::overlay::{OverlayBuilder, OverlayVertex};
use super::skinned::{
    DrawUniform, Faces, IDENTITY, MeshLayouts, SKIN_WORKGROUP, StreamVertex, extend_palette,
    mesh_bind_group, mesh_pipelines, skin_bind_group, skin_pipeline, uniform_entry,
};
use super::{Camera, FrameData, Gpu, MeshData, MeshHandle, MeshStyle, RenderError};
use glam::{Mat4, Vec3};

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
        if texture.format() != self.format || texture.sample_count() != 1 {
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
        self.prepare(frame, size);
        self.ensure_attachments(size);
        self.encode_skinning(encoder);
        let Some(att) = &self.attachments else {
            return Ok(());
        };
        let (view, resolve) = match &att.msaa {
            Some(msaa) => (msaa, Some(target)),
            None => (target, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("main pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: resolve,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
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
        pass.set_bind_group(0, &self.frame_bind_group, &[]);
        pass.set_pipeline(&self.grid.background);
        pass.draw(0..3, 0..1);

        let xray = matches!(frame.mesh_style, MeshStyle::XRay { .. });
        // X-ray meshes write no depth: the grid goes first so it shows through them.
        if frame.grid && xray {
            pass.set_pipeline(&self.grid.grid);
            pass.draw(0..6, 0..1);
        }
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

    /// CPU work of a frame: frame uniform, joint palettes, draw uniforms, overlay vertices.
    fn prepare(&mut self, frame: &FrameData, target_size: [u32; 2]) {
        let camera = Camera {
            viewport: target_size,
            ..frame.camera
        };
        let mut uniform = FrameUniform::new(&camera);
        if let MeshStyle::XRay { opacity } = frame.mesh_style {
            uniform.flags[2] = if opacity.is_finite() {
                opacity.clamp(0.0, 1.0)
            } else {
                MeshStyle::XRAY_OPACITY
            };
        }
        self.queue
            .write_buffer(&self.frame_buffer, 0, bytemuck::bytes_of(&uniform));

        self.palette.clear();
        self.draw_bytes.clear();
        self.draw_list.clear();
        let view = Mat4::from_cols_array_2d(&frame.camera.view_from_world);
        let stride = self.draw_stride as usize;
        let mut skinned_count = 0u32;
        for draw in &frame.skinned {
            let Some(mesh) = self.meshes.get(draw.mesh.0) else {
                continue;
            };
            let base = self.palette.len() as u32;
            let need = if mesh.is_skinned() {
                mesh.max_joint as usize + 1
            } else {
                0
            };
            extend_palette(&mut self.palette, &draw.skin_matrices, need);
            // A rigid mesh drawn as skinned reads its rest stream.
            let skinned_first = mesh.is_skinned().then_some(skinned_count);
            skinned_count += skinned_first.map_or(0, |_| mesh.vertex_count);
            let uniform = DrawUniform {
                world_from_mesh: IDENTITY,
                normal_from_mesh: IDENTITY,
                colour: mesh.base_color,
                flags: [0, base, skinned_first.unwrap_or(0), 0],
            };
            push_draw(&mut self.draw_bytes, &uniform, stride);
            let centre = skinned_centre(mesh, &self.palette[base as usize..]);
            self.draw_list.push(DrawItem {
                mesh: draw.mesh.0,
                slot: self.draw_list.len() as u32,
                distance: view_distance(&view, centre),
                skinned_first,
                faces: Faces::of_draw(mesh.double_sided, false),
            });
        }
        for draw in &frame.rigid {
            let Some(mesh) = self.meshes.get(draw.mesh.0) else {
                continue;
            };
            let model = Mat4::from_cols_array_2d(&draw.world_from_mesh);
            if !model.is_finite() {
                continue;
            }
            let det = model.determinant();
            let faces = Faces::of_draw(mesh.double_sided, det < 0.0);
            let normal = if det.abs() > 1e-20 {
                model.inverse().transpose()
            } else {
                model
            };
            let tint = if draw.tint.iter().all(|c| c.is_finite()) {
                draw.tint
            } else {
                [1.0; 4]
            };
            let uniform = DrawUniform {
                world_from_mesh: draw.world_from_mesh,
                normal_from_mesh: normal.to_cols_array_2d(),
                colour: std::array::from_fn(|i| mesh.base_color[i] * tint[i]),
                flags: [0, 0, 0, 0],
            };
            push_draw(&mut self.draw_bytes, &uniform, stride);
            let centre = model.transform_point3(Vec3::from(mesh.centre));
            self.draw_list.push(DrawItem {
                mesh: draw.mesh.0,
                slot: self.draw_list.len() as u32,
                distance: view_distance(&view, centre),
                skinned_first: None,
                faces,
            });
        }
        if matches!(frame.mesh_style, MeshStyle::XRay { .. }) {
            // See-through meshes blend in order: far to near (by their centres).
            self.draw_list.sort_by(|a, b| {
                b.distance
                    .partial_cmp(&a.distance)
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        }
        if self.palette.is_empty() {
            self.palette.push(IDENTITY);
        }
        let mut rebind = self.joints.write(
            &self.device,
            &self.queue,
            bytemuck::cast_slice(&self.palette),
        );
        let draws_grown = self
            .draws
            .write(&self.device, &self.queue, &self.draw_bytes);
        rebind |= draws_grown;
        rebind |= self.skinned_vertices.reserve(
            &self.device,
            u64::from(skinned_count.max(1)) * STREAM_STRIDE,
        );
        if draws_grown {
            self.mesh_bind_group = mesh_bind_group(
                &self.device,
                &self.layouts,
                &self.frame_buffer,
                &self.draws.buffer,
            );
        }
        if rebind {
            self.skin_bind_group = skin_bind_group(
                &self.device,
                &self.layouts,
                &self.joints.buffer,
                &self.draws.buffer,
                &self.skinned_vertices.buffer,
            );
        }
        self.overlay.build(&frame.overlays, &frame.camera);
        self.overlay_vertices.write(
            &self.device,
            &self.queue,
            bytemuck::cast_slice::<OverlayVertex, u8>(&self.overlay.vertices),
        );
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

/// Distance of `p` in front of the camera (view space looks down −Z); 0 for non-finite input.
fn view_distance(view: &Mat4, p: Vec3) -> f32 {
    let d = -view.transform_point3(p).z;
    if d.is_finite() { d } else { 0.0 }
}

/// World centre of a skinned draw: the mesh's bind-space centre moved by each joint it uses,
/// averaged (its own centre for a rigid mesh drawn through the skinned path).
fn skinned_centre(mesh: &super::mesh::GpuMesh, palette: &[[[f32; 4]; 4]]) -> Vec3 {
    let c = Vec3::from(mesh.centre);
    if !mesh.is_skinned() {
        return c;
    }
    let (mut sum, mut n) = (Vec3::ZERO, 0u32);
    for m in mesh
        .used_joints
        .iter()
        .filter_map(|&j| palette.get(usize::from(j)))
    {
        sum += Mat4::from_cols_array_2d(m).transform_point3(c);
        n += 1;
    }
    if n == 0 { c } else { sum / n as f32 }
}

fn push_draw(bytes: &mut Vec<u8>, uniform: &DrawUniform, stride: usize) {
    let start = bytes.len();
    bytes.extend_from_slice(bytemuck::bytes_of(uniform));
    bytes.resize(start + stride, 0);
}

/// A 1×1 white sRGB texture for untextured meshes.
fn white_texture(gpu: &Gpu) -> wgpu::TextureView {
    super::mesh::srgb_texture_view(&gpu.device, &gpu.queue, "white", [1, 1], &[255; 4])
}
