//! The tackle's draw data (issue 34): the rod bent on its chain (GPU-skinned like the
//! character), the water's plane, and the line, lure and fish as overlays.

use super::meshes::WATER_EXTENT;
use super::{Stage, ViewOptions, colors, to_f32};
use crate::draw::{FrameData, MeshHandle, OverlayLine, OverlaySphere, RigidDraw, SkinnedDraw};
use glam::{DAffine3, DVec3};

/// The line's width on screen, pixels.
pub const LINE_WIDTH_PX: f32 = 2.0;

/// The lure's radius as drawn, metres (times the character's size).
pub const LURE_RADIUS: f64 = 0.015;

/// The fish's radius as drawn, metres (times the character's size).
pub const FISH_RADIUS: f64 = 0.06;

/// Pushes the rod's meshes (`rod`: handle and rod-from-mesh placement, crank turned) as
/// skinned draws on the bend chain when the last tackle bends the rod, each draw's palette the
/// chain's bend composed with the mesh's placement. False, with nothing pushed, when the rod
/// is straight (it is then drawn rigidly, exactly as without a line) or its meshes were
/// weighted on another chain.
pub(super) fn bent_rod(
    stage: &Stage,
    rod: &[(MeshHandle, DAffine3)],
    world_from_rod: &DAffine3,
    frame: &mut FrameData,
) -> bool {
    let Some(tackle) = stage.tackle() else {
        return false;
    };
    let bend = &tackle.bend;
    if bend.is_straight() || stage.table.rod_chain() != Some(bend.chain) {
        return false;
    }
    for &(mesh, rod_from_mesh) in rod {
        let skin_matrices = bend
            .bent_from_rest
            .iter()
            .map(|b| to_f32(*world_from_rod * *b * rod_from_mesh))
            .collect();
        frame.skinned.push(SkinnedDraw {
            mesh,
            skin_matrices,
        });
    }
    true
}

/// The water's plane, the line, the lure and the fish, as `options` asks.
pub(super) fn water_and_line(
    stage: &Stage,
    options: &ViewOptions,
    world: &DAffine3,
    frame: &mut FrameData,
) {
    let Some(tackle) = stage.tackle() else {
        return;
    };
    if let (true, Some(mesh)) = (options.water, stage.table.water()) {
        let [wide, long] = WATER_EXTENT;
        let placed =
            DAffine3::from_translation(DVec3::new(0.0, tackle.water.height, tackle.water.near))
                * DAffine3::from_scale(DVec3::new(wide, 1.0, long));
        frame.rigid.push(RigidDraw {
            mesh,
            world_from_mesh: to_f32(*world * placed),
            tint: [1.0; 4],
        });
    }
    if !options.line {
        return;
    }
    let to_world = |p: DVec3| world.transform_point3(p).as_vec3().to_array();
    let [r, g, b] = stage.inputs.state.params.line.colour;
    // From the reel through the rod's guides to the tip, then out to the lure.
    frame.overlays.lines.push(OverlayLine {
        points: tackle
            .reel_exit_in_actor
            .iter()
            .chain(&tackle.guides_in_actor)
            .chain(&tackle.line_in_actor)
            .map(|p| to_world(*p))
            .collect(),
        rgba: [r, g, b, 1.0],
        width_px: LINE_WIDTH_PX,
    });
    let k = stage.size_factor();
    // A fish that has taken the lure hides it.
    let (centre, radius, rgba) = match tackle.fish_in_actor {
        Some(fish) => (fish, FISH_RADIUS, colors::FISH),
        None => (tackle.lure_in_actor, LURE_RADIUS, colors::LURE),
    };
    frame.overlays.spheres.push(OverlaySphere {
        centre: to_world(centre),
        radius: (radius * k) as f32,
        rgba: colors::linear(rgba, 1.0),
    });
}
