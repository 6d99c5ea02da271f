//! Per character and rod calibration: grip offsets, palm corrections, finger curl and poles.
//!
//! Posing reads the calibration and works on copies; the stored values are never changed.

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
    pub const ALL: [GripKind; 4] = [
        GripKind::RodRear,
        GripKind::RodFront,
        GripKind::ReelHandle,
        GripKind::NetHandle,
    ];
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
}

impl Default for HandCalibration {
    fn default() -> Self {
        Self {
            palm_correction: DQuat::IDENTITY,
            palm_offset_in_hand: DVec3::ZERO,
            finger_curl: 0.75,
            thumb_curl: 0.5,
        }
    }
}

/// Pole of one arm in actor-root space, with optional per-phase values. The effective pole at
/// phase time `t` blends from the phase's value toward the next phase's value, so per-phase
/// poles never make the elbow jump at a boundary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoleKeys {
    pub pole_in_actor: DVec3,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub per_phase: BTreeMap<Phase, DVec3>,
}

impl PoleKeys {
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
    pub grips: BTreeMap<GripKind, GripOffset>,
    /// Adjustment of the rod relative to the session's rod pose, in rod space (moves the
    /// rod and every rod grip with it; e.g. to fit another character's lap).
    #[serde(default)]
    pub rod_adjust: GripOffset,
    pub hands: PerSide<HandCalibration>,
    pub poles: PerSide<PoleKeys>,
}

impl GripCalibration {
    /// Offsets of `kind` (identity when not calibrated).
    pub fn grip(&self, kind: GripKind) -> GripOffset {
        self.grips.get(&kind).copied().unwrap_or_default()
    }

    /// Checks that every number is finite and curls lie in 0..=1. Returns the first problem
    /// with a path such as `hands.left.finger_curl`.
    pub fn validate(&self) -> Result<(), String> {
        let finite3 = |v: DVec3| v.is_finite();
        for (kind, g) in &self.grips {
            if !finite3(g.offset_in_object) || !g.rotation.is_finite() {
                return Err(format!("grips.{kind:?}: not finite"));
            }
            if (g.rotation.length() - 1.0).abs() > 1e-3 {
                return Err(format!("grips.{kind:?}.rotation: not a unit quaternion"));
            }
        }
        let r = &self.rod_adjust;
        if !finite3(r.offset_in_object) || !r.rotation.is_finite() {
            return Err("rod_adjust: not finite".into());
        }
        if (r.rotation.length() - 1.0).abs() > 1e-3 {
            return Err("rod_adjust.rotation: not a unit quaternion".into());
        }
        for (side, hand) in [("left", &self.hands.left), ("right", &self.hands.right)] {
            if !hand.palm_correction.is_finite()
                || (hand.palm_correction.length() - 1.0).abs() > 1e-3
            {
                return Err(format!(
                    "hands.{side}.palm_correction: not a unit quaternion"
                ));
            }
            if !finite3(hand.palm_offset_in_hand) {
                return Err(format!("hands.{side}.palm_offset_in_hand: not finite"));
            }
            for (what, v) in [
                ("finger_curl", hand.finger_curl),
                ("thumb_curl", hand.thumb_curl),
            ] {
                if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                    return Err(format!("hands.{side}.{what}: {v} is outside 0..1"));
                }
            }
        }
        for (side, pole) in [("left", &self.poles.left), ("right", &self.poles.right)] {
            if !finite3(pole.pole_in_actor) {
                return Err(format!("poles.{side}.pole_in_actor: not finite"));
            }
            for (phase, p) in &pole.per_phase {
                if !finite3(*p) {
                    return Err(format!(
                        "poles.{side}.per_phase.{}: not finite",
                        phase.name()
                    ));
                }
            }
        }
        Ok(())
    }
}
