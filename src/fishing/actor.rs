//! The posable actor: skeleton, seated base pose, and per arm the bones, palm frame, finger
//! chains and a natural default pole, all derived from the rest pose.

use super::calibration::{GripCalibration, PoleKeys};
use super::gear::Gear;
use super::grip_memo::{GripMemo, HandContactInputs};
use super::hand_shape::{ContactFinger, HandShape};
use super::seat::BodyFit;
use super::settings::SolverSettings;
use super::{PerSide, SIDES};
use crate::ik::hand::{FingerChain, basis_from_directions};
use crate::rig::{ArmMap, Finger, HumanoidMap, Pose, Side, Skeleton, Transform};
use glam::DVec3;
use std::collections::BTreeMap;
use thiserror::Error;

/// Why an [`ActorRig`] could not be built.
#[derive(Debug, Error, PartialEq)]
pub enum ActorError {
    /// The humanoid map has no arm on this side (`left` or `right`).
    #[error("no {0} arm was mapped (upper arm, forearm and hand are needed to pose it)")]
    MissingArm(&'static str),
    /// A part of an arm has zero length in the rest pose.
    #[error("the {side} {what} has zero length in the rest pose")]
    Degenerate {
        /// `left` or `right`.
        side: &'static str,
        /// The degenerate part (`palm`).
        what: &'static str,
    },
}

/// The palm frame of a hand: where a gripped axis sits and how it runs, in hand-bone space.
///
/// Grip frame convention (see `session_frames.rs`): +Y leaves the fist on the thumb side, +Z points from
/// the palm toward the gripped axis. `hand_from_grip` maps that frame into hand space.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct HandFrame {
    /// Grip frame → hand-bone space (translation in hand-bone units).
    pub hand_from_grip: Transform,
    /// Wrist → middle knuckle distance (world units, rest pose).
    pub palm_length: f64,
}

/// One arm's bones and derived data.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmRig {
    /// Which arm this is.
    pub side: Side,
    /// Upper-arm bone index; its origin is the shoulder.
    pub upper: usize,
    /// Forearm bone index; its origin is the elbow.
    pub fore: usize,
    /// Hand bone index; its origin is the wrist.
    pub hand: usize,
    /// The palm frame the hand grips with.
    pub hand_frame: HandFrame,
    /// Four fingers then, last, the thumb (when present).
    pub fingers: Vec<(Finger, FingerChain)>,
    /// The natural pole in actor space: one arm length from the shoulder, below, outward and
    /// a little behind it.
    pub default_pole_in_actor: DVec3,
    /// The detected elbow flexion axis in the upper arm's frame: also the axis of the
    /// forearm's local rotation about the elbow (three.js `limitation` of the forearm link).
    pub elbow_axis_in_upper_arm: DVec3,
    /// Other children of the hand's parent that sit at the wrist (RobotExpressive-style palm
    /// bones beside the hand): they turn with the hand as one piece.
    pub hand_group: Vec<usize>,
    /// The hand's skin as the grip sees it: finger capsules and palm points (from bone
    /// lengths until [`ActorRig::set_hand_shapes`] gives the skin's).
    pub shape: HandShape,
    /// The fingers ready for the contact solve, from `shape` (same order as `fingers`).
    pub contact: Vec<ContactFinger>,
    /// World scale of the hand bone at the base pose.
    pub hand_scale: f64,
    /// The contact grips this hand has solved, shared by every poser of the arm and its
    /// clones (a memo: it answers only for the hand it solved them with).
    pub grip_memo: GripMemo,
}

/// A character ready for the fishing pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct ActorRig {
    /// The character's skeleton.
    pub skeleton: Skeleton,
    /// The seated base pose every update starts from (the rest pose unless replaced), at the
    /// identity actor placement with its world transforms current (the poser relies on it:
    /// refresh it after changing it).
    pub base: Pose,
    /// Both arms.
    pub arms: PerSide<ArmRig>,
    /// Vertical extent of the joints in the base pose: the scale for tolerances.
    pub height: f64,
    /// How the session's props fit this body (identity for the bundled angler).
    pub fit: BodyFit,
    /// The rod and net this actor holds: their grip points, crank and handle radii
    /// ([`Gear::BUNDLED`] unless the stage loads an artist's models).
    pub gear: Gear,
}

impl ActorRig {
    /// Builds the actor from a skeleton, its refreshed rest pose and a humanoid map with both
    /// arms. The base pose's actor placement is reset to identity.
    ///
    /// # Errors
    /// [`ActorError::MissingArm`] when `map` lacks an arm; [`ActorError::Degenerate`] when a
    /// palm has zero length in the rest pose.
    ///
    /// # Panics
    /// As [`ActorRig::with_base`].
    pub fn new(skeleton: Skeleton, rest: &Pose, map: &HumanoidMap) -> Result<Self, ActorError> {
        Self::with_base(skeleton, rest.clone(), map, BodyFit::IDENTITY)
    }

    /// Builds the actor on a given base pose (e.g. the seated pose of [`super::seat`]) of
    /// `skeleton`, with the props fitted by `fit`. `map` must have been detected on the
    /// same skeleton (its bone indices and elbow axes in the upper arms' frames are used).
    ///
    /// # Errors
    /// As [`ActorRig::new`].
    ///
    /// # Panics
    /// When `base` or `map` was not made for `skeleton` (bone indices out of range).
    pub fn with_base(
        skeleton: Skeleton,
        mut base: Pose,
        map: &HumanoidMap,
        fit: BodyFit,
    ) -> Result<Self, ActorError> {
        base.set_world_from_actor(Transform::IDENTITY);
        base.refresh_all(&skeleton);
        let arms = PerSide::try_from_fn(|side| Self::build_arm(&skeleton, &base, map, side))?;
        let (lo, hi) = (0..skeleton.len()).fold((f64::MAX, f64::MIN), |(lo, hi), b| {
            let y = base.world_position(b).y;
            (lo.min(y), hi.max(y))
        });
        Ok(Self {
            skeleton,
            base,
            arms,
            height: (hi - lo).max(1e-6),
            fit,
            gear: Gear::BUNDLED,
        })
    }

    fn build_arm(
        skeleton: &Skeleton,
        base: &Pose,
        map: &HumanoidMap,
        side: Side,
    ) -> Result<ArmRig, ActorError> {
        let name = side.name();
        let arm = map.arm(side).ok_or(ActorError::MissingArm(name))?;
        let hand = arm.hand;
        let world_from_hand = *base.world_from_bone(hand);
        let hand_from_world = world_from_hand.inverse();
        let in_hand = |bone: usize| hand_from_world.transform_point3(base.world_position(bone));
        let first = |f: Finger| arm.finger(f).first().copied();
        let middle = first(Finger::Middle)
            .or(first(Finger::Index))
            .or(first(Finger::Ring));
        // Without finger bones the palm continues the forearm, about 0.45 of its length
        // (a guess artists correct with the palm calibration).
        let knuckle = match middle {
            Some(m) => in_hand(m),
            None => {
                let fore = base.world_position(arm.forearm);
                let wrist = base.world_position(hand);
                hand_from_world.transform_point3(wrist + (wrist - fore) * 0.45)
            }
        };
        let palm_length_local = knuckle.length();
        if palm_length_local <= 1e-9 {
            return Err(ActorError::Degenerate {
                side: name,
                what: "palm",
            });
        }
        let f = knuckle / palm_length_local;
        // Pinky → index across the knuckles; without both, use the thumb side.
        let outer = first(Finger::Little).or(first(Finger::Ring));
        let inner = first(Finger::Index).or(first(Finger::Thumb));
        let across = match (inner, outer) {
            (Some(i), Some(o)) if i != o => in_hand(i) - in_hand(o),
            // No knuckles: assume the anatomical hand, thumb lateral. The elbow's flexion axis
            // points to the body's right for both arms (positive rotation flexes), so it is the
            // thumb side of a right hand and the little-finger side of a left one.
            _ => {
                let sign = if side == Side::Right { 1.0 } else { -1.0 };
                let elbow_axis = base.world_rotation(arm.upper_arm) * arm.elbow_axis_in_upper_arm;
                hand_from_world.transform_vector3(elbow_axis * sign)
            }
        };
        let s = (across - f * across.dot(f))
            .try_normalize()
            .unwrap_or_else(|| f.any_orthonormal_vector());
        // Palm normal (out of the palm). For a right hand, pinky→index × wrist→knuckle.
        let n = match side {
            Side::Right => s.cross(f),
            Side::Left => f.cross(s),
        };
        let grip_point = f * (0.55 * palm_length_local) + n * (0.30 * palm_length_local);
        let hand_frame = HandFrame {
            hand_from_grip: Transform::new(
                grip_point,
                basis_from_directions(s, n, 1, 2),
                DVec3::ONE,
            ),
            palm_length: world_from_hand.transform_vector3(knuckle).length(),
        };

        let fingers = finger_chains(skeleton, base, arm, base.world_rotation(hand) * n);

        let shoulder = base.world_position(arm.upper_arm);
        let reach = arm.upper_arm_length + arm.forearm_length;
        let forward = map.forward;
        let left = DVec3::Y.cross(forward).try_normalize().unwrap_or(DVec3::X);
        let out = if side == Side::Left { left } else { -left };
        let dir = (out * 0.5 + DVec3::NEG_Y - forward * 0.4).normalize();
        // Palm bones beside the hand: siblings whose origin is at the wrist (within half the
        // palm or a quarter of the forearm; twist bones sit nearer the elbow).
        let near = (0.5 * hand_frame.palm_length).max(0.25 * arm.forearm_length);
        let hand_group = hand_group(skeleton, base, arm, near);
        let mut arm_rig = ArmRig {
            side,
            upper: arm.upper_arm,
            fore: arm.forearm,
            hand,
            hand_frame,
            fingers,
            default_pole_in_actor: shoulder + dir * reach,
            elbow_axis_in_upper_arm: arm.elbow_axis_in_upper_arm,
            hand_group,
            shape: HandShape::default(),
            contact: Vec::new(),
            hand_scale: super::hand_shape::bone_scale(base, hand),
            grip_memo: GripMemo::default(),
        };
        let shape = HandShape::from_bones(skeleton, base, &arm_rig.fingers);
        arm_rig.set_shape(base, shape);
        Ok(arm_rig)
    }

    /// Replaces both hands' shapes (the stage fits them to the character's skin) and
    /// rebuilds the contact fingers from them.
    ///
    /// # Panics
    /// When a shape was not made for this actor's arms (fewer fingers or joints).
    pub fn set_hand_shapes(&mut self, shapes: PerSide<HandShape>) {
        let PerSide { left, right } = shapes;
        self.arms.left.set_shape(&self.base, left);
        self.arms.right.set_shape(&self.base, right);
    }

    /// The arm on `side`.
    pub fn arm(&self, side: Side) -> &ArmRig {
        self.arms.get(side)
    }

    /// The solver settings a character starts from: the defaults, with each CCD forearm hinge
    /// about the detected elbow axis. An axis within 10° of a local axis snaps to it and keeps
    /// the 2°..150° bend range on that Euler angle (three.js limits act per Euler angle);
    /// otherwise the hinge stays and the Euler range is off.
    pub fn default_settings(&self) -> SolverSettings {
        let mut settings = SolverSettings::default();
        for side in SIDES {
            let axis = self.arm(side).elbow_axis_in_upper_arm;
            let forearm = &mut settings.arm_mut(side).ccd.forearm;
            let (min, max) = (
                forearm.rotation_min.map_or(0.0, |v| v.x),
                forearm.rotation_max.map_or(0.0, |v| v.x),
            );
            let (k, signed) = crate::rig::nearest_axis(axis);
            let unit = signed.abs();
            if axis.angle_between(signed) <= 10f64.to_radians() {
                forearm.limitation = Some(unit);
                let (lo, hi) = if axis[k] > 0.0 {
                    (min, max)
                } else {
                    (-max, -min)
                };
                let mut vmin = DVec3::ZERO;
                let mut vmax = DVec3::ZERO;
                vmin[k] = lo;
                vmax[k] = hi;
                forearm.rotation_min = Some(vmin);
                forearm.rotation_max = Some(vmax);
            } else {
                forearm.limitation = Some(axis);
                forearm.rotation_min = None;
                forearm.rotation_max = None;
            }
        }
        settings
    }

    /// The calibration an artist starts from: no offsets, default curls, natural poles.
    pub fn default_calibration(&self) -> GripCalibration {
        GripCalibration {
            grips: BTreeMap::new(),
            rod_adjust: Default::default(),
            hands: PerSide::default(),
            poles: self
                .arms
                .map(|_, arm| PoleKeys::constant(arm.default_pole_in_actor)),
        }
    }
}

impl ArmRig {
    /// What the contact grip solve needs of this arm's hand.
    pub(crate) fn contact_inputs(&self) -> HandContactInputs<'_> {
        HandContactInputs {
            fingers: &self.contact,
            shape: &self.shape,
            chains: &self.fingers,
            hand_scale: self.hand_scale,
            palm_length: self.hand_frame.palm_length / self.hand_scale,
            memo: &self.grip_memo,
        }
    }

    fn set_shape(&mut self, base: &Pose, shape: HandShape) {
        self.contact = shape.contact_fingers(
            base,
            self.hand,
            &self.hand_frame.hand_from_grip,
            &self.fingers,
        );
        self.shape = shape;
        // Grips solved with the old shape are for another hand.
        self.grip_memo = GripMemo::default();
    }
}

/// The arm's fingers that have bones (index, middle, ring, little, then the thumb), each
/// with its bend axes turning toward the palm normal `n_world`.
fn finger_chains(
    skeleton: &Skeleton,
    base: &Pose,
    arm: &ArmMap,
    n_world: DVec3,
) -> Vec<(Finger, FingerChain)> {
    [
        Finger::Index,
        Finger::Middle,
        Finger::Ring,
        Finger::Little,
        Finger::Thumb,
    ]
    .into_iter()
    .filter(|&finger| !arm.finger(finger).is_empty())
    .map(|finger| {
        let joints = arm.finger(finger);
        (
            finger,
            finger_chain(skeleton, base, joints, n_world, finger),
        )
    })
    .collect()
}

/// Palm bones beside the hand: the hand's siblings (not the forearm) whose origin is within
/// `near` of the wrist.
fn hand_group(skeleton: &Skeleton, base: &Pose, arm: &ArmMap, near: f64) -> Vec<usize> {
    let hand = arm.hand;
    let wrist = base.world_position(hand);
    skeleton
        .parent(hand)
        .map(|p| {
            skeleton
                .children(p)
                .iter()
                .copied()
                .filter(|&c| c != hand && c != arm.forearm)
                .filter(|&c| (base.world_position(c) - wrist).length() <= near)
                .collect()
        })
        .unwrap_or_default()
}

/// Bend axes from the rest pose: each joint turns its direction toward the palm normal.
fn finger_chain(
    skeleton: &Skeleton,
    base: &Pose,
    joints: &[usize],
    palm_normal_in_world: DVec3,
    finger: Finger,
) -> FingerChain {
    let mut axes = Vec::with_capacity(joints.len());
    let mut last_dir = None;
    for (k, &joint) in joints.iter().enumerate() {
        let here = base.world_position(joint);
        let next = joints
            .get(k + 1)
            .copied()
            .or_else(|| skeleton.children(joint).first().copied())
            .map(|c| base.world_position(c) - here);
        let dir = next
            .and_then(|d| d.try_normalize())
            .or(last_dir)
            .unwrap_or(DVec3::Y);
        last_dir = Some(dir);
        let axis_world = dir
            .cross(palm_normal_in_world)
            .try_normalize()
            .unwrap_or_else(|| dir.any_orthonormal_vector());
        axes.push(base.world_rotation(joint).inverse() * axis_world);
    }
    let profile: &[f64] = if finger == Finger::Thumb {
        &[0.25, 0.55, 0.65]
    } else {
        &[1.15, 1.35, 0.95]
    };
    let full_curl = (0..joints.len())
        .map(|k| profile.get(k).copied().unwrap_or(0.9))
        .collect();
    FingerChain {
        joints: joints.to_vec(),
        bend_axes_in_bone: axes,
        full_curl,
    }
}
