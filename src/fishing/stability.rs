//! How far an arm's target can move before its elbow flips or the arm cannot reach (issue
//! 36): the flip that has not happened yet. Around the wrist target, target positions on a
//! grid (a slice through the target, or a small volume) are each solved by the arm's own
//! solver (two-bone or CCD) from the arm's base locals, as the poser solves it, with the
//! body and shoulder as posed. Per sample: reached, clamped by a limit, the bend-plane normal,
//! the elbow and how far it moves per metre of target motion. A sample whose bend normal is
//! turned more than 90° from the solution at the target is beyond the **flip boundary** (the
//! pole–target alignment singularity lies on it: the bend plane turns over there); one the
//! wrist does not reach is beyond the **reach boundary**. The arm's **margin** is the distance
//! from the target to the nearest such sample. Pure: no I/O.

use super::actor::ActorRig;
use super::arm_report::{ArmIk, ArmReport, SolverDetail};
use super::poser::{SessionError, links_direct, restore_arm, restored_bones, solve_arm};
use super::settings::SolverSettings;
use crate::rig::{BoneStates, Pose, Side};
use glam::DVec3;

/// Elbow motion per target motion above which a sample is sensitive: the elbow moves three
/// times as far as the target.
pub const SENSITIVE: f64 = 3.0;

/// Where the samples lie: `steps[i]` positions along `axes[i]` (unit, orthogonal), evenly
/// from `-half_extent` to `+half_extent` about the target (one step: only the target's
/// coordinate). A slice is `[n, n, 1]`, a volume `[n, n, n]`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StabilityGrid {
    /// The grid's axes, world space.
    pub axes: [DVec3; 3],
    /// Half the grid's size along each axis with more than one step, metres.
    pub half_extent: f64,
    /// Positions along each axis.
    pub steps: [usize; 3],
}

impl StabilityGrid {
    /// The offset from the target of cell `c`, world space.
    pub fn offset(&self, c: [usize; 3]) -> DVec3 {
        (0..3)
            .map(|i| {
                let n = self.steps[i];
                let u = if n > 1 {
                    -1.0 + 2.0 * c[i] as f64 / (n - 1) as f64
                } else {
                    0.0
                };
                self.axes[i] * (u * self.half_extent)
            })
            .sum()
    }

    /// A square slice of `n × n` samples (`half_extent` either way) in the arm's bend plane
    /// through `target`: the first axis from `shoulder` to the target, the second toward
    /// the pole's side of that line, the third their normal — so the shoulder–pole line,
    /// where the bend plane turns over, lies in the slice. A pole on the shoulder–target
    /// line (or a target on the shoulder) takes any plane through the line.
    pub fn bend_plane(
        shoulder: DVec3,
        target: DVec3,
        pole: DVec3,
        half_extent: f64,
        n: usize,
    ) -> Self {
        let u = (target - shoulder).normalize_or(DVec3::Z);
        let to_pole = pole - shoulder;
        // A pole on (or within rounding of) the shoulder → target line leaves no plane: any
        // one through the line, its axes orthogonal to working precision either way.
        let across = to_pole - u * to_pole.dot(u);
        let v = if across.length() > 1e-9 * to_pole.length() {
            across.normalize()
        } else {
            u.any_orthonormal_vector()
        };
        let v = (v - u * v.dot(u)).normalize_or(u.any_orthonormal_vector());
        Self {
            axes: [u, v, u.cross(v)],
            half_extent,
            steps: [n, n, 1],
        }
    }

    /// Distance between neighbouring samples, metres (infinite with one step per axis).
    pub fn spacing(&self) -> f64 {
        self.steps
            .iter()
            .filter(|&&n| n > 1)
            .map(|&n| 2.0 * self.half_extent / (n - 1) as f64)
            .fold(f64::INFINITY, f64::min)
    }

    fn len(&self) -> usize {
        self.steps.iter().product()
    }

    fn cell(&self, k: usize) -> [usize; 3] {
        let [a, b, _] = self.steps;
        [k % a, (k / a) % b, k / (a * b)]
    }

    fn index(&self, c: [usize; 3]) -> usize {
        let [a, b, _] = self.steps;
        c[0] + a * (c[1] + b * c[2])
    }
}

/// What one sample is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleClass {
    /// Reached, the elbow on the target's side and calm.
    Stable,
    /// Reached and not flipped, but the elbow moves more than [`SENSITIVE`] times as far as
    /// the target.
    Sensitive,
    /// Beyond the flip boundary: the bend plane turned more than 90°.
    Flipped,
    /// Beyond the reach boundary: the wrist does not get there.
    OutOfReach,
}

impl SampleClass {
    /// Its name in reports: `stable`, `sensitive`, `flipped`, `out-of-reach`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Stable => "stable",
            Self::Sensitive => "sensitive",
            Self::Flipped => "flipped",
            Self::OutOfReach => "out-of-reach",
        }
    }
}

/// The arm of a job solved at one target after another: a copy of its pose and the CCD
/// solver's buffers, the arm's locals restored before each solve as the poser restores them.
struct ArmSolves<'j, 'a> {
    job: &'j StabilityJob<'a>,
    work: Pose,
    ccd: super::ccd_arm::CcdArmWork,
    /// The arm as the first restore left it, put back before every later solve (a copy of
    /// the same numbers, not recomputed); `None` until then, or where the arm's links are
    /// not parent and child (twist bones between them are refreshed by `restore_arm`).
    restored: Option<BoneStates>,
}

impl<'j, 'a> ArmSolves<'j, 'a> {
    fn new(job: &'j StabilityJob<'a>) -> Self {
        Self {
            job,
            work: job.pose.clone(),
            ccd: Default::default(),
            restored: None,
        }
    }

    /// The arm solved onto `target` (world space).
    fn at(&mut self, target: DVec3) -> Result<(ArmIk, SolverDetail), SessionError> {
        let (actor, j) = (self.job.actor, self.job);
        let arm = actor.arm(j.side);
        match &self.restored {
            Some(states) => self.work.put_back(states),
            None => {
                restore_arm(actor, arm, &mut self.work);
                if links_direct(&actor.skeleton, arm) {
                    let bones: Vec<usize> = restored_bones(arm).collect();
                    self.restored = Some(self.work.bone_states(&bones));
                }
            }
        }
        solve_arm(
            &mut self.ccd,
            actor,
            arm,
            j.settings,
            target,
            j.pole_in_world,
            &mut self.work,
        )
    }
}

/// Whether a solved target is beyond a boundary: out of reach, or its bend normal turned
/// more than 90° from `centre_normal` (the solution at the arm's target). The one rule the
/// grid and the rays both use.
fn unstable(reached: bool, bend_normal: DVec3, centre_normal: DVec3) -> Option<SampleClass> {
    if !reached {
        Some(SampleClass::OutOfReach)
    } else if bend_normal.dot(centre_normal) < 0.0 {
        Some(SampleClass::Flipped)
    } else {
        None
    }
}

/// The directions [`StabilityJob::margin_along_rays`] walks: the six axes and the eight
/// cube diagonals.
const RAYS: [[f64; 3]; 14] = [
    [1.0, 0.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, -1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
    [1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, 1.0],
    [1.0, -1.0, -1.0],
    [-1.0, 1.0, 1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [-1.0, -1.0, -1.0],
];
/// Bisection steps after a ray's first unstable step: the boundary to 1/32 of a step.
const RAY_BISECTIONS: usize = 5;

/// The margin found along rays (see [`StabilityJob::margin_along_rays`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct RayMargin {
    /// Distance to the nearest boundary met along any ray, metres; `reach` when none is met.
    pub margin: f64,
    /// That ray's direction (unit; zero when none is met).
    pub direction: DVec3,
    /// What is beyond the boundary met first (`None`: none within `reach`).
    pub nearest: Option<SampleClass>,
}

/// One solved target position.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct StabilitySample {
    /// Its cell in the grid.
    pub cell: [usize; 3],
    /// The target moved by this, world space.
    pub offset: DVec3,
    /// The wrist reached it.
    pub reached: bool,
    /// The elbow ended on its limit.
    pub limited: bool,
    /// The bend-plane normal (as the flip debugger reads it).
    pub bend_normal: DVec3,
    /// The elbow, world space.
    pub elbow_in_world: DVec3,
    /// The bend normal is turned more than 90° from the solution at the target.
    pub flipped: bool,
    /// The most the elbow moves per metre the target moves, toward its grid neighbours.
    pub sensitivity: f64,
    /// Its class.
    pub class: SampleClass,
}

/// One arm's stability at one instant.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StabilityReport {
    /// The grid solved.
    pub grid: StabilityGrid,
    /// Every sample, the first axis fastest.
    pub samples: Vec<StabilitySample>,
    /// The bend normal of the solution at the target.
    pub bend_normal: DVec3,
    /// The arm reaches its target.
    pub reached: bool,
    /// Distance from the target to the nearest flipped or unreachable sample, metres; with
    /// none in the grid, the grid's half extent (the margin is at least that).
    pub margin: f64,
    /// Toward that sample from the target (unit; zero with none in the grid).
    pub margin_direction: DVec3,
    /// The nearest is a flip (else out of reach; `None`: nothing unstable in the grid).
    pub nearest: Option<SampleClass>,
}

impl StabilityReport {
    /// How many samples are of `class`.
    pub fn count(&self, class: SampleClass) -> usize {
        self.samples.iter().filter(|s| s.class == class).count()
    }

    /// The sample at `cell`.
    pub fn at(&self, cell: [usize; 3]) -> &StabilitySample {
        &self.samples[self.grid.index(cell)]
    }
}

/// The stability of `side`'s arm around its wrist target.
///
/// Preconditions: `pose` is the evaluated pose of the instant (the arm's parents as posed),
/// the grid's axes unit length and orthogonal, `half_extent > 0`, between 1 and 128 steps per
/// axis (see [`StabilityJob::validate`]).
#[derive(Clone, Copy, Debug)]
pub struct StabilityJob<'a> {
    /// The character.
    pub actor: &'a ActorRig,
    /// Which arm.
    pub side: Side,
    /// The solver settings (which solver, limits, weight).
    pub settings: &'a SolverSettings,
    /// The pose the arm is solved in.
    pub pose: &'a Pose,
    /// The wrist target at the centre of the grid, world space.
    pub wrist_target_in_world: DVec3,
    /// The arm's pole, world space.
    pub pole_in_world: DVec3,
    /// Where the samples lie.
    pub grid: StabilityGrid,
}

/// Why a [`StabilityJob`] cannot run.
#[derive(Debug, thiserror::Error)]
pub enum StabilityError {
    /// A bad input, named.
    #[error("stability: {0}")]
    Input(&'static str),
    /// The arm's solver failed on a sample.
    #[error(transparent)]
    Solve(#[from] SessionError),
}

/// A stability error met inside a posing search (calibration, the pole search) as the
/// session error those return: the solver's own error, or the bad input named.
impl From<StabilityError> for SessionError {
    fn from(e: StabilityError) -> Self {
        match e {
            StabilityError::Solve(e) => e,
            other => SessionError::Calibration(other.to_string()),
        }
    }
}

impl<'a> StabilityJob<'a> {
    /// The job round the wrist target and pole that `report` (the poser's report of `side`'s
    /// arm of `actor` in `pose`) aimed at, over `grid`.
    pub fn for_arm(
        actor: &'a ActorRig,
        settings: &'a SolverSettings,
        pose: &'a Pose,
        (side, report): (Side, &ArmReport),
        grid: StabilityGrid,
    ) -> Self {
        Self {
            actor,
            side,
            settings,
            pose,
            wrist_target_in_world: report.wrist_target_in_world,
            pole_in_world: report.pole_in_world,
            grid,
        }
    }

    /// Checks finite inputs, unit orthogonal axes, a positive extent and 1..=128 steps.
    ///
    /// # Errors
    /// [`StabilityError::Input`] naming the first bad input.
    pub fn validate(&self) -> Result<(), StabilityError> {
        if !(self.wrist_target_in_world.is_finite() && self.pole_in_world.is_finite()) {
            return Err(StabilityError::Input("target and pole must be finite"));
        }
        let g = &self.grid;
        if !(g.half_extent.is_finite() && g.half_extent > 0.0) {
            return Err(StabilityError::Input("the half extent must be positive"));
        }
        if g.steps.iter().any(|&n| !(1..=128).contains(&n)) {
            return Err(StabilityError::Input("1 to 128 steps per axis"));
        }
        for (i, a) in g.axes.iter().enumerate() {
            if !a.is_finite() || (a.length() - 1.0).abs() > 1e-6 {
                return Err(StabilityError::Input("grid axes must be unit length"));
            }
            for b in &g.axes[i + 1..] {
                if a.dot(*b).abs() > 1e-6 {
                    return Err(StabilityError::Input("grid axes must be orthogonal"));
                }
            }
        }
        Ok(())
    }

    /// Solves every sample (see the module docs). Deterministic.
    ///
    /// # Errors
    /// What [`StabilityJob::validate`] returns, or the arm solver's error.
    pub fn solve(&self) -> Result<StabilityReport, StabilityError> {
        self.validate()?;
        let mut arm = ArmSolves::new(self);
        let mut solve_at = |target: DVec3| arm.at(target);
        let (centre, _) = solve_at(self.wrist_target_in_world)?;
        let grid = self.grid;
        let mut samples = Vec::with_capacity(grid.len());
        for k in 0..grid.len() {
            let cell = grid.cell(k);
            let offset = grid.offset(cell);
            let (ik, _) = solve_at(self.wrist_target_in_world + offset)?;
            samples.push(StabilitySample {
                cell,
                offset,
                reached: ik.reached,
                limited: ik.elbow_limited,
                bend_normal: ik.bend_normal,
                elbow_in_world: ik.elbow_in_world,
                flipped: unstable(true, ik.bend_normal, centre.bend_normal)
                    == Some(SampleClass::Flipped),
                sensitivity: 0.0,
                class: SampleClass::Stable,
            });
        }
        // The elbow's motion toward each grid neighbour, per metre of target motion.
        for k in 0..samples.len() {
            let c = samples[k].cell;
            let mut most: f64 = 0.0;
            for axis in 0..3 {
                for n in [c[axis].wrapping_sub(1), c[axis] + 1] {
                    if n >= grid.steps[axis] {
                        continue;
                    }
                    let mut other = c;
                    other[axis] = n;
                    let (a, b) = (&samples[k], &samples[grid.index(other)]);
                    let moved = (b.elbow_in_world - a.elbow_in_world).length();
                    most = most.max(moved / (b.offset - a.offset).length());
                }
            }
            let s = &mut samples[k];
            s.sensitivity = most;
            s.class = match unstable(s.reached, s.bend_normal, centre.bend_normal) {
                Some(class) => class,
                None if most > SENSITIVE => SampleClass::Sensitive,
                None => SampleClass::Stable,
            };
        }
        let nearest = samples
            .iter()
            .filter(|s| matches!(s.class, SampleClass::Flipped | SampleClass::OutOfReach))
            .min_by(|a, b| a.offset.length().total_cmp(&b.offset.length()));
        let (margin, margin_direction, nearest) = match nearest {
            Some(s) => (
                s.offset.length(),
                s.offset.normalize_or_zero(),
                Some(s.class),
            ),
            None => (grid.half_extent, DVec3::ZERO, None),
        };
        Ok(StabilityReport {
            grid,
            samples,
            bend_normal: centre.bend_normal,
            reached: centre.reached,
            margin,
            margin_direction,
            nearest,
        })
    }

    /// The margin walked along 14 rays from the target (the six axes and eight diagonals of
    /// the grid's axes), in steps of `step` metres up to `reach`, each ray's first unstable
    /// step bisected to 1/32 of a step: cheaper and finer than a grid for one number (what
    /// the session's margin lane and the calibration report read). A boundary between rays
    /// is found where the nearest ray crosses it, up to 1/cos 35° ≈ 1.2 times its distance.
    /// The same as [`StabilityJob::margin_to`] with [`Boundary::Any`].
    ///
    /// # Errors
    /// As [`StabilityJob::solve`]; `step` and `reach` must be positive, `step ≤ reach`.
    pub fn margin_along_rays(&self, step: f64, reach: f64) -> Result<RayMargin, StabilityError> {
        self.margin_to(Boundary::Any, step, reach)
    }

    /// The margin along rays (as [`StabilityJob::margin_along_rays`]) to the boundaries
    /// `boundary` counts. With [`Boundary::Flip`] a ray ends, with nothing found, where the
    /// arm stops reaching: the distance to the nearest flip among targets the arm reaches,
    /// the part of the margin that the pole decides.
    ///
    /// # Errors
    /// As [`StabilityJob::margin_along_rays`].
    pub fn margin_to(
        &self,
        boundary: Boundary,
        step: f64,
        reach: f64,
    ) -> Result<RayMargin, StabilityError> {
        self.validate()?;
        if !(step.is_finite() && reach.is_finite() && step > 0.0 && step <= reach) {
            return Err(StabilityError::Input("0 < step ≤ reach"));
        }
        let mut arm = ArmSolves::new(self);
        let mut solve_at = |target: DVec3| arm.at(target);
        let (centre, _) = solve_at(self.wrist_target_in_world)?;
        let mut best = RayMargin {
            margin: reach,
            direction: DVec3::ZERO,
            nearest: None,
        };
        let axes = self.grid.axes;
        for r in RAYS {
            let dir = (axes[0] * r[0] + axes[1] * r[1] + axes[2] * r[2]).normalize();
            let mut class_at = |d: f64| -> Result<Option<SampleClass>, StabilityError> {
                let (ik, _) = solve_at(self.wrist_target_in_world + dir * d)?;
                Ok(unstable(ik.reached, ik.bend_normal, centre.bend_normal))
            };
            let counts = |class: Option<SampleClass>| match (boundary, class) {
                (Boundary::Flip, Some(SampleClass::OutOfReach)) => None,
                (_, c) => c,
            };
            let mut lo = 0.0;
            let mut hit = None;
            let mut d = step;
            // Only as far as the nearest boundary found so far.
            while d <= best.margin + 1e-12 {
                let class = class_at(d)?;
                if boundary == Boundary::Flip && class == Some(SampleClass::OutOfReach) {
                    break;
                }
                if let Some(class) = class {
                    hit = Some((d, class));
                    break;
                }
                lo = d;
                d += step;
            }
            let Some((mut hi, mut class)) = hit else {
                continue;
            };
            for _ in 0..RAY_BISECTIONS {
                let mid = 0.5 * (lo + hi);
                match counts(class_at(mid)?) {
                    Some(c) => {
                        hi = mid;
                        class = c;
                    }
                    None => lo = mid,
                }
            }
            if hi < best.margin || best.nearest.is_none() {
                best = RayMargin {
                    margin: hi,
                    direction: dir,
                    nearest: Some(class),
                };
            }
        }
        Ok(best)
    }
}

/// Which boundaries a margin measures (see [`StabilityJob::margin_to`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundary {
    /// The flip boundary and the reach boundary, whichever is nearer.
    Any,
    /// The flip boundary among targets the arm reaches.
    Flip,
}
