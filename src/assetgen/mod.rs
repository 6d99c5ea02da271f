//! Deterministic generator for the bundled assets: `angler.glb`, `rod.glb`, `net.glb`,
//! `stool.glb`, `rod_surf.glb` and `rod_baitcaster.glb` (`anglerpose assets generate` writes them to `assets/`).
//!
//! Every run gives byte-identical files: fixed iteration orders, no timestamps, no hashing,
//! floats written with Rust's shortest round-trip formatting (see [`glb`]). The library only
//! returns bytes; writing files is the CLI's job.
//!
//! # The angler
//! glTF conventions: +Y up, metres, the figure faces **+Z**, its left (`.L`) is **+X**; the
//! origin is on the ground below the pelvis. Stature 1.75 m with Drillis & Contini segment
//! lengths (upper arm 0.186 H, forearm 0.146 H, thigh 0.245 H, shank 0.246 H, …).
//!
//! **Rest pose = seated base pose.** The figure sits on a 0.45 m stool ([`props::STOOL_HEIGHT`]):
//! the pelvis joint is 0.53 m above the ground, the thighs run forward (+Z) and slightly down to
//! knees 0.505 m high, the shins are near vertical with the ankles just in front of the knees and
//! the boots flat on the ground. The torso is upright, leaning a little forward. The upper arms
//! hang 20° forward and 12° out, the elbows are bent 45° (so the elbow's natural bend direction
//! is well defined) with the hands just above and outside the knees, wrists are neutral with the palms turned inward and somewhat down, the
//! fingers are relaxed (14°/22°/14° at the three knuckles) and the thumbs oppose the palms.
//!
//! Joints (53; parents first): `root` (on the ground; carries no weight), `pelvis`,
//! `spine_01..03`, `neck`, `head`; per side `clavicle`, `upperarm`, `forearm`, `hand`,
//! `thumb_01..03`, `index_01..03`, `middle_01..03`, `ring_01..03`, `pinky_01..03`; then per side
//! `thigh`, `shin`, `foot`, `toe`, each with `.L` or `.R`.
//!
//! Joint frames: local **+Y runs along the bone** toward its child (like Blender exports).
//! Local **+X is the main hinge**: the figure's left (world +X) for the spine, neck, head and
//! legs (so +X rotation bends the knees further); the elbow hinge for both arm bones (+X rotation
//! flexes the elbow); the knuckle axis for fingers (+X rotation curls toward the palm); the
//! thumb's flexion axis across the palm; the clavicle's +X points forward (rotation about it
//! raises or lowers the shoulder). Right-side frames mirror the left ones with the hinge taken
//! as an axial vector, so the same signed rotation flexes both sides alike.
//!
//! Mesh: a smooth signed-distance body ([`sdf`], [`body`]) meshed by surface nets ([`mesher`]) in
//! four regions — body at 17 mm, head at 7.5 mm, each hand at 4.2 mm (about 23,000 vertices in
//! all) — written as four primitives (`body`, `head`, `hand.L`, `hand.R`) of one mesh sharing one
//! skin; the head and hands overlap the collar and sleeves so there are no gaps. Body parts blend
//! smoothly only with their skeletal neighbours, so arms never melt into the torso or thighs. `COLOR_0` carries the
//! clothes (material base colour is white). Weights: see [`skinning`].
//!
//! # The props
//! - `rod.glb`: a 2.4 m spinning rod along **+Y**, butt at the origin; cork rear grip 0–0.30 m,
//!   reel seat 0.34–0.46 m with the reel hanging below it (−Z), seven guides on the −Z side.
//!   Empty nodes: `grip_rear` at 0.08 m, `grip_front` at 0.40 m (reel seat), `tip` at 2.4 m.
//! - `net.glb`: handle 1.2 m along +Y from the origin (grip end), 0.5 m hoop beyond it in the
//!   XY plane, bag hanging toward −Z. Empty node `grip` at 0.1 m.
//! - `rod_surf.glb`, `rod_baitcaster.glb`: two more rods, modelled off the canonical frame
//!   (Z-up; along −X in centimetres), for calibrating on rods other than the bundled one
//!   (see [`rods`]).
//! - `stool.glb`: four-legged camping stool, origin on the ground below the seat centre, seat top
//!   at y = 0.45 m. Empty node `seat` at the seat top centre.

pub mod angler;
pub mod body;
pub mod glb;
pub mod heat;
pub mod mesher;
pub mod props;
pub mod rods;
pub mod sdf;
pub mod shapes;
pub mod simplify;
pub mod skeleton;
pub mod skinning;

/// One generated file: its name inside the assets folder and its bytes.
pub struct GeneratedFile {
    pub file_name: &'static str,
    pub bytes: Vec<u8>,
}

/// All bundled assets, in a fixed order.
pub fn generate_all() -> Vec<GeneratedFile> {
    vec![
        GeneratedFile {
            file_name: "angler.glb",
            bytes: angler::angler_glb(),
        },
        GeneratedFile {
            file_name: "rod.glb",
            bytes: props::rod_glb(),
        },
        GeneratedFile {
            file_name: "net.glb",
            bytes: props::net_glb(),
        },
        GeneratedFile {
            file_name: "stool.glb",
            bytes: props::stool_glb(),
        },
        GeneratedFile {
            file_name: "rod_surf.glb",
            bytes: rods::surf_glb(),
        },
        GeneratedFile {
            file_name: "rod_baitcaster.glb",
            bytes: rods::baitcaster_glb(),
        },
    ]
}
