//! Two-bone IK: every test category of seed 001, plus the limit, weight, softening and twist
//! extensions.

mod support;
use support::arm::{self, ArmSpec, FINGER, FORE, HAND, PARENT, UPPER};

use anglerpose::ik::two_bone::{
    ElbowLimit, Fallback, ReachClamp, TwoBoneError, TwoBoneJob, rotation_between,
};
use anglerpose::rig::Transform;
use glam::{DQuat, DVec3};
use std::f64::consts::PI;

fn job(target: DVec3, pole: DVec3) -> TwoBoneJob {
    TwoBoneJob::new(UPPER, FORE, HAND, target, pole)
}

fn assert_close(a: DVec3, b: DVec3, tol: f64, what: &str) {
    assert!(
        (a - b).length() <= tol,
        "{what}: {a:?} vs {b:?} (|diff| = {:e}, tol {tol:e})",
        (a - b).length()
    );
}

#[test]
fn reachable_target_is_reached_and_lengths_kept() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let (a0, b0) = arm::lengths(&pose);
    let shoulder = pose.world_position(UPPER);
    let target = shoulder + DVec3::new(0.25, -0.2, 0.2);
    let pole = shoulder + DVec3::new(0.0, -0.3, -0.5);
    let report = job(target, pole).solve(&skel, &mut pose).unwrap();
    assert!(report.reached, "{report:?}");
    assert_eq!(report.clamp, ReachClamp::None);
    assert_eq!(report.fallback, Fallback::None);
    assert!(report.residual < 1e-12, "residual {:e}", report.residual);
    assert_close(pose.world_position(HAND), target, 1e-12, "wrist");
    let (a1, b1) = arm::lengths(&pose);
    assert!((a1 - a0).abs() < 1e-12 && (b1 - b0).abs() < 1e-12);
    // Elbow on the pole side of the shoulder→target line.
    let u = (target - shoulder).normalize();
    let elbow = pose.world_position(FORE) - shoulder;
    let pole_dir = pole - shoulder;
    let side = (elbow - u * elbow.dot(u)).dot(pole_dir - u * pole_dir.dot(u));
    assert!(side > 0.0, "elbow not on the pole side");
    // The finger (a descendant of the hand) follows: its world transform was refreshed.
    let expected_finger = pose.world_from_bone(HAND).transform_point3(DVec3::Y * 0.05);
    assert_close(
        pose.world_position(FINGER),
        expected_finger,
        1e-12,
        "finger",
    );
}

#[test]
fn unreachable_too_far_straightens_toward_target() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let shoulder = pose.world_position(UPPER);
    let target = shoulder + DVec3::new(2.0, 0.5, 0.3);
    let report = job(target, shoulder + DVec3::Z)
        .solve(&skel, &mut pose)
        .unwrap();
    assert_eq!(report.clamp, ReachClamp::TooFar);
    assert!(!report.reached);
    let (a, b) = arm::lengths(&pose);
    let m = a.min(b) * 1e-4;
    let wrist = pose.world_position(HAND);
    // The wrist lies on the shoulder→target ray at the clamped distance a+b−m.
    let expected = shoulder + (target - shoulder).normalize() * (a + b - m);
    assert_close(wrist, expected, 1e-12, "clamped wrist");
    assert!((report.residual - ((target - shoulder).length() - (a + b - m))).abs() < 1e-12);
    assert!(
        report.elbow_bend() < 0.03,
        "nearly straight: {}",
        report.elbow_bend()
    );
}

#[test]
fn unreachable_too_near_folds_to_minimum_distance() {
    let spec = ArmSpec {
        upper_len: 0.4,
        fore_len: 0.2,
        ..ArmSpec::default()
    };
    let (skel, mut pose) = arm::build(&spec);
    let shoulder = pose.world_position(UPPER);
    let target = shoulder + DVec3::new(0.05, 0.02, 0.0);
    let report = job(target, shoulder + DVec3::Z)
        .solve(&skel, &mut pose)
        .unwrap();
    assert_eq!(report.clamp, ReachClamp::TooNear);
    let m = 0.2 * 1e-4;
    let expected = shoulder + (target - shoulder).normalize() * (0.2 + m);
    assert_close(pose.world_position(HAND), expected, 1e-12, "folded wrist");
}

#[test]
fn target_on_shoulder_uses_current_wrist_direction() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let shoulder = pose.world_position(UPPER);
    let wrist_dir = (pose.world_position(HAND) - shoulder).normalize();
    let report = job(shoulder, shoulder + DVec3::Z)
        .solve(&skel, &mut pose)
        .unwrap();
    assert_eq!(report.fallback, Fallback::TargetOnShoulder);
    assert_eq!(report.clamp, ReachClamp::TooNear);
    let wrist = pose.world_position(HAND) - shoulder;
    assert!(wrist.normalize().dot(wrist_dir) > 1.0 - 1e-9);
    assert!(pose.is_finite());
}

/// Seed 001 §6: both bones length 1, target on the shoulder; the forearm correction is
/// near 180° and must still land on the clamped target.
#[test]
fn near_180_degree_correction_lands_on_clamped_target() {
    let spec = ArmSpec {
        upper_len: 1.0,
        fore_len: 1.0,
        fore_rot: DQuat::IDENTITY,
        shoulder_offset: DVec3::new(0.3, 1.0, -0.2),
        ..ArmSpec::default()
    };
    let (skel, mut pose) = arm::build(&spec);
    let shoulder = pose.world_position(UPPER);
    let report = job(shoulder, shoulder + DVec3::new(0.0, 0.0, 1.0))
        .solve(&skel, &mut pose)
        .unwrap();
    let goal = report.wrist_goal_in_world;
    assert!(((goal - shoulder).length() - 1e-4).abs() < 1e-12);
    let residual = (pose.world_position(HAND) - goal).length();
    assert!(residual < 1e-6, "residual to clamped target {residual:e}");
    let (a, b) = arm::lengths(&pose);
    assert!((a - 1.0).abs() < 1e-12 && (b - 1.0).abs() < 1e-12);
}

#[test]
fn rotation_between_handles_near_and_exact_opposites() {
    let from = DVec3::X;
    let to = DVec3::new(-1.0, 1e-5, 0.0);
    let q = rotation_between(from, to, DVec3::Z);
    assert!((q * from - to.normalize()).length() < 1e-12);
    let q = rotation_between(from, -DVec3::X, DVec3::Z);
    assert!((q * from + DVec3::X).length() < 1e-12);
    // The exact-opposite turn happens about the preferred axis.
    assert!((q * DVec3::Z - DVec3::Z).length() < 1e-12);
    assert_eq!(
        rotation_between(DVec3::ZERO, DVec3::X, DVec3::Z),
        DQuat::IDENTITY
    );
}

/// Seed 001 §6: within 1e-6 of opposition the turn is built from `atan2(|cross|, dot)` so the
/// tiny remaining sine still sets the axis and the angle. 1e-9 from exact opposition the
/// generic shortest arc has lost it (it turns by π about an arbitrary axis, 1e-9 off).
#[test]
fn rotation_between_keeps_the_sine_a_billionth_from_opposition() {
    for (to, preferred) in [
        (DVec3::new(-1.0, 1e-9, 0.0), DVec3::Z),
        (DVec3::new(-1.0, 0.0, -1e-9), DVec3::Y),
        (DVec3::new(-2.0, 3e-9, 2e-9), DVec3::Z),
    ] {
        let q = rotation_between(DVec3::X, to, preferred);
        let got = q * DVec3::X;
        let want = to.normalize();
        assert!(
            (got - want).length() < 1e-12,
            "{to:?}: X goes to {got:?}, not {want:?}"
        );
        // The axis is the cross product's, whatever the preferred axis says.
        let (axis, angle) = q.to_axis_angle();
        let cross = DVec3::X.cross(to).normalize();
        assert!((axis - cross).length() < 1e-6, "{to:?}: axis {axis:?}");
        // π minus the small angle off opposition (glam's angle_between uses acos: π there).
        let off = (to.y.hypot(to.z) / -to.x).atan();
        assert!(
            (angle - (std::f64::consts::PI - off)).abs() < 1e-12,
            "{to:?}: {angle}"
        );
    }
}

#[test]
fn pole_on_reach_line_falls_back_to_current_elbow() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let shoulder = pose.world_position(UPPER);
    let elbow0 = pose.world_position(FORE);
    let target = shoulder + DVec3::new(0.1, -0.35, 0.1);
    let u = (target - shoulder).normalize();
    let pole = shoulder + u * 3.0;
    let report = job(target, pole).solve(&skel, &mut pose).unwrap();
    assert_eq!(report.fallback, Fallback::PoleOnAxis);
    assert!(report.reached);
    // The elbow bends to the side the current elbow was on.
    let side0 = elbow0 - shoulder;
    let side0 = side0 - u * side0.dot(u);
    let side1 = pose.world_position(FORE) - shoulder;
    let side1 = side1 - u * side1.dot(u);
    assert!(side0.normalize().dot(side1.normalize()) > 1.0 - 1e-9);
}

#[test]
fn pole_at_shoulder_and_straight_arm_use_axis_fallback() {
    // A straight arm: the current elbow is on the reach line too, so the axis fallback runs.
    let spec = ArmSpec {
        fore_rot: DQuat::IDENTITY,
        ..ArmSpec::default()
    };
    let (skel, mut pose) = arm::build(&spec);
    let shoulder = pose.world_position(UPPER);
    let target = shoulder + DVec3::Y * 0.4;
    let report = job(target, shoulder).solve(&skel, &mut pose).unwrap();
    assert_eq!(report.fallback, Fallback::PoleOnAxis);
    assert!(report.reached, "{report:?}");
    assert!(report.bend_normal.is_finite());
    assert!((report.bend_normal.length() - 1.0).abs() < 1e-12);
}

#[test]
fn rotated_translated_scaled_parents_including_180_degree_turns() {
    let parents = [
        Transform::new(
            DVec3::new(1.0, -2.0, 3.0),
            DQuat::from_rotation_y(PI),
            DVec3::ONE,
        ),
        Transform::new(DVec3::ZERO, DQuat::from_rotation_x(PI), DVec3::splat(2.5)),
        Transform::new(
            DVec3::new(-0.5, 0.2, 0.1),
            DQuat::from_axis_angle(DVec3::new(1.0, 1.0, 0.0).normalize(), PI),
            DVec3::splat(0.01),
        ),
        Transform::new(
            DVec3::new(0.0, 5.0, 0.0),
            DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.2, 2.9),
            DVec3::splat(1.7),
        ),
    ];
    for parent in parents {
        let (skel, mut pose) = arm::build(&ArmSpec {
            parent,
            upper_rot: DQuat::from_rotation_x(0.7),
            ..ArmSpec::default()
        });
        let (a, b) = arm::lengths(&pose);
        let shoulder = pose.world_position(UPPER);
        let target = shoulder + DVec3::new(0.3, 0.2, -0.1).normalize() * (a + b) * 0.8;
        let pole = shoulder + DVec3::new(0.0, -1.0, 0.0) * (a + b);
        let report = job(target, pole).solve(&skel, &mut pose).unwrap();
        assert!(report.reached, "parent {parent:?}: {report:?}");
        assert!(report.residual < 1e-9 * (a + b));
        let (a1, b1) = arm::lengths(&pose);
        assert!((a1 - a).abs() < 1e-9 * a && (b1 - b).abs() < 1e-9 * b);
        // The parent itself never moves.
        assert_eq!(pose.local(PARENT), &parent);
    }
}

#[test]
fn any_bone_local_axis_works() {
    let axes = [
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        -DVec3::X,
        DVec3::new(0.3, -0.8, 0.52).normalize(),
    ];
    for axis in axes {
        let (skel, mut pose) = arm::build(&ArmSpec {
            axis,
            upper_rot: DQuat::from_rotation_z(1.1),
            ..ArmSpec::default()
        });
        let shoulder = pose.world_position(UPPER);
        let target = shoulder + DVec3::new(-0.2, -0.3, 0.15);
        let pole = shoulder + DVec3::new(0.0, 0.0, -1.0);
        let report = job(target, pole).solve(&skel, &mut pose).unwrap();
        assert!(report.reached, "axis {axis:?}: {report:?}");
        assert!(report.residual < 1e-12, "axis {axis:?}");
    }
}

#[test]
fn repeated_solving_returns_the_same_pose() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let shoulder = pose.world_position(UPPER);
    let j = job(
        shoulder + DVec3::new(0.2, -0.3, 0.2),
        shoulder + DVec3::new(0.5, -0.5, -1.0),
    );
    let _ = j.solve(&skel, &mut pose).unwrap();
    let first = pose.clone();
    for _ in 0..10 {
        let _ = j.solve(&skel, &mut pose).unwrap();
    }
    for bone in 0..pose.len() {
        let q0 = first.local(bone).rotation;
        let q1 = pose.local(bone).rotation;
        assert!(q0.dot(q1).abs() > 1.0 - 1e-12, "bone {bone} drifted");
        assert!((first.world_position(bone) - pose.world_position(bone)).length() < 1e-12);
    }
}

#[test]
fn solving_a_clone_leaves_the_original_untouched() {
    let (skel, pose) = arm::build(&ArmSpec::default());
    let original = pose.clone();
    let mut copy = pose.clone();
    let shoulder = pose.world_position(UPPER);
    let _ = job(
        shoulder + DVec3::new(0.3, 0.0, 0.2),
        shoulder + DVec3::NEG_Z,
    )
    .solve(&skel, &mut copy)
    .unwrap();
    assert_eq!(pose, original);
    assert_ne!(copy, original);
}

#[test]
fn validate_rejects_bad_jobs_and_leaves_pose_alone() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let before = pose.clone();
    let s = pose.world_position(UPPER);
    let bad = [
        TwoBoneJob::new(UPPER, FORE, 99, s, s),
        TwoBoneJob::new(FORE, UPPER, HAND, s, s),
        TwoBoneJob::new(UPPER, UPPER, HAND, s, s),
        TwoBoneJob::new(UPPER, FORE, HAND, DVec3::NAN, s),
        TwoBoneJob::new(UPPER, FORE, HAND, s, DVec3::INFINITY),
        TwoBoneJob {
            weight: 1.5,
            ..job(s, s)
        },
        TwoBoneJob {
            soften: f64::NAN,
            ..job(s, s)
        },
        TwoBoneJob {
            elbow_limit: Some(ElbowLimit::from_degrees(120.0, 10.0)),
            ..job(s, s)
        },
    ];
    for j in bad {
        assert!(j.solve(&skel, &mut pose).is_err(), "{j:?} accepted");
        assert_eq!(pose, before);
    }
}

#[test]
fn non_uniform_scale_on_the_chain_is_rejected_and_elsewhere_allowed() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let s = pose.world_position(UPPER);
    let j = job(s + DVec3::new(0.25, -0.2, 0.2), s + DVec3::Z);
    let with_scale = |pose: &mut anglerpose::rig::Pose, bone: usize, scale: DVec3| {
        let mut t = *pose.local(bone);
        t.scale = scale;
        pose.set_local(bone, t);
        pose.refresh_all(&skel);
    };
    // On an ancestor of the chain: rejected, naming the bone.
    with_scale(&mut pose, PARENT, DVec3::new(1.0, 1.2, 1.0));
    assert!(!pose.all_local_scales_uniform());
    let err = j.solve(&skel, &mut pose).unwrap_err();
    assert!(
        matches!(err, TwoBoneError::NonUniformScale { bone, .. } if bone == PARENT),
        "{err}"
    );
    // Made uniform again (the pose's count goes back to zero): solved.
    with_scale(&mut pose, PARENT, DVec3::splat(1.2));
    assert!(pose.all_local_scales_uniform());
    assert!(j.solve(&skel, &mut pose).unwrap().reached);
    // Below the hand, off the chain: allowed.
    with_scale(&mut pose, FINGER, DVec3::new(1.0, 2.0, 1.0));
    assert!(!pose.all_local_scales_uniform());
    assert!(j.solve(&skel, &mut pose).unwrap().reached);
}

#[test]
fn zero_length_bones_are_rejected() {
    let (skel, mut pose) = arm::build(&ArmSpec {
        fore_len: 0.0,
        ..ArmSpec::default()
    });
    let s = pose.world_position(UPPER);
    let err = job(s + DVec3::X * 0.2, s + DVec3::Z)
        .solve(&skel, &mut pose)
        .unwrap_err();
    assert!(matches!(err, TwoBoneError::ZeroLength { .. }), "{err}");
}

#[test]
fn elbow_limit_clamps_bend_and_reaims_shoulder() {
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let (a, b) = arm::lengths(&pose);
    let shoulder = pose.world_position(UPPER);
    // A close target needs a strong bend; limit the bend to 60°.
    let target = shoulder + DVec3::new(0.1, -0.1, 0.05);
    let limited = TwoBoneJob {
        elbow_limit: Some(ElbowLimit::from_degrees(5.0, 60.0)),
        ..job(target, shoulder + DVec3::NEG_Z)
    };
    let report = limited.solve(&skel, &mut pose).unwrap();
    assert!(report.elbow_limited);
    assert!(
        (report.elbow_bend() - 60f64.to_radians()).abs() < 1e-9,
        "{}",
        report.elbow_bend()
    );
    // Closest the clamped elbow allows: the wrist is on the shoulder→target ray at the
    // distance the 60° bend gives.
    let d = (a * a + b * b + 2.0 * a * b * 60f64.to_radians().cos()).sqrt();
    let expected = shoulder + (target - shoulder).normalize() * d;
    assert_close(pose.world_position(HAND), expected, 1e-12, "limited wrist");
    assert!((report.residual - (d - (target - shoulder).length())).abs() < 1e-12);

    // The same limit switched off solves freely.
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let mut free = limited.clone();
    free.elbow_limit.as_mut().unwrap().enabled = false;
    let report = free.solve(&skel, &mut pose).unwrap();
    assert!(report.reached && !report.elbow_limited);
    assert!(report.elbow_bend() > 60f64.to_radians());

    // A minimum bend keeps the elbow from locking straight.
    let (skel, mut pose) = arm::build(&ArmSpec::default());
    let far = TwoBoneJob {
        elbow_limit: Some(ElbowLimit::from_degrees(15.0, 150.0)),
        ..job(shoulder + DVec3::X * 2.0, shoulder + DVec3::NEG_Z)
    };
    let report = far.solve(&skel, &mut pose).unwrap();
    assert!(report.elbow_limited);
    assert!((report.elbow_bend() - 15f64.to_radians()).abs() < 1e-9);
}

#[test]
fn weight_blends_with_the_input_pose() {
    let (skel, pose0) = arm::build(&ArmSpec::default());
    let shoulder = pose0.world_position(UPPER);
    let target = shoulder + DVec3::new(0.25, -0.2, 0.2);
    let full = job(target, shoulder + DVec3::NEG_Z);
    let mut zero_pose = pose0.clone();
    let _ = TwoBoneJob {
        weight: 0.0,
        ..full.clone()
    }
    .solve(&skel, &mut zero_pose)
    .unwrap();
    for bone in 0..zero_pose.len() {
        assert!((zero_pose.world_position(bone) - pose0.world_position(bone)).length() < 1e-12);
    }
    let mut solved = pose0.clone();
    let _ = full.solve(&skel, &mut solved).unwrap();
    let mut half = pose0.clone();
    let _ = TwoBoneJob {
        weight: 0.5,
        ..full
    }
    .solve(&skel, &mut half)
    .unwrap();
    let q0 = pose0.local(UPPER).rotation;
    let q1 = solved.local(UPPER).rotation;
    let qh = half.local(UPPER).rotation;
    assert!(qh.dot(q0.slerp(q1, 0.5)).abs() > 1.0 - 1e-12);
}

#[test]
fn softening_lags_behind_near_full_reach_and_is_continuous() {
    let (skel, pose0) = arm::build(&ArmSpec::default());
    let (a, b) = arm::lengths(&pose0);
    let shoulder = pose0.world_position(UPPER);
    let dir = DVec3::new(0.6, -0.5, 0.3).normalize();
    let mut last = None::<f64>;
    for k in 0..=100 {
        let dist = (a + b) * (0.5 + 0.8 * k as f64 / 100.0);
        let mut pose = pose0.clone();
        let report = TwoBoneJob {
            soften: 0.9,
            ..job(shoulder + dir * dist, shoulder + DVec3::NEG_Z)
        }
        .solve(&skel, &mut pose)
        .unwrap();
        let reach = (pose.world_position(HAND) - shoulder).length();
        let start = 0.9 * (a + b);
        if dist < start - 1e-9 {
            assert!(!report.softened && report.reached, "{dist}: {report:?}");
        } else if dist > start + 1e-9 {
            assert!(report.softened && reach < dist, "{dist}: {report:?}");
        }
        assert!(reach <= a + b);
        if let Some(prev) = last {
            // Monotonic and without jumps.
            assert!(reach >= prev - 1e-12 && reach - prev < 0.02 * (a + b));
        }
        last = Some(reach);
    }
}

#[test]
fn twist_rotates_the_bend_plane_about_the_reach_axis() {
    let (skel, pose0) = arm::build(&ArmSpec::default());
    let shoulder = pose0.world_position(UPPER);
    let target = shoulder + DVec3::new(0.3, -0.2, 0.1);
    let base = job(target, shoulder + DVec3::NEG_Z);
    let mut p0 = pose0.clone();
    let r0 = base.solve(&skel, &mut p0).unwrap();
    let mut p1 = pose0.clone();
    let r1 = TwoBoneJob {
        twist: PI / 2.0,
        ..base
    }
    .solve(&skel, &mut p1)
    .unwrap();
    assert!(r1.reached);
    let u = (target - shoulder).normalize();
    let expected = DQuat::from_axis_angle(u, PI / 2.0) * r0.bend_normal;
    assert!((r1.bend_normal - expected).length() < 1e-12);
}

/// The job and the solver settings state each parameter's range once (issue 38): the job
/// refuses what a preset's settings refuse, naming the same range, and takes the ends.
#[test]
fn the_job_and_the_settings_share_each_parameters_range() {
    use anglerpose::fishing::SolverSettings;
    use anglerpose::ik::two_bone::{BEND_RANGE, SOFTEN_RANGE, TWIST_RANGE, WEIGHT_RANGE};
    use anglerpose::rig::Side;
    let (skel, pose) = arm::build(&ArmSpec::default());
    let t = pose.world_position(HAND);
    let p = pose.world_position(FORE) + DVec3::Z;
    let settings_ok = |f: &dyn Fn(&mut SolverSettings)| {
        let mut s = SolverSettings::default();
        f(&mut s);
        s.validate().is_ok()
    };
    for (range, what) in [
        (WEIGHT_RANGE, "weight"),
        (SOFTEN_RANGE, "soften"),
        (TWIST_RANGE, "twist"),
        (BEND_RANGE, "max bend"),
    ] {
        for (value, ok) in [
            (range.lo, true),
            (range.hi, true),
            (range.lo - 0.01, false),
            (range.hi + 0.01, false),
        ] {
            let mut j = job(t, p);
            let set = |s: &mut SolverSettings| match what {
                "weight" => s.weight = value,
                "soften" => s.soften = value,
                "twist" => s.arm_mut(Side::Right).twist = value,
                _ => {
                    let limit = &mut s.arm_mut(Side::Right).elbow_limit;
                    (limit.min_bend, limit.max_bend) = (0.0, value);
                }
            };
            match what {
                "weight" => j.weight = value,
                "soften" => j.soften = value,
                "twist" => j.twist = value,
                _ => {
                    j.elbow_limit = Some(ElbowLimit {
                        min_bend: 0.0,
                        max_bend: value,
                        enabled: true,
                    })
                }
            }
            let job_says = j.validate(&skel, &pose);
            assert_eq!(job_says.is_ok(), ok, "{what} = {value}: {job_says:?}");
            assert_eq!(settings_ok(&set), ok, "settings' {what} = {value}");
            if let Err(e) = job_says {
                assert!(e.to_string().contains(range.text), "{e}");
            }
        }
    }
}
