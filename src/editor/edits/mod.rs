//! [`Edits`]: the document and how it changes — the undo history, an open edit group, the
//! drag in progress, per-phase pole editing, and what is derived from the document and
//! forgotten when it changes (the flip debugger's analysis and margins, the last pole
//! search). Every change of the pose inputs goes through `Edits::commit`, so each is one
//! undo step (or part of the drag's or group's step) and re-poses the stage, or is refused
//! and leaves the document as it was.

use super::document::{Document, History, Snapshot};
use super::drag::Drag;
use super::error::EditorError;
use crate::fishing::{
    PerSide, PoleProposal, SessionState, TimelineAnalysis, analyse_timeline, default_threads,
    timeline_margins,
};
use crate::rig::Side;

mod document_cmd;
mod drag_cmd;
mod props_cmd;
mod reload;

/// Samples of the flip debugger's timeline plot and margin lane.
pub const ANALYSIS_SAMPLES: usize = 241;
/// Samples of the pole search.
pub const SEARCH_SAMPLES: usize = 121;
/// Samples of "Fit to character" (the same as `anglerpose calibrate`'s default).
pub const FIT_SAMPLES: usize = 600;

/// The document and its history (see the module docs).
#[derive(Clone, Debug)]
pub struct Edits {
    doc: Document,
    history: History,
    /// The document before the open edit group (`BeginGroup` … `EndGroup`: one undo step).
    group: Option<Snapshot>,
    drag: Option<Drag>,
    /// Pole drags and `SetPole` edit the current phase's key instead of the constant pole.
    per_phase_poles: bool,
    /// The flip debugger's timeline analysis (recomputed after any document change).
    analysis: Option<TimelineAnalysis>,
    /// Each arm's stability margin at the analysis's samples (the margin lane), metres.
    margins: Option<PerSide<Vec<f64>>>,
    /// What the last pole search proposed.
    last_proposal: Option<PerSide<PoleProposal>>,
}

impl Edits {
    /// `doc` with an empty history.
    pub fn new(doc: Document) -> Self {
        Self {
            doc,
            history: History::default(),
            group: None,
            drag: None,
            per_phase_poles: false,
            analysis: None,
            margins: None,
            last_proposal: None,
        }
    }

    /// The document.
    pub fn doc(&self) -> &Document {
        &self.doc
    }

    /// The document, to change outside the undo history and without re-posing (saving
    /// sets its path; tests set scenes up). The timeline's analysis is not forgotten.
    pub fn doc_mut(&mut self) -> &mut Document {
        &mut self.doc
    }

    /// The undo history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The drag in progress.
    pub fn drag(&self) -> Option<&Drag> {
        self.drag.as_ref()
    }

    /// Whether pole edits go to the current phase's key.
    pub fn per_phase_poles(&self) -> bool {
        self.per_phase_poles
    }

    /// What the last pole search proposed.
    pub fn last_proposal(&self) -> Option<&PerSide<PoleProposal>> {
        self.last_proposal.as_ref()
    }

    /// The cached timeline analysis (recomputed after any document change).
    pub fn analysis(&mut self) -> Option<&TimelineAnalysis> {
        if self.analysis.is_none() {
            let s = &self.doc.stage;
            self.analysis = analyse_timeline(
                &s.actor,
                &s.inputs.calibration,
                &s.inputs.settings,
                &s.inputs.state.params,
                ANALYSIS_SAMPLES,
            )
            .ok();
        }
        self.analysis.as_ref()
    }

    /// The analysis if it is computed (for drawing without computing it).
    pub fn cached_analysis(&self) -> Option<&TimelineAnalysis> {
        self.analysis.as_ref()
    }

    /// Each arm's stability margin at the flip plot's samples
    /// ([`crate::fishing::timeline_margins`] over [`ANALYSIS_SAMPLES`]; cached like the
    /// analysis, `None` when the session cannot be posed).
    pub fn margins(&mut self) -> Option<&PerSide<Vec<f64>>> {
        if self.margins.is_none() {
            let s = &self.doc.stage;
            self.margins = timeline_margins(
                &s.actor,
                &s.inputs.calibration,
                &s.inputs.settings,
                &s.inputs.state.params,
                ANALYSIS_SAMPLES,
                default_threads(),
            )
            .ok();
        }
        self.margins.as_ref()
    }

    /// The session's weakest instant: the arm and time (seconds) of the smallest margin in
    /// the margin lane, with the margin (the left arm and the earliest instant on ties).
    pub fn weakest_instant(&mut self) -> Option<(Side, f64, f64)> {
        let params = self.doc.stage.inputs.state.params;
        let margins = self.margins()?;
        let mut weakest: Option<(Side, usize, f64)> = None;
        for side in crate::fishing::SIDES {
            for (k, &m) in margins.get(side).iter().enumerate() {
                if weakest.is_none_or(|(_, _, w)| m < w) {
                    weakest = Some((side, k, m));
                }
            }
        }
        let (side, k, m) = weakest?;
        let u = k as f64 / (ANALYSIS_SAMPLES - 1) as f64;
        Some((side, SessionState::at_fraction(u, params).time(), m))
    }

    /// Forgets the timeline's analysis and margins (after any document change).
    fn invalidate_timeline(&mut self) {
        self.analysis = None;
        self.margins = None;
    }

    /// Sets the document to `after`, re-posing; on failure restores the previous state and
    /// returns the error. Records one undo step unless a drag or group is in progress.
    fn commit(&mut self, after: Snapshot) -> Result<(), EditorError> {
        let before = self.doc.snapshot();
        if after == before {
            return Ok(());
        }
        self.set_live(&after)
            .inspect_err(|_| self.doc.restore(&before))?;
        if self.group.is_none() && self.drag.is_none() {
            self.history.push(before);
        }
        self.doc.dirty = true;
        self.invalidate_timeline();
        Ok(())
    }

    /// Puts `s` on the stage and re-poses, without an undo step (a drag's live pose).
    fn set_live(&mut self, s: &Snapshot) -> Result<(), EditorError> {
        let stage = &mut self.doc.stage;
        if stage.props.rod_grips() != s.rod_grips {
            stage
                .set_rod_grips(s.rod_grips)
                .map_err(|e| EditorError::Invalid(e.to_string()))?;
        }
        stage.inputs.clone_from(&s.inputs);
        stage.update()?;
        Ok(())
    }

    /// Commits the snapshot `f` makes of the current one.
    fn edit(&mut self, f: impl FnOnce(&mut Snapshot)) -> Result<(), EditorError> {
        let mut after = self.doc.snapshot();
        f(&mut after);
        self.commit(after)
    }

    /// Applies one pose edit (see [`super::command::PoseEdit`]) as one undo step.
    pub(in crate::editor) fn pose_edit(
        &mut self,
        edit: &super::command::PoseEdit,
    ) -> Result<(), EditorError> {
        let mut after = self.doc.snapshot();
        edit.apply(&mut after.inputs, self.per_phase_poles)
            .map_err(EditorError::Invalid)?;
        self.commit(after)
    }

    /// Ends a drag (committing it) or an open edit group.
    pub(in crate::editor) fn finish_pending(&mut self) {
        self.end_drag();
        self.end_group();
    }

    /// Starts an edit group: the edits until [`Edits::end_group`] are one undo step.
    fn begin_group(&mut self) {
        if self.group.is_none() {
            self.group = Some(self.doc.snapshot());
        }
    }

    /// Ends the open edit group, recording its undo step if anything changed.
    fn end_group(&mut self) {
        if let Some(before) = self.group.take()
            && before != self.doc.snapshot()
        {
            self.history.push(before);
        }
    }

    /// Ends the drag in progress as one undo step (nothing when it changed nothing).
    fn end_drag(&mut self) {
        if let Some(drag) = self.drag.take() {
            let now = self.doc.snapshot();
            if now != drag.before {
                self.history.push(drag.before);
                self.doc.dirty = true;
                self.invalidate_timeline();
            }
        }
    }

    /// Undoes (`redo` false) or redoes one step; nothing when there is none.
    fn undo_redo(&mut self, redo: bool) {
        self.finish_pending();
        let current = self.doc.snapshot();
        let step = if redo {
            self.history.redo(current)
        } else {
            self.history.undo(current)
        };
        if let Some(snapshot) = step {
            self.doc.restore(&snapshot);
            self.doc.dirty = true;
            self.invalidate_timeline();
        }
    }

    /// Moves the session to `state`: time is not an undo step and does not dirty the
    /// document. `jump`: flip tracking restarts.
    ///
    /// # Errors
    /// The pose cannot be solved at `state`; the time then stays where it was.
    pub(in crate::editor) fn set_state(
        &mut self,
        state: SessionState,
        jump: bool,
    ) -> Result<(), EditorError> {
        let stage = &mut self.doc.stage;
        let previous = stage.inputs.state;
        stage.inputs.state = state;
        if jump {
            stage.reset_flip_tracking();
        }
        if let Err(e) = stage.update() {
            stage.inputs.state = previous;
            let _ = stage.update();
            return Err(e.into());
        }
        Ok(())
    }

    /// Marks the document changed by a file operation (props, reload): not an undo step.
    fn changed_outside_history(&mut self) {
        self.doc.generation += 1;
        self.doc.dirty = true;
        self.invalidate_timeline();
    }
}
