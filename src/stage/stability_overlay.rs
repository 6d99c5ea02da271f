//! The stability slice in the viewport (issue 36): per arm, the target positions round its
//! wrist target in a plane through it — the arm's bend plane, the view plane (facing the
//! camera) or the rod's plane (the blank and the reel) — solved as the poser solves them
//! ([`crate::fishing::StabilityJob`]), drawn as translucent cells coloured by class — stable,
//! sensitive, beyond the flip boundary, out of reach — so the places where the elbow would
//! pop show before the target gets there. Built from the current evaluation every frame: it
//! follows drags of the target and the pole as they happen. [`Stage::probe_slices`] reads out
//! the cell under the mouse.

use super::{Stage, colors};
use crate::draw::{Camera, OverlayTriangle, Overlays};
use crate::fishing::{
    ArmReport, MARGIN_REACH, MARGIN_STEP, PoseEvaluation, RayMargin, SIDES, SampleClass,
    StabilityGrid, StabilityJob, StabilitySample,
};
use crate::rig::Side;
use glam::DVec3;

/// Cells per side of the viewport's slice (odd: one on the target).
pub const SLICE_CELLS: usize = 21;
/// Half the slice's size, metres, for the bundled angler's size (scaled by the character's).
pub const SLICE_HALF_EXTENT: f64 = 0.08;
/// How opaque the slice's cells are.
const SLICE_ALPHA: f32 = 0.35;

/// The plane the viewport's slice lies in, through each arm's wrist target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SliceFacing {
    /// The arm's bend plane ([`StabilityGrid::bend_plane`]): the flip boundary crosses it.
    #[default]
    BendPlane,
    /// The view plane: the slice faces the camera, whatever the arm does.
    Camera,
    /// Fixed to the rod: the plane of the blank and the reel (the rod's hold frame), so the
    /// slice moves with the rod through the session.
    Rod,
}

impl SliceFacing {
    pub const ALL: [Self; 3] = [Self::BendPlane, Self::Camera, Self::Rod];

    /// Its name in the editor.
    pub fn label(self) -> &'static str {
        match self {
            Self::BendPlane => "bend plane",
            Self::Camera => "facing the camera",
            Self::Rod => "fixed to the rod",
        }
    }
}

/// The sRGB colour of a class (the CLI's picture uses the same).
pub fn class_hex(class: SampleClass) -> u32 {
    match class {
        SampleClass::Stable => colors::STABLE,
        SampleClass::Sensitive => colors::SENSITIVE,
        SampleClass::Flipped => colors::FLIPPED,
        SampleClass::OutOfReach => colors::OUT_OF_REACH,
    }
}

/// Adds both arms' slices of `stage` as evaluated in `eval` to `out`, lying as `facing`
/// says (seen through `camera`): each cell a quad (two triangles) centred on its sample. An
/// arm whose solve fails shows no slice.
pub fn stability_slices(
    stage: &Stage,
    eval: &PoseEvaluation,
    (facing, camera): (SliceFacing, &Camera),
    out: &mut Overlays,
) {
    for side in SIDES {
        let report = eval.arms.get(side);
        let grid = slice_grid(stage, eval, (side, report), facing, camera);
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

/// The cell of a slice under the mouse (see [`Stage::probe_slices`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SliceProbe {
    /// The arm whose slice it is.
    pub side: Side,
    /// The sample at the cell: its class, offset from the target and elbow sensitivity.
    pub sample: StabilitySample,
    /// Where the ray meets the slice, world space.
    pub hit_in_world: DVec3,
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

    /// The viewport slice's grid of `side`'s arm, lying as `facing` says (seen through
    /// `camera`; `None` before the first pose).
    pub fn slice_grid(
        &self,
        side: Side,
        facing: SliceFacing,
        camera: &Camera,
    ) -> Option<StabilityGrid> {
        let eval = self.evaluation()?;
        Some(slice_grid(
            self,
            eval,
            (side, eval.arms.get(side)),
            facing,
            camera,
        ))
    }

    /// The slice cell that the ray from `origin` along `dir` (world space, `dir` unit) meets
    /// first, of either arm's viewport slice lying as `facing` says: its sample solved as the
    /// slice solves it. `None` when the ray misses both slices (or before the first pose).
    pub fn probe_slices(
        &self,
        (facing, camera): (SliceFacing, &Camera),
        origin: DVec3,
        dir: DVec3,
    ) -> Option<SliceProbe> {
        let mut nearest: Option<(f64, Side, StabilityGrid, [usize; 3], DVec3)> = None;
        for side in SIDES {
            let grid = self.slice_grid(side, facing, camera)?;
            let target = self.evaluation()?.arms.get(side).wrist_target_in_world;
            let normal = grid.axes[2];
            let facing_ray = dir.dot(normal);
            if facing_ray.abs() < 1e-9 {
                continue;
            }
            let t = (target - origin).dot(normal) / facing_ray;
            if t.is_nan() || t <= 0.0 || nearest.is_some_and(|n| n.0 <= t) {
                continue;
            }
            let hit = origin + dir * t;
            let (spacing, n) = (grid.spacing(), grid.steps[0]);
            // The cell whose square holds the hit, along one of the slice's axes.
            let cell = |axis: DVec3| {
                let along = (hit - target).dot(axis);
                let k = ((along + grid.half_extent) / spacing).round();
                let inside = along.abs() <= grid.half_extent + 0.5 * spacing;
                (inside && k >= 0.0 && k < n as f64).then_some(k as usize)
            };
            if let (Some(i), Some(j)) = (cell(grid.axes[0]), cell(grid.axes[1])) {
                nearest = Some((t, side, grid, [i, j, 0], hit));
            }
        }
        let (_, side, grid, cell, hit_in_world) = nearest?;
        let slice = self.stability_job(side, grid)?.solve().ok()?;
        Some(SliceProbe {
            side,
            sample: *slice.at(cell),
            hit_in_world,
        })
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

/// The viewport slice of the arm `report` tells of (of `stage` as evaluated in `eval`),
/// [`SLICE_CELLS`] square and [`SLICE_HALF_EXTENT`] (scaled to the character) either way,
/// lying as `facing` says.
fn slice_grid(
    stage: &Stage,
    eval: &PoseEvaluation,
    (side, report): (Side, &ArmReport),
    facing: SliceFacing,
    camera: &Camera,
) -> StabilityGrid {
    let half = SLICE_HALF_EXTENT * stage.size_factor();
    let in_plane = |u: DVec3, v: DVec3| -> Option<StabilityGrid> {
        let u = u.try_normalize()?;
        let v = v.reject_from(u).try_normalize()?;
        Some(StabilityGrid {
            axes: [u, v, u.cross(v)],
            half_extent: half,
            steps: [SLICE_CELLS, SLICE_CELLS, 1],
        })
    };
    let plane = match facing {
        SliceFacing::BendPlane => None,
        SliceFacing::Camera => {
            let world_from_view = glam::Mat4::from_cols_array_2d(&camera.view_from_world)
                .as_dmat4()
                .inverse();
            in_plane(
                world_from_view.x_axis.truncate(),
                world_from_view.y_axis.truncate(),
            )
        }
        SliceFacing::Rod => {
            let world_from_hold =
                stage.world_from_actor.rotation * eval.frames.actor_from_hold.rotation;
            // The blank (+Y) and the reel's side (−Z) of the hold frame.
            in_plane(world_from_hold * DVec3::Y, world_from_hold * DVec3::NEG_Z)
        }
    };
    plane.unwrap_or_else(|| bend_plane_grid(stage, (side, report), half, SLICE_CELLS))
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
