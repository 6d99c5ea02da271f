//! All picking in the viewport, in one place: what a press at a pixel grabs ([`pick_at`]:
//! the selection's gizmo first, then a handle), the handles under the mouse ray (spheres
//! inflated to a minimum on-screen size, then the rod's capsule) and the gizmo part under the
//! mouse. The window's pointer, `PointerDown` and scripted drags all use these.

use super::camera::{Ray, pixel_ray, world_per_pixel, world_to_pixel};
use super::drag::camera_forward;
use super::gizmo::{AXIS_PX, RING_PX, VIEW_RING_PX, circle, gizmo_axes, plane_squares};
use super::handles::{GizmoPart, Handle, handle_position, held_grip, rod_segment};
use super::view_state::ViewState;
use crate::fishing::{ArmSolverKind, SIDES};
use crate::render::Camera;
use crate::stage::rod_markers::{RodMarker, marker_in_world};
use crate::stage::{Stage, ViewOptions, sphere_radius};
use glam::DVec3;

/// What a press grabs: a part of the selection's gizmo, or a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A part of the gizmo around the selected handle (drawn over everything, so it wins).
    Gizmo(Handle, GizmoPart),
    /// A handle's sphere, or the rod.
    Handle(Handle),
}

impl Hit {
    /// The handle the press drags.
    pub fn handle(self) -> Handle {
        match self {
            Hit::Gizmo(h, _) | Hit::Handle(h) => h,
        }
    }
}

/// What a press at `pixel` grabs on `stage` seen through `view` with `camera`: the
/// selection's gizmo part there, else the nearest handle ([`pick`]); `None` over empty space.
pub fn pick_at(stage: &Stage, view: &ViewState, camera: &Camera, pixel: [f64; 2]) -> Option<Hit> {
    if let Some(part) = pick_gizmo(stage, view, camera, pixel) {
        let handle = view.selection()?;
        return Some(Hit::Gizmo(handle, part));
    }
    let at = [pixel[0] as f32, pixel[1] as f32];
    pick(stage, view.options(), camera, at).map(Hit::Handle)
}

/// Minimum pick radius on screen, pixels.
pub const PICK_PX: f64 = 8.0;

/// Distance along `ray` to a sphere, if hit.
pub fn ray_sphere(ray: &Ray, centre: DVec3, radius: f64) -> Option<f64> {
    let oc = centre - ray.origin;
    let s = oc.dot(ray.dir);
    let d2 = oc.length_squared() - s * s;
    let r2 = radius * radius;
    if d2 > r2 || !d2.is_finite() {
        return None;
    }
    let hit = s - (r2 - d2).sqrt();
    (hit > 0.0 || s > 0.0).then_some(hit.max(0.0))
}

/// Closest distance between `ray` and the segment `a..b`, with the ray parameter there.
pub fn ray_segment(ray: &Ray, a: DVec3, b: DVec3) -> (f64, f64) {
    let u = b - a;
    let w0 = ray.origin - a;
    let (aa, bb, cc) = (ray.dir.dot(ray.dir), ray.dir.dot(u), u.dot(u));
    let (dd, ee) = (ray.dir.dot(w0), u.dot(w0));
    let denom = aa * cc - bb * bb;
    let mut t = if denom.abs() > 1e-12 && cc > 1e-12 {
        ((aa * ee - bb * dd) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut s = (bb * t - dd) / aa;
    if s < 0.0 {
        s = 0.0;
        t = if cc > 1e-12 {
            (ee / cc).clamp(0.0, 1.0)
        } else {
            0.0
        };
    }
    let d = (ray.at(s) - (a + u * t)).length();
    (d, s)
}

/// The handles visible with `view`, with their pick centres and radii.
pub fn pickable(stage: &Stage, view: &ViewOptions) -> Vec<(Handle, DVec3, f64)> {
    let mut out = Vec::new();
    let Some(eval) = stage.evaluation() else {
        return out;
    };
    let r = sphere_radius(stage);
    for side in SIDES {
        let arm = eval.arms.get(side);
        if view.overlays.spheres {
            out.push((Handle::Target(side), arm.wrist_target_in_world, r));
        }
        // A CCD arm has no pole (its marker is drawn greyed out): nothing to pick or drag.
        let uses_pole = stage.inputs.settings.arm(side).solver == ArmSolverKind::TwoBone;
        if view.overlays.pole_and_plane && uses_pole {
            out.push((Handle::Pole(side), arm.pole_in_world, 0.9 * r));
        }
        if let Some((_, p, _)) = held_grip(stage, side) {
            out.push((Handle::Grip(side), p, 0.7 * r));
        }
    }
    if view.overlays.spheres {
        for m in RodMarker::ALL {
            if let Some(p) = marker_in_world(stage, m) {
                out.push((Handle::RodMarker(m), p, 0.8 * r));
            }
        }
    }
    out
}

/// The handle under `pixel`, nearest to the camera; spheres win over the rod.
pub fn pick(stage: &Stage, view: &ViewOptions, camera: &Camera, pixel: [f32; 2]) -> Option<Handle> {
    let ray = pixel_ray(camera, pixel)?;
    let mut best: Option<(f64, Handle)> = None;
    for (handle, centre, radius) in pickable(stage, view) {
        let radius = radius.max(PICK_PX * world_per_pixel(camera, centre));
        if let Some(s) = ray_sphere(&ray, centre, radius) {
            // Prefer the sphere whose centre is nearest the ray when they overlap on screen.
            let miss = {
                let oc = centre - ray.origin;
                (oc - ray.dir * oc.dot(ray.dir)).length() / radius
            };
            let key = s + miss * radius;
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, handle));
            }
        }
    }
    if let Some((_, h)) = best {
        return Some(h);
    }
    let (butt, tip) = rod_segment(stage)?;
    let (d, s) = ray_segment(&ray, butt, tip);
    let tolerance = 0.02f64.max(PICK_PX * world_per_pixel(camera, ray.at(s)));
    (d <= tolerance).then_some(Handle::Rod)
}

/// Pixel of a handle with `camera` (for tests and scripted input).
pub fn handle_pixel(stage: &Stage, camera: &Camera, handle: Handle) -> Option<[f64; 2]> {
    let p = match handle {
        // The rod is picked along its length; its middle is a safer pixel than the butt.
        Handle::Rod => {
            let (a, b) = rod_segment(stage)?;
            a.lerp(b, 0.5)
        }
        h => handle_position(stage, h)?,
    };
    world_to_pixel(camera, p)
}

/// Distance in pixels from `q` to the screen segment `a..b`.
fn segment_distance(a: [f64; 2], b: [f64; 2], q: [f64; 2]) -> (f64, f64) {
    let ab = [b[0] - a[0], b[1] - a[1]];
    let aq = [q[0] - a[0], q[1] - a[1]];
    let len2 = ab[0] * ab[0] + ab[1] * ab[1];
    let t = if len2 < 1e-9 {
        0.0
    } else {
        ((aq[0] * ab[0] + aq[1] * ab[1]) / len2).clamp(0.0, 1.0)
    };
    ((aq[0] - ab[0] * t).hypot(aq[1] - ab[1] * t), t)
}

/// Whether `q` is inside the screen quadrilateral `c` (convex, either winding).
fn inside(c: &[[f64; 2]; 4], q: [f64; 2]) -> bool {
    let side =
        |a: [f64; 2], b: [f64; 2]| (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
    let s: Vec<f64> = (0..4).map(|i| side(c[i], c[(i + 1) % 4])).collect();
    s.iter().all(|v| *v >= 0.0) || s.iter().all(|v| *v <= 0.0)
}

/// The part of the selection's gizmo under `pixel`, if any: an arrow (within 6 px of its
/// outer three quarters), a plane square, or a ring (within 6 px), the nearest first.
pub fn pick_gizmo(
    stage: &Stage,
    view: &ViewState,
    camera: &Camera,
    pixel: [f64; 2],
) -> Option<GizmoPart> {
    use super::camera::world_to_pixel;
    let handle = view.selection()?;
    if !handle.can_move() && !handle.can_rotate() {
        return None;
    }
    let p = handle_position(stage, handle)?;
    let centre = world_to_pixel(camera, p)?;
    let px = world_per_pixel(camera, p);
    let axes = gizmo_axes(stage, view, handle);
    let mut best: Option<(GizmoPart, f64)> = None;
    let mut offer = |part: GizmoPart, d: f64| {
        if d < 6.0 && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((part, d));
        }
    };
    if view.rotates(handle) {
        let rings = axes
            .iter()
            .map(|&(a, dir)| (GizmoPart::Ring(a), dir, RING_PX))
            .chain([(GizmoPart::ViewRing, -camera_forward(camera), VIEW_RING_PX)]);
        for (part, normal, radius) in rings {
            let points: Vec<[f64; 2]> = circle(p, normal, radius * px, 64)
                .into_iter()
                .filter_map(|q| world_to_pixel(camera, q))
                .collect();
            let d = points
                .windows(2)
                .map(|w| segment_distance(w[0], w[1], pixel).0)
                .fold(f64::INFINITY, f64::min);
            offer(part, d);
        }
    } else {
        for &(a, dir) in &axes {
            let Some(end) = world_to_pixel(camera, p + dir * (AXIS_PX * px)) else {
                continue;
            };
            let (d, t) = segment_distance(centre, end, pixel);
            // The inner quarter is the handle's own sphere.
            if t >= 0.25 {
                offer(GizmoPart::Arrow(a), d);
            }
        }
        for (n, corners) in plane_squares(&axes, p, px) {
            let screen: Option<Vec<[f64; 2]>> =
                corners.iter().map(|c| world_to_pixel(camera, *c)).collect();
            if let Some(s) = screen
                && inside(&[s[0], s[1], s[2], s[3]], pixel)
            {
                offer(GizmoPart::Plane(n), 3.0);
            }
        }
    }
    best.map(|b| b.0)
}
