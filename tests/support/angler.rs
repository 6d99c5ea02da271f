//! The bundled angler as a fishing rig, shared by the pose-pipeline tests.
#![allow(dead_code)]

use anglerpose::fishing::ActorRig;
use anglerpose::gltf_io;
use anglerpose::rig::{HumanoidMap, Pose};

/// `assets/angler.glb` loaded, humanoid-mapped and rigged for both arms.
pub fn angler() -> ActorRig {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/angler.glb");
    let character = gltf_io::load(path).expect("bundled angler loads");
    let rest = Pose::rest(&character.skeleton);
    let map = HumanoidMap::detect(&character.skeleton, &rest);
    ActorRig::new(character.skeleton, &rest, &map).expect("angler has both arms")
}
