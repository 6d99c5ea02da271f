//! The check path for GPU skinning (test support, behind the `test-support` feature): runs
//! the vertex shader's WGSL `skin_matrix()` in a compute pass and reads the skinned positions
//! back, so tests compare them with CPU skinning.

use super::mesh::{MeshData, interleave};
use super::skinned::{SKINNING_WGSL, extend_palette};
use super::{Gpu, RenderError};
use wgpu::util::DeviceExt;

/// `SkinVertex` in `shaders/skin_compute.wgsl` (48 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SkinVertex {
    position: [f32; 4],
    joints: [u32; 4],
    weights: [f32; 4],
}

/// Skins `mesh`'s positions on the GPU with the same WGSL `skin_matrix()` the vertex shader
/// uses (compute pass) and reads them back — the check path for GPU skinning.
///
/// Weights are normalised exactly as at upload; joints beyond `skin_matrices` read identity.
/// A mesh without joints comes back unchanged (bind pose).
pub fn gpu_skin_positions(
    gpu: &Gpu,
    mesh: &MeshData,
    skin_matrices: &[[[f32; 4]; 4]],
) -> Result<Vec<[f32; 3]>, RenderError> {
    mesh.validate()?;
    let n = mesh.positions.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let device = &gpu.device;
    let vertices: Vec<SkinVertex> = interleave(mesh)
        .iter()
        .map(|v| SkinVertex {
            position: [v.position[0], v.position[1], v.position[2], 1.0],
            joints: v.joints.map(u32::from),
            weights: v.weights,
        })
        .collect();
    let max_joint = vertices.iter().flat_map(|v| v.joints).max().unwrap_or(0) as usize;
    let palette = padded_palette(skin_matrices, max_joint + 1);
    let joints = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("skin check joints"),
        contents: bytemuck::cast_slice(&palette),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("skin check vertices"),
        contents: bytemuck::cast_slice(&vertices),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let out_size = (n * 16) as u64;
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skin check output"),
        size: out_size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skin check readback"),
        size: out_size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let module = super::gpu::shader_module(
        device,
        "skin_compute.wgsl",
        &[
            SKINNING_WGSL,
            include_str!("../../shaders/skin_compute.wgsl"),
        ],
    );
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("skin check pipeline"),
        layout: None,
        module: &module,
        entry_point: Some("cs_main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("skin check bind group"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: joints.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: output.as_entire_binding(),
            },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups((n as u32).div_ceil(64), 1, 1);
    }
    encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, out_size);
    gpu.queue.submit([encoder.finish()]);
    let bytes = super::capture::read_buffer(gpu, &readback)?;
    let out: &[[f32; 4]] = bytemuck::cast_slice(&bytes);
    Ok(out.iter().map(|p| [p[0], p[1], p[2]]).collect())
}

/// `palette` padded with identity to at least `len` entries; non-finite matrices become
/// identity so a bad joint never produces NaN vertices.
fn padded_palette(palette: &[[[f32; 4]; 4]], len: usize) -> Vec<[[f32; 4]; 4]> {
    let mut out = Vec::with_capacity(len.max(palette.len()));
    extend_palette(&mut out, palette, len);
    out
}
