//! [`PoseInputs`]: everything an artist edits that decides a pose. The stage, the editor's
//! undo snapshots, presets and [`super::Poser::evaluate`] all hold or take this one value.

use super::rules::FieldProblem;
use super::{GripCalibration, SessionError, SessionState, SolverSettings};

/// The calibration, solver settings and session state of one pose: with an actor and its
/// placement, [`super::Poser::evaluate`] poses the arms from these alone.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseInputs {
    /// Grip offsets, hands and arm poles.
    pub calibration: GripCalibration,
    /// The solver settings of both arms.
    pub settings: SolverSettings,
    /// The current phase, normalised time and session parameters.
    pub state: SessionState,
}

impl PoseInputs {
    /// The inputs from their three parts.
    pub fn new(
        calibration: GripCalibration,
        settings: SolverSettings,
        state: SessionState,
    ) -> Self {
        Self {
            calibration,
            settings,
            state,
        }
    }

    /// Every broken rule, with JSON paths under `calibration.`, `settings.` and `state.` (the
    /// keys a preset stores them under).
    pub fn problems(&self) -> Vec<FieldProblem> {
        let mut out = self.calibration.problems("calibration");
        out.extend(self.settings.problems("settings"));
        out.extend(self.state.problems("state"));
        out
    }

    /// Checks the rules [`super::Poser::evaluate`] needs: the session parameters, the
    /// calibration and the settings (a state's `t` outside 0..=1 is clamped, not refused).
    ///
    /// # Errors
    /// The first broken rule, as [`SessionError::Params`], [`SessionError::Calibration`] or
    /// [`SessionError::Settings`].
    pub fn validate(&self) -> Result<(), SessionError> {
        self.state.params.validate().map_err(SessionError::Params)?;
        self.calibration
            .validate()
            .map_err(SessionError::Calibration)?;
        self.settings.validate().map_err(SessionError::Settings)
    }
}
