//! Meshes and textures as plain data (what the glTF loader or a generator produces, what
//! the renderer uploads), and the handle of an uploaded mesh.

/// An RGBA8 texture in sRGB (glTF base-colour convention), rows top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureData {
    pub width: u32,
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba8: Vec<u8>,
}

/// A triangle mesh as plain data (what the glTF loader or a generator produces).
///
/// Every per-vertex array that is not empty must have `positions.len()` entries. `normals`
/// may be empty (smooth normals are then computed at upload). `colors` is glTF `COLOR_0`
/// (linear RGBA). `joints`/`weights` are both empty (rigid) or both present (skinned);
/// weights are renormalised at upload, and an all-zero weight vertex stays in bind pose.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshData {
    pub name: String,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    pub colors: Vec<[f32; 4]>,
    pub joints: Vec<[u16; 4]>,
    pub weights: Vec<[f32; 4]>,
    /// Triangle list.
    pub indices: Vec<u32>,
    /// Linear RGBA multiplier (glTF `baseColorFactor`).
    pub base_color: [f32; 4],
    pub texture: Option<TextureData>,
    /// glTF `doubleSided`: both faces are drawn. Otherwise only front faces
    /// (counter-clockwise, or clockwise under a mirroring model matrix) are.
    pub double_sided: bool,
}

impl MeshData {
    /// An empty, untextured, white mesh called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: Vec::new(),
            colors: Vec::new(),
            joints: Vec::new(),
            weights: Vec::new(),
            indices: Vec::new(),
            base_color: [1.0; 4],
            texture: None,
            double_sided: false,
        }
    }

    /// True when the mesh carries joints and weights.
    pub fn is_skinned(&self) -> bool {
        !self.joints.is_empty()
    }
}

/// Refers to a mesh uploaded with `Renderer::upload_mesh` (render). A handle from another
/// renderer or a stale one is skipped at draw time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MeshHandle(pub(crate) usize);

impl MeshHandle {
    /// Upload order: the `n`-th mesh uploaded to a renderer is number `n` (so a stage's
    /// `mesh_data()[h.index()]` is the data behind `h`).
    pub fn index(self) -> usize {
        self.0
    }
}
