//! The document commands of [`Edits`]: undo and redo, edit groups, per-phase pole editing,
//! the artist's rod grips, and the searches that rewrite the calibration (pole search, fit
//! to character, applying another character's preset), each one undo step.

use super::Edits;
use super::{FIT_SAMPLES, SEARCH_SAMPLES};
use crate::editor::command::DocumentCommand;
use crate::editor::error::EditorError;
use crate::editor::files::FileError;
use crate::fishing::{PoleKeys, calibrate, retarget_refined, search_poles};

impl Edits {
    /// Applies one document command (see [`DocumentCommand`]); returns what the status bar
    /// says about it, if anything.
    ///
    /// # Errors
    /// A search or the re-pose fails; the document is then unchanged.
    pub(in crate::editor) fn document_command(
        &mut self,
        cmd: DocumentCommand,
    ) -> Result<Option<String>, EditorError> {
        use DocumentCommand as C;
        let message = match cmd {
            C::Undo | C::Redo => {
                self.undo_redo(matches!(cmd, C::Redo));
                None
            }
            C::BeginGroup => {
                self.begin_group();
                None
            }
            C::EndGroup => {
                self.end_group();
                None
            }
            C::SetPerPhasePoles { on } => {
                self.per_phase_poles = on;
                None
            }
            C::SetRodGrips {
                rear_grip,
                reel_seat,
                reel_above,
                butt_offset,
            } => {
                self.edit(|s| {
                    s.rod_grips = crate::stage::RodGrips {
                        rear_grip,
                        reel_seat,
                        reel_above,
                        butt_offset,
                    }
                })?;
                None
            }
            C::ApplyPoleProposal => Some(self.apply_pole_proposal()?),
            C::FitToCharacter => Some(self.fit_to_character()?),
            C::ApplyPresetToCharacter { path } => Some(self.apply_preset_to_character(&path)?),
        };
        Ok(message)
    }

    fn apply_pole_proposal(&mut self) -> Result<String, EditorError> {
        let s = &self.doc.stage;
        let proposals = search_poles(
            &s.actor,
            &s.inputs.calibration,
            &s.inputs.settings,
            &s.inputs.state.params,
            SEARCH_SAMPLES,
        )?;
        self.last_proposal = Some(proposals);
        self.edit(|snap| {
            for side in crate::fishing::SIDES {
                let p = proposals.get(side);
                if p.improves() {
                    *snap.inputs.calibration.poles.get_mut(side) =
                        PoleKeys::constant(p.proposed_in_actor);
                }
            }
        })?;
        let f = |side| {
            let p = proposals.get(side);
            format!(
                "{} flips {} → {}, flip margin {} → {} mm",
                side.name(),
                p.flips_before,
                p.flips_after,
                crate::fishing::margin_text(p.margin_before),
                crate::fishing::margin_text(p.margin_after)
            )
        };
        Ok(format!(
            "pole search: {}, {}",
            f(crate::rig::Side::Left),
            f(crate::rig::Side::Right)
        ))
    }

    fn fit_to_character(&mut self) -> Result<String, EditorError> {
        let s = &self.doc.stage;
        if s.map.body.is_none() {
            return Err(EditorError::Invalid(format!(
                "fit to character needs a full body (hips, head, legs); {}",
                s.notes.join("; ")
            )));
        }
        let threads = crate::fishing::default_threads();
        let (calib, report) = calibrate(
            &s.actor,
            &s.inputs.settings,
            &s.inputs.state.params,
            FIT_SAMPLES,
            threads,
        )?;
        self.edit(|snap| snap.inputs.calibration = calib.clone())?;
        Ok(format!(
            "fit to character: reached left {:.1}%, right {:.1}% of {} samples, {} flip(s)",
            100.0 * report.reached_fraction.left,
            100.0 * report.reached_fraction.right,
            report.samples,
            report.flips
        ))
    }

    fn apply_preset_to_character(&mut self, path: &std::path::Path) -> Result<String, EditorError> {
        let preset = crate::preset::io::load_preset(path).map_err(FileError::from)?;
        let (source, _) = crate::preset::io::load_stage(path, &preset).map_err(FileError::from)?;
        let s = &self.doc.stage;
        // Refined over this document's session, which the result is used in.
        let (calib, settings, report, fit) = retarget_refined(
            (
                &source.actor,
                &source.inputs.calibration,
                &source.inputs.settings,
            ),
            &s.actor,
            &s.inputs.state.params,
            FIT_SAMPLES,
            crate::fishing::default_threads(),
        )?;
        self.edit(|snap| {
            snap.inputs.calibration = calib.clone();
            snap.inputs.settings = settings;
        })?;
        let mut message = format!(
            "applied {}: arm scale {:.2}, reached left {:.1}%, right {:.1}%, {} flip(s)",
            path.display(),
            report.arm_scale.left,
            100.0 * fit.reached_fraction.left,
            100.0 * fit.reached_fraction.right,
            fit.flips
        );
        for n in &report.notes {
            message.push_str("; ");
            message.push_str(n);
        }
        Ok(message)
    }
}
