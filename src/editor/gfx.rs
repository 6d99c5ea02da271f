//! The window's GPU state: surface, device, our 3D renderer drawing the viewport into an
//! offscreen texture, and egui-wgpu drawing the UI (with that texture) into the surface.

use super::EditorState;
use super::gizmo::editor_frame;
use crate::render::capture::{CAPTURE_FORMAT, capture};
use crate::render::{Gpu, RenderError, Renderer};
use std::sync::Arc;
use winit::window::Window;

/// The offscreen texture the 3D viewport is rendered into and shown by egui.
pub struct ViewportTexture {
    pub texture: wgpu::Texture,
    /// The sRGB render-target view (our renderer draws through it).
    pub view: wgpu::TextureView,
    /// A plain `Rgba8Unorm` view of the same bytes for egui, which treats texture colours as
    /// gamma-encoded (sampling the sRGB view would decode them and darken the image).
    pub ui_view: wgpu::TextureView,
    pub size: [u32; 2],
    pub id: egui::TextureId,
}

pub struct Gfx {
    pub window: Arc<Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub gpu: Gpu,
    pub renderer: Renderer,
    pub egui_renderer: egui_wgpu::Renderer,
    pub viewport: Option<ViewportTexture>,
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
        let egui_renderer =
            egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        Ok(Self {
            window,
            surface,
            config,
            gpu,
            renderer,
            egui_renderer,
            viewport: None,
        })
    }

    /// Reconfigures the surface for the window's size; false while minimised (size 0).
    pub fn resize(&mut self) -> bool {
        let size = self.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return false;
        }
        self.config.width = size.width;
        self.config.height = size.height;
        self.surface.configure(&self.gpu.device, &self.config);
        true
    }

    /// Recreates the surface after `Lost`.
    pub fn recreate_surface(&mut self) -> Result<(), GfxError> {
        self.surface = self
            .gpu
            .instance
            .create_surface(self.window.clone())
            .map_err(|e| GfxError::Surface(e.to_string()))?;
        self.resize();
        Ok(())
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
        let texture = self.gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("viewport"),
            size: wgpu::Extent3d {
                width: size[0],
                height: size[1],
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: CAPTURE_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[wgpu::TextureFormat::Rgba8Unorm],
        });
        let view = texture.create_view(&Default::default());
        let ui_view = texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(wgpu::TextureFormat::Rgba8Unorm),
            ..Default::default()
        });
        let id = match &self.viewport {
            Some(old) => {
                self.egui_renderer.update_egui_texture_from_wgpu_texture(
                    &self.gpu.device,
                    &ui_view,
                    wgpu::FilterMode::Linear,
                    old.id,
                );
                old.id
            }
            None => self.egui_renderer.register_native_texture(
                &self.gpu.device,
                &ui_view,
                wgpu::FilterMode::Linear,
            ),
        };
        self.viewport = Some(ViewportTexture {
            texture,
            view,
            ui_view,
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
        self.renderer.render(&v.view, &frame)
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
