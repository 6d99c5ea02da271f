//! The planar finish of two-link CCD chains (`CcdChain::planar_finish`): it lands on the
//! pose three's passes converge to, and where it does not apply it changes nothing.
//!
//! The oracle is three's passes themselves, run one update of one pass at a time (the same
//! passes as one update of many) until a pass rotates nothing. They converge geometrically
//! near the end, so the distance still to go after pass `k` is about `|Δk|·r / (1 − r)`,
//! with `Δk` the pass's own move and `r` the ratio of successive moves; and three's guard
//! leaves a last step below `MIN_STEP_ANGLE` unapplied.

mod support;

use anglerpose::ik::ccd::{CcdChain, CcdLink, CcdSolver, CcdTarget, MIN_STEP_ANGLE};
use anglerpose::rig::{Bone, Pose, Skeleton, Transform};
use glam::{DQuat, DVec3};
use support::rng::Rng;

/// How a case limits its links.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Limits {
    None,
    /// Link 0 on a hinge about its X axis tilted by this many degrees about Z; an untilted
    /// one bends 2°..150° (an Euler range on X).
    Hinge(f64),
    /// The untilted hinge, and link 1's Euler XYZ range ± this many degrees about its start.
    HingeAndRange(f64),
    /// No hinge: link 0's Euler XYZ range ± this many degrees about its start (a clamp can
    /// tilt the passes' plane).
    ElbowRange(f64),
}

/// A case: base, upper arm (link 1), forearm (link 0, bones along +Y, bent about X) and
/// hand (effector), and the target.
struct Case {
    skeleton: Skeleton,
    target: DVec3,
    limits: Limits,
    length: f64,
    /// The shortest reach, `|a − b|`.
    shortest: f64,
}

fn case(seed: u64) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let (a, b) = (rng.range(0.1, 0.5), rng.range(0.1, 0.5));
    let bone = |name: &str, parent, rest| Bone {
        name: name.into(),
        parent,
        rest,
    };
    let bend = rng.range(10f64, 165.0).to_radians();
    // The wrist slightly off the hinge's plane in a third of the cases.
    let off = if seed.is_multiple_of(3) {
        0.05 * b
    } else {
        0.0
    };
    let skeleton = Skeleton::new(vec![
        bone(
            "base",
            None,
            Transform::new(rng.unit(), rng.rotation(), DVec3::ONE),
        ),
        bone(
            "upper",
            Some(0),
            Transform::new(DVec3::new(0.0, 0.1, 0.0), rng.rotation(), DVec3::ONE),
        ),
        bone(
            "fore",
            Some(1),
            Transform::new(DVec3::Y * a, DQuat::from_rotation_x(bend), DVec3::ONE),
        ),
        bone(
            "hand",
            Some(2),
            Transform::from_translation(DVec3::new(off, b, 0.0)),
        ),
    ])
    .expect("skeleton");
    let pose = Pose::rest(&skeleton);
    let length = a + b;
    // Mostly near full reach (where three's passes are slow), some beyond it.
    let reach = match seed % 4 {
        0 => rng.range(0.5, 0.95),
        1 | 2 => rng.range(0.95, 0.999),
        _ => rng.range(0.999, 1.05),
    };
    let target = pose.world_position(1) + rng.unit() * reach * length;
    let limits = match seed % 5 {
        0 => Limits::None,
        1 => Limits::ElbowRange(rng.range(10.0, 60.0)),
        2 => Limits::Hinge(0.0),
        // Off the bend's normal by about the files' rounding (8.7e-6 rad), or by far more
        // (three's passes then swing the plane as they go, and the finish must be refused).
        3 => Limits::Hinge(if seed.is_multiple_of(2) { 5e-4 } else { 4.0 }),
        _ => Limits::HingeAndRange(rng.range(2.0, 40.0)),
    };
    Case {
        skeleton,
        target,
        limits,
        length,
        shortest: (a - b).abs(),
    }
}

fn solver(c: &Case, iteration: u32, planar_finish: bool) -> CcdSolver {
    let mut fore = CcdLink::new(2);
    let mut upper = CcdLink::new(1);
    let tilt = match c.limits {
        Limits::None | Limits::ElbowRange(_) => None,
        Limits::Hinge(tilt) => Some(tilt),
        Limits::HingeAndRange(_) => Some(0.0),
    };
    if let Some(tilt) = tilt {
        fore.limitation = Some(DQuat::from_rotation_z(tilt.to_radians()) * DVec3::X);
        fore.rotation_min = Some(DVec3::new(2f64.to_radians(), 0.0, 0.0));
        fore.rotation_max = Some(DVec3::new(150f64.to_radians(), 0.0, 0.0));
        if tilt != 0.0 {
            fore.rotation_min = None; // a tilted hinge leaves X alone: no XYZ box around it
            fore.rotation_max = None;
        }
    }
    if let Limits::ElbowRange(deg) = c.limits {
        let start = anglerpose::ik::limits::euler_xyz_from_quat(c.skeleton.bone(2).rest.rotation);
        fore.rotation_min = Some(start - DVec3::splat(deg.to_radians()));
        fore.rotation_max = Some(start + DVec3::splat(deg.to_radians()));
    }
    if let Limits::HingeAndRange(deg) = c.limits {
        let start = anglerpose::ik::limits::euler_xyz_from_quat(c.skeleton.bone(1).rest.rotation);
        upper.rotation_min = Some(start - DVec3::splat(deg.to_radians()));
        upper.rotation_max = Some(start + DVec3::splat(deg.to_radians()));
    }
    let mut chain = CcdChain::toward(CcdTarget::Point(c.target), 3, vec![fore, upper]);
    chain.iteration = iteration;
    chain.planar_finish = planar_finish;
    CcdSolver::new(vec![chain])
}

/// The elbow's world position and both links' local rotations.
type State = (DVec3, DQuat, DQuat);

fn state(pose: &Pose) -> State {
    (
        pose.world_position(2),
        pose.local(2).rotation,
        pose.local(1).rotation,
    )
}

/// How far apart two states are: the elbow's distance over the chain's length, and the
/// links' angles (radians).
fn apart(x: &State, y: &State, length: f64) -> f64 {
    let angle = |p: DQuat, q: DQuat| 2.0 * p.dot(q).abs().min(1.0).acos();
    ((x.0 - y.0).length() / length)
        .max(angle(x.1, y.1))
        .max(angle(x.2, y.2))
}

/// three's passes one at a time until a pass rotates nothing (at most `cap`): the state
/// after each pass.
fn passes(c: &Case, cap: usize) -> Vec<State> {
    let one = solver(c, 1, false);
    let mut pose = Pose::rest(&c.skeleton);
    let mut out = vec![state(&pose)];
    for _ in 0..cap {
        let report = one.update(&c.skeleton, &mut pose, 1.0);
        if report.chains[0].links.iter().all(|l| l.rotations == 0) {
            break;
        }
        out.push(state(&pose));
    }
    out
}

#[test]
fn the_planar_finish_lands_where_threes_passes_head() {
    let (mut finished, mut checked_far) = (0, 0);
    let mut by_kind = std::collections::BTreeMap::new();
    for seed in 0..400u64 {
        let c = case(seed);
        let mut pose = Pose::rest(&c.skeleton);
        let report = solver(&c, 64, true).update(&c.skeleton, &mut pose, 1.0);
        let chain = &report.chains[0];
        let kind = format!("{:?}", c.limits)
            .split('(')
            .next()
            .unwrap()
            .to_string();
        let entry = by_kind.entry(kind).or_insert((0, 0));
        entry.1 += 1;
        let Some(after) = chain.planar_finish else {
            continue;
        };
        entry.0 += 1;
        finished += 1;
        assert!(
            after >= 1 && after <= chain.iterations,
            "seed {seed}: {chain:?}"
        );
        let finish = state(&pose);
        let d = c.target.distance(pose.world_position(1));
        let reachable = (c.shortest..=c.length).contains(&d);
        if reachable && !chain.links[0].on_limit {
            assert!(
                chain.final_distance <= 1e-12 * c.length,
                "seed {seed} {:?}: {} m short",
                c.limits,
                chain.final_distance
            );
        }
        let run = passes(&c, 20_000);
        let k = run.len() - 1;
        let last = &run[k];
        let gap = apart(last, &finish, c.length);
        // Where the passes still had to go after their last pass, from their own moves.
        let m1 = if k >= 1 {
            apart(&run[k], &run[k - 1], c.length)
        } else {
            0.0
        };
        let m2 = if k >= 2 {
            apart(&run[k - 1], &run[k - 2], c.length)
        } else {
            0.0
        };
        let still = if m1 < m2 && k >= 3 {
            let r = m1 / m2;
            m1 * r / (1.0 - r)
        } else {
            m1
        };
        // three's guard leaves a last step below MIN_STEP_ANGLE unapplied.
        let bound = 3.0 * still + MIN_STEP_ANGLE;
        assert!(
            gap <= bound,
            "seed {seed} {:?}: three's passes end {gap:.3e} from the finish after {k} passes \
             (they had about {still:.3e} to go)",
            c.limits
        );
        // And they head there: farther from it half-way.
        let earlier = apart(&run[k / 2], &finish, c.length);
        if k >= 8 && earlier > bound {
            assert!(
                gap < earlier,
                "seed {seed}: {gap:.3e} vs {earlier:.3e} half-way"
            );
            checked_far += 1;
        }
    }
    // The rest are refused: tilted hinges, wrists off the hinge's plane, ranges in the way.
    assert!(
        finished >= 150,
        "only {finished} of 400 cases finished: {by_kind:?}"
    );
    assert!(checked_far >= 120, "only {checked_far} long runs");
    assert!(
        by_kind.values().all(|&(f, _)| f > 0),
        "a kind never finished: {by_kind:?}"
    );
}

/// Where the finish is refused (a limit acts on the way) the update is three's, bit for bit.
#[test]
fn a_refused_finish_changes_nothing() {
    let mut refused = 0;
    for seed in 0..400u64 {
        let c = case(seed);
        let mut with = Pose::rest(&c.skeleton);
        let a = solver(&c, 64, true).update(&c.skeleton, &mut with, 1.0);
        if a.chains[0].planar_finish.is_some() {
            continue;
        }
        refused += 1;
        let mut without = Pose::rest(&c.skeleton);
        let b = solver(&c, 64, false).update(&c.skeleton, &mut without, 1.0);
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(with.locals(), without.locals(), "seed {seed}");
    }
    assert!(refused >= 100, "only {refused} refused cases");
}

/// A target beyond reach with the elbow limited to 2°..150° (the CCD arm's default): three's
/// passes straighten the elbow onto its 2° limit and clamp it back there every pass after,
/// all 64 of them. With the finish and a stop distance, the update stops after the pass that
/// changes nothing, at the same pose.
#[test]
fn a_target_beyond_reach_stops_on_the_elbow_limit() {
    let mut stopped = 0;
    for seed in (0..120u64).filter(|s| s % 5 == 2 && s % 4 == 3 && s % 3 != 0) {
        let c = case(seed);
        assert_eq!(c.limits, Limits::Hinge(0.0));
        let mut three = Pose::rest(&c.skeleton);
        let a = solver(&c, 64, false).update(&c.skeleton, &mut three, 1.0);
        let mut fast = solver(&c, 64, true);
        fast.chains[0].converged_within = Some(1e-6 * c.length);
        let mut ours = Pose::rest(&c.skeleton);
        let b = fast.update(&c.skeleton, &mut ours, 1.0);
        let (a, b) = (&a.chains[0], &b.chains[0]);
        if c.target.distance(ours.world_position(1)) <= c.length || !a.links[0].on_limit {
            continue; // reachable after all, or three's 64 passes had not got there
        }
        stopped += 1;
        assert!(b.links[0].on_limit, "seed {seed}: {b:?}");
        assert_eq!(b.planar_finish, Some(1), "seed {seed}: {b:?}");
        assert!(b.iterations <= 2 && b.exited_early, "seed {seed}: {b:?}");
        assert_eq!(a.iterations, 64, "seed {seed}: {a:?}");
        // three's last steps of link 1 fall below its 1e-5 guard and are skipped.
        let gap = apart(&state(&three), &state(&ours), c.length);
        assert!(gap <= MIN_STEP_ANGLE, "seed {seed}: {gap:.3e}");
    }
    assert!(stopped >= 2, "only {stopped} cases beyond reach");
}
