//! The window's GPU state: surface, device, our 3D renderer and the egui pass.
//!
//! Single-sampled (the default on CPU adapters) the 3D view is drawn in place: the egui pass
//! meets the viewport's paint callback and hands its surface to the renderer, which draws
//! into that rectangle alone ([`Renderer::encode_in_rect`]); what egui paints later (labels,
//! menus) lands on top. No offscreen texture, copy or textured quad: on lavapipe those cost
//! several milliseconds a frame. With MSAA (GPU adapters) the view is rendered offscreen,
//! resolved, copied to a texture egui can sample and shown as an image, since a resolve
//! writes its whole attachment.

use super::EditorState;
use super::app_ui::{InPlaceViewport, ViewportImage};
use super::egui_draw::{Callback, EguiDraw};
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
    /// The offscreen viewport (MSAA only; see the module docs).
    pub viewport: Option<ViewportTexture>,
    /// MSAA samples of the 3D renderer (kept for [`Gfx::rebuild_renderer`]).
    samples: u32,
    /// The 3D view is drawn straight into the window (one sample).
    in_place: bool,
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
    /// The window's GPU state. `msaa` is the 3D view's sample count (1 or 4; `None`: 1 on
    /// CPU adapters, where 4× MSAA costs 2–3× the frame time, else the adapter's best).
    /// One sample draws the view in place; an unsupported count falls back to 1 (offscreen).
    pub fn new(
        instance: wgpu::Instance,
        window: Arc<Window>,
        msaa: Option<u32>,
    ) -> Result<Self, GfxError> {
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
        let samples = match msaa {
            Some(n) => n,
            None if gpu.is_cpu() => 1,
            None => gpu.best_sample_count(CAPTURE_FORMAT),
        };
        let in_place = samples == 1;
        // In place, the 3D view draws through an sRGB view of the surface where the adapter
        // allows one: the store encodes, where the shaders' own encode costs three `pow`s a
        // fragment on CPU rasterisers.
        let srgb = format.add_srgb_suffix();
        let srgb_view = in_place
            && srgb != format
            && gpu
                .adapter
                .get_downlevel_capabilities()
                .flags
                .contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS);
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
            view_formats: if srgb_view { vec![srgb] } else { vec![] },
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        surface.configure(&gpu.device, &config);
        let renderer = Renderer::new(&gpu, Self::target_format_of(&config, in_place), samples);
        let samples = renderer.sample_count();
        if in_place {
            tracing::info!("3D view: in place, 1 sample, into {:?}", renderer.format());
        } else {
            tracing::info!("3D view: offscreen, {samples} sample(s), shown as an image");
        }
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
            in_place,
            configured: true,
        })
    }

    /// The format the 3D renderer draws into: the surface's in place, else the offscreen
    /// texture's.
    fn target_format(&self) -> wgpu::TextureFormat {
        Self::target_format_of(&self.config, self.in_place)
    }

    /// [`Self::target_format`] for a surface configured as `config`: its sRGB view format
    /// when it has one, else its own format (the shaders encode).
    fn target_format_of(
        config: &wgpu::SurfaceConfiguration,
        in_place: bool,
    ) -> wgpu::TextureFormat {
        match (in_place, config.view_formats.first()) {
            (false, _) => CAPTURE_FORMAT,
            (true, Some(view)) => *view,
            (true, None) => config.format,
        }
    }

    /// How the UI is to show the 3D view this frame.
    pub fn viewport_image(&self) -> ViewportImage {
        match (&self.viewport, self.in_place) {
            (_, true) => ViewportImage::InPlace,
            (Some(v), false) => ViewportImage::Texture(v.id),
            (None, false) => ViewportImage::None,
        }
    }

    /// After a GPU error: a fresh 3D renderer (pipelines and buffers), a fresh viewport
    /// texture and a reconfigured surface. The caller uploads the meshes again. egui's
    /// renderer keeps its textures (egui sends them only once).
    pub fn rebuild_renderer(&mut self) {
        self.renderer = Renderer::new(&self.gpu, self.target_format(), self.samples);
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

    /// Draws egui's `jobs` into `target` (cleared to `clear`, an egui colour: the panels'
    /// fill, see [`super::app_ui::UiState::panels_on_clear`]) and presents it; in
    /// place, the 3D view of `ed` is drawn where the UI put its paint callback. Returns the
    /// target's size in pixels, and how drawing the 3D view went.
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
        clear: egui::Color32,
        ed: &EditorState,
    ) -> ([u32; 2], Result<(), RenderError>) {
        let size_in_pixels = [target.texture.width(), target.texture.height()];
        let view = target.texture.create_view(&Default::default());
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        let clear = if self.config.format.is_srgb() {
            let c = egui::Rgba::from(clear);
            [c.r(), c.g(), c.b()]
        } else {
            let [r, g, b, _] = clear.to_array();
            [r, g, b].map(|v| f32::from(v) / 255.0)
        };
        let clear = wgpu::Color {
            r: f64::from(clear[0]),
            g: f64::from(clear[1]),
            b: f64::from(clear[2]),
            a: 1.0,
        };
        let renderer = &mut self.renderer;
        // The 3D view's own view of the surface (sRGB where configured).
        let view_3d = self.in_place.then(|| {
            target.texture.create_view(&wgpu::TextureViewDescriptor {
                format: Some(renderer.format()),
                ..Default::default()
            })
        });
        let mut drawn = Ok(());
        let mut paint =
            |encoder: &mut wgpu::CommandEncoder, _: &wgpu::TextureView, cb: &Callback| {
                if cb.callback.downcast_ref::<InPlaceViewport>().is_none() {
                    return;
                }
                let Some(view) = &view_3d else {
                    return;
                };
                let [_, _, w, h] = cb.rect;
                let frame = editor_frame(ed, ed.view().camera().to_camera([w, h]), true);
                if let Err(e) = renderer.encode_in_rect(encoder, view, cb.rect, &frame) {
                    drawn = Err(e);
                }
            };
        self.egui_renderer.draw_with(
            &self.gpu.device,
            &self.gpu.queue,
            &mut encoder,
            &view,
            size_in_pixels,
            pixels_per_point,
            clear,
            jobs,
            &mut paint,
        );
        self.gpu.queue.submit([encoder.finish()]);
        self.window.pre_present_notify();
        self.gpu.queue.present(target);
        (size_in_pixels, drawn)
    }

    /// Makes sure the viewport texture has `size` (physical pixels, each side ≥ 1). Only
    /// offscreen (MSAA) views have one; in place this does nothing.
    pub fn ensure_viewport(&mut self, size: [u32; 2]) {
        if self.in_place {
            return;
        }
        let max = self.gpu.device.limits().max_texture_dimension_2d;
        let size = [size[0].clamp(1, max), size[1].clamp(1, max)];
        if self.viewport.as_ref().is_some_and(|v| v.size == size) {
            return;
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
    }

    /// Builds a fresh renderer with `stage`'s meshes (after opening another character).
    pub fn upload_stage(&mut self, stage: &crate::stage::Stage) -> Result<(), RenderError> {
        self.renderer = self.renderer_with(stage, self.target_format())?;
        Ok(())
    }

    /// A renderer drawing into `format`, with this window's samples and `stage`'s meshes.
    fn renderer_with(
        &self,
        stage: &crate::stage::Stage,
        format: wgpu::TextureFormat,
    ) -> Result<Renderer, RenderError> {
        let mut renderer = Renderer::new(&self.gpu, format, self.samples);
        for mesh in stage.mesh_data() {
            renderer.upload_mesh(&mesh)?;
        }
        Ok(renderer)
    }

    /// Renders the 3D view of `ed` into the viewport texture (offscreen only: in place the
    /// UI pass draws it, see [`Self::draw_ui`]).
    pub fn render_viewport(&mut self, ed: &EditorState) -> Result<(), RenderError> {
        let Some(v) = self.viewport.as_ref().filter(|_| !self.in_place) else {
            return Ok(());
        };
        let frame = editor_frame(ed, ed.view().camera().to_camera(v.size), true);
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
        let frame = editor_frame(ed, ed.view().camera().to_camera(size), overlays);
        if !self.in_place {
            return capture(&self.gpu, &mut self.renderer, &frame);
        }
        // In place the renderer draws the surface's format: a renderer of the capture
        // format, with the same samples and meshes, draws the same picture.
        let mut renderer = self.renderer_with(&ed.doc().stage, CAPTURE_FORMAT)?;
        capture(&self.gpu, &mut renderer, &frame)
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
