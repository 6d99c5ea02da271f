//! The posed character as a glTF 2.0 binary: every node of the character with the solved
//! local transforms (the actor placement folded into the roots), its meshes and skins, and the
//! rod, net and stool as rigid node trees placed by the session frames. Written with the
//! deterministic [`crate::assetgen::glb`] writer. Pure: returns bytes.
//!
//! Materials: the base colour factor is multiplied into the vertex colours; a primitive with
//! a base-colour texture and TEXCOORD_0 keeps both (the image re-encoded losslessly as PNG,
//! so JPEG sources grow but read back to the same pixels). Other material properties (normal,
//! metallic-roughness, emissive maps) are not exported. Node scales are kept.

use super::export_tackle;
use crate::assetgen::glb::{GlbBuilder, PrimitiveLook, SkinAttributes};
use crate::assetgen::mesher::TriMesh;
use crate::gltf_io::{Character, RgbaImage};
use crate::rig::{Pose, Transform};
use crate::stage::Stage;
use glam::{DAffine3, DVec3};
use thiserror::Error;

/// Why the posed GLB could not be written.
#[derive(Debug, Error, PartialEq)]
pub enum ExportError {
    /// The stage has no evaluation yet ([`Stage::update`] was never called).
    #[error("the stage has not been posed (call Stage::update first)")]
    NotPosed,
    /// A node's local transform is non-finite, or a translation or scale is beyond `f32`.
    #[error("{object}: node {node} ({name:?}) has a non-finite transform (or one beyond f32)")]
    NonFinite {
        /// `character`, `rod`, `net` or `stool`.
        object: String,
        /// The bone's index in that object's skeleton.
        node: usize,
        /// The bone's name.
        name: String,
    },
    /// A base-colour image could not be encoded as PNG (e.g. its size does not match its
    /// pixel data).
    #[error("{object}: image {image} could not be encoded as PNG: {problem}")]
    Image {
        /// `character`, `rod`, `net` or `stool`.
        object: String,
        /// The image's index in that object's file.
        image: usize,
        /// The encoder's message.
        problem: String,
    },
}

const SCALE_TOLERANCE: f64 = 1e-6;

/// The posed GLB of `stage` (its current pose and session frames).
///
/// # Errors
/// [`ExportError::NotPosed`] before the first [`Stage::update`], [`ExportError::NonFinite`]
/// for a transform that cannot be written and [`ExportError::Image`] for a bad image.
pub fn posed_glb(stage: &Stage) -> Result<Vec<u8>, ExportError> {
    Ok(posed_builder(stage)?.0.finish())
}

/// Where [`posed_builder`] put the animated nodes: character bone `b` is node
/// `character[b]`; the rod and net holders carry the session frames.
pub(crate) struct ExportNodes {
    pub character: Vec<usize>,
    pub rod: usize,
    pub net: usize,
    /// The rod's turning crank node ([`crate::stage::Props::rod_crank`]), if it has one.
    pub rod_crank: Option<usize>,
    /// The rod's bend chain joints, first to tip (empty for a rod with no blank to bend).
    pub rod_bend: Vec<usize>,
    /// The line's point nodes, tip first (empty without a tackle).
    pub line: Vec<usize>,
}

/// The posed file as a builder (so animations can be added) and its node layout.
pub(crate) fn posed_builder(stage: &Stage) -> Result<(GlbBuilder, ExportNodes), ExportError> {
    let eval = stage.evaluation().ok_or(ExportError::NotPosed)?;
    let world_from_actor = stage.world_from_actor.to_affine();
    let mut glb = GlbBuilder::default();
    let (character_roots, character, _) = add_object(
        &mut glb,
        &stage.character,
        &stage.pose,
        world_from_actor,
        "character",
        None,
    )?;
    for root in character_roots {
        glb.scene_root(root);
    }
    let props = [
        (
            "rod",
            &stage.props.rod,
            world_from_actor * eval.frames.actor_from_rod.to_affine(),
        ),
        (
            "net",
            &stage.props.net,
            world_from_actor * eval.frames.actor_from_net.to_affine(),
        ),
        (
            "stool",
            &stage.props.stool,
            world_from_actor * stage.actor.fit.actor_from_stool.to_affine(),
        ),
    ];
    let mut holders = Vec::new();
    let mut rod_crank = None;
    let mut rod_bend = Vec::new();
    for (name, object, placement) in props {
        let t = holder_transform(&placement);
        let holder = glb.node(name, t.translation.to_array(), t.rotation.to_array());
        // The rod's crank turned as the session has it; the others at their rest.
        let rest = if name == "rod" {
            stage.props.rod_pose(&eval.frames)
        } else {
            Pose::rest(&object.skeleton)
        };
        // Holders are rigid; a scale (the stool fitted to the body) goes into the roots.
        let inner = if name == "stool" {
            t.to_affine().inverse() * placement
        } else {
            DAffine3::IDENTITY
        };
        let chain = if name == "rod" {
            export_tackle::stage_bend(stage).map(|b| {
                export_tackle::add_bend_chain(
                    &mut glb,
                    &b,
                    holder,
                    &stage.props.rod_guides,
                    stage.props.rod_reel_exit,
                )
            })
        } else {
            None
        };
        let (mut roots, object_nodes, bent) =
            add_object(&mut glb, object, &rest, inner, name, chain.as_ref())?;
        if name == "rod" {
            rod_crank = stage.props.rod_crank.map(|b| object_nodes[b]);
        }
        if let Some(chain) = chain {
            roots.extend(&chain.joints);
            rod_bend = chain.joints;
        }
        glb.set_children(holder, &roots);
        glb.scene_root(holder);
        holders.push(holder);
        for (mesh_name, mesh, skin) in bent {
            let node = glb.node(&format!("{mesh_name}_bent"), [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
            glb.set_mesh(node, mesh, Some(skin));
            glb.scene_root(node);
        }
    }
    let line = export_tackle::add_line(&mut glb, stage);
    let nodes = ExportNodes {
        character,
        rod: holders[0],
        net: holders[1],
        rod_crank,
        rod_bend,
        line,
    };
    Ok((glb, nodes))
}

/// A root bone's local as the file holds it: `parent_from_actor` folded in.
pub(crate) fn folded_root(parent_from_actor: &DAffine3, local: &Transform) -> Transform {
    Transform::from_affine(&(*parent_from_actor * local.to_affine()))
}

/// A prop holder node's transform for `placement`: its translation and rotation (holders
/// carry no scale).
pub(crate) fn holder_transform(placement: &DAffine3) -> Transform {
    let t = Transform::from_affine(placement);
    Transform::new(t.translation, t.rotation, DVec3::ONE)
}

/// The meshes [`add_object`] skinned on the rod's bend chain: (mesh name, mesh, skin), each
/// to be carried by its own node at the scene root.
type BentMeshes = Vec<(String, usize, usize)>;

/// Adds every node of `object` with the locals of `pose` (roots get `parent_from_actor`
/// folded in), its meshes and skins. With `bend` (the rod), every mesh that reaches past the
/// bend's start is skinned on the chain instead of hanging on its node (see
/// [`export_tackle`]). Returns the root nodes, every bone's node and those bent meshes.
fn add_object(
    glb: &mut GlbBuilder,
    object: &Character,
    pose: &Pose,
    parent_from_actor: DAffine3,
    label: &str,
    bend: Option<&export_tackle::BendNodes>,
) -> Result<(Vec<usize>, Vec<usize>, BentMeshes), ExportError> {
    let skel = &object.skeleton;
    let mut nodes = Vec::with_capacity(skel.len());
    let mut roots = Vec::new();
    for (b, bone) in skel.bones().iter().enumerate() {
        let mut local = *pose.local(b);
        if bone.parent.is_none() {
            local = folded_root(&parent_from_actor, &local);
            roots.push(b);
        }
        // f32 in the file: a value beyond its range would be written as infinity.
        let in_f32 = |v: DVec3| v.abs().max_element() <= f64::from(f32::MAX);
        if !local.is_finite() || !in_f32(local.translation) || !in_f32(local.scale) {
            return Err(ExportError::NonFinite {
                object: label.to_string(),
                node: b,
                name: bone.name.clone(),
            });
        }
        let r = local.rotation.normalize();
        let node = glb.node(&bone.name, local.translation.to_array(), r.to_array());
        if (local.scale - DVec3::ONE).abs().max_element() > SCALE_TOLERANCE {
            glb.set_scale(node, local.scale.to_array());
        }
        nodes.push(node);
    }
    for b in 0..skel.len() {
        let children: Vec<usize> = skel.children(b).iter().map(|&c| nodes[c]).collect();
        glb.set_children(nodes[b], &children);
    }
    let skins: Vec<usize> = object
        .skins
        .iter()
        .map(|skin| {
            let joints: Vec<usize> = skin.joints.iter().map(|&j| nodes[j]).collect();
            let ibm: Vec<[f32; 16]> = skin
                .inverse_bind
                .iter()
                .map(|m| m.to_cols_array().map(|v| v as f32))
                .collect();
            let mut top = skin.joints.first().copied().unwrap_or(0);
            while let Some(p) = skel.parent(top) {
                top = p;
            }
            glb.skin(&skin.name, &joints, &ibm, nodes[top])
        })
        .collect();
    // One textured material per image, added when a primitive first uses it.
    let mut image_materials: Vec<Option<usize>> = vec![None; object.images.len()];
    let rest = Pose::rest(skel);
    let mut bent = Vec::new();
    for mesh in &object.meshes {
        let mut skin = mesh.skin.and_then(|s| skins.get(s).copied());
        // The rod's meshes past the bend's start: weights on the chain.
        let rod_from_mesh = *rest.world_from_bone(mesh.node);
        let on_chain: Option<Vec<_>> = bend.filter(|_| skin.is_none()).and_then(|b| {
            let w: Vec<_> = mesh
                .primitives
                .iter()
                .map(|p| b.chain.skin(&p.positions, &rod_from_mesh))
                .collect();
            w.iter().any(|s| s.bends).then_some(w)
        });
        if let (Some(b), Some(_)) = (bend, &on_chain) {
            let ibm = export_tackle::bend_inverse_binds(&b.chain, &rod_from_mesh);
            skin = Some(glb.skin(&format!("{}_bend", mesh.name), &b.joints, &ibm, b.holder));
        }
        let mut primitives = Vec::new();
        for (k, prim) in mesh.primitives.iter().enumerate() {
            let chain_attrs = on_chain.as_ref().map(|w| SkinAttributes {
                joints: &w[k].joints,
                weights: &w[k].weights,
            });
            let attrs = match (&prim.joints, &prim.weights) {
                _ if chain_attrs.is_some() => chain_attrs,
                (Some(j), Some(w)) if skin.is_some() => Some(SkinAttributes {
                    joints: j,
                    weights: w,
                }),
                // A skinned node's primitives all need joints and weights.
                _ if skin.is_some() => continue,
                _ => None,
            };
            let mut look = PrimitiveLook::default();
            if let (Some(uvs), Some(image)) = (&prim.uvs, prim.material.base_color_texture)
                && let Some(slot) = image_materials.get_mut(image)
            {
                let material = match *slot {
                    Some(m) => m,
                    None => {
                        let png = encode_png(&object.images[image]).map_err(|problem| {
                            ExportError::Image {
                                object: label.to_string(),
                                image,
                                problem,
                            }
                        })?;
                        let name = (prim.material.name.clone())
                            .unwrap_or_else(|| format!("{label}_image{image}"));
                        *slot.insert(glb.textured_material(&name, &png))
                    }
                };
                look = PrimitiveLook {
                    uvs: Some(uvs),
                    material: Some(material),
                };
            }
            primitives.push(glb.primitive_with(&tri_mesh(prim), attrs, look));
        }
        if primitives.is_empty() {
            continue;
        }
        let m = glb.mesh(&mesh.name, primitives);
        match (on_chain, skin) {
            (Some(_), Some(s)) => bent.push((mesh.name.clone(), m, s)),
            _ => glb.set_mesh(nodes[mesh.node], m, skin),
        }
    }
    let roots = roots.into_iter().map(|b| nodes[b]).collect();
    Ok((roots, nodes, bent))
}

/// Lossless PNG of an imported image (8-bit RGBA).
fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, String> {
    let buffer = image::RgbaImage::from_raw(img.width, img.height, img.rgba.clone())
        .ok_or_else(|| format!("{}×{} does not match its pixel data", img.width, img.height))?;
    let mut png = std::io::Cursor::new(Vec::new());
    buffer
        .write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(png.into_inner())
}

fn tri_mesh(prim: &crate::gltf_io::Primitive) -> TriMesh {
    let f = prim.material.base_color_factor;
    let colours = match &prim.colors {
        Some(c) => c
            .iter()
            .map(|c| [c[0] * f[0], c[1] * f[1], c[2] * f[2]])
            .collect(),
        None => vec![[f[0], f[1], f[2]]; prim.positions.len()],
    };
    TriMesh {
        positions: prim
            .positions
            .iter()
            .map(|p| glam::Vec3::from(*p).as_dvec3())
            .collect(),
        normals: prim
            .normals
            .iter()
            .map(|n| glam::Vec3::from(*n).as_dvec3())
            .collect(),
        colours,
        indices: prim.indices.clone(),
    }
}
