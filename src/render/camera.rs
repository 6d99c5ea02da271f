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
