//! A preset taken from a [`Stage`] and put back on one.

use super::{CharacterRef, FORMAT, Preset, VERSION};
use crate::fishing::PoseInputs;
use crate::rig::HumanoidOverride;
use crate::stage::Stage;
use std::collections::BTreeMap;

impl Preset {
    /// A preset capturing `stage`'s calibration, settings and state for `character`, with no
    /// overrides and no named poses.
    pub fn from_stage(stage: &Stage, character: CharacterRef) -> Self {
        Self {
            format: FORMAT.to_string(),
            version: VERSION,
            character,
            rod: None,
            net: None,
            seat: None,
            humanoid_overrides: HumanoidOverride::default(),
            inputs: stage.inputs.clone(),
            poses: BTreeMap::new(),
        }
    }

    /// Copies the calibration, settings and state into `stage` and re-poses it. The stage's
    /// character and humanoid map are not touched (see [`super::io::load_stage`] for overrides).
    ///
    /// # Errors
    /// The solver's error when [`Stage::update`] fails; the stage then already holds the
    /// preset's calibration, settings and state.
    pub fn apply_to(&self, stage: &mut Stage) -> Result<(), crate::fishing::SessionError> {
        stage.inputs.clone_from(&self.inputs);
        stage.reset_flip_tracking();
        stage.update()?;
        Ok(())
    }

    /// Poses `stage` for the named pose `name` (its state, and its calibration when it has
    /// one, else the preset's). Returns `false` (stage untouched) when there is no such pose.
    ///
    /// # Errors
    /// The solver's error when [`Stage::update`] fails; the stage then already holds the
    /// pose's calibration, settings and state.
    pub fn apply_named(
        &self,
        name: &str,
        stage: &mut Stage,
    ) -> Result<bool, crate::fishing::SessionError> {
        let Some(pose) = self.poses.get(name) else {
            return Ok(false);
        };
        stage.inputs = PoseInputs::new(
            pose.calibration
                .clone()
                .unwrap_or_else(|| self.inputs.calibration.clone()),
            self.inputs.settings,
            pose.state,
        );
        stage.reset_flip_tracking();
        stage.update()?;
        Ok(true)
    }
}
