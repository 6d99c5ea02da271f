//! The example presets shipped in `assets/presets/` (seated hold, cast, landing, CCD arms),
//! built from a base preset of the bundled angler. Regenerated and compared by `tests/preset_examples.rs`.

use super::{NamedPose, Preset};
use crate::fishing::{GripKind, GripOffset, Phase, SessionParams, SessionState};
use glam::{DQuat, DVec3};

fn state(phase: Phase, t: f64, params: SessionParams) -> SessionState {
    SessionState::new(phase, t, params)
}

fn pose(phase: Phase, t: f64, params: SessionParams) -> NamedPose {
    NamedPose {
        state: state(phase, t, params),
        calibration: None,
    }
}

/// `(file name, preset)` for each example, in a fixed order. `base` is the default preset of
/// the bundled angler (default calibration and settings, character `../angler.glb`).
pub fn example_presets(base: &Preset) -> Vec<(&'static str, Preset)> {
    let params = SessionParams::default();

    let mut seated = base.clone();
    seated.inputs.state = state(Phase::SeatedHold, 0.5, params);
    seated
        .poses
        .insert("hold_start".into(), pose(Phase::SeatedHold, 0.0, params));
    seated
        .poses
        .insert("hold_end".into(), pose(Phase::SeatedHold, 1.0, params));

    let mut cast = base.clone();
    let power = SessionParams {
        cast_power: 1.4,
        ..params
    };
    cast.inputs.state = state(Phase::CastWindUp, 0.6, power);
    cast.inputs.settings.soften = 0.97;
    for side in [
        &mut cast.inputs.calibration.hands.left,
        &mut cast.inputs.calibration.hands.right,
    ] {
        side.finger_curl = 0.85;
    }
    cast.poses
        .insert("wind_up".into(), pose(Phase::CastWindUp, 1.0, power));
    cast.poses
        .insert("forward".into(), pose(Phase::CastForward, 0.5, power));
    cast.poses
        .insert("release".into(), pose(Phase::Release, 0.3, power));

    let mut landing = base.clone();
    landing.inputs.state = state(Phase::Landing, 0.7, params);
    landing.inputs.calibration.grips.insert(
        GripKind::NetHandle,
        GripOffset {
            offset_in_object: DVec3::new(0.0, 0.05, 0.0),
            rotation: DQuat::IDENTITY,
        },
    );
    // The net arm's elbow swings out while reaching low and forward.
    let left = &mut landing.inputs.calibration.poles.left;
    left.per_phase.insert(
        Phase::Landing,
        left.pole_in_actor + DVec3::new(0.15, 0.0, -0.1),
    );
    let mut reach = pose(Phase::Landing, 1.0, params);
    let mut wide = landing.inputs.calibration.clone();
    wide.hands.left.finger_curl = 0.9;
    wide.poles.left.pole_in_actor += DVec3::new(0.1, -0.05, 0.0);
    reach.calibration = Some(wide);
    landing.poses.insert("net_reach".into(), reach);
    landing
        .poses
        .insert("strike".into(), pose(Phase::Strike, 0.5, params));

    // Both arms on the CCD solver (three.js CCDIKSolver): the elbow a 2°..150° hinge, the
    // rod arm's upper arm inside an Euler range, 96 passes.
    let mut ccd = base.clone();
    ccd.inputs.state = state(Phase::SeatedHold, 0.5, params);
    for side in crate::fishing::SIDES {
        ccd.inputs.settings.arm_mut(side).solver = crate::fishing::ArmSolverKind::Ccd;
        ccd.inputs.settings.arm_mut(side).ccd.iterations = 96;
    }
    let upper = &mut ccd.inputs.settings.arms.right.ccd.upper_arm;
    upper.enabled = true;
    upper.rotation_min = Some(DVec3::new(-20f64, -90.0, 0.0) * (std::f64::consts::PI / 180.0));
    upper.rotation_max = Some(DVec3::new(90f64, 20.0, 140.0) * (std::f64::consts::PI / 180.0));
    ccd.poses
        .insert("strike".into(), pose(Phase::Strike, 0.5, params));
    ccd.poses
        .insert("retrieve".into(), pose(Phase::Retrieve, 0.5, params));

    vec![
        ("seated_hold.json", seated),
        ("cast.json", cast),
        ("landing.json", landing),
        ("ccd_arms.json", ccd),
    ]
}
