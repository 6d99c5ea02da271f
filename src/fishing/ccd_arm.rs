//! The CCD arm: one arm posed by [`crate::ik::ccd`] (three.js r187 `CCDIKSolver` semantics)
//! instead of the two-bone solver.
//!
//! The chain is hand (effector) ← forearm ← upper arm, solved toward the wrist target as a
//! point, on the character's own pose (see [`solve_ccd_arm`] for arms with twist bones between
//! the links). Every update starts from the seated base pose, so the result is a pure
//! function of state, calibration and settings (undo restores it exactly).
//!
//! Limits act on each link's local rotation, exactly as in three.js: `limitation` (hinge axis)
//! then `rotationMin` / `rotationMax` (Euler XYZ with three's wrap). The global switch overrides
//! every link's own switch. The pole does not steer the solve; it only picks the reported
//! bend plane when the arm is straight.

use super::actor::ArmRig;
use super::arm_report::{ArmIk, CcdArmReport, CcdLinkState};
use super::settings::{CcdArmSettings, CcdLinkLimits, CcdLinkRole, SolverSettings};
use crate::ik::ccd::{
    CcdChain, CcdLink, CcdRefresh, CcdReport, CcdSolver, CcdTarget, CcdWorkspace,
};
use crate::ik::two_bone::ReachClamp;
use crate::rig::{Bone, Pose, Skeleton, Transform};
use glam::{DQuat, DVec3};

/// A CCD arm counts as having reached its target when the wrist ends within this fraction of
/// the arm's length (upper arm + forearm) from it (1e-4: 0.06 mm on the bundled angler).
pub const CCD_REACH_TOLERANCE: f64 = 1e-4;

fn link(index: usize, limits: &CcdLinkLimits) -> CcdLink {
    CcdLink {
        limitation: limits.limitation.map(|a| a.normalize_or(DVec3::X)),
        rotation_min: limits.rotation_min,
        rotation_max: limits.rotation_max,
        limits_enabled: limits.enabled,
        ..CcdLink::new(index)
    }
}

/// `pose`'s transform of `bone` relative to `frame`'s world transform (exactly the bone's
/// local when `frame` is its parent).
fn relative(skel: &Skeleton, pose: &Pose, frame: usize, bone: usize) -> Transform {
    if skel.parent(bone) == Some(frame) {
        *pose.local(bone)
    } else {
        let m = pose.world_from_bone(frame).inverse() * *pose.world_from_bone(bone);
        Transform::from_affine(&m)
    }
}

/// The solver, report and buffers of CCD arm solves, kept by the [`super::Poser`] so that an
/// update of a plain arm allocates nothing. Holds no result between solves.
#[derive(Clone, Debug)]
pub(crate) struct CcdArmWork {
    solver: CcdSolver,
    report: CcdReport,
    work: CcdWorkspace,
}

impl Default for CcdArmWork {
    fn default() -> Self {
        let links = vec![CcdLink::new(0); 2];
        let mut solver = CcdSolver::new(vec![CcdChain::toward(
            CcdTarget::Point(DVec3::ZERO),
            0,
            links,
        )]);
        // The poser refreshes the arm's subtree once, after the palm and fingers.
        solver.refresh = CcdRefresh::Path;
        Self {
            solver,
            report: CcdReport::default(),
            work: CcdWorkspace::default(),
        }
    }
}

/// Solves `arm` toward `target` with its CCD settings in `settings` (the global limit switch
/// and weight apply), writing the upper-arm and forearm rotations into `pose` and refreshing
/// the path upper arm → hand (the rest of the arm's subtree is left for the caller to
/// refresh once, after the palm and fingers; the scratch path refreshes it). Preconditions:
/// the arm passed the two-bone chain validation (indices, chain, uniform scale, non-zero
/// segments), world transforms are current and `settings`
/// passed `SolverSettings::validate`. Returns the report and the two-bone-style summary the
/// diagnostics and flip detection read.
///
/// When the forearm's parent is the upper arm and the hand's the forearm, the chain runs on
/// the character's own skeleton toward a point target. Otherwise (twist bones between them)
/// it runs on a four-bone scratch skeleton (the upper arm's parent frame, the upper arm, and
/// the forearm and hand relative to the previous link), so limits still see the forearm's
/// rotation relative to the upper arm; that path allocates.
pub(crate) fn solve_ccd_arm(
    work: &mut CcdArmWork,
    skel: &Skeleton,
    pose: &mut Pose,
    arm: &ArmRig,
    settings: &SolverSettings,
    target: DVec3,
    pole: DVec3,
) -> Result<(CcdArmReport, ArmIk), String> {
    let (limits_enabled, weight) = (settings.limits_enabled, settings.weight);
    let ccd: &CcdArmSettings = &settings.arm(arm.side).ccd;
    // Reaching is all the arm needs: stop once the wrist is within a tenth of the reach
    // tolerance (6 µm on the bundled angler) rather than when steps fall below three's 1e-5.
    let (shoulder, elbow) = (
        pose.world_position(arm.upper),
        pose.world_position(arm.fore),
    );
    let length = (elbow - shoulder).length() + (pose.world_position(arm.hand) - elbow).length();
    let direct =
        skel.parent(arm.fore) == Some(arm.upper) && skel.parent(arm.hand) == Some(arm.fore);
    let [upper, fore, hand] = if direct {
        [arm.upper, arm.fore, arm.hand]
    } else {
        [1, 2, 3]
    };
    work.solver.limits_enabled = limits_enabled;
    let chain = &mut work.solver.chains[0];
    chain.target = CcdTarget::Point(target);
    chain.effector = hand;
    chain.links[0] = link(fore, &ccd.forearm);
    chain.links[1] = link(upper, &ccd.upper_arm);
    chain.iteration = ccd.iterations;
    chain.converged_within = Some(0.1 * CCD_REACH_TOLERANCE * length);
    chain.planar_finish = ccd.planar_finish;
    chain.min_angle = ccd.min_angle;
    chain.max_angle = ccd.max_angle;
    chain.blend_factor = ccd.blend_factor;

    let rotations = if direct {
        // No `CcdSolver::validate`: the preconditions above cover it (indices and ancestry
        // from the chain validation, direct parents just checked, limits and angles finite
        // and axes non-zero from the settings rules, the target finite).
        debug_assert_eq!(work.solver.validate(skel), Ok(()));
        work.solver
            .update_into(skel, pose, weight, &mut work.report, &mut work.work);
        [
            pose.local(arm.fore).rotation,
            pose.local(arm.upper).rotation,
        ]
    } else {
        solve_on_scratch(work, skel, pose, arm, weight)?
    };
    let chain_report = &work.report.chains[0];
    let links = std::array::from_fn(|k| {
        let r = chain_report.links[k];
        CcdLinkState {
            role: CcdLinkRole::ALL[k],
            bone: if k == 0 { arm.fore } else { arm.upper },
            rotations: r.rotations,
            on_limit: r.on_limit,
            rotation: rotations[k],
            euler_state: r.euler,
        }
    });
    let ccd = CcdArmReport {
        iterations: chain_report.iterations,
        exited_early: chain_report.exited_early,
        planar_finish: chain_report.planar_finish,
        initial_distance: chain_report.initial_distance,
        final_distance: chain_report.final_distance,
        blend: chain_report.blend,
        links,
    };
    let summary = summarise(pose, arm, target, pole, &ccd);
    Ok((ccd, summary))
}

/// The scratch-skeleton solve of [`solve_ccd_arm`] for arms with bones between their links:
/// solves `work`'s chain (set up for bones 1–3) and writes the result into `pose`. Returns the
/// forearm's rotation relative to the upper arm and the upper arm's local rotation.
fn solve_on_scratch(
    work: &mut CcdArmWork,
    skel: &Skeleton,
    pose: &mut Pose,
    arm: &ArmRig,
    weight: f64,
) -> Result<[DQuat; 2], String> {
    let base = match skel.parent(arm.upper) {
        Some(p) => Transform::from_affine(pose.world_from_bone(p)),
        None => *pose.world_from_actor(),
    };
    // The chain validation allows scales uniform to 1e-6; decomposing their products leaves
    // rounding between the axes. Exactly uniform, the chain runs the solver's local variant
    // (its stop rule and planar finish), as on the character's own skeleton.
    let uniform = |t: Transform| Transform {
        scale: DVec3::splat((t.scale.x + t.scale.y + t.scale.z) / 3.0),
        ..t
    };
    let base = uniform(base);
    let fore_local = uniform(relative(skel, pose, arm.upper, arm.fore));
    let hand_local = uniform(relative(skel, pose, arm.fore, arm.hand));
    let bone = |name: &str, parent: Option<usize>, rest: Transform| Bone {
        name: name.into(),
        parent,
        rest,
    };
    let scratch = Skeleton::new(vec![
        bone("base", None, base),
        bone("upper_arm", Some(0), uniform(*pose.local(arm.upper))),
        bone("forearm", Some(1), fore_local),
        bone("hand", Some(2), hand_local),
    ])
    .map_err(|e| format!("CCD chain: {e}"))?;
    let mut chain_pose = Pose::rest(&scratch);
    work.solver
        .validate(&scratch)
        .map_err(|e| format!("CCD chain: {e}"))?;
    work.solver.update_into(
        &scratch,
        &mut chain_pose,
        weight,
        &mut work.report,
        &mut work.work,
    );

    // Write back. The upper arm's scratch parent is its real parent's frame, so its local
    // rotation is the real one. The forearm's real local is q_old · q_rel_old⁻¹ · q_rel_new.
    let upper = chain_pose.local(1).rotation;
    let new_rel = chain_pose.local(2).rotation;
    pose.set_local_rotation(arm.upper, upper);
    let old_real = pose.local(arm.fore).rotation;
    let fore = (old_real * fore_local.rotation.inverse() * new_rel).normalize();
    pose.set_local_rotation(arm.fore, fore);
    pose.refresh_subtree(skel, arm.upper);
    Ok([new_rel, upper])
}

/// The chain fields both solvers report ([`ArmIk`]) measured on the CCD result, so
/// diagnostics, overlays and the flip analysis read either solver the same way. The bend normal is `u × v` as in two-bone
/// (shoulder→wrist × the elbow's offset from that line); a straight arm takes `v` from the
/// pole, then any perpendicular.
fn summarise(pose: &Pose, arm: &ArmRig, target: DVec3, pole: DVec3, ccd: &CcdArmReport) -> ArmIk {
    let shoulder = pose.world_position(arm.upper);
    let elbow = pose.world_position(arm.fore);
    let wrist = pose.world_position(arm.hand);
    let (a, b) = ((elbow - shoulder).length(), (wrist - elbow).length());
    let residual = wrist.distance(target);
    let d = target.distance(shoulder);
    let clamp = if d > a + b {
        ReachClamp::TooFar
    } else if d < (a - b).abs() {
        ReachClamp::TooNear
    } else {
        ReachClamp::None
    };
    let u = (wrist - shoulder).normalize_or(DVec3::Y);
    let off_line = |p: DVec3| (p - shoulder - u * (p - shoulder).dot(u)).try_normalize();
    let v = off_line(elbow)
        .or_else(|| off_line(pole))
        .unwrap_or_else(|| u.any_orthonormal_vector());
    ArmIk {
        reached: residual <= CCD_REACH_TOLERANCE * (a + b),
        residual,
        clamp,
        elbow_limited: ccd.links[0].on_limit,
        elbow_bend: (elbow - shoulder).angle_between(wrist - elbow),
        bend_normal: u.cross(v).normalize_or(DVec3::X),
        elbow_in_world: elbow,
        wrist_goal_in_world: target,
    }
}
