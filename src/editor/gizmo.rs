//! The editor's own overlays on top of the stage's: grip markers, the selection ring, axis
//! handles for translate drags and a rotate ring for the rod and grips. Sizes are in pixels
//! (converted to world at the handle's depth) so gizmos read the same at any zoom.

use super::EditorState;
use super::camera::world_per_pixel;
use super::drag::camera_forward;
use super::pick::{Axis, Handle, handle_position, held_grip, sphere_radius};
use crate::fishing::SIDES;
use crate::render::{Camera, FrameData, OverlayLine, OverlaySphere};
use glam::DVec3;

const GRIP: [f32; 4] = [0.25, 0.85, 1.0, 1.0];
const SELECT: [f32; 4] = [1.0, 1.0, 1.0, 0.95];
const AXES: [[f32; 4]; 3] = [
    [1.0, 0.25, 0.25, 1.0],
    [0.35, 1.0, 0.35, 1.0],
    [0.35, 0.55, 1.0, 1.0],
];

/// Length of the on-screen axis handles, pixels.
pub const AXIS_PX: f64 = 60.0;
/// Radius of the rotate ring, pixels.
pub const RING_PX: f64 = 70.0;

fn f(v: DVec3) -> [f32; 3] {
    [v.x as f32, v.y as f32, v.z as f32]
}

/// Points of a circle of `radius` around `centre` in the plane normal to `axis`.
fn circle(centre: DVec3, axis: DVec3, radius: f64, n: usize) -> Vec<[f32; 3]> {
    let u = axis.any_orthonormal_vector();
    let v = axis.cross(u);
    (0..=n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            f(centre + (u * a.cos() + v * a.sin()) * radius)
        })
        .collect()
}

/// The axis handle end points of a translate gizmo at `p`.
pub fn axis_handles(camera: &Camera, p: DVec3) -> [(Axis, DVec3); 3] {
    let len = AXIS_PX * world_per_pixel(camera, p);
    Axis::ALL.map(|a| (a, p + a.dir() * len))
}

/// Stage draw data plus the editor's gizmos.
pub fn editor_frame(ed: &EditorState, camera: Camera, overlays: bool) -> FrameData {
    let stage = &ed.doc.stage;
    let mut view = ed.view;
    if !overlays {
        view.overlays = crate::stage::OverlayOptions::NONE;
    }
    let mut frame = stage.frame(camera, &view);
    if !overlays {
        return frame;
    }
    let o = &mut frame.overlays;
    let r = sphere_radius(stage);
    if ed.grip_markers {
        for side in SIDES {
            if let Some((_, p, _)) = held_grip(stage, side) {
                o.spheres.push(OverlaySphere {
                    centre: f(p),
                    radius: (0.7 * r) as f32,
                    rgba: GRIP,
                });
            }
        }
    }
    let Some(handle) = ed.selection else {
        return frame;
    };
    let Some(p) = handle_position(stage, handle) else {
        return frame;
    };
    let px = world_per_pixel(&camera, p);
    let axis = ed.drag.as_ref().and_then(|d| d.axis);
    if handle.is_rotate() {
        let normal = match axis {
            Some(a) => a.dir(),
            None => -camera_forward(&camera),
        };
        let colour = axis.map_or(SELECT, |a| AXES[a as usize]);
        o.lines.push(OverlayLine {
            points: circle(p, normal, RING_PX * px, 64),
            rgba: colour,
            width_px: 2.0,
        });
        if handle == Handle::Rod
            && let Some((butt, tip)) = super::pick::rod_segment(stage)
        {
            o.lines.push(OverlayLine {
                points: vec![f(butt), f(tip)],
                rgba: [1.0, 1.0, 1.0, 0.5],
                width_px: 3.0,
            });
        }
    } else {
        for (a, end) in axis_handles(&camera, p) {
            let mut rgba = AXES[a as usize];
            if axis.is_some_and(|x| x != a) {
                rgba[3] = 0.25;
            }
            o.lines.push(OverlayLine {
                points: vec![f(p), f(end)],
                rgba,
                width_px: if axis == Some(a) { 4.0 } else { 2.5 },
            });
            // A knob at the end: the grab point of the axis handle.
            o.spheres.push(OverlaySphere {
                centre: f(end),
                radius: (5.0 * px) as f32,
                rgba,
            });
        }
    }
    // Selection ring around the handle.
    let ring = (r * 1.6).max(9.0 * px);
    o.lines.push(OverlayLine {
        points: circle(p, -camera_forward(&camera), ring, 32),
        rgba: SELECT,
        width_px: 1.5,
    });
    frame
}

/// The axis handle of the selected translate handle under `pixel`, if any (within 6 px of
/// the handle's segment on screen).
pub fn pick_axis_handle(ed: &EditorState, camera: &Camera, pixel: [f64; 2]) -> Option<Axis> {
    let handle = ed.selection?;
    if handle.is_rotate() {
        return None;
    }
    let p = handle_position(&ed.doc.stage, handle)?;
    let a = super::camera::world_to_pixel(camera, p)?;
    let mut best = None;
    for (axis, end) in axis_handles(camera, p) {
        let Some(b) = super::camera::world_to_pixel(camera, end) else {
            continue;
        };
        let (ab, ap) = (
            [b[0] - a[0], b[1] - a[1]],
            [pixel[0] - a[0], pixel[1] - a[1]],
        );
        let len2 = ab[0] * ab[0] + ab[1] * ab[1];
        if len2 < 4.0 {
            continue;
        }
        let t = ((ap[0] * ab[0] + ap[1] * ab[1]) / len2).clamp(0.0, 1.0);
        // Skip the part covered by the sphere itself.
        if t < 0.25 {
            continue;
        }
        let d = (ap[0] - ab[0] * t).hypot(ap[1] - ab[1] * t);
        if d < 6.0 && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((axis, d));
        }
    }
    best.map(|b| b.0)
}
