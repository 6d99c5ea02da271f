//! [`PoseEdit::apply`]: every undoable edit of the pose inputs as a plain function of
//! [`PoseInputs`] (no stage, no window). Solver settings are checked by
//! [`SolverSettings::problems`](crate::fishing::SolverSettings::problems) — the rules the preset
//! checker and the poser use — so an invalid value is refused before it reaches the document;
//! the rest is checked when the stage re-poses.

use super::command::PoseEdit;
use super::state::euler;
use crate::fishing::{CcdLinkLimits, PoseInputs, SIDES};
use crate::rig::Side;
use glam::DVec3;

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
