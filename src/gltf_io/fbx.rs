//! FBX characters (issue 35), read by ufbx (bindings to the ufbx C library: binary and ASCII
//! FBX 6.1–7.7, skin clusters with their bind matrices, unit and axis conversion) into the
//! same [`Character`] a glTF file gives, so everything downstream works on it unchanged.
//!
//! ufbx converts the file to metres, right-handed and Y up (from the file's own unit scale
//! and axis system), bakes geometric transforms into the vertices and compensates scale
//! inheritance modes glTF cannot express. The scene's root node is not a bone: each top-level
//! node's local transform is its world transform. The rest pose is then built from the skin
//! clusters' bind matrices exactly as a glTF skin's inverse bind matrices give it
//! ([`super::bind::apply_bind_pose`]), so a file saved in a pose other than its bind pose
//! still skins as bound.

use super::bind;
use super::fbx_mesh::{self, MeshInput};
use super::nodes::decompose_matrix;
use super::{Character, LoadError, Skin, SkinnedMesh};
use crate::rig::{Bone, Skeleton, Transform};
use glam::{DMat4, DQuat, DVec3, DVec4};
use std::collections::HashMap;
use std::path::Path;

/// True when `bytes` are an FBX file: its binary header ("Kaydara FBX Binary"), an ASCII FBX
/// header near the top, or a `.fbx` name — unless the bytes are plainly glTF (the GLB magic,
/// or JSON), which is read as glTF whatever the name says.
pub fn is_fbx(path: &Path, bytes: &[u8]) -> bool {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if bytes.starts_with(b"glTF") || first == Some(&b'{') {
        return false;
    }
    let named = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("fbx"));
    let binary = bytes.starts_with(b"Kaydara FBX Binary");
    let head = &bytes[..bytes.len().min(4096)];
    let ascii = head.starts_with(b"; FBX")
        || head
            .windows(b"FBXHeaderExtension".len())
            .any(|w| w == b"FBXHeaderExtension");
    named || binary || ascii
}

/// Imports an FBX file already in memory; `path` names it in errors and is where textures
/// that are not embedded are looked up.
pub fn import(path: &Path, bytes: &[u8]) -> Result<Character, LoadError> {
    let fail = |problem: String| LoadError::Fbx {
        path: path.to_path_buf(),
        problem,
    };
    let filename = path.to_string_lossy();
    let opts = ufbx::LoadOpts {
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        space_conversion: ufbx::SpaceConversion::ModifyGeometry,
        geometry_transform_handling: ufbx::GeometryTransformHandling::ModifyGeometry,
        inherit_mode_handling: ufbx::InheritModeHandling::Compensate,
        generate_missing_normals: true,
        ignore_animation: true,
        filename: filename.as_ref().into(),
        ..Default::default()
    };
    let scene = ufbx::load_memory(bytes, opts).map_err(|e| fail(describe(&e)))?;
    let mut warnings = Vec::new();

    // Bones: every node but the scene's root (any order: the skeleton sorts parents first).
    let root_id = scene.root_node.element.element_id;
    let mut bone_of: HashMap<u32, usize> = HashMap::new();
    let mut nodes: Vec<&ufbx::Node> = Vec::new();
    for node in scene.nodes.iter() {
        if node.is_root || node.element.element_id == root_id {
            continue;
        }
        bone_of.insert(node.element.element_id, nodes.len());
        nodes.push(node);
    }
    if nodes.is_empty() {
        return Err(fail("the scene has no nodes (not a character)".into()));
    }
    let mut bones = Vec::with_capacity(nodes.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (b, node) in nodes.iter().enumerate() {
        let mut name = node.element.name.to_string();
        if name.is_empty() {
            name = format!("node_{b}");
        }
        if let Some(first) = seen.insert(name.clone(), b) {
            warnings.push(format!(
                "nodes {b} and {first} share the name {name:?}; lookups by name find the first"
            ));
        }
        let parent = node
            .parent
            .as_ref()
            .and_then(|p| bone_of.get(&p.element.element_id).copied());
        let local_matrix = if parent.is_some() {
            &node.node_to_parent
        } else {
            &node.node_to_world
        };
        let rest = match decompose_matrix(&mat4(local_matrix)) {
            Ok(t) => t,
            Err(problem) => {
                warnings.push(format!(
                    "node {name:?}: its transform cannot be a bone's ({problem}); its \
                     translation, rotation and scale are used as the file states them"
                ));
                transform(&node.local_transform)
            }
        };
        bones.push(Bone { name, parent, rest });
    }
    let scene_skeleton = Skeleton::new(bones).map_err(|e| fail(e.to_string()))?;

    // Skins: one per mesh node with a skin deformer, its joints the clusters' bones.
    let mut skins: Vec<Skin> = Vec::new();
    let mut skin_mesh_node: Vec<Option<usize>> = Vec::new();
    let mut stated: Vec<Option<DMat4>> = Vec::new();
    let mut inputs: Vec<MeshInput> = Vec::new();
    for (b, node) in nodes.iter().enumerate() {
        let Some(mesh) = node.mesh.as_ref() else {
            continue;
        };
        let skin = match mesh.skin_deformers.iter().next() {
            Some(deformer) => {
                if mesh.skin_deformers.len() > 1 {
                    warnings.push(format!(
                        "mesh {:?}: {} skin deformers; the first is used",
                        mesh.element.name,
                        mesh.skin_deformers.len()
                    ));
                }
                let (skin, cluster_joint, bound) = read_skin(deformer, &bone_of, &mut warnings);
                if skin.joints.is_empty() {
                    warnings.push(format!(
                        "mesh {:?}: its skin has no bone in the scene; drawn rigidly with its node",
                        mesh.element.name
                    ));
                    None
                } else {
                    skins.push(skin);
                    stated.push(bound);
                    skin_mesh_node.push(Some(b));
                    Some((skins.len() - 1, &**deformer, cluster_joint))
                }
            }
            None => None,
        };
        inputs.push(MeshInput {
            node_bone: b,
            node,
            node_from_geometry: mat4(&node.geometry_to_node),
            mesh,
            skin,
        });
    }
    let has_ibm = vec![true; skins.len()];
    let skeleton = bind::apply_bind_pose(
        &scene_skeleton,
        &mut skins,
        &has_ibm,
        &skin_mesh_node,
        &stated,
        &mut warnings,
    );
    let scene_pose = bind::scene_locals(&scene_skeleton);

    let mut images = Vec::new();
    let mut image_of: HashMap<u32, Option<usize>> = HashMap::new();
    let mut meshes: Vec<SkinnedMesh> = Vec::new();
    for (m, input) in inputs.iter().enumerate() {
        let primitives =
            fbx_mesh::primitives(path, input, &mut images, &mut image_of, &mut warnings);
        if primitives.is_empty() {
            continue;
        }
        meshes.push(SkinnedMesh {
            name: nonempty(&input.mesh.element.name)
                .or_else(|| nonempty(&input.node.element.name))
                .unwrap_or_else(|| format!("mesh_{m}")),
            node: input.node_bone,
            mesh: input.mesh.element.typed_id as usize,
            skin: input.skin.as_ref().map(|s| s.0),
            primitives,
        });
    }
    let node_to_bone = (0..nodes.len()).collect();
    Ok(Character {
        source: path.to_path_buf(),
        skeleton,
        scene_pose,
        node_to_bone,
        skins,
        meshes,
        images,
        warnings,
        declared_humanoid: None,
    })
}

/// A skin deformer's joints (its clusters' bone nodes, as bones) and their inverse bind
/// matrices (mesh node → bone at bind time); per cluster its joint (`None` for a cluster
/// without a bone, whose weights are dropped with a warning); and where the mesh node sat at
/// bind time, as the first cluster states it (`bind_to_world × mesh_node_to_bone`).
fn read_skin(
    deformer: &ufbx::SkinDeformer,
    bone_of: &HashMap<u32, usize>,
    warnings: &mut Vec<String>,
) -> (Skin, Vec<Option<u16>>, Option<DMat4>) {
    let mut joints = Vec::new();
    let mut inverse_bind = Vec::new();
    let mut cluster_joint = Vec::with_capacity(deformer.clusters.len());
    let mut bound = None;
    for cluster in deformer.clusters.iter() {
        let bone = cluster
            .bone_node
            .as_ref()
            .and_then(|n| bone_of.get(&n.element.element_id).copied());
        match bone {
            Some(bone) if joints.len() < usize::from(u16::MAX) => {
                if bound.is_none() {
                    bound = Some(mat4(&cluster.bind_to_world) * mat4(&cluster.mesh_node_to_bone));
                }
                cluster_joint.push(Some(joints.len() as u16));
                joints.push(bone);
                inverse_bind.push(mat4(&cluster.mesh_node_to_bone));
            }
            _ => {
                warnings.push(format!(
                    "skin {:?}: cluster {:?} has no bone in the scene; its weights are dropped",
                    deformer.element.name, cluster.element.name
                ));
                cluster_joint.push(None);
            }
        }
    }
    let skin = Skin {
        name: deformer.element.name.to_string(),
        joints,
        inverse_bind,
        bind_world_from_mesh: DMat4::IDENTITY,
    };
    (skin, cluster_joint, bound)
}

/// ufbx's error: its description ("Truncated file", "Not an FBX file" …) and, where it
/// gives one, the detail.
fn describe(e: &ufbx::Error) -> String {
    let info = e.info();
    if info.is_empty() {
        e.description.to_string()
    } else {
        format!("{}: {info}", e.description)
    }
}

fn nonempty(s: &ufbx::String) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

/// An affine ufbx matrix (columns 0–2 the axes, column 3 the translation) as a `DMat4`.
fn mat4(m: &ufbx::Matrix) -> DMat4 {
    DMat4::from_cols(
        DVec4::new(m.m00, m.m10, m.m20, 0.0),
        DVec4::new(m.m01, m.m11, m.m21, 0.0),
        DVec4::new(m.m02, m.m12, m.m22, 0.0),
        DVec4::new(m.m03, m.m13, m.m23, 1.0),
    )
}

fn transform(t: &ufbx::Transform) -> Transform {
    let r = t.rotation;
    Transform::new(
        DVec3::new(t.translation.x, t.translation.y, t.translation.z),
        DQuat::from_xyzw(r.x, r.y, r.z, r.w).normalize(),
        DVec3::new(t.scale.x, t.scale.y, t.scale.z),
    )
}
