//! Which uploaded mesh is which: the character's primitives (skinned) and each prop's
//! primitives with their placement inside the prop.

use super::Props;
use crate::draw::{MeshData, MeshHandle, TextureData};
use crate::gltf_io::{Character, Primitive};
use crate::rig::Pose;
use glam::DAffine3;

/// Upload order and placement of every mesh of a stage.
#[derive(Clone, Debug, Default)]
pub struct MeshTable {
    /// (handle, skin index) of each skinned character primitive.
    skinned: Vec<(MeshHandle, usize)>,
    /// Per prop (rod, net, stool): (handle, object_from_mesh).
    props: [Vec<(MeshHandle, DAffine3)>; 3],
    /// The rod's mesh nodes, in [`MeshTable::rod`] order (its crank turns).
    rod_nodes: Vec<usize>,
    /// Character primitives without a skin, placed by their node's rest world transform.
    rigid_character: Vec<(MeshHandle, DAffine3)>,
    count: usize,
}

impl MeshTable {
    pub fn new(character: &Character, props: &Props) -> Self {
        let mut table = Self::default();
        let rest = Pose::rest(&character.skeleton);
        for mesh in &character.meshes {
            for _ in &mesh.primitives {
                let handle = table.next();
                match mesh.skin {
                    Some(skin) => table.skinned.push((handle, skin)),
                    None => table
                        .rigid_character
                        .push((handle, *rest.world_from_bone(mesh.node))),
                }
            }
        }
        for (slot, prop) in [&props.rod, &props.net, &props.stool]
            .into_iter()
            .enumerate()
        {
            let rest = Pose::rest(&prop.skeleton);
            for mesh in &prop.meshes {
                for _ in &mesh.primitives {
                    let handle = table.next();
                    table.props[slot].push((handle, *rest.world_from_bone(mesh.node)));
                    if slot == 0 {
                        table.rod_nodes.push(mesh.node);
                    }
                }
            }
        }
        table
    }

    fn next(&mut self) -> MeshHandle {
        let h = MeshHandle(self.count);
        self.count += 1;
        h
    }

    pub fn skinned(&self) -> impl Iterator<Item = (MeshHandle, usize)> + '_ {
        self.skinned.iter().copied()
    }

    /// Character primitives without a skin (placed by their node's rest transform).
    pub fn rigid_character(&self) -> &[(MeshHandle, DAffine3)] {
        &self.rigid_character
    }

    /// The rod's meshes placed by `rod_pose` (the rod's nodes with its crank turned, see
    /// [`super::Props::rod_pose`]) instead of its rest.
    pub fn rod_posed(&self, rod_pose: &Pose) -> Vec<(MeshHandle, DAffine3)> {
        self.props[0]
            .iter()
            .zip(&self.rod_nodes)
            .map(|(&(handle, _), &node)| (handle, *rod_pose.world_from_bone(node)))
            .collect()
    }

    pub fn net(&self) -> &[(MeshHandle, DAffine3)] {
        &self.props[1]
    }

    pub fn stool(&self) -> &[(MeshHandle, DAffine3)] {
        &self.props[2]
    }

    /// Mesh data in handle order (the order [`MeshTable::new`] assigned).
    pub fn mesh_data(&self, character: &Character, props: &Props) -> Vec<MeshData> {
        let mut out = Vec::with_capacity(self.count);
        for c in [character, &props.rod, &props.net, &props.stool] {
            for mesh in &c.meshes {
                for (k, p) in mesh.primitives.iter().enumerate() {
                    out.push(mesh_data_from_primitive(
                        c,
                        &format!("{}#{k}", mesh.name),
                        p,
                    ));
                }
            }
        }
        out
    }
}

/// Converts one imported primitive into renderer mesh data (texture decoded from the
/// character's images when the material has one).
pub fn mesh_data_from_primitive(character: &Character, name: &str, p: &Primitive) -> MeshData {
    let mut m = MeshData::new(name);
    m.positions = p.positions.clone();
    m.normals = p.normals.clone();
    m.uvs = p.uvs.clone().unwrap_or_default();
    m.colors = p.colors.clone().unwrap_or_default();
    m.joints = p.joints.clone().unwrap_or_default();
    m.weights = p.weights.clone().unwrap_or_default();
    m.indices = p.indices.clone();
    m.base_color = p.material.base_color_factor;
    m.double_sided = p.material.double_sided;
    m.texture = p
        .material
        .base_color_texture
        .and_then(|i| character.images.get(i))
        .filter(|_| !m.uvs.is_empty())
        .map(|img| TextureData {
            width: img.width,
            height: img.height,
            rgba8: img.rgba.clone(),
        });
    m
}
