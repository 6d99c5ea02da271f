//! Assembling `angler.glb`: joints as a node hierarchy, one skin, one skinned mesh with a
//! primitive per meshed region (body, head, left hand, right hand).

use super::body::{BodyRegion, body, hand, head};
use super::glb::{GlbBuilder, SkinAttributes};
use super::mesher::{TriMesh, mesh_field};
use super::simplify::{MAX_SURFACE_ERROR, simplify_part};
use super::skeleton::{Joint, angler_joints};
use super::skinning::skin_weights;
use glam::{DAffine3, DMat4};

/// One skinned primitive of the angler.
pub struct AnglerPart {
    pub name: &'static str,
    pub mesh: TriMesh,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
}

/// The skeleton and its skinned primitives, in file order.
pub fn angler_parts() -> (Vec<Joint>, Vec<AnglerPart>) {
    let joints = angler_joints();
    let regions: Vec<BodyRegion> = vec![
        body(&joints),
        head(&joints),
        hand(&joints, "L"),
        hand(&joints, "R"),
    ];
    let parts = regions
        .into_iter()
        .map(|r| {
            let mesh = mesh_field(&r.field, &r.region, r.colour_sigma);
            let (j, w) = skin_weights(
                &joints,
                &r.joints,
                &mesh,
                &r.field,
                r.region.voxel,
                r.skin_blend,
            );
            let (mesh, j, w) = simplify_part(&mesh, &j, &w, MAX_SURFACE_ERROR);
            AnglerPart {
                name: r.name,
                mesh,
                joints: j,
                weights: w,
            }
        })
        .collect();
    (joints, parts)
}

/// Column-major `f32` inverse bind matrix of a joint (inverse of its rest world matrix).
fn inverse_bind(j: &Joint) -> [f32; 16] {
    let world = DAffine3::from_rotation_translation(j.rotation, j.head);
    DMat4::from(world.inverse())
        .to_cols_array()
        .map(|x| x as f32)
}

/// The complete `angler.glb`.
pub fn angler_glb() -> Vec<u8> {
    let (joints, parts) = angler_parts();
    let mut glb = GlbBuilder::default();
    let nodes: Vec<usize> = joints
        .iter()
        .map(|j| {
            let t = j.local_translation(&joints);
            let r = j.local_rotation(&joints);
            glb.node(&j.name, t.to_array(), [r.x, r.y, r.z, r.w])
        })
        .collect();
    for (i, _) in joints.iter().enumerate() {
        let children: Vec<usize> = joints
            .iter()
            .enumerate()
            .filter(|(_, c)| c.parent == Some(i))
            .map(|(k, _)| nodes[k])
            .collect();
        glb.set_children(nodes[i], &children);
    }
    let primitives = parts
        .iter()
        .map(|p| {
            let skin = SkinAttributes {
                joints: &p.joints,
                weights: &p.weights,
            };
            glb.primitive(&p.mesh, Some(skin))
        })
        .collect();
    let mesh = glb.mesh("angler", primitives);
    let ibm: Vec<[f32; 16]> = joints.iter().map(inverse_bind).collect();
    let skin = glb.skin("angler", &nodes, &ibm, nodes[0]);
    let mesh_node = glb.node("angler", [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
    glb.set_mesh(mesh_node, mesh, Some(skin));
    glb.scene_root(nodes[0]);
    glb.scene_root(mesh_node);
    glb.finish()
}
