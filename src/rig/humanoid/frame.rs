//! The character frame: which way is up and forward in a character's file and what its units
//! are, found from the skeleton (head above the hips, left shoulder opposite the right one),
//! so Y-up or Z-up files, +Z or −Z facing, centimetre files and 0.01-scaled armatures all end
//! up upright, facing +Z, in metres.

use super::{HumanoidMap, Side};
use crate::rig::{Pose, Skeleton, Transform};
use glam::{DMat3, DQuat, DVec3};
use thiserror::Error;

/// Rotations within this angle of an axis-aligned one are snapped to it: files are authored
/// Y-up or Z-up facing along an axis, and a head leaning a little forward must not tilt the
/// whole character.
pub const SNAP_ANGLE_DEG: f64 = 25.0;

/// Hip→knee + knee→ankle + hips→head of a human in metres (pose-independent: the unit
/// heuristic must work on seated, T-posed and A-posed files alike).
pub const HUMAN_LIMB_SUM: f64 = 1.45;

/// Why [`CharacterFrame::from_map`] could not find a frame.
#[derive(Debug, Error, PartialEq)]
pub enum FrameError {
    /// The map has no body; the payload lists the missing body roles.
    #[error(
        "cannot tell which way the character stands: no full humanoid body was found \
         (missing {0})"
    )]
    NoBody(String),
    /// The body or arms give no usable directions or size; the payload says which.
    #[error("cannot tell which way the character faces: {0}")]
    Degenerate(&'static str),
}

/// How a character's file space maps to actor space (+Y up, facing +Z, left at +X, metres,
/// rest hips above the origin).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CharacterFrame {
    /// Rotation, uniform scale and horizontal centring that bring the file's world into actor
    /// space. Exactly the identity for a character that already stands so.
    pub actor_from_file: Transform,
    /// The body's up (hips → head, made orthogonal to left) in file space.
    pub up_in_file: DVec3,
    /// The body's forward in file space.
    pub forward_in_file: DVec3,
    /// The power of ten that takes file units to metres.
    pub unit_scale: f64,
    /// True when the rotation was snapped to an axis-aligned one.
    pub snapped: bool,
}

/// The index (0 = x, 1 = y, 2 = z) of `v`'s largest component by magnitude, and the signed
/// unit axis along it (ties go to the earlier axis; a zero vector gives +x).
pub fn nearest_axis(v: DVec3) -> (usize, DVec3) {
    let a = v.abs();
    let k = if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    };
    let mut axis = DVec3::ZERO;
    axis[k] = v[k].signum();
    (k, axis)
}

/// The axis-aligned rotation nearest `m` (columns rounded to the nearest signed axis), when it
/// is a proper rotation.
fn axis_aligned(m: &DMat3) -> Option<DMat3> {
    let snap = |v: DVec3| nearest_axis(v).1;
    let s = DMat3::from_cols(snap(m.x_axis), snap(m.y_axis), snap(m.z_axis));
    ((s.determinant() - 1.0).abs() < 1e-9).then_some(s)
}

impl CharacterFrame {
    /// The frame of a character from its refreshed rest pose and a map with a body and both
    /// upper arms.
    ///
    /// # Errors
    /// [`FrameError::NoBody`] without hips, head and legs; [`FrameError::Degenerate`] when
    /// an arm is missing, the head sits on the hips, the shoulders coincide or lie on the
    /// hips → head line, or the legs and spine have no (finite) length.
    pub fn from_map(rest: &Pose, map: &HumanoidMap) -> Result<Self, FrameError> {
        let Some(body) = &map.body else {
            let mut missing: Vec<String> = map
                .body_missing
                .iter()
                .filter(|r| !matches!(r, super::BodyRole::Toe(_) | super::BodyRole::Neck))
                .map(|r| r.to_string())
                .collect();
            if missing.is_empty() {
                missing.push("hips, head or legs".to_string());
            }
            return Err(FrameError::NoBody(missing.join(", ")));
        };
        let (Some(l), Some(r)) = (map.arm(Side::Left), map.arm(Side::Right)) else {
            return Err(FrameError::Degenerate("both arms are needed"));
        };
        let p = |b: usize| rest.world_position(b);
        let up0 = (p(body.head) - p(body.hips))
            .try_normalize()
            .ok_or(FrameError::Degenerate("the head sits on the hips"))?;
        let across = p(l.upper_arm) - p(r.upper_arm);
        let left = (across - up0 * across.dot(up0))
            .try_normalize()
            .ok_or(FrameError::Degenerate("the shoulders do not span the body"))?;
        let forward = left.cross(up0);
        let file_from_actor = DMat3::from_cols(left, up0, forward);
        let (rot, snapped) = match axis_aligned(&file_from_actor) {
            Some(s) => {
                let q = DQuat::from_mat3(&s).normalize();
                let exact = DQuat::from_mat3(&file_from_actor).normalize();
                if q.angle_between(exact) <= SNAP_ANGLE_DEG.to_radians() {
                    (q, true)
                } else {
                    (exact, false)
                }
            }
            None => (DQuat::from_mat3(&file_from_actor).normalize(), false),
        };
        let limbs = body.left_leg.thigh_length
            + body.left_leg.shin_length
            + (p(body.head) - p(body.hips)).length();
        if !(limbs.is_finite() && limbs > 0.0) {
            return Err(FrameError::Degenerate("the legs and spine have no length"));
        }
        let unit_scale = 10f64.powi((HUMAN_LIMB_SUM / limbs).log10().round() as i32);
        let actor_from_file_rot = rot.inverse();
        // Centre the hips horizontally.
        let hips = actor_from_file_rot * (p(body.hips) * unit_scale);
        let mut translation = DVec3::new(-hips.x, 0.0, -hips.z);
        // Sub-micron centring is float noise of the file (f32), not a placement.
        if translation.length() < 1e-6 * limbs * unit_scale {
            translation = DVec3::ZERO;
        }
        Ok(Self {
            actor_from_file: Transform::new(
                translation,
                actor_from_file_rot,
                DVec3::splat(unit_scale),
            ),
            up_in_file: rot * DVec3::Y,
            forward_in_file: rot * DVec3::Z,
            unit_scale,
            snapped,
        })
    }

    /// True when the frame changes nothing.
    pub fn is_identity(&self) -> bool {
        self.actor_from_file == Transform::IDENTITY
    }

    /// `skeleton` with every root bone's rest transform carried into actor space, so the
    /// whole rig (and every mesh skinned or attached to it) stands in the actor frame.
    pub fn apply(&self, skeleton: &Skeleton) -> Skeleton {
        if self.is_identity() {
            return skeleton.clone();
        }
        skeleton.with_roots_under(&self.actor_from_file)
    }
}
