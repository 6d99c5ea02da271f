//! View options and camera presets framing the seated angler with his rod.

use super::OverlayOptions;
use crate::draw::Camera;

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewOptions {
    /// Draw the character's skinned mesh (props stay visible either way).
    pub mesh_visible: bool,
    /// Draw the character and props see-through ([`crate::draw::MeshStyle::XRay`]).
    pub xray: bool,
    pub grid: bool,
    /// Draw the water's surface (issue 34).
    pub water: bool,
    /// Draw the line, the lure and the fish (issue 34).
    pub line: bool,
    pub overlays: OverlayOptions,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            mesh_visible: true,
            xray: false,
            grid: true,
            water: true,
            line: true,
            overlays: OverlayOptions::default(),
        }
    }
}

/// Named viewpoints (actor space: the angler faces +Z, his left is +X).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CameraPreset {
    Front,
    Side,
    ThreeQuarter,
    /// Close on the hands and the rod's grips.
    Hands,
}

/// A perspective camera for `preset` at `size` pixels, framing the angler and the rod.
pub fn camera_for(preset: CameraPreset, size: [u32; 2]) -> Camera {
    camera_for_scaled(preset, size, 1.0)
}

/// Like [`camera_for`] for a character `scale` times the angler's seated size (see
/// [`super::Stage::size_factor`]): eye and target scale about the actor origin.
pub fn camera_for_scaled(preset: CameraPreset, size: [u32; 2], scale: f64) -> Camera {
    let (eye, target) = match preset {
        CameraPreset::Front => ([0.35, 1.25, 4.1], [0.0, 0.95, 0.55]),
        CameraPreset::Side => ([-4.0, 1.3, 0.8], [0.0, 0.95, 0.55]),
        CameraPreset::ThreeQuarter => ([-2.3, 1.55, 2.5], [0.05, 0.9, 0.5]),
        CameraPreset::Hands => ([-0.75, 1.15, 1.05], [-0.05, 0.75, 0.3]),
    };
    let k = scale as f32;
    let eye = eye.map(|v| v * k);
    let target = target.map(|v| v * k);
    Camera::look_at(
        eye,
        target,
        [0.0, 1.0, 0.0],
        40f32.to_radians(),
        size,
        0.05 * k.min(1.0),
        100.0 * k.max(1.0),
    )
}

/// The direction a close-up of one hand on a handle looks from first (issue 33; world, unit
/// length): through the handle, from whichever side faces up — the back of an overhand
/// hand, the top of the handle over an underhand one (a lap or a reel below hides the other
/// side). A hand beside the handle (a spinning rod's seat) is seen from its fingers' side,
/// beyond the handle, unless that side faces clearly down. `world_from_grip` is the hand's
/// grip frame (see `Stage::grip_in_world`); `Stage::close_up` turns the view about the
/// handle where the character's own body fills this one.
pub fn grip_view_direction(world_from_grip: &crate::rig::Transform) -> glam::DVec3 {
    let z = world_from_grip.rotation * glam::DVec3::Z;
    let upward = if z.y >= -SIDEWAYS { z } else { -z };
    (upward + glam::DVec3::Y * 0.5).normalize_or(glam::DVec3::Y)
}

/// How far below the horizontal (the sine) a grip's palm → axis direction may point and
/// [`grip_view_direction`] still look from the fingers' side.
const SIDEWAYS: f64 = 0.4;

/// A close-up of a hand on its grip, a handle or the reel's knob (issue 33): looking at the
/// origin of the grip frame `world_from_grip` from `from` (world, any length; see
/// [`grip_view_direction`] and `KNOB_VIEWS`; not straight up or down), `share` of
/// [`CLOSE_UP_DISTANCE`] away (1: the usual distance; scaled by the character's size
/// `scale`), 30° field of view.
pub fn close_up_from(
    world_from_grip: &crate::rig::Transform,
    from: glam::DVec3,
    share: f64,
    size: [u32; 2],
    scale: f64,
) -> Camera {
    let k = scale as f32;
    let target = world_from_grip.translation.as_vec3();
    let dir = from.as_vec3().normalize_or(glam::Vec3::Y) * CLOSE_UP_DISTANCE * share as f32 * k;
    Camera::look_at(
        (target + dir).to_array(),
        target.to_array(),
        [0.0, 1.0, 0.0],
        30f32.to_radians(),
        size,
        0.01 * k.min(1.0),
        100.0 * k.max(1.0),
    )
}

/// A close-up's distance from the grip, metres (times the character's size).
pub const CLOSE_UP_DISTANCE: f32 = 0.3;

/// Where a knob close-up may look from, in the order preferred, as `(x, y, z, up)`: parts of
/// the knob grip frame's axes and of world up. The knob's axis (grip Z) runs from the palm to
/// the reel, so every view is across it: first from beside the hand toward the butt and a
/// little above (the thumb over the knob, the index under it and the crank show, neither the
/// reel nor the palm in the way), then round the hand for a body or an arm that fills that one.
pub const KNOB_VIEWS: [[f64; 4]; 6] = [
    [-1.0, -0.5, 0.0, 0.3],
    [-1.0, -1.0, 0.0, 0.0],
    [0.0, -1.0, -0.5, 0.0],
    [0.0, -1.0, 0.0, 0.3],
    [-0.5, -0.5, -1.0, 0.3],
    [1.0, -1.0, 0.0, 0.0],
];
