//! Offscreen capture: render a frame into a texture and read it back as an RGBA8 image.

use super::{FrameData, Gpu, MeshData, RenderError, Renderer};
use image::RgbaImage;

/// The offscreen colour format (sRGB-encoded bytes, as a PNG expects).
pub const CAPTURE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Maps `buffer` (MAP_READ) after the work submitted so far, waits, and copies it out.
pub(crate) fn read_buffer(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>, RenderError> {
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |result| {
        let _ = tx.send(result);
    });
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| RenderError::Readback(format!("poll: {e}")))?;
    rx.recv()
        .map_err(|e| RenderError::Readback(format!("map callback never ran: {e}")))?
        .map_err(|e| RenderError::Readback(format!("map_async: {e}")))?;
    let bytes = {
        let view = buffer
            .get_mapped_range(..)
            .map_err(|e| RenderError::Readback(format!("get_mapped_range: {e}")))?;
        view.to_vec()
    };
    buffer.unmap();
    Ok(bytes)
}

/// An offscreen colour target plus its readback buffer, reusable across frames of one size.
pub struct OffscreenTarget {
    pub size: [u32; 2],
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl OffscreenTarget {
    /// A `CAPTURE_FORMAT` target of `size` pixels.
    pub fn new(gpu: &Gpu, size: [u32; 2]) -> Result<Self, RenderError> {
        Self::with_format(gpu, size, CAPTURE_FORMAT)
    }

    /// A target of `size` pixels in `format`, a 4-byte colour format (the readback copies
    /// 4 bytes a pixel).
    pub fn with_format(
        gpu: &Gpu,
        size: [u32; 2],
        format: wgpu::TextureFormat,
    ) -> Result<Self, RenderError> {
        let [width, height] = size;
        let max = gpu.device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(RenderError::InvalidSize {
                width,
                height,
                problem: format!("each side must be 1..={max}"),
            });
        }
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen colour"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        // copy_texture_to_buffer needs rows aligned to 256 bytes.
        let padded_row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Ok(Self {
            size,
            texture,
            view,
            readback,
            padded_row,
        })
    }

    /// Copies the texture to the readback buffer, waits, and strips the row padding.
    pub fn read(&self, gpu: &Gpu) -> Result<RgbaImage, RenderError> {
        let [width, height] = self.size;
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        gpu.queue.submit([encoder.finish()]);
        let padded = read_buffer(gpu, &self.readback)?;
        let row = (width * 4) as usize;
        let mut pixels = Vec::with_capacity(row * height as usize);
        for y in 0..height as usize {
            let start = y * self.padded_row as usize;
            pixels.extend_from_slice(&padded[start..start + row]);
        }
        RgbaImage::from_raw(width, height, pixels)
            .ok_or_else(|| RenderError::Readback("image buffer size mismatch".into()))
    }
}

/// Renders `frame` with `renderer` into a fresh offscreen target of `frame.camera.viewport`
/// and reads it back. The renderer must have been built for [`CAPTURE_FORMAT`].
pub fn capture(
    gpu: &Gpu,
    renderer: &mut Renderer,
    frame: &FrameData,
) -> Result<RgbaImage, RenderError> {
    let target = OffscreenTarget::new(gpu, frame.camera.viewport)?;
    renderer.render(&target.view, frame)?;
    target.read(gpu)
}

/// One-shot capture: builds a renderer (4× MSAA where offered), uploads `meshes` — mesh `i`
/// gets `MeshHandle` number `i` in upload order, which `frame`'s draws refer to — renders
/// `frame` at `size` (overriding `frame.camera.viewport`) and returns the image.
///
/// The camera's projection should have been built for the same aspect ratio as `size`.
pub fn render_to_image(
    gpu: &Gpu,
    size: [u32; 2],
    frame: &FrameData,
    meshes: &[MeshData],
) -> Result<RgbaImage, RenderError> {
    let mut renderer = Renderer::new(gpu, CAPTURE_FORMAT, gpu.best_sample_count(CAPTURE_FORMAT));
    for mesh in meshes {
        renderer.upload_mesh(mesh)?;
    }
    let mut frame = frame.clone();
    frame.camera.viewport = size;
    capture(gpu, &mut renderer, &frame)
}
