//! Builders for the hostile glTF inputs: a minimal skinned quad (GLB) and generated chains.

use anglerpose::assetgen::glb::glb_container;
use serde_json::{Value, json};

/// The binary payload of a minimal skinned quad; tests edit fields before `document()`.
pub struct Quad {
    pub positions: Vec<[f32; 3]>,
    pub normals: Option<Vec<[f32; 3]>>,
    pub indices: Vec<u16>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub ibms: Vec<[f32; 16]>,
}

fn identity() -> [f32; 16] {
    let mut m = [0.0; 16];
    for i in 0..4 {
        m[i * 5] = 1.0;
    }
    m
}

/// Column-major translation by `y` along +Y.
fn translate_y(y: f32) -> [f32; 16] {
    let mut m = identity();
    m[13] = y;
    m
}

fn f32_bytes(v: impl IntoIterator<Item = f32>) -> Vec<u8> {
    v.into_iter().flat_map(f32::to_le_bytes).collect()
}

impl Quad {
    pub fn good() -> Self {
        Quad {
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 2.0, 0.0],
                [0.0, 2.0, 0.0],
            ],
            normals: None,
            indices: vec![0, 1, 2, 0, 2, 3],
            joints: vec![[0, 1, 0, 0]; 4],
            weights: vec![
                [1.0, 0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
            ],
            ibms: vec![identity(), translate_y(-1.0)],
        }
    }

    /// The glTF JSON (buffer 0 = the GLB BIN chunk) and the BIN bytes. Accessors and buffer
    /// views: 0 POSITION, 1 indices, 2 JOINTS_0, 3 WEIGHTS_0, 4 inverse binds, 5 NORMAL.
    pub fn document(&self) -> (Value, Vec<u8>) {
        let mut sections: Vec<Vec<u8>> = vec![
            f32_bytes(self.positions.concat()),
            self.indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
            self.joints
                .concat()
                .iter()
                .flat_map(|i| i.to_le_bytes())
                .collect(),
            f32_bytes(self.weights.concat()),
            f32_bytes(self.ibms.concat()),
        ];
        if let Some(n) = &self.normals {
            sections.push(f32_bytes(n.concat()));
        }
        let (bin, views) = pack(&sections);
        let mut attributes = json!({"POSITION": 0, "JOINTS_0": 2, "WEIGHTS_0": 3});
        let mut accessors = vec![
            json!({"bufferView": 0, "componentType": 5126, "count": self.positions.len(),
                   "type": "VEC3", "min": [0, 0, 0], "max": [1, 2, 0]}),
            json!({"bufferView": 1, "componentType": 5123, "count": self.indices.len(),
                   "type": "SCALAR"}),
            json!({"bufferView": 2, "componentType": 5123, "count": self.joints.len(),
                   "type": "VEC4"}),
            json!({"bufferView": 3, "componentType": 5126, "count": self.weights.len(),
                   "type": "VEC4"}),
            json!({"bufferView": 4, "componentType": 5126, "count": self.ibms.len(),
                   "type": "MAT4"}),
        ];
        if let Some(n) = &self.normals {
            attributes["NORMAL"] = json!(5);
            accessors.push(
                json!({"bufferView": 5, "componentType": 5126, "count": n.len(),
                                  "type": "VEC3"}),
            );
        }
        let doc = json!({
            "asset": {"version": "2.0", "generator": "anglerpose tests/hostile"},
            "scene": 0,
            "scenes": [{"nodes": [0, 1]}],
            "nodes": [
                {"name": "quad", "mesh": 0, "skin": 0},
                {"name": "root_joint", "children": [2]},
                {"name": "tip_joint", "translation": [0.0, 1.0, 0.0]}
            ],
            "skins": [{"joints": [1, 2], "inverseBindMatrices": 4}],
            "meshes": [{"name": "quad", "primitives": [{"attributes": attributes, "indices": 1}]}],
            "buffers": [{"byteLength": bin.len()}],
            "bufferViews": views,
            "accessors": accessors
        });
        (doc, bin)
    }
}

/// Concatenates 4-byte-aligned sections; returns the bytes and one buffer view per section.
fn pack(sections: &[Vec<u8>]) -> (Vec<u8>, Vec<Value>) {
    let mut bin = Vec::new();
    let mut views = Vec::new();
    for s in sections {
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": s.len()}));
        bin.extend_from_slice(s);
    }
    (bin, views)
}

/// A GLB of `doc` with `bin` as its BIN chunk (no BIN chunk when `bin` is empty).
pub fn glb(doc: &Value, bin: &[u8]) -> Vec<u8> {
    let json = serde_json::to_vec(doc).unwrap();
    glb_container(&json, (!bin.is_empty()).then_some(bin))
}

/// `doc` as `.gltf` text.
pub fn gltf_text(doc: &Value) -> Vec<u8> {
    serde_json::to_vec(doc).unwrap()
}

/// `depth` nodes in one chain, each 1 unit above its parent.
///
/// Without `leaves`: node 0 is the leaf and node `depth - 1` the root (children are listed
/// before their parents). With `leaves = Some(m)`: node 0 is a root joint, nodes 1..=depth a
/// chain of non-joint nodes, and `m` joint leaves hang off the chain's end; the skin lists the
/// leaves first and the root joint last, with inverse binds matching the scene.
pub fn deep_chain(depth: usize, leaves: Option<usize>) -> (Value, Vec<u8>) {
    let up = json!([0.0, 1.0, 0.0]);
    let Some(m) = leaves else {
        let nodes: Vec<Value> = (0..depth)
            .map(|i| match i {
                0 => json!({"translation": up}),
                _ if i == depth - 1 => json!({"children": [i - 1]}),
                _ => json!({"translation": up, "children": [i - 1]}),
            })
            .collect();
        return (
            json!({"asset": {"version": "2.0"}, "nodes": nodes}),
            Vec::new(),
        );
    };
    let mut nodes = vec![json!({"name": "root_joint", "children": [1]})];
    for i in 1..=depth {
        let children: Vec<usize> = if i < depth {
            vec![i + 1]
        } else {
            (depth + 1..=depth + m).collect()
        };
        nodes.push(json!({"translation": up, "children": children}));
    }
    nodes.extend((0..m).map(|_| json!({"translation": up})));
    let mut joints: Vec<usize> = (depth + 1..=depth + m).collect();
    joints.push(0);
    let leaf_ibm = translate_y(-((depth + 1) as f32));
    let mut ibms: Vec<f32> = (0..m).flat_map(|_| leaf_ibm).collect();
    ibms.extend(identity());
    let (bin, views) = pack(&[f32_bytes(ibms)]);
    let doc = json!({
        "asset": {"version": "2.0"},
        "nodes": nodes,
        "skins": [{"joints": joints, "inverseBindMatrices": 0}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": views,
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": m + 1, "type": "MAT4"}]
    });
    (doc, bin)
}
