//! A finger that lies along the handle (issue 33): the thumb along the top of a spinning rod's
//! handle, pointing toward the tip ([`FingerRole::Along`]). The grip solve closes it as a
//! wrapping finger while the palm finds its place; [`lay_along`] then turns it at its base,
//! lifts it off the handle and closes it onto it again (on the handle's own stretches round
//! the reel seat, where the rod model measured them: a fore grip thinner than the seat takes
//! the thumb lower), and keeps the turn that points it most nearly along the handle while it
//! rests on its pad.

use super::grip_frames::{add_curl_offset, finger_frames, finger_job, palm_in_hand};
use super::grip_memo::{HandContactInputs, Key};
use super::hand_contact::{FingerContact, FingerRole, GripContact};
use super::hand_shape::ContactFinger;
use crate::ik::grip_contact::{ContactState, Cylinder, FingerContactJob, SEGMENT_PIECES};
use crate::rig::Finger;
use glam::{DAffine3, DVec3};

/// The most the first joint of a [`FingerRole::Along`] finger turns about the palm normal
/// from its calibrated spread, radians, either way: the thumb's swing at its base joint.
pub const ALONG_SPREAD_LIMIT: f64 = 1.2;

/// Turns tried either side of the calibrated spread, evenly to [`ALONG_SPREAD_LIMIT`].
const ALONG_STEPS: i32 = 16;

/// The least cosine between an along finger's pad (the palm side of the segment that
/// touches) and the way to the handle's axis: the finger rests on its pad, where its
/// capsules are fitted to the skin (`stage::hand_fit` measures the skin's reach toward the
/// palm side), not on its side or back.
const ALONG_PAD_FACING: f64 = 0.85;

/// The share of their closing range that a [`FingerRole::Along`] finger's joints past the
/// first may use: a thumb along the handle bends a little at its knuckles, no more.
pub const ALONG_DISTAL_CLOSE: f64 = 0.3;

/// How much deeper (in finger radii) than the wrapping finger's the palm skin that an along
/// finger carries may go into the handle: the thenar moves with the thumb's base.
const ALONG_PALM_SINK: f64 = 0.05;

/// One turn of an along finger that qualifies (see [`lay_along`]).
struct Laid {
    spread: f64,
    angles: Vec<f64>,
    /// Hand units.
    gap: f64,
}

/// Lays each [`FingerRole::Along`] finger of `key`'s style along the handle whose axis runs
/// through `origin` along `axis` (hand space, unit) with `radius` (hand units), in place of
/// its wrapping closure in `out` (angles, spread and contact) where that points it more
/// nearly along the handle.
///
/// Each turn about the palm normal (the first joint's spread axis) within
/// ±[`ALONG_SPREAD_LIMIT`] of the calibrated spread, [`ALONG_STEPS`] a side, starts with the
/// first joint opened to its limit and the later ones straight, and closes (the later joints
/// at most [`ALONG_DISTAL_CLOSE`] of their range) until it touches the handle: the key's
/// stretches round the reel seat (`Key::handle_in_grip`) where measured, else the handle of
/// `radius`. A turn qualifies when it ends touching with a segment past the first, on that
/// segment's pad (a capsule along its middle, the pad facing the axis within
/// [`ALONG_PAD_FACING`]), and sinks the palm skin the finger carries no deeper than the
/// wrapping closure did (within [`ALONG_PALM_SINK`]). Of those and the wrapping closure (when
/// it touches), the one whose last segments (second joint → tip) point most nearly along the
/// axis toward the hand's index side wins: where the index's knuckle lies from the little
/// finger's (without both, the way the finger already points). Deterministic; a calibrated
/// curl offset is added as for a wrapping finger.
pub(crate) fn lay_along(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    out: &mut GripContact,
    origin: DVec3,
    axis: DVec3,
    radius: f64,
) {
    let scale = inputs.hand_scale.max(1e-12);
    let handle = Cylinder::handle(origin, axis, radius);
    let sections = handle_sections(key, origin, scale);
    let (surface, also) = match sections.split_first() {
        Some((first, rest)) => (*first, rest),
        None => (handle, &[][..]),
    };
    for (i, finger) in inputs.fingers.iter().enumerate() {
        let f = finger.finger.unwrap_or(Finger::Index);
        if key.style.role(f) != FingerRole::Along || finger.joints.len() < 2 {
            continue;
        }
        let tuning = key.hand.fingers.get(f);
        let frames = finger_frames(inputs, out, origin, axis, radius);
        let toward = index_side(inputs.fingers, finger, &frames[i], axis);
        let sink_now = palm_sink(inputs, i, &frames, handle).max(0.0);
        let wrapped = out.contacts[i].is_some_and(|c| c.state == ContactState::Touching);
        let mut best_alignment = if wrapped {
            alignment(finger, &frames[i], toward)
        } else {
            f64::NEG_INFINITY
        };
        let mut best = None;
        let lifted = lifted(finger);
        let from = [lifted.joints[0].open_limit];
        for k in -ALONG_STEPS..=ALONG_STEPS {
            let spread = tuning.spread + ALONG_SPREAD_LIMIT * f64::from(k) / f64::from(ALONG_STEPS);
            let job = FingerContactJob {
                also,
                ..finger_job(&lifted, spread, surface)
            };
            let Ok(report) = job.solve_from(&from) else {
                continue;
            };
            let seg = report.nearest_segment;
            if report.state != ContactState::Touching || seg == 0 {
                continue;
            }
            let joint_frames = job.frames(&report.angles);
            let on_pad = job.nearest_capsule(&report.angles).2 < SEGMENT_PIECES
                && pad_facing(finger, &joint_frames, seg, handle) >= ALONG_PAD_FACING;
            let a = alignment(finger, &joint_frames, toward);
            if !on_pad || a <= best_alignment {
                continue;
            }
            let mut trial = frames.clone();
            trial[i] = joint_frames;
            if palm_sink(inputs, i, &trial, handle) > sink_now + ALONG_PALM_SINK * finger.radius {
                continue;
            }
            best_alignment = a;
            best = Some(Laid {
                spread,
                angles: report.angles,
                gap: report.gap,
            });
        }
        let Some(Laid {
            spread,
            mut angles,
            gap,
        }) = best
        else {
            continue;
        };
        let mut contact = FingerContact {
            gap: gap * scale,
            state: ContactState::Touching,
            touches: true,
        };
        add_curl_offset(
            finger,
            (spread, surface, also),
            tuning.curl_offset,
            scale,
            &mut angles,
            &mut contact,
        );
        out.angles[i] = angles;
        out.spreads[i] = spread;
        out.contacts[i] = Some(contact);
    }
}

/// The key's stretches of the handle round the reel seat ([`Key::handle_in_grip`]) as finite
/// cylinders in hand space with the handle's axis through `origin` (hand units); empty where
/// not measured.
fn handle_sections(key: &Key, origin: DVec3, scale: f64) -> Vec<Cylinder> {
    (key.handle_in_grip.iter().flatten())
        .filter_map(|c| {
            let c = super::grip_stem::in_hand(key, *c, origin, scale);
            let along = c.end - c.start;
            let half_length = 0.5 * along.length();
            (half_length > 1e-9).then(|| Cylinder {
                point: 0.5 * (c.start + c.end),
                axis: along / (2.0 * half_length),
                radius: c.radius,
                half_length,
                flat_ends: false,
            })
        })
        .collect()
}

/// Cosine between `finger`'s last segments (its second joint → its tip) at `frames` and
/// `toward` (unit); −∞ for a finger folded onto its second joint.
fn alignment(finger: &ContactFinger, frames: &[DAffine3], toward: DVec3) -> f64 {
    let second = frames[1.min(frames.len() - 1)].translation;
    (tip(finger, frames) - second)
        .try_normalize()
        .map_or(f64::NEG_INFINITY, |d| d.dot(toward))
}

/// `finger` as an along finger closes: its joints past the first limited to
/// [`ALONG_DISTAL_CLOSE`] of their closing range.
fn lifted(finger: &ContactFinger) -> ContactFinger {
    let mut lifted = finger.clone();
    for j in lifted.joints.iter_mut().skip(1) {
        j.close_limit *= ALONG_DISTAL_CLOSE;
    }
    lifted
}

/// The tip of `finger` (the end of its last segment's middle capsules) at its joint `frames`.
fn tip(finger: &ContactFinger, frames: &[DAffine3]) -> DVec3 {
    let (Some(last), Some(frame)) = (finger.joints.last(), frames.last()) else {
        return DVec3::ZERO;
    };
    let end = last.capsules[..SEGMENT_PIECES]
        .iter()
        .rfind(|c| c.radius >= 0.0)
        .map_or(DVec3::ZERO, |c| c.end);
    frame.transform_point3(end)
}

/// The handle's axis direction toward the hand's index side (see [`lay_along`]).
fn index_side(
    fingers: &[ContactFinger],
    finger: &ContactFinger,
    frames: &[DAffine3],
    axis: DVec3,
) -> DVec3 {
    let knuckle = |f: Finger| {
        fingers
            .iter()
            .find(|c| c.finger == Some(f))
            .map(|c| c.base_in_hand)
    };
    let side = match (knuckle(Finger::Index), knuckle(Finger::Little)) {
        (Some(index), Some(little)) => (index - little).dot(axis),
        _ => (tip(finger, frames) - finger.base_in_hand).dot(axis),
    };
    if side >= 0.0 { axis } else { -axis }
}

/// How deep (hand units; negative: clear) the palm skin that finger `i` carries goes into
/// `handle` with the fingers at `frames`.
fn palm_sink(
    inputs: &HandContactInputs<'_>,
    i: usize,
    frames: &[Vec<DAffine3>],
    handle: Cylinder,
) -> f64 {
    inputs
        .shape
        .palm
        .iter()
        .filter(|p| p.segments.iter().any(|s| s.0 == i))
        .map(|p| {
            let q = palm_in_hand(p, Some(frames)) - handle.point;
            let across = q - handle.axis * q.dot(handle.axis);
            handle.radius - across.length()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// How squarely segment `k`'s palm side (the direction it closes toward: its curl axis ×
/// its direction) faces `handle`'s axis at `frames`: the cosine between that side and the
/// way from the segment's middle to the axis (1: the pad on the handle; 0: the finger's side;
/// −1: its back).
fn pad_facing(finger: &ContactFinger, frames: &[DAffine3], k: usize, handle: Cylinder) -> f64 {
    let (Some(joint), Some(frame)) = (finger.joints.get(k), frames.get(k)) else {
        return -1.0;
    };
    let middle = &joint.capsules[..SEGMENT_PIECES];
    let (start, end) = (middle[0].start, middle[SEGMENT_PIECES - 1].end);
    let Some(palmar) = joint.axis.cross(end - start).try_normalize() else {
        return -1.0;
    };
    let at = frame.transform_point3(0.5 * (start + end));
    let q = handle.point - at;
    let to_axis = q - handle.axis * q.dot(handle.axis);
    match (
        (frame.matrix3 * palmar).try_normalize(),
        to_axis.try_normalize(),
    ) {
        (Some(p), Some(t)) => p.dot(t),
        _ => -1.0,
    }
}
