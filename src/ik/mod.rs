//! Inverse kinematics: seed-exact two-bone IK, three.js-compatible CCD, angle limits, hands.
//!
//! Solvers are plain input structs with `validate()` and `solve()` returning a report. They
//! read and write a [`crate::rig::Pose`] and never do I/O.

#![warn(missing_docs)]

pub mod ccd;
pub mod euler_inside;
pub mod grip_contact;
pub mod hand;
pub mod limits;
pub mod two_bone;
