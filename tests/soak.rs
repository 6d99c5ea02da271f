//! Solver soak: one million random target (grip offset) and pole moves through the full pose
//! pipeline (both arms, palms, fingers). No NaN or infinity, bone lengths never drift more
//! than 1e-5 relative, and a given state poses identically before and after the million moves.
//! `ANGLERPOSE_SOAK_MOVES` overrides the count.

mod support;

use anglerpose::fishing::{
    ActorRig, GripKind, GripOffset, PoleKeys, PoseInputs, Poser, SIDES, SessionParams,
    SessionState, SolverSettings,
};
use anglerpose::gltf_io;
use anglerpose::rig::{HumanoidMap, Pose, Transform};
use glam::{DQuat, DVec3};
use support::rng::Rng;

fn bone_lengths(actor: &ActorRig, pose: &Pose) -> Vec<f64> {
    (0..actor.skeleton.len())
        .map(|b| match actor.skeleton.parent(b) {
            Some(p) => (pose.world_position(b) - pose.world_position(p)).length(),
            None => 0.0,
        })
        .collect()
}

#[test]
fn a_million_random_moves_stay_finite_and_rigid() {
    let moves: usize = std::env::var("ANGLERPOSE_SOAK_MOVES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/angler.glb");
    let character = gltf_io::load(path).expect("bundled angler");
    let rest = Pose::rest(&character.skeleton);
    let map = HumanoidMap::detect(&character.skeleton, &rest);
    let actor = ActorRig::new(character.skeleton, &rest, &map).expect("actor");
    let rest_lengths = bone_lengths(&actor, &actor.base);
    let settings = SolverSettings::default();
    let params = SessionParams::default();
    let fixed_state = SessionState::at_fraction(0.3, params);
    let calib0 = actor.default_calibration();

    let mut poser = Poser::new();
    let mut pose = actor.base.clone();
    let _ = poser
        .evaluate(
            &actor,
            &PoseInputs::new(calib0.clone(), settings, fixed_state),
            &Transform::IDENTITY,
            &mut pose,
        )
        .unwrap();
    let direct = pose.clone();

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut inputs = PoseInputs::new(calib0.clone(), settings, fixed_state);
    let mut worst_drift = 0.0f64;
    for k in 0..moves {
        // A random move: a grip offset (which moves that hand's target), a pole, a time.
        let kind = GripKind::ALL[k % 4];
        inputs.calibration.grips.insert(
            kind,
            GripOffset {
                offset_in_object: rng.vec(0.6),
                rotation: DQuat::from_scaled_axis(rng.vec(1.5)),
            },
        );
        let side = SIDES[k % 2];
        let pole = if k % 97 == 0 {
            // Degenerate poles now and then: on the shoulder.
            actor.base.world_position(actor.arm(side).upper)
        } else {
            rng.vec(3.0) + DVec3::Y
        };
        *inputs.calibration.poles.get_mut(side) = PoleKeys::constant(pole);
        inputs.state = SessionState::at_fraction(rng.next(), params);
        let _ = poser
            .evaluate(&actor, &inputs, &Transform::IDENTITY, &mut pose)
            .unwrap_or_else(|e| panic!("move {k}: {e}"));
        // Check every move for the arms, the whole skeleton every 1000th.
        let bones: Vec<usize> = if k % 1000 == 0 {
            (0..actor.skeleton.len()).collect()
        } else {
            SIDES
                .iter()
                .flat_map(|&s| {
                    let a = actor.arm(s);
                    [a.fore, a.hand]
                })
                .collect()
        };
        for b in bones {
            let p = pose.world_position(b);
            assert!(p.is_finite(), "move {k}: bone {b} at {p}");
            let Some(parent) = actor.skeleton.parent(b) else {
                continue;
            };
            let len = (p - pose.world_position(parent)).length();
            let rest_len = rest_lengths[b];
            let drift = (len - rest_len).abs() / rest_len.max(1e-9);
            worst_drift = worst_drift.max(drift);
            assert!(
                drift <= 1e-5,
                "move {k}: bone {b} length {len} vs {rest_len}"
            );
        }
    }
    assert!(pose.is_finite());
    let _ = poser
        .evaluate(
            &actor,
            &PoseInputs::new(calib0.clone(), settings, fixed_state),
            &Transform::IDENTITY,
            &mut pose,
        )
        .unwrap();
    assert_eq!(
        pose, direct,
        "the pose for a state must not depend on history"
    );
    eprintln!("soak: {moves} moves, worst bone length drift {worst_drift:e}");
}
