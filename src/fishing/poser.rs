//! The pose update in seed 001's order:
//! restore base pose → place the actor and compute current grips → convert to world →
//! per arm, the solver its settings select: reachable wrist and elbow (two-bone) → upper arm,
//! refresh → forearm, refresh; or the CCD chain hand ← forearm ← upper arm (see
//! [`super::ccd_arm`]) → palm and fingers. Skin matrices follow from the refreshed world
//! transforms.

use super::PerSide;
use super::actor::{ActorRig, ArmRig};
use super::arm_report::{ArmIk, ArmReport, SolverDetail};
use super::ccd_arm::{CcdArmWork, solve_ccd_arm};
use super::grip_solve::{CORRECTION_STEP, ContactCache};
use super::hand_contact::{GripContact, HandContact};
use super::inputs::PoseInputs;
use super::session_frames::{GripTarget, SessionFrames};
use super::settings::ArmSolverKind;
use crate::ik::hand::{CurlBends, HandError, PalmJob};
use crate::ik::two_bone::{ReachClamp, TwoBoneError, TwoBoneJob};
use crate::rig::{Pose, Side, Transform};
use glam::DVec3;
use thiserror::Error;

/// At most this many arm corrections per hand and pose: each solves the arm again with the
/// palm moved to where the last solve's forearm skin asks; it stops sooner when the rounded
/// correction repeats.
const MAX_CORRECTION_ROUNDS: u32 = 3;

/// Why a pose evaluation (or an analysis or calibration built on it) failed.
#[derive(Debug, Error, PartialEq)]
pub enum SessionError {
    /// The session parameters break a rule (`path: message`).
    #[error("session parameters: {0}")]
    Params(String),
    /// The calibration breaks a rule (`path: message`), or calibration had no candidates.
    #[error("calibration: {0}")]
    Calibration(String),
    /// The solver settings break a rule (`path: message`).
    #[error("solver settings: {0}")]
    Settings(String),
    /// An arm's CCD chain could not be built or validated.
    #[error("{side} arm: {problem}")]
    Ccd {
        /// `left` or `right`.
        side: &'static str,
        /// What went wrong.
        problem: String,
    },
    /// An arm failed the two-bone chain checks (made for both solvers).
    #[error("{side} arm: {source}")]
    Arm {
        /// `left` or `right`.
        side: &'static str,
        /// The failed check.
        source: TwoBoneError,
    },
    /// A hand failed the palm or finger-curl checks.
    #[error("{side} hand: {source}")]
    Hand {
        /// `left` or `right`.
        side: &'static str,
        /// The failed check.
        source: HandError,
    },
    /// `world_from_actor` has a non-finite component.
    #[error("actor placement is not finite")]
    Placement,
}

/// What one [`Poser::evaluate`] decided and did.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct PoseEvaluation {
    /// The rod, net and grips, actor space.
    pub frames: SessionFrames,
    /// What each arm did.
    pub arms: PerSide<ArmReport>,
}

/// Turns the bones beside the hand (palm bones sharing its parent) by the hand's own turn,
/// about the wrist, in the parent's frame: the hand moves as one piece. `hand_before` is the
/// hand's local transform before the palm turn.
fn turn_hand_group(pose: &mut Pose, arm: &ArmRig, hand_before: &Transform) {
    if arm.hand_group.is_empty() {
        return;
    }
    let after = pose.local(arm.hand).rotation;
    let delta = (after * hand_before.rotation.inverse()).normalize();
    let pivot = hand_before.translation;
    for &b in &arm.hand_group {
        let mut t = *pose.local(b);
        t.translation = pivot + delta * (t.translation - pivot);
        t.rotation = (delta * t.rotation).normalize();
        pose.set_local(b, t);
    }
}

/// Carries what flip detection needs from one evaluation to the next, and the CCD solver's
/// buffers (which hold no result between evaluations).
#[derive(Clone, Debug, Default)]
pub struct Poser {
    previous_normals: PerSide<Option<DVec3>>,
    ccd: CcdArmWork,
    /// Each finger's bends for its last curl amount, per side in `ArmRig::fingers` order.
    curls: PerSide<Vec<CurlBends>>,
    /// Each hand's contact grips (palm placement, finger bends) for its last inputs.
    contacts: PerSide<ContactCache>,
}

/// Two posers are equal when they carry the same history (their buffers hold no state).
impl PartialEq for Poser {
    fn eq(&self, other: &Self) -> bool {
        self.previous_normals == other.previous_normals
    }
}

impl Poser {
    /// A poser without history: its first evaluation reports no flips.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the previous evaluation (no flips are reported by the next one).
    pub fn reset(&mut self) {
        self.previous_normals = PerSide::default();
    }

    /// Poses `pose` for `inputs` (its state, calibration and settings). `pose` is overwritten
    /// from the actor's base pose, so any pose of the same skeleton can be passed.
    ///
    /// # Errors
    /// A [`SessionError`] when the parameters, calibration or settings break a rule, when
    /// `world_from_actor` is not finite, or when an arm or hand fails its checks.
    pub fn evaluate(
        &mut self,
        actor: &ActorRig,
        inputs: &PoseInputs,
        world_from_actor: &Transform,
        pose: &mut Pose,
    ) -> Result<PoseEvaluation, SessionError> {
        let frames = Self::begin(actor, inputs, world_from_actor, pose)?;
        let arms = PerSide::try_from_fn(|side| {
            let arm = actor.arm(side);
            let grip = *frames.grips.get(side);
            self.pose_arm(actor, arm, inputs, world_from_actor, &grip, pose)
        })?;
        Ok(PoseEvaluation { frames, arms })
    }

    /// [`Poser::evaluate`] for the arm on `side` alone: the other arm stays at the base pose.
    /// Each arm's pose and report depend only on its own inputs (its grip, pole, hand and
    /// settings), so this arm's report is the one `evaluate` gives it.
    ///
    /// # Errors
    /// As [`Poser::evaluate`].
    pub(crate) fn evaluate_arm(
        &mut self,
        actor: &ActorRig,
        inputs: &PoseInputs,
        world_from_actor: &Transform,
        pose: &mut Pose,
        side: Side,
    ) -> Result<ArmReport, SessionError> {
        let frames = Self::begin(actor, inputs, world_from_actor, pose)?;
        let grip = *frames.grips.get(side);
        self.pose_arm(
            actor,
            actor.arm(side),
            inputs,
            world_from_actor,
            &grip,
            pose,
        )
    }

    /// Checks the inputs, restores the base pose at the actor's placement and returns the
    /// session's frames.
    fn begin(
        actor: &ActorRig,
        inputs: &PoseInputs,
        world_from_actor: &Transform,
        pose: &mut Pose,
    ) -> Result<SessionFrames, SessionError> {
        inputs.validate()?;
        if !world_from_actor.is_finite() {
            return Err(SessionError::Placement);
        }
        // Restore the base pose and place the actor. The base pose's world transforms are
        // current at the actor's identity placement (`ActorRig::with_base`), so at that
        // placement the copy is already refreshed, bit for bit.
        pose.clone_from(&actor.base);
        if world_from_actor != actor.base.world_from_actor() {
            pose.set_world_from_actor(*world_from_actor);
            pose.refresh_all(&actor.skeleton);
        }
        // Current grips (copies; the calibration stays as stored).
        Ok(SessionFrames::evaluate_geared(
            &inputs.state,
            &inputs.calibration,
            &actor.fit,
            &actor.gear,
        ))
    }

    fn pose_arm(
        &mut self,
        actor: &ActorRig,
        arm: &ArmRig,
        inputs: &PoseInputs,
        world_from_actor: &Transform,
        grip: &GripTarget,
        pose: &mut Pose,
    ) -> Result<ArmReport, SessionError> {
        let PoseInputs {
            calibration: calib,
            settings,
            state,
        } = inputs;
        let side = arm.side;
        let hand_cal = calib.hands.get(side);
        let skel = &actor.skeleton;
        // Convert to world.
        let mut world_from_grip = world_from_actor.compose_rigid(&grip.actor_from_grip);
        // A rear hand short of its grip slides along the handle once (see `reach_slide`); so
        // does a hand that rests behind a post (a baitcaster's trigger, a mitten behind a
        // spinning reel), back toward the post by at most as far as the post moved it. The
        // rear hand so misses its grip; the hand behind the post holds its grip, resting less
        // far behind the post (`HandContact::post_shift`).
        let mut slide = super::reach_slide::slide_bounds(grip, &actor.gear.rod);
        let mut post_slide_open = true;
        let mut post_back = 0.0;
        let mut slid = 0.0;
        let mut short = 0.0;
        let hand_from_grip = arm_hand_from_grip(arm, hand_cal);
        let pole_in_actor = calib.poles.get(side).at(state.phase, state.t_clamped());
        let pole_in_world = world_from_actor.to_affine().transform_point3(pole_in_actor);
        let contact_inputs = arm.contact_inputs();
        let kinds = (grip.hold.from, grip.hold.to);
        let w = grip.hold.blend;
        let holding = (w == 0.0 || w == 1.0 || kinds.0 == kinds.1) && grip.opening == 1.0;
        // Contact grips: the palm on the handle's surface, the fingers closed on it (from the
        // cache while the hand's inputs stay). The grip is solved with the arm's bones where
        // the base pose has them; once the arm is solved, the palm skin the forearm carries is
        // where the wrist put it, so a hand on one grip is solved again with the palm
        // corrected (rounded to CORRECTION_STEP, so the corrected grips repeat) until the
        // correction repeats: the corrected wrist bends the forearm's skin a little
        // differently (RiggedFigure's rear palm stayed 2.5-3.0 mm inside after one round).
        // One cache lookup per round: the pair looked up to place the palm is the one the
        // correction is checked with and, after the last round, the one the fingers close by.
        let mut correction = 0;
        let mut rounds = 0;
        let stem_in_grip =
            super::session_frames::front_stem_in_grip(state.params.handedness, &actor.gear);
        let reel_in_grip =
            super::session_frames::front_reel_in_grip(state.params.handedness, &actor.gear);
        let handle_in_grip =
            super::session_frames::front_handle_in_grip(state.params.handedness, &actor.gear);
        let contacts = self.contacts.get_mut(side);
        let (ik, solver, wrist_target, palm_turn, held) = loop {
            let mut placed = hand_from_grip;
            let pair = if settings.finger_contact {
                let (from, to) = contacts.pair(
                    &contact_inputs,
                    kinds,
                    &actor.gear,
                    &hand_from_grip,
                    hand_cal,
                    correction,
                    stem_in_grip,
                    reel_in_grip,
                    handle_in_grip,
                );
                placed.translation += from.palm_shift_in_hand.lerp(to.palm_shift_in_hand, w);
                Some((from, to))
            } else {
                None
            };
            let (ik, solver, wrist_target, palm_turn) = solve_arm_and_palm(
                &mut self.ccd,
                actor,
                arm,
                settings,
                &world_from_grip,
                &placed,
                pole_in_world,
                pose,
            )?;
            let post = pair.map_or(0.0, |(from, to)| {
                GripContact::blended_post_shift(from, to, w)
            });
            let rear = if ik.clamp == ReachClamp::TooFar {
                slide.take()
            } else {
                None
            };
            // Too far or, folded to its elbow's limit, too near: either way the hand behind
            // a post comes back toward it.
            let by_post = rear.is_none() && post_slide_open && post > 0.0 && !ik.reached;
            if let Some((bounds, share)) = rear.or(by_post.then_some(((0.0, post), 1.0))) {
                post_slide_open = false;
                let axis = world_from_grip.rotation * DVec3::Y;
                let s = share
                    * super::reach_slide::reach_slide(
                        pose.world_from_bone(arm.upper).translation,
                        pose.world_from_bone(arm.hand).translation,
                        wrist_target,
                        axis,
                        bounds,
                    );
                if s != 0.0 {
                    // A hand behind a post that comes back toward it still holds its grip:
                    // it rests less far behind the post.
                    if by_post {
                        post_back = s;
                    } else {
                        slid = s;
                        short = ik.residual;
                    }
                    world_from_grip.translation += axis * s;
                    restore_arm(actor, arm, pose);
                    continue;
                }
            }
            if let Some((from, to)) = pair
                && holding
                && rounds < MAX_CORRECTION_ROUNDS
            {
                rounds += 1;
                let on = if w < 0.5 { from } else { to };
                let moved = on.palm_arm.correction(pose, arm.hand) * arm.hand_scale;
                let steps = (moved / CORRECTION_STEP).round();
                if steps.abs() < 400.0 && steps as i32 != correction {
                    correction = steps as i32;
                    restore_arm(actor, arm, pose);
                    continue;
                }
            }
            break (
                ik,
                solver,
                wrist_target,
                palm_turn,
                pair.map(|p| (p, placed.translation - hand_from_grip.translation)),
            );
        };
        let hand_contact = match held {
            Some(((from, to), shift)) => {
                let mut contact = HandContact {
                    palm_shift_in_hand: shift,
                    ..close_fingers(pose, arm, from, to, grip)
                };
                contact.post_shift -= post_back;
                contact.post_back = post_back;
                contact
            }
            None => {
                curl_fingers(self.curls.get_mut(side), arm, hand_cal, grip, pose)?;
                HandContact::default()
            }
        };
        pose.refresh_subtree(skel, arm.upper);
        let mut grip = *grip;
        grip.actor_from_grip.translation += grip.actor_from_grip.rotation * DVec3::Y * slid;
        let mut report = self.finish_arm(
            side,
            ik,
            solver,
            wrist_target,
            pole_in_world,
            palm_turn,
            &grip,
            hand_contact,
        );
        report.grip_slide = slid;
        report.short_of_grip = short;
        Ok(report)
    }

    /// Flip detection and the arm's report.
    #[allow(clippy::too_many_arguments)]
    fn finish_arm(
        &mut self,
        side: crate::rig::Side,
        ik: ArmIk,
        solver: SolverDetail,
        wrist_target_in_world: DVec3,
        pole_in_world: DVec3,
        palm_turn: f64,
        grip: &GripTarget,
        contact: HandContact,
    ) -> ArmReport {
        let previous = self.previous_normals.get_mut(side);
        let flipped = previous.is_some_and(|n| n.dot(ik.bend_normal) < 0.0);
        *previous = Some(ik.bend_normal);
        ArmReport {
            ik,
            solver,
            wrist_target_in_world,
            pole_in_world,
            flipped,
            palm_turn,
            grip: *grip,
            contact,
            grip_slide: 0.0,
            short_of_grip: 0.0,
        }
    }
}

/// The hand's palm frame with its calibration (hand space).
fn arm_hand_from_grip(arm: &ArmRig, hand_cal: &super::calibration::HandCalibration) -> Transform {
    let mut hand_from_grip = arm.hand_frame.hand_from_grip;
    hand_from_grip.translation += hand_cal.palm_offset_in_hand;
    hand_from_grip.rotation = (hand_from_grip.rotation * hand_cal.palm_correction).normalize();
    hand_from_grip
}

/// The arm's bones back at their base locals (world transforms refreshed), for a second solve.
pub(crate) fn restore_arm(actor: &ActorRig, arm: &ArmRig, pose: &mut Pose) {
    let skel = &actor.skeleton;
    for b in restored_bones(arm) {
        pose.set_local(b, *actor.base.local(b));
    }
    if links_direct(skel, arm) {
        // The solvers read only the links' world transforms; the rest of the subtree is
        // refreshed once after the fingers.
        for b in restored_bones(arm) {
            pose.refresh_bone(skel, b);
        }
    } else {
        // Bones between the links (twist bones) keep their base locals; refresh the path.
        pose.refresh_subtree(skel, arm.upper);
    }
}

/// The bones [`restore_arm`] sets back to their base locals: the arm's links and the palm
/// bones beside the hand.
pub(crate) fn restored_bones(arm: &ArmRig) -> impl Iterator<Item = usize> + '_ {
    [arm.upper, arm.fore, arm.hand]
        .into_iter()
        .chain(arm.hand_group.iter().copied())
}

/// Whether the arm's links are parent and child: then [`restore_arm`] refreshes only
/// [`restored_bones`]; otherwise the twist bones between the links too.
pub(crate) fn links_direct(skel: &crate::rig::Skeleton, arm: &ArmRig) -> bool {
    skel.parent(arm.fore) == Some(arm.upper) && skel.parent(arm.hand) == Some(arm.fore)
}

/// The arm's solver onto the wrist target that puts `hand_from_grip` on the grip, then the
/// palm turned to it: (what the arm did, its detail, the wrist target, the palm's turn).
#[allow(clippy::too_many_arguments)]
fn solve_arm_and_palm(
    ccd_work: &mut CcdArmWork,
    actor: &ActorRig,
    arm: &ArmRig,
    settings: &super::settings::SolverSettings,
    world_from_grip: &Transform,
    hand_from_grip: &Transform,
    pole_in_world: DVec3,
    pose: &mut Pose,
) -> Result<(ArmIk, SolverDetail, DVec3, f64), SessionError> {
    let skel = &actor.skeleton;
    let side = arm.side;
    let name = side.name();
    // The hand's desired world frame: world_from_grip · grip_from_hand. The translation of
    // hand_from_grip is in hand-bone units, so it goes through the hand's world scale.
    let hand_scale = pose.world_from_bone(arm.hand).matrix3.x_axis.length();
    let hand_rotation = (world_from_grip.rotation * hand_from_grip.rotation.inverse()).normalize();
    let wrist_target =
        world_from_grip.translation - hand_rotation * (hand_from_grip.translation * hand_scale);
    let (ik, solver) = solve_arm(
        ccd_work,
        actor,
        arm,
        settings,
        wrist_target,
        pole_in_world,
        pose,
    )?;
    let palm = PalmJob {
        hand: arm.hand,
        grip_in_hand: hand_from_grip.rotation,
        grip_rotation_in_world: world_from_grip.rotation,
        weight: settings.weight,
    };
    let hand_before = *pose.local(arm.hand);
    let palm_turn = palm
        .turn_hand(skel, pose)
        .map_err(|source| SessionError::Hand { side: name, source })?;
    turn_hand_group(pose, arm, &hand_before);
    Ok((ik, solver, wrist_target, palm_turn))
}

/// Curls every finger by the calibration's curl (the parametric grip, contact grips off, or
/// a hand between grips), keeping each finger's bends for its last amount in `curls`.
fn curl_fingers(
    curls: &mut Vec<CurlBends>,
    arm: &ArmRig,
    hand_cal: &super::calibration::HandCalibration,
    grip: &GripTarget,
    pose: &mut Pose,
) -> Result<(), SessionError> {
    curls.resize_with(arm.fingers.len(), CurlBends::default);
    for ((finger, chain), bends) in arm.fingers.iter().zip(curls) {
        let amount = if *finger == crate::rig::Finger::Thumb {
            hand_cal.thumb_curl
        } else {
            hand_cal.finger_curl
        } * grip.curl_scale;
        // The pose was restored from the base pose and the solvers above touched only the
        // arm and hand bones, so the fingers' current locals are their base rotations.
        chain
            .curl_with(pose, amount, bends)
            .map_err(|source| SessionError::Hand {
                side: arm.side.name(),
                source,
            })?;
    }
    Ok(())
}

/// Bends every finger by its contact grip: on one grip at full closing, the kept bends; while
/// the hand travels, the two grips' bends blended and opened by the grip's opening. The
/// fingers' current locals are their base rotations (the pose was restored from the base).
/// Reports the contact while the hand holds one grip; none while it travels.
fn close_fingers(
    pose: &mut Pose,
    arm: &ArmRig,
    from: &GripContact,
    to: &GripContact,
    grip: &GripTarget,
) -> HandContact {
    let w = grip.hold.blend;
    let holding = (w == 0.0 || w == 1.0 || from == to) && grip.opening == 1.0;
    if holding {
        let on = if w < 0.5 { from } else { to };
        for ((_, chain), bends) in arm.fingers.iter().zip(&on.bends) {
            for (&joint, bend) in chain.joints.iter().zip(bends) {
                let base = pose.local(joint).rotation;
                pose.set_local_rotation(joint, (base * *bend).normalize());
            }
        }
        return on.report(&arm.contact);
    }
    for (i, (_, chain)) in arm.fingers.iter().enumerate() {
        let finger = &arm.contact[i];
        let spread = (from.spreads[i] + (to.spreads[i] - from.spreads[i]) * w) * grip.opening;
        for (k, &joint) in chain.joints.iter().enumerate() {
            let (a, b) = (from.angles[i][k], to.angles[i][k]);
            let angle = (a + (b - a) * w) * grip.opening;
            let base = pose.local(joint).rotation;
            let s = (k == 0).then_some((finger.spread_axis, spread));
            let axis = finger.joints[k].axis;
            pose.set_local_rotation(joint, super::hand_contact::bent_local(base, axis, angle, s));
        }
    }
    HandContact {
        fingers: [None; 5],
        solved: true,
        palm_shift_in_hand: DVec3::ZERO,
        post_shift: GripContact::blended_post_shift(from, to, w),
        post_back: 0.0,
    }
}

/// The arm's solver (two-bone or CCD, as `settings` choose) onto `wrist_target` with the
/// pole, from the arm's current locals (the poser restores them to the base first; see
/// [`restore_arm`]): what the arm did and the solver's own report. The stability map solves
/// its samples with it too.
pub(crate) fn solve_arm(
    ccd_work: &mut CcdArmWork,
    actor: &ActorRig,
    arm: &ArmRig,
    settings: &super::settings::SolverSettings,
    wrist_target: DVec3,
    pole_in_world: DVec3,
    pose: &mut Pose,
) -> Result<(ArmIk, SolverDetail), SessionError> {
    let skel = &actor.skeleton;
    let side = arm.side;
    let name = side.name();
    let arm_settings = settings.arm(side);
    let job = TwoBoneJob {
        weight: settings.weight,
        soften: settings.soften,
        elbow_limit: Some(settings.effective_elbow_limit(side)),
        twist: arm_settings.twist,
        ..TwoBoneJob::new(arm.upper, arm.fore, arm.hand, wrist_target, pole_in_world)
    };
    // The same chain checks for both solvers (indices, chain, uniform scale, segments);
    // the arm subtree is refreshed once, after palm and fingers.
    let arm_error = |source| SessionError::Arm { side: name, source };
    let (ik, solver) = match arm_settings.solver {
        ArmSolverKind::TwoBone => {
            ArmIk::from_two_bone(&job.solve_chain(skel, pose).map_err(arm_error)?)
        }
        ArmSolverKind::Ccd => {
            job.validate(skel, pose).map_err(arm_error)?;
            let (ccd, ik) = solve_ccd_arm(
                ccd_work,
                skel,
                pose,
                arm,
                settings,
                wrist_target,
                pole_in_world,
            )
            .map_err(|problem| SessionError::Ccd {
                side: name,
                problem,
            })?;
            (ik, SolverDetail::Ccd(ccd))
        }
    };
    Ok((ik, solver))
}
