//! Which uploaded mesh is which: the character's primitives (skinned) and each prop's
//! primitives with their placement inside the prop.

use super::Props;
use crate::draw::{MeshData, MeshHandle, TextureData};
use crate::fishing::rod_bend::BendChain;
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
    /// The rod's bend chain: its meshes carry skin weights on it (see [`rod_skin`]).
    rod_chain: Option<BendChain>,
    /// The water's plane (see [`water_mesh`]).
    water: Option<MeshHandle>,
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
        let rod = &props.gear.rod;
        let chain = BendChain::for_rod(rod.length, rod.reel_seat);
        table.rod_chain = chain.validate().is_ok().then_some(chain);
        table.water = Some(table.next());
        table
    }

    /// The water's plane mesh (a unit plane facing up, placed by the stage).
    pub fn water(&self) -> Option<MeshHandle> {
        self.water
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

    /// Mesh data in handle order (the order [`MeshTable::new`] assigned). The rod's meshes
    /// carry skin weights on its bend chain, so the renderer can draw them bent.
    pub fn mesh_data(&self, character: &Character, props: &Props) -> Vec<MeshData> {
        let mut out = Vec::with_capacity(self.count);
        let mut rod_meshes = self.props[0].iter();
        for (slot, c) in [character, &props.rod, &props.net, &props.stool]
            .into_iter()
            .enumerate()
        {
            for mesh in &c.meshes {
                for (k, p) in mesh.primitives.iter().enumerate() {
                    let mut data = mesh_data_from_primitive(c, &format!("{}#{k}", mesh.name), p);
                    if slot == 1 {
                        let placed = rod_meshes.next();
                        if let (Some((_, rest)), Some(chain)) = (placed, self.rod_chain) {
                            rod_skin(&mut data, rest, &chain);
                        }
                    }
                    out.push(data);
                }
            }
        }
        out.push(water_mesh());
        out
    }

    /// The rod's bend chain, when its grips leave a blank to bend.
    pub fn rod_chain(&self) -> Option<BendChain> {
        self.rod_chain
    }
}

/// Gives a rod mesh placed at `rod_from_mesh` (at rest) skin weights on `chain` (see
/// [`BendChain::skin`]; joint indices are the chain's, and a draw's palette is the chain's
/// bend composed with the mesh's placement).
pub fn rod_skin(data: &mut MeshData, rod_from_mesh: &DAffine3, chain: &BendChain) {
    let skin = chain.skin(&data.positions, rod_from_mesh);
    data.joints = skin.joints;
    data.weights = skin.weights;
}

/// Side and length of the water's plane, metres.
pub const WATER_EXTENT: [f64; 2] = [120.0, 80.0];

/// The water: a unit plane facing up, x in −½..½, z in 0..1, at y = 0 (placed by the stage at
/// the water's height and near edge, scaled to [`WATER_EXTENT`]).
pub fn water_mesh() -> MeshData {
    let mut m = MeshData::new("water");
    m.positions = vec![
        [-0.5, 0.0, 0.0],
        [0.5, 0.0, 0.0],
        [0.5, 0.0, 1.0],
        [-0.5, 0.0, 1.0],
    ];
    m.normals = vec![[0.0, 1.0, 0.0]; 4];
    // Counter-clockwise seen from above.
    m.indices = vec![0, 2, 1, 0, 3, 2];
    m.base_color = [0.09, 0.25, 0.36, 1.0];
    m
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
