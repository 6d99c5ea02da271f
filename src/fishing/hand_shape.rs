//! The hand as the grip sees it (issue 33): per finger segment a capsule fitted to the skin
//! that segment carries, and the palm's skin points, all in bone space at the base pose. The
//! stage fits them to the character's mesh once at load (`stage::hand_fit`); a character
//! without skin gets capsules from its bone lengths and no palm points.

use crate::ik::grip_contact::{Capsule, ContactJoint, JOINT_CAPSULES, SEGMENT_PIECES};
use crate::ik::hand::FingerChain;
use crate::rig::{Finger, Pose, Skeleton, Transform};
use glam::{DAffine3, DVec3};

/// One hand's shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HandShape {
    /// Per finger (in `ArmRig::fingers` order), per joint: the segment's capsules in the
    /// joint's bone space, base → tip.
    pub fingers: Vec<Vec<[Capsule; JOINT_CAPSULES]>>,
    /// The palm's skin: every vertex that the hand (and the palm bones beside it) carries
    /// most of, with what else carries it, and the pads before the knuckles that a finger
    /// carries most of ([`PalmPoint::pad`]).
    pub palm: Vec<PalmPoint>,
    /// True when the capsules and palm came from the character's skin.
    pub from_skin: bool,
}

/// A vertex of the palm's skin, skinned in hand space as glTF's linear blend skinning does
/// once the fingers' and the arm's frames are known. Weights sum to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct PalmPoint {
    /// Where the vertex is at the base pose, hand space.
    pub in_hand: DVec3,
    /// The share the hand and its palm bones carry.
    pub hand_weight: f64,
    /// Each finger segment's share: (finger index in `ArmRig::fingers`, joint, weight, the
    /// vertex in that joint's bone space at the base pose).
    pub segments: Vec<(usize, usize, f64, DVec3)>,
    /// Every other bone's share (the forearm's, at the wrist): (bone, weight, the vertex in
    /// that bone's space at the base pose). Where these carry it depends on the arm's pose.
    pub others: Vec<(usize, f64, DVec3)>,
    /// A pad: skin in the palm before a knuckle that the finger carries most of (heat weights
    /// give it to the finger). It must not sink into a handle, but the palm touching the
    /// handle means the palm's own skin (`false`) touching it.
    pub pad: bool,
}

/// One finger ready for [`crate::ik::grip_contact::FingerContactJob`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactFinger {
    /// Which finger.
    pub finger: Option<Finger>,
    /// The joints, base → tip, in hand space at the base pose.
    pub joints: Vec<ContactJoint>,
    /// The palm normal in the first joint's frame (the axis a spread turns about).
    pub spread_axis: DVec3,
    /// The finger's typical radius, hand units (the scale of "touching").
    pub radius: f64,
    /// The first joint's origin in hand space.
    pub base_in_hand: DVec3,
}

/// Curl limits (open, close) per joint, radians: flexion of the knuckle, the middle and the
/// end joint of a finger, and of the thumb's three joints (anatomical ranges).
const FINGER_LIMITS: [(f64, f64); 3] = [(-0.35, 1.6), (-0.05, 1.9), (-0.1, 1.4)];
const THUMB_LIMITS: [(f64, f64); 3] = [(-0.6, 0.9), (-0.3, 1.1), (-0.2, 1.4)];

impl HandShape {
    /// Capsules from bone lengths alone (no skin): each segment from its joint to the next
    /// (the tip as long as the previous segment), radius a fifth of its length.
    pub fn from_bones(skeleton: &Skeleton, base: &Pose, fingers: &[(Finger, FingerChain)]) -> Self {
        let fingers = fingers
            .iter()
            .map(|(_, chain)| {
                let mut last = None;
                chain
                    .joints
                    .iter()
                    .enumerate()
                    .map(|(k, &j)| {
                        let seg = segment_in_bone(skeleton, base, &chain.joints, k)
                            .or(last)
                            .unwrap_or(DVec3::Y * 0.02 / bone_scale(base, j));
                        last = Some(seg);
                        let len = seg.length();
                        let piece = |i: usize| {
                            if i >= SEGMENT_PIECES {
                                return Capsule::NONE;
                            }
                            Capsule {
                                start: seg * (i as f64 / SEGMENT_PIECES as f64),
                                end: seg * ((i + 1) as f64 / SEGMENT_PIECES as f64),
                                radius: 0.2 * len,
                            }
                        };
                        std::array::from_fn(piece)
                    })
                    .collect()
            })
            .collect();
        Self {
            fingers,
            palm: Vec::new(),
            from_skin: false,
        }
    }

    /// The fingers (`fingers` of the hand bone `hand`, whose palm frame is `hand_from_grip`)
    /// with these capsules, for the contact solve.
    ///
    /// # Panics
    /// When the shape was not made for these fingers (fewer fingers or joints).
    pub fn contact_fingers(
        &self,
        base: &Pose,
        hand: usize,
        hand_from_grip: &Transform,
        fingers: &[(Finger, FingerChain)],
    ) -> Vec<ContactFinger> {
        let hand_from_world = base.world_from_bone(hand).inverse();
        let palm_normal = base.world_rotation(hand) * (hand_from_grip.rotation * DVec3::Z);
        fingers
            .iter()
            .zip(&self.fingers)
            .map(|((finger, chain), capsules)| {
                let limits = if *finger == Finger::Thumb {
                    &THUMB_LIMITS
                } else {
                    &FINGER_LIMITS
                };
                let mut prev = hand_from_world;
                let mut joints = Vec::with_capacity(chain.joints.len());
                for (k, &j) in chain.joints.iter().enumerate() {
                    let world_from_joint = *base.world_from_bone(j);
                    let (open, close) = limits.get(k).copied().unwrap_or(limits[2]);
                    joints.push(ContactJoint {
                        prev_from_joint: prev * world_from_joint,
                        axis: chain.bend_axes_in_bone[k].normalize(),
                        capsules: capsules[k],
                        open_limit: open,
                        close_limit: close,
                    });
                    prev = world_from_joint.inverse();
                }
                let first = chain.joints[0];
                let spread_axis = (base.world_rotation(first).inverse() * palm_normal)
                    .try_normalize()
                    .unwrap_or(DVec3::Z);
                let scale_to_hand = bone_scale(base, first) / bone_scale(base, hand);
                let pieces = capsules.iter().flat_map(|c| &c[..SEGMENT_PIECES]);
                let radius = pieces.clone().map(|c| c.radius).sum::<f64>()
                    / pieces.count().max(1) as f64
                    * scale_to_hand;
                ContactFinger {
                    finger: Some(*finger),
                    joints,
                    spread_axis,
                    radius,
                    base_in_hand: hand_from_world.transform_point3(base.world_position(first)),
                }
            })
            .collect()
    }
}

/// World scale of `bone` at `base` (uniform scale is a precondition of the solvers).
pub(crate) fn bone_scale(base: &Pose, bone: usize) -> f64 {
    base.world_from_bone(bone)
        .matrix3
        .x_axis
        .length()
        .max(1e-12)
}

/// Joint `k`'s segment (to the next joint, else to its first child) in its own bone space.
pub(crate) fn segment_in_bone(
    skeleton: &Skeleton,
    base: &Pose,
    joints: &[usize],
    k: usize,
) -> Option<DVec3> {
    let j = joints[k];
    let next = joints
        .get(k + 1)
        .copied()
        .or_else(|| skeleton.children(j).first().copied())?;
    let bone_from_world: DAffine3 = base.world_from_bone(j).inverse();
    let seg = bone_from_world.transform_point3(base.world_position(next));
    (seg.length() > 1e-9).then_some(seg)
}

/// A test finger: straight along +X from `base` (hand space), curling toward −Z about +Y,
/// three segments of 40, 25 and 20 mm, each a capsule of radius 8 mm in thirds (no side or
/// edge capsules), turning about +Z when it spreads.
#[cfg(test)]
pub(crate) fn straight_test_finger(base: DVec3) -> ContactFinger {
    let joint = |at: DVec3, len: f64| ContactJoint {
        prev_from_joint: DAffine3::from_translation(at),
        axis: DVec3::Y,
        capsules: std::array::from_fn(|i| {
            if i < SEGMENT_PIECES {
                let third = len / 3.0;
                Capsule {
                    start: DVec3::X * third * i as f64,
                    end: DVec3::X * third * (i + 1) as f64,
                    radius: 0.008,
                }
            } else {
                Capsule::NONE
            }
        }),
        open_limit: -0.3,
        close_limit: 1.7,
    };
    const { assert!(JOINT_CAPSULES > SEGMENT_PIECES) };
    ContactFinger {
        finger: None,
        joints: vec![
            joint(base, 0.04),
            joint(DVec3::X * 0.04, 0.025),
            joint(DVec3::X * 0.025, 0.02),
        ],
        spread_axis: DVec3::Z,
        radius: 0.008,
        base_in_hand: base,
    }
}
