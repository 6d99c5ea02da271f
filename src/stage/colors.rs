//! Overlay colours as sRGB hex (three.js `CCDIKHelper` conventions for the CCD spheres and
//! polyline); [`linear`] converts them for the renderer. The stage chooses what each overlay
//! means and so its colour; the renderer only draws the colours it is handed.

/// CCD target sphere (three.js `CCDIKHelper`).
pub const TARGET: u32 = 0xff8888;
/// CCD effector sphere.
pub const EFFECTOR: u32 = 0x88ff88;
/// CCD link spheres.
pub const LINK: u32 = 0x8888ff;
/// Two-bone IK pole marker (amber, distinct from the CCD colours).
pub const POLE: u32 = 0xffc040;
/// Polyline target → effector → links.
pub const POLYLINE: u32 = 0xff0000;
/// Bone lines.
pub const BONE: u32 = 0xe8e8e8;
/// Limit arc: allowed range wedge (use with alpha ≈ 0.3) and its outline.
pub const ARC: u32 = 0x30e0b0;
/// Limit arc outline and current-angle line when the joint sits on a limit.
pub const ARC_ON_LIMIT: u32 = 0xff6020;
/// Elbow bend plane (use with alpha ≈ 0.25).
pub const BEND_PLANE: u32 = 0xffe060;
/// A handle the current solver ignores (the pole of a CCD arm).
pub const UNUSED: u32 = 0x8a8a8a;
/// Grip markers along an artist's rod (rear grip, reel seat) and the blank line.
pub const ROD_MARKER: u32 = 0x40c8ff;

/// A finger touching the handle (contact grips).
pub const CONTACT_TOUCHING: u32 = 0x20c060;
/// A finger closed to its limits short of the handle.
pub const CONTACT_GAP: u32 = 0xffb000;
/// A finger that could not leave the handle.
pub const CONTACT_INSIDE: u32 = 0xd000d0;

/// Stability slice (issue 36): a target the arm reaches calmly.
pub const STABLE: u32 = 0x46a05a;
/// Stability slice: reached, but the elbow moves over three times as far as the target.
pub const SENSITIVE: u32 = 0xe6b432;
/// Stability slice: beyond the flip boundary.
pub const FLIPPED: u32 = 0xd23c3c;
/// Stability slice: out of reach.
pub const OUT_OF_REACH: u32 = 0x6e6e78;

/// The lure hanging from the line or flying (issue 34).
pub const LURE: u32 = 0xf06030;
/// The fish on the line (issue 34).
pub const FISH: u32 = 0xa8b8c0;

/// Linear RGBA for an sRGB hex colour, so the rendered pixel is exactly `hex` at alpha 1.
pub fn linear(hex: u32, alpha: f32) -> [f32; 4] {
    let channel = |shift: u32| {
        let c = ((hex >> shift) & 0xff) as f32 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [channel(16), channel(8), channel(0), alpha]
}
