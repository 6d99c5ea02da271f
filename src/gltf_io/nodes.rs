//! Node hierarchy → [`Skeleton`]: every node becomes a bone (bone index = node index), so
//! joints whose parents are not joints (armature nodes, Z-up corrections) still get the right
//! world transforms.

use super::LoadError;
use crate::rig::{Bone, Skeleton, SkeletonError, Transform};
use glam::{DAffine3, DMat3, DMat4, DQuat, DVec3};
use std::path::Path;

/// Relative tolerance for "this matrix has no shear".
const SHEAR_TOLERANCE: f64 = 1e-4;
/// Zero scale components are replaced by this (with a warning), since a bone needs an inverse.
const MIN_SCALE: f64 = 1e-6;

pub fn node_name(node: &gltf::Node) -> String {
    match node.name() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("node_{}", node.index()),
    }
}

/// Scales decomposed from `f32` matrices differ from uniform (and from 1) by rounding noise
/// (~1e-7), which would make bone lengths drift as IK rotates the bones under them. Scales
/// uniform within 1e-5 become exactly uniform, and then exactly 1 when within 1e-5 of it.
fn snap_scale(scale: DVec3) -> DVec3 {
    let mean = (scale.x + scale.y + scale.z) / 3.0;
    if (scale - DVec3::splat(mean)).abs().max_element() > 1e-5 * mean {
        return scale;
    }
    if (mean - 1.0).abs() <= 1e-5 {
        DVec3::ONE
    } else {
        DVec3::splat(mean)
    }
}

/// Decomposes a node matrix into TRS. Errors (as text) on non-finite values, a projective
/// bottom row, a non-positive determinant (mirroring or collapse) or shear.
pub fn decompose_matrix(m: &DMat4) -> Result<Transform, String> {
    if !m.is_finite() {
        return Err("matrix contains NaN or infinity".to_string());
    }
    let row3 = m.row(3);
    if (row3 - glam::DVec4::new(0.0, 0.0, 0.0, 1.0))
        .abs()
        .max_element()
        > 1e-6
    {
        return Err(format!("matrix is not affine (bottom row {row3:?})"));
    }
    let affine = DAffine3::from_mat4(*m);
    let linear = affine.matrix3;
    let det = linear.determinant();
    if det <= 0.0 || !det.is_finite() {
        return Err(format!(
            "matrix has determinant {det} (negative scale / mirroring or collapse is not supported)"
        ));
    }
    let scale = DVec3::new(
        linear.x_axis.length(),
        linear.y_axis.length(),
        linear.z_axis.length(),
    );
    let rot = DMat3::from_cols(
        linear.x_axis / scale.x,
        linear.y_axis / scale.y,
        linear.z_axis / scale.z,
    );
    let rotation = DQuat::from_mat3(&rot).normalize();
    let t = Transform::new(affine.translation, rotation, snap_scale(scale));
    let rebuilt = t.to_affine().matrix3;
    let err = (rebuilt - linear)
        .to_cols_array()
        .iter()
        .fold(0.0f64, |a, v| a.max(v.abs()));
    if err > SHEAR_TOLERANCE * scale.max_element() {
        return Err(format!(
            "matrix has shear (TRS rebuild differs by {err:.3e}); shear is not supported"
        ));
    }
    Ok(t)
}

fn node_transform(node: &gltf::Node, warnings: &mut Vec<String>) -> Result<Transform, String> {
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let cols = matrix.map(|c| c.map(f64::from));
            decompose_matrix(&DMat4::from_cols_array_2d(&cols))
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => {
            let t = DVec3::from_array(translation.map(f64::from));
            let r = rotation.map(f64::from);
            let q = DQuat::from_xyzw(r[0], r[1], r[2], r[3]);
            let mut s = DVec3::from_array(scale.map(f64::from));
            if !t.is_finite() || !q.is_finite() || !s.is_finite() {
                return Err("translation/rotation/scale contains NaN or infinity".to_string());
            }
            let len = q.length();
            if len < 1e-6 {
                return Err("rotation quaternion has zero length".to_string());
            }
            if (len - 1.0).abs() > 1e-3 {
                warnings.push(format!(
                    "nodes[{}] ({:?}): rotation quaternion has length {len:.4}; normalised",
                    node.index(),
                    node_name(node)
                ));
            }
            if s.min_element() < 0.0 {
                return Err(format!(
                    "negative scale {:?} (mirroring) is not supported",
                    s.to_array()
                ));
            }
            if s.min_element() == 0.0 {
                warnings.push(format!(
                    "nodes[{}] ({:?}): zero scale component replaced by {MIN_SCALE}",
                    node.index(),
                    node_name(node)
                ));
                s = s.max(DVec3::splat(MIN_SCALE));
            }
            Ok(Transform::new(t, q / len, s))
        }
    }
}

/// Builds the skeleton from all nodes. Detects nodes with two parents and cycles without
/// recursion. Returns the skeleton and the node → bone map (identity).
pub fn build_skeleton(
    path: &Path,
    document: &gltf::Document,
    warnings: &mut Vec<String>,
) -> Result<(Skeleton, Vec<usize>), LoadError> {
    let nodes: Vec<gltf::Node> = document.nodes().collect();
    let mut parent: Vec<Option<usize>> = vec![None; nodes.len()];
    for node in &nodes {
        for child in node.children() {
            let c = child.index();
            if c == node.index() {
                return Err(LoadError::NodeCycle {
                    path: path.to_path_buf(),
                    node: c,
                    name: node_name(node),
                });
            }
            if let Some(p) = parent[c] {
                return Err(LoadError::Node {
                    path: path.to_path_buf(),
                    node: c,
                    name: node_name(&child),
                    problem: format!(
                        "is a child of both nodes[{p}] and nodes[{}] (a node may have one parent; \
                         this is also how cycles show up)",
                        node.index()
                    ),
                });
            }
            parent[c] = Some(node.index());
        }
    }
    let mut bones = Vec::with_capacity(nodes.len());
    let mut seen = std::collections::HashMap::new();
    for node in &nodes {
        let name = node_name(node);
        if let Some(first) = seen.insert(name.clone(), node.index()) {
            warnings.push(format!(
                "nodes[{}] and nodes[{first}] share the name {name:?}; lookups by name find the first",
                node.index()
            ));
        }
        let rest = node_transform(node, warnings).map_err(|problem| LoadError::Node {
            path: path.to_path_buf(),
            node: node.index(),
            name: name.clone(),
            problem,
        })?;
        bones.push(Bone {
            name,
            parent: parent[node.index()],
            rest,
        });
    }
    let skeleton = Skeleton::new(bones).map_err(|e| match e {
        SkeletonError::Cycle { bone, name } => LoadError::NodeCycle {
            path: path.to_path_buf(),
            node: bone,
            name,
        },
        other => LoadError::Node {
            path: path.to_path_buf(),
            node: match &other {
                SkeletonError::ParentOutOfRange { bone, .. }
                | SkeletonError::NonFinite { bone, .. }
                | SkeletonError::BadScale { bone, .. } => *bone,
                SkeletonError::Cycle { bone, .. } => *bone,
            },
            name: String::new(),
            problem: other.to_string(),
        },
    })?;
    let node_to_bone = (0..nodes.len()).collect();
    Ok((skeleton, node_to_bone))
}
