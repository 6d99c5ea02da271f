//! Per character and rod calibration: grip offsets, palm corrections, finger curl and poles.
//!
//! Posing reads the calibration and works on copies; the stored values are never changed.

use super::rules::{self, FieldProblem, Path};
use super::{PerSide, Phase};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The places a hand can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GripKind {
    /// The butt of the rod, ~0.08 m from its end.
    RodRear,
    /// The reel seat, ~0.40 m from the butt.
    RodFront,
    /// The reel's handle knob (while reeling).
    ReelHandle,
    /// The landing net's handle.
    NetHandle,
}

impl GripKind {
    /// Every grip kind.
    pub const ALL: [GripKind; 4] = [
        GripKind::RodRear,
        GripKind::RodFront,
        GripKind::ReelHandle,
        GripKind::NetHandle,
    ];

    /// The preset key (`rod_rear`, `rod_front`, `reel_handle`, `net_handle`).
    pub fn name(self) -> &'static str {
        match self {
            GripKind::RodRear => "rod_rear",
            GripKind::RodFront => "rod_front",
            GripKind::ReelHandle => "reel_handle",
            GripKind::NetHandle => "net_handle",
        }
    }
}

/// Offset of one grip, applied in the space of the object held (rod or net) before any
/// blending: `grip = nominal · Transform(offset_in_object, rotation)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GripOffset {
    /// Translation added to the nominal grip point, in rod (or net) space, metres.
    pub offset_in_object: DVec3,
    /// Rotation of the grip frame relative to the nominal one (grip space).
    pub rotation: DQuat,
}

impl Default for GripOffset {
    fn default() -> Self {
        Self {
            offset_in_object: DVec3::ZERO,
            rotation: DQuat::IDENTITY,
        }
    }
}

/// An artist's correction of one finger's contact grip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FingerTuning {
    /// Extra closing after the finger touches, radians shared over its joints by their curl
    /// limits (negative opens it off the handle).
    pub curl_offset: f64,
    /// Turn of the finger's first joint about the palm normal before it closes, radians.
    pub spread: f64,
}

/// Per-finger tunings of one hand (all zero unless an artist set them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FingerTunings {
    /// The thumb.
    pub thumb: FingerTuning,
    /// The index finger.
    pub index: FingerTuning,
    /// The middle finger.
    pub middle: FingerTuning,
    /// The ring finger.
    pub ring: FingerTuning,
    /// The little finger.
    pub little: FingerTuning,
}

impl FingerTunings {
    /// The tuning of `finger`.
    pub fn get(&self, finger: crate::rig::Finger) -> FingerTuning {
        *self.slot(finger)
    }

    /// The tuning of `finger`, mutably.
    pub fn get_mut(&mut self, finger: crate::rig::Finger) -> &mut FingerTuning {
        use crate::rig::Finger as F;
        match finger {
            F::Thumb => &mut self.thumb,
            F::Index => &mut self.index,
            F::Middle => &mut self.middle,
            F::Ring => &mut self.ring,
            F::Little => &mut self.little,
        }
    }

    fn slot(&self, finger: crate::rig::Finger) -> &FingerTuning {
        use crate::rig::Finger as F;
        match finger {
            F::Thumb => &self.thumb,
            F::Index => &self.index,
            F::Middle => &self.middle,
            F::Ring => &self.ring,
            F::Little => &self.little,
        }
    }

    /// True when no finger is tuned (the preset leaves the key out).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// Per hand: how the palm sits on a grip and how far the fingers close.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandCalibration {
    /// Extra rotation of the grip frame as seen from the hand (hand space, post-multiplied).
    pub palm_correction: DQuat,
    /// Translation of the grip point relative to the hand's default palm frame (hand space).
    pub palm_offset_in_hand: DVec3,
    /// Finger curl while holding, 0 (open) … 1 (closed fist).
    pub finger_curl: f64,
    /// Thumb curl while holding.
    pub thumb_curl: f64,
    /// Per-finger corrections of the contact grip (curl offset, spread).
    #[serde(default, skip_serializing_if = "FingerTunings::is_default")]
    pub fingers: FingerTunings,
    /// On a spinning rod's reel seat, the stem between index and middle finger instead of
    /// middle and ring.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stem_index_middle: bool,
    /// On a spinning rod's reel seat, the thumb wraps round the handle with the fingers
    /// instead of lying along its top.
    #[serde(default, skip_serializing_if = "is_false")]
    pub thumb_wraps: bool,
}

impl Default for HandCalibration {
    fn default() -> Self {
        Self {
            palm_correction: DQuat::IDENTITY,
            palm_offset_in_hand: DVec3::ZERO,
            finger_curl: 0.75,
            thumb_curl: 0.5,
            fingers: FingerTunings::default(),
            stem_index_middle: false,
            thumb_wraps: false,
        }
    }
}

/// Pole of one arm in actor-root space, with optional per-phase values. The effective pole at
/// phase time `t` blends from the phase's value toward the next phase's value, so per-phase
/// poles never make the elbow jump at a boundary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoleKeys {
    /// The pole in actor space, for phases without a key of their own.
    pub pole_in_actor: DVec3,
    /// Poles keyed at the start of phases, actor space.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_phase: BTreeMap<Phase, DVec3>,
}

impl PoleKeys {
    /// One pole for the whole session, no per-phase keys.
    pub fn constant(pole_in_actor: DVec3) -> Self {
        Self {
            pole_in_actor,
            per_phase: BTreeMap::new(),
        }
    }

    /// The pole value keyed at the start of `phase`.
    pub fn key(&self, phase: Phase) -> DVec3 {
        self.per_phase
            .get(&phase)
            .copied()
            .unwrap_or(self.pole_in_actor)
    }

    /// The pole at normalised time `t` within `phase` (smoothstep toward the next phase's key).
    pub fn at(&self, phase: Phase, t: f64) -> DVec3 {
        let start = self.key(phase);
        let Some(next) = Phase::ALL.get(phase.index() + 1) else {
            return start;
        };
        let end = self.key(*next);
        if start == end {
            return start;
        }
        let t = t.clamp(0.0, 1.0);
        start.lerp(end, t * t * (3.0 - 2.0 * t))
    }
}

/// Everything an artist tunes for one character and rod.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GripCalibration {
    /// Offsets per grip; a grip not listed has none.
    pub grips: BTreeMap<GripKind, GripOffset>,
    /// Adjustment of the rod relative to the session's rod pose, in rod space (moves the
    /// rod and every rod grip with it; e.g. to fit another character's lap).
    #[serde(default)]
    pub rod_adjust: GripOffset,
    /// How each hand sits on its grips.
    pub hands: PerSide<HandCalibration>,
    /// The elbow pole of each arm.
    pub poles: PerSide<PoleKeys>,
}

impl GripCalibration {
    /// Offsets of `kind` (identity when not calibrated).
    pub fn grip(&self, kind: GripKind) -> GripOffset {
        self.grips.get(&kind).copied().unwrap_or_default()
    }

    /// Every broken rule, each with its JSON path under `prefix` (e.g.
    /// `calibration.hands.left.finger_curl`): finite numbers, positions within
    /// [`rules::MAX_DISTANCE`], unit quaternions, curls in 0..=1. The preset checker, the
    /// poser and the editor all use this one list.
    pub fn problems(&self, prefix: &str) -> Vec<FieldProblem> {
        let mut out = Vec::new();
        let root = Path::root(prefix);
        let grips = root.join("grips");
        for (kind, g) in &self.grips {
            let p = grips.join(kind.name());
            rules::position(g.offset_in_object, &p.join("offset_in_object"), &mut out);
            rules::unit_quat(g.rotation, &p.join("rotation"), &mut out);
        }
        let r = &self.rod_adjust;
        let p = root.join("rod_adjust");
        rules::position(r.offset_in_object, &p.join("offset_in_object"), &mut out);
        rules::unit_quat(r.rotation, &p.join("rotation"), &mut out);
        let hands = root.join("hands");
        for (side, hand) in [("left", &self.hands.left), ("right", &self.hands.right)] {
            let p = hands.join(side);
            rules::unit_quat(hand.palm_correction, &p.join("palm_correction"), &mut out);
            rules::position(
                hand.palm_offset_in_hand,
                &p.join("palm_offset_in_hand"),
                &mut out,
            );
            rules::number(hand.finger_curl, &p.join("finger_curl"), 0.0, 1.0, &mut out);
            rules::number(hand.thumb_curl, &p.join("thumb_curl"), 0.0, 1.0, &mut out);
            let fingers = p.join("fingers");
            for f in crate::rig::Finger::ALL {
                let t = hand.fingers.get(f);
                let q = fingers.join(f.name());
                rules::number(t.curl_offset, &q.join("curl_offset"), -1.0, 1.0, &mut out);
                rules::number(t.spread, &q.join("spread"), -0.5, 0.5, &mut out);
            }
        }
        let poles = root.join("poles");
        for (side, pole) in [("left", &self.poles.left), ("right", &self.poles.right)] {
            let p = poles.join(side);
            rules::position(pole.pole_in_actor, &p.join("pole_in_actor"), &mut out);
            let per_phase = p.join("per_phase");
            for (phase, v) in &pole.per_phase {
                rules::position(*v, &per_phase.join(phase.name()), &mut out);
            }
        }
        out
    }

    /// The first of [`GripCalibration::problems`] (paths start with `calibration.`).
    ///
    /// # Errors
    /// The first problem, as `path: message`, when a rule is broken.
    pub fn validate(&self) -> Result<(), String> {
        rules::first(self.problems("calibration"))
    }
}
