//! The head follows the fishing (issue 34): the neck and the head of any humanoid turn, within
//! neck limits, toward what an angler watches — the lure as it hangs and flies, where the line
//! enters the water, the fish. Applied after the arms (nothing of the arms depends on it).

use crate::rig::{Pose, Skeleton, apply_world_rotation};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

use super::rules::{self, FieldProblem, Path};

/// Whether and how much the head follows (a solver setting; presets without it read on at
/// full weight).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LookSettings {
    /// The head turns toward what the angler watches.
    pub enabled: bool,
    /// How far, 0..=1 (0: the seated pose's head, 1: as far as the neck limits allow).
    pub weight: f64,
}

impl Default for LookSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            weight: 1.0,
        }
    }
}

impl LookSettings {
    pub(crate) fn check(&self, at: &Path, out: &mut Vec<FieldProblem>) {
        rules::number(self.weight, &at.join("weight"), 0.0, 1.0, out);
    }
}

/// How far the head may turn from the seated pose's, radians: left and right, down, up.
pub const YAW_LIMIT: f64 = 70.0 * std::f64::consts::PI / 180.0;
/// See [`YAW_LIMIT`].
pub const PITCH_DOWN_LIMIT: f64 = 50.0 * std::f64::consts::PI / 180.0;
/// See [`YAW_LIMIT`].
pub const PITCH_UP_LIMIT: f64 = 35.0 * std::f64::consts::PI / 180.0;

/// The neck's share of the turn when the character has a neck bone (the head takes the rest).
pub const NECK_SHARE: f64 = 0.4;

/// How far past [`YAW_LIMIT`] a target may lie before the turn starts fading back to the
/// seated pose (reaching it straight behind), radians (40°).
pub const FADE_MARGIN: f64 = 40.0 * PI / 180.0;

/// How far the eyes may turn in the head, radians: left and right, down, up.
pub const EYE_YAW_LIMIT: f64 = 30.0 * PI / 180.0;
/// See [`EYE_YAW_LIMIT`].
pub const EYE_PITCH_DOWN_LIMIT: f64 = 25.0 * PI / 180.0;
/// See [`EYE_YAW_LIMIT`].
pub const EYE_PITCH_UP_LIMIT: f64 = 20.0 * PI / 180.0;

/// Below this share of the target's distance off the vertical through the head, the yaw fades
/// out (straight above or below it is undefined).
pub const OVERHEAD: f64 = 0.2;

fn smoothstep(x: f64) -> f64 {
    x * x * (3.0 - 2.0 * x)
}

/// One head turn to apply.
///
/// Preconditions: `head` (and `neck`, when some) are bones of the skeleton the pose is of, the
/// neck an ancestor of the head; the pose's head still looks the way the seated base pose
/// has it (the turn is measured from the actor's forward, +Z in actor space).
/// `keep` are bones that must not move (the arms, which already hold the rod): a neck whose
/// subtree holds one of them is left alone, and so is a head whose subtree does. A
/// non-finite target or weight turns nothing.
#[derive(Clone, Copy, Debug)]
pub struct HeadLookJob<'a> {
    /// The neck bone, when the character has one: it takes [`NECK_SHARE`] of the turn.
    pub neck: Option<usize>,
    /// The head bone.
    pub head: usize,
    /// Eye bones below the head (any number; none for a character without them): each
    /// turns, within the eye limits, the rest of the way from where the head faces.
    pub eyes: &'a [usize],
    /// What to look at, world space.
    pub target_in_world: DVec3,
    /// How far, 0..=1 (clamped).
    pub weight: f64,
    /// Bones the turn must not move.
    pub keep: &'a [usize],
}

/// What the turn did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeadLookReport {
    /// The head's turn about the actor's up, radians (positive toward +X, the angler's left).
    pub yaw: f64,
    /// The head's turn up (positive) or down, radians.
    pub pitch: f64,
    /// The target lay beyond a neck limit.
    pub limited: bool,
    /// The last eye's turn in the head about its up and side, radians (0 without eyes).
    pub eye_yaw: f64,
    /// See [`HeadLookReport::eye_yaw`].
    pub eye_pitch: f64,
}

impl HeadLookJob<'_> {
    /// Turns the neck and head of `pose` (their subtrees refreshed): toward the target by
    /// yaw about the actor's up and pitch about its side, each held within the neck limits,
    /// times the weight; the neck takes [`NECK_SHARE`] of the turn, the head the rest.
    pub fn solve(&self, skeleton: &Skeleton, pose: &mut Pose) -> HeadLookReport {
        let moves_kept = |bone: usize| {
            skeleton
                .subtree_order(bone)
                .iter()
                .any(|b| self.keep.contains(b))
        };
        if self.head >= skeleton.len() || moves_kept(self.head) {
            return HeadLookReport::default();
        }
        let neck = self
            .neck
            .filter(|&n| n < skeleton.len() && n != self.head && !moves_kept(n));
        let weight = if self.weight.is_finite() {
            self.weight.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if weight == 0.0 || !self.target_in_world.is_finite() {
            return HeadLookReport::default();
        }
        let actor = *pose.world_from_actor();
        let to_actor = actor.rotation.inverse();
        let eye = pose.world_position(self.head);
        let d = to_actor * (self.target_in_world - eye);
        let flat = d.x.hypot(d.z);
        if flat < 1e-9 && d.y.abs() < 1e-9 {
            return HeadLookReport::default();
        }
        let yaw_want = d.x.atan2(d.z);
        let pitch_want = d.y.atan2(flat);
        let yaw = yaw_want.clamp(-YAW_LIMIT, YAW_LIMIT);
        let pitch = pitch_want.clamp(-PITCH_DOWN_LIMIT, PITCH_UP_LIMIT);
        let limited = yaw != yaw_want || pitch != pitch_want;
        // Continuous wherever the target goes: held at the yaw limit, then, from
        // FADE_MARGIN past it, faded back to the seated pose toward straight behind (where
        // ±π meet); the yaw fades where the target is nearly straight above or below (where
        // it is undefined).
        let fade_from = YAW_LIMIT + FADE_MARGIN;
        let behind = ((yaw_want.abs() - fade_from) / (PI - fade_from)).clamp(0.0, 1.0);
        let facing = 1.0 - smoothstep(behind);
        let upright = smoothstep((flat / d.length() / OVERHEAD).clamp(0.0, 1.0));
        let (yaw, pitch) = (yaw * weight * facing * upright, pitch * weight * facing);
        let turn_in_actor = DQuat::from_rotation_y(yaw) * DQuat::from_rotation_x(-pitch);
        let turn = (actor.rotation * turn_in_actor * to_actor).normalize();
        let first = match neck {
            Some(neck) => {
                let part = DQuat::IDENTITY.slerp(turn, NECK_SHARE);
                apply_world_rotation(skeleton, pose, neck, part);
                pose.refresh_subtree(skeleton, neck);
                (turn * part.inverse()).normalize()
            }
            None => turn,
        };
        apply_world_rotation(skeleton, pose, self.head, first);
        pose.refresh_subtree(skeleton, self.head);
        let mut report = HeadLookReport {
            yaw,
            pitch,
            limited,
            ..Default::default()
        };
        // The eyes, from where the head now faces: the same weight and fades, so they turn
        // back with the head as the target passes behind or overhead.
        for &eye in self.eyes {
            if eye >= skeleton.len() || eye == self.head {
                continue;
            }
            let d = turn_in_actor.inverse()
                * (to_actor * (self.target_in_world - pose.world_position(eye)));
            let flat = d.x.hypot(d.z);
            if flat < 1e-9 && d.y.abs() < 1e-9 {
                continue;
            }
            let eye_yaw =
                d.x.atan2(d.z).clamp(-EYE_YAW_LIMIT, EYE_YAW_LIMIT) * weight * facing * upright;
            let eye_pitch =
                d.y.atan2(flat)
                    .clamp(-EYE_PITCH_DOWN_LIMIT, EYE_PITCH_UP_LIMIT)
                    * weight
                    * facing;
            let in_head = DQuat::from_rotation_y(eye_yaw) * DQuat::from_rotation_x(-eye_pitch);
            let in_actor = turn_in_actor * in_head * turn_in_actor.inverse();
            apply_world_rotation(
                skeleton,
                pose,
                eye,
                (actor.rotation * in_actor * to_actor).normalize(),
            );
            pose.refresh_subtree(skeleton, eye);
            (report.eye_yaw, report.eye_pitch) = (eye_yaw, eye_pitch);
        }
        report
    }
}
