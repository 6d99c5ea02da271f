//! The CCD arm: one arm posed by [`crate::ik::ccd`] (three.js r187 `CCDIKSolver` semantics)
//! instead of the two-bone solver.
//!
//! The chain is hand (effector) ← forearm ← upper arm. three's solver reads its target from a
//! bone, so the solve runs on a five-bone scratch skeleton — a base bone carrying the upper
//! arm's parent frame, the upper arm, the forearm, the hand, and a root target bone at the wrist
//! target — whose link locals are the arm's locals (or, when twist bones sit between them, the
//! transform relative to the previous link). The solved link rotations are written back into
//! the arm. Every update starts from the seated base pose, so the result is a pure function of
//! state, calibration and settings (undo restores it exactly).
//!
//! Limits act on each link's local rotation, exactly as in three.js: `limitation` (hinge axis)
//! then `rotationMin` / `rotationMax` (Euler XYZ with three's wrap). The global switch overrides
//! every link's own switch. The pole does not steer the solve; it only picks the reported
//! bend plane when the arm is straight.

use super::actor::ArmRig;
use super::settings::{CcdArmSettings, CcdLinkLimits, CcdLinkRole, SolverSettings};
use crate::ik::ccd::{CcdChain, CcdLink, CcdSolver, EulerState};
use crate::ik::limits::euler_xyz_from_quat;
use crate::ik::two_bone::{Fallback, ReachClamp, TwoBoneReport};
use crate::rig::{Bone, Pose, Skeleton, Transform};
use glam::DVec3;

/// A CCD arm counts as having reached its target when the wrist ends within this fraction of
/// the arm's length (upper arm + forearm) from it (1e-4: 0.06 mm on the bundled angler).
pub const CCD_REACH_TOLERANCE: f64 = 1e-4;

/// One link after a CCD arm solve.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CcdLinkState {
    /// Which link this is.
    pub role: CcdLinkRole,
    /// The link's bone index in the character's skeleton.
    pub bone: usize,
    /// Steps that rotated this link (over all passes).
    pub rotations: u32,
    /// A limit moved the link's rotation in the last step that touched it (hinge limitation
    /// or Euler clamp, whichever is configured and enabled).
    pub on_limit: bool,
    /// Euler XYZ angles (three.js order, radians) of the link's final rotation relative to the
    /// previous link: the vector three stores after an Euler clamp, else derived from the
    /// quaternion.
    pub euler: DVec3,
}

/// What the CCD solver did for one arm.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct CcdArmReport {
    /// Passes run (≤ the configured iterations).
    pub iterations: u32,
    /// A pass rotated nothing, so the remaining passes were skipped.
    pub exited_early: bool,
    /// Wrist–target distance before and after the solve (and blend).
    pub initial_distance: f64,
    /// Wrist–target distance after the solve and blend, world space.
    pub final_distance: f64,
    /// The blend used (the chain's own or the global weight).
    pub blend: f64,
    /// Forearm, then upper arm.
    pub links: [CcdLinkState; 2],
}

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

/// Solves `arm` toward `target` with its CCD settings in `settings` (the global limit switch
/// and weight apply), writing the upper-arm and forearm rotations
/// into `pose` and refreshing the arm's subtree. Preconditions: the arm passed the two-bone
/// chain validation (indices, chain, uniform scale, non-zero segments), world transforms are
/// current and `settings` passed `SolverSettings::validate`. Returns the report and the
/// two-bone-style summary the diagnostics and flip detection read.
pub(crate) fn solve_ccd_arm(
    skel: &Skeleton,
    pose: &mut Pose,
    arm: &ArmRig,
    settings: &SolverSettings,
    target: DVec3,
    pole: DVec3,
) -> Result<(CcdArmReport, TwoBoneReport), String> {
    let (limits_enabled, weight) = (settings.limits_enabled, settings.weight);
    let settings: &CcdArmSettings = &settings.arm(arm.side).ccd;
    let base = match skel.parent(arm.upper) {
        Some(p) => Transform::from_affine(pose.world_from_bone(p)),
        None => *pose.world_from_actor(),
    };
    let fore_local = relative(skel, pose, arm.upper, arm.fore);
    let hand_local = relative(skel, pose, arm.fore, arm.hand);
    let bone = |name: &str, parent: Option<usize>, rest: Transform| Bone {
        name: name.into(),
        parent,
        rest,
    };
    let scratch = Skeleton::new(vec![
        bone("base", None, base),
        bone("upper_arm", Some(0), *pose.local(arm.upper)),
        bone("forearm", Some(1), fore_local),
        bone("hand", Some(2), hand_local),
        bone("target", None, Transform::from_translation(target)),
    ])
    .map_err(|e| format!("CCD chain: {e}"))?;
    let mut chain_pose = Pose::rest(&scratch);
    // Reaching is all the arm needs: stop once the wrist is within a tenth of the reach
    // tolerance (6 µm on the bundled angler) rather than when steps fall below three's 1e-5.
    let (shoulder, elbow) = (
        pose.world_position(arm.upper),
        pose.world_position(arm.fore),
    );
    let length = (elbow - shoulder).length() + (pose.world_position(arm.hand) - elbow).length();
    let chain = CcdChain {
        iteration: settings.iterations,
        converged_within: Some(0.1 * CCD_REACH_TOLERANCE * length),
        min_angle: settings.min_angle,
        max_angle: settings.max_angle,
        blend_factor: settings.blend_factor,
        ..CcdChain::new(
            4,
            3,
            vec![link(2, &settings.forearm), link(1, &settings.upper_arm)],
        )
    };
    let solver = CcdSolver {
        chains: vec![chain],
        limits_enabled,
    };
    solver
        .validate(&scratch)
        .map_err(|e| format!("CCD chain: {e}"))?;
    let report = solver.update(&scratch, &mut chain_pose, weight);
    let chain_report = &report.chains[0];

    // Write back. The upper arm's scratch parent is its real parent's frame, so its local
    // rotation is the real one. The forearm's real local is q_old · q_rel_old⁻¹ · q_rel_new
    // (exactly q_rel_new when the forearm's parent is the upper arm).
    pose.set_local_rotation(arm.upper, chain_pose.local(1).rotation);
    let new_rel = chain_pose.local(2).rotation;
    let old_real = pose.local(arm.fore).rotation;
    let fore = if fore_local.rotation == old_real {
        new_rel
    } else {
        (old_real * fore_local.rotation.inverse() * new_rel).normalize()
    };
    pose.set_local_rotation(arm.fore, fore);
    pose.refresh_subtree(skel, arm.upper);

    let links = std::array::from_fn(|k| {
        let role = CcdLinkRole::ALL[k];
        let r = chain_report.links[k];
        let euler = match r.euler {
            EulerState::Stored(v) => v,
            _ => euler_xyz_from_quat(chain_pose.local(2 - k).rotation),
        };
        CcdLinkState {
            role,
            bone: if k == 0 { arm.fore } else { arm.upper },
            rotations: r.rotations,
            on_limit: r.on_limit,
            euler,
        }
    });
    let ccd = CcdArmReport {
        iterations: chain_report.iterations,
        exited_early: chain_report.exited_early,
        initial_distance: chain_report.initial_distance,
        final_distance: chain_report.final_distance,
        blend: chain_report.blend,
        links,
    };
    let summary = summarise(pose, arm, target, pole, &ccd);
    Ok((ccd, summary))
}

/// The two-bone report's fields measured on the CCD result, so diagnostics, overlays and the
/// flip analysis read either solver the same way. The bend normal is `u × v` as in two-bone
/// (shoulder→wrist × the elbow's offset from that line); a straight arm takes `v` from the
/// pole, then any perpendicular.
fn summarise(
    pose: &Pose,
    arm: &ArmRig,
    target: DVec3,
    pole: DVec3,
    ccd: &CcdArmReport,
) -> TwoBoneReport {
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
    TwoBoneReport {
        reached: residual <= CCD_REACH_TOLERANCE * (a + b),
        residual,
        clamp,
        softened: false,
        elbow_limited: ccd.links[0].on_limit,
        elbow_bend: (elbow - shoulder).angle_between(wrist - elbow),
        bend_normal: u.cross(v).normalize_or(DVec3::X),
        fallback: Fallback::None,
        elbow_in_world: elbow,
        wrist_goal_in_world: target,
    }
}
