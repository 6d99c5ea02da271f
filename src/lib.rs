//! anglerpose — a fishing-pose editor.
//!
//! The core (`rig`, `ik`) is pure Rust + glam in `f64`: no GPU, no UI and no file I/O inside
//! the solvers. Loaders, the renderer and the editor depend on the core, never the reverse.
//! See `ARCHITECTURE.md` for the module map and data flow.

pub mod assetgen;
pub mod draw;
pub mod editor;
pub mod fishing;
pub mod fuzz_entry;
pub mod gltf_io;
pub mod ik;
pub mod oracle;
pub mod preset;
pub mod render;
pub mod rig;
pub mod stage;
pub mod test_skip;
