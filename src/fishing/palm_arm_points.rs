//! The palm skin the arm carries (issue 33): after a grip is solved, which of the palm's
//! points other bones (the forearm at the wrist) share, with the rest of their skinning done,
//! and how far the points the hand alone carries keep the handle — what the pose update
//! needs to correct the palm's placement for the arm as solved ([`PalmArm`]).

use super::grip_memo::HandContactInputs;
use super::hand_contact::{ArmTerm, MovingPoint, PalmArm};
use super::hand_shape::PalmPoint;
use crate::ik::grip_contact::palm_clearance;
use glam::{DAffine3, DQuat, DVec3};

/// What the pose update needs to correct the palm for the arm: the palm points that other
/// bones carry (the forearm at the wrist), with the rest of their skinning done, and the
/// clearance of all the others, relative to the axis through `origin` (hand units), with the
/// fingers at `frames` (their joints' frames in hand space, per finger).
pub(crate) fn palm_arm_points(
    inputs: &HandContactInputs<'_>,
    frames: &[Vec<DAffine3>],
    origin: DVec3,
    inv: DQuat,
    (radius, half_length): (f64, f64),
    scale: f64,
) -> PalmArm {
    let mut fixed = Vec::new();
    let mut moving = Vec::new();
    let mut candidates = Vec::new();
    let mut terms = Vec::new();
    let mut bones: Vec<usize> = Vec::new();
    for p in &inputs.shape.palm {
        let mut own = p.in_hand * p.hand_weight;
        for &(f, k, w, in_joint) in &p.segments {
            own += frames[f][k].transform_point3(in_joint) * w;
        }
        let w_others: f64 = p.others.iter().map(|o| o.1).sum();
        let rigid = inv * (own + p.in_hand * w_others - origin);
        if w_others <= 0.0 {
            fixed.push(rigid);
            continue;
        }
        // How far the arm can carry it: its share of a 15 cm lever.
        let reach = w_others * 0.15 / scale;
        // Across the held part and how far it reaches toward the palm: a handle's radius,
        // a knob's half length (its end faces the palm).
        let (across, depth) = if half_length.is_finite() {
            (rigid.x.hypot(rigid.y), half_length)
        } else {
            (rigid.x.abs(), radius)
        };
        if across < radius + reach && rigid.z + depth + reach > 0.0 {
            candidates.push((p, own, rigid, reach));
        }
    }
    let fixed_clearance = if half_length.is_finite() {
        // A knob's end on the palm: every candidate may decide it.
        for &(p, own, _, _) in &candidates {
            push_moving(p, own, origin, inv, &mut moving, &mut terms, &mut bones);
        }
        super::knob_pinch::knob_end_on_palm(&fixed, radius, half_length)
            .unwrap_or(f64::NEG_INFINITY)
    } else {
        // A point whose clearance, however far the arm carries it, stays below what another
        // point (or the rigid skin) surely needs never decides the correction: left out.
        let r2 = radius * radius;
        let bound = |x: f64| (r2 - x * x).max(0.0).sqrt();
        let fixed_clearance = palm_clearance(&fixed, radius).unwrap_or(f64::NEG_INFINITY);
        let surely = candidates
            .iter()
            .filter(|c| c.2.x.abs() + c.3 < radius)
            .map(|c| c.2.z - c.3 + bound(c.2.x.abs() + c.3))
            .fold(fixed_clearance, f64::max);
        for &(p, own, rigid, reach) in &candidates {
            let at_most = rigid.z + reach + bound((rigid.x.abs() - reach).max(0.0));
            if at_most >= surely {
                push_moving(p, own, origin, inv, &mut moving, &mut terms, &mut bones);
            }
        }
        fixed_clearance
    };
    PalmArm {
        origin,
        grip_from_hand: inv,
        radius,
        half_length,
        fixed_clearance,
        moving,
        terms,
        bones,
    }
}

/// Adds palm point `p` (its hand's and fingers' part `own`, hand space) to the points the arm
/// carries, with its shares of the other bones.
fn push_moving(
    p: &PalmPoint,
    own: DVec3,
    origin: DVec3,
    inv: DQuat,
    moving: &mut Vec<MovingPoint>,
    terms: &mut Vec<ArmTerm>,
    bones: &mut Vec<usize>,
) {
    let first = terms.len() as u32;
    for &(bone, w, in_bone) in &p.others {
        let slot = bones.iter().position(|&b| b == bone).unwrap_or_else(|| {
            bones.push(bone);
            bones.len() - 1
        });
        terms.push(ArmTerm {
            slot: slot as u32,
            weighted_in_bone: (in_bone * w).extend(w),
        });
    }
    moving.push(MovingPoint {
        own_in_grip: inv * (own - origin),
        first,
        count: terms.len() as u32 - first,
    });
}
