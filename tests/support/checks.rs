//! The acceptance checks shared by the calibration and retargeting tests.
#![allow(dead_code)]

use anglerpose::fishing::{PerSide, Phase, SessionState, analyse_timeline};
use anglerpose::gltf_io;
use anglerpose::rig::Side;
use anglerpose::stage::Stage;
use glam::DVec3;

/// The acceptance checks of a calibrated (or retargeted) preset, on `stage` with its
/// calibration: over 600 samples ≥ 95% reached per arm with residual ≤ 1 mm, zero flips; in
/// the seated hold ankles on the floor, thighs level, wrists on the rod axis, hips over the
/// stool. Returns the reached fraction per arm.
pub fn assert_preset_ok(name: &str, stage: &mut Stage) -> PerSide<f64> {
    let actor = &stage.actor;
    let body = stage
        .map
        .body
        .clone()
        .unwrap_or_else(|| panic!("{name}: no body mapped"));
    let calib = stage.inputs.calibration.clone();
    let a = analyse_timeline(
        actor,
        &calib,
        &stage.inputs.settings,
        &stage.inputs.state.params,
        600,
    )
    .unwrap();
    let mut fractions = PerSide::new(0.0, 0.0);
    for side in [Side::Left, Side::Right] {
        let s = a.samples.get(side);
        let ok = s.iter().filter(|s| s.reached && s.residual <= 1e-3).count();
        let fraction = ok as f64 / s.len() as f64;
        assert!(
            fraction >= 0.95,
            "{name}: {side:?} arm reached {ok}/{} samples",
            s.len()
        );
        *fractions.get_mut(side) = fraction;
    }
    assert!(a.flips.is_empty(), "{name}: flips {:?}", a.flips);
    // The seated hold.
    stage.inputs.calibration = calib;
    stage.inputs.state = SessionState::new(Phase::SeatedHold, 0.0, stage.inputs.state.params);
    stage.reset_flip_tracking();
    let eval = *stage.update().unwrap();
    let pose = &stage.pose;
    let p = |b: usize| pose.world_position(b);
    let rod_origin = eval.frames.actor_from_rod.translation;
    let rod_axis = eval.frames.actor_from_rod.rotation * DVec3::Y;
    for side in [Side::Left, Side::Right] {
        let leg = body.leg(side);
        let shin = leg.shin_length;
        let ankle = p(leg.foot).y;
        // Feet flat on the floor put the ankle where the character's own standing pose has it
        // (`rest_ankle` above its lowest vertex); where that is within 0.35 shin lengths (any
        // human proportion) the ankle must be too. KayKit's tall boots hold its ankle 0.99
        // shin lengths up: there only the relative check can hold without sinking the boots.
        let rest_ankle = rest_ankle_height(stage, leg.foot);
        assert!(
            (ankle - rest_ankle).abs() <= 0.35 * shin,
            "{name}: {side:?} ankle {ankle:.3} m above the floor, {rest_ankle:.3} standing \
             (shin {shin:.3})"
        );
        if rest_ankle <= 0.35 * shin {
            assert!(
                ankle.abs() <= 0.35 * shin,
                "{name}: {side:?} ankle {ankle:.3} m above the floor (shin {shin:.3})"
            );
        }
        let level = (p(leg.thigh).y - p(leg.shin).y).abs();
        assert!(
            level <= 0.45 * shin,
            "{name}: {side:?} hip–knee height difference {level:.3} (shin {shin:.3})"
        );
        let arm = stage.map.arm(side).unwrap();
        let arm_len = arm.upper_arm_length + arm.forearm_length;
        let w = p(arm.hand) - rod_origin;
        let off_axis = (w - rod_axis * w.dot(rod_axis)).length();
        // The palm is on the handle (contact grips sit it on the skin's surface), so the
        // wrist is up to half a palm beyond the old wrist-on-the-grip bound.
        let palm = stage.actor.arm(side).hand_frame.palm_length;
        assert!(
            off_axis <= 0.15 * arm_len + 0.5 * palm,
            "{name}: {side:?} wrist {off_axis:.3} m from the rod axis (arm {arm_len:.3}, \
             palm {palm:.3})"
        );
    }
    // Hips over the stool, the stool's seat below them.
    let hips = p(body.hips);
    let stool = stage.actor.fit.actor_from_stool;
    assert!(
        (stool.translation - DVec3::new(hips.x, 0.0, hips.z)).length() < 0.05 * stage.actor.height,
        "{name}: stool at {:?}, hips at {hips:?}",
        stool.translation
    );
    fractions
}

/// Height of `foot` above the lowest vertex in the rest (standing) pose, actor space.
pub fn rest_ankle_height(stage: &Stage, foot: usize) -> f64 {
    let c = &stage.character;
    let rest = anglerpose::rig::Pose::rest(&c.skeleton);
    let mut lowest = f64::INFINITY;
    for (m, mesh) in c.meshes.iter().enumerate() {
        for k in 0..mesh.primitives.len() {
            for v in gltf_io::skin_positions(c, &rest, m, k) {
                lowest = lowest.min(f64::from(v[1]));
            }
        }
    }
    rest.world_position(foot).y - lowest
}

/// The angle between two directions, degrees (any lengths).
pub fn angle_deg(a: DVec3, b: DVec3) -> f64 {
    a.normalize()
        .dot(b.normalize())
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

/// `character` seated with the bundled props and calibrated over `samples` timeline samples on
/// all cores, as `anglerpose calibrate` does: its grip calibration and report.
pub fn calibrated(
    character: gltf_io::Character,
    samples: usize,
) -> (
    anglerpose::fishing::GripCalibration,
    anglerpose::fishing::CalibrationReport,
) {
    use anglerpose::fishing::{calibrate, default_threads};
    use anglerpose::stage::{Props, bundled_assets_dir};
    let stage = Stage::new(character, Props::load(&bundled_assets_dir()).unwrap()).unwrap();
    calibrate(
        &stage.actor,
        &stage.inputs.settings,
        &stage.inputs.state.params,
        samples,
        default_threads(),
    )
    .unwrap()
}
