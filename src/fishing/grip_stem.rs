//! The reel's stem in the grip solve (issue 33): where the stem is in hand space, the two
//! fingers either side of it spread round it ([`super::stem_straddle`]) with the fingers
//! beyond each turning with it, and where along the handle the stem sits between them; and on
//! a baitcaster, how far back along the handle the hand rests behind the trigger and the
//! reel's body ([`behind_post`]). Used by `grip_solve` on a grip whose
//! [`super::hand_contact::GripStyle`] straddles a stem or rests behind one.

use super::grip_memo::{HandContactInputs, Key};
use super::hand_contact::{FingerRole, finger_index};
use super::stem_straddle::{StraddleJob, stem_balance};
use crate::ik::grip_contact::{Capsule, Cylinder, FingerContactReport, segment_distance};
use crate::rig::Finger;
use glam::DVec3;

/// The key's stem in hand space with the handle's axis through `origin` (the stem moves
/// with the handle), in hand units (`scale`: the hand bone's world scale).
pub(crate) fn stem_in_hand(key: &Key, origin: DVec3, scale: f64) -> Option<Capsule> {
    Some(in_hand(key, key.stem_in_grip?, origin, scale))
}

/// A capsule of the key's grip frame (metres) in hand space with the handle's axis through
/// `origin`, in hand units.
pub(crate) fn in_hand(key: &Key, c: Capsule, origin: DVec3, scale: f64) -> Capsule {
    let rot = key.hand_from_grip.rotation;
    let at = |p: DVec3| origin + rot * (p / scale);
    Capsule {
        start: at(c.start),
        end: at(c.end),
        radius: c.radius / scale,
    }
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

/// How far the post and the reel of a grip whose style sits behind them (a baitcaster's
/// trigger and body) move toward the rod's tip (along `axis`, hand space: the handle's axis,
/// toward the tip) from where the key puts them, in hand units, for the hand closed as its
/// fingers' joint `frames` and `palm` points (hand space) say, with the handle's axis through
/// `origin`, to clear them: the least move at which every
/// finger's capsules (the thumb's too) and every palm point keep [`POST_MARGIN`] finger radii
/// from both surfaces (a mitten's palm points [`MITTEN_POST_MARGIN`] palm lengths), so the
/// part of the hand nearest them rests against their backs. 0 on
/// a grip without either, or a hand already clear of them (an artist's offset that puts the
/// hand ahead keeps it there); at most [`MAX_POST_SHIFT`] palm lengths. The key's style is
/// one that rests behind its post (`grip_solve` asks only then).
///
/// The fingers close on the handle as a whole, so moving the hand along the handle's axis
/// leaves every finger's contact as it is: only where the hand sits along the handle changes.
pub(crate) fn behind_post(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    (frames, palm): (&[Vec<glam::DAffine3>], &[DVec3]),
    origin: DVec3,
    axis: DVec3,
) -> f64 {
    let scale = inputs.hand_scale.max(1e-12);
    let parts: Vec<Capsule> = [key.stem_in_grip, key.reel_in_grip]
        .into_iter()
        .flatten()
        .map(|c| in_hand(key, c, origin, scale))
        .collect();
    if parts.is_empty() {
        return 0.0;
    }
    let thinnest = inputs.fingers.iter().map(|f| f.radius).reduce(f64::min);
    let margin = thinnest.map_or(MITTEN_POST_MARGIN * inputs.palm_length, |r| POST_MARGIN * r);
    // The hand's capsules and palm points, hand space, as closed.
    let mut capsules: Vec<(DVec3, DVec3, f64)> = Vec::new();
    for (finger, frames) in inputs.fingers.iter().zip(frames) {
        for (joint, frame) in finger.joints.iter().zip(frames) {
            let k = frame.matrix3.x_axis.length();
            for c in joint.capsules.iter().filter(|c| c.radius >= 0.0) {
                capsules.push((
                    frame.transform_point3(c.start),
                    frame.transform_point3(c.end),
                    c.radius * k,
                ));
            }
        }
    }
    let clearance = |d: f64| {
        parts
            .iter()
            .map(|part| {
                let (a, b) = (part.start + axis * d, part.end + axis * d);
                let fingers = capsules
                    .iter()
                    .map(|(p, q, r)| segment_distance(*p, *q, a, b) - r)
                    .fold(f64::INFINITY, f64::min);
                let palm = palm
                    .iter()
                    .map(|p| segment_distance(*p, *p, a, b))
                    .fold(f64::INFINITY, f64::min);
                fingers.min(palm) - part.radius
            })
            .fold(f64::INFINITY, f64::min)
            - margin
    };
    if clearance(0.0) >= 0.0 {
        return 0.0;
    }
    // Scan toward the tip until clear, then bisect the last step.
    let step = POST_SCAN_STEP * inputs.palm_length;
    let max = MAX_POST_SHIFT * inputs.palm_length;
    let (mut lo, mut hi) = (0.0, None);
    let mut d = step;
    while d <= max + 1e-12 {
        if clearance(d) >= 0.0 {
            hi = Some(d);
            break;
        }
        lo = d;
        d += step;
    }
    let Some(mut hi) = hi else {
        return max;
    };
    while hi - lo > POST_TOLERANCE * inputs.palm_length {
        let mid = 0.5 * (lo + hi);
        if clearance(mid) >= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// How far from the post's surface the hand behind it keeps, in finger radii (its thinnest
/// finger's): touching, not in.
pub const POST_MARGIN: f64 = 0.2;
/// The same for a hand without fingers (a mitten), in palm lengths (wrist to middle knuckle:
/// 4-6 mm on the shared mittens). A mitten's palm points are most of its skin, and the skin
/// near the wrist is carried partly by the forearm: as the arm poses it, it lies a few
/// millimetres from where the hand bone alone puts it (RiggedFigure's palm went 2.3 mm into a
/// baitcaster's trigger with a margin of 1.7 mm).
pub const MITTEN_POST_MARGIN: f64 = 0.05;
/// The most the hand moves behind the post, palm lengths.
pub const MAX_POST_SHIFT: f64 = 2.0;
/// The scan's step and the bisection's tolerance, palm lengths.
const POST_SCAN_STEP: f64 = 0.05;
const POST_TOLERANCE: f64 = 1e-3;
