//! A solved grip's hand in hand space (issue 33): the fingers' joint frames as the contact
//! solve closed them and the palm's skin points they carry, for the grip solve and the hand's
//! rest behind a baitcaster's trigger (`grip_stem::behind_post`).

use super::grip_memo::HandContactInputs;
use super::hand_contact::{FingerContact, GripContact};
use super::hand_shape::{ContactFinger, PalmPoint};
use crate::ik::grip_contact::{ContactState, Cylinder, FingerContactJob};
use glam::{DAffine3, DQuat, DVec3};

/// The fingers' joint frames (hand space) of a solved grip.
pub(crate) fn finger_frames(
    inputs: &HandContactInputs<'_>,
    out: &GripContact,
    t: DVec3,
    gy: DVec3,
    radius: f64,
) -> Vec<Vec<DAffine3>> {
    let cylinder = Cylinder::handle(t, gy, radius);
    inputs
        .fingers
        .iter()
        .enumerate()
        .map(|(i, f)| finger_job(f, out.spreads[i], cylinder).frames(&out.angles[i]))
        .collect()
}

/// Every palm point of `inputs` in the grip frame whose origin is `origin` (hand space) and
/// whose rotation from hand space is `grip_from_hand`, with the fingers at `frames` (straight
/// without; see [`palm_in_hand`]).
pub(crate) fn palm_in_grip(
    inputs: &HandContactInputs<'_>,
    frames: Option<&[Vec<DAffine3>]>,
    origin: DVec3,
    grip_from_hand: DQuat,
) -> Vec<DVec3> {
    inputs
        .shape
        .palm
        .iter()
        .map(|p| grip_from_hand * (palm_in_hand(p, frames) - origin))
        .collect()
}

/// A palm point in hand space with the fingers at `frames` (straight without) and the other
/// bones rigid with the hand, as at the base pose.
pub(crate) fn palm_in_hand(p: &PalmPoint, frames: Option<&[Vec<DAffine3>]>) -> DVec3 {
    let mut at = p.in_hand * (p.hand_weight + p.others.iter().map(|o| o.1).sum::<f64>());
    for &(f, k, w, in_joint) in &p.segments {
        at += match frames {
            Some(fr) => fr[f][k].transform_point3(in_joint) * w,
            None => p.in_hand * w,
        };
    }
    at
}

/// The contact job of `finger` spread by `spread` round `cylinder`.
pub(crate) fn finger_job(
    finger: &ContactFinger,
    spread: f64,
    cylinder: Cylinder,
) -> FingerContactJob<'_> {
    FingerContactJob {
        also: &[],
        joints: &finger.joints,
        cylinder,
        spread,
        spread_axis: finger.spread_axis,
        gap_scale: finger.radius,
    }
}

/// Adds a calibrated curl offset (radians, shared among the joints as their closing ranges
/// are) to a finger closed on `cylinder` (and `also`) with `spread`, and measures its `contact` again
/// (`scale`: hand units to metres). Nothing changes for a zero offset.
pub(crate) fn add_curl_offset(
    finger: &ContactFinger,
    (spread, cylinder, also): (f64, Cylinder, &[Cylinder]),
    curl_offset: f64,
    scale: f64,
    angles: &mut [f64],
    contact: &mut FingerContact,
) {
    if curl_offset == 0.0 {
        return;
    }
    let total: f64 = finger.joints.iter().map(|j| j.close_limit).sum();
    for (a, j) in angles.iter_mut().zip(&finger.joints) {
        *a += curl_offset * j.close_limit / total.max(1e-9);
    }
    let job = FingerContactJob {
        also,
        ..finger_job(finger, spread, cylinder)
    };
    let (gap, _) = job.gap_at(angles);
    contact.gap = gap * scale;
    contact.state = job.state_for(gap);
    contact.touches = contact.state == ContactState::Touching;
}
