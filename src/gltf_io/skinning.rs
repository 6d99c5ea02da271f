//! CPU skinning and skin matrices (computed in f64).
//!
//! glTF semantics: a skinned mesh ignores its node's transform; a vertex lands at
//! `Σ wᵢ · world_from_joint(jᵢ) · inverse_bind(jᵢ) · v`. A mesh without a skin is placed by
//! its node's world transform.

use super::{Character, Skin};
use crate::rig::Pose;
use glam::{DMat4, DVec3};

/// `world_from_joint × inverse_bind` for each joint of `skin`, in f64.
/// Precondition: `pose` belongs to the character's skeleton and is refreshed.
pub fn skin_matrices_f64(skin: &Skin, pose: &Pose) -> Vec<DMat4> {
    skin.joints
        .iter()
        .zip(&skin.inverse_bind)
        .map(|(&bone, ibm)| DMat4::from(*pose.world_from_bone(bone)) * *ibm)
        .collect()
}

/// Skin matrices of every skin, as column-major `f32` 4×4 arrays ready for a GPU buffer
/// (`result[skin][joint]`).
pub fn skin_matrices(character: &Character, pose: &Pose) -> Vec<Vec<[[f32; 4]; 4]>> {
    character
        .skins
        .iter()
        .map(|skin| {
            skin_matrices_f64(skin, pose)
                .iter()
                .map(|m| m.as_mat4().to_cols_array_2d())
                .collect()
        })
        .collect()
}

/// Like [`skin_matrices`] for one skin, written into `out` (cleared first) without allocating
/// once `out` has grown: the per-frame path.
pub fn skin_matrices_into(skin: &Skin, pose: &Pose, out: &mut Vec<[[f32; 4]; 4]>) {
    out.clear();
    out.extend(
        skin.joints
            .iter()
            .zip(&skin.inverse_bind)
            .map(|(&bone, ibm)| {
                (DMat4::from(*pose.world_from_bone(bone)) * *ibm)
                    .as_mat4()
                    .to_cols_array_2d()
            }),
    );
}

/// World positions of one primitive's vertices under `pose`.
///
/// Skinned primitives blend skin matrices by their weights (joint indices were validated at
/// load); primitives without a skin, or without JOINTS_0/WEIGHTS_0, use the mesh node's world
/// transform. Out-of-range `mesh`/`primitive` indices give an empty vector.
pub fn skin_positions(
    character: &Character,
    pose: &Pose,
    mesh: usize,
    primitive: usize,
) -> Vec<[f32; 3]> {
    let Some(m) = character.meshes.get(mesh) else {
        return Vec::new();
    };
    let Some(p) = m.primitives.get(primitive) else {
        return Vec::new();
    };
    let to_f32 = |v: DVec3| [v.x as f32, v.y as f32, v.z as f32];
    let skinned = match (
        m.skin.and_then(|s| character.skins.get(s)),
        &p.joints,
        &p.weights,
    ) {
        (Some(skin), Some(j), Some(w)) => Some((skin_matrices_f64(skin, pose), j, w)),
        _ => None,
    };
    match skinned {
        Some((mats, joints, weights)) => p
            .positions
            .iter()
            .zip(joints.iter().zip(weights))
            .map(|(pos, (js, ws))| {
                let v = DVec3::from_array(pos.map(f64::from));
                let mut out = DVec3::ZERO;
                for k in 0..4 {
                    if ws[k] > 0.0
                        && let Some(mat) = mats.get(js[k] as usize)
                    {
                        out += mat.transform_point3(v) * f64::from(ws[k]);
                    }
                }
                to_f32(out)
            })
            .collect(),
        None => {
            let world = pose.world_from_bone(m.node);
            p.positions
                .iter()
                .map(|pos| to_f32(world.transform_point3(DVec3::from_array(pos.map(f64::from)))))
                .collect()
        }
    }
}
