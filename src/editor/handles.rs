//! The editor's handles — the wrist-target and pole spheres of each arm, the grip each hand
//! holds, the rod and the artist's rod markers — the gizmo's modes, spaces, parts and axes,
//! and where each handle is and which axes it uses. Picking (`pick`) and drawing
//! (`gizmo`) both read these.

use crate::fishing::GripKind;
use crate::rig::Side;
use crate::stage::Stage;
use crate::stage::rod_markers::{RodMarker, marker_in_world};
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
