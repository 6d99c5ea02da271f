//! The camera handed to the renderer: view and projection matrices plus the viewport size.

use glam::{Mat4, Vec3, Vec4};

/// A perspective (or any) camera as plain matrices.
///
/// `view_from_world` and `clip_from_view` are column-major; clip space is wgpu's (depth 0..1).
/// `viewport` is the target size in pixels and must match the render target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    pub view_from_world: [[f32; 4]; 4],
    pub clip_from_view: [[f32; 4]; 4],
    pub viewport: [u32; 2],
}

impl Camera {
    /// A right-handed perspective camera at `eye` looking at `target`.
    ///
    /// `fov_y_rad` is the vertical field of view. Degenerate inputs are repaired rather than
    /// producing NaN: `eye == target` looks down −Z, `up` parallel to the view direction picks
    /// another up axis, zero viewport sides become 1, and `near`/`far` are forced positive
    /// and ordered.
    pub fn look_at(
        eye: [f32; 3],
        target: [f32; 3],
        up: [f32; 3],
        fov_y_rad: f32,
        viewport: [u32; 2],
        near: f32,
        far: f32,
    ) -> Self {
        let eye = Vec3::from(eye);
        let mut forward = Vec3::from(target) - eye;
        if !forward.is_finite() || forward.length_squared() < 1e-12 {
            forward = Vec3::NEG_Z;
        }
        let forward = forward.normalize();
        let mut up = Vec3::from(up);
        if !up.is_finite() || up.cross(forward).length_squared() < 1e-8 {
            up = if forward.y.abs() < 0.9 {
                Vec3::Y
            } else {
                Vec3::Z
            };
        }
        let view = glam::camera::rh::view::look_to_mat4(eye, forward, up);
        let viewport = [viewport[0].max(1), viewport[1].max(1)];
        let aspect = viewport[0] as f32 / viewport[1] as f32;
        let near = if near.is_finite() && near > 0.0 {
            near
        } else {
            0.01
        };
        let far = if far.is_finite() && far > near * 1.001 {
            far
        } else {
            near * 1000.0
        };
        let fov = if fov_y_rad.is_finite() && fov_y_rad > 1e-3 && fov_y_rad < 3.1 {
            fov_y_rad
        } else {
            std::f32::consts::FRAC_PI_4
        };
        // wgpu clip space: depth 0..1, Y up.
        let proj = glam::camera::rh::proj::directx::perspective(fov, aspect, near, far);
        Self {
            view_from_world: view.to_cols_array_2d(),
            clip_from_view: proj.to_cols_array_2d(),
            viewport,
        }
    }

    /// `clip_from_world` = projection × view.
    pub fn clip_from_world(&self) -> Mat4 {
        Mat4::from_cols_array_2d(&self.clip_from_view)
            * Mat4::from_cols_array_2d(&self.view_from_world)
    }

    /// The camera position in world space (inverse of the view matrix applied to the origin).
    pub fn eye_in_world(&self) -> Vec3 {
        Mat4::from_cols_array_2d(&self.view_from_world)
            .inverse()
            .transform_point3(Vec3::ZERO)
    }

    /// Projects a world point to pixel coordinates (origin top-left, +y down, pixel centres at
    /// `.5`). `None` when the point is behind the camera or the matrices are singular.
    pub fn world_to_pixel(&self, p: [f32; 3]) -> Option<[f32; 2]> {
        let clip = self.clip_from_world() * Vec4::new(p[0], p[1], p[2], 1.0);
        if !clip.is_finite() || clip.w <= 1e-6 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        let x = (ndc.x * 0.5 + 0.5) * self.viewport[0] as f32;
        let y = (0.5 - ndc.y * 0.5) * self.viewport[1] as f32;
        Some([x, y])
    }
}
