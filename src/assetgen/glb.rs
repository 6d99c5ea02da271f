//! A minimal, deterministic glTF 2.0 binary (GLB) writer.
//!
//! JSON is built from an ordered [`Json`] tree (object keys keep insertion order, floats print
//! with Rust's shortest round-trip formatting), so the same input always gives the same bytes
//! whatever features `serde_json` was compiled with. Buffer views start on 4-byte boundaries;
//! the JSON chunk is padded with spaces and the BIN chunk with zeros.

use super::mesher::TriMesh;
use std::fmt::Write as _;

/// An ordered JSON value.
#[derive(Clone, Debug)]
pub enum Json {
    Int(i64),
    Num(f64),
    Bool(bool),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs, in the given order.
    pub fn obj<const N: usize>(pairs: [(&str, Json); N]) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    pub fn str(s: &str) -> Json {
        Json::Str(s.to_string())
    }

    pub fn nums(values: &[f64]) -> Json {
        Json::Arr(values.iter().map(|v| Json::Num(*v)).collect())
    }

    /// Adds a key to an object (no-op on other values).
    pub fn set(&mut self, key: &str, value: Json) {
        if let Json::Obj(pairs) = self {
            pairs.push((key.to_string(), value));
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Int(i) => {
                let _ = write!(out, "{i}");
            }
            // Non-finite numbers never reach here (all generated data is finite); write 0 so the
            // output stays valid JSON regardless.
            Json::Num(v) if !v.is_finite() => out.push('0'),
            Json::Num(v) => {
                let _ = write!(out, "{v}");
            }
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Str(s) => write_string(s, out),
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(k, out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

const ARRAY_BUFFER: i64 = 34962;
const ELEMENT_ARRAY_BUFFER: i64 = 34963;
const FLOAT: i64 = 5126;
const UNSIGNED_BYTE: i64 = 5121;
const UNSIGNED_SHORT: i64 = 5123;
const UNSIGNED_INT: i64 = 5125;

/// Per-vertex skinning data: four joint indices (into the skin's joint list) and weights.
pub struct SkinAttributes<'a> {
    pub joints: &'a [[u16; 4]],
    pub weights: &'a [[f32; 4]],
}

/// Accumulates buffer views, accessors, meshes, nodes and skins of one GLB file.
#[derive(Default)]
pub struct GlbBuilder {
    bin: Vec<u8>,
    views: Vec<Json>,
    accessors: Vec<Json>,
    meshes: Vec<Json>,
    nodes: Vec<Json>,
    skins: Vec<Json>,
    scene_roots: Vec<usize>,
    /// Materials after the built-in vertex-colour material 0.
    textured_materials: Vec<Json>,
    images: Vec<Json>,
    textures: Vec<Json>,
    animations: Vec<Json>,
    /// Keyframe-time accessors already written, by their bits: channels with the same key
    /// times share one input accessor.
    time_accessors: std::collections::HashMap<Vec<u32>, usize>,
}

/// Which node property an animation channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnimPath {
    /// VEC3 translation keys.
    Translation,
    /// VEC4 unit-quaternion keys `[x, y, z, w]`.
    Rotation,
}

impl AnimPath {
    /// Components per key (3 or 4).
    pub fn width(self) -> usize {
        match self {
            AnimPath::Translation => 3,
            AnimPath::Rotation => 4,
        }
    }

    fn name(self) -> &'static str {
        match self {
            AnimPath::Translation => "translation",
            AnimPath::Rotation => "rotation",
        }
    }
}

/// One LINEAR animation channel: `times` strictly increasing (seconds), `values`
/// [`AnimPath::width`] floats per key.
pub struct AnimChannel<'a> {
    pub node: usize,
    pub path: AnimPath,
    pub times: &'a [f32],
    pub values: &'a [f32],
}

/// Optional per-primitive extras: texture coordinates and the material to draw with.
#[derive(Clone, Copy, Default)]
pub struct PrimitiveLook<'a> {
    /// TEXCOORD_0, one per vertex.
    pub uvs: Option<&'a [[f32; 2]]>,
    /// A material from [`GlbBuilder::textured_material`]; `None` is the vertex-colour material.
    pub material: Option<usize>,
}

impl GlbBuilder {
    fn push_view(&mut self, bytes: &[u8], target: Option<i64>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut view = Json::obj([
            ("buffer", Json::Int(0)),
            ("byteOffset", Json::Int(self.bin.len() as i64)),
            ("byteLength", Json::Int(bytes.len() as i64)),
        ]);
        if let Some(t) = target {
            view.set("target", Json::Int(t));
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(view);
        self.views.len() - 1
    }

    fn push_accessor(&mut self, view: usize, component: i64, count: usize, kind: &str) -> usize {
        self.accessors.push(Json::obj([
            ("bufferView", Json::Int(view as i64)),
            ("componentType", Json::Int(component)),
            ("count", Json::Int(count as i64)),
            ("type", Json::str(kind)),
        ]));
        self.accessors.len() - 1
    }

    /// VEC3 float accessor; `min_max` adds the bounds (required for POSITION).
    fn vec3(&mut self, data: &[[f32; 3]], min_max: bool) -> usize {
        let view = self.push_view(bytemuck::cast_slice(data), Some(ARRAY_BUFFER));
        let acc = self.push_accessor(view, FLOAT, data.len(), "VEC3");
        if min_max {
            let mut lo = [f32::INFINITY; 3];
            let mut hi = [f32::NEG_INFINITY; 3];
            for p in data {
                for i in 0..3 {
                    lo[i] = lo[i].min(p[i]);
                    hi[i] = hi[i].max(p[i]);
                }
            }
            let a = &mut self.accessors[acc];
            a.set("min", Json::nums(&lo.map(f64::from)));
            a.set("max", Json::nums(&hi.map(f64::from)));
        }
        acc
    }

    /// Adds a mesh primitive's accessors and returns the primitive object (vertex-colour
    /// material, no texture coordinates).
    pub fn primitive(&mut self, mesh: &TriMesh, skin: Option<SkinAttributes>) -> Json {
        self.primitive_with(mesh, skin, PrimitiveLook::default())
    }

    /// A material whose base colour is the PNG `png` (sampled with TEXCOORD_0, repeat,
    /// linear filtering) times the vertex colours. Returns its index for [`PrimitiveLook`].
    pub fn textured_material(&mut self, name: &str, png: &[u8]) -> usize {
        let view = self.push_view(png, None);
        self.images.push(Json::obj([
            ("bufferView", Json::Int(view as i64)),
            ("mimeType", Json::str("image/png")),
        ]));
        self.textures.push(Json::obj([
            ("sampler", Json::Int(0)),
            ("source", Json::Int(self.images.len() as i64 - 1)),
        ]));
        let texture = Json::obj([("index", Json::Int(self.textures.len() as i64 - 1))]);
        self.textured_materials
            .push(matte_material(name, ("baseColorTexture", texture)));
        self.textured_materials.len()
    }

    /// [`GlbBuilder::primitive`] with texture coordinates and a material.
    pub fn primitive_with(
        &mut self,
        mesh: &TriMesh,
        skin: Option<SkinAttributes>,
        look: PrimitiveLook,
    ) -> Json {
        let positions: Vec<[f32; 3]> = mesh.positions.iter().map(|p| p.as_vec3().into()).collect();
        let normals: Vec<[f32; 3]> = mesh
            .normals
            .iter()
            .map(|n| n.as_vec3().normalize_or(glam::Vec3::Y).into())
            .collect();
        let colours: Vec<[u8; 4]> = mesh
            .colours
            .iter()
            .map(|c| {
                let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
                [q(c[0]), q(c[1]), q(c[2]), 255]
            })
            .collect();
        let pos = self.vec3(&positions, true);
        let nor = self.vec3(&normals, false);
        let view = self.push_view(bytemuck::cast_slice(&colours), Some(ARRAY_BUFFER));
        let col = self.push_accessor(view, UNSIGNED_BYTE, colours.len(), "VEC4");
        self.accessors[col].set("normalized", Json::Bool(true));
        let mut attributes = Json::obj([
            ("POSITION", Json::Int(pos as i64)),
            ("NORMAL", Json::Int(nor as i64)),
            ("COLOR_0", Json::Int(col as i64)),
        ]);
        if let Some(uvs) = look.uvs {
            let view = self.push_view(bytemuck::cast_slice(uvs), Some(ARRAY_BUFFER));
            let uv = self.push_accessor(view, FLOAT, uvs.len(), "VEC2");
            attributes.set("TEXCOORD_0", Json::Int(uv as i64));
        }
        if let Some(s) = skin {
            let view = self.push_view(bytemuck::cast_slice(s.joints), Some(ARRAY_BUFFER));
            let j = self.push_accessor(view, UNSIGNED_SHORT, s.joints.len(), "VEC4");
            let view = self.push_view(bytemuck::cast_slice(s.weights), Some(ARRAY_BUFFER));
            let w = self.push_accessor(view, FLOAT, s.weights.len(), "VEC4");
            attributes.set("JOINTS_0", Json::Int(j as i64));
            attributes.set("WEIGHTS_0", Json::Int(w as i64));
        }
        // 16-bit indices whenever the primitive is small enough.
        let idx = if mesh.positions.len() <= usize::from(u16::MAX) {
            let short: Vec<u16> = mesh.indices.iter().map(|&i| i as u16).collect();
            let view = self.push_view(bytemuck::cast_slice(&short), Some(ELEMENT_ARRAY_BUFFER));
            self.push_accessor(view, UNSIGNED_SHORT, short.len(), "SCALAR")
        } else {
            let view = self.push_view(
                bytemuck::cast_slice(&mesh.indices),
                Some(ELEMENT_ARRAY_BUFFER),
            );
            self.push_accessor(view, UNSIGNED_INT, mesh.indices.len(), "SCALAR")
        };
        Json::obj([
            ("attributes", attributes),
            ("indices", Json::Int(idx as i64)),
            ("material", Json::Int(look.material.unwrap_or(0) as i64)),
            ("mode", Json::Int(4)),
        ])
    }

    /// Adds a mesh made of `primitives` and returns its index.
    pub fn mesh(&mut self, name: &str, primitives: Vec<Json>) -> usize {
        self.meshes.push(Json::obj([
            ("name", Json::str(name)),
            ("primitives", Json::Arr(primitives)),
        ]));
        self.meshes.len() - 1
    }

    /// Adds a node and returns its index. `translation`/`rotation` are omitted when identity.
    pub fn node(&mut self, name: &str, translation: [f64; 3], rotation: [f64; 4]) -> usize {
        let mut node = Json::obj([("name", Json::str(name))]);
        if rotation != [0.0, 0.0, 0.0, 1.0] {
            node.set("rotation", Json::nums(&rotation));
        }
        if translation != [0.0; 3] {
            node.set("translation", Json::nums(&translation));
        }
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Sets a node's scale (omitted from the file when it is exactly 1).
    pub fn set_scale(&mut self, node: usize, scale: [f64; 3]) {
        if scale != [1.0; 3] {
            self.nodes[node].set("scale", Json::nums(&scale));
        }
    }

    /// Sets a node's children (call once per node).
    pub fn set_children(&mut self, node: usize, children: &[usize]) {
        if !children.is_empty() {
            let list = Json::Arr(children.iter().map(|c| Json::Int(*c as i64)).collect());
            self.nodes[node].set("children", list);
        }
    }

    /// Attaches a mesh (and optionally a skin) to a node.
    pub fn set_mesh(&mut self, node: usize, mesh: usize, skin: Option<usize>) {
        self.nodes[node].set("mesh", Json::Int(mesh as i64));
        if let Some(s) = skin {
            self.nodes[node].set("skin", Json::Int(s as i64));
        }
    }

    /// Adds a skin with its joints (node indices), inverse bind matrices (column-major) and
    /// skeleton root node; returns its index.
    pub fn skin(&mut self, name: &str, joints: &[usize], ibm: &[[f32; 16]], root: usize) -> usize {
        let view = self.push_view(bytemuck::cast_slice(ibm), None);
        let acc = self.push_accessor(view, FLOAT, ibm.len(), "MAT4");
        self.skins.push(Json::obj([
            ("name", Json::str(name)),
            ("inverseBindMatrices", Json::Int(acc as i64)),
            ("skeleton", Json::Int(root as i64)),
            (
                "joints",
                Json::Arr(joints.iter().map(|j| Json::Int(*j as i64)).collect()),
            ),
        ]));
        self.skins.len() - 1
    }

    /// Adds an animation clip of LINEAR channels. Channels with identical key times share one
    /// input accessor (with the `min`/`max` glTF requires).
    ///
    /// # Panics
    /// When a channel's `values` length is not `times.len() * path.width()` or `times` is empty
    /// (a bug in the caller: the clip code never builds such channels).
    pub fn animation(&mut self, name: &str, channels: &[AnimChannel]) {
        let mut samplers = Vec::with_capacity(channels.len());
        let mut targets = Vec::with_capacity(channels.len());
        for (i, c) in channels.iter().enumerate() {
            assert!(!c.times.is_empty(), "animation channel without keys");
            assert_eq!(c.values.len(), c.times.len() * c.path.width());
            let key: Vec<u32> = c.times.iter().map(|t| t.to_bits()).collect();
            let input = match self.time_accessors.get(&key) {
                Some(&a) => a,
                None => {
                    let view = self.push_view(bytemuck::cast_slice(c.times), None);
                    let a = self.push_accessor(view, FLOAT, c.times.len(), "SCALAR");
                    let (lo, hi) = (c.times[0], c.times[c.times.len() - 1]);
                    self.accessors[a].set("min", Json::nums(&[f64::from(lo)]));
                    self.accessors[a].set("max", Json::nums(&[f64::from(hi)]));
                    self.time_accessors.insert(key, a);
                    a
                }
            };
            let view = self.push_view(bytemuck::cast_slice(c.values), None);
            let kind = if c.path.width() == 4 { "VEC4" } else { "VEC3" };
            let output = self.push_accessor(view, FLOAT, c.times.len(), kind);
            samplers.push(Json::obj([
                ("input", Json::Int(input as i64)),
                ("interpolation", Json::str("LINEAR")),
                ("output", Json::Int(output as i64)),
            ]));
            targets.push(Json::obj([
                ("sampler", Json::Int(i as i64)),
                (
                    "target",
                    Json::obj([
                        ("node", Json::Int(c.node as i64)),
                        ("path", Json::str(c.path.name())),
                    ]),
                ),
            ]));
        }
        self.animations.push(Json::obj([
            ("name", Json::str(name)),
            ("channels", Json::Arr(targets)),
            ("samplers", Json::Arr(samplers)),
        ]));
    }

    /// Bytes of binary data written so far (buffer views and their padding).
    pub fn binary_len(&self) -> usize {
        self.bin.len()
    }

    /// Marks a node as a root of the (single) scene.
    pub fn scene_root(&mut self, node: usize) {
        self.scene_roots.push(node);
    }

    /// Serialises the whole file.
    pub fn finish(self) -> Vec<u8> {
        let mut bin = self.bin;
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        let material = matte_material(
            "vertex_colour",
            ("baseColorFactor", Json::nums(&[1.0, 1.0, 1.0, 1.0])),
        );
        let roots = Json::Arr(
            self.scene_roots
                .iter()
                .map(|n| Json::Int(*n as i64))
                .collect(),
        );
        let mut root = Json::obj([
            (
                "asset",
                Json::obj([
                    ("version", Json::str("2.0")),
                    ("generator", Json::str("anglerpose assetgen")),
                ]),
            ),
            ("scene", Json::Int(0)),
            ("scenes", Json::Arr(vec![Json::obj([("nodes", roots)])])),
            ("nodes", Json::Arr(self.nodes)),
            ("meshes", Json::Arr(self.meshes)),
        ]);
        let mut materials = vec![material];
        materials.extend(self.textured_materials);
        root.set("materials", Json::Arr(materials));
        if !self.images.is_empty() {
            root.set("images", Json::Arr(self.images));
            root.set("textures", Json::Arr(self.textures));
            // glTF defaults: repeat wrapping; linear filters, mipmapped when minifying.
            root.set(
                "samplers",
                Json::Arr(vec![Json::obj([
                    ("magFilter", Json::Int(9729)),
                    ("minFilter", Json::Int(9987)),
                ])]),
            );
        }
        if !self.skins.is_empty() {
            root.set("skins", Json::Arr(self.skins));
        }
        if !self.animations.is_empty() {
            root.set("animations", Json::Arr(self.animations));
        }
        root.set("accessors", Json::Arr(self.accessors));
        root.set("bufferViews", Json::Arr(self.views));
        root.set(
            "buffers",
            Json::Arr(vec![Json::obj([(
                "byteLength",
                Json::Int(bin.len() as i64),
            )])]),
        );
        let mut json = String::new();
        root.write(&mut json);
        glb_container(json.as_bytes(), Some(&bin))
    }
}

/// A non-metallic, rough (0.85) material named `name` whose base colour is `base`
/// (`baseColorFactor` or `baseColorTexture`); vertex colours multiply it.
fn matte_material(name: &str, base: (&str, Json)) -> Json {
    Json::obj([
        ("name", Json::str(name)),
        (
            "pbrMetallicRoughness",
            Json::obj([
                base,
                ("metallicFactor", Json::Num(0.0)),
                ("roughnessFactor", Json::Num(0.85)),
            ]),
        ),
    ])
}

/// The GLB container (glTF 2.0 binary): the 12-byte header, the JSON chunk padded with spaces
/// and, when `bin` is given, the BIN chunk padded with zeros to 4 bytes. `json` is written as
/// is (valid or not), so tests can wrap broken documents too.
pub fn glb_container(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    let pad = |len: usize| (4 - len % 4) % 4;
    let json_len = json.len() + pad(json.len());
    let bin_len = bin.map(|b| b.len() + pad(b.len()));
    let total = 12 + 8 + json_len + bin_len.map_or(0, |n| 8 + n);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(out.len() + pad(json.len()), b' ');
    if let (Some(bin), Some(bin_len)) = (bin, bin_len) {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
        out.resize(out.len() + pad(bin.len()), 0);
    }
    out
}
