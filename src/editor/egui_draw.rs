//! [`EguiDraw`]: the window's egui pass, drawn with the editor's own pipeline
//! (`shaders/egui.wgsl`). egui-wgpu's fragment shader branches on uniforms (software texture
//! filtering for snapshot tests, dithering), and llvmpipe runs both sides of such a branch
//! for every fragment: 30–40 ns a textured pixel there, most of a CPU-adapter frame. This
//! pass has no such branch: the vertex colour times the texture, premultiplied alpha, in
//! gamma space (egui's own convention), into the surface.
//!
//! Textures follow egui's [`egui::TexturesDelta`] (whole images and patches; `Rgba8Unorm`,
//! one level); user textures (the 3D viewport) are wgpu views registered with
//! [`EguiDraw::set_native_texture`]. Scissor rectangles are clamped to the target actually
//! drawn into, which may be smaller than the size the UI was laid out at (a resize between
//! layout and acquire).

use crate::render::gpu::{GrowBuffer, colour_pass, texture_sampler_group, texture_sampler_layout};
use crate::render::skinned::uniform_entry;
use egui::epaint::textures::{TextureFilter, TextureWrapMode};
use egui::epaint::{ImageData, ImageDelta, Primitive};
use egui::{ClippedPrimitive, TextureId, TextureOptions};
use std::collections::HashMap;

/// One vertex as the shader reads it (egui's `Vertex`: position and uv in points, colour).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuVertex {
    position: [f32; 2],
    uv: [f32; 2],
    colour: u32,
}

/// An egui texture: its bind group, and the texture itself when egui owns it (patches are
/// written into it).
struct Entry {
    texture: Option<wgpu::Texture>,
    bind_group: wgpu::BindGroup,
}

/// The egui pipeline, textures and buffers of one window (see the module docs).
pub struct EguiDraw {
    pipeline: wgpu::RenderPipeline,
    texture_layout: wgpu::BindGroupLayout,
    screen: wgpu::Buffer,
    screen_group: wgpu::BindGroup,
    samplers: HashMap<TextureOptions, wgpu::Sampler>,
    textures: HashMap<TextureId, Entry>,
    next_user: u64,
    vertex: GrowBuffer,
    index: GrowBuffer,
    vertices: Vec<GpuVertex>,
    indices: Vec<u32>,
}

impl EguiDraw {
    /// A pass drawing into targets of `format` (gamma-space formats such as `Bgra8Unorm` are
    /// what egui expects; an `*Srgb` target gets linear colours).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("egui.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/egui.wgsl").into()),
        });
        let screen_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("egui screen"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::VERTEX, false)],
        });
        let texture_layout = texture_sampler_layout(device, "egui texture");
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("egui layout"),
            bind_group_layouts: &[Some(&screen_layout), Some(&texture_layout)],
            immediate_size: 0,
        });
        let linear = if format.is_srgb() { 1.0 } else { 0.0 };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("egui pipeline"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[crate::render::gpu::per_vertex::<GpuVertex>(
                    &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Uint32],
                )],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &[("LINEAR_TARGET", linear)],
                    ..Default::default()
                },
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    // Premultiplied colour; alpha as egui composes it.
                    blend: Some(wgpu::BlendState {
                        color: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::One,
                            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                            operation: wgpu::BlendOperation::Add,
                        },
                        alpha: wgpu::BlendComponent {
                            src_factor: wgpu::BlendFactor::OneMinusDstAlpha,
                            dst_factor: wgpu::BlendFactor::One,
                            operation: wgpu::BlendOperation::Add,
                        },
                    }),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let screen = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("egui screen"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let screen_group = crate::render::gpu::bind_group(
            device,
            "egui screen",
            &screen_layout,
            &[screen.as_entire_binding()],
        );
        Self {
            pipeline,
            texture_layout,
            screen,
            screen_group,
            samplers: HashMap::new(),
            textures: HashMap::new(),
            next_user: 0,
            vertex: GrowBuffer::new(device, "egui vertices", 1 << 16, wgpu::BufferUsages::VERTEX),
            index: GrowBuffer::new(device, "egui indices", 1 << 16, wgpu::BufferUsages::INDEX),
            vertices: Vec::new(),
            indices: Vec::new(),
        }
    }

    fn bind_group(
        &mut self,
        device: &wgpu::Device,
        view: &wgpu::TextureView,
        options: TextureOptions,
    ) -> wgpu::BindGroup {
        let sampler = self.samplers.entry(options).or_insert_with(|| {
            let filter = |f| match f {
                TextureFilter::Nearest => wgpu::FilterMode::Nearest,
                TextureFilter::Linear => wgpu::FilterMode::Linear,
            };
            let address = match options.wrap_mode {
                TextureWrapMode::ClampToEdge => wgpu::AddressMode::ClampToEdge,
                TextureWrapMode::Repeat => wgpu::AddressMode::Repeat,
                TextureWrapMode::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
            };
            device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("egui sampler"),
                address_mode_u: address,
                address_mode_v: address,
                mag_filter: filter(options.magnification),
                min_filter: filter(options.minification),
                ..Default::default()
            })
        });
        texture_sampler_group(device, "egui texture", &self.texture_layout, view, sampler)
    }

    /// Applies one of egui's texture updates: a whole image (a new texture) or a patch of an
    /// existing one. A patch of a texture this pass does not have is ignored (egui always
    /// sends the whole image first).
    pub fn update_texture(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        id: TextureId,
        delta: &ImageDelta,
    ) {
        let ImageData::Color(image) = &delta.image;
        let [w, h] = image.size.map(|v| v as u32);
        if w == 0 || h == 0 {
            return;
        }
        let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        let (texture, origin) = match delta.pos {
            Some([x, y]) => match self.textures.get(&id).and_then(|e| e.texture.as_ref()) {
                Some(t) => (
                    t.clone(),
                    wgpu::Origin3d {
                        x: x as u32,
                        y: y as u32,
                        z: 0,
                    },
                ),
                None => return,
            },
            None => {
                let texture = device.create_texture(&wgpu::TextureDescriptor {
                    label: Some("egui texture"),
                    size: wgpu::Extent3d {
                        width: w,
                        height: h,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba8Unorm,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                let view = texture.create_view(&Default::default());
                let bind_group = self.bind_group(device, &view, delta.options);
                self.textures.insert(
                    id,
                    Entry {
                        texture: Some(texture.clone()),
                        bind_group,
                    },
                );
                (texture, wgpu::Origin3d::ZERO)
            }
        };
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin,
                aspect: wgpu::TextureAspect::All,
            },
            &bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * w),
                rows_per_image: Some(h),
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
    }

    /// Forgets a texture egui freed (or a user texture).
    pub fn free_texture(&mut self, id: &TextureId) {
        self.textures.remove(id);
    }

    /// Shows `view` (an `Rgba8Unorm`-compatible, gamma-space texture) as the user texture
    /// `id`, or as a new one when `id` is `None`; returns the id to draw it with.
    pub fn set_native_texture(
        &mut self,
        device: &wgpu::Device,
        id: Option<TextureId>,
        view: &wgpu::TextureView,
        filter: TextureFilter,
    ) -> TextureId {
        let id = id.unwrap_or_else(|| {
            self.next_user += 1;
            TextureId::User(self.next_user)
        });
        let options = TextureOptions {
            magnification: filter,
            minification: filter,
            ..TextureOptions::LINEAR
        };
        let bind_group = self.bind_group(device, view, options);
        self.textures.insert(
            id,
            Entry {
                texture: None,
                bind_group,
            },
        );
        id
    }

    /// Draws `jobs` (egui's tessellated output, laid out at `pixels_per_point`) into `target`
    /// of `size` pixels, cleared to `clear` first. Paint callbacks draw nothing (see
    /// [`Self::draw_with`]).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: [u32; 2],
        pixels_per_point: f32,
        clear: wgpu::Color,
        jobs: &[ClippedPrimitive],
    ) {
        let mut none = |_: &mut wgpu::CommandEncoder, _: &wgpu::TextureView, _: &Callback| {};
        self.draw_with(
            device,
            queue,
            encoder,
            target,
            size,
            pixels_per_point,
            clear,
            jobs,
            &mut none,
        );
    }

    /// [`Self::draw`], handing each paint callback to `paint` in its place in egui's order:
    /// what egui drew before it is in `target` already, what comes after is drawn over
    /// whatever `paint` records (a pass of its own into `target`, typically restricted to
    /// [`Callback::rect`]). Callbacks with nothing inside the target are skipped.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_with(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: [u32; 2],
        pixels_per_point: f32,
        clear: wgpu::Color,
        jobs: &[ClippedPrimitive],
        paint: &mut dyn FnMut(&mut wgpu::CommandEncoder, &wgpu::TextureView, &Callback),
    ) {
        let ppp = pixels_per_point.max(1e-3);
        // Every mesh's vertices and indices in one buffer each; draws offset into them.
        self.vertices.clear();
        self.indices.clear();
        let mut items = Vec::with_capacity(jobs.len());
        for job in jobs {
            match &job.primitive {
                Primitive::Mesh(mesh) => {
                    if mesh.indices.is_empty() || !self.textures.contains_key(&mesh.texture_id) {
                        continue;
                    }
                    let base = self.vertices.len() as i32;
                    let first = self.indices.len() as u32;
                    self.vertices
                        .extend(mesh.vertices.iter().map(|v| GpuVertex {
                            position: [v.pos.x, v.pos.y],
                            uv: [v.uv.x, v.uv.y],
                            colour: u32::from_le_bytes(v.color.to_array()),
                        }));
                    self.indices.extend_from_slice(&mesh.indices);
                    let count = mesh.indices.len() as u32;
                    items.push(Item::Mesh {
                        clip: job.clip_rect,
                        id: mesh.texture_id,
                        range: first..first + count,
                        base,
                    });
                }
                Primitive::Callback(cb) => {
                    let Some(rect) = scissor(cb.rect.intersect(job.clip_rect), ppp, size) else {
                        continue;
                    };
                    items.push(Item::Callback(Callback {
                        rect,
                        callback: cb.callback.clone(),
                    }));
                }
            }
        }
        let points = [size[0] as f32 / ppp, size[1] as f32 / ppp, 0.0, 0.0];
        queue.write_buffer(&self.screen, 0, bytemuck::cast_slice(&points));
        let vertex_bytes: &[u8] = bytemuck::cast_slice(&self.vertices);
        let index_bytes: &[u8] = bytemuck::cast_slice(&self.indices);
        self.vertex.write(device, queue, vertex_bytes);
        self.index.write(device, queue, index_bytes);
        // One pass per run of meshes between callbacks: the first clears the target.
        let mut load = wgpu::LoadOp::Clear(clear);
        let mut rest = &items[..];
        loop {
            let run = rest
                .iter()
                .position(|i| matches!(i, Item::Callback(_)))
                .unwrap_or(rest.len());
            if run > 0 || matches!(load, wgpu::LoadOp::Clear(_)) {
                let mut pass = colour_pass(encoder, "egui", target, load);
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, &self.screen_group, &[]);
                if !vertex_bytes.is_empty() {
                    pass.set_vertex_buffer(
                        0,
                        self.vertex.buffer.slice(..vertex_bytes.len() as u64),
                    );
                    pass.set_index_buffer(
                        self.index.buffer.slice(..index_bytes.len() as u64),
                        wgpu::IndexFormat::Uint32,
                    );
                }
                for item in &rest[..run] {
                    let Item::Mesh {
                        clip,
                        id,
                        range,
                        base,
                    } = item
                    else {
                        continue;
                    };
                    let Some([x, y, w, h]) = scissor(*clip, ppp, size) else {
                        continue;
                    };
                    pass.set_scissor_rect(x, y, w, h);
                    pass.set_bind_group(1, &self.textures[id].bind_group, &[]);
                    pass.draw_indexed(range.clone(), *base, 0..1);
                }
            }
            load = wgpu::LoadOp::Load;
            let Some(Item::Callback(callback)) = rest.get(run) else {
                break;
            };
            paint(encoder, target, callback);
            rest = &rest[run + 1..];
        }
    }
}

/// A paint callback as [`EguiDraw::draw_with`] hands it over.
pub struct Callback {
    /// Where it paints, in target pixels (`[x, y, width, height]`): its rectangle cut to its
    /// clip rectangle and the target, never empty.
    pub rect: [u32; 4],
    /// What egui carried (`egui::PaintCallback::callback`): the UI's own marker type.
    pub callback: std::sync::Arc<dyn std::any::Any + Send + Sync>,
}

/// One draw of the pass, in egui's order.
enum Item {
    Mesh {
        clip: egui::Rect,
        id: TextureId,
        range: std::ops::Range<u32>,
        base: i32,
    },
    Callback(Callback),
}

/// `clip` (points) in pixels of a `size` target, rounded and clamped into it; `None` when
/// nothing of it is inside.
fn scissor(clip: egui::Rect, ppp: f32, size: [u32; 2]) -> Option<[u32; 4]> {
    let px = |v: f32, max: u32| ((v * ppp).round().max(0.0) as u32).min(max);
    let (x0, y0) = (px(clip.min.x, size[0]), px(clip.min.y, size[1]));
    let (x1, y1) = (px(clip.max.x, size[0]), px(clip.max.y, size[1]));
    (x1 > x0 && y1 > y0).then_some([x0, y0, x1 - x0, y1 - y0])
}
