//! The window's GPU state: surface, device, our 3D renderer drawing the viewport into an
//! offscreen texture, and egui-wgpu drawing the UI (with that texture) into the surface.

use super::EditorState;
use super::egui_draw::EguiDraw;
use super::gizmo::editor_frame;
use super::script::SurfaceFault;
use crate::render::capture::{CAPTURE_FORMAT, capture};
use crate::render::{Gpu, RenderError, Renderer};
use std::sync::Arc;
use winit::window::Window;

/// The offscreen textures the 3D viewport is rendered into and shown by egui from.
pub struct ViewportTexture {
    /// The sRGB render target (our renderer draws through `view`).
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    /// A plain `Rgba8Unorm` copy of the same bytes for egui, which treats texture colours as
    /// gamma-encoded (sampling the sRGB texture would decode them and darken the image). A
    /// copy rather than a second view of one texture: view formats are missing on some
    /// adapters (GL).
    pub ui_texture: wgpu::Texture,
    pub size: [u32; 2],
    pub id: egui::TextureId,
}

/// What [`Gfx::acquire`] got for this frame.
pub enum Acquired {
    Texture(wgpu::SurfaceTexture),
    /// No area or occluded (minimised): skip; a window event brings the next frame.
    Hidden,
    /// Timed out, or still outdated or lost after one repair: skip and try again soon.
    Retry,
}

pub struct Gfx {
    pub window: Arc<Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub gpu: Gpu,
    pub renderer: Renderer,
    pub egui_renderer: EguiDraw,
    pub viewport: Option<ViewportTexture>,
    /// MSAA samples of the 3D renderer (kept for [`Gfx::rebuild_renderer`]).
    samples: u32,
    /// False while the surface waits for a configure: after a `Suboptimal` frame, or a
    /// recreated surface while the window had no area.
    configured: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum GfxError {
    #[error("creating the window surface: {0}")]
    Surface(String),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("the surface offers no texture format")]
    NoFormat,
}

impl Gfx {
    pub fn new(instance: wgpu::Instance, window: Arc<Window>) -> Result<Self, GfxError> {
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| GfxError::Surface(e.to_string()))?;
        let gpu = Gpu::from_instance(instance, Some(&surface))?;
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps
            .formats
            .iter()
            .copied()
            // egui blends in gamma space and wants a non-sRGB framebuffer.
            .find(|f| !f.is_srgb())
            .or_else(|| caps.formats.first().copied())
            .ok_or(GfxError::NoFormat)?;
        let size = window.inner_size();
        let present_mode = if caps.present_modes.contains(&wgpu::PresentMode::Fifo) {
            wgpu::PresentMode::Fifo
        } else {
            caps.present_modes
                .first()
                .copied()
                .unwrap_or(wgpu::PresentMode::Fifo)
        };
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        surface.configure(&gpu.device, &config);
        // 4× MSAA costs 2–3× the frame time on CPU rasterisers; interactive there uses 1.
        let samples = if gpu.is_cpu() {
            1
        } else {
            gpu.best_sample_count(CAPTURE_FORMAT)
        };
        let renderer = Renderer::new(&gpu, CAPTURE_FORMAT, samples);
        let egui_renderer = EguiDraw::new(&gpu.device, format);
        Ok(Self {
            window,
            surface,
            config,
            gpu,
            renderer,
            egui_renderer,
            viewport: None,
            samples,
            configured: true,
        })
    }

    /// After a GPU error: a fresh 3D renderer (pipelines and buffers), a fresh viewport
    /// texture and a reconfigured surface. The caller uploads the meshes again. egui's
    /// renderer keeps its textures (egui sends them only once).
    pub fn rebuild_renderer(&mut self) {
        self.renderer = Renderer::new(&self.gpu, CAPTURE_FORMAT, self.samples);
        if let Some(v) = self.viewport.take() {
            self.egui_renderer.free_texture(&v.id);
        }
        self.resize();
    }

    /// Reconfigures the surface for the window's size; false while minimised (size 0), when
    /// the surface stays unconfigured until the window has an area again.
    pub fn resize(&mut self) -> bool {
        let size = self.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return false;
        }
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.gpu.device, &self.config);
        self.configured = true;
        true
    }

    /// Recreates the surface after `Lost` (configured now, or on the next frame with an area).
    pub fn recreate_surface(&mut self) -> Result<(), GfxError> {
        let surface = self
            .gpu
            .instance
            .create_surface(self.window.clone())
            .map_err(|e| GfxError::Surface(e.to_string()))?;
        let formats = surface.get_capabilities(&self.gpu.adapter).formats;
        if !formats.contains(&self.config.format) {
            // The UI renderer's pipelines are built for this format.
            return Err(GfxError::Surface(format!(
                "the recreated surface does not offer {:?} (offers {formats:?})",
                self.config.format
            )));
        }
        self.surface = surface;
        self.configured = false;
        self.resize();
        Ok(())
    }

    /// The texture to draw this frame's UI into, or why this frame is skipped. An outdated
    /// surface is reconfigured, a lost one recreated, and the texture acquired once more.
    /// `fault`, when set, stands in for the status `get_current_texture` reports (scripted
    /// tests), so a faked fault takes exactly the path of a real one.
    pub fn acquire(&mut self, fault: &mut Option<SurfaceFault>) -> Result<Acquired, GfxError> {
        use wgpu::CurrentSurfaceTexture as S;
        let size = self.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Ok(Acquired::Hidden);
        }
        // Two tries: the second after handling an outdated or lost surface.
        for _ in 0..2 {
            if !self.configured
                || [self.config.width, self.config.height] != [size.width, size.height]
            {
                self.resize();
            }
            let status = match fault.take() {
                Some(SurfaceFault::Lost) => S::Lost,
                Some(SurfaceFault::Outdated) => S::Outdated,
                None => self.surface.get_current_texture(),
            };
            match status {
                S::Success(texture) => return Ok(Acquired::Texture(texture)),
                S::Suboptimal(texture) => {
                    // Draw this one; reconfigure before the next (not while it is held).
                    self.configured = false;
                    return Ok(Acquired::Texture(texture));
                }
                S::Occluded => return Ok(Acquired::Hidden),
                S::Timeout => return Ok(Acquired::Retry),
                S::Outdated => {
                    tracing::warn!(
                        "surface outdated: reconfiguring ({}x{})",
                        size.width,
                        size.height
                    );
                    self.resize();
                }
                S::Lost => {
                    tracing::warn!("surface lost: recreating ({}x{})", size.width, size.height);
                    self.recreate_surface()?;
                }
                S::Validation => {
                    return Err(GfxError::Surface(
                        "validation error acquiring the next frame".into(),
                    ));
                }
            }
        }
        Ok(Acquired::Retry)
    }

    /// Draws egui's `jobs` into `target` (cleared to the window colour) and presents it.
    /// Returns the target's size in pixels.
    ///
    /// The size handed to the egui pass is the target's own, not the window's: during a burst
    /// of resizes the window can change between layout, configure and acquire, and scissor
    /// rectangles clamped to a stale size would fall outside the texture (a wgpu validation
    /// error). A mismatched frame is drawn clipped; the caller lays out again.
    pub fn draw_ui(
        &mut self,
        target: wgpu::SurfaceTexture,
        jobs: &[egui::ClippedPrimitive],
        pixels_per_point: f32,
    ) -> [u32; 2] {
        let size_in_pixels = [target.texture.width(), target.texture.height()];
        let view = target.texture.create_view(&Default::default());
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        let clear = wgpu::Color {
            r: 0.02,
            g: 0.02,
            b: 0.025,
            a: 1.0,
        };
        self.egui_renderer.draw(
            &self.gpu.device,
            &self.gpu.queue,
            &mut encoder,
            &view,
            size_in_pixels,
            pixels_per_point,
            clear,
            jobs,
        );
        self.gpu.queue.submit([encoder.finish()]);
        self.window.pre_present_notify();
        self.gpu.queue.present(target);
        size_in_pixels
    }

    /// Makes sure the viewport texture has `size` (physical pixels, each side ≥ 1).
    pub fn ensure_viewport(&mut self, size: [u32; 2]) -> egui::TextureId {
        let max = self.gpu.device.limits().max_texture_dimension_2d;
        let size = [size[0].clamp(1, max), size[1].clamp(1, max)];
        if let Some(v) = &self.viewport
            && v.size == size
        {
            return v.id;
        }
        let extent = wgpu::Extent3d {
            width: size[0],
            height: size[1],
            depth_or_array_layers: 1,
        };
        let texture_2d = |label, format, usage| {
            self.gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let texture = texture_2d(
            "viewport",
            CAPTURE_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        );
        let ui_texture = texture_2d(
            "viewport for egui",
            CAPTURE_FORMAT.remove_srgb_suffix(),
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        let view = texture.create_view(&Default::default());
        let ui_view = ui_texture.create_view(&Default::default());
        let old = self.viewport.as_ref().map(|v| v.id);
        let id = self.egui_renderer.set_native_texture(
            &self.gpu.device,
            old,
            &ui_view,
            egui::TextureFilter::Linear,
        );
        self.viewport = Some(ViewportTexture {
            texture,
            view,
            ui_texture,
            size,
            id,
        });
        id
    }

    /// Builds a fresh renderer with `stage`'s meshes (after opening another character).
    pub fn upload_stage(&mut self, stage: &crate::stage::Stage) -> Result<(), RenderError> {
        let samples = self.renderer.sample_count();
        let mut renderer = Renderer::new(&self.gpu, CAPTURE_FORMAT, samples);
        for mesh in stage.mesh_data() {
            renderer.upload_mesh(&mesh)?;
        }
        self.renderer = renderer;
        Ok(())
    }

    /// Renders the 3D view of `ed` into the viewport texture.
    pub fn render_viewport(&mut self, ed: &EditorState) -> Result<(), RenderError> {
        let Some(v) = &self.viewport else {
            return Ok(());
        };
        let frame = editor_frame(ed, ed.camera.to_camera(v.size), true);
        self.renderer.render(&v.view, &frame)?;
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_texture(
            v.texture.as_image_copy(),
            v.ui_texture.as_image_copy(),
            v.texture.size(),
        );
        self.gpu.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Renders the 3D view of `ed` offscreen at `size` and reads it back.
    pub fn screenshot(
        &mut self,
        ed: &EditorState,
        size: [u32; 2],
        overlays: bool,
    ) -> Result<image::RgbaImage, RenderError> {
        let frame = editor_frame(ed, ed.camera.to_camera(size), overlays);
        capture(&self.gpu, &mut self.renderer, &frame)
    }
}

/// Encodes `image` as PNG and writes it atomically.
pub fn save_png(image: &image::RgbaImage, path: &std::path::Path) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .map_err(std::io::Error::other)?;
    crate::preset::io::write_atomic(path, &bytes)
}
