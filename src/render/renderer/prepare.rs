//! [`Renderer::prepare`]: the CPU side of a frame (uniforms, palettes, draw list, overlays).

use super::super::frame_uniform::FrameUniform;
use super::super::overlay::OverlayVertex;
use super::super::skinned::{
    DrawUniform, Faces, IDENTITY, extend_palette, mesh_bind_group, skin_bind_group,
};
use super::super::{Camera, FrameData, MeshStyle};
use super::{DrawItem, Renderer, STREAM_STRIDE};
use glam::{Mat4, Vec3};

impl Renderer {
    /// CPU work of a frame: frame uniform, joint palettes, draw uniforms, overlay vertices.
    pub(super) fn prepare(&mut self, frame: &FrameData, target_size: [u32; 2]) {
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
        let skinned_count = self.push_skinned_draws(frame, &view, stride);
        self.push_rigid_draws(frame, &view, stride);
        if matches!(frame.mesh_style, MeshStyle::XRay { .. }) {
            // See-through meshes blend in order: far to near (by their centres).
            self.draw_list.sort_by(|a, b| {
                b.distance
                    .partial_cmp(&a.distance)
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        }
        self.write_draw_buffers(skinned_count);
        self.overlay.build(&frame.overlays, &frame.camera);
        self.overlay_vertices.write(
            &self.device,
            &self.queue,
            bytemuck::cast_slice::<OverlayVertex, u8>(&self.overlay.vertices),
        );
    }

    /// Appends the frame's skinned draws (palettes, draw uniforms, draw items); returns the
    /// number of vertices they put in the skinned-vertex buffer.
    fn push_skinned_draws(&mut self, frame: &FrameData, view: &Mat4, stride: usize) -> u32 {
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
                distance: view_distance(view, centre),
                skinned_first,
                faces: Faces::of_draw(mesh.double_sided, false),
            });
        }
        skinned_count
    }

    /// Appends the frame's rigid draws (draw uniforms, draw items); non-finite models are skipped.
    fn push_rigid_draws(&mut self, frame: &FrameData, view: &Mat4, stride: usize) {
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
                distance: view_distance(view, centre),
                skinned_first: None,
                faces,
            });
        }
    }

    /// Uploads palettes and draw uniforms, reserves the skinned-vertex buffer for
    /// `skinned_count` vertices and rebuilds the bind groups whose buffers grew.
    fn write_draw_buffers(&mut self, skinned_count: u32) {
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
    }
}

/// Distance of `p` in front of the camera (view space looks down −Z); 0 for non-finite input.
fn view_distance(view: &Mat4, p: Vec3) -> f32 {
    let d = -view.transform_point3(p).z;
    if d.is_finite() { d } else { 0.0 }
}

/// World centre of a skinned draw: the mesh's bind-space centre moved by each joint it uses,
/// averaged (its own centre for a rigid mesh drawn through the skinned path).
fn skinned_centre(mesh: &super::super::mesh::GpuMesh, palette: &[[[f32; 4]; 4]]) -> Vec3 {
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
