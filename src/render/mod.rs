//! The wgpu renderer: GPU-skinned meshes, rigid props, a ground grid, CCD-helper style overlays
//! (spheres, lines, limit arcs, translucent triangles) and offscreen capture.
//!
//! The renderer takes plain per-frame data ([`FrameData`]) and never imports the editor or the
//! solvers. All matrices are `[[f32; 4]; 4]` in **column-major** order (glam's
//! `Mat4::to_cols_array_2d`), all positions are world space (glTF convention: right-handed,
//! +Y up, metres). Colours are linear RGBA in `0..=1`; output is sRGB-encoded (by the target
//! format when it is an `*Srgb` format, by the shader otherwise).
//!
//! Frame order: background gradient → skinned and rigid meshes (depth-tested, 4× MSAA where
//! offered) → ground grid (depth-tested, no depth write) → overlays (no depth test, alpha
//! blended: triangles, then lines, then spheres far-to-near). With [`MeshStyle::XRay`] the
//! grid comes before the meshes, which are drawn by the x-ray pipeline (alpha-blended, front
//! faces, no depth write) so what lies behind and inside them shows through.
//!
//! Use: `Gpu::new_headless()` (or `Gpu::from_instance` with a window surface) →
//! `Renderer::new(&gpu, format, gpu.best_sample_count(format))` → `upload_mesh` once per mesh →
//! each frame build a [`FrameData`] and call `Renderer::render` (or `encode` into your own
//! encoder). One-shot PNG capture: [`capture::render_to_image`]. With the
//! `test-support` feature (on for tests and benches), `skin_check` reads GPU-skinned
//! positions back; the synthetic demo scene of the renderer's tests is `tests/support/demo.rs`.

pub mod capture;
mod frame_uniform;
pub mod gpu;
pub mod grid;
pub mod mesh;
pub mod overlay;
mod renderer;
#[cfg(feature = "test-support")]
pub mod skin_check;
pub mod skinned;

// The plain data it draws, where its users have always found it.
pub use crate::draw::{
    Camera, FrameData, MeshData, MeshHandle, MeshStyle, OverlayArc, OverlayLine, OverlaySphere,
    OverlayTriangle, Overlays, RigidDraw, SkinnedDraw, TextureData,
};
pub use gpu::Gpu;
pub use renderer::Renderer;

/// Everything that can go wrong in the renderer. Never a panic on bad input.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No wgpu adapter exists (no GPU and no CPU rasteriser such as Mesa llvmpipe/lavapipe).
    #[error(
        "no GPU adapter found (backends tried: {backends}); install Mesa's CPU drivers \
         (`apt-get install mesa-vulkan-drivers libvulkan1` or `libegl-mesa0 libgl1-mesa-dri`) \
         or set WGPU_BACKEND=vulkan|gl: {detail}"
    )]
    NoAdapter { backends: String, detail: String },
    /// The adapter refused to create a device.
    #[error("GPU adapter '{adapter}' refused to create a device: {detail}")]
    RequestDevice { adapter: String, detail: String },
    /// Mesh data is inconsistent (lengths, indices, texture size, non-finite values).
    #[error("invalid mesh '{mesh}': {problem}")]
    InvalidMesh { mesh: String, problem: String },
    /// A requested image or frame size is zero or larger than the device allows.
    #[error("invalid frame size {width}x{height}: {problem}")]
    InvalidSize {
        width: u32,
        height: u32,
        problem: String,
    },
    /// Reading a buffer back from the GPU failed.
    #[error("GPU readback failed: {0}")]
    Readback(String),
    /// wgpu reported a validation or out-of-memory error.
    #[error("GPU error during {during}: {detail}")]
    Gpu { during: String, detail: String },
}
