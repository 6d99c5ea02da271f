//! The per-arm solver commands (solver choice, elbow limits, CCD parameters and link limits):
//! the settings they produce, checked by [`SolverSettings::problems`] — the same rules the
//! preset checker and the poser use. Invalid values are errors that leave the document
//! untouched.

use super::command::EditorCommand;
use crate::fishing::{CcdLinkLimits, SIDES, SolverSettings};
use crate::rig::Side;
use glam::DVec3;

/// `settings` after `cmd`; commands that are not solver commands leave them unchanged.
pub(super) fn settings_after(
    settings: &SolverSettings,
    cmd: EditorCommand,
) -> Result<SolverSettings, String> {
    use EditorCommand as C;
    let mut s = *settings;
    match cmd {
        C::SetElbowLimit {
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
        C::SetArmSolver { side, solver } => s.arm_mut(side).solver = solver,
        C::SetTwist { side, degrees } => s.arm_mut(side).twist = degrees.to_radians(),
        C::SetCcdIterations { side, iterations } => s.arm_mut(side).ccd.iterations = iterations,
        C::SetCcdStepAngles {
            side,
            min_deg,
            max_deg,
        } => {
            let ccd = &mut s.arm_mut(side).ccd;
            ccd.min_angle = min_deg.map(f64::to_radians);
            ccd.max_angle = max_deg.map(f64::to_radians);
        }
        C::SetCcdBlend { side, blend } => s.arm_mut(side).ccd.blend_factor = blend,
        C::SetCcdLinkLimits {
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
        _ => {}
    }
    crate::fishing::rules::first(s.problems("settings"))?;
    Ok(s)
}
