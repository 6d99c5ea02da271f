//! An artist's rod or net file → its vertices in model space, checked not to be a skinned
//! character, and the rod's [`RodModel`] (see [`crate::fishing::rod_model::detect_rod`]).

use crate::fishing::rod_model::{RodHints, RodModel, RodModelError, detect_rod_with};
use crate::gltf_io::{Character, LoadError};
use crate::rig::Pose;
use glam::{DVec3, Vec3};
use thiserror::Error;

/// Why a rod, net or seat file cannot be used.
#[derive(Debug, Error)]
pub enum PropFileError {
    /// The file does not load (its path is in the loader's message).
    #[error(transparent)]
    Load(LoadError),
    /// Its geometry is not the prop's shape.
    #[error("{path}: {source}")]
    Shape {
        /// The file.
        path: String,
        /// What is wrong with the shape.
        source: RodModelError,
    },
    /// A skinned humanoid was given as a prop.
    #[error("{path}: is a skinned character ({joints} joints, humanoid arms), not a prop")]
    Character {
        /// The file.
        path: String,
        /// Skin joints in the file.
        joints: usize,
    },
    /// The grip corrections do not fit the rod.
    #[error("{path}: {why}")]
    Grips {
        /// The file.
        path: String,
        /// The first broken rule.
        why: String,
    },
    /// A seat with no vertices or no height.
    #[error("{path}: has no mesh with any height to sit on")]
    Flat {
        /// The file.
        path: String,
    },
}

/// Old name of [`PropFileError`].
pub type RodFileError = PropFileError;

/// Points on every mesh surface of `character` in its model space (the rest pose: rigid
/// meshes placed by their nodes): each vertex, and points along every triangle edge longer
/// than 1/200 of the model's size (its bounding sphere about the mean vertex, the same in any
/// frame), so that a long blank modelled as one tube of two rings is
/// present all along its length.
pub fn model_points(character: &Character) -> Vec<DVec3> {
    model_points_except(character, None)
}

/// [`model_points`] of every mesh but those under the node `skip` (and `skip`'s own): a rod
/// without its crank, say.
pub fn model_points_except(character: &Character, skip: Option<usize>) -> Vec<DVec3> {
    let rest = Pose::rest(&character.skeleton);
    let skipped = skip.map_or(&[][..], |b| character.skeleton.subtree_order(b));
    let mut out = Vec::new();
    let mut triangles = Vec::new();
    for mesh in character
        .meshes
        .iter()
        .filter(|m| !skipped.contains(&m.node))
    {
        let world = rest.world_from_bone(mesh.node);
        for prim in &mesh.primitives {
            let base = out.len();
            out.extend(
                prim.positions
                    .iter()
                    .map(|p| world.transform_point3(Vec3::from(*p).as_dvec3())),
            );
            let n = prim.positions.len();
            for t in prim.indices.chunks_exact(3) {
                if t.iter().all(|&i| (i as usize) < n) {
                    triangles.push([t[0], t[1], t[2]].map(|i| base + i as usize));
                }
            }
        }
    }
    // The step is the same in any frame and units: a share of the bounding sphere's size.
    let mean = out.iter().copied().sum::<DVec3>() / out.len().max(1) as f64;
    let size = 2.0 * out.iter().map(|p| (*p - mean).length()).fold(0.0, f64::max);
    let step = size / 200.0;
    if !(step.is_finite() && step > 0.0) {
        return out;
    }
    let vertices = out.len();
    for t in triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            // Each edge once (shared edges are seen from both sides).
            if a > b || a >= vertices || b >= vertices {
                continue;
            }
            let (pa, pb) = (out[a], out[b]);
            let k = ((pb - pa).length() / step) as usize;
            for i in 1..k.min(400) {
                out.push(pa.lerp(pb, i as f64 / k as f64));
            }
        }
    }
    out
}

/// Refuses a skinned humanoid given as a prop.
///
/// # Errors
/// [`PropFileError::Character`] when `character` has skin joints and humanoid arms.
pub fn refuse_character(character: &Character) -> Result<(), PropFileError> {
    let joints: usize = character.skins.iter().map(|s| s.joints.len()).sum();
    if joints > 0 {
        let map = character.detect_humanoid();
        if map.left.is_some() || map.right.is_some() {
            return Err(PropFileError::Character {
                path: character.source.display().to_string(),
                joints,
            });
        }
    }
    Ok(())
}

/// The canonical rod frame of a rod file (see [`crate::fishing::rod_model`]).
///
/// # Errors
/// A skinned humanoid, no mesh, or a shape that is not a rod; the message names the file.
pub fn rod_model(
    character: &Character,
    real_length: Option<f64>,
) -> Result<RodModel, PropFileError> {
    rod_model_with(
        character,
        &RodHints {
            real_length,
            ..RodHints::default()
        },
    )
}

/// [`rod_model`] with the artist's corrections of the butt.
///
/// # Errors
/// As [`rod_model`], and a correction that does not fit the rod.
pub fn rod_model_with(character: &Character, hints: &RodHints) -> Result<RodModel, PropFileError> {
    refuse_character(character)?;
    let path = character.source.display().to_string();
    detect_rod_with(&model_points(character), hints)
        .map_err(|source| PropFileError::Shape { path, source })
}
