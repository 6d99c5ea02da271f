//! The stability map of one arm at one instant (issue 36): analytic cases on the bundled
//! angler's right arm with the two-bone solver (no limits, no softening), where the flip and
//! reach boundaries are known by hand, and properties on random targets and poles.
//!
//! The seed's two-bone solve bends the elbow toward the pole: its bend normal is
//! `(t − s) × (p − s)` (shoulder `s`, target `t`, pole `p`), which turns over where
//! `(t − s)·((p − s) × n₀)` changes sign: the plane through the shoulder that holds the
//! shoulder–pole line and the current normal `n₀`. The reach boundary is the sphere of the
//! arm's length about the shoulder.

use anglerpose::fishing::{
    ArmSolverKind, SampleClass, SolverSettings, StabilityGrid, StabilityJob, StabilityReport,
};
use anglerpose::rig::Side;
use anglerpose::stage::Stage;
use glam::DVec3;

struct Arm {
    stage: Stage,
    settings: SolverSettings,
    shoulder: DVec3,
    reach: f64,
}

fn arm() -> Arm {
    let mut stage = Stage::bundled().unwrap();
    stage.update().unwrap();
    let mut settings = stage.inputs.settings;
    settings.limits_enabled = false;
    settings.soften = 1.0;
    settings.weight = 1.0;
    let a = stage.actor.arm(Side::Right);
    let p = &stage.pose;
    let (s, e, w) = (
        p.world_position(a.upper),
        p.world_position(a.fore),
        p.world_position(a.hand),
    );
    Arm {
        reach: s.distance(e) + e.distance(w),
        shoulder: s,
        settings,
        stage,
    }
}

fn volume(half_extent: f64, n: usize) -> StabilityGrid {
    StabilityGrid {
        axes: [DVec3::X, DVec3::Y, DVec3::Z],
        half_extent,
        steps: [n, n, n],
    }
}

fn solve(arm: &Arm, target: DVec3, pole: DVec3, grid: StabilityGrid) -> StabilityReport {
    StabilityJob {
        grid,
        ..job(arm, target, pole)
    }
    .solve()
    .unwrap()
}

/// The distance from `t` to the flip plane of pole `p` (see the module docs), and the plane's
/// unit normal.
fn flip_plane(s: DVec3, t: DVec3, p: DVec3) -> (f64, DVec3) {
    let n0 = (t - s).cross(p - s).normalize();
    let m = (p - s).cross(n0).normalize();
    ((t - s).dot(m).abs(), m)
}

#[test]
fn a_target_far_from_the_boundaries_has_the_flip_planes_distance_as_its_margin() {
    let arm = arm();
    let s = arm.shoulder;
    // Forward and down from the shoulder at 70% reach; the pole below-outside, placed so that
    // the flip plane is 30 mm from the target.
    let dir = DVec3::new(-0.3, -0.6, 0.74).normalize();
    let t = s + dir * (0.7 * arm.reach);
    // The pole 0.6 m out along a direction turned by θ from the target's: the plane is
    // |t − s|·sin θ from the target.
    let side = dir.cross(DVec3::Y).normalize();
    let theta = (0.03 / (t - s).length()).asin();
    let pole = s + (dir * theta.cos() + side * theta.sin()) * 0.6;
    let (d, m) = flip_plane(s, t, pole);
    assert!((d - 0.03).abs() < 1e-3, "{d}");
    // The reach boundary is 30% of the arm away: only the flip is near.
    let grid = volume(0.06, 25);
    let r = solve(&arm, t, pole, grid);
    assert!(r.reached);
    assert_eq!(r.nearest, Some(SampleClass::Flipped));
    // The nearest flipped sample is within one cell's half diagonal beyond the plane.
    let cell = grid.spacing() * 3f64.sqrt() / 2.0;
    assert!(
        r.margin >= d - 1e-9 && r.margin <= d + cell,
        "margin {} mm, plane {} mm",
        r.margin * 1e3,
        d * 1e3
    );
    assert!(
        r.margin_direction.dot(m).abs() > 0.9,
        "toward {:?}, the plane's normal {m:?}",
        r.margin_direction
    );
    // Every sample is on the side of the plane its class says.
    for smp in &r.samples {
        let across = (t + smp.offset - s).dot(m) * (t - s).dot(m).signum();
        if across.abs() > 1e-3 {
            assert_eq!(smp.flipped, across < 0.0, "{smp:?}");
        }
    }
}

#[test]
fn a_target_on_the_shoulder_pole_line_has_no_margin() {
    let arm = arm();
    let s = arm.shoulder;
    let dir = DVec3::new(-0.2, -0.7, 0.6).normalize();
    let t = s + dir * (0.6 * arm.reach);
    // The pole beyond the target on the same line: the bend plane is undefined there.
    let pole = s + dir * (1.5 * arm.reach);
    let grid = volume(0.04, 17);
    let r = solve(&arm, t, pole, grid);
    assert_eq!(r.nearest, Some(SampleClass::Flipped));
    assert!(
        r.margin <= grid.spacing() * 1.0001,
        "margin {} mm",
        r.margin * 1e3
    );
}

#[test]
fn a_straight_arm_at_full_reach_has_no_margin_and_out_of_reach_beyond() {
    let arm = arm();
    let s = arm.shoulder;
    let dir = DVec3::new(-0.3, -0.5, 0.8).normalize();
    let t = s + dir * arm.reach;
    let pole = s + DVec3::new(0.2, -0.6, 0.0);
    let grid = volume(0.04, 17);
    let r = solve(&arm, t, pole, grid);
    assert_eq!(r.nearest, Some(SampleClass::OutOfReach));
    assert!(r.margin <= grid.spacing() * 1.0001, "{}", r.margin);
    // Beyond the sphere nothing is reached; well inside it everything is.
    for smp in &r.samples {
        let from = (t + smp.offset - s).length();
        if from > arm.reach * (1.0 + 1e-3) {
            assert!(!smp.reached, "{smp:?}");
        } else if from < arm.reach - 0.005 {
            assert!(smp.reached, "{smp:?}");
        }
    }
}

#[test]
fn moving_the_target_by_the_margin_flips_or_unreaches_and_by_half_does_not() {
    let arm = arm();
    let s = arm.shoulder;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let grid = volume(0.05, 11);
    let mut bounded = 0;
    for case in 0..12 {
        // Targets from half to full reach, poles turned 1° to 10° from them (about a random
        // axis): boundaries within the sampled cube.
        let dir = DVec3::new(next() - 0.5, -next(), next()).normalize();
        let t = s + dir * ((0.5 + 0.5 * next()) * arm.reach);
        let axis = dir.any_orthonormal_pair();
        let turn = next() * std::f64::consts::TAU;
        let across = axis.0 * turn.cos() + axis.1 * turn.sin();
        let theta = (1.0 + 9.0 * next()).to_radians();
        let pole = s + (dir * theta.cos() + across * theta.sin()) * (0.3 + 0.6 * next());
        let r = solve(&arm, t, pole, grid);
        let Some(class) = r.nearest else { continue };
        bounded += 1;
        let at = |k: f64| {
            StabilityJob {
                grid: StabilityGrid {
                    steps: [1, 1, 1],
                    ..grid
                },
                ..job(&arm, t + r.margin_direction * (r.margin * k), pole)
            }
            .solve()
            .unwrap()
        };
        let full = at(1.0);
        let flipped = full.bend_normal.dot(r.bend_normal) < 0.0;
        assert!(
            flipped || !full.reached,
            "case {case}: {class:?} at {} mm, but the target moved there is fine",
            r.margin * 1e3
        );
        let half = at(0.5);
        assert!(
            half.reached && half.bend_normal.dot(r.bend_normal) > 0.0,
            "case {case}: half the margin ({} mm) already {:?}",
            r.margin * 500.0,
            if half.reached {
                "flips"
            } else {
                "is out of reach"
            }
        );
    }
    assert!(bounded >= 10, "only {bounded} of 12 cases met a boundary");
}

fn job(arm: &Arm, target: DVec3, pole: DVec3) -> StabilityJob<'_> {
    StabilityJob {
        actor: &arm.stage.actor,
        side: Side::Right,
        settings: &arm.settings,
        pose: &arm.stage.pose,
        wrist_target_in_world: target,
        pole_in_world: pole,
        grid: volume(0.01, 1),
    }
}

/// Both solvers: the sample at the target is the poser's own solution (the same bend normal
/// and elbow), so the map shows what the editor poses.
#[test]
fn the_centre_sample_is_the_posers_solution_with_either_solver() {
    for solver in [ArmSolverKind::TwoBone, ArmSolverKind::Ccd] {
        let mut stage = Stage::bundled().unwrap();
        for side in [Side::Left, Side::Right] {
            stage.inputs.settings.arms.get_mut(side).solver = solver;
        }
        let eval = *stage.update().unwrap();
        for side in [Side::Left, Side::Right] {
            let report = eval.arms.get(side);
            let grid = StabilityGrid {
                axes: [DVec3::X, DVec3::Y, DVec3::Z],
                half_extent: 0.03,
                steps: [3, 3, 1],
            };
            let r = StabilityJob::for_arm(
                &stage.actor,
                &stage.inputs.settings,
                &stage.pose,
                (side, report),
                grid,
            )
            .solve()
            .unwrap();
            let centre = r.at([1, 1, 0]);
            assert!(centre.offset.length() < 1e-12);
            assert!(
                (centre.bend_normal - report.ik.bend_normal).length() < 1e-9,
                "{solver:?} {side:?}: {:?} vs {:?}",
                centre.bend_normal,
                report.ik.bend_normal
            );
            assert!(
                centre.elbow_in_world.distance(report.ik.elbow_in_world) < 1e-9,
                "{solver:?} {side:?}"
            );
            assert_eq!(r.samples.len(), 9);
        }
    }
}

#[test]
fn bad_grids_are_refused_with_a_reason() {
    let arm = arm();
    let t = arm.shoulder + DVec3::new(0.0, -0.3, 0.3);
    let mut j = job(&arm, t, arm.shoulder - DVec3::Y);
    j.grid.half_extent = 0.0;
    assert!(j.solve().unwrap_err().to_string().contains("extent"));
    j.grid.half_extent = 0.01;
    j.grid.axes[1] = DVec3::X;
    assert!(j.solve().unwrap_err().to_string().contains("orthogonal"));
    j.grid.axes[1] = DVec3::Y;
    j.grid.steps = [0, 1, 1];
    assert!(j.solve().unwrap_err().to_string().contains("steps"));
    j.grid.steps = [1, 1, 1];
    j.wrist_target_in_world = DVec3::NAN;
    assert!(j.solve().unwrap_err().to_string().contains("finite"));
}

/// The rays' margin (what the session lane and the calibration report read) finds the same
/// flip plane: no nearer than it, and at most 1/cos 35° farther (the largest angle between a
/// direction and the nearest of the 14 rays), to within the bisection's 1/32 of a step.
#[test]
fn the_margin_along_rays_finds_the_flip_plane_and_the_reach_sphere() {
    let arm = arm();
    let s = arm.shoulder;
    let dir = DVec3::new(-0.3, -0.6, 0.74).normalize();
    let t = s + dir * (0.7 * arm.reach);
    let side = dir.cross(DVec3::Y).normalize();
    for d in [0.01, 0.025, 0.05] {
        let theta = (d / (t - s).length()).asin();
        let pole = s + (dir * theta.cos() + side * theta.sin()) * 0.6;
        let (plane, _) = flip_plane(s, t, pole);
        let r = job(&arm, t, pole).margin_along_rays(0.01, 0.12).unwrap();
        assert_eq!(r.nearest, Some(SampleClass::Flipped), "{d}");
        let slack = 0.01 / 32.0;
        assert!(
            r.margin >= plane - 1e-9 && r.margin <= plane / 35f64.to_radians().cos() + slack,
            "plane at {} mm, margin {} mm",
            plane * 1e3,
            r.margin * 1e3
        );
    }
    // At full reach: the boundary is right there.
    let t = s + dir * arm.reach;
    let r = job(&arm, t, s + DVec3::new(0.2, -0.6, 0.0))
        .margin_along_rays(0.01, 0.12)
        .unwrap();
    assert_eq!(r.nearest, Some(SampleClass::OutOfReach));
    assert!(r.margin <= 0.01 / 32.0 + 1e-9, "{}", r.margin);
}

/// The margin to the flip boundary alone (what the pole decides) ignores the reach sphere:
/// at full reach, far from the flip plane, nothing is found within reach of the rays; near
/// the flip plane it finds the plane as the margin to either boundary does.
#[test]
fn the_flip_margin_finds_the_flip_plane_and_not_the_reach_sphere() {
    use anglerpose::fishing::Boundary;
    let arm = arm();
    let s = arm.shoulder;
    let dir = DVec3::new(-0.3, -0.6, 0.74).normalize();
    // At full reach with the pole well off the shoulder–target line: the flip plane is
    // farther than the rays look.
    let t = s + dir * arm.reach;
    let pole = s + DVec3::new(0.2, -0.6, 0.0);
    assert!(flip_plane(s, t, pole).0 > 0.15);
    let j = job(&arm, t, pole);
    let any = j.margin_to(Boundary::Any, 0.01, 0.12).unwrap();
    let flip = j.margin_to(Boundary::Flip, 0.01, 0.12).unwrap();
    assert_eq!(any.nearest, Some(SampleClass::OutOfReach));
    assert_eq!((flip.nearest, flip.margin), (None, 0.12), "{flip:?}");
    // Inside reach near the flip plane: the same plane, the same margin.
    let t = s + dir * (0.7 * arm.reach);
    let side = dir.cross(DVec3::Y).normalize();
    let theta = (0.03 / (t - s).length()).asin();
    let pole = s + (dir * theta.cos() + side * theta.sin()) * 0.6;
    let (plane, _) = flip_plane(s, t, pole);
    let j = job(&arm, t, pole);
    let flip = j.margin_to(Boundary::Flip, 0.01, 0.12).unwrap();
    assert_eq!(flip.nearest, Some(SampleClass::Flipped));
    assert_eq!(flip, j.margin_along_rays(0.01, 0.12).unwrap());
    assert!(
        flip.margin >= plane - 1e-9
            && flip.margin <= plane / 35f64.to_radians().cos() + 0.01 / 32.0
    );
}

#[test]
fn the_sessions_margins_do_not_depend_on_the_threads() {
    use anglerpose::fishing::{MARGIN_REACH, timeline_margins};
    let stage = Stage::bundled().unwrap();
    let run = |threads| {
        timeline_margins(
            &stage.actor,
            &stage.inputs.calibration,
            &stage.inputs.settings,
            &stage.inputs.state.params,
            96,
            threads,
        )
        .unwrap()
    };
    let one = run(1);
    assert_eq!(one.left.len(), 96);
    assert_eq!(one, run(3));
    for m in one.left.iter().chain(&one.right) {
        assert!(*m > 0.0 && *m <= MARGIN_REACH, "{m}");
    }
    // Some instant of the session has a boundary within reach.
    assert!(
        one.left.iter().chain(&one.right).any(|m| *m < MARGIN_REACH),
        "no boundary anywhere within {MARGIN_REACH} m"
    );
}

/// The calibration report's smallest margin per arm and phase is the least of the session's
/// margins in that phase, for the calibration it chose.
#[test]
fn the_calibration_report_prints_each_phases_smallest_margin() {
    use anglerpose::fishing::{MARGIN_REACH, Phase, SessionState, calibrate, timeline_margins};
    let stage = Stage::bundled().unwrap();
    let (s, params) = (&stage.inputs.settings, &stage.inputs.state.params);
    let (calib, report) = calibrate(&stage.actor, s, params, 120, 2).unwrap();
    let margins = timeline_margins(&stage.actor, &calib, s, params, 120, 2).unwrap();
    for side in [Side::Left, Side::Right] {
        for row in report.per_arm.get(side) {
            let least = margins
                .get(side)
                .iter()
                .enumerate()
                .filter(|(k, _)| {
                    SessionState::at_fraction(*k as f64 / 119.0, *params).phase == row.phase
                })
                .map(|(_, m)| *m)
                .fold(MARGIN_REACH, f64::min);
            assert_eq!(row.smallest_margin, least, "{side:?} {:?}", row.phase);
            assert!(row.smallest_margin > 0.0 && row.smallest_margin <= MARGIN_REACH);
        }
        assert_eq!(report.per_arm.get(side).len(), Phase::ALL.len());
    }
}

/// A pole dragged exactly onto the shoulder → target line (or rounding away from it) still
/// gets a bend-plane slice: any plane through the line, with axes orthogonal to working
/// precision, which the job accepts. (Rounding left the axes 1e-3 off orthogonal, the job
/// refused the grid, and the editor's slice vanished just where it should turn red.)
#[test]
fn a_pole_on_the_shoulder_target_line_still_gets_a_slice() {
    let arm = arm();
    let target = arm.shoulder + DVec3::new(-0.1, -0.35, 0.3);
    for pole in [
        arm.shoulder + (target - arm.shoulder) * 2.0,
        arm.shoulder + (target - arm.shoulder) * 2.0 + DVec3::new(1e-13, -1e-13, 0.0),
        arm.shoulder,
    ] {
        let grid = StabilityGrid::bend_plane(arm.shoulder, target, pole, 0.05, 5);
        let [u, v, w] = grid.axes;
        for (a, b) in [(u, v), (v, w), (u, w)] {
            assert!(a.dot(b).abs() < 1e-12, "{grid:?}");
        }
        for a in grid.axes {
            assert!((a.length() - 1.0).abs() < 1e-12, "{grid:?}");
        }
        let report = solve(&arm, target, pole, grid);
        assert_eq!(report.samples.len(), 25);
    }
}
