//! Skeletons, poses and world transforms.
//!
//! A [`Skeleton`] is immutable structure (names, parents, rest transforms); a [`Pose`] is the
//! mutable state (local transforms plus cached world transforms). Cloning a `Pose` deep-copies
//! everything mutable, so solving one clone never disturbs another.

#![warn(missing_docs)]

mod humanoid;
mod pose;
pub(crate) mod rotation;
mod skeleton;
mod transform;

pub use humanoid::*;
pub use pose::{BoneStates, Pose};
pub use rotation::{apply_world_rotation, rotation_between};
pub use skeleton::{Bone, Skeleton, SkeletonError};
pub use transform::Transform;
