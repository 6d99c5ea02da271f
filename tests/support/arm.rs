//! A small arm rig for IK tests: parent → upper arm → forearm → hand → finger.
#![allow(dead_code)]

use anglerpose::rig::{Bone, Pose, Skeleton, Transform};
use glam::{DQuat, DVec3};

pub const PARENT: usize = 0;
pub const UPPER: usize = 1;
pub const FORE: usize = 2;
pub const HAND: usize = 3;
pub const FINGER: usize = 4;

#[derive(Clone, Debug)]
pub struct ArmSpec {
    pub parent: Transform,
    pub shoulder_offset: DVec3,
    /// Local direction the bones run along (any unit vector).
    pub axis: DVec3,
    pub upper_len: f64,
    pub fore_len: f64,
    pub upper_rot: DQuat,
    pub fore_rot: DQuat,
}

impl Default for ArmSpec {
    fn default() -> Self {
        Self {
            parent: Transform::IDENTITY,
            shoulder_offset: DVec3::new(0.2, 1.4, 0.0),
            axis: DVec3::Y,
            upper_len: 0.3,
            fore_len: 0.25,
            upper_rot: DQuat::IDENTITY,
            fore_rot: DQuat::from_rotation_z(0.4),
        }
    }
}

pub fn build(spec: &ArmSpec) -> (Skeleton, Pose) {
    let bone = |name: &str, parent: Option<usize>, rest: Transform| Bone {
        name: name.into(),
        parent,
        rest,
    };
    let axis = spec.axis.normalize();
    let skel = Skeleton::new(vec![
        bone("parent", None, spec.parent),
        bone(
            "upper",
            Some(PARENT),
            Transform::new(spec.shoulder_offset, spec.upper_rot, DVec3::ONE),
        ),
        bone(
            "fore",
            Some(UPPER),
            Transform::new(axis * spec.upper_len, spec.fore_rot, DVec3::ONE),
        ),
        bone(
            "hand",
            Some(FORE),
            Transform::from_translation(axis * spec.fore_len),
        ),
        bone(
            "finger",
            Some(HAND),
            Transform::from_translation(axis * 0.05),
        ),
    ])
    .expect("valid test skeleton");
    let pose = Pose::rest(&skel);
    (skel, pose)
}

pub fn lengths(pose: &Pose) -> (f64, f64) {
    let a = pose.world_position(FORE) - pose.world_position(UPPER);
    let b = pose.world_position(HAND) - pose.world_position(FORE);
    (a.length(), b.length())
}
