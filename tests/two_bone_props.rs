//! Property tests of two-bone IK over random chains, parents, targets and poles.
//! 10,000 cases per property in the default run (`PROPTEST_CASES` overrides).

mod support;
use support::arm::{self, ArmSpec, FORE, HAND, UPPER};

use anglerpose::ik::two_bone::{ElbowLimit, TwoBoneJob};
use anglerpose::rig::Transform;
use glam::{DQuat, DVec3};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

fn unit_quat() -> impl Strategy<Value = DQuat> {
    (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0).prop_filter_map(
        "non-zero quaternion",
        |(x, y, z, w)| {
            let q = DQuat::from_xyzw(x, y, z, w);
            (q.length() > 0.1).then(|| q.normalize())
        },
    )
}

fn unit_vec() -> impl Strategy<Value = DVec3> {
    (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0).prop_filter_map("non-zero vector", |(x, y, z)| {
        DVec3::new(x, y, z)
            .try_normalize()
            .filter(|_| x * x + y * y + z * z > 0.01)
    })
}

fn vec3(r: f64) -> impl Strategy<Value = DVec3> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

#[derive(Debug, Clone)]
struct Case {
    spec: ArmSpec,
    /// Target as (direction, distance as a fraction of a+b).
    target_dir: DVec3,
    target_frac: f64,
    pole: DVec3,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (vec3(5.0), unit_quat(), 0.05f64..20.0),
        vec3(2.0),
        unit_vec(),
        (0.01f64..3.0, 0.01f64..3.0),
        (unit_quat(), unit_quat()),
        (unit_vec(), 0.0f64..1.6),
        vec3(4.0),
    )
        .prop_map(
            |((pt, pr, ps), shoulder, axis, (a, b), (ur, fr), (td, tf), pole)| Case {
                spec: ArmSpec {
                    parent: Transform::new(pt, pr, DVec3::splat(ps)),
                    shoulder_offset: shoulder,
                    axis,
                    upper_len: a,
                    fore_len: b,
                    upper_rot: ur,
                    fore_rot: fr,
                },
                target_dir: td,
                target_frac: tf,
                pole,
            },
        )
}

struct Solved {
    a0: f64,
    b0: f64,
    a1: f64,
    b1: f64,
    shoulder: DVec3,
    target: DVec3,
    pole: DVec3,
    reachable: bool,
    report: anglerpose::ik::two_bone::TwoBoneReport,
    pose: anglerpose::rig::Pose,
}

fn solve(c: &Case, limit: Option<ElbowLimit>) -> Solved {
    let (skel, mut pose) = arm::build(&c.spec);
    let (a0, b0) = arm::lengths(&pose);
    let shoulder = pose.world_position(UPPER);
    let dist = c.target_frac * (a0 + b0);
    let target = shoulder + c.target_dir * dist;
    let pole = shoulder + c.pole * (a0 + b0);
    let mut job = TwoBoneJob::new(UPPER, FORE, HAND, target, pole);
    job.elbow_limit = limit;
    let report = job.solve(&skel, &mut pose).expect("valid job");
    let (a1, b1) = arm::lengths(&pose);
    let m = a0.min(b0) * 1e-4;
    // Strictly inside the clamped range, with a relative guard band.
    let reachable = dist > (a0 - b0).abs() + m + 1e-6 * (a0 + b0) && dist < a0 + b0 - m;
    Solved {
        a0,
        b0,
        a1,
        b1,
        shoulder,
        target,
        pole,
        reachable,
        report,
        pose,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn lengths_kept_and_outputs_finite(c in case()) {
        let s = solve(&c, None);
        prop_assert!((s.a1 - s.a0).abs() <= 1e-5 * s.a0, "upper {} -> {}", s.a0, s.a1);
        prop_assert!((s.b1 - s.b0).abs() <= 1e-5 * s.b0, "lower {} -> {}", s.b0, s.b1);
        prop_assert!(s.pose.is_finite());
        for bone in 0..s.pose.len() {
            prop_assert!(s.pose.world_position(bone).is_finite());
        }
        prop_assert!(s.report.residual.is_finite() && s.report.elbow_bend().is_finite());
        prop_assert!(s.report.bend_normal.is_finite());
    }

    #[test]
    fn reachable_targets_are_reached(c in case()) {
        let s = solve(&c, None);
        if s.reachable {
            let scale = s.a0 + s.b0;
            prop_assert!(s.report.residual <= 1e-5 * scale,
                "residual {:e} of {scale}", s.report.residual);
            prop_assert!(s.report.reached);
        }
    }

    #[test]
    fn elbow_on_pole_side(c in case()) {
        let s = solve(&c, None);
        let u = (s.target - s.shoulder).normalize();
        let w = s.pole - s.shoulder;
        let w_perp = w - u * w.dot(u);
        let scale = s.a0 + s.b0;
        // Pole clearly off the reach line and a clearly bent elbow.
        if s.reachable && w_perp.length() > 1e-3 * scale && s.report.elbow_bend() > 1e-3 {
            let e = s.pose.world_position(FORE) - s.shoulder;
            let e_perp = e - u * e.dot(u);
            prop_assert!(e_perp.dot(w_perp) > 0.0, "elbow on the wrong side");
        }
    }

    #[test]
    fn elbow_limit_is_respected(c in case(), lo in 0.0f64..1.5, span in 0.0f64..1.6) {
        let hi = (lo + span).min(std::f64::consts::PI);
        let s = solve(&c, Some(ElbowLimit { min_bend: lo, max_bend: hi, enabled: true }));
        prop_assert!(s.pose.is_finite());
        // The reach margin wins over the limit: the straightest bend is the one at
        // d = a+b−m, the most folded the one at d = |a−b|+m.
        let (a, b) = (s.a0, s.b0);
        let m = a.min(b) * 1e-4;
        let bend_at = |d: f64| std::f64::consts::PI
            - ((a * a + b * b - d * d) / (2.0 * a * b)).clamp(-1.0, 1.0).acos();
        let (straightest, most_folded) = (bend_at(a + b - m), bend_at((a - b).abs() + m));
        let bend = s.report.elbow_bend();
        let tol = 1e-6;
        let lo_eff = lo.clamp(straightest, most_folded);
        let hi_eff = hi.clamp(straightest, most_folded);
        prop_assert!(bend >= lo_eff - tol && bend <= hi_eff + tol,
            "bend {bend} outside [{lo}, {hi}] (reachable bends {straightest}..{most_folded})");
    }
}

/// An arm with `twists.0` bones between upper arm and forearm and `twists.1` between forearm
/// and hand (each turned by its own rotation and offset), a side bone off the upper arm and a
/// finger below the hand: `(skeleton, pose, upper, fore, hand)`.
fn twisted_arm(
    parent: Transform,
    offsets: &[DVec3],
    turns: &[DQuat],
    twists: (usize, usize),
    side: bool,
) -> (anglerpose::rig::Skeleton, anglerpose::rig::Pose, [usize; 3]) {
    use anglerpose::rig::{Bone, Pose, Skeleton};
    let mut bones = vec![Bone {
        name: "parent".into(),
        parent: None,
        rest: parent,
    }];
    let mut k = 0;
    let mut add = |bones: &mut Vec<Bone>, name: String, parent: usize| {
        bones.push(Bone {
            name,
            parent: Some(parent),
            rest: Transform::new(offsets[k], turns[k], DVec3::ONE),
        });
        k += 1;
        bones.len() - 1
    };
    let upper = add(&mut bones, "upper".into(), 0);
    if side {
        add(&mut bones, "side".into(), upper);
    }
    let mut last = upper;
    for i in 0..twists.0 {
        last = add(&mut bones, format!("upper_twist{i}"), last);
    }
    let fore = add(&mut bones, "fore".into(), last);
    last = fore;
    for i in 0..twists.1 {
        last = add(&mut bones, format!("fore_twist{i}"), last);
    }
    let hand = add(&mut bones, "hand".into(), last);
    add(&mut bones, "finger".into(), hand);
    let skel = Skeleton::new(bones).expect("valid test skeleton");
    let pose = Pose::rest(&skel);
    (skel, pose, [upper, fore, hand])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 4, ..ProptestConfig::default() })]

    /// The solve writes the chain's world transforms from the turns it computed instead of
    /// composing them from the locals: they must agree with a full refresh of the new locals,
    /// with twist bones on either segment, with or without a bone off the path, blended or
    /// not.
    #[test]
    fn cached_world_matches_a_full_refresh(
        (pt, pr, ps) in (vec3(5.0), unit_quat(), 0.05f64..20.0),
        offsets in proptest::collection::vec(vec3(0.5), 12),
        turns in proptest::collection::vec(unit_quat(), 12),
        twists in (0usize..3, 0usize..3),
        side in proptest::bool::ANY,
        (target, pole) in (vec3(1.5), vec3(2.0)),
        weight in prop_oneof![Just(1.0), 0.0f64..1.0],
    ) {
        let parent = Transform::new(pt, pr, DVec3::splat(ps));
        let (skel, mut pose, [upper, fore, hand]) = twisted_arm(parent, &offsets, &turns, twists, side);
        let shoulder = pose.world_position(upper);
        let reach = pose.world_position(hand).distance(shoulder).max(1e-3);
        let mut job = TwoBoneJob::new(upper, fore, hand, shoulder + target * reach, shoulder + pole * reach);
        job.weight = weight;
        // Random offsets can make a zero-length segment; such jobs are refused, not solved.
        prop_assume!(job.validate(&skel, &pose).is_ok());
        let report = job.solve(&skel, &mut pose).expect("valid job");
        let mut fresh = pose.clone();
        fresh.refresh_all(&skel);
        let scale = ps * (1.0 + pose.world_position(0).abs().max_element() + reach);
        for bone in 0..pose.len() {
            let (cached, full) = (pose.world_from_bone(bone), fresh.world_from_bone(bone));
            prop_assert!(cached.translation.distance(full.translation) <= 1e-12 * scale,
                "bone {bone} origin {} vs {}", cached.translation, full.translation);
            prop_assert!(cached.matrix3.abs_diff_eq(full.matrix3, 1e-12 * ps),
                "bone {bone} matrix {} vs {}", cached.matrix3, full.matrix3);
            let (q, r) = (pose.world_rotation(bone), fresh.world_rotation(bone));
            prop_assert!(q.dot(r).abs() >= 1.0 - 1e-14, "bone {bone} rotation {q} vs {r}");
        }
        // At full weight the report's elbow and wrist are where the pose put them.
        if weight == 1.0 {
            let wrist = fresh.world_position(hand);
            prop_assert!((wrist.distance(job.target_in_world) - report.residual).abs() <= 1e-12 * scale);
        }
    }
}

/// More twist bones than the solver's 16-bone path buffer: the refresh falls back to the
/// whole subtree and the cached world still equals a full refresh.
#[test]
fn a_path_longer_than_the_buffer_still_matches_a_full_refresh() {
    let n = 40;
    let offsets: Vec<DVec3> = (0..n)
        .map(|i| DVec3::new(0.01 * (i % 3) as f64, 0.02, 0.005 * (i % 2) as f64))
        .collect();
    let turns: Vec<DQuat> = (0..n)
        .map(|i| DQuat::from_rotation_y(0.05 * i as f64) * DQuat::from_rotation_x(0.02))
        .collect();
    for weight in [1.0, 0.4] {
        let (skel, mut pose, [upper, fore, hand]) =
            twisted_arm(Transform::IDENTITY, &offsets, &turns, (18, 17), true);
        let shoulder = pose.world_position(upper);
        let reach = pose.world_position(hand).distance(shoulder);
        let mut job = TwoBoneJob::new(
            upper,
            fore,
            hand,
            shoulder + DVec3::new(0.3, -0.4, 0.2) * reach,
            shoulder + DVec3::new(0.0, 0.0, -1.0),
        );
        job.weight = weight;
        let report = job.solve(&skel, &mut pose).expect("valid job");
        let mut fresh = pose.clone();
        fresh.refresh_all(&skel);
        for bone in 0..pose.len() {
            let (cached, full) = (pose.world_from_bone(bone), fresh.world_from_bone(bone));
            assert!(
                cached.abs_diff_eq(*full, 1e-12),
                "weight {weight}, bone {bone}: {cached:?} vs {full:?}"
            );
        }
        if weight == 1.0 {
            assert!(report.reached, "{report:?}");
        }
    }
}
