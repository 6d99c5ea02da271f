//! Contact grips (issue 33): which finger goes where on each grip ([`GripStyle`], data), and
//! what a solved grip holds ([`GripContact`]: the palm's placement, the fingers' bends, the
//! palm skin the arm carries) and reports ([`HandContact`]). The solve and its cache are in
//! `grip_solve.rs`.

use super::calibration::{GripKind, HandCalibration};
use super::gear::Gear;
use super::hand_shape::ContactFinger;
use crate::ik::grip_contact::ContactState;
use crate::rig::Finger;
use glam::{DQuat, DVec3, DVec4};

/// What one finger does on a grip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FingerRole {
    /// Closes round the handle until it touches.
    Wrap,
    /// Closes on the reel's knob (a cylinder along the grip's palm → axis direction, placed
    /// against the [`FingerRole::Support`] finger's side): the thumb of the knob's pinch.
    Pinch,
    /// Keeps its calibrated curl, and the reel's knob rests against the side of its middle
    /// segment (see `knob_pinch`): the index of the knob's pinch. Its gap to the knob is
    /// reported.
    Support,
    /// Curls by the calibrated amount, touching nothing.
    Free,
    /// Lies along the handle toward the hand's index side (the thumb on top of a spinning
    /// rod's handle, pointing to the tip; see `grip_along`): closes as [`FingerRole::Wrap`]
    /// while the palm finds its place, then turns at its base until it points along the
    /// handle as far as it can while its pad touches.
    Along,
}

/// Which finger goes where on one grip, and what the palm straddles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GripStyle {
    /// Per finger, thumb first ([`Finger::ALL`] order).
    pub roles: [FingerRole; 5],
    /// The reel's stem sits between these two fingers (spinning rods' front grip).
    pub stem_between: Option<(Finger, Finger)>,
    /// The whole hand sits behind the reel's post (a baitcaster's trigger: the rod's
    /// [`super::RodGear::stem`]), toward the butt, its nearest finger against the post's back,
    /// as a trigger hooks over the index finger (casting rods' front grip).
    pub behind_post: bool,
}

impl GripStyle {
    /// A power grip: every finger and the thumb round the handle.
    pub const POWER: Self = Self {
        roles: [FingerRole::Wrap; 5],
        stem_between: None,
        behind_post: false,
    };

    /// The reel knob's pinch: the thumb closes on the knob, which rests against the index's
    /// side; the others curl freely.
    pub const KNOB_PINCH: Self = Self {
        roles: [
            FingerRole::Pinch,
            FingerRole::Support,
            FingerRole::Free,
            FingerRole::Free,
            FingerRole::Free,
        ],
        stem_between: None,
        behind_post: false,
    };

    /// The finger of `role`, the first one ([`Finger::ALL`] order).
    pub fn finger_with(&self, role: FingerRole) -> Option<Finger> {
        Finger::ALL
            .iter()
            .zip(&self.roles)
            .find(|(_, r)| **r == role)
            .map(|(f, _)| *f)
    }

    /// The style anglers use on `kind` of `gear`, with `hand`'s choices: on a spinning rod's
    /// reel seat the stem between the middle and ring fingers (or the index and middle,
    /// [`HandCalibration::stem_index_middle`]) and the thumb along the top of the handle
    /// ([`FingerRole::Along`]; wrapped round it with [`HandCalibration::thumb_wraps`]); on a
    /// casting rod's (a reel on top) a power grip behind the trigger, the index against it; on
    /// the reel's knob a pinch ([`GripStyle::KNOB_PINCH`]); power grips on the rear grip and
    /// the net.
    pub fn for_grip(kind: GripKind, gear: &Gear, hand: &HandCalibration) -> Self {
        match kind {
            GripKind::RodFront if gear.rod.reel_above => Self {
                behind_post: true,
                ..Self::POWER
            },
            GripKind::RodFront if !gear.rod.reel_above => Self {
                roles: [
                    if hand.thumb_wraps {
                        FingerRole::Wrap
                    } else {
                        FingerRole::Along
                    },
                    FingerRole::Wrap,
                    FingerRole::Wrap,
                    FingerRole::Wrap,
                    FingerRole::Wrap,
                ],
                stem_between: Some(if hand.stem_index_middle {
                    (Finger::Index, Finger::Middle)
                } else {
                    (Finger::Middle, Finger::Ring)
                }),
                ..Self::POWER
            },
            // The reel's knob pinched between the thumb's pad and the index's side; the other
            // fingers keep their calibrated curl, out of the way.
            GripKind::ReelHandle => Self::KNOB_PINCH,
            _ => Self::POWER,
        }
    }

    /// This style as a hand with `fingers` can take it: a hand without both fingers that
    /// straddle the reel's stem (a mitten) cannot pass the stem between them, so it rests
    /// behind the stem and the reel's body instead ([`GripStyle::behind_post`]: its nearest
    /// part against their backs, toward the butt), as a fist would hold the handle behind a
    /// spinning reel. Any other style is kept.
    pub fn for_hand(self, fingers: &[ContactFinger]) -> Self {
        let has = |f: Finger| fingers.iter().any(|c| c.finger == Some(f));
        match self.stem_between {
            Some((a, b)) if !(has(a) && has(b)) => Self {
                stem_between: None,
                behind_post: true,
                ..self
            },
            _ => self,
        }
    }

    /// Whether a hand on this grip of `rod` finds its own place along the handle, so that
    /// calibration has no place to search: straddling the reel's stem (`stem_between`), or
    /// resting behind what stands on the handle (`behind_post`) when the rod has a trigger
    /// (`RodGear::stem`) or a reel body (`RodGear::reel_body`) to rest behind, as the grip
    /// solve moves it (see `grip_stem::behind_post`).
    pub fn places_itself(&self, rod: &super::RodGear) -> bool {
        self.stem_between.is_some()
            || (self.behind_post && (rod.stem.is_some() || rod.reel_body.is_some()))
    }

    /// Whether `finger` is one of the two either side of the reel's stem.
    pub fn straddles(&self, finger: Finger) -> bool {
        self.stem_between
            .is_some_and(|(a, b)| a == finger || b == finger)
    }

    /// The straddling finger whose turn away from the stem `finger` shares: the fingers
    /// beyond either straddler (away from the stem, the thumb apart) turn with it.
    pub fn turns_with(&self, finger: Finger) -> Option<Finger> {
        let (a, b) = self.stem_between?;
        let (a, b) = if finger_index(a) <= finger_index(b) {
            (a, b)
        } else {
            (b, a)
        };
        let k = finger_index(finger);
        if finger == Finger::Thumb {
            None
        } else if k < finger_index(a) {
            Some(a)
        } else if k > finger_index(b) {
            Some(b)
        } else {
            None
        }
    }

    /// Whether a finger lies along the handle on this grip ([`FingerRole::Along`]).
    pub fn lays_along(&self) -> bool {
        self.roles.contains(&FingerRole::Along)
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
    /// Where the solve placed the palm on the handle: added to the palm frame's grip point
    /// (hand space, hand units), which then lies on the handle's axis. Zero without the
    /// contact solve.
    pub palm_shift_in_hand: DVec3,
    /// How far the hand sits toward the butt from its grip to rest behind the reel's post
    /// (a baitcaster's trigger, or a spinning reel's stem and body for a mitten; see
    /// [`GripStyle::behind_post`]), metres, less as far as an arm that could not reach so far
    /// came back toward the post; 0 elsewhere.
    pub post_shift: f64,
    /// How far an arm that could not reach so far behind the post brought the hand back
    /// toward it (so it may meet the post), metres; 0 when it rests all the way behind.
    pub post_back: f64,
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
    /// The palm skin the arm carries, for the pose update's correction.
    pub palm_arm: PalmArm,
    /// The place along the palm the grip chose (hand space, before the palm's placement);
    /// its corrected grips keep it.
    pub place_start: DVec3,
    /// On a grip that straddles the reel's stem: the least clearance of the two straddling
    /// fingers' capsules from the stem, metres (negative: into it).
    pub stem_clearance: Option<f64>,
    /// How far the straddling fingers turned away from the stem, radians, summed.
    pub stem_turn: f64,
    /// On a grip behind the reel's post (a baitcaster's trigger): how far the hand moved
    /// along the handle toward the butt to rest behind it, metres.
    pub post_shift: f64,
}

/// A palm point partly carried by bones outside the hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingPoint {
    /// The hand's and fingers' part of its skinning, in the grip frame relative to the
    /// uncorrected axis (`grip_from_hand · (own − origin)`).
    pub own_in_grip: DVec3,
    /// Where its shares of the other bones start in [`PalmArm::terms`].
    pub first: u32,
    /// How many shares it has there.
    pub count: u32,
}

/// One bone's share of a [`MovingPoint`]: the index into [`PalmArm::bones`] and the point in
/// that bone's space at the base pose times the weight, with the weight as its `w`
/// (`(w·p, w)`, so the bone's frame applies to it as one row product per axis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmTerm {
    /// Index into [`PalmArm::bones`].
    pub slot: u32,
    /// `(w·p, w)`: the point in the bone's space at the base pose times the weight, and the
    /// weight.
    pub weighted_in_bone: DVec4,
}

/// Most bones besides the hand that carry palm skin whose frames [`PalmArm::correction`]
/// keeps on the stack (more go to the heap).
const STACK_BONES: usize = 8;

/// The palm's correction for the arm: the wrist bends the forearm's share of the palm skin
/// with it, which the cached grip could not know. Hand units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PalmArm {
    /// The handle axis point of the uncorrected grip, hand space.
    pub origin: DVec3,
    /// Hand space → grip frame rotation.
    pub grip_from_hand: DQuat,
    /// The handle's (or knob's) radius, hand units.
    pub radius: f64,
    /// A knob's half length, hand units: its end rests on the palm (see
    /// `knob_pinch::knob_end_on_palm`); infinite for a handle. (The default, 0, has no
    /// points to correct.)
    pub half_length: f64,
    /// `palm_clearance` of the points the hand and fingers carry alone.
    pub fixed_clearance: f64,
    /// The points other bones carry too (only those that can reach the handle).
    pub moving: Vec<MovingPoint>,
    /// Their shares of the other bones, point after point (one flat list: the pose update
    /// reads them in order).
    pub terms: Vec<ArmTerm>,
    /// The other bones that carry them.
    pub bones: Vec<usize>,
}

impl PalmArm {
    /// How far the palm must move along the grip's palm → axis direction (hand units;
    /// negative: toward the handle) so that its skin, with the arm's bones as `pose` has
    /// them, just touches the handle (a knob: its end). Precondition: the hand's and those bones' world
    /// transforms in `pose` are current.
    pub fn correction(&self, pose: &crate::rig::Pose, hand: usize) -> f64 {
        if self.moving.is_empty() {
            return 0.0;
        }
        // Each carrying bone's frame in the grip frame's axes (hand space turned by the grip),
        // as rows `(row of the matrix, translation)` per axis: one row product an axis, term.
        let grip_from_world =
            glam::DAffine3::from_quat(self.grip_from_hand) * pose.world_from_bone(hand).inverse();
        let rows_of = |b: usize| {
            let m = grip_from_world * *pose.world_from_bone(b);
            let row = |i: usize| {
                DVec4::new(
                    m.matrix3.x_axis[i],
                    m.matrix3.y_axis[i],
                    m.matrix3.z_axis[i],
                    m.translation[i],
                )
            };
            [row(0), row(1), row(2)]
        };
        let mut stack = [[DVec4::ZERO; 3]; STACK_BONES];
        let heap: Vec<[DVec4; 3]>;
        let rows: &[[DVec4; 3]] = if self.bones.len() <= STACK_BONES {
            for (slot, &b) in stack.iter_mut().zip(&self.bones) {
                *slot = rows_of(b);
            }
            &stack[..self.bones.len()]
        } else {
            heap = self.bones.iter().map(|&b| rows_of(b)).collect();
            &heap
        };
        let r2 = self.radius * self.radius;
        let mut lambda = self.fixed_clearance;
        let knob = self.half_length.is_finite();
        for m in &self.moving {
            let mut q = m.own_in_grip;
            let terms = &self.terms[m.first as usize..(m.first + m.count) as usize];
            for t in terms {
                // w · (L p + t) = L (w p) + w t, row by row.
                let r = &rows[t.slot as usize];
                q.x += r[0].dot(t.weighted_in_bone);
                q.z += r[2].dot(t.weighted_in_bone);
                if knob {
                    q.y += r[1].dot(t.weighted_in_bone);
                }
            }
            if !knob {
                if q.x * q.x < r2 {
                    lambda = lambda.max(q.z + (r2 - q.x * q.x).sqrt());
                }
            } else if q.x * q.x + q.y * q.y < r2 {
                lambda = lambda.max(q.z + self.half_length);
            }
        }
        if lambda.is_finite() { lambda } else { 0.0 }
    }
}

impl GripContact {
    /// How far a hand whose hold blends from `from` to `to` by `w` (0: `from`) rests behind
    /// the reel's post, metres (see [`GripContact::post_shift`]).
    pub fn blended_post_shift(from: &Self, to: &Self, w: f64) -> f64 {
        from.post_shift + (to.post_shift - from.post_shift) * w
    }

    /// The report of this contact (per finger, thumb first).
    pub fn report(&self, fingers: &[ContactFinger]) -> HandContact {
        let mut out = HandContact {
            fingers: [None; 5],
            solved: true,
            palm_shift_in_hand: self.palm_shift_in_hand,
            post_shift: self.post_shift,
            post_back: 0.0,
        };
        for (f, c) in fingers.iter().zip(&self.contacts) {
            if let Some(finger) = f.finger {
                out.fingers[finger_index(finger)] = *c;
            }
        }
        out
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
