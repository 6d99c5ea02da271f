//! The editor's own overlays on top of the stage's: grip markers, the selection ring, and the
//! gizmo around the selection (three.js TransformControls style): arrows and plane squares to
//! move it, rings to rotate it, in world or local axes, the part under the mouse highlighted
//! (picking them is in `pick`). Sizes are in pixels
//! (converted to world at the handle's depth) so gizmos read the same at any zoom.

use super::EditorState;
use super::camera::world_per_pixel;
use super::drag::camera_forward;
use super::handles::{Axis, GizmoPart, Handle, handle_axes_in_world, handle_position, held_grip};
use super::view_state::ViewState;
use crate::fishing::SIDES;
use crate::render::{Camera, FrameData, OverlayLine, OverlaySphere};
use crate::stage::{Stage, sphere_radius};
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
/// Radius of the rotate rings, pixels.
pub const RING_PX: f64 = 70.0;
/// Radius of the rotate gizmo's outer ring (about the view direction), pixels.
pub const VIEW_RING_PX: f64 = 84.0;
/// A gizmo part under the mouse or being dragged.
const HOVER: [f32; 4] = [1.0, 0.9, 0.2, 1.0];

fn f(v: DVec3) -> [f32; 3] {
    [v.x as f32, v.y as f32, v.z as f32]
}

/// Points of a circle of `radius` around `centre` in the plane normal to `axis`.
pub(super) fn circle(centre: DVec3, axis: DVec3, radius: f64, n: usize) -> Vec<DVec3> {
    let u = axis.any_orthonormal_vector();
    let v = axis.cross(u);
    (0..=n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            centre + (u * a.cos() + v * a.sin()) * radius
        })
        .collect()
}

/// A circle as overlay line points.
fn circle_line(centre: DVec3, axis: DVec3, radius: f64, n: usize) -> Vec<[f32; 3]> {
    circle(centre, axis, radius, n).into_iter().map(f).collect()
}

/// Stage draw data plus the editor's gizmos.
pub fn editor_frame(ed: &EditorState, camera: Camera, overlays: bool) -> FrameData {
    let stage = &ed.doc().stage;
    let mut view = *ed.view().options();
    if !overlays {
        view.overlays = crate::stage::OverlayOptions::NONE;
    }
    let mut frame = stage.frame(camera, &view);
    if !overlays {
        return frame;
    }
    let o = &mut frame.overlays;
    let r = sphere_radius(stage);
    if ed.view().grip_markers() {
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
    let Some(handle) = ed.view().selection() else {
        return frame;
    };
    let Some(p) = handle_position(stage, handle) else {
        return frame;
    };
    let px = world_per_pixel(&camera, p);
    let active = ed.drag().and_then(active_part);
    let lit = |part: GizmoPart, rgba: [f32; 4]| {
        if active == Some(part) || (active.is_none() && ed.view().hover() == Some(part)) {
            HOVER
        } else if active.is_some() {
            [rgba[0], rgba[1], rgba[2], 0.25]
        } else {
            rgba
        }
    };
    let width = |part: GizmoPart, w: f32| {
        if active == Some(part) || ed.view().hover() == Some(part) {
            w + 2.0
        } else {
            w
        }
    };
    let axes = gizmo_axes(stage, ed.view(), handle);
    if handle == Handle::Rod
        && let Some((butt, tip)) = super::handles::rod_segment(stage)
    {
        o.lines.push(OverlayLine {
            points: vec![f(butt), f(tip)],
            rgba: [1.0, 1.0, 1.0, 0.5],
            width_px: 3.0,
        });
    }
    if !handle.can_move() && !handle.can_rotate() {
        // A rod marker slides along the blank by itself.
    } else if ed.rotates(handle) {
        for (a, dir) in axes {
            let part = GizmoPart::Ring(a);
            o.lines.push(OverlayLine {
                points: circle_line(p, dir, RING_PX * px, 64),
                rgba: lit(part, AXES[a as usize]),
                width_px: width(part, 2.0),
            });
        }
        let part = GizmoPart::ViewRing;
        o.lines.push(OverlayLine {
            points: circle_line(p, -camera_forward(&camera), VIEW_RING_PX * px, 64),
            rgba: lit(part, SELECT),
            width_px: width(part, 1.5),
        });
    } else {
        for (a, dir) in axes {
            let part = GizmoPart::Arrow(a);
            let rgba = lit(part, AXES[a as usize]);
            let end = p + dir * (AXIS_PX * px);
            o.lines.push(OverlayLine {
                points: vec![f(p), f(end)],
                rgba,
                width_px: width(part, 2.5),
            });
            // A knob at the end: the grab point of the axis handle.
            o.spheres.push(OverlaySphere {
                centre: f(end),
                radius: (5.0 * px) as f32,
                rgba,
            });
        }
        for (n, corners) in plane_squares(&axes, p, px) {
            let part = GizmoPart::Plane(n);
            let mut rgba = lit(part, AXES[n as usize]);
            rgba[3] = rgba[3].min(0.8);
            let mut points: Vec<[f32; 3]> = corners.iter().map(|c| f(*c)).collect();
            points.push(points[0]);
            o.lines.push(OverlayLine {
                points,
                rgba,
                width_px: width(part, 1.5),
            });
        }
    }
    // Selection ring around the handle.
    let ring = (r * 1.6).max(9.0 * px);
    o.lines.push(OverlayLine {
        points: circle_line(p, -camera_forward(&camera), ring, 32),
        rgba: SELECT,
        width_px: 1.5,
    });
    frame
}

/// The gizmo part being dragged: the drag's axis as an arrow or ring, its plane, or the view
/// ring of a free rotation.
fn active_part(d: &super::drag::Drag) -> Option<GizmoPart> {
    match (d.rotate, d.axis, d.plane) {
        (true, Some(a), _) => Some(GizmoPart::Ring(a)),
        (true, None, _) => Some(GizmoPart::ViewRing),
        (false, Some(a), _) => Some(GizmoPart::Arrow(a)),
        (false, None, Some(n)) => Some(GizmoPart::Plane(n)),
        (false, None, None) => None,
    }
}

/// The gizmo's three axes for `handle` in world space (see [`handle_axes_in_world`]): the
/// same axes its drags move along.
pub fn gizmo_axes(stage: &Stage, view: &ViewState, handle: Handle) -> [(Axis, DVec3); 3] {
    let world =
        handle_axes_in_world(stage, handle, view.gizmo_space()).unwrap_or(glam::DQuat::IDENTITY);
    Axis::ALL.map(|a| (a, (world * a.dir()).normalize()))
}

/// The move gizmo's plane squares: for each axis, the square between the other two axes
/// from 25% to 45% of the arrow length.
pub(super) fn plane_squares(
    axes: &[(Axis, DVec3); 3],
    p: DVec3,
    px: f64,
) -> [(Axis, [DVec3; 4]); 3] {
    let (a, b) = (0.25 * AXIS_PX * px, 0.45 * AXIS_PX * px);
    [0, 1, 2].map(|n| {
        let (u, v) = (axes[(n + 1) % 3].1, axes[(n + 2) % 3].1);
        (
            axes[n].0,
            [
                p + u * a + v * a,
                p + u * b + v * a,
                p + u * b + v * b,
                p + u * a + v * b,
            ],
        )
    })
}
