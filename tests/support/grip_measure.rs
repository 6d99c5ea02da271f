#![allow(dead_code)]
//! How a grip is measured (issue 33): the posed export is read back with the `gltf` crate,
//! skinned on the CPU exactly as glTF defines linear blend skinning (vertex = Σ wᵢ ·
//! world(jointᵢ) · inverseBindᵢ · v, the mesh node's own transform ignored), and each hand
//! part's skin is measured against the held handle's surface: its distance from the handle's
//! axis less the handle's radius there (the rod's radius profile along its axis, detected from
//! the rod's own mesh; the net's handle radius). The skin is measured as drawn: its vertices
//! and, inside each triangle whose corners belong to one hand part, points every 2 mm mixed
//! from the skinned corners (the triangle the renderer draws). Nothing here uses the
//! project's skinning.

use anglerpose::fishing::{GripKind, SessionFrames};
use anglerpose::preset::posed_glb;
use anglerpose::rig::{Finger, Side};
use anglerpose::stage::Stage;
use anglerpose::stage::rod_file::rod_model;
use glam::{DAffine3, DMat4, DVec3};
use std::collections::HashMap;

/// Which part of a hand a vertex belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Palm(Side),
    Finger(Side, Finger),
}

impl Part {
    /// The hand the part belongs to.
    pub fn side(self) -> Side {
        match self {
            Part::Palm(side) | Part::Finger(side, _) => side,
        }
    }
}

/// The skin of the posed export, by hand part, in world space.
pub struct PosedSkin {
    pub parts: HashMap<Part, Vec<DVec3>>,
    /// Every triangle of the character's skinned meshes (all of it, no prop), posed, world
    /// space.
    pub triangles: Vec<[DVec3; 3]>,
    /// The same vertices (same order) at bind, in their side's hand bone's frame
    /// (the hand joint's inverse bind matrix applied), for diagnostics.
    pub in_hand_at_bind: HashMap<Part, Vec<DVec3>>,
}

/// Exports `stage` as it is posed and skins it (see the module docs).
pub fn posed_skin(stage: &Stage) -> PosedSkin {
    let bytes = posed_glb(stage).expect("posed export");
    let (doc, buffers, _) = gltf::import_slice(&bytes).expect("the export reads back");
    let (world, parent) = node_worlds(&doc);
    let owners = owners_by_name(stage);
    let owner_of = |node: usize| -> Option<Part> {
        let mut at = Some(node);
        while let Some(n) = at {
            let name = doc.nodes().nth(n).unwrap().name().unwrap_or("").to_string();
            if let Some(p) = owners.get(&name) {
                return Some(*p);
            }
            at = parent[n];
        }
        None
    };
    let hand_names: Vec<(Side, String)> = [Side::Left, Side::Right]
        .into_iter()
        .map(|side| {
            let hand = stage.actor.arm(side).hand;
            (side, stage.actor.skeleton.bone(hand).name.clone())
        })
        .collect();
    let mut parts: HashMap<Part, Vec<DVec3>> = HashMap::new();
    let mut in_hand_at_bind: HashMap<Part, Vec<DVec3>> = HashMap::new();
    let mut triangles = Vec::new();
    for node in doc.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        let skin = node.skin();
        // The character's own skin: a skin whose joints include its hand bones (the props'
        // meshes, skinned on the rod's bend chain or not skinned, are not the character).
        let of_character = skin.as_ref().is_some_and(|skin| {
            skin.joints()
                .any(|j| hand_names.iter().any(|(_, n)| j.name() == Some(n.as_str())))
        });
        let joint_mats: Vec<(DMat4, usize)> = skin
            .as_ref()
            .map(|skin| {
                let reader = skin.reader(|b| Some(&buffers[b.index()]));
                let ibms: Vec<[[f32; 4]; 4]> = reader
                    .read_inverse_bind_matrices()
                    .map(|i| i.collect())
                    .unwrap_or_default();
                skin.joints()
                    .enumerate()
                    .map(|(k, j)| {
                        let ibm = ibms
                            .get(k)
                            .map(|m| DMat4::from_cols_array_2d(&m.map(|c| c.map(f64::from))))
                            .unwrap_or(DMat4::IDENTITY);
                        (world[j.index()] * ibm, j.index())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let hand_ibm = |side: Side| -> DMat4 {
            let Some(skin) = skin.as_ref() else {
                return DMat4::IDENTITY;
            };
            let name = &hand_names.iter().find(|h| h.0 == side).unwrap().1;
            let reader = skin.reader(|b| Some(&buffers[b.index()]));
            let ibms: Vec<[[f32; 4]; 4]> = reader
                .read_inverse_bind_matrices()
                .map(|i| i.collect())
                .unwrap_or_default();
            skin.joints()
                .position(|j| j.name() == Some(name.as_str()))
                .and_then(|k| ibms.get(k))
                .map(|m| DMat4::from_cols_array_2d(&m.map(|c| c.map(f64::from))))
                .unwrap_or(DMat4::IDENTITY)
        };
        let hand_ibms = [hand_ibm(Side::Left), hand_ibm(Side::Right)];
        let side_of = |part: Part| match part {
            Part::Palm(s) | Part::Finger(s, _) => (s == Side::Right) as usize,
        };
        for prim in mesh.primitives() {
            let reader = prim.reader(|b| Some(&buffers[b.index()]));
            let Some(positions) = reader.read_positions() else {
                continue;
            };
            let positions: Vec<[f32; 3]> = positions.collect();
            let indices: Vec<u32> = reader
                .read_indices()
                .map(|i| i.into_u32().collect())
                .unwrap_or_else(|| (0..positions.len() as u32).collect());
            // Each vertex skinned, with its part, then the triangles between vertices of one
            // part sampled (the surface, not only its corners: a low-poly box hand touches a
            // handle with a face).
            let mut skinned: Vec<Option<(Part, DVec3, DVec3)>> =
                Vec::with_capacity(positions.len());
            let mut posed_all: Vec<DVec3> = Vec::new();
            if skin.is_some() {
                let joints: Vec<[u16; 4]> = reader.read_joints(0).unwrap().into_u16().collect();
                let weights: Vec<[f32; 4]> = reader.read_weights(0).unwrap().into_f32().collect();
                for ((p, j), w) in positions.iter().zip(&joints).zip(&weights) {
                    let v = DVec3::from_array(p.map(f64::from));
                    let mut out = DVec3::ZERO;
                    let mut best = (0.0f32, 0usize);
                    for k in 0..4 {
                        let (m, node) = joint_mats[j[k] as usize];
                        out += m.transform_point3(v) * f64::from(w[k]);
                        if w[k] > best.0 {
                            best = (w[k], node);
                        }
                    }
                    skinned.push(
                        owner_of(best.1)
                            .map(|part| (part, out, hand_ibms[side_of(part)].transform_point3(v))),
                    );
                    posed_all.push(out);
                }
            } else {
                let part = owner_of(node.index());
                let m = world[node.index()];
                for p in &positions {
                    let v = DVec3::from_array(p.map(f64::from));
                    skinned.push(part.map(|part| (part, m.transform_point3(v), v)));
                }
            }
            for (part, posed, bind) in skinned.iter().flatten() {
                parts.entry(*part).or_default().push(*posed);
                in_hand_at_bind.entry(*part).or_default().push(*bind);
            }
            for tri in indices.chunks_exact(3) {
                if let (true, Some(a), Some(b), Some(c)) = (
                    of_character,
                    posed_all.get(tri[0] as usize),
                    posed_all.get(tri[1] as usize),
                    posed_all.get(tri[2] as usize),
                ) {
                    triangles.push([*a, *b, *c]);
                }
                let corner = |k: usize| skinned.get(tri[k] as usize).copied().flatten();
                let (Some(a), Some(b), Some(c)) = (corner(0), corner(1), corner(2)) else {
                    continue;
                };
                if a.0 != b.0 || a.0 != c.0 {
                    continue;
                }
                for (wa, wb, wc) in surface_samples(a.1, b.1, c.1) {
                    let posed = a.1 * wa + b.1 * wb + c.1 * wc;
                    let bind = a.2 * wa + b.2 * wb + c.2 * wc;
                    parts.entry(a.0).or_default().push(posed);
                    in_hand_at_bind.entry(a.0).or_default().push(bind);
                }
            }
        }
    }
    PosedSkin {
        parts,
        triangles,
        in_hand_at_bind,
    }
}

/// Every node's world matrix from the document's own local transforms (from its scenes'
/// roots), and every node's parent.
pub fn node_worlds(doc: &gltf::Document) -> (Vec<DMat4>, Vec<Option<usize>>) {
    let mut world = vec![DMat4::IDENTITY; doc.nodes().len()];
    let mut parent = vec![None; doc.nodes().len()];
    for n in doc.nodes() {
        for c in n.children() {
            parent[c.index()] = Some(n.index());
        }
    }
    let mut stack: Vec<(usize, DMat4)> = doc
        .scenes()
        .flat_map(|s| {
            s.nodes()
                .map(|n| (n.index(), DMat4::IDENTITY))
                .collect::<Vec<_>>()
        })
        .collect();
    while let Some((i, parent_world)) = stack.pop() {
        let node = doc.nodes().nth(i).unwrap();
        let local = DMat4::from_cols_array_2d(&node.transform().matrix().map(|c| c.map(f64::from)));
        world[i] = parent_world * local;
        for c in node.children() {
            stack.push((c.index(), world[i]));
        }
    }
    (world, parent)
}

/// The measure's surface spacing: no point of a triangle is farther than about this from a
/// sample (metres).
const SURFACE_SPACING: f64 = 0.002;

/// Barycentric weights of the samples inside triangle (`a`, `b`, `c`) at about
/// [`SURFACE_SPACING`], the corners left out (they are measured as vertices).
fn surface_samples(a: DVec3, b: DVec3, c: DVec3) -> Vec<(f64, f64, f64)> {
    let longest = a.distance(b).max(b.distance(c)).max(c.distance(a));
    let n = (longest / SURFACE_SPACING).ceil().clamp(1.0, 200.0) as usize;
    let mut out = Vec::new();
    for i in 0..=n {
        for j in 0..=(n - i) {
            let k = n - i - j;
            if i == n || j == n || k == n {
                continue;
            }
            let f = n as f64;
            out.push((i as f64 / f, j as f64 / f, k as f64 / f));
        }
    }
    out
}

/// Every hand and finger bone of the stage's actor by name (first bone of a name wins).
fn owners_by_name(stage: &Stage) -> HashMap<String, Part> {
    let skel = &stage.actor.skeleton;
    let mut out = HashMap::new();
    for side in [Side::Left, Side::Right] {
        let arm = stage.actor.arm(side);
        let name = |b: usize| skel.bone(b).name.clone();
        out.entry(name(arm.hand)).or_insert(Part::Palm(side));
        for &b in &arm.hand_group {
            out.entry(name(b)).or_insert(Part::Palm(side));
        }
        for (finger, chain) in &arm.fingers {
            for &j in &chain.joints {
                out.entry(name(j)).or_insert(Part::Finger(side, *finger));
            }
        }
    }
    out
}

/// The held handle in world space: a frame whose +Y is the axis (from the butt / handle end)
/// and its radius along it.
pub struct Handle {
    pub object_from_world: DAffine3,
    pub radius_at: Box<dyn Fn(f64) -> f64>,
}

impl Handle {
    /// Signed distance of `p` from the handle's surface (negative: inside).
    pub fn gap(&self, p: DVec3) -> f64 {
        let q = self.object_from_world.transform_point3(p);
        (q.x * q.x + q.z * q.z).sqrt() - (self.radius_at)(q.y)
    }
}

/// The handle `kind` is on in the stage's current pose: the rod (its radius profile from its
/// own mesh) or the net (its handle radius).
pub fn handle(stage: &Stage, kind: GripKind) -> Handle {
    let frames: &SessionFrames = &stage.evaluation().expect("posed").frames;
    let world_from_actor = stage.world_from_actor.to_affine();
    if kind == GripKind::NetHandle {
        let r = stage.props.gear.net.grip_radius;
        return Handle {
            object_from_world: (world_from_actor * frames.actor_from_net.to_affine()).inverse(),
            radius_at: Box::new(move |_| r),
        };
    }
    let model = rod_model(&stage.props.rod, Some(stage.props.gear.rod.length)).expect("rod");
    let model_from_rod = model.rod_from_file();
    let world_from_rod = world_from_actor * frames.actor_from_rod.to_affine();
    Handle {
        object_from_world: model_from_rod * world_from_rod.inverse(),
        radius_at: Box::new(move |y| model.radius_at(y)),
    }
}

/// One hand's measure on its handle, metres.
#[derive(Clone, Debug)]
pub struct HandMeasure {
    /// Per finger present: the smallest gap of its skin.
    pub fingers: Vec<(Finger, f64)>,
    /// The smallest gap of the palm's skin.
    pub palm: f64,
    /// The deepest any of the hand's skin is inside (the smallest gap of all).
    pub deepest: f64,
}

/// Measures `side`'s hand of `skin` against `handle`.
pub fn measure(skin: &PosedSkin, side: Side, handle: &Handle) -> HandMeasure {
    let min_gap = |part: Part| {
        skin.parts.get(&part).map(|v| {
            v.iter()
                .map(|p| handle.gap(*p))
                .fold(f64::INFINITY, f64::min)
        })
    };
    let fingers: Vec<(Finger, f64)> = Finger::ALL
        .iter()
        .filter_map(|f| min_gap(Part::Finger(side, *f)).map(|g| (*f, g)))
        .collect();
    let palm = min_gap(Part::Palm(side)).unwrap_or(f64::INFINITY);
    let deepest = fingers.iter().map(|f| f.1).fold(palm, f64::min);
    HandMeasure {
        fingers,
        palm,
        deepest,
    }
}
