//! Which bones are the arms, hands, torso, head and legs of a humanoid — found from bone
//! names, from topology when names fail, or (arms) from an explicit override a preset can
//! store — and the character frame (up, facing, units) that follows from them.
//!
//! Pure: works on a [`Skeleton`] and its rest [`Pose`] only. World "up" is +Y (glTF); the
//! body's forward direction is `left × up`, where `left` runs from the right shoulder to the
//! left one (a glTF character facing +Z has its left side at +X).

mod body;
mod declared;
mod detect;
mod frame;
mod names;
mod roles;
mod tree;

pub use body::{BodyMap, BodyRole, LegMap};
pub use declared::{DeclaredHumanoid, DeclaredRole, declared_role};
pub use frame::{CharacterFrame, FrameError, nearest_axis};
pub use roles::{ArmPart, Finger, HumanoidError, HumanoidOverride, Role, Side};

use super::{Pose, Skeleton};
use glam::DVec3;

/// How a map was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MapMethod {
    /// From bone names.
    Names,
    /// From the skeleton's shape (names did not match).
    Topology,
    /// An explicit [`HumanoidOverride`] was applied on top of detection.
    Override,
    /// The file declares its humanoid ([`DeclaredHumanoid`], VRM): names and topology fill
    /// only what it leaves out.
    Declared,
    /// Nothing usable was found.
    NotFound,
}

/// One arm: bone indices (into the skeleton), rest lengths and the elbow's bend axis.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmMap {
    /// Clavicle (shoulder) bone, when the rig has one.
    pub clavicle: Option<usize>,
    /// Upper arm bone; its origin is the shoulder joint.
    pub upper_arm: usize,
    /// Forearm bone; its origin is the elbow.
    pub forearm: usize,
    /// Hand bone; its origin is the wrist.
    pub hand: usize,
    /// Finger chains base → tip, indexed by [`Finger::index`]; empty where absent.
    pub fingers: [Vec<usize>; 5],
    /// Shoulder → elbow distance in the rest pose (world units).
    pub upper_arm_length: f64,
    /// Elbow → wrist distance in the rest pose.
    pub forearm_length: f64,
    /// Wrist → base of the middle finger (else index, else the mean child), if any.
    pub palm_length: Option<f64>,
    /// Per finger, distances between consecutive joints (base → tip), rest pose.
    pub finger_lengths: [Vec<f64>; 5],
    /// Unit axis (world, rest pose) about which a positive rotation of the forearm flexes the
    /// elbow (brings the hand toward the shoulder, in front of the body).
    pub elbow_axis_in_world: DVec3,
    /// The same axis in the upper arm's local frame (rotation only).
    pub elbow_axis_in_upper_arm: DVec3,
}

impl ArmMap {
    /// The chain of finger `f`, base → tip; empty when absent.
    pub fn finger(&self, f: Finger) -> &[usize] {
        &self.fingers[f.index()]
    }

    /// The bone playing `part`, if mapped.
    pub fn bone(&self, part: ArmPart) -> Option<usize> {
        match part {
            ArmPart::Clavicle => self.clavicle,
            ArmPart::UpperArm => Some(self.upper_arm),
            ArmPart::Forearm => Some(self.forearm),
            ArmPart::Hand => Some(self.hand),
            ArmPart::Finger(f, j) => self.fingers[f.index()]
                .get(j.checked_sub(1)? as usize)
                .copied(),
        }
    }
}

/// Both arms of a humanoid (either may be absent), with how sure the mapping is.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanoidMap {
    /// The left arm, when upper arm, forearm and hand were all found.
    pub left: Option<ArmMap>,
    /// The right arm, likewise.
    pub right: Option<ArmMap>,
    /// 0 (nothing found) … 1 (complete, from names or an override).
    pub confidence: f64,
    /// How the arms were found (the body has its own [`BodyMap::method`]).
    pub method: MapMethod,
    /// Roles not mapped: clavicle, upper arm, forearm, hand per side, and for fingers the
    /// finger's first joint (`left.index.1` means the whole index finger is missing).
    pub missing: Vec<Role>,
    /// Human-readable findings ("no humanoid arms found: …").
    pub notes: Vec<String>,
    /// The body's forward direction in the rest pose (world, unit).
    pub forward: DVec3,
    /// Hips, spine, neck, head and legs, when all of hips, head and both legs (thigh, shin,
    /// foot) were found.
    pub body: Option<BodyMap>,
    /// Body roles not mapped (toes and neck are optional; the others make `body` `None`).
    pub body_missing: Vec<BodyRole>,
    /// Where the file declared its humanoid (`"VRM 1.0"`), when it did.
    pub declared_by: Option<String>,
    /// The roles (text form: `left.hand`, `hips`, `spine.2` …) whose bone is the one the
    /// declaration names; every other mapped role came from names, topology or an override.
    pub declared: Vec<String>,
}

impl HumanoidMap {
    /// The arm on `side`, if mapped.
    pub fn arm(&self, side: Side) -> Option<&ArmMap> {
        match side {
            Side::Left => self.left.as_ref(),
            Side::Right => self.right.as_ref(),
        }
    }

    /// True when both arms have upper arm, forearm and hand.
    pub fn has_both_arms(&self) -> bool {
        self.left.is_some() && self.right.is_some()
    }

    /// Every role mapped, with its bone.
    pub fn roles(&self) -> Vec<(Role, usize)> {
        let mut out = Vec::new();
        for side in [Side::Left, Side::Right] {
            let Some(arm) = self.arm(side) else { continue };
            for part in ArmPart::all_core() {
                if let Some(b) = arm.bone(part) {
                    out.push((Role { side, part }, b));
                }
            }
            for f in Finger::ALL {
                for (j, &b) in arm.finger(f).iter().enumerate() {
                    let part = ArmPart::Finger(f, j as u8 + 1);
                    out.push((Role { side, part }, b));
                }
            }
        }
        out
    }

    /// Finds the arms from names, falling back to topology. `rest` must be the refreshed
    /// rest pose of `skeleton`.
    pub fn detect(skeleton: &Skeleton, rest: &Pose) -> Self {
        detect::detect(skeleton, rest)
    }

    /// Like [`HumanoidMap::detect`], then applies `overrides` (role → bone name). Unknown bone
    /// names are an error naming the name; an override that leaves an arm without upper arm,
    /// forearm or hand drops that arm (listed in `missing`).
    ///
    /// # Errors
    ///
    /// [`HumanoidError::UnknownBone`] when an override names a bone not in `skeleton`.
    pub fn detect_with_override(
        skeleton: &Skeleton,
        rest: &Pose,
        overrides: &HumanoidOverride,
    ) -> Result<Self, HumanoidError> {
        detect::detect_with(skeleton, rest, None, overrides)
    }

    /// Like [`HumanoidMap::detect_with_override`] for a file that may declare its humanoid:
    /// the declared bones take their roles (an arm when its upper arm, forearm and hand are
    /// declared, each declared finger, the body when its hips, head and legs are), detection
    /// fills what the declaration leaves out, and `overrides` apply last.
    ///
    /// # Errors
    ///
    /// [`HumanoidError::UnknownBone`] when an override names a bone not in `skeleton`.
    pub fn detect_declared(
        skeleton: &Skeleton,
        rest: &Pose,
        declared: Option<&DeclaredHumanoid>,
        overrides: &HumanoidOverride,
    ) -> Result<Self, HumanoidError> {
        detect::detect_with(skeleton, rest, declared, overrides)
    }
}

#[cfg(test)]
mod tests;
