//! The per-frame uniform the shaders read, built from the plain [`Camera`].

use crate::draw::Camera;
use glam::{Mat4, Vec3};

/// The per-frame uniform (`Frame` in `shaders/common.wgsl`), 320 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct FrameUniform {
    pub clip_from_world: [[f32; 4]; 4],
    pub world_from_clip: [[f32; 4]; 4],
    pub view_from_world: [[f32; 4]; 4],
    pub clip_from_view: [[f32; 4]; 4],
    pub eye: [f32; 4],
    pub key_dir: [f32; 4],
    pub viewport: [f32; 4],
    pub flags: [f32; 4],
}

impl FrameUniform {
    /// Builds the uniform for `camera`. The key light comes from the camera's upper left (camera-relative, so the figure is
    /// always readable). Singular matrices give a zero inverse rather than NaN.
    pub fn new(camera: &Camera) -> Self {
        let view = Mat4::from_cols_array_2d(&camera.view_from_world);
        let proj = Mat4::from_cols_array_2d(&camera.clip_from_view);
        let clip_from_world = proj * view;
        let safe_inverse = |m: Mat4| {
            let det = m.determinant();
            if det.is_finite() && det.abs() > 1e-30 {
                m.inverse()
            } else {
                Mat4::ZERO
            }
        };
        let world_from_view = safe_inverse(view);
        let eye = world_from_view.transform_point3(Vec3::ZERO);
        let key_dir = world_from_view
            .transform_vector3(Vec3::new(-0.45, 0.65, 0.6))
            .try_normalize()
            .unwrap_or(Vec3::Y);
        // Near plane distance from the projection: w = −z_view, depth 0 at the near plane.
        // For glam's directx perspective: clip.z = z·m22 + m32 → near = m32 / m22.
        let m22 = proj.z_axis.z;
        let m32 = proj.w_axis.z;
        let near = if m22.abs() > 1e-12 && (m32 / m22).is_finite() {
            (m32 / m22).abs().max(1e-5)
        } else {
            1e-3
        };
        let [w, h] = [
            camera.viewport[0].max(1) as f32,
            camera.viewport[1].max(1) as f32,
        ];
        Self {
            clip_from_world: clip_from_world.to_cols_array_2d(),
            world_from_clip: safe_inverse(clip_from_world).to_cols_array_2d(),
            view_from_world: camera.view_from_world,
            clip_from_view: camera.clip_from_view,
            eye: eye.extend(1.0).to_array(),
            key_dir: key_dir.extend(0.0).to_array(),
            viewport: [w, h, 1.0 / w, 1.0 / h],
            flags: [0.0, near, 0.0, 0.0],
        }
    }
}
