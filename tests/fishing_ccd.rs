//! Arms posed by the CCD solver (three.js CCDIKSolver semantics) in the fishing pipeline:
//! reachable grips are reached within the CCD tolerance, link rotations stay inside their
//! limits, the global switch overrides the per-link ones, each arm runs its own solver, and
//! palm, fingers, reports and the timeline analysis work as with two-bone.

mod support;

use anglerpose::fishing::{
    ActorRig, ArmSolverKind, CCD_REACH_TOLERANCE, CcdLinkLimits, CcdLinkRole, Phase, SIDES,
    SessionError, SessionState, SolverSettings, analyse_timeline,
};
use anglerpose::gltf_io;
use anglerpose::ik::limits::{euler_xyz_from_quat, wrap_euler_near, wrap_near};
use anglerpose::rig::{HumanoidMap, Pose, Side};
use glam::{DQuat, DVec3};
use support::angler::{angler, evaluate};
use support::gltf_edit::{Doc, quat};

fn ccd_settings() -> SolverSettings {
    let mut s = SolverSettings::default();
    for side in SIDES {
        s.arm_mut(side).solver = ArmSolverKind::Ccd;
    }
    s
}

fn arm_length(actor: &ActorRig, side: Side) -> f64 {
    let arm = actor.arm(side);
    let p = |b| actor.base.world_position(b);
    p(arm.upper).distance(p(arm.fore)) + p(arm.fore).distance(p(arm.hand))
}

/// Largest amount (radians) by which `q`'s Euler XYZ angles, wrapped near the range centre as
/// three.js does, lie outside `[min, max]` (0 when inside).
fn outside(q: DQuat, min: DVec3, max: DVec3) -> f64 {
    let v = euler_xyz_from_quat(q);
    let c = (min + max) * 0.5;
    (0..3)
        .map(|i| {
            let w = wrap_near(v[i], c[i]);
            (min[i] - w).max(w - max[i]).max(0.0)
        })
        .fold(0.0, f64::max)
}

/// Checks both arms' link rotations against their configured limits (hinge: no rotation off
/// the axis; Euler range: inside min/max). Returns how many link limits were checked.
fn assert_links_inside_limits(actor: &ActorRig, settings: &SolverSettings, pose: &Pose) -> usize {
    let mut checked = 0;
    for side in SIDES {
        let arm = actor.arm(side);
        for role in CcdLinkRole::ALL {
            let l = settings.arm(side).ccd.link(role);
            if !l.enabled {
                continue;
            }
            let bone = match role {
                CcdLinkRole::Forearm => arm.fore,
                CcdLinkRole::UpperArm => arm.upper,
            };
            let q = pose.local(bone).rotation;
            if let Some(axis) = l.limitation {
                let off_axis = DVec3::new(q.x, q.y, q.z).reject_from(axis).length();
                assert!(
                    off_axis < 1e-9,
                    "{side:?} {role:?} turns off its hinge: {q}"
                );
                checked += 1;
            }
            if let (Some(min), Some(max)) = (l.rotation_min, l.rotation_max) {
                let out = outside(q, min, max);
                assert!(
                    out < 1e-9,
                    "{side:?} {role:?} {out:e} rad outside its range ({:?})",
                    euler_xyz_from_quat(q)
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn ccd_arms_reach_the_seated_grips_inside_their_limits() {
    let actor = angler();
    let calib = actor.default_calibration();
    let mut settings = ccd_settings();
    // The rod arm's shoulder inside an Euler range, too.
    let upper = &mut settings.arms.right.ccd.upper_arm;
    upper.enabled = true;
    upper.rotation_min = Some(DVec3::new(-20.0, -90.0, 0.0) * std::f64::consts::PI / 180.0);
    upper.rotation_max = Some(DVec3::new(90.0, 20.0, 140.0) * std::f64::consts::PI / 180.0);
    let (pose, eval) = evaluate(&actor, &calib, &settings, &SessionState::default()).unwrap();
    for side in SIDES {
        let arm = actor.arm(side);
        let r = eval.arms.get(side);
        assert_eq!(r.solver_kind(), ArmSolverKind::Ccd);
        let ccd = r.ccd().expect("CCD report");
        let tol = CCD_REACH_TOLERANCE * arm_length(&actor, side);
        let wrist = pose.world_position(arm.hand);
        let err = wrist.distance(r.wrist_target_in_world);
        assert!(r.ik.reached, "{side:?}: {r:?}");
        assert!(
            err <= tol,
            "{side:?} wrist {err:e} from target (tol {tol:e})"
        );
        assert!((r.ik.residual - err).abs() < 1e-12);
        assert!((ccd.final_distance - err).abs() < 1e-9, "{ccd:?}");
        assert!(
            ccd.initial_distance > 10.0 * tol,
            "started away from the grip"
        );
        assert!(ccd.iterations >= 1 && ccd.iterations <= 64);
        // The report's elbow and bend are the pose's.
        assert!(r.ik.elbow_in_world.distance(pose.world_position(arm.fore)) < 1e-12);
        let bend = (pose.world_position(arm.fore) - pose.world_position(arm.upper))
            .angle_between(wrist - pose.world_position(arm.fore));
        assert!((r.ik.elbow_bend - bend).abs() < 1e-12);
        assert!(r.ik.bend_normal.is_normalized());
        // Palm and fingers ran after the arm: the palm sits on its grip frame.
        let carried = pose.world_rotation(arm.hand) * arm.hand_frame.hand_from_grip.rotation;
        let wanted = r.grip.actor_from_grip.rotation;
        assert!(carried.angle_between(wanted) < 1e-6, "{side:?} palm");
        // Each link's reported Euler angles are three's: its final local rotation's angles,
        // wrapped near the range centre where the link has an Euler range in use, and the
        // JSON report carries exactly those.
        let arm_settings = settings.arm(side).ccd;
        for link in &ccd.links {
            let rotation = pose.local(link.bone).rotation;
            assert_eq!(link.rotation, rotation, "{side:?} {:?}", link.role);
            let limits = arm_settings.link(link.role);
            let mut want = euler_xyz_from_quat(rotation);
            if let (true, Some(lo), Some(hi)) =
                (limits.enabled, limits.rotation_min, limits.rotation_max)
            {
                want = wrap_euler_near(want, (lo + hi) * 0.5);
            }
            assert!(
                (link.euler() - want).length() < 1e-12,
                "{side:?} {:?}",
                link.role
            );
            let json = serde_json::to_value(link).unwrap();
            let e = link.euler();
            assert_eq!(json["euler"], serde_json::json!([e.x, e.y, e.z]), "{json}");
            assert_eq!(json["bone"], serde_json::json!(link.bone));
        }
    }
    // Forearm hinges (both arms) plus their ranges, plus the right shoulder's range.
    assert_eq!(assert_links_inside_limits(&actor, &settings, &pose), 5);
}

/// Over the whole session (600 states, as the timeline samples it; twice, the second time with
/// the rod held farther out) the limits hold, and
/// every grip within the arm's length is reached to 0.1 mm: the CCD passes go planar and the
/// arm finishes at their limit, near full reach too (where three's passes alone stopped up to
/// 2.5 mm short after their 64 passes). Grips the 2° elbow limit keeps out of reach end on
/// that limit.
#[test]
fn ccd_limits_hold_over_the_whole_timeline_and_reachable_grips_are_reached() {
    let actor = angler();
    let settings = ccd_settings();
    let params = SessionState::default().params;
    let total = params.total_duration();
    let (mut reached, mut near_full, mut beyond) = (0, 0, 0);
    // The default calibration, and the rod slid 10 cm along its blank away from the body so
    // the arms also work at and beyond full reach (with the knob pinched at the fingers, the
    // default session alone no longer takes them there).
    let mut pushed = actor.default_calibration();
    pushed.rod_adjust.offset_in_object.y += 0.1;
    let calibrations = [actor.default_calibration(), pushed];
    for k in 0..1200 {
        let calib = &calibrations[k / 600];
        let k = k % 600;
        let state = SessionState::at_time(total * k as f64 / 599.0, params);
        let (pose, eval) = evaluate(&actor, calib, &settings, &state).unwrap();
        assert_links_inside_limits(&actor, &settings, &pose);
        for side in SIDES {
            let arm = actor.arm(side);
            let r = eval.arms.get(side);
            assert!(r.ik.residual.is_finite() && r.ik.bend_normal.is_finite());
            let ccd = r.ccd().expect("a CCD arm");
            assert!(ccd.planar_finish.is_some(), "k = {k} {side:?}: {ccd:?}");
            let length = arm_length(&actor, side);
            let d = pose
                .world_position(arm.upper)
                .distance(r.wrist_target_in_world);
            if d <= length {
                assert!(r.ik.residual <= 1e-4, "k = {k} {side:?}: {r:?}");
            }
            if ccd.links[0].on_limit {
                beyond += 1;
            } else {
                assert!(r.ik.reached, "k = {k} {side:?}: {r:?}");
                assert!(r.ik.residual <= 1e-12, "k = {k} {side:?}: {r:?}");
                reached += 1;
                near_full += usize::from(d > 0.95 * length);
            }
        }
    }
    assert!(
        reached > 1000 && near_full >= 20 && beyond > 0,
        "{reached} reached, {near_full} of them within 5% of full reach, {beyond} beyond"
    );
}

#[test]
fn the_global_switch_overrides_each_link_and_link_switches_act_alone() {
    let actor = angler();
    let calib = actor.default_calibration();
    let state = SessionState::new(Phase::Landing, 0.6, Default::default());
    let limited = ccd_settings();
    let (pose_limited, _) = evaluate(&actor, &calib, &limited, &state).unwrap();
    let fore = |pose: &Pose, side| pose.local(actor.arm(side).fore).rotation;
    let hinge_error = |q: DQuat| DVec3::new(q.x, q.y, q.z).reject_from(DVec3::X).length();
    for side in SIDES {
        assert!(hinge_error(fore(&pose_limited, side)) < 1e-9);
    }
    // Global off: the forearm leaves its hinge (CCD turns it about any axis).
    let mut global_off = limited;
    global_off.limits_enabled = false;
    let (pose_free, _) = evaluate(&actor, &calib, &global_off, &state).unwrap();
    for side in SIDES {
        assert!(
            hinge_error(fore(&pose_free, side)) > 1e-3,
            "{side:?} still a hinge"
        );
    }
    // Only the left forearm's own switch off: the left arm is free, the right still a hinge.
    let mut left_off = limited;
    left_off.arms.left.ccd.forearm.enabled = false;
    let (pose_left_off, _) = evaluate(&actor, &calib, &left_off, &state).unwrap();
    assert!(hinge_error(fore(&pose_left_off, Side::Left)) > 1e-3);
    assert!(hinge_error(fore(&pose_left_off, Side::Right)) < 1e-9);
    let right = actor.arm(Side::Right);
    for b in [right.upper, right.fore, right.hand] {
        assert_eq!(pose_left_off.local(b), pose_limited.local(b));
    }
}

#[test]
fn each_arm_runs_its_own_solver() {
    let actor = angler();
    let calib = actor.default_calibration();
    let state = SessionState::default();
    let two_bone = SolverSettings::default();
    let mut mixed = two_bone;
    mixed.arms.left.solver = ArmSolverKind::Ccd;
    let (p2, e2) = evaluate(&actor, &calib, &two_bone, &state).unwrap();
    let (pm, em) = evaluate(&actor, &calib, &mixed, &state).unwrap();
    assert_eq!(em.arms.left.solver_kind(), ArmSolverKind::Ccd);
    assert!(em.arms.left.ccd().is_some() && em.arms.right.ccd().is_none());
    assert_eq!(em.arms.right, e2.arms.right);
    let (l, r) = (actor.arm(Side::Left), actor.arm(Side::Right));
    for b in [r.upper, r.fore, r.hand] {
        assert_eq!(pm.local(b), p2.local(b), "right arm bone {b}");
    }
    // Both reach the same grip with a different elbow.
    assert!(em.arms.left.ik.reached && e2.arms.left.ik.reached);
    assert!(
        pm.world_position(l.fore)
            .distance(p2.world_position(l.fore))
            > 1e-3
    );
}

#[test]
fn ccd_blend_weight_and_bad_settings() {
    let actor = angler();
    let calib = actor.default_calibration();
    let state = SessionState::default();
    let mut s = ccd_settings();
    // A zero blend leaves the arm in its base pose (CCD does not move it).
    s.arms.right.ccd.blend_factor = Some(0.0);
    let (pose, eval) = evaluate(&actor, &calib, &s, &state).unwrap();
    let arm = actor.arm(Side::Right);
    for b in [arm.upper, arm.fore] {
        let q = pose.local(b).rotation;
        assert!(q.angle_between(actor.base.local(b).rotation) < 1e-12);
    }
    assert!(!eval.arms.right.ik.reached);
    assert_eq!(eval.arms.right.ccd().unwrap().blend, 0.0);
    // The global weight is the blend of chains without their own.
    assert_eq!(eval.arms.left.ccd().unwrap().blend, 1.0);
    // Invalid CCD settings are errors, never a hang or a panic.
    for edit in [
        |s: &mut SolverSettings| s.arms.left.ccd.iterations = 0,
        |s: &mut SolverSettings| s.arms.left.ccd.iterations = 1_000_000,
        |s: &mut SolverSettings| s.arms.right.ccd.max_angle = Some(f64::NAN),
        |s: &mut SolverSettings| s.arms.right.ccd.blend_factor = Some(1.5),
        |s: &mut SolverSettings| {
            s.arms.left.ccd.forearm = CcdLinkLimits {
                limitation: Some(DVec3::ZERO),
                ..CcdLinkLimits::FREE
            }
        },
        |s: &mut SolverSettings| {
            s.arms.left.ccd.upper_arm.rotation_min = Some(DVec3::splat(1.0));
            s.arms.left.ccd.upper_arm.rotation_max = Some(DVec3::splat(-1.0));
        },
    ] {
        let mut bad = ccd_settings();
        edit(&mut bad);
        let err = evaluate(&actor, &calib, &bad, &state).unwrap_err();
        assert!(matches!(err, SessionError::Settings(_)), "{err}");
        assert!(err.to_string().contains("arms."), "{err}");
    }
}

#[test]
fn timeline_analysis_runs_on_ccd_arms() {
    let actor = angler();
    let calib = actor.default_calibration();
    let settings = ccd_settings();
    let params = SessionState::default().params;
    let a = analyse_timeline(&actor, &calib, &settings, &params, 121).unwrap();
    for side in SIDES {
        let samples = a.samples.get(side);
        assert_eq!(samples.len(), 121);
        assert!(samples.iter().all(|s| s.elbow_bend.is_finite()));
        // The default hinge keeps every elbow bent between 2° and 150°.
        assert!(
            samples
                .iter()
                .all(|s| s.elbow_bend > 1.9f64.to_radians() && s.elbow_bend < 150.1f64.to_radians()),
            "{side:?}"
        );
    }
    // Same input, same result (a pure function of the state, like two-bone).
    let b = analyse_timeline(&actor, &calib, &settings, &params, 121).unwrap();
    assert_eq!(a.samples, b.samples);
}

/// An arm with a bone between the upper arm and the forearm (a twist bone turned 30° about the
/// forearm's axis, the forearm turned back, so the rest pose is unchanged) solves its CCD chain
/// on a scratch skeleton, where limits see the forearm relative to the upper arm. The plain
/// arm solves on the character's own skeleton. Both give the same pose, limits on, at every
/// phase: elbows and wrists within twice the distance at which the CCD arm stops (each stops
/// within it of the target, after passes that the f32 file's rounding can make differ by
/// one), hands turned alike to 1e-5 rad.
#[test]
fn an_arm_with_a_twist_bone_solves_like_the_plain_arm() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/angler.glb");
    let mut doc = Doc::read(&path);
    for side in ["L", "R"] {
        // The forearm's own +Y runs along it in the generated angler.
        doc.insert_parent(
            &format!("forearm.{side}"),
            &format!("elbow_twist.{side}"),
            quat([0.0, 1.0, 0.0], 30.0),
        );
    }
    let rig = |c: anglerpose::gltf_io::Character| {
        let rest = Pose::rest(&c.skeleton);
        let map = HumanoidMap::detect(&c.skeleton, &rest);
        ActorRig::new(c.skeleton, &rest, &map).expect("both arms")
    };
    let twisted = rig(gltf_io::load_from_bytes(&path, &doc.bytes()).expect("loads"));
    let plain = angler();
    let settings = ccd_settings();
    for side in SIDES {
        let (p, t) = (plain.arm(side), twisted.arm(side));
        assert_ne!(
            twisted.skeleton.parent(t.fore),
            Some(t.upper),
            "a bone in between"
        );
        assert_eq!(plain.skeleton.parent(p.fore), Some(p.upper));
    }
    let mut worst: f64 = 0.0;
    for phase in Phase::ALL {
        let state = SessionState {
            phase,
            t: 0.5,
            ..SessionState::default()
        };
        let (a, _) = evaluate(&plain, &plain.default_calibration(), &settings, &state).unwrap();
        let (b, _) = evaluate(&twisted, &twisted.default_calibration(), &settings, &state).unwrap();
        for side in SIDES {
            let (p, t) = (plain.arm(side), twisted.arm(side));
            let stop = 0.1 * CCD_REACH_TOLERANCE * arm_length(&plain, side);
            for (x, y) in [(p.fore, t.fore), (p.hand, t.hand)] {
                let d = a.world_position(x).distance(b.world_position(y));
                assert!(d <= 2.0 * stop, "{phase:?} {side:?}: {d} m apart");
                worst = worst.max(d);
            }
            let q = a.world_rotation(p.hand) * b.world_rotation(t.hand).inverse();
            let turn = 2.0 * q.xyz().length().asin();
            assert!(turn < 1e-5, "{phase:?} {side:?}: hands {turn} rad apart");
        }
    }
    assert!(worst > 0.0, "the two skeletons are not the same file");
}
