//! The check path for GPU skinning (test support, behind the `test-support` feature): runs
//! the renderer's own skinning pass on one mesh and reads the skinned positions back, so
//! tests compare them with CPU skinning. What it reads is the very buffer the mesh pipeline
//! draws from.

use super::capture::CAPTURE_FORMAT;
use super::mesh::interleave;
use super::skinned::StreamVertex;
use super::{Camera, FrameData, Gpu, MeshStyle, Overlays, RenderError, Renderer, SkinnedDraw};
use crate::draw::MeshData;

/// Skins `mesh`'s positions with the renderer's skinning pass (the one every frame runs) and
/// reads them back — the check path for GPU skinning.
///
/// Weights are normalised exactly as at upload; joints beyond `skin_matrices` read identity.
/// A mesh without joints comes back unchanged (bind pose).
///
/// # Errors
///
/// The mesh fails [`super::mesh::validate`], or the GPU read-back fails.
pub fn gpu_skin_positions(
    gpu: &Gpu,
    mesh: &MeshData,
    skin_matrices: &[[[f32; 4]; 4]],
) -> Result<Vec<[f32; 3]>, RenderError> {
    super::mesh::validate(mesh)?;
    if mesh.positions.is_empty() {
        return Ok(Vec::new());
    }
    let mut renderer = Renderer::new(gpu, CAPTURE_FORMAT, 1);
    let handle = renderer.upload_mesh(mesh)?;
    let frame = FrameData {
        camera: Camera::look_at(
            [0.0, 0.0, 1.0],
            [0.0; 3],
            [0.0, 1.0, 0.0],
            1.0,
            [1, 1],
            0.1,
            10.0,
        ),
        skinned: vec![SkinnedDraw {
            mesh: handle,
            skin_matrices: skin_matrices.to_vec(),
        }],
        rigid: Vec::new(),
        grid: false,
        mesh_style: MeshStyle::Solid,
        overlays: Overlays::default(),
    };
    let Some((skinned, range)) = renderer.skin_only(&frame) else {
        // Not skinned: the mesh pipeline draws its rest stream.
        return Ok(interleave(mesh).iter().map(|v| v.position).collect());
    };
    let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("skin check readback"),
        size: range.end - range.start,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(&skinned, range.start, &readback, 0, range.end - range.start);
    gpu.queue.submit([encoder.finish()]);
    let bytes = super::capture::read_buffer(gpu, &readback)?;
    let out: &[StreamVertex] = bytemuck::cast_slice(&bytes);
    Ok(out
        .iter()
        .map(|v| [v.position[0], v.position[1], v.position[2]])
        .collect())
}
