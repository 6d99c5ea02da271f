//! [`ArmReport`]: what one arm did in one evaluation, in one shape whichever solver posed it.
//! [`ArmIk`] holds what both solvers report about the chain (the two-bone solve fills it from
//! its [`TwoBoneReport`], the CCD arm measures it on its result); [`SolverDetail`] holds what
//! only one of them knows ([`CcdArmReport`] for a CCD arm).

use super::session_frames::GripTarget;
use super::settings::{ArmSolverKind, CcdLinkRole};
use crate::ik::ccd::EulerState;
use crate::ik::limits::euler_xyz_from_quat;
use crate::ik::two_bone::{Fallback, ReachClamp, TwoBoneReport};
use glam::{DQuat, DVec3};

/// The arm chain after its solve, as both solvers report it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ArmIk {
    /// The wrist ends within the solver's reach tolerance of its target (two-bone:
    /// `1e-5·(a+b)`; CCD: [`super::CCD_REACH_TOLERANCE`]`·(a+b)`).
    pub reached: bool,
    /// Distance from the final wrist to its target, world space.
    pub residual: f64,
    /// Whether the target was beyond the arm's reach or inside its fold, and which.
    pub clamp: ReachClamp,
    /// The elbow hit its limit (two-bone: the hinge limit clamped the bend; CCD: the forearm
    /// link ended on a limit).
    pub elbow_limited: bool,
    /// Elbow bend: the angle between upper arm and forearm directions (0 = straight).
    pub elbow_bend: f64,
    /// Unit normal of the bend plane, `u × v` (shoulder→wrist × the elbow's side); flips of
    /// this normal are what the flip debugger reports.
    pub bend_normal: DVec3,
    /// The elbow, world space (two-bone: solved before weighting).
    pub elbow_in_world: DVec3,
    /// Where the wrist was aimed, world space (two-bone: the clamped target before
    /// weighting; CCD: the target itself).
    pub wrist_goal_in_world: DVec3,
}

/// What only one solver reports.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverDetail {
    /// Seed 001's two-bone solve.
    TwoBone {
        /// Softening pulled the wrist short of the target.
        softened: bool,
        /// The first degenerate-direction fallback taken, if any.
        fallback: Fallback,
    },
    /// three.js's CCD: passes, distances, blend and per-link states.
    Ccd(CcdArmReport),
}

impl ArmIk {
    /// The chain fields of a two-bone report, and its solver-only fields.
    pub fn from_two_bone(r: &TwoBoneReport) -> (Self, SolverDetail) {
        let ik = Self {
            reached: r.reached,
            residual: r.residual,
            clamp: r.clamp,
            elbow_limited: r.elbow_limited,
            elbow_bend: r.elbow_bend(),
            bend_normal: r.bend_normal,
            elbow_in_world: r.elbow_in_world,
            wrist_goal_in_world: r.wrist_goal_in_world,
        };
        let detail = SolverDetail::TwoBone {
            softened: r.softened,
            fallback: r.fallback,
        };
        (ik, detail)
    }
}

/// What one arm did in one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct ArmReport {
    /// The chain after the solve, whichever solver posed it.
    pub ik: ArmIk,
    /// What the solver that posed this arm reports besides.
    pub solver: SolverDetail,
    /// Where the wrist was sent, world space: the grip moved back through the palm frame.
    pub wrist_target_in_world: DVec3,
    /// The arm's pole at this moment, world space (the CCD solver does not aim at it).
    pub pole_in_world: DVec3,
    /// The bend-plane normal turned by more than 90° since the previous evaluation.
    pub flipped: bool,
    /// Angle the palm turned to meet the grip, radians.
    pub palm_turn: f64,
    /// The grip this hand was sent to, actor space.
    pub grip: GripTarget,
    /// Each finger's contact with the held surface (contact grips; empty when the
    /// parametric curl ran or the hand travels between grips).
    pub contact: super::hand_contact::HandContact,
    /// How far the hand's grip slid along its handle to come within the arm's reach, metres
    /// toward the rod's tip (0 unless a rear hand fell short of the rear grip; see
    /// `fishing::reach_slide`). [`ArmReport::grip`] is the slid grip.
    pub grip_slide: f64,
    /// How far the wrist fell short of the grip before it slid, metres (0 unless it slid):
    /// what timeline analysis and calibration count as the arm's residual, so they keep
    /// looking for a rod and grips the arm reaches without sliding.
    pub short_of_grip: f64,
}

impl ArmReport {
    /// The solver that posed this arm.
    pub fn solver_kind(&self) -> ArmSolverKind {
        match self.solver {
            SolverDetail::TwoBone { .. } => ArmSolverKind::TwoBone,
            SolverDetail::Ccd(_) => ArmSolverKind::Ccd,
        }
    }

    /// The CCD solver's report, for a CCD arm.
    pub fn ccd(&self) -> Option<&CcdArmReport> {
        match &self.solver {
            SolverDetail::Ccd(r) => Some(r),
            SolverDetail::TwoBone { .. } => None,
        }
    }
}

/// One link after a CCD arm solve. Serialises as `role`, `bone`, `rotations`, `on_limit`
/// and `euler` (see [`CcdLinkState::euler`]).
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// The link's final rotation relative to the previous link.
    pub rotation: DQuat,
    /// How three.js's stored Euler angles relate to `rotation` (see [`Self::euler`]).
    pub euler_state: EulerState,
}

impl CcdLinkState {
    /// Euler XYZ angles (three.js order, radians) of the link's final rotation relative to the
    /// previous link: the vector three stores after an Euler clamp (wrapped near its range),
    /// else derived from the quaternion. Computed when asked: a pose update does not pay for
    /// the decomposition.
    pub fn euler(&self) -> DVec3 {
        self.euler_state
            .vector(self.rotation)
            .unwrap_or_else(|| euler_xyz_from_quat(self.rotation))
    }
}

impl serde::Serialize for CcdLinkState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("CcdLinkState", 5)?;
        st.serialize_field("role", &self.role)?;
        st.serialize_field("bone", &self.bone)?;
        st.serialize_field("rotations", &self.rotations)?;
        st.serialize_field("on_limit", &self.on_limit)?;
        st.serialize_field("euler", &self.euler())?;
        st.end()
    }
}

/// What the CCD solver did for one arm.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[must_use = "a solver report says whether the solve succeeded; read it or bind it to `_`"]
pub struct CcdArmReport {
    /// Passes run (≤ the configured iterations).
    pub iterations: u32,
    /// A pass rotated nothing, so the remaining passes were skipped.
    pub exited_early: bool,
    /// The passes had become planar after this many, and the arm jumped to their limit
    /// (`ik::ccd::CcdChain::planar_finish`); `None` when three's passes ran to the end.
    pub planar_finish: Option<u32>,
    /// Wrist–target distance before and after the solve (and blend).
    pub initial_distance: f64,
    /// Wrist–target distance after the solve and blend, world space.
    pub final_distance: f64,
    /// The blend used (the chain's own or the global weight).
    pub blend: f64,
    /// Forearm, then upper arm.
    pub links: [CcdLinkState; 2],
}
