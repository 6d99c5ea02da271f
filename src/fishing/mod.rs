//! The fishing session: one [`SessionState`] drives the rod, the net and both grips, and the
//! arms follow through two-bone (seed 001) or CCD IK per arm, palm orientation and finger curl.
//!
//! Pure: no I/O, no GPU. Actor-root space is glTF-like: +Y up, metres, the angler faces +Z and
//! his left side is +X; the origin is on the ground below the pelvis.

#![warn(missing_docs)]

mod actor;
mod analysis;
mod arm_report;
mod calibrate;
mod calibration;
mod candidate_score;
mod ccd_arm;
pub mod crank_clear;
pub mod gear;
mod grip_along;
mod grip_frames;
pub mod grip_memo;
pub mod grip_solve;
mod grip_stem;
pub mod hand_contact;
pub mod hand_shape;
pub mod head_look;
mod inputs;
pub mod knob_pinch;
pub mod net_model;
mod palm_arm_points;
mod poser;
mod prop_geometry;
pub mod reach_slide;
pub mod reel_crank;
pub mod reel_shape;
pub mod reel_stem;
mod retarget;
pub mod rod_bend;
mod rod_bend_plane;
mod rod_blank;
pub mod rod_guides;
pub mod rod_model;
pub mod rules;
pub mod seat;
mod session;
mod session_frames;
mod settings;
pub mod spinning_body;
pub mod stability;
pub mod stability_timeline;
pub mod stem_straddle;
pub mod tackle;
mod tackle_params;
mod timeline_bound;
pub mod trigger_post;

pub use actor::{ActorError, ActorRig, ArmRig, HandFrame};
pub use analysis::{
    ArmSample, FlipEvent, PoleProposal, TimelineAnalysis, TimelineIssue, analyse_timeline,
    analyse_timeline_on, search_poles,
};
pub use arm_report::{ArmIk, ArmReport, CcdArmReport, CcdLinkState, SolverDetail};
pub use calibrate::{
    CalibrationReport, PhaseReport, REACH_RESIDUAL, calibrate, default_threads, refine, refine_with,
};
pub use calibration::{
    FingerTuning, FingerTunings, GripCalibration, GripKind, GripOffset, HandCalibration, PoleKeys,
};
pub use ccd_arm::CCD_REACH_TOLERANCE;
pub use gear::{Gear, HandleSection, NetGear, ReelBody, ReelCrank, RodGear};
pub use hand_contact::{FingerContact, FingerRole, GripStyle, HandContact};
pub use hand_shape::{ContactFinger, HandShape};
pub use inputs::PoseInputs;
pub use poser::{PoseEvaluation, Poser, SessionError};
pub use retarget::{RetargetReport, Retargeted, retarget, retarget_refined};
pub use seat::{BodyFit, SeatError, SeatedPose};
pub use session::{Handedness, Phase, SessionParams, SessionState};
pub use session_frames::{
    GripHold, GripTarget, NET_GRIP, ROD_FRONT_GRIP, ROD_REAR_GRIP, SessionFrames,
    front_handle_in_grip, front_palm_roll, front_reel_in_grip, front_stem_in_grip,
    reel_handle_in_hold, reel_handle_in_rod,
};
pub use settings::{
    ArmSettings, ArmSolverKind, CcdArmSettings, CcdLinkLimits, CcdLinkRole, SolverSettings,
};
pub use stability::{
    Boundary, RayMargin, SENSITIVE, SampleClass, StabilityError, StabilityGrid, StabilityJob,
    StabilityReport, StabilitySample,
};
pub use stability_timeline::{
    MARGIN_FINALISTS, MARGIN_QUANTUM, MARGIN_REACH, MARGIN_SLACK, MARGIN_STEP, margin_finalists,
    margin_text, smallest_margin, timeline_margins, timeline_margins_to, widest_margin,
};
pub use tackle::{Tackle, TackleError, TackleJob};
pub use tackle_params::{LineParams, RodAction, WaterParams};

use crate::rig::Side;

/// One value per side.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PerSide<T> {
    /// The left side's value.
    pub left: T,
    /// The right side's value.
    pub right: T,
}

impl<T> PerSide<T> {
    /// A pair from its left and right values.
    pub fn new(left: T, right: T) -> Self {
        Self { left, right }
    }

    /// The value for `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Left => &self.left,
            Side::Right => &self.right,
        }
    }

    /// The value for `side`, mutably.
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Left => &mut self.left,
            Side::Right => &mut self.right,
        }
    }

    /// A pair made by `f` for each side, left first; the first error stops it.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_from_fn<E>(mut f: impl FnMut(Side) -> Result<T, E>) -> Result<Self, E> {
        let left = f(Side::Left)?;
        Ok(Self {
            left,
            right: f(Side::Right)?,
        })
    }

    /// Applies `f` to each side's value (left first), keeping the sides.
    pub fn map<U>(&self, mut f: impl FnMut(Side, &T) -> U) -> PerSide<U> {
        PerSide {
            left: f(Side::Left, &self.left),
            right: f(Side::Right, &self.right),
        }
    }
}

/// Both sides, left first: the order every per-side loop uses.
pub const SIDES: [Side; 2] = [Side::Left, Side::Right];
