//! The stability slice in the viewport (issue 36): per arm, the target positions round its
//! wrist target in the arm's bend plane, solved as the poser solves them
//! ([`crate::fishing::StabilityJob`]), drawn as translucent cells coloured by class — stable,
//! sensitive, beyond the flip boundary, out of reach — so the places where the elbow would
//! pop show before the target gets there. Built from the current evaluation every frame: it
//! follows drags of the target and the pole as they happen.

use super::{Stage, colors};
use crate::fishing::{
    ArmReport, MARGIN_REACH, MARGIN_STEP, PoseEvaluation, RayMargin, SIDES, SampleClass,
    StabilityGrid, StabilityJob,
};
use crate::render::{OverlayTriangle, Overlays};
use crate::rig::Side;
use glam::DVec3;

/// Cells per side of the viewport's slice (odd: one on the target).
pub const SLICE_CELLS: usize = 21;
/// Half the slice's size, metres, for the bundled angler's size (scaled by the character's).
pub const SLICE_HALF_EXTENT: f64 = 0.08;
/// How opaque the slice's cells are.
const SLICE_ALPHA: f32 = 0.35;

/// The sRGB colour of a class (the CLI's picture uses the same).
pub fn class_hex(class: SampleClass) -> u32 {
    match class {
        SampleClass::Stable => colors::STABLE,
        SampleClass::Sensitive => colors::SENSITIVE,
        SampleClass::Flipped => colors::FLIPPED,
        SampleClass::OutOfReach => colors::OUT_OF_REACH,
    }
}

/// Adds both arms' slices of `stage` as evaluated in `eval` to `out`: each cell a quad
/// (two triangles) centred on its sample, in the arm's bend plane through its target
/// ([`StabilityGrid::bend_plane`]). An arm whose solve fails shows no slice.
pub fn stability_slices(stage: &Stage, eval: &PoseEvaluation, out: &mut Overlays) {
    let half = SLICE_HALF_EXTENT * stage.size_factor();
    for side in SIDES {
        let report = eval.arms.get(side);
        let grid = bend_plane_grid(stage, (side, report), half, SLICE_CELLS);
        let job = StabilityJob::for_arm(
            &stage.actor,
            &stage.inputs.settings,
            &stage.pose,
            (side, report),
            grid,
        );
        let Ok(slice) = job.solve() else { continue };
        let cell = grid.spacing() * 0.5;
        let (u, v) = (grid.axes[0] * cell, grid.axes[1] * cell);
        for s in &slice.samples {
            let c = report.wrist_target_in_world + s.offset;
            let corner = |a: f64, b: f64| f32s(c + u * a + v * b);
            let rgba = colors::linear(class_hex(s.class), SLICE_ALPHA);
            let (p00, p10, p11, p01) = (
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            );
            out.triangles.push(OverlayTriangle {
                points: [p00, p10, p11],
                rgba,
            });
            out.triangles.push(OverlayTriangle {
                points: [p00, p11, p01],
                rgba,
            });
        }
    }
}

/// What the editor reads out for one arm: its margin (rays out to [`MARGIN_REACH`] times the
/// character's size) and how far its elbow moves per metre its target moves, at the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StabilityReadout {
    /// The margin along rays.
    pub margin: RayMargin,
    /// The elbow's motion per target motion at the target (5 mm neighbours, scaled).
    pub sensitivity: f64,
}

impl Stage {
    /// The stability job of `side`'s arm round the wrist target and pole of the current
    /// evaluation, over `grid` (`None` before the first pose).
    pub fn stability_job(&self, side: Side, grid: StabilityGrid) -> Option<StabilityJob<'_>> {
        let report = self.evaluation()?.arms.get(side);
        Some(StabilityJob::for_arm(
            &self.actor,
            &self.inputs.settings,
            &self.pose,
            (side, report),
            grid,
        ))
    }

    /// An `n × n` slice of `half_extent` either way in `side`'s arm's bend plane through its
    /// wrist target ([`StabilityGrid::bend_plane`]; `None` before the first pose).
    pub fn bend_plane_grid(&self, side: Side, half_extent: f64, n: usize) -> Option<StabilityGrid> {
        let report = self.evaluation()?.arms.get(side);
        Some(bend_plane_grid(self, (side, report), half_extent, n))
    }

    /// The stability read-out of `side`'s arm at the current evaluation (`None` before the
    /// first pose, or when the arm's solve fails).
    pub fn stability_readout(&self, side: Side) -> Option<StabilityReadout> {
        let k = self.size_factor();
        let job = self.stability_job(
            side,
            StabilityGrid {
                axes: [DVec3::X, DVec3::Y, DVec3::Z],
                half_extent: 0.005 * k,
                steps: [3, 3, 3],
            },
        )?;
        let margin = job
            .margin_along_rays(MARGIN_STEP * k, MARGIN_REACH * k)
            .ok()?;
        let sensitivity = job.solve().ok()?.at([1, 1, 1]).sensitivity;
        Some(StabilityReadout {
            margin,
            sensitivity,
        })
    }
}

/// The bend-plane slice of the arm `report` tells of, its shoulder where `stage` posed it.
fn bend_plane_grid(
    stage: &Stage,
    (side, report): (Side, &ArmReport),
    half_extent: f64,
    n: usize,
) -> StabilityGrid {
    let shoulder = stage.pose.world_position(stage.actor.arm(side).upper);
    StabilityGrid::bend_plane(
        shoulder,
        report.wrist_target_in_world,
        report.pole_in_world,
        half_extent,
        n,
    )
}

fn f32s(v: DVec3) -> [f32; 3] {
    [v.x as f32, v.y as f32, v.z as f32]
}
