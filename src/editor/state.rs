//! [`EditorState`]: the headless editor. Everything the window does goes through
//! [`EditorState::apply`], so tests and `--script` drive exactly what the UI does. Each
//! command goes to the state of its concern: [`Edits`] (the document and its history),
//! [`ViewState`], [`Playback`], or the file commands (`file_cmd.rs`).

use super::command::{EditorCommand, ViewCommand};
use super::document::{Document, History};
use super::drag::Drag;
use super::edits::Edits;
use super::error::EditorError;
use super::file_cmd::FileOutcome;
use super::handles::{self, Handle};
use super::playback::Playback;
use super::view_state::ViewState;
use crate::fishing::{GripKind, PerSide, TimelineAnalysis};
use crate::rig::Side;

/// The editor without a window: one state per concern, each changed only by its own
/// commands — the document and its history ([`Edits`]), how it is viewed ([`ViewState`]),
/// playback ([`Playback`]) — and the status bar's message.
#[derive(Clone, Debug)]
pub struct EditorState {
    edits: Edits,
    view: ViewState,
    playback: Playback,
    /// The last error or notice, for the status bar.
    message: Option<String>,
}

impl EditorState {
    pub fn new(doc: Document) -> Self {
        Self {
            view: ViewState::new(&doc.stage),
            edits: Edits::new(doc),
            playback: Playback::default(),
            message: None,
        }
    }

    /// The document.
    pub fn doc(&self) -> &Document {
        self.edits.doc()
    }

    /// The document, changed outside the undo history and without re-posing (see
    /// [`Edits::doc_mut`]).
    pub fn doc_mut(&mut self) -> &mut Document {
        self.edits.doc_mut()
    }

    /// The document and its history.
    pub fn edits(&self) -> &Edits {
        &self.edits
    }

    /// How the document is viewed.
    pub fn view(&self) -> &ViewState {
        &self.view
    }

    /// Play state and speed.
    pub fn playback(&self) -> &Playback {
        &self.playback
    }

    /// The undo history.
    pub fn history(&self) -> &History {
        self.edits.history()
    }

    /// The drag in progress.
    pub fn drag(&self) -> Option<&Drag> {
        self.edits.drag()
    }

    /// The last error or notice, for the status bar.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Shows `message` in the status bar (the window's own notices: uploads, screenshots).
    pub fn notify(&mut self, message: impl Into<String>) {
        self.message = Some(message.into());
    }

    /// Whether dragging `handle` rotates it with the current gizmo mode.
    pub fn rotates(&self, handle: Handle) -> bool {
        self.view.rotates(handle)
    }

    /// The renderer camera for the current viewport.
    pub fn render_camera(&self) -> crate::render::Camera {
        self.view.render_camera()
    }

    /// The cached timeline analysis (recomputed after any document change).
    pub fn analysis(&mut self) -> Option<&TimelineAnalysis> {
        self.edits.analysis()
    }

    /// Each arm's stability margin at the flip plot's samples (see [`Edits::margins`]).
    pub fn margins(&mut self) -> Option<&PerSide<Vec<f64>>> {
        self.edits.margins()
    }

    /// The session's weakest instant (see [`Edits::weakest_instant`]).
    pub fn weakest_instant(&mut self) -> Option<(Side, f64, f64)> {
        self.edits.weakest_instant()
    }

    /// The read-out of the stability slice cell under viewport pixel `pixel` (while the
    /// slice is shown): the arm, the cell's class, its distance from the target, how far the
    /// elbow moves per target motion there, and the arm's margin.
    pub fn stability_hover(&self, pixel: [f64; 2]) -> Option<String> {
        let options = self.view.options();
        if !options.overlays.stability {
            return None;
        }
        let camera = self.render_camera();
        let ray = super::camera::pixel_ray(&camera, [pixel[0] as f32, pixel[1] as f32])?;
        let stage = &self.doc().stage;
        let facing = options.overlays.slice_facing;
        let probe = stage.probe_slices((facing, &camera), ray.origin, ray.dir)?;
        let s = probe.sample;
        let class = s.class.name();
        let margin = stage
            .stability_readout(probe.side)
            .map(|r| {
                format!(
                    "\narm's margin {} mm",
                    crate::fishing::margin_text(r.margin.margin)
                )
            })
            .unwrap_or_default();
        Some(format!(
            "{} arm: {class}, {:.0} mm from the target\nelbow moves {:.1}× the target{margin}",
            probe.side.name(),
            s.offset.length() * 1000.0,
            s.sensitivity,
        ))
    }

    /// Applies one command. Errors leave the document as it was.
    pub fn apply(&mut self, cmd: impl Into<EditorCommand>) -> Result<(), EditorError> {
        let result = self.apply_inner(cmd.into());
        if let Err(e) = &result {
            self.message = Some(e.to_string());
        }
        result
    }

    fn apply_inner(&mut self, cmd: EditorCommand) -> Result<(), EditorError> {
        match cmd {
            EditorCommand::Edit(edit) => self.edits.pose_edit(&edit),
            EditorCommand::Document(cmd) => {
                if let Some(m) = self.edits.document_command(cmd)? {
                    self.message = Some(m);
                }
                Ok(())
            }
            EditorCommand::Drag(cmd) => self.edits.drag_command(cmd, &mut self.view),
            EditorCommand::View(cmd) => {
                self.apply_view(cmd);
                Ok(())
            }
            EditorCommand::Playback(cmd) => self.playback.apply(cmd, &mut self.edits),
            EditorCommand::File(cmd) => {
                match super::file_cmd::apply(cmd, &mut self.edits)? {
                    FileOutcome::Done(message) => self.message = Some(message),
                    FileOutcome::Opened { doc, message } => {
                        let [width, height] = self.view.viewport();
                        *self = EditorState::new(*doc);
                        self.apply_view(ViewCommand::SetViewport { width, height });
                        self.message = Some(message);
                    }
                }
                Ok(())
            }
        }
    }

    /// Applies one view command (it cannot fail).
    fn apply_view(&mut self, cmd: ViewCommand) {
        self.view.apply(cmd, &self.edits.doc().stage);
    }

    /// Reloads the document's character file (`Edits::reload_character`); the status
    /// bar says what changed, or why the last good character stays.
    ///
    /// # Errors
    /// [`EditorError::Invalid`] naming the file and the problem.
    pub fn reload_character(&mut self) -> Result<(), EditorError> {
        self.apply(super::command::FileCommand::ReloadCharacter)
    }

    /// The grip each hand holds now (for the calibration panel).
    pub fn held_kind(&self, side: crate::rig::Side) -> Option<GripKind> {
        handles::held_grip(&self.doc().stage, side).map(|g| g.0)
    }

    /// Window title: dirty marker and file name.
    pub fn title(&self) -> String {
        self.doc().title()
    }
}
