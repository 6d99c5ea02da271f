//! [`EditorState`]: the headless editor. Everything the window does goes through
//! [`EditorState::apply`], so tests and `--script` drive exactly what the UI does.

use super::camera::OrbitCamera;
use super::command::{DocumentCommand, DragCommand, EditorCommand};
use super::document::{Document, History, Snapshot};
use super::drag::Drag;
use super::files::FileError;
use super::handles::{self, GizmoMode, GizmoPart, GizmoSpace, Handle};
use crate::fishing::{
    GripKind, PerSide, PoleProposal, SessionError, SessionState, TimelineAnalysis,
    analyse_timeline, default_threads, timeline_margins,
};
use crate::rig::Side;
use glam::{DQuat, DVec3, EulerRot};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum EditorError {
    #[error("the pose cannot be solved with this edit: {0}")]
    Session(#[from] SessionError),
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{0}")]
    Invalid(String),
}

/// Samples of the flip debugger's timeline plot and of the pole search.
pub const ANALYSIS_SAMPLES: usize = 241;
pub const SEARCH_SAMPLES: usize = 121;
/// The margin lane's threshold at start, metres: below it an instant is marked like a flip.
pub const MARGIN_THRESHOLD: f64 = 0.02;
/// Samples of "Fit to character" (the same as `anglerpose calibrate`'s default).
pub const FIT_SAMPLES: usize = 600;

/// The editor without a window.
#[derive(Clone, Debug)]
pub struct EditorState {
    pub doc: Document,
    pub selection: Option<Handle>,
    pub view: crate::stage::ViewOptions,
    /// Small markers at the grips each hand holds.
    pub grip_markers: bool,
    pub camera: OrbitCamera,
    /// The 3D viewport's size in physical pixels (picking and drags use it).
    pub viewport: [u32; 2],
    pub history: History,
    pub drag: Option<Drag>,
    /// Pole drags and `SetPole` edit the current phase's key instead of the constant pole.
    pub per_phase_poles: bool,
    pub playing: bool,
    /// Playback speed (1 = real time).
    pub speed: f64,
    /// The last error or notice, for the status bar.
    pub message: Option<String>,
    pub last_proposal: Option<PerSide<PoleProposal>>,
    pub(super) analysis: Option<TimelineAnalysis>,
    /// Each arm's stability margin at the analysis's samples (the margin lane), metres.
    pub(super) margins: Option<PerSide<Vec<f64>>>,
    /// Instants whose margin is below this are marked in the margin lane, metres.
    pub margin_threshold: f64,
    pub(super) group: Option<Snapshot>,
    /// W / E: the gizmo moves or rotates the selection (`None`: grips and the rod rotate,
    /// the rest move).
    pub gizmo_mode: Option<GizmoMode>,
    /// Q: gizmo axes in the world or in the selection's own frame.
    pub gizmo_space: GizmoSpace,
    /// The gizmo part under the mouse (drawn highlighted).
    pub hover: Option<GizmoPart>,
}

impl EditorState {
    pub fn new(doc: Document) -> Self {
        let mut camera = OrbitCamera::default();
        let h = doc.stage.actor.height;
        camera.frame(DVec3::new(0.0, 0.5 * h, 0.3 * h), 0.6 * h);
        Self {
            doc,
            selection: None,
            view: crate::stage::ViewOptions::default(),
            grip_markers: true,
            camera,
            viewport: [1280, 720],
            history: History::default(),
            drag: None,
            per_phase_poles: false,
            playing: false,
            speed: 1.0,
            message: None,
            last_proposal: None,
            analysis: None,
            margins: None,
            margin_threshold: MARGIN_THRESHOLD,
            group: None,
            gizmo_mode: None,
            gizmo_space: GizmoSpace::World,
            hover: None,
        }
    }

    /// Whether dragging `handle` rotates it with the current gizmo mode.
    pub fn rotates(&self, handle: Handle) -> bool {
        match self.gizmo_mode {
            None => handle.can_rotate(),
            Some(GizmoMode::Rotate) => handle.can_rotate(),
            Some(GizmoMode::Move) => !handle.can_move(),
        }
    }

    /// The renderer camera for the current viewport.
    pub fn render_camera(&self) -> crate::render::Camera {
        self.camera.to_camera(self.viewport)
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

    /// The read-out of the stability slice cell under viewport pixel `pixel` (while the
    /// slice is shown): the arm, the cell's class, its distance from the target, how far the
    /// elbow moves per target motion there, and the arm's margin.
    pub fn stability_hover(&self, pixel: [f64; 2]) -> Option<String> {
        if !self.view.overlays.stability {
            return None;
        }
        let camera = self.render_camera();
        let ray = super::camera::pixel_ray(&camera, [pixel[0] as f32, pixel[1] as f32])?;
        let stage = &self.doc.stage;
        let facing = self.view.overlays.slice_facing;
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

    /// Forgets the timeline's analysis and margins (after any document change).
    pub(super) fn invalidate_timeline(&mut self) {
        self.analysis = None;
        self.margins = None;
    }

    /// Sets the document to `after`, re-posing; on failure restores the previous state and
    /// returns the error. Records one undo step unless a drag or group is in progress.
    pub(super) fn commit(&mut self, after: Snapshot) -> Result<(), EditorError> {
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

    pub(super) fn set_live(&mut self, s: &Snapshot) -> Result<(), EditorError> {
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

    pub(super) fn edit(&mut self, f: impl FnOnce(&mut Snapshot)) -> Result<(), EditorError> {
        let mut after = self.doc.snapshot();
        f(&mut after);
        self.commit(after)
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
            EditorCommand::Edit(edit) => {
                let per_phase = self.per_phase_poles;
                let mut after = self.doc.snapshot();
                edit.apply(&mut after.inputs, per_phase)
                    .map_err(EditorError::Invalid)?;
                self.commit(after)
            }
            EditorCommand::Document(cmd) => self.document_command(cmd),
            EditorCommand::Drag(cmd) => self.drag_command(cmd),
            EditorCommand::View(cmd) => {
                self.view_command(cmd);
                Ok(())
            }
            EditorCommand::Playback(cmd) => self.playback_command(cmd),
            EditorCommand::File(cmd) => self.file_command(cmd),
        }
    }

    /// Ends a drag (committing it) or an open edit group.
    pub(super) fn finish_pending(&mut self) {
        if self.drag.is_some() {
            let _ = self.drag_command(DragCommand::EndDrag);
        }
        let _ = self.document_command(DocumentCommand::EndGroup);
    }

    /// The grip each hand holds now (for the calibration panel).
    pub fn held_kind(&self, side: crate::rig::Side) -> Option<GripKind> {
        handles::held_grip(&self.doc.stage, side).map(|g| g.0)
    }

    /// Window title: dirty marker and file name.
    pub fn title(&self) -> String {
        self.doc.title()
    }
}

/// XYZ Euler angles (degrees) → quaternion; non-finite angles give identity.
pub fn euler(deg: [f64; 3]) -> DQuat {
    if !deg.iter().all(|v| v.is_finite()) {
        return DQuat::IDENTITY;
    }
    let [x, y, z] = deg.map(f64::to_radians);
    DQuat::from_euler(EulerRot::XYZ, x, y, z).normalize()
}

/// Quaternion → XYZ Euler angles in degrees.
pub fn euler_of(q: DQuat) -> [f64; 3] {
    let (x, y, z) = q.to_euler(EulerRot::XYZ);
    [x.to_degrees(), y.to_degrees(), z.to_degrees()]
}
