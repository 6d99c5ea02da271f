//! Instance, adapter and device selection.

use super::RenderError;
use std::sync::{Arc, Mutex};

/// GPU errors that no error scope caught (validation, out of memory, internal), collected by
/// the device's uncaptured-error handler instead of wgpu's default, which panics. The owner
/// takes them after each frame, drops the frame and rebuilds what failed.
#[derive(Debug, Clone, Default)]
pub struct GpuErrors(Arc<Mutex<Vec<String>>>);

impl GpuErrors {
    /// The errors reported since the last call, oldest first.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn push(&self, message: String) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(message);
    }
}

/// A wgpu device and queue with the adapter they came from.
///
/// `Device` and `Queue` are cheap handles (clones share the same device).
#[derive(Debug, Clone)]
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    /// What the device's uncaptured-error handler collected (see [`GpuErrors`]).
    pub errors: GpuErrors,
}

impl Gpu {
    /// Creates a headless device on any available adapter (blocking).
    ///
    /// All backends are enabled unless `WGPU_BACKEND` (e.g. `vulkan`, `gl`) narrows them.
    /// Hardware adapters are preferred; CPU adapters (llvmpipe/lavapipe) are accepted.
    pub fn new_headless() -> Result<Self, RenderError> {
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle().with_env();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        Self::from_instance(instance, None)
    }

    /// Picks an adapter from `instance` (compatible with `surface` when given) and creates a
    /// device. Use this from a windowed app that built its own instance.
    pub fn from_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, RenderError> {
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
        let mut adapter = None;
        let mut detail = String::new();
        // First a real GPU, then anything including software fallback adapters.
        for force_fallback_adapter in [false, true] {
            let options = wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter,
                compatible_surface: surface,
                apply_limit_buckets: false,
            };
            match pollster::block_on(instance.request_adapter(&options)) {
                Ok(a) => {
                    adapter = Some(a);
                    break;
                }
                Err(e) => detail = e.to_string(),
            }
        }
        if adapter.is_none() {
            let all = pollster::block_on(instance.enumerate_adapters(backends));
            adapter = all.into_iter().next();
        }
        let Some(adapter) = adapter else {
            return Err(RenderError::NoAdapter {
                backends: format!("{backends:?}"),
                detail,
            });
        };
        let info = adapter.get_info();
        let desc = wgpu::DeviceDescriptor {
            label: Some("anglerpose device"),
            required_features: wgpu::Features::empty(),
            required_limits: adapter.limits(),
            ..Default::default()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&desc)).map_err(|e| {
            RenderError::RequestDevice {
                adapter: info.name.clone(),
                detail: e.to_string(),
            }
        })?;
        let errors = GpuErrors::default();
        let sink = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            let message = match &e {
                wgpu::Error::Validation { description, .. }
                | wgpu::Error::Internal { description, .. } => format!("{e}: {description}"),
                other => other.to_string(),
            };
            tracing::error!("GPU error (frame dropped, renderer rebuilt): {message}");
            sink.push(message);
        }));
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            info,
            errors,
        })
    }

    /// Makes the device report a validation error (a buffer both MAP_READ and MAP_WRITE), for
    /// tests of the error path. The error arrives through [`Gpu::errors`].
    pub fn inject_validation_error(&self) {
        let _ = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("deliberately invalid (test)"),
            size: 4,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::MAP_WRITE,
            mapped_at_creation: false,
        });
    }

    /// One-line description of the adapter, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {:?})",
            self.info.name, self.info.backend, self.info.device_type
        )
    }

    /// True for software rasterisers (llvmpipe/lavapipe), where 4× MSAA costs about 2–3× the
    /// frame time; an interactive caller may prefer 1 sample there.
    pub fn is_cpu(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// The largest of 4 / 1 samples that `format` supports as a multisampled render target
    /// (the renderer uses 4× MSAA where offered, else none). Depth32Float must also support it.
    pub fn best_sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        let colour = self.adapter.get_texture_format_features(format);
        let depth = self
            .adapter
            .get_texture_format_features(wgpu::TextureFormat::Depth32Float);
        if colour.flags.sample_count_supported(4) && depth.flags.sample_count_supported(4) {
            4
        } else {
            1
        }
    }
}

/// For tests: a headless [`Gpu`], or `None` with a loud `SKIP:` line on stderr when no adapter
/// exists.
///
/// # Panics
/// When `ANGLERPOSE_REQUIRE_GPU=1` is set and no device can be created — CI sets it after
/// installing Mesa, so a silently skipped GPU test cannot pass there.
pub fn test_gpu() -> Option<Gpu> {
    match Gpu::new_headless() {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            if std::env::var("ANGLERPOSE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("ANGLERPOSE_REQUIRE_GPU=1 but no GPU device could be created: {e}");
            }
            crate::skip_notice!("\n**********\nSKIP: no GPU adapter ({e})\n**********\n");
            None
        }
    }
}

/// A shader module from `common.wgsl` followed by `parts` (WGSL has no `#include`).
pub(crate) fn shader_module(
    device: &wgpu::Device,
    label: &str,
    parts: &[&str],
) -> wgpu::ShaderModule {
    let mut source = String::from(include_str!("../../shaders/common.wgsl"));
    for part in parts {
        source.push('\n');
        source.push_str(part);
    }
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    })
}

/// The pipeline constants of `common.wgsl` for a colour target of `format`: `ENCODE_SRGB` when
/// it is not an `*Srgb` format (the shader then encodes). A constant rather than a uniform:
/// software rasterisers (llvmpipe) run both sides of a branch on a uniform, so the encode's
/// three `pow`s would cost every fragment even on sRGB targets.
pub(crate) fn output_constants(format: wgpu::TextureFormat) -> [(&'static str, f64); 1] {
    [("ENCODE_SRGB", if format.is_srgb() { 0.0 } else { 1.0 })]
}

/// A render pass into `view` alone (no depth), cleared to `clear` and stored.
pub fn clear_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    view: &wgpu::TextureView,
    clear: wgpu::Color,
) -> wgpu::RenderPass<'e> {
    colour_pass(encoder, label, view, wgpu::LoadOp::Clear(clear))
}

/// A render pass into `view` alone (no depth), loaded as `load` says and stored.
pub fn colour_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load,
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A GPU buffer that grows (to the next power of two) when a frame needs more.
pub(crate) struct GrowBuffer {
    pub(crate) buffer: wgpu::Buffer,
    capacity: u64,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl GrowBuffer {
    pub(crate) fn new(
        device: &wgpu::Device,
        label: &'static str,
        capacity: u64,
        usage: wgpu::BufferUsages,
    ) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: capacity,
            usage,
            mapped_at_creation: false,
        });
        Self {
            buffer,
            capacity,
            usage,
            label,
        }
    }

    /// Makes room for `len` bytes (contents are lost when it grows); returns true when the
    /// buffer was replaced (rebind needed).
    pub(crate) fn reserve(&mut self, device: &wgpu::Device, len: u64) -> bool {
        if len <= self.capacity {
            return false;
        }
        self.capacity = len.next_power_of_two();
        *self = Self::new(device, self.label, self.capacity, self.usage);
        true
    }

    /// Writes `bytes` at offset 0; returns true when the buffer was replaced (rebind needed).
    pub(crate) fn write(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        bytes: &[u8],
    ) -> bool {
        let grown = self.reserve(device, bytes.len() as u64);
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        grown
    }
}

/// The layout of a texture (2D, filterable float) at binding 0 and its filtering sampler at
/// binding 1, both for the fragment stage: a mesh's base colour, an egui image.
pub(crate) fn texture_sampler_layout(device: &wgpu::Device, label: &str) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
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
    })
}

/// A vertex stream of `T`s, one per vertex, read through `attributes`.
pub(crate) fn per_vertex<T>(
    attributes: &[wgpu::VertexAttribute],
) -> Option<wgpu::VertexBufferLayout<'_>> {
    Some(wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<T>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes,
    })
}

/// A bind group of `layout` whose binding `i` is `resources[i]`.
pub(crate) fn bind_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    resources: &[wgpu::BindingResource],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = resources
        .iter()
        .enumerate()
        .map(|(i, resource)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: resource.clone(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// A bind group of [`texture_sampler_layout`]: `view` at binding 0, `sampler` at 1.
pub(crate) fn texture_sampler_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    view: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    bind_group(
        device,
        label,
        layout,
        &[
            wgpu::BindingResource::TextureView(view),
            wgpu::BindingResource::Sampler(sampler),
        ],
    )
}

/// The depth format used by every pass.
pub(crate) const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Depth state for a pipeline in the main pass.
pub(crate) fn depth_state(write: bool, compare: wgpu::CompareFunction) -> wgpu::DepthStencilState {
    wgpu::DepthStencilState {
        format: DEPTH_FORMAT,
        depth_write_enabled: Some(write),
        depth_compare: Some(compare),
        stencil: Default::default(),
        bias: Default::default(),
    }
}
