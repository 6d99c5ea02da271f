//! The grip memo (issue 37) remembers solved contact grips for every poser of an arm; it must
//! never change a pose. A warm memo poses the session exactly as a cold one, and a hand
//! whose shape changed (through `set_hand_shapes` or by writing the arm's fields) is not
//! answered with grips solved for the old shape.

mod support;

use anglerpose::fishing::{ActorRig, PoseEvaluation, PoseInputs, Poser, SessionState};
use anglerpose::gltf_io;
use anglerpose::rig::{Pose, Side, Transform};
use anglerpose::stage::{Props, Stage, bundled_assets_dir};

/// The bundled angler seated with the bundled props, contact grips on (its own memo).
fn stage() -> Stage {
    let dir = bundled_assets_dir();
    let props = Props::load_with(&dir, &Default::default()).unwrap();
    let character = gltf_io::load(dir.join("angler.glb")).unwrap();
    let mut stage = Stage::new(character, props).unwrap();
    stage.inputs.settings.finger_contact = true;
    stage
}

/// `actor` posed by a fresh poser at `k` of `n` instants over the session of `stage`.
fn pose(stage: &Stage, actor: &ActorRig, k: usize, n: usize) -> (Pose, PoseEvaluation) {
    let params = stage.inputs.state.params;
    let state = SessionState::at_fraction(k as f64 / (n - 1) as f64, params);
    let inputs = PoseInputs::new(
        stage.inputs.calibration.clone(),
        stage.inputs.settings,
        state,
    );
    let mut pose = actor.base.clone();
    let eval = Poser::new()
        .evaluate(actor, &inputs, &Transform::IDENTITY, &mut pose)
        .unwrap();
    (pose, eval)
}

const INSTANTS: usize = 24;

#[test]
fn a_warm_memo_poses_every_instant_as_a_cold_one() {
    let warm_stage = stage();
    let warm = warm_stage.actor.clone();
    // Warm it: every instant once (each with a poser of its own, as calibration does).
    for k in 0..INSTANTS {
        let _ = pose(&warm_stage, &warm, k, INSTANTS);
    }
    let remembered = warm.arm(Side::Left).grip_memo.len() + warm.arm(Side::Right).grip_memo.len();
    assert!(remembered > 0, "nothing remembered");
    for k in 0..INSTANTS {
        // A stage of its own: a memo of its own, empty at this instant's grips.
        let cold_stage = stage();
        let cold = cold_stage.actor.clone();
        let same = pose(&warm_stage, &warm, k, INSTANTS) == pose(&cold_stage, &cold, k, INSTANTS);
        assert!(same, "the warm memo posed instant {k} differently");
    }
}

#[test]
fn a_changed_hand_is_not_answered_with_the_old_hands_grips() {
    let base = stage();
    // The hands as their bones alone describe them (not the skin the stage fitted).
    let bones = support::angler::angler();
    let bone_shapes = anglerpose::fishing::PerSide::new(
        bones.arm(Side::Left).shape.clone(),
        bones.arm(Side::Right).shape.clone(),
    );
    // The reference: a memo that never saw the skin's hands... as far as grips go: its
    // shapes replaced before it poses anything here.
    let fresh_stage = stage();
    let mut fresh = fresh_stage.actor.clone();
    fresh.set_hand_shapes(bone_shapes.clone());
    let want: Vec<_> = (0..INSTANTS)
        .map(|k| pose(&fresh_stage, &fresh, k, INSTANTS))
        .collect();
    // The skin's hands grip differently: otherwise this test could not fail.
    let skin = base.actor.clone();
    let differs = (0..INSTANTS).any(|k| pose(&base, &skin, k, INSTANTS) != want[k]);
    assert!(
        differs,
        "skin and bone hands grip alike: the test shows nothing"
    );

    // Through set_hand_shapes, after the memo was warmed with the skin's hands.
    let mut replaced = base.actor.clone();
    replaced.set_hand_shapes(bone_shapes);
    // By writing the arm's fields, sharing the warm memo.
    let mut written = base.actor.clone();
    for side in [Side::Left, Side::Right] {
        let arm = written.arms.get_mut(side);
        arm.shape = fresh.arm(side).shape.clone();
        arm.contact = fresh.arm(side).contact.clone();
    }
    for (k, want) in want.iter().enumerate() {
        let replaced_ok = pose(&base, &replaced, k, INSTANTS) == *want;
        assert!(
            replaced_ok,
            "after set_hand_shapes, instant {k} posed with the old hand"
        );
        let written_ok = pose(&base, &written, k, INSTANTS) == *want;
        assert!(
            written_ok,
            "with the arm's fields written, instant {k} posed with the old hand"
        );
    }
}
