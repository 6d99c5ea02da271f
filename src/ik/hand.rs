//! Palm orientation and parametric finger curl (seed 001, §7): after two-bone IK puts the
//! wrist on the grip, the hand is turned so its basis matches the grip's basis and the fingers
//! curl around the handle.

use crate::rig::{Pose, Skeleton, apply_world_rotation};
use glam::{DMat3, DQuat, DVec3};
use thiserror::Error;

/// Why a [`PalmJob`] or [`FingerChain`] was rejected.
#[derive(Debug, Error, PartialEq)]
pub enum HandError {
    /// A bone index is not below the skeleton's bone count.
    #[error("bone index {index} is out of range ({count} bones)")]
    IndexOutOfRange {
        /// The bad index.
        index: usize,
        /// Number of bones in the skeleton.
        count: usize,
    },
    /// An input is NaN or infinite.
    #[error("{what} is not finite")]
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A parameter lies outside its allowed range.
    #[error("{what} = {value} is outside {range}")]
    OutOfRange {
        /// Which parameter.
        what: &'static str,
        /// Its value.
        value: f64,
        /// The allowed range, as text.
        range: &'static str,
    },
    /// A finger joint's bend axis has (near) zero length.
    #[error("finger joint {joint} has a zero bend axis")]
    ZeroAxis {
        /// The joint's bone index.
        joint: usize,
    },
    /// `joints`, `bend_axes_in_bone` and `full_curl` differ in length.
    #[error("finger has {joints} joints but {axes} bend axes and {angles} max angles")]
    LengthMismatch {
        /// Length of `joints`.
        joints: usize,
        /// Length of `bend_axes_in_bone`.
        axes: usize,
        /// Length of `full_curl`.
        angles: usize,
    },
}

/// An orthonormal, right-handed rotation from two directions: `primary` is kept exactly,
/// `secondary` is made perpendicular to it (Gram–Schmidt) and becomes the second axis.
///
/// `primary_axis`/`secondary_axis` say which local axes (0 = X, 1 = Y, 2 = Z) the two
/// directions map to, taken modulo 3; a `secondary_axis` equal to `primary_axis` becomes the
/// next axis. Singular cases: a zero `primary` gives the identity; a `secondary` parallel to
/// `primary` is replaced by any perpendicular direction.
pub fn basis_from_directions(
    primary: DVec3,
    secondary: DVec3,
    primary_axis: usize,
    secondary_axis: usize,
) -> DQuat {
    let Some(p) = primary.try_normalize() else {
        return DQuat::IDENTITY;
    };
    let s = (secondary - p * secondary.dot(p))
        .try_normalize()
        .unwrap_or_else(|| p.any_orthonormal_vector());
    let mut cols = [DVec3::ZERO; 3];
    let pa = primary_axis % 3;
    let mut sa = secondary_axis % 3;
    if sa == pa {
        sa = (pa + 1) % 3;
    }
    cols[pa] = p;
    cols[sa] = s;
    let third = 3 - pa - sa;
    // Right-handed: X × Y = Z, Y × Z = X, Z × X = Y.
    cols[third] = cols[(third + 1) % 3].cross(cols[(third + 2) % 3]);
    DQuat::from_mat3(&DMat3::from_cols(cols[0], cols[1], cols[2])).normalize()
}

/// Turns a hand so that a frame rigidly attached to it (`grip_in_hand`, the palm calibration)
/// ends with world rotation `grip_rotation_in_world`. Only the hand's local rotation changes;
/// its position stays on the wrist.
#[derive(Clone, Debug, PartialEq)]
pub struct PalmJob {
    /// The hand bone.
    pub hand: usize,
    /// Rotation of the grip frame expressed in hand-bone space (palm correction).
    pub grip_in_hand: DQuat,
    /// Desired world rotation of the grip frame.
    pub grip_rotation_in_world: DQuat,
    /// Blend with the input hand rotation, 0..=1.
    pub weight: f64,
}

impl PalmJob {
    /// Checks that `hand` is a bone of `skeleton`, both rotations are finite and `weight` is
    /// in `[0, 1]`.
    ///
    /// # Errors
    ///
    /// [`HandError::IndexOutOfRange`], [`HandError::NonFinite`] or [`HandError::OutOfRange`].
    pub fn validate(&self, skeleton: &Skeleton) -> Result<(), HandError> {
        if self.hand >= skeleton.len() {
            return Err(HandError::IndexOutOfRange {
                index: self.hand,
                count: skeleton.len(),
            });
        }
        if !self.grip_in_hand.is_finite() || !self.grip_rotation_in_world.is_finite() {
            return Err(HandError::NonFinite {
                what: "palm rotation",
            });
        }
        check_unit_range("palm weight", self.weight)
    }

    /// Sets the hand's world rotation to `grip_rotation_in_world · grip_in_hand⁻¹` (blended by
    /// weight) and refreshes the hand's subtree. Returns the angle (radians) the hand turned.
    /// Precondition: world transforms of the hand's ancestors are current.
    ///
    /// # Errors
    ///
    /// Whatever [`PalmJob::validate`] returns; the pose is then untouched.
    pub fn solve(&self, skeleton: &Skeleton, pose: &mut Pose) -> Result<f64, HandError> {
        let turned = self.turn_hand(skeleton, pose)?;
        pose.refresh_subtree(skeleton, self.hand);
        Ok(turned)
    }

    /// Like [`PalmJob::solve`], but refreshes only the hand bone itself: its descendants stay
    /// stale until the caller refreshes the hand's subtree (the pose pipeline does so once,
    /// after the fingers).
    ///
    /// # Errors
    ///
    /// Whatever [`PalmJob::validate`] returns; the pose is then untouched.
    pub fn turn_hand(&self, skeleton: &Skeleton, pose: &mut Pose) -> Result<f64, HandError> {
        self.validate(skeleton)?;
        let current = pose.world_rotation(self.hand);
        let desired = (self.grip_rotation_in_world.normalize()
            * self.grip_in_hand.normalize().inverse())
        .normalize();
        let goal = current.slerp(desired, self.weight);
        let delta = (goal * current.inverse()).normalize();
        apply_world_rotation(skeleton, pose, self.hand, delta);
        pose.refresh_bone(skeleton, self.hand);
        Ok(current.angle_between(goal))
    }
}

/// One finger: joints from base to tip, each with the local axis it bends about and the angle
/// it reaches at full curl. The per-joint angles are the distribution of the finger's curl.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FingerChain {
    /// The finger's bones, base → tip.
    pub joints: Vec<usize>,
    /// Bend axis of each joint, in that joint's local (bone) space.
    pub bend_axes_in_bone: Vec<DVec3>,
    /// Bend angle of each joint at curl 1, radians (negative bends the other way).
    pub full_curl: Vec<f64>,
}

impl FingerChain {
    /// Checks equal lengths, bone indices, finite axes and angles, and non-zero axes.
    ///
    /// # Errors
    ///
    /// [`HandError::LengthMismatch`], [`HandError::IndexOutOfRange`],
    /// [`HandError::NonFinite`] or [`HandError::ZeroAxis`], whichever is found first.
    pub fn validate(&self, skeleton: &Skeleton) -> Result<(), HandError> {
        let n = self.joints.len();
        if self.bend_axes_in_bone.len() != n || self.full_curl.len() != n {
            return Err(HandError::LengthMismatch {
                joints: n,
                axes: self.bend_axes_in_bone.len(),
                angles: self.full_curl.len(),
            });
        }
        for (k, &joint) in self.joints.iter().enumerate() {
            if joint >= skeleton.len() {
                return Err(HandError::IndexOutOfRange {
                    index: joint,
                    count: skeleton.len(),
                });
            }
            let axis = self.bend_axes_in_bone[k];
            if !axis.is_finite() || !self.full_curl[k].is_finite() {
                return Err(HandError::NonFinite {
                    what: "finger axis or angle",
                });
            }
            if axis.length_squared() < 1e-24 {
                return Err(HandError::ZeroAxis { joint });
            }
        }
        Ok(())
    }

    /// Curls the finger by `amount` (0 = the base pose, 1 = full curl; values in −0.5..=1.5 are
    /// allowed for spread/over-curl) on top of `base` local rotations:
    /// `local_j = base_j · axisAngle(axis_j, amount · full_curl_j)`. Does not refresh.
    /// Joints beyond the end of `base` use their current local rotation as base.
    /// Precondition: [`FingerChain::validate`] passed.
    ///
    /// # Errors
    ///
    /// [`HandError::NonFinite`] or [`HandError::OutOfRange`] for a bad `amount`.
    ///
    /// # Panics
    ///
    /// If `bend_axes_in_bone` or `full_curl` is shorter than `joints`, or a joint is not a
    /// bone index of `pose`.
    pub fn curl(&self, pose: &mut Pose, base: &[DQuat], amount: f64) -> Result<(), HandError> {
        check_curl(amount)?;
        for (k, &joint) in self.joints.iter().enumerate() {
            let base_rot = base.get(k).copied().unwrap_or(pose.local(joint).rotation);
            pose.set_local_rotation(joint, (base_rot * self.bend(k, amount)).normalize());
        }
        Ok(())
    }

    /// [`FingerChain::curl`] on the current local rotations (no `base`), with the joints'
    /// bend rotations kept in `bends` for the next curl by the same amount: bit for bit the
    /// same result, without the sines and cosines when the amount (and the chain) did not
    /// change. Same preconditions.
    ///
    /// # Errors
    ///
    /// As [`FingerChain::curl`].
    pub fn curl_with(
        &self,
        pose: &mut Pose,
        amount: f64,
        bends: &mut CurlBends,
    ) -> Result<(), HandError> {
        check_curl(amount)?;
        if !bends.holds(self, amount) {
            bends.amount = amount;
            bends.chain.clone_from(self);
            bends.bends.clear();
            bends
                .bends
                .extend((0..self.joints.len()).map(|k| self.bend(k, amount)));
        }
        for (&joint, &bend) in self.joints.iter().zip(&bends.bends) {
            let rotation = pose.local(joint).rotation;
            pose.set_local_rotation(joint, (rotation * bend).normalize());
        }
        Ok(())
    }

    /// Joint `k`'s bend by `amount` of the full curl.
    fn bend(&self, k: usize, amount: f64) -> DQuat {
        let axis = self.bend_axes_in_bone[k].normalize();
        DQuat::from_axis_angle(axis, amount * self.full_curl[k])
    }
}

/// A finger's joint bends for one curl amount, kept between [`FingerChain::curl_with`] calls:
/// a pose update curls every finger by an amount that stays the same over most of a session,
/// and recomputing the bends' sines and cosines was a fifth of the update. Holds only what
/// its inputs (the amount and the chain) determine.
#[derive(Clone, Debug, Default)]
pub struct CurlBends {
    amount: f64,
    chain: FingerChain,
    bends: Vec<DQuat>,
}

impl CurlBends {
    /// True when these are the bends of `chain` curled by `amount` (exact comparison).
    fn holds(&self, chain: &FingerChain, amount: f64) -> bool {
        self.amount == amount && self.bends.len() == chain.joints.len() && self.chain == *chain
    }
}

/// The curl amount's checks shared by the curls: finite, in −0.5..=1.5.
fn check_curl(amount: f64) -> Result<(), HandError> {
    if !amount.is_finite() {
        return Err(HandError::NonFinite {
            what: "curl amount",
        });
    }
    if !(-0.5..=1.5).contains(&amount) {
        return Err(HandError::OutOfRange {
            what: "curl amount",
            value: amount,
            range: "[-0.5, 1.5]",
        });
    }
    Ok(())
}

fn check_unit_range(what: &'static str, value: f64) -> Result<(), HandError> {
    if !value.is_finite() {
        return Err(HandError::NonFinite { what });
    }
    if !(0.0..=1.0).contains(&value) {
        return Err(HandError::OutOfRange {
            what,
            value,
            range: "[0, 1]",
        });
    }
    Ok(())
}
