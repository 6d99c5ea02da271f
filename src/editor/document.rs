//! The edited document: the stage, its file and dirty flag, and the snapshots undo works on.

use crate::fishing::PoseInputs;
use crate::stage::{RodGrips, Stage};
use std::path::PathBuf;

/// What one undo step restores: everything an artist edits (calibration, solver settings and
/// the session state, including the time, so the restored pose is exactly the earlier one).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub inputs: PoseInputs,
    /// Where the hands hold the artist's rod (the markers along its blank).
    pub rod_grips: RodGrips,
}

/// The stage being edited, where it was loaded from / saved to, and whether it changed since.
#[derive(Clone, Debug)]
pub struct Document {
    pub stage: Stage,
    /// The preset file (`.json`) this document saves to; `None` until saved.
    pub path: Option<PathBuf>,
    /// The character file the stage was built from (for presets and the title).
    pub character_path: PathBuf,
    pub dirty: bool,
    /// The preset this document was opened from or last saved as (keeps its overrides and
    /// named poses when saving).
    pub preset: Option<crate::preset::Preset>,
    /// Bumped each time the character is reloaded from disk (the window re-uploads meshes).
    pub generation: u64,
}

impl Document {
    pub fn new(stage: Stage, path: Option<PathBuf>) -> Self {
        let character_path = stage.character.source.clone();
        Self {
            stage,
            path,
            character_path,
            dirty: false,
            preset: None,
            generation: 0,
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            inputs: self.stage.inputs.clone(),
            rod_grips: self.stage.props.rod_grips(),
        }
    }

    /// Puts `snapshot` back and re-poses. Flip tracking restarts (a restore is a jump).
    pub fn restore(&mut self, snapshot: &Snapshot) {
        self.stage.inputs.clone_from(&snapshot.inputs);
        if self.stage.props.rod_grips() != snapshot.rod_grips {
            // Valid when taken, so this cannot fail; if it does, the grips stay.
            let _ = self.stage.set_rod_grips(snapshot.rod_grips);
        }
        self.stage.reset_flip_tracking();
        // A snapshot was valid when taken, so re-posing cannot fail; if it somehow does the
        // previous evaluation stays (no panic).
        let _ = self.stage.update();
    }

    /// Title-bar text: file name, a `*` when dirty, and the program name.
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_ref()
            .or(Some(&self.character_path))
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "untitled".into());
        let mark = if self.dirty { "*" } else { "" };
        format!("{mark}{name} — anglerpose")
    }
}

/// Undo / redo stacks of snapshots (the state *before* each step).
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
}

/// Steps kept; older ones are dropped.
pub const HISTORY_LIMIT: usize = 200;

impl History {
    /// Records `before` as one undoable step and clears redo.
    pub fn push(&mut self, before: Snapshot) {
        if self.undo.len() >= HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.undo.push(before);
        self.redo.clear();
    }

    /// Pops the last step; `current` goes onto the redo stack.
    pub fn undo(&mut self, current: Snapshot) -> Option<Snapshot> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        Some(previous)
    }

    pub fn redo(&mut self, current: Snapshot) -> Option<Snapshot> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        Some(next)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }

    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }
}
