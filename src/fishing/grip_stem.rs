//! The reel's stem in the grip solve (issue 33): where the stem is in hand space, the two
//! fingers either side of it spread round it ([`super::stem_straddle`]) with the fingers
//! beyond each turning with it, and where along the handle the stem sits between them. Used
//! by `grip_solve` on a grip whose [`super::hand_contact::GripStyle`] straddles a stem.

use super::grip_memo::{HandContactInputs, Key};
use super::hand_contact::{FingerRole, finger_index};
use super::stem_straddle::{StraddleJob, stem_balance};
use crate::ik::grip_contact::{Capsule, Cylinder, FingerContactReport};
use crate::rig::Finger;
use glam::DVec3;

/// The key's stem in hand space with the handle's axis through `origin` (the stem moves
/// with the handle), in hand units (`scale`: the hand bone's world scale).
pub(crate) fn stem_in_hand(key: &Key, origin: DVec3, scale: f64) -> Option<Capsule> {
    let c = key.stem_in_grip?;
    let rot = key.hand_from_grip.rotation;
    let at = |p: DVec3| origin + rot * (p / scale);
    Some(Capsule {
        start: at(c.start),
        end: at(c.end),
        radius: c.radius / scale,
    })
}

/// How far along the handle the stem moves (from where the grip put it: midway between the
/// straddling fingers' bases) for the two to turn away from it equally, with the handle's
/// axis through `origin` (hand space; see [`stem_balance`]). `None` on a grip without a
/// stem, or a hand without either finger.
pub(crate) fn stem_balance_at(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    origin: DVec3,
    radius: f64,
) -> Option<f64> {
    let stem = stem_in_hand(key, origin, inputs.hand_scale.max(1e-12))?;
    let (a, b) = key.style.stem_between?;
    let finger = |f: Finger| {
        let c = inputs.fingers.iter().find(|c| c.finger == Some(f))?;
        Some((c, key.hand.fingers.get(f).spread))
    };
    let axis = key.hand_from_grip.rotation * DVec3::Y;
    let handle = Cylinder::handle(origin, axis, radius);
    stem_balance([finger(a)?, finger(b)?], handle, stem, axis)
}

/// The straddling fingers of one grip, solved before the others.
pub(crate) struct Straddle {
    /// Per finger (in [`HandContactInputs::fingers`] order): a straddling finger's spread
    /// and closing, `None` for the others.
    pub(crate) fingers: Vec<Option<Result<(f64, FingerContactReport), String>>>,
    /// Per finger, thumb first: how far each straddling finger turned past its own spread.
    pub(crate) turned: [f64; 5],
    /// The straddling fingers' least clearance from the stem, metres.
    pub(crate) clearance: Option<f64>,
    /// Their turns, summed, radians.
    pub(crate) turn: f64,
}

/// The two fingers either side of the key's stem, each spread away from it as far as it must
/// (see [`StraddleJob`]) and closed on `handle` (hand space); nothing on a grip without a
/// stem. A finger's side of the stem is its base's side of the other's.
pub(crate) fn straddle(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    handle: Cylinder,
    scale: f64,
) -> Straddle {
    let mut out = Straddle {
        fingers: vec![None; inputs.fingers.len()],
        turned: [0.0; 5],
        clearance: None,
        turn: 0.0,
    };
    let Some(stem) = stem_in_hand(key, handle.point, scale) else {
        return out;
    };
    let mid = 0.5 * (stem.start + stem.end);
    let straddles = |c: &super::hand_shape::ContactFinger| {
        c.finger
            .is_some_and(|f| key.style.straddles(f) && key.style.role(f) == FingerRole::Wrap)
    };
    for (i, finger) in inputs.fingers.iter().enumerate() {
        let Some(f) = finger.finger.filter(|_| straddles(finger)) else {
            continue;
        };
        let spread = key.hand.fingers.get(f).spread;
        let other = inputs
            .fingers
            .iter()
            .find(|c| c.finger != Some(f) && straddles(c))
            .map_or(mid, |c| c.base_in_hand);
        let side = (finger.base_in_hand - other).dot(handle.axis);
        let solved = StraddleJob {
            finger,
            cylinder: handle,
            spread,
            stem,
            away: if side >= 0.0 {
                handle.axis
            } else {
                -handle.axis
            },
        }
        .solve();
        if let Ok(s) = &solved {
            let c = s.clearance * scale;
            out.clearance = Some(out.clearance.map_or(c, |o| o.min(c)));
            out.turned[finger_index(f)] = s.spread - spread;
            out.turn += (s.spread - spread).abs();
        }
        out.fingers[i] = Some(solved.map(|s| (s.spread, s.report)));
    }
    out
}
