//! What can be picked in the viewport and where it is: the wrist-target and pole spheres of
//! each arm, the grip each hand holds, and the rod. Picking casts the mouse ray against
//! spheres (inflated to a minimum on-screen size) and the rod's capsule.

use super::camera::{Ray, pixel_ray, world_per_pixel, world_to_pixel};
use crate::fishing::{ArmSolverKind, GripKind, SIDES};
use crate::render::Camera;
use crate::rig::Side;
use crate::stage::rod_markers::{RodMarker, marker_in_world};
use crate::stage::{Stage, ViewOptions, sphere_radius};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};

/// A pickable, draggable thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Handle {
    /// The wrist target sphere of an arm; dragging edits the held grip's offset.
    Target(Side),
    /// The pole sphere of an arm; dragging edits `calibration.poles[side]`.
    Pole(Side),
    /// The grip the hand on `side` holds; a rotate gizmo edits `grips[kind].rotation`.
    Grip(Side),
    /// The rod; a rotate gizmo edits `calibration.rod_adjust.rotation`.
    Rod,
    /// A grip marker on an artist's rod; dragging slides it along the blank.
    RodMarker(RodMarker),
}

impl Handle {
    /// Whether the move gizmo applies (W): every handle but a rod marker, which slides along
    /// the blank by itself. A grip moves its grip offset, the rod its rod adjustment.
    pub fn can_move(self) -> bool {
        !matches!(self, Handle::RodMarker(_))
    }

    /// Whether the rotate gizmo applies (E): grips and the rod. With no gizmo mode chosen,
    /// dragging these rotates them and the others move.
    pub fn can_rotate(self) -> bool {
        matches!(self, Handle::Grip(_) | Handle::Rod)
    }

    pub fn label(self) -> String {
        match self {
            Handle::Target(s) => format!("{} wrist target", s.name()),
            Handle::Pole(s) => format!("{} pole", s.name()),
            Handle::Grip(s) => format!("{} hand's grip", s.name()),
            Handle::Rod => "rod".into(),
            Handle::RodMarker(m) => format!("{} marker", m.label()),
        }
    }
}

/// What the gizmo does to the selection (W / E).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GizmoMode {
    Move,
    Rotate,
}

/// Whose axes the gizmo uses (Q).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GizmoSpace {
    #[default]
    World,
    /// The selection's own frame: the grip frame for targets and grips, the rod's for the rod.
    Local,
}

/// A grabbable part of the gizmo around the selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GizmoPart {
    /// The move gizmo's arrow along an axis.
    Arrow(Axis),
    /// The move gizmo's square for the plane normal to an axis.
    Plane(Axis),
    /// The rotate gizmo's ring about an axis.
    Ring(Axis),
    /// The rotate gizmo's outer ring, about the view direction.
    ViewRing,
}

/// World-space constraint axis for drags and rotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];

    pub fn dir(self) -> DVec3 {
        match self {
            Axis::X => DVec3::X,
            Axis::Y => DVec3::Y,
            Axis::Z => DVec3::Z,
        }
    }
}

/// Minimum pick radius on screen, pixels.
pub const PICK_PX: f64 = 8.0;

/// The grip a hand holds now and its position / rotation in world space.
pub fn held_grip(stage: &Stage, side: Side) -> Option<(GripKind, DVec3, glam::DQuat)> {
    let eval = stage.evaluation()?;
    let grip = eval.frames.grips.get(side);
    let world = stage.world_from_actor.to_affine();
    let p = world.transform_point3(grip.actor_from_grip.translation);
    let q = (stage.world_from_actor.rotation * grip.actor_from_grip.rotation).normalize();
    Some((grip.hold.main(), p, q))
}

/// The rod's butt and tip in world space.
pub fn rod_segment(stage: &Stage) -> Option<(DVec3, DVec3)> {
    let eval = stage.evaluation()?;
    let rod = eval.frames.actor_from_rod;
    let world = stage.world_from_actor.to_affine();
    let butt = world.transform_point3(rod.translation);
    let tip = world.transform_point3(
        rod.translation + rod.rotation * DVec3::Y * stage.inputs.state.params.rod_length,
    );
    Some((butt, tip))
}

/// The axes the gizmo and drags of `handle` use, as a world rotation: the world's own, or in
/// local space the handle's frame (targets and grips: the grip frame; the rod: the rod's;
/// poles and rod markers: the actor's). `None` when the stage has no evaluation.
pub fn handle_axes_in_world(stage: &Stage, handle: Handle, space: GizmoSpace) -> Option<DQuat> {
    let eval = stage.evaluation()?;
    if space == GizmoSpace::World {
        return Some(DQuat::IDENTITY);
    }
    let frame = match handle {
        Handle::Target(side) | Handle::Grip(side) => {
            eval.frames.grips.get(side).actor_from_grip.rotation
        }
        Handle::Rod => eval.frames.actor_from_rod.rotation,
        Handle::Pole(_) | Handle::RodMarker(_) => DQuat::IDENTITY,
    };
    Some((stage.world_from_actor.rotation * frame).normalize())
}

/// Where a handle is in world space (the pivot for rotate handles).
pub fn handle_position(stage: &Stage, handle: Handle) -> Option<DVec3> {
    let eval = stage.evaluation()?;
    match handle {
        Handle::Target(s) => Some(eval.arms.get(s).wrist_target_in_world),
        Handle::Pole(s) => Some(eval.arms.get(s).pole_in_world),
        Handle::Grip(s) => held_grip(stage, s).map(|g| g.1),
        Handle::Rod => rod_segment(stage).map(|r| r.0),
        Handle::RodMarker(m) => marker_in_world(stage, m),
    }
}

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
