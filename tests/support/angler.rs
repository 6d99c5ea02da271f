//! The bundled angler as a fishing rig, shared by the pose-pipeline tests.
#![allow(dead_code)]

use anglerpose::fishing::{
    ActorRig, GripCalibration, PoseEvaluation, PoseInputs, Poser, SessionError, SessionState,
    SolverSettings,
};
use anglerpose::gltf_io;
use anglerpose::rig::{HumanoidMap, Pose, Transform};

/// `assets/angler.glb` loaded, humanoid-mapped and rigged for both arms.
pub fn angler() -> ActorRig {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/angler.glb");
    let character = gltf_io::load(path).expect("bundled angler loads");
    let rest = Pose::rest(&character.skeleton);
    let map = HumanoidMap::detect(&character.skeleton, &rest);
    ActorRig::new(character.skeleton, &rest, &map).expect("angler has both arms")
}

/// `actor` posed by a fresh poser (no flip history) for these inputs, at the identity
/// placement: the pose and what the evaluation reported.
pub fn evaluate(
    actor: &ActorRig,
    calib: &GripCalibration,
    settings: &SolverSettings,
    state: &SessionState,
) -> Result<(Pose, PoseEvaluation), SessionError> {
    let mut pose = actor.base.clone();
    let inputs = PoseInputs::new(calib.clone(), *settings, *state);
    let eval = Poser::new().evaluate(actor, &inputs, &Transform::IDENTITY, &mut pose)?;
    Ok((pose, eval))
}
