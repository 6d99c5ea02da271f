//! glTF 2.0 import (`.glb`, `.gltf` with external or data-URI buffers and images) into plain
//! types built on the [`crate::rig`] core, plus CPU skinning.
//!
//! Every node becomes a bone (bone index = node index, see [`Character::node_to_bone`]), so
//! joints whose parents are armature or axis-correction nodes get correct world transforms.
//! Nothing in the file is trusted: lengths, indices and numbers are checked, and every failure
//! is a [`LoadError`] naming the file and the problem — the importer never panics on input.

mod accessor;
mod bind;
mod container;
mod error;
mod fbx;
mod fbx_mesh;
mod mesh;
mod nodes;
mod skinning;
mod vrm;

pub use container::SUPPORTED_REQUIRED_EXTENSIONS;
pub use error::LoadError;
pub use mesh::compute_normals;
pub use nodes::decompose_matrix;
pub use skinning::{skin_matrices, skin_matrices_f64, skin_matrices_into, skin_positions};

use crate::rig::Skeleton;
use glam::DMat4;
use std::path::{Path, PathBuf};

/// A decoded image, 8-bit RGBA, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// The part of a glTF material the viewer uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: Option<String>,
    /// Linear RGBA multiplier.
    pub base_color_factor: [f32; 4],
    /// Index into [`Character::images`] (the texture's image, sampled with `uvs`).
    pub base_color_texture: Option<usize>,
    /// glTF `doubleSided` (default false: back faces are culled).
    pub double_sided: bool,
}

/// One triangle-list primitive. All per-vertex vectors have `positions.len()` entries.
#[derive(Clone, Debug, PartialEq)]
pub struct Primitive {
    /// Bind-pose positions in the mesh's space.
    pub positions: Vec<[f32; 3]>,
    /// From the file, or area-weighted from the triangles when absent.
    pub normals: Vec<[f32; 3]>,
    pub uvs: Option<Vec<[f32; 2]>>,
    /// COLOR_0 as linear RGBA (vec3 colours get alpha 1).
    pub colors: Option<Vec<[f32; 4]>>,
    /// Indices into the skin's `joints` (not bone indices).
    pub joints: Option<Vec<[u16; 4]>>,
    /// Non-negative, summing to 1 per vertex.
    pub weights: Option<Vec<[f32; 4]>>,
    /// Triangle list (strips and fans are converted).
    pub indices: Vec<u32>,
    pub material: Material,
}

impl Primitive {
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }
}

/// One node that draws a mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinnedMesh {
    pub name: String,
    /// Bone index of the node holding the mesh.
    pub node: usize,
    /// Index of the glTF mesh (several nodes may share one).
    pub mesh: usize,
    /// Index into [`Character::skins`]; `None` for rigid meshes.
    pub skin: Option<usize>,
    pub primitives: Vec<Primitive>,
}

/// A glTF skin: joints as bone indices and their inverse bind matrices (same length).
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    pub name: String,
    pub joints: Vec<usize>,
    /// `joint_from_bind_world` per joint; identity when the file gives none.
    pub inverse_bind: Vec<DMat4>,
    /// Where the mesh sits in the bind pose: every skin matrix equals this in the rest pose.
    /// Identity for a skin without inverse bind matrices (its joints keep their node
    /// transforms, and the rest-pose skin matrices are the joints' world transforms).
    pub bind_world_from_mesh: DMat4,
}

/// Everything imported from one file.
#[derive(Clone, Debug)]
pub struct Character {
    pub source: PathBuf,
    /// All nodes as bones. Rest = the bind pose (joints rebuilt from the inverse bind
    /// matrices, other nodes as in the file), so skinning the rest pose gives the bind mesh.
    pub skeleton: Skeleton,
    /// The node transforms as written in the file (locals per bone), which may be a posed
    /// scene rather than the bind pose.
    pub scene_pose: Vec<crate::rig::Transform>,
    /// glTF node index → bone index.
    pub node_to_bone: Vec<usize>,
    pub skins: Vec<Skin>,
    pub meshes: Vec<SkinnedMesh>,
    pub images: Vec<RgbaImage>,
    /// Non-fatal findings (renormalised weights, skipped primitives, placeholder images …).
    pub warnings: Vec<String>,
    /// The humanoid the file declares (VRM), bones as bone indices; `None` when it declares
    /// none or its declaration is malformed (a warning says what is wrong).
    pub declared_humanoid: Option<crate::rig::DeclaredHumanoid>,
}

impl Character {
    pub fn vertex_count(&self) -> usize {
        self.meshes
            .iter()
            .flat_map(|m| &m.primitives)
            .map(|p| p.positions.len())
            .sum()
    }

    pub fn triangle_count(&self) -> usize {
        self.meshes
            .iter()
            .flat_map(|m| &m.primitives)
            .map(Primitive::triangle_count)
            .sum()
    }

    /// The file's node transforms as a refreshed pose of [`Character::skeleton`] (equal to
    /// the rest pose unless the file stores a posed scene; see the load warnings).
    pub fn posed_scene(&self) -> crate::rig::Pose {
        let mut pose = crate::rig::Pose::rest(&self.skeleton);
        for (bone, t) in self.scene_pose.iter().enumerate() {
            pose.set_local(bone, *t);
        }
        pose.refresh_all(&self.skeleton);
        pose
    }

    /// The humanoid map of this character: its declared humanoid (VRM) where it has one,
    /// names and topology for the rest, then `overrides` (see
    /// [`crate::rig::HumanoidMap::detect_declared`]).
    ///
    /// # Errors
    /// [`crate::rig::HumanoidError::UnknownBone`] when an override names a bone not here.
    pub fn humanoid(
        &self,
        overrides: &crate::rig::HumanoidOverride,
    ) -> Result<crate::rig::HumanoidMap, crate::rig::HumanoidError> {
        let rest = crate::rig::Pose::rest(&self.skeleton);
        crate::rig::HumanoidMap::detect_declared(
            &self.skeleton,
            &rest,
            self.declared_humanoid.as_ref(),
            overrides,
        )
    }

    /// The humanoid map with no overrides (see [`Character::humanoid`]).
    pub fn detect_humanoid(&self) -> crate::rig::HumanoidMap {
        // Without overrides nothing can name an unknown bone: the fallback never runs.
        self.humanoid(&crate::rig::HumanoidOverride::default())
            .unwrap_or_else(|_| {
                crate::rig::HumanoidMap::detect(
                    &self.skeleton,
                    &crate::rig::Pose::rest(&self.skeleton),
                )
            })
    }

    /// Every bone that is a joint of some skin.
    pub fn is_joint(&self, bone: usize) -> bool {
        self.skins.iter().any(|s| s.joints.contains(&bone))
    }
}

/// Loads a character file — `.glb`, `.gltf`, `.vrm`, or `.fbx` (binary or ASCII, told by
/// its content as well as its name) — into one [`Character`]; external resources resolve
/// next to it.
pub fn load(path: impl AsRef<Path>) -> Result<Character, LoadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    load_from_bytes(path, &bytes)
}

/// Loads from bytes already in memory; `path` names the file in errors and is where external
/// buffers and images are looked up.
///
/// The import runs behind a panic boundary: the JSON is checked first for every case known to
/// panic inside the `gltf` crate, and a panic from any other would still come back as
/// [`LoadError::Internal`] naming the file, never as a crash.
pub fn load_from_bytes(path: &Path, bytes: &[u8]) -> Result<Character, LoadError> {
    let import = |path: &Path, bytes: &[u8]| {
        if fbx::is_fbx(path, bytes) {
            fbx::import(path, bytes)
        } else {
            import(path, bytes)
        }
    };
    std::panic::catch_unwind(|| import(path, bytes)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(LoadError::Internal {
            path: path.to_path_buf(),
            problem: what,
        })
    })
}

fn import(path: &Path, bytes: &[u8]) -> Result<Character, LoadError> {
    let mut warnings = Vec::new();
    let container::Container {
        document,
        mut blob,
        vrm,
    } = container::parse(path, bytes)?;
    check_skin_sizes(path, &document)?;
    let buffers = container::load_buffers(path, &document, &mut blob)?;
    let (scene, node_to_bone) = nodes::build_skeleton(path, &document, &mut warnings)?;
    let mut skins = read_skins(path, &document, &buffers, &node_to_bone)?;
    let has_ibm: Vec<bool> = document
        .skins()
        .map(|s| s.inverse_bind_matrices().is_some())
        .collect();
    // The first mesh node of each skin: where the skinned mesh was meant to be when bound.
    let mut skin_mesh_node: Vec<Option<usize>> = vec![None; skins.len()];
    for node in document.nodes() {
        if let (Some(_), Some(s)) = (node.mesh(), node.skin())
            && let Some(slot) = skin_mesh_node.get_mut(s.index())
            && slot.is_none()
        {
            *slot = node_to_bone.get(node.index()).copied();
        }
    }
    let skeleton = bind::apply_bind_pose(
        &scene,
        &mut skins,
        &has_ibm,
        &skin_mesh_node,
        &[],
        &mut warnings,
    );
    let scene_pose = bind::scene_locals(&scene);
    let images = container::load_images(path, &document, &buffers, &mut warnings);

    let mut meshes = Vec::new();
    for node in document.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        let skin = node.skin().map(|s| s.index());
        let ctx = mesh::PrimitiveContext {
            path,
            buffers: &buffers,
            skin_joints: skin.map(|s| skins[s].joints.len()),
            image_count: images.len(),
        };
        let mut primitives = Vec::new();
        for prim in mesh.primitives() {
            if let Some(p) = mesh::read_primitive(&ctx, &mesh, &prim, &mut warnings)? {
                if skin.is_some() && p.joints.is_none() {
                    warnings.push(format!(
                        "nodes[{}]: skinned mesh {:?} primitive {} has no JOINTS_0/WEIGHTS_0; \
                         drawn rigidly with the node",
                        node.index(),
                        mesh.name().unwrap_or(""),
                        prim.index()
                    ));
                }
                primitives.push(p);
            }
        }
        meshes.push(SkinnedMesh {
            name: mesh
                .name()
                .or(node.name())
                .map(str::to_string)
                .unwrap_or_else(|| format!("mesh_{}", mesh.index())),
            node: node_to_bone[node.index()],
            mesh: mesh.index(),
            skin,
            primitives,
        });
    }
    let declared_humanoid = match vrm {
        Ok(declared) => declared.map(|d| crate::rig::DeclaredHumanoid {
            source: d.source,
            bones: d
                .bones
                .into_iter()
                .map(|(name, node)| (name, node_to_bone[node]))
                .collect(),
        }),
        Err(problem) => {
            warnings.push(format!(
                "the VRM humanoid declaration is not used ({problem}): the humanoid is found \
                 from names and shape"
            ));
            None
        }
    };
    Ok(Character {
        source: path.to_path_buf(),
        skeleton,
        scene_pose,
        node_to_bone,
        skins,
        meshes,
        images,
        warnings,
        declared_humanoid,
    })
}

/// Most joints one skin may have: vertex joint indices (JOINTS_n) are at most 16-bit, so a
/// skin with more joints cannot be addressed by its mesh. Larger skins are refused before
/// anything is allocated for them.
pub const MAX_SKIN_JOINTS: usize = 1 << 16;

/// Refuses skins over [`MAX_SKIN_JOINTS`] before the skeleton or any buffer is built.
fn check_skin_sizes(path: &Path, document: &gltf::Document) -> Result<(), LoadError> {
    for skin in document.skins() {
        let count = skin.joints().len();
        if count > MAX_SKIN_JOINTS {
            return Err(LoadError::Skin {
                path: path.to_path_buf(),
                skin: skin.index(),
                name: skin.name().unwrap_or("").to_string(),
                problem: format!(
                    "has {count} joints; at most {MAX_SKIN_JOINTS} are supported \
                     (vertex joint indices are at most 16-bit)"
                ),
            });
        }
    }
    Ok(())
}

fn read_skins(
    path: &Path,
    document: &gltf::Document,
    buffers: &[Vec<u8>],
    node_to_bone: &[usize],
) -> Result<Vec<Skin>, LoadError> {
    let mut skins = Vec::new();
    for skin in document.skins() {
        let name = skin.name().unwrap_or("").to_string();
        let fail = |problem: String| LoadError::Skin {
            path: path.to_path_buf(),
            skin: skin.index(),
            name: name.clone(),
            problem,
        };
        let joints: Vec<usize> = skin.joints().map(|j| node_to_bone[j.index()]).collect();
        if joints.is_empty() {
            return Err(fail("has no joints".to_string()));
        }
        let inverse_bind = match skin.inverse_bind_matrices() {
            None => vec![DMat4::IDENTITY; joints.len()],
            Some(acc) => {
                let usage = format!("skins[{}].inverseBindMatrices", skin.index());
                let d = accessor::decode(&acc, buffers).map_err(|problem| LoadError::Accessor {
                    path: path.to_path_buf(),
                    accessor: acc.index(),
                    usage: usage.clone(),
                    problem,
                })?;
                if d.components != 16 {
                    return Err(fail("inverseBindMatrices is not MAT4".to_string()));
                }
                if d.count < joints.len() {
                    return Err(fail(format!(
                        "inverseBindMatrices has {} matrices for {} joints",
                        d.count,
                        joints.len()
                    )));
                }
                let mut out = Vec::with_capacity(joints.len());
                for (j, &joint) in joints.iter().enumerate() {
                    let m = DMat4::from_cols_slice(d.element(j));
                    if !m.is_finite() {
                        return Err(fail(format!(
                            "inverseBindMatrices[{j}] (joint {:?}) contains NaN or infinity",
                            document
                                .nodes()
                                .nth(joint)
                                .and_then(|n| n.name())
                                .unwrap_or("")
                        )));
                    }
                    let det = m.determinant();
                    let scale = m.x_axis.truncate().length()
                        * m.y_axis.truncate().length()
                        * m.z_axis.truncate().length();
                    if det.abs() <= 1e-12 * scale.max(1e-300) || det.abs() < 1e-30 {
                        return Err(fail(format!(
                            "inverseBindMatrices[{j}] is not invertible (determinant {det:e})"
                        )));
                    }
                    out.push(m);
                }
                out
            }
        };
        skins.push(Skin {
            name,
            joints,
            inverse_bind,
            bind_world_from_mesh: DMat4::IDENTITY,
        });
    }
    Ok(skins)
}

#[cfg(test)]
mod tests;
