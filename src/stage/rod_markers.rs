//! The grip markers of an artist's rod: the rear grip and the reel seat on the blank, where
//! detection (or the artist) put them. Drawn as spheres on the blank with a line along the
//! handle; the editor drags them along the blank.

use super::Stage;
use super::colors;
use crate::draw::{OverlayLine, OverlaySphere, Overlays};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A grip marker on the blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RodMarker {
    /// The butt: the end of the rod the grips are measured from.
    Butt,
    /// Where the rear hand holds the rod.
    RearGrip,
    /// Where the front hand holds the rod (the reel's stem between its fingers).
    ReelSeat,
}

impl RodMarker {
    /// Both markers, butt first.
    pub const ALL: [RodMarker; 3] = [RodMarker::Butt, RodMarker::RearGrip, RodMarker::ReelSeat];

    /// `rear grip` or `reel seat`.
    pub fn label(self) -> &'static str {
        match self {
            RodMarker::Butt => "butt",
            RodMarker::RearGrip => "rear grip",
            RodMarker::ReelSeat => "reel seat",
        }
    }
}

/// The blank in world space as (butt, unit direction toward the tip, world units per metre
/// along it), when the stage has been posed.
pub fn blank_in_world(stage: &Stage) -> Option<(DVec3, DVec3, f64)> {
    let eval = stage.evaluation()?;
    let hold = eval.frames.actor_from_hold;
    let world = stage.world_from_actor.to_affine();
    let butt = world.transform_point3(hold.translation);
    let along = world.transform_vector3(hold.rotation * DVec3::Y);
    let k = along.length();
    (k > 0.0).then(|| (butt, along / k, k))
}

/// Metres from the butt of `marker` on the current rod.
pub fn marker_along(stage: &Stage, marker: RodMarker) -> f64 {
    let rod = &stage.actor.gear.rod;
    match marker {
        RodMarker::Butt => 0.0,
        RodMarker::RearGrip => rod.rear_grip,
        RodMarker::ReelSeat => rod.reel_seat,
    }
}

/// Where `marker` is in world space; `None` for the bundled rod (nothing to correct) or an
/// unposed stage.
pub fn marker_in_world(stage: &Stage, marker: RodMarker) -> Option<DVec3> {
    stage.props.rod_model.as_ref()?;
    let (butt, dir, k) = blank_in_world(stage)?;
    Some(butt + dir * (marker_along(stage, marker) * k))
}

/// The markers' spheres (butt, rear grip, reel seat) and the handle line through them
/// (artist's rods only).
pub fn rod_marker_overlays(stage: &Stage, out: &mut Overlays) {
    let radius = (0.008 * stage.actor.height) as f32;
    let f = |v: DVec3| [v.x as f32, v.y as f32, v.z as f32];
    let mut points = Vec::new();
    for marker in RodMarker::ALL {
        let Some(p) = marker_in_world(stage, marker) else {
            return;
        };
        points.push(f(p));
        out.spheres.push(OverlaySphere {
            centre: f(p),
            radius,
            rgba: colors::linear(colors::ROD_MARKER, 1.0),
        });
    }
    out.lines.push(OverlayLine {
        points,
        rgba: colors::linear(colors::ROD_MARKER, 0.7),
        width_px: 2.0,
    });
}
