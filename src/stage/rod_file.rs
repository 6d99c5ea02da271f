//! An artist's rod file → [`RodModel`]: its mesh vertices in model space, checked to be a rod
//! (not a skinned character) and handed to [`crate::fishing::rod_model::detect_rod`].

use crate::fishing::rod_model::{RodModel, RodModelError, detect_rod};
use crate::gltf_io::Character;
use crate::rig::{HumanoidMap, Pose};
use glam::{DVec3, Vec3};
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum RodFileError {
    #[error("{path}: {source}")]
    Shape { path: String, source: RodModelError },
    #[error("{path}: is a skinned character ({joints} joints, humanoid arms), not a rod")]
    Character { path: String, joints: usize },
}

/// Every mesh vertex of `character` in its model space (the rest pose: rigid meshes placed by
/// their nodes).
pub fn model_points(character: &Character) -> Vec<DVec3> {
    let rest = Pose::rest(&character.skeleton);
    let mut out = Vec::new();
    for mesh in &character.meshes {
        let world = rest.world_from_bone(mesh.node);
        for prim in &mesh.primitives {
            out.extend(
                prim.positions
                    .iter()
                    .map(|p| world.transform_point3(Vec3::from(*p).as_dvec3())),
            );
        }
    }
    out
}

/// The canonical rod frame of a rod file (see [`crate::fishing::rod_model`]).
///
/// # Errors
/// A skinned humanoid, no mesh, or a shape that is not a rod; the message names the file.
pub fn rod_model(character: &Character, real_length: f64) -> Result<RodModel, RodFileError> {
    let path = character.source.display().to_string();
    let joints: usize = character.skins.iter().map(|s| s.joints.len()).sum();
    if joints > 0 {
        let map = HumanoidMap::detect(&character.skeleton, &Pose::rest(&character.skeleton));
        if map.left.is_some() || map.right.is_some() {
            return Err(RodFileError::Character { path, joints });
        }
    }
    detect_rod(&model_points(character), real_length)
        .map_err(|source| RodFileError::Shape { path, source })
}
