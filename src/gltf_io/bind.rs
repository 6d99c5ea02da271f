//! The bind pose: joint transforms reconstructed from the inverse bind matrices.
//!
//! A file's node transforms are a *scene pose*, which need not be the pose the mesh was bound
//! in (mannequiny's nodes, for instance, are posed). The skeleton's rest pose is therefore the
//! bind pose: for each skin, `world_from_joint_bind = world_from_mesh_bind × inverse_bind⁻¹`,
//! where `world_from_mesh_bind = world_from_root_joint(scene) × inverse_bind(root joint)` keeps
//! the skin's root-most joint where the scene puts it. With that rest pose every skin matrix
//! equals `world_from_mesh_bind`, so skinning the rest pose reproduces the bind-pose mesh.
//!
//! When the root-most joint itself is posed in the file (mannequiny tilts its pelvis), the
//! scene cannot say where the mesh was bound; then the mesh sits where its node (or else the
//! root joint's parent) puts it, as three.js binds a skinned mesh at its node's world matrix.

use super::Skin;
use super::nodes::decompose_matrix;
use crate::rig::{Bone, Skeleton, Transform};
use glam::{DAffine3, DMat4};

/// Largest difference (matrix entries) tolerated before the scene pose counts as "posed".
const SAME_POSE_TOLERANCE: f64 = 1e-4;

/// Returns the skeleton with bind-pose rest transforms and fills each skin's
/// `bind_world_from_mesh`. Joints whose bind transform cannot be decomposed keep their scene
/// transform (with a warning). Skins without inverse bind matrices (`has_ibm[s]` false) are
/// skipped: identity bind matrices would put every joint at one point. `stated[s]`: where
/// the file itself says skin `s`'s mesh sat when bound (an FBX cluster's bind matrices say
/// so; glTF does not), used as it is.
pub fn apply_bind_pose(
    scene: &Skeleton,
    skins: &mut [Skin],
    has_ibm: &[bool],
    mesh_node: &[Option<usize>],
    stated: &[Option<DMat4>],
    warnings: &mut Vec<String>,
) -> Skeleton {
    let n = scene.len();
    let mut scene_world = vec![DAffine3::IDENTITY; n];
    for &b in scene.order() {
        let local = scene.bone(b).rest.to_affine();
        scene_world[b] = match scene.parent(b) {
            Some(p) => scene_world[p] * local,
            None => local,
        };
    }
    // Bind world per joint bone (first skin wins when skins share a joint).
    let mut bind_world: Vec<Option<DMat4>> = vec![None; n];
    for (si, skin) in skins.iter_mut().enumerate() {
        if !has_ibm.get(si).copied().unwrap_or(false) || skin.joints.is_empty() {
            continue;
        }
        let mesh = match stated.get(si).copied().flatten() {
            Some(mesh) => mesh,
            None => bind_world_from_mesh(scene, skin, si, &scene_world, mesh_node, warnings),
        };
        skin.bind_world_from_mesh = mesh;
        for (k, &j) in skin.joints.iter().enumerate() {
            let w = mesh * skin.inverse_bind[k].inverse();
            match bind_world[j] {
                None => bind_world[j] = Some(w),
                Some(prev) if !prev.abs_diff_eq(w, 1e-5) => warnings.push(format!(
                    "skins[{si}]: joint {:?} has a different bind pose than in an earlier skin; \
                     the earlier one is used",
                    scene.bone(j).name
                )),
                Some(_) => {}
            }
        }
    }
    let mut world = vec![DMat4::IDENTITY; n];
    let mut bones: Vec<Bone> = scene.bones().to_vec();
    let mut moved = 0usize;
    let mut worst = 0.0f64;
    for &b in scene.order() {
        let parent_world = scene.parent(b).map(|p| world[p]).unwrap_or(DMat4::IDENTITY);
        let scene_local = scene.bone(b).rest;
        let local = match bind_world[b] {
            None => scene_local,
            Some(w) => match decompose_matrix(&(parent_world.inverse() * w)) {
                Ok(t) => t,
                Err(problem) => {
                    warnings.push(format!(
                        "joint {:?}: bind pose cannot be used ({problem}); keeping the node transform",
                        scene.bone(b).name
                    ));
                    scene_local
                }
            },
        };
        let diff = (local.to_mat4() - scene_local.to_mat4())
            .to_cols_array()
            .iter()
            .fold(0.0f64, |a, v| a.max(v.abs()));
        if diff > SAME_POSE_TOLERANCE {
            moved += 1;
            worst = worst.max(diff);
        }
        world[b] = parent_world * local.to_mat4();
        bones[b].rest = local;
    }
    if moved > 0 {
        warnings.push(format!(
            "the file's node transforms are a posed scene, not the bind pose: {moved} joint(s) \
             differ (up to {worst:.3}); the rest pose is rebuilt from the inverse bind matrices \
             (the scene pose stays available as Character::scene_pose)"
        ));
    }
    // Same structure and validated transforms: construction cannot fail, but fall back to the
    // scene skeleton rather than panic if it ever does.
    Skeleton::new(bones).unwrap_or_else(|_| scene.clone())
}

/// Where skin `si`'s mesh sits in the bind pose (`world_from_mesh_bind`): at the root-most
/// joint's scene placement, unless the scene is posed there too (then at a candidate node,
/// with a warning).
fn bind_world_from_mesh(
    scene: &Skeleton,
    skin: &Skin,
    si: usize,
    scene_world: &[DAffine3],
    mesh_node: &[Option<usize>],
    warnings: &mut Vec<String>,
) -> DMat4 {
    let n = scene.len();
    // The root-most joint: the first with no joint among its ancestors. Computed in one
    // parents-first pass (O(nodes + joints)), not by walking up from every joint, which is
    // quadratic on deep hierarchies and long joint lists.
    let mut is_joint = vec![false; n];
    for &j in &skin.joints {
        is_joint[j] = true;
    }
    let mut joint_above = vec![false; n];
    for &b in scene.order() {
        if let Some(p) = scene.parent(b) {
            joint_above[b] = is_joint[p] || joint_above[p];
        }
    }
    let root = skin
        .joints
        .iter()
        .position(|&j| !joint_above[j])
        .unwrap_or(0);
    let root_joint = skin.joints[root];
    let from_root = DMat4::from(scene_world[root_joint]) * skin.inverse_bind[root];
    // Where the mesh can have been bound: at its node, or at the root joint's parent.
    let candidates: Vec<DMat4> = [
        mesh_node.get(si).copied().flatten(),
        scene.parent(root_joint),
    ]
    .into_iter()
    .map(|b| b.map_or(DMat4::IDENTITY, |b| DMat4::from(scene_world[b])))
    .collect();
    // A scene that is the bind pose keeps its root joint; a posed scene cannot be trusted
    // for the root joint either.
    let posed_scene = skin.joints.iter().enumerate().any(|(k, &j)| {
        !(from_root * skin.inverse_bind[k].inverse())
            .abs_diff_eq(DMat4::from(scene_world[j]), SAME_POSE_TOLERANCE)
    });
    if !posed_scene
        || candidates
            .iter()
            .any(|c| c.abs_diff_eq(from_root, SAME_POSE_TOLERANCE))
    {
        from_root
    } else {
        warnings.push(format!(
            "skins[{si}]: the scene is posed, the root joint {:?} too; the skin is placed \
             at its mesh node",
            scene.bone(root_joint).name
        ));
        candidates[0]
    }
}

/// The node transforms as authored, for [`super::Character::scene_pose`].
pub fn scene_locals(scene: &Skeleton) -> Vec<Transform> {
    scene.bones().iter().map(|b| b.rest).collect()
}
