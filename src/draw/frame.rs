//! Plain per-frame draw data: what to draw this frame, built by the editor or the CLI.

use super::{Camera, MeshHandle};

/// Everything the renderer draws in one frame.
#[derive(Debug, Clone)]
pub struct FrameData {
    pub camera: Camera,
    pub skinned: Vec<SkinnedDraw>,
    pub rigid: Vec<RigidDraw>,
    /// Draw the fading ground grid on the y = 0 plane.
    pub grid: bool,
    /// How the skinned and rigid meshes are drawn (solid or x-ray).
    pub mesh_style: MeshStyle,
    pub overlays: Overlays,
}

/// How the renderer draws meshes. Each style is its own pipeline, built once by the
/// renderer (`render::Renderer`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum MeshStyle {
    /// Lit, opaque, depth-tested and depth-writing.
    #[default]
    Solid,
    /// See-through: the same lighting, alpha-blended at `opacity` on surfaces facing the
    /// camera and rising toward silhouettes (a fresnel rim keeps outlines readable), front
    /// faces only, depth-tested against nothing and writing no depth. The grid is drawn before
    /// the meshes so it shows through them; overlays are drawn on top as always.
    XRay { opacity: f32 },
}

impl MeshStyle {
    /// The default x-ray opacity of facing surfaces.
    pub const XRAY_OPACITY: f32 = 0.35;

    /// X-ray at [`Self::XRAY_OPACITY`].
    pub fn xray() -> Self {
        Self::XRay {
            opacity: Self::XRAY_OPACITY,
        }
    }
}

impl FrameData {
    /// An empty frame (background only) for `camera`.
    pub fn new(camera: Camera) -> Self {
        Self {
            camera,
            skinned: Vec::new(),
            rigid: Vec::new(),
            grid: true,
            mesh_style: MeshStyle::Solid,
            overlays: Overlays::default(),
        }
    }
}

/// A skinned mesh with its joint palette.
///
/// `skin_matrices[j]` = `world_from_joint[j] × joint_from_bind[j]` (joint world × inverse bind),
/// column-major, indexed by the mesh's `joints` attribute. Joints beyond the palette are
/// treated as identity (never a panic).
#[derive(Debug, Clone)]
pub struct SkinnedDraw {
    pub mesh: MeshHandle,
    pub skin_matrices: Vec<[[f32; 4]; 4]>,
}

/// A rigid prop (rod, net, stool) placed by one model matrix (column-major). To attach the rod
/// to a hand, pass `world_from_grip × grip_from_rod`. A skinned mesh drawn rigidly shows its
/// bind pose. Non-finite matrices are skipped.
#[derive(Debug, Clone)]
pub struct RigidDraw {
    pub mesh: MeshHandle,
    pub world_from_mesh: [[f32; 4]; 4],
    /// Multiplies the mesh's base colour (use `[1.0; 4]` for none).
    pub tint: [f32; 4],
}

/// Overlays drawn on top of everything (no depth test, alpha-blended), like three.js's
/// `CCDIKHelper`. Order: triangles, arcs, lines, then spheres far-to-near, so a sphere's centre
/// pixel always shows the sphere's own colour.
#[derive(Debug, Clone, Default)]
pub struct Overlays {
    pub spheres: Vec<OverlaySphere>,
    pub lines: Vec<OverlayLine>,
    pub arcs: Vec<OverlayArc>,
    pub triangles: Vec<OverlayTriangle>,
}

impl Overlays {
    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.spheres.is_empty()
            && self.lines.is_empty()
            && self.arcs.is_empty()
            && self.triangles.is_empty()
    }
}

/// A sphere of world-space `radius` (scales with the rig), drawn as a screen-facing shaded
/// disc. With alpha 1 its centre pixel is exactly `rgba` (like three.js's opaque
/// `MeshBasicMaterial` helper spheres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverlaySphere {
    pub centre: [f32; 3],
    pub radius: f32,
    pub rgba: [f32; 4],
}

/// A polyline through `points` (world space) of constant screen width `width_px`.
#[derive(Debug, Clone, PartialEq)]
pub struct OverlayLine {
    pub points: Vec<[f32; 3]>,
    pub rgba: [f32; 4],
    pub width_px: f32,
}

/// A hinge-limit arc around `centre` in the plane normal to `axis`.
///
/// Angles are measured about `axis` (right-hand rule) from `start_dir` (projected into the
/// plane): the allowed range is `0..=sweep_rad` from `start_dir` (so `start_dir` is the
/// direction at the minimum angle and `sweep_rad = max − min`), and `current_angle` is the
/// joint's angle relative to that same start. The range is a translucent wedge (`fill_rgba`)
/// with an outline (`line_rgba`); the current angle is a line from the centre past the rim.
/// When `on_limit` is true the outline and the current-angle line use `limit_rgba`.
/// Degenerate axes or start directions (zero, parallel) are skipped, never NaN.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverlayArc {
    pub centre: [f32; 3],
    pub axis: [f32; 3],
    pub start_dir: [f32; 3],
    pub sweep_rad: f32,
    pub radius: f32,
    pub current_angle: f32,
    pub fill_rgba: [f32; 4],
    pub line_rgba: [f32; 4],
    pub limit_rgba: [f32; 4],
    pub on_limit: bool,
}

/// A translucent world-space triangle (e.g. the elbow's bend plane shoulder–elbow–wrist).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OverlayTriangle {
    pub points: [[f32; 3]; 3],
    pub rgba: [f32; 4],
}
