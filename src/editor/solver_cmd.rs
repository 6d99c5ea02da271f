//! The per-arm solver commands (solver choice, elbow limits, CCD parameters and link limits):
//! validation and the settings they produce. Invalid values are errors that leave the
//! document untouched.

use super::command::EditorCommand;
use super::state::EditorError;
use crate::fishing::{CcdArmSettings, CcdLinkLimits, SIDES, SolverSettings};
use crate::rig::Side;
use glam::DVec3;

fn invalid(message: String) -> EditorError {
    EditorError::Invalid(message)
}

/// `settings` after `cmd`; commands that are not solver commands leave them unchanged.
pub(super) fn settings_after(
    settings: &SolverSettings,
    cmd: EditorCommand,
) -> Result<SolverSettings, EditorError> {
    use EditorCommand as C;
    let mut s = *settings;
    match cmd {
        C::SetElbowLimit {
            side,
            min_deg,
            max_deg,
            enabled,
        } => {
            if !(min_deg.is_finite() && max_deg.is_finite() && min_deg <= max_deg) {
                return Err(invalid(format!(
                    "elbow limit {min_deg}..{max_deg}°: min must be ≤ max and finite"
                )));
            }
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
        C::SetCcdIterations { side, iterations } => {
            let max = CcdArmSettings::MAX_ITERATIONS;
            if !(1..=max).contains(&iterations) {
                return Err(invalid(format!(
                    "CCD iterations {iterations}: must be 1..={max}"
                )));
            }
            s.arm_mut(side).ccd.iterations = iterations;
        }
        C::SetCcdStepAngles {
            side,
            min_deg,
            max_deg,
        } => {
            let ccd = &mut s.arm_mut(side).ccd;
            ccd.min_angle = step_angle(min_deg, "min step angle")?;
            ccd.max_angle = step_angle(max_deg, "max step angle")?;
        }
        C::SetCcdBlend { side, blend } => {
            if blend.is_some_and(|b| !(b.is_finite() && (0.0..=1.0).contains(&b))) {
                return Err(invalid(format!("CCD blend {blend:?}: must be 0..=1")));
            }
            s.arm_mut(side).ccd.blend_factor = blend;
        }
        C::SetCcdLinkLimits {
            side,
            link,
            enabled,
            limitation,
            min_deg,
            max_deg,
        } => {
            *s.arm_mut(side).ccd.link_mut(link) =
                link_limits(enabled, limitation, min_deg, max_deg)?;
        }
        _ => {}
    }
    Ok(s)
}

/// A CCD step-angle clamp in degrees → radians (0..=180°, finite).
fn step_angle(deg: Option<f64>, what: &str) -> Result<Option<f64>, EditorError> {
    match deg {
        Some(d) if !(d.is_finite() && (0.0..=180.0).contains(&d)) => {
            Err(invalid(format!("CCD {what} {d}°: must be 0..=180")))
        }
        d => Ok(d.map(f64::to_radians)),
    }
}

/// A CCD link's limits from degrees, rejecting non-finite values, a zero hinge axis and
/// min > max.
fn link_limits(
    enabled: bool,
    limitation: Option<[f64; 3]>,
    min_deg: Option<[f64; 3]>,
    max_deg: Option<[f64; 3]>,
) -> Result<CcdLinkLimits, EditorError> {
    let finite = |v: &Option<[f64; 3]>| v.is_none_or(|v| v.iter().all(|c| c.is_finite()));
    if !(finite(&limitation) && finite(&min_deg) && finite(&max_deg)) {
        return Err(invalid("CCD link limits must be finite".into()));
    }
    let axis = limitation.map(DVec3::from);
    if axis.is_some_and(|a| a.length_squared() < 1e-12) {
        return Err(invalid("CCD hinge axis has zero length".into()));
    }
    if let (Some(lo), Some(hi)) = (min_deg, max_deg)
        && (0..3).any(|i| lo[i] > hi[i])
    {
        return Err(invalid(format!(
            "CCD link range {lo:?}..{hi:?}°: min must be ≤ max"
        )));
    }
    let rad = |v: [f64; 3]| DVec3::from(v.map(f64::to_radians));
    Ok(CcdLinkLimits {
        enabled,
        limitation: axis,
        rotation_min: min_deg.map(rad),
        rotation_max: max_deg.map(rad),
    })
}
