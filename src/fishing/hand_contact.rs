//! Contact grips (issue 33): which finger goes where on each grip ([`GripStyle`], data), and
//! per hand the palm placement and finger bends that put the skin on the held surface, kept
//! between pose updates ([`ContactCache`]): they depend only on the hand's calibration, the
//! grip and the handle, never on the arm, because the palm solve holds the grip frame fixed
//! in the hand.

use super::calibration::{FingerTuning, GripKind, HandCalibration};
use super::gear::Gear;
use super::hand_shape::{ContactFinger, HandShape};
use crate::ik::grip_contact::{ContactState, Cylinder, FingerContactJob, palm_clearance};
use crate::rig::{Finger, Transform};
use glam::{DAffine3, DQuat, DVec3};

/// Radius of a reel's handle knob, metres (the bundled reel's).
pub const KNOB_RADIUS: f64 = 0.0065;

/// What one finger does on a grip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FingerRole {
    /// Closes round the handle until it touches.
    Wrap,
    /// Closes on the reel's knob (thumb and index in a pinch).
    Pinch,
    /// Curls by the calibrated amount, touching nothing.
    Free,
}

/// Which finger goes where on one grip, and what the palm straddles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GripStyle {
    /// Per finger, thumb first ([`Finger::ALL`] order).
    pub roles: [FingerRole; 5],
    /// The reel's stem sits between these two fingers (spinning rods' front grip).
    pub stem_between: Option<(Finger, Finger)>,
}

impl GripStyle {
    /// A power grip: every finger and the thumb round the handle.
    pub const POWER: Self = Self {
        roles: [FingerRole::Wrap; 5],
        stem_between: None,
    };

    /// The style anglers use on `kind` of `gear`: on a spinning rod's reel seat the stem
    /// between the middle and ring fingers (or `index_and_middle`), the thumb along the top
    /// of the handle; on the reel's knob the index closes on it (the thumb keeps its
    /// calibrated curl); power grips on the rear grip and the net.
    pub fn for_grip(kind: GripKind, gear: &Gear, index_and_middle: bool) -> Self {
        match kind {
            GripKind::RodFront if !gear.rod.reel_above => Self {
                stem_between: Some(if index_and_middle {
                    (Finger::Index, Finger::Middle)
                } else {
                    (Finger::Middle, Finger::Ring)
                }),
                ..Self::POWER
            },
            // The thumb stays on its calibrated curl: closed on the knob it folds over the
            // index far enough to stretch the angler's skin past 2× (tests/angler_skin.rs).
            GripKind::ReelHandle => Self {
                roles: [
                    FingerRole::Free,
                    FingerRole::Pinch,
                    FingerRole::Free,
                    FingerRole::Free,
                    FingerRole::Free,
                ],
                stem_between: None,
            },
            _ => Self::POWER,
        }
    }

    /// The role of `finger`.
    pub fn role(&self, finger: Finger) -> FingerRole {
        self.roles[finger_index(finger)]
    }
}

/// Thumb 0 … little 4.
pub fn finger_index(finger: Finger) -> usize {
    Finger::ALL.iter().position(|f| *f == finger).unwrap_or(0)
}

/// The handle radius under `kind`, metres.
pub fn grip_radius(kind: GripKind, gear: &Gear) -> f64 {
    match kind {
        GripKind::RodRear => gear.rod.rear_grip_radius,
        GripKind::RodFront => gear.rod.reel_seat_radius,
        GripKind::ReelHandle => KNOB_RADIUS,
        GripKind::NetHandle => gear.net.grip_radius,
    }
}

/// One finger's contact on a grip, as reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct FingerContact {
    /// Gap between the finger's skin and the held surface, metres (negative: inside).
    pub gap: f64,
    /// Touching, a gap or inside.
    pub state: ContactState,
    /// True when the finger touches.
    pub touches: bool,
}

/// Both hands' contact reports live in [`super::ArmReport::contact`]: per finger (thumb
/// first), `None` for a finger the character lacks or one that curls freely on this grip.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct HandContact {
    /// Per finger, thumb first.
    pub fingers: [Option<FingerContact>; 5],
    /// True when the contact solve ran (off: the parametric curl).
    pub solved: bool,
}

/// The solved contact of one hand on one grip.
#[derive(Clone, Debug, PartialEq)]
pub struct GripContact {
    /// Added to the palm frame's origin (hand space, hand units): the palm on the handle's
    /// surface and the stem between the fingers.
    pub palm_shift_in_hand: DVec3,
    /// Per finger (in [`super::ArmRig::fingers`] order), per joint: the bend, radians.
    pub angles: Vec<Vec<f64>>,
    /// Per finger: the spread turn before the bend, radians.
    pub spreads: Vec<f64>,
    /// Per finger: the contact, when it was solved against a surface.
    pub contacts: Vec<Option<FingerContact>>,
    /// Per finger, per joint: the bend as a rotation (the first joint's with its spread),
    /// composed after the joint's base rotation.
    pub bends: Vec<Vec<DQuat>>,
}

impl GripContact {
    /// The report of this contact (per finger, thumb first).
    pub fn report(&self, fingers: &[ContactFinger]) -> HandContact {
        let mut out = HandContact {
            fingers: [None; 5],
            solved: true,
        };
        for (f, c) in fingers.iter().zip(&self.contacts) {
            if let Some(finger) = f.finger {
                out.fingers[finger_index(finger)] = *c;
            }
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Key {
    kind: GripKind,
    hand_from_grip: Transform,
    radius: f64,
    style: GripStyle,
    hand: HandCalibration,
}

/// The last contact per grip kind of one hand: a pose update reuses it while its inputs are
/// the same (exact comparison), so closing the fingers costs nothing while nothing changes.
#[derive(Clone, Debug, Default)]
pub struct ContactCache {
    entries: Vec<(Key, GripContact)>,
}

/// What [`ContactCache::contact`] needs of the hand.
#[derive(Clone, Copy, Debug)]
pub struct HandContactInputs<'a> {
    /// The hand's fingers for the contact solve.
    pub fingers: &'a [ContactFinger],
    /// The hand's shape (its palm points).
    pub shape: &'a HandShape,
    /// The finger curl bends (parametric, for free fingers): per finger the joints' axis
    /// angles at full curl, in [`super::ArmRig::fingers`] order.
    pub full_curls: &'a [Vec<f64>],
    /// World scale of the hand bone.
    pub hand_scale: f64,
}

impl ContactCache {
    /// The contact of the hand on `kind` with the palm frame `hand_from_grip` (hand space,
    /// calibration applied), from the cache or solved now.
    pub fn contact(
        &mut self,
        inputs: &HandContactInputs<'_>,
        kind: GripKind,
        gear: &Gear,
        hand_from_grip: &Transform,
        hand: &HandCalibration,
    ) -> &GripContact {
        let key = Key {
            kind,
            hand_from_grip: *hand_from_grip,
            radius: grip_radius(kind, gear),
            style: GripStyle::for_grip(kind, gear, hand.stem_index_middle),
            hand: *hand,
        };
        let i = self.index(inputs, key);
        &self.entries[i].1
    }

    /// The contacts on both grips of a hold (`from`, `to`), as [`ContactCache::contact`].
    pub fn pair(
        &mut self,
        inputs: &HandContactInputs<'_>,
        kinds: (GripKind, GripKind),
        gear: &Gear,
        hand_from_grip: &Transform,
        hand: &HandCalibration,
    ) -> (&GripContact, &GripContact) {
        if self.entries.len() + 2 > CACHE_SIZE {
            self.entries.clear();
        }
        let key = |kind| Key {
            kind,
            hand_from_grip: *hand_from_grip,
            radius: grip_radius(kind, gear),
            style: GripStyle::for_grip(kind, gear, hand.stem_index_middle),
            hand: *hand,
        };
        let i = self.index(inputs, key(kinds.0));
        let j = self.index(inputs, key(kinds.1));
        (&self.entries[i].1, &self.entries[j].1)
    }

    fn index(&mut self, inputs: &HandContactInputs<'_>, key: Key) -> usize {
        if let Some(i) = self.entries.iter().position(|(k, _)| *k == key) {
            return i;
        }
        if self.entries.len() >= CACHE_SIZE {
            self.entries.remove(0);
        }
        let contact = solve_grip(inputs, &key);
        self.entries.push((key, contact));
        self.entries.len() - 1
    }
}

/// Grip contacts kept per hand: every grip kind twice (two calibrations side by side).
const CACHE_SIZE: usize = 8;

fn solve_grip(inputs: &HandContactInputs<'_>, key: &Key) -> GripContact {
    let scale = inputs.hand_scale.max(1e-12);
    let radius = key.radius / scale;
    let rot = key.hand_from_grip.rotation;
    let t = key.hand_from_grip.translation;
    let (gy, gz) = (rot * DVec3::Y, rot * DVec3::Z);
    let mut shift = DVec3::ZERO;
    if key.kind != GripKind::ReelHandle {
        let inv = rot.inverse();
        let palm: Vec<DVec3> = inputs
            .shape
            .palm_in_hand
            .iter()
            .map(|p| inv * (*p - t))
            .collect();
        if let Some(l) = palm_clearance(&palm, radius) {
            shift += gz * l;
        }
    }
    if let Some((a, b)) = key.style.stem_between {
        let along = |f: Finger| {
            inputs
                .fingers
                .iter()
                .find(|c| c.finger == Some(f))
                .map(|c| (c.base_in_hand - t).dot(gy))
        };
        if let (Some(ya), Some(yb)) = (along(a), along(b)) {
            shift += gy * (0.5 * (ya + yb));
        }
    }
    let mut out = solve_fingers(inputs, key, t + shift, radius, gy, gz);
    // The palm's creases bend with the fingers: skin them with the fingers' frames, and where
    // they would sink into the handle move the palm out and close the fingers again.
    if key.kind != GripKind::ReelHandle && !inputs.shape.palm_blended.is_empty() {
        let frames: Vec<Vec<DAffine3>> = inputs
            .fingers
            .iter()
            .enumerate()
            .map(|(i, f)| {
                finger_job(
                    f,
                    out.spreads[i],
                    Cylinder {
                        point: t,
                        axis: gy,
                        radius,
                    },
                )
                .frames(&out.angles[i])
            })
            .collect();
        let inv = rot.inverse();
        let origin = t + shift;
        let creases: Vec<DVec3> = inputs
            .shape
            .palm_blended
            .iter()
            .map(|b| {
                let mut p = b.palm.1 * b.palm.0;
                for &(f, k, w, in_joint) in &b.segments {
                    p += frames[f][k].transform_point3(in_joint) * w;
                }
                inv * (p - origin)
            })
            .collect();
        if let Some(l) = palm_clearance(&creases, radius).filter(|l| *l > 0.0) {
            shift += gz * l;
            out = solve_fingers(inputs, key, t + shift, radius, gy, gz);
        }
    }
    // A finger whose base is inside the handle even open (the palm's side bulk carried by
    // the finger's first bone) moves the palm out by its depth, a few times at most.
    for _ in 0..3 {
        let deficit = out
            .contacts
            .iter()
            .flatten()
            .filter(|c| c.state == ContactState::Inside)
            .map(|c| -c.gap / scale)
            .fold(0.0, f64::max);
        if deficit <= 0.0 || key.kind == GripKind::ReelHandle {
            break;
        }
        shift += gz * deficit;
        out = solve_fingers(inputs, key, t + shift, radius, gy, gz);
    }
    out.palm_shift_in_hand = shift;
    for (finger, (angles, spread)) in inputs
        .fingers
        .iter()
        .zip(out.angles.iter().zip(&out.spreads))
    {
        let bends = finger
            .joints
            .iter()
            .zip(angles)
            .enumerate()
            .map(|(k, (j, a))| {
                let spread = (k == 0).then_some((finger.spread_axis, *spread));
                bent_local(DQuat::IDENTITY, j.axis, *a, spread)
            })
            .collect();
        out.bends.push(bends);
    }
    out
}

/// The fingers of `inputs` closed on the grip whose axis passes through `origin` (hand space).
fn solve_fingers(
    inputs: &HandContactInputs<'_>,
    key: &Key,
    origin: DVec3,
    radius: f64,
    gy: DVec3,
    gz: DVec3,
) -> GripContact {
    let scale = inputs.hand_scale.max(1e-12);
    let mut out = GripContact {
        palm_shift_in_hand: DVec3::ZERO,
        angles: Vec::with_capacity(inputs.fingers.len()),
        spreads: Vec::with_capacity(inputs.fingers.len()),
        contacts: Vec::with_capacity(inputs.fingers.len()),
        bends: Vec::with_capacity(inputs.fingers.len()),
    };
    for (i, finger) in inputs.fingers.iter().enumerate() {
        let f = finger.finger.unwrap_or(Finger::Index);
        let tuning: FingerTuning = key.hand.fingers.get(f);
        let role = key.style.role(f);
        let cylinder = match role {
            FingerRole::Wrap => Some(Cylinder {
                point: origin,
                axis: gy,
                radius,
            }),
            FingerRole::Pinch => Some(Cylinder {
                point: origin,
                axis: gz,
                radius,
            }),
            FingerRole::Free => None,
        };
        let Some(cylinder) = cylinder else {
            let amount = if f == Finger::Thumb {
                key.hand.thumb_curl
            } else {
                key.hand.finger_curl
            };
            let angles = inputs.full_curls[i]
                .iter()
                .map(|a| a * amount + tuning.curl_offset / 3.0)
                .collect();
            out.angles.push(angles);
            out.spreads.push(tuning.spread);
            out.contacts.push(None);
            continue;
        };
        let job = FingerContactJob {
            cylinder,
            ..finger_job(finger, tuning.spread, cylinder)
        };
        let Ok(report) = job.solve() else {
            out.angles.push(vec![0.0; finger.joints.len()]);
            out.spreads.push(0.0);
            out.contacts.push(None);
            continue;
        };
        let mut angles = report.angles;
        let mut contact = FingerContact {
            gap: report.gap * scale,
            state: report.state,
            touches: report.state == ContactState::Touching,
        };
        if tuning.curl_offset != 0.0 {
            let total: f64 = finger.joints.iter().map(|j| j.close_limit).sum();
            for (a, j) in angles.iter_mut().zip(&finger.joints) {
                *a += tuning.curl_offset * j.close_limit / total.max(1e-9);
            }
            let (gap, _) = job.gap_at(&angles);
            contact.gap = gap * scale;
            contact.state = job.state_for(gap);
            contact.touches = contact.state == ContactState::Touching;
        }
        out.angles.push(angles);
        out.spreads.push(tuning.spread);
        out.contacts.push(Some(contact));
    }
    out
}

fn finger_job(finger: &ContactFinger, spread: f64, cylinder: Cylinder) -> FingerContactJob<'_> {
    FingerContactJob {
        joints: &finger.joints,
        cylinder,
        spread,
        spread_axis: finger.spread_axis,
        gap_scale: finger.radius,
    }
}

/// The local rotation of joint `k` of a finger bent by `angle` (and, for the first joint,
/// spread by `spread` about `spread_axis`) on top of its base rotation.
pub fn bent_local(base: DQuat, axis: DVec3, angle: f64, spread: Option<(DVec3, f64)>) -> DQuat {
    let bend = DQuat::from_axis_angle(axis, angle);
    match spread {
        Some((s_axis, s)) if s != 0.0 => {
            (base * DQuat::from_axis_angle(s_axis, s) * bend).normalize()
        }
        _ => (base * bend).normalize(),
    }
}
