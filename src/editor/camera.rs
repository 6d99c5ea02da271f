//! The editor's viewport camera: orbit / pan / zoom around a target, named views, perspective
//! or orthographic, and pixel → world rays for picking.

use crate::render::Camera;
use glam::{DVec3, Mat4, Vec3, Vec4};
use serde::{Deserialize, Serialize};

/// Named viewpoints (actor space: the angler faces +Z, his left is +X).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewPreset {
    Front,
    Side,
    Top,
    ThreeQuarter,
}

/// Orbit camera. `yaw` turns about +Y (0 = looking from +Z toward −Z, i.e. at the angler's
/// face), `pitch` lifts the eye above the target (clamped short of the poles so the view
/// never becomes singular). `distance` is the eye's distance from `target`; in orthographic
/// mode it also sets the visible height (`distance · tan(fov/2) · 2`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrbitCamera {
    pub target: DVec3,
    pub yaw: f64,
    pub pitch: f64,
    pub distance: f64,
    pub fov_y: f64,
    pub orthographic: bool,
}

/// A world-space ray; `dir` is unit length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub origin: DVec3,
    pub dir: DVec3,
}

impl Ray {
    pub fn at(&self, s: f64) -> DVec3 {
        self.origin + self.dir * s
    }
}

const PITCH_LIMIT: f64 = 1.55;
const MIN_DISTANCE: f64 = 0.05;
const MAX_DISTANCE: f64 = 200.0;

impl Default for OrbitCamera {
    fn default() -> Self {
        let mut cam = Self {
            target: DVec3::new(0.0, 0.9, 0.5),
            yaw: 0.0,
            pitch: 0.0,
            distance: 3.6,
            fov_y: 40f64.to_radians(),
            orthographic: false,
        };
        cam.set_view(ViewPreset::ThreeQuarter);
        cam
    }
}

impl OrbitCamera {
    /// Jumps to a named view, keeping target and distance.
    pub fn set_view(&mut self, view: ViewPreset) {
        let (yaw, pitch) = match view {
            ViewPreset::Front => (0.0, 0.05),
            ViewPreset::Side => (-std::f64::consts::FRAC_PI_2, 0.05),
            ViewPreset::Top => (0.0, PITCH_LIMIT),
            ViewPreset::ThreeQuarter => (-0.75, 0.22),
        };
        self.yaw = yaw;
        self.pitch = pitch;
    }

    /// Unit vector from the target toward the eye.
    pub fn back(&self) -> DVec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        DVec3::new(sy * cp, sp, cy * cp)
    }

    pub fn eye(&self) -> DVec3 {
        self.target + self.back() * self.distance
    }

    /// Camera right and up axes in world space.
    pub fn axes(&self) -> (DVec3, DVec3) {
        let forward = -self.back();
        let right = forward.cross(DVec3::Y).normalize_or(DVec3::X);
        let up = right.cross(forward).normalize_or(DVec3::Y);
        (right, up)
    }

    /// Orbits by pixel deltas (0.01 rad per pixel).
    pub fn orbit(&mut self, dx: f64, dy: f64) {
        if !(dx.is_finite() && dy.is_finite()) {
            return;
        }
        self.yaw -= dx * 0.01;
        self.pitch = (self.pitch + dy * 0.01).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Pans by pixel deltas in a viewport `height` pixels tall, so the point under the mouse
    /// stays under it (at the target's depth).
    pub fn pan(&mut self, dx: f64, dy: f64, height: f64) {
        if !(dx.is_finite() && dy.is_finite()) || height < 1.0 {
            return;
        }
        let (right, up) = self.axes();
        let per_px = self.visible_height() / height;
        self.target += (-right * dx + up * dy) * per_px;
    }

    /// Zooms by `steps` (positive = closer), 10 % per step.
    pub fn zoom(&mut self, steps: f64) {
        if steps.is_finite() {
            self.distance = (self.distance * 0.9f64.powf(steps)).clamp(MIN_DISTANCE, MAX_DISTANCE);
        }
    }

    /// World height visible at the target's depth.
    pub fn visible_height(&self) -> f64 {
        2.0 * self.distance * (self.fov_y * 0.5).tan()
    }

    /// Centres on `centre` and backs off so a sphere of `radius` fills most of the view.
    pub fn frame(&mut self, centre: DVec3, radius: f64) {
        if !centre.is_finite() {
            return;
        }
        self.target = centre;
        let r = if radius.is_finite() {
            radius.max(0.02)
        } else {
            0.5
        };
        self.distance = (r * 1.25 / (self.fov_y * 0.5).sin()).clamp(MIN_DISTANCE, MAX_DISTANCE);
    }

    /// The renderer's camera for a viewport of `size` pixels (sides of 0 become 1).
    pub fn to_camera(&self, size: [u32; 2]) -> Camera {
        let size = [size[0].max(1), size[1].max(1)];
        let eye = self.eye();
        let f = |v: DVec3| [v.x as f32, v.y as f32, v.z as f32];
        let (_, up) = self.axes();
        let near = (self.distance * 0.01).clamp(0.005, 0.1) as f32;
        let far = (self.distance * 20.0 + 50.0) as f32;
        let mut cam = Camera::look_at(
            f(eye),
            f(self.target),
            f(up),
            self.fov_y as f32,
            size,
            near,
            far,
        );
        if self.orthographic {
            let aspect = size[0] as f32 / size[1] as f32;
            let h = (self.visible_height() * 0.5) as f32;
            let w = h * aspect;
            let proj = glam::camera::rh::proj::directx::orthographic(-w, w, -h, h, near, far);
            cam.clip_from_view = proj.to_cols_array_2d();
        }
        cam
    }
}

/// The world ray through pixel `pixel` (origin top-left) of `camera`. `None` when the
/// camera's matrices are singular.
pub fn pixel_ray(camera: &Camera, pixel: [f32; 2]) -> Option<Ray> {
    let clip_from_world = camera.clip_from_world();
    let det = clip_from_world.determinant();
    if !det.is_finite() || det.abs() < 1e-30 {
        return None;
    }
    let world_from_clip: Mat4 = clip_from_world.inverse();
    let [w, h] = camera.viewport.map(|v| v.max(1) as f32);
    let ndc_x = pixel[0] / w * 2.0 - 1.0;
    let ndc_y = 1.0 - pixel[1] / h * 2.0;
    let unproject = |z: f32| {
        let p = world_from_clip * Vec4::new(ndc_x, ndc_y, z, 1.0);
        (p.w.abs() > 1e-12).then(|| p.truncate() / p.w)
    };
    let near: Vec3 = unproject(0.0)?;
    let far: Vec3 = unproject(1.0)?;
    let d = (far - near).as_dvec3();
    let dir = d.try_normalize()?;
    let origin = near.as_dvec3();
    (origin.is_finite() && dir.is_finite()).then_some(Ray { origin, dir })
}

/// Pixel position of a world point, `None` behind the camera.
pub fn world_to_pixel(camera: &Camera, p: DVec3) -> Option<[f64; 2]> {
    camera
        .world_to_pixel([p.x as f32, p.y as f32, p.z as f32])
        .map(|[x, y]| [f64::from(x), f64::from(y)])
}

/// World size of one pixel at the depth of `p` (for pick tolerances and gizmo sizes).
pub fn world_per_pixel(camera: &Camera, p: DVec3) -> f64 {
    let eye = camera.eye_in_world().as_dvec3();
    let proj = Mat4::from_cols_array_2d(&camera.clip_from_view);
    let h = f64::from(camera.viewport[1].max(1));
    // proj.y_axis.y = 1/tan(fov/2) (perspective) or 2/height (orthographic).
    let sy = f64::from(proj.y_axis.y).abs().max(1e-9);
    let ortho = proj.w_axis.w.abs() > 0.5;
    let depth = if ortho {
        1.0
    } else {
        (p - eye).length().max(1e-6)
    };
    2.0 * depth / (sy * h)
}
