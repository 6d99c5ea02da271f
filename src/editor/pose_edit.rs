//! [`PoseEdit::apply`]: every undoable edit of the pose inputs as a plain function of
//! [`PoseInputs`] (no stage, no window). Solver settings are checked by
//! [`SolverSettings::problems`](crate::fishing::SolverSettings::problems) — the rules the preset
//! checker and the poser use — so an invalid value is refused before it reaches the document;
//! the rest is checked when the stage re-poses.

use crate::fishing::{
    ArmSolverKind, CcdLinkLimits, CcdLinkRole, GripKind, Handedness, LineParams, PoseInputs,
    RodAction, SIDES, WaterParams, head_look::LookSettings,
};
use crate::rig::{Finger, Side};
use glam::{DQuat, DVec3, EulerRot};
use serde::{Deserialize, Serialize};

/// An undoable edit of the pose inputs (calibration, solver settings, session parameters):
/// a plain function of [`PoseInputs`] ([`PoseEdit::apply`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum PoseEdit {
    /// Global switch for every angle limit.
    SetLimitsEnabled {
        on: bool,
    },
    /// An elbow's two-bone hinge limit (degrees) and its own on/off switch; `side: null` (or
    /// absent) sets both arms.
    SetElbowLimit {
        #[serde(default)]
        side: Option<Side>,
        min_deg: f64,
        max_deg: f64,
        enabled: bool,
    },
    /// Two-bone twist of one arm's elbow about the shoulder → wrist line, degrees (−180..=180).
    SetTwist {
        side: Side,
        degrees: f64,
    },
    /// Which solver poses an arm (two-bone or CCD).
    SetArmSolver {
        side: Side,
        solver: ArmSolverKind,
    },
    /// CCD passes per pose update (1..=1000).
    SetCcdIterations {
        side: Side,
        iterations: u32,
    },
    /// Whether the CCD arm jumps to the limit of its passes once they go planar (not in
    /// three.js; off runs three's passes alone).
    SetCcdPlanarFinish {
        side: Side,
        on: bool,
    },
    /// CCD step-angle clamps in degrees (three.js `minAngle` / `maxAngle`; `null` = none).
    SetCcdStepAngles {
        side: Side,
        min_deg: Option<f64>,
        max_deg: Option<f64>,
    },
    /// The CCD chain's own blend 0..=1 (three.js `blendFactor`); `null` uses the global weight.
    SetCcdBlend {
        side: Side,
        blend: Option<f64>,
    },
    /// One CCD link's limits: its switch, hinge axis (link-local) and Euler XYZ range in
    /// degrees (`null` = none).
    SetCcdLinkLimits {
        side: Side,
        link: CcdLinkRole,
        enabled: bool,
        limitation: Option<[f64; 3]>,
        min_deg: Option<[f64; 3]>,
        max_deg: Option<[f64; 3]>,
    },
    SetSoften {
        value: f64,
    },
    SetWeight {
        value: f64,
    },
    SetGripOffset {
        kind: GripKind,
        offset: [f64; 3],
    },
    /// Grip rotation as XYZ Euler angles in degrees.
    SetGripRotation {
        kind: GripKind,
        euler_deg: [f64; 3],
    },
    SetRodAdjust {
        offset: [f64; 3],
        euler_deg: [f64; 3],
    },
    /// Palm correction as XYZ Euler angles in degrees.
    SetPalmCorrection {
        side: Side,
        euler_deg: [f64; 3],
    },
    SetFingerCurl {
        side: Side,
        value: f64,
    },
    SetThumbCurl {
        side: Side,
        value: f64,
    },
    /// Contact grips on (fingers close until they touch the handle) or the parametric curl.
    SetFingerContact {
        enabled: bool,
    },
    /// One finger's contact-grip tuning: extra closing after the touch and spread, degrees.
    SetFingerTuning {
        side: Side,
        finger: Finger,
        curl_offset_deg: f64,
        spread_deg: f64,
    },
    /// The reel's stem between index and middle finger (else middle and ring).
    SetStemIndexMiddle {
        side: Side,
        value: bool,
    },
    /// On a spinning rod's reel seat, the thumb wraps round the handle (else it lies along
    /// its top).
    SetThumbWraps {
        side: Side,
        value: bool,
    },
    /// Sets the constant pole (or the current phase's key in per-phase mode), actor space.
    SetPole {
        side: Side,
        pole: [f64; 3],
    },
    SetHandedness {
        handedness: Handedness,
    },
    SetRodLength {
        metres: f64,
    },
    SetCastPower {
        value: f64,
    },
    /// The water's height and near edge (issue 34).
    SetWater {
        water: WaterParams,
    },
    /// The line's length out, drop, lure weight, fish pull and colour (issue 34).
    SetLine {
        line: LineParams,
    },
    /// Where the rod bends under the line's pull.
    SetRodAction {
        action: RodAction,
    },
    /// Whether and how far the head follows the fishing (issue 34).
    SetLook {
        look: LookSettings,
    },
}

impl PoseEdit {
    /// Applies the edit to `inputs`. `per_phase_poles`: [`PoseEdit::SetPole`] sets the current
    /// phase's key instead of the constant pole.
    ///
    /// # Errors
    /// The first broken settings rule (`path: message`) for the solver edits; `inputs` is then
    /// unchanged.
    pub fn apply(&self, inputs: &mut PoseInputs, per_phase_poles: bool) -> Result<(), String> {
        use PoseEdit as E;
        let PoseInputs {
            calibration: calib,
            settings,
            state,
        } = inputs;
        let mut s = *settings;
        match *self {
            E::SetLimitsEnabled { on } => s.limits_enabled = on,
            E::SetElbowLimit {
                side,
                min_deg,
                max_deg,
                enabled,
            } => {
                let arms: &[Side] = match &side {
                    Some(one) => std::slice::from_ref(one),
                    None => &SIDES,
                };
                for &arm in arms {
                    let limit = &mut s.arm_mut(arm).elbow_limit;
                    limit.min_bend = min_deg.clamp(0.0, 180.0).to_radians();
                    limit.max_bend = max_deg.clamp(0.0, 180.0).to_radians();
                    limit.enabled = enabled;
                }
            }
            E::SetArmSolver { side, solver } => s.arm_mut(side).solver = solver,
            E::SetTwist { side, degrees } => s.arm_mut(side).twist = degrees.to_radians(),
            E::SetCcdIterations { side, iterations } => s.arm_mut(side).ccd.iterations = iterations,
            E::SetCcdPlanarFinish { side, on } => s.arm_mut(side).ccd.planar_finish = on,
            E::SetCcdStepAngles {
                side,
                min_deg,
                max_deg,
            } => {
                let ccd = &mut s.arm_mut(side).ccd;
                ccd.min_angle = min_deg.map(f64::to_radians);
                ccd.max_angle = max_deg.map(f64::to_radians);
            }
            E::SetCcdBlend { side, blend } => s.arm_mut(side).ccd.blend_factor = blend,
            E::SetCcdLinkLimits {
                side,
                link,
                enabled,
                limitation,
                min_deg,
                max_deg,
            } => {
                let rad = |v: [f64; 3]| DVec3::from(v.map(f64::to_radians));
                *s.arm_mut(side).ccd.link_mut(link) = CcdLinkLimits {
                    enabled,
                    limitation: limitation.map(DVec3::from),
                    rotation_min: min_deg.map(rad),
                    rotation_max: max_deg.map(rad),
                };
            }
            E::SetSoften { value } => s.soften = value,
            E::SetWeight { value } => s.weight = value,
            E::SetGripOffset { kind, offset } => {
                calib.grips.entry(kind).or_default().offset_in_object = offset.into()
            }
            E::SetGripRotation { kind, euler_deg } => {
                calib.grips.entry(kind).or_default().rotation = euler(euler_deg)
            }
            E::SetRodAdjust { offset, euler_deg } => {
                calib.rod_adjust.offset_in_object = offset.into();
                calib.rod_adjust.rotation = euler(euler_deg);
            }
            E::SetPalmCorrection { side, euler_deg } => {
                calib.hands.get_mut(side).palm_correction = euler(euler_deg)
            }
            E::SetFingerCurl { side, value } => calib.hands.get_mut(side).finger_curl = value,
            E::SetThumbCurl { side, value } => calib.hands.get_mut(side).thumb_curl = value,
            E::SetFingerContact { enabled } => s.finger_contact = enabled,
            E::SetLook { look } => s.look = look,
            E::SetFingerTuning {
                side,
                finger,
                curl_offset_deg,
                spread_deg,
            } => {
                let t = calib.hands.get_mut(side).fingers.get_mut(finger);
                t.curl_offset = curl_offset_deg.to_radians();
                t.spread = spread_deg.to_radians();
            }
            E::SetStemIndexMiddle { side, value } => {
                calib.hands.get_mut(side).stem_index_middle = value
            }
            E::SetThumbWraps { side, value } => calib.hands.get_mut(side).thumb_wraps = value,
            E::SetPole { side, pole } => {
                let keys = calib.poles.get_mut(side);
                if per_phase_poles {
                    keys.per_phase.insert(state.phase, pole.into());
                } else {
                    keys.pole_in_actor = pole.into();
                }
            }
            E::SetHandedness { handedness } => state.params.handedness = handedness,
            E::SetRodLength { metres } => state.params.rod_length = metres,
            E::SetCastPower { value } => state.params.cast_power = value,
            E::SetWater { water } => state.params.water = water,
            E::SetLine { line } => state.params.line = line,
            E::SetRodAction { action } => state.params.rod_action = action,
        }
        if s != *settings {
            crate::fishing::rules::first(s.problems("settings"))?;
            *settings = s;
        }
        Ok(())
    }
}

/// XYZ Euler angles (degrees) → quaternion; non-finite angles give identity.
pub fn euler(deg: [f64; 3]) -> DQuat {
    if !deg.iter().all(|v| v.is_finite()) {
        return DQuat::IDENTITY;
    }
    let [x, y, z] = deg.map(f64::to_radians);
    DQuat::from_euler(EulerRot::XYZ, x, y, z).normalize()
}

/// Quaternion → XYZ Euler angles in degrees.
pub fn euler_of(q: DQuat) -> [f64; 3] {
    let (x, y, z) = q.to_euler(EulerRot::XYZ);
    [x.to_degrees(), y.to_degrees(), z.to_degrees()]
}
