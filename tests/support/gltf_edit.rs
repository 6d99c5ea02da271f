//! Rewrites glTF documents in memory (the JSON only, buffers untouched), to present a real
//! character in another frame, with other names or as another kind of file.
#![allow(dead_code)]

use anglerpose::assetgen::glb::glb_container;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The shared test models folder, or `None` (with a SKIP line) when it is absent.
pub fn shared_models(test: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models");
    if dir.is_dir() {
        Some(dir)
    } else {
        anglerpose::skip_notice!("SKIP: {test}: {} is absent", dir.display());
        None
    }
}

/// A glTF document: its JSON and, for a .glb, the BIN chunk.
pub struct Doc {
    pub json: Value,
    pub bin: Option<Vec<u8>>,
}

impl Doc {
    pub fn read(path: &Path) -> Doc {
        let bytes = std::fs::read(path).unwrap();
        if bytes.starts_with(b"glTF") {
            let u32_at =
                |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()) as usize;
            let json_len = u32_at(12);
            let json = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
            let bin_at = 20 + json_len;
            let bin = (bytes.len() > bin_at + 8)
                .then(|| bytes[bin_at + 8..bin_at + 8 + u32_at(bin_at)].to_vec());
            Doc { json, bin }
        } else {
            Doc {
                json: serde_json::from_slice(&bytes).unwrap(),
                bin: None,
            }
        }
    }

    pub fn bytes(&self) -> Vec<u8> {
        let json = serde_json::to_vec(&self.json).unwrap();
        match &self.bin {
            Some(bin) => glb_container(&json, Some(bin)),
            None => json,
        }
    }

    /// Puts the whole scene under a new root node with this rotation (xyzw) and scale.
    pub fn wrap(&mut self, name: &str, rotation: [f64; 4], scale: f64) -> &mut Self {
        let scene = self.json["scene"].as_u64().unwrap_or(0) as usize;
        let roots = self.json["scenes"][scene]["nodes"].clone();
        let nodes = self.json["nodes"].as_array_mut().unwrap();
        nodes.push(json!({
            "name": name,
            "children": roots,
            "rotation": rotation,
            "scale": [scale, scale, scale],
        }));
        let index = nodes.len() - 1;
        self.json["scenes"][scene]["nodes"] = json!([index]);
        self
    }

    /// Renames nodes: `(old, new)` pairs; returns how many were renamed.
    pub fn rename(&mut self, pairs: &[(String, String)]) -> usize {
        let mut n = 0;
        for node in self.json["nodes"].as_array_mut().unwrap() {
            let Some(name) = node["name"].as_str().map(str::to_string) else {
                continue;
            };
            if let Some((_, new)) = pairs.iter().find(|(old, _)| *old == name) {
                node["name"] = json!(new);
                n += 1;
            }
        }
        n
    }

    pub fn node_names(&self) -> Vec<String> {
        self.json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["name"].as_str().unwrap_or("").to_string())
            .collect()
    }
}

/// Quaternion (xyzw) of `angle_deg` about a unit axis.
pub fn quat(axis: [f64; 3], angle_deg: f64) -> [f64; 4] {
    let h = angle_deg.to_radians() * 0.5;
    [
        axis[0] * h.sin(),
        axis[1] * h.sin(),
        axis[2] * h.sin(),
        h.cos(),
    ]
}

impl Doc {
    /// Puts a new node `name` between the node `child` and its parent, turned by `rotation`
    /// (xyzw) at the child's position, and turns the child back, so that every world transform
    /// stays the same. Returns the new node's index.
    pub fn insert_parent(&mut self, child: &str, name: &str, rotation: [f64; 4]) -> usize {
        let nodes = self.json["nodes"].as_array_mut().unwrap();
        let c = nodes.iter().position(|n| n["name"] == child).unwrap();
        let parent = nodes
            .iter()
            .position(|n| {
                n["children"]
                    .as_array()
                    .is_some_and(|ch| ch.iter().any(|i| i.as_u64() == Some(c as u64)))
            })
            .unwrap();
        let v3 = |v: &Value, d: f64| -> [f64; 3] {
            v.as_array()
                .map(|a| [0, 1, 2].map(|k| a[k].as_f64().unwrap()))
                .unwrap_or([d; 3])
        };
        let t = v3(&nodes[c]["translation"], 0.0);
        let q = nodes[c]["rotation"]
            .as_array()
            .map(|a| [0, 1, 2, 3].map(|k| a[k].as_f64().unwrap()))
            .unwrap_or([0.0, 0.0, 0.0, 1.0]);
        let inv = [-rotation[0], -rotation[1], -rotation[2], rotation[3]];
        nodes.push(json!({
            "name": name,
            "children": [c],
            "translation": t,
            "rotation": rotation,
        }));
        let index = nodes.len() - 1;
        nodes[c]["translation"] = json!([0.0, 0.0, 0.0]);
        nodes[c]["rotation"] = json!(quat_mul(inv, q));
        for i in nodes[parent]["children"].as_array_mut().unwrap() {
            if i.as_u64() == Some(c as u64) {
                *i = json!(index);
            }
        }
        index
    }
}

impl Doc {
    /// Adds a node `name` as a child of the node `parent`, at `translation` in the parent's
    /// frame. Returns the new node's index.
    pub fn add_child(&mut self, parent: &str, name: &str, translation: [f64; 3]) -> usize {
        let nodes = self.json["nodes"].as_array_mut().unwrap();
        let p = nodes.iter().position(|n| n["name"] == parent).unwrap();
        nodes.push(json!({ "name": name, "translation": translation }));
        let index = nodes.len() - 1;
        match nodes[p]["children"].as_array_mut() {
            Some(children) => children.push(json!(index)),
            None => nodes[p]["children"] = json!([index]),
        }
        index
    }
}

/// Hamilton product `a · b` of xyzw quaternions.
pub fn quat_mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}
