//! Plain draw data (issue 38, item 2): the camera, meshes and textures as data, and what to
//! draw each frame (meshes, mesh style, CCD-helper overlays). The stage builds it from the
//! core's results; the renderer draws it. Nothing here knows wgpu, and nothing here imports
//! the stage or the renderer.

pub mod camera;
pub mod frame;
pub mod mesh_data;

pub use camera::Camera;
pub use frame::{
    FrameData, MeshStyle, OverlayArc, OverlayLine, OverlaySphere, OverlayTriangle, Overlays,
    RigidDraw, SkinnedDraw,
};
pub use mesh_data::{MeshData, MeshHandle, TextureData};

/// An sRGB-encoded channel in `0..=1` as linear light (the sRGB transfer function inverted):
/// what glTF's `COLOR_0` and base colours hold, and what the renderer takes.
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}
