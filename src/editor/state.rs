//! [`EditorState`]: the headless editor. Everything the window does goes through
//! [`EditorState::apply`], so tests and `--script` drive exactly what the UI does.

use super::camera::OrbitCamera;
use super::command::{EditorCommand, ViewToggle};
use super::document::{Document, History, Snapshot};
use super::drag::Drag;
use super::files::{self, FileError};
use super::pick::{self, Handle};
use super::pick::{GizmoMode, GizmoPart, GizmoSpace};
use crate::fishing::{
    GripKind, PerSide, PoleKeys, PoleProposal, SessionError, SessionState, TimelineAnalysis,
    analyse_timeline, calibrate, refine, retarget, search_poles,
};
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
    group: Option<Snapshot>,
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
        self.analysis = None;
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

    fn edit(&mut self, f: impl FnOnce(&mut Snapshot)) -> Result<(), EditorError> {
        let mut after = self.doc.snapshot();
        f(&mut after);
        self.commit(after)
    }

    /// Time changes are not undo steps and do not dirty the document.
    fn set_state(&mut self, state: SessionState, jump: bool) -> Result<(), EditorError> {
        let previous = self.doc.stage.inputs.state;
        self.doc.stage.inputs.state = state;
        if jump {
            self.doc.stage.reset_flip_tracking();
        }
        if let Err(e) = self.doc.stage.update() {
            self.doc.stage.inputs.state = previous;
            let _ = self.doc.stage.update();
            return Err(e.into());
        }
        Ok(())
    }

    /// Applies one command. Errors leave the document as it was.
    pub fn apply(&mut self, cmd: EditorCommand) -> Result<(), EditorError> {
        let result = self.apply_inner(cmd);
        if let Err(e) = &result {
            self.message = Some(e.to_string());
        }
        result
    }

    fn apply_inner(&mut self, cmd: super::command::EditorCommand) -> Result<(), EditorError> {
        use super::command::EditorCommand as C;
        match cmd {
            C::Select { handle } => self.selection = handle,
            cmd @ (C::PointerDown { .. }
            | C::BeginDrag { .. }
            | C::DragTo { .. }
            | C::SetDragAxis { .. }
            | C::SetDragPlane { .. }
            | C::SetDragNumber { .. }
            | C::SetSnap { .. }
            | C::EndDrag
            | C::CancelDrag) => self.drag_command(cmd)?,
            C::Undo => {
                self.finish_pending();
                let current = self.doc.snapshot();
                if let Some(previous) = self.history.undo(current) {
                    self.doc.restore(&previous);
                    self.doc.dirty = true;
                    self.analysis = None;
                }
            }
            C::Redo => {
                self.finish_pending();
                let current = self.doc.snapshot();
                if let Some(next) = self.history.redo(current) {
                    self.doc.restore(&next);
                    self.doc.dirty = true;
                    self.analysis = None;
                }
            }
            C::BeginGroup => {
                if self.group.is_none() {
                    self.group = Some(self.doc.snapshot());
                }
            }
            C::EndGroup => {
                if let Some(before) = self.group.take()
                    && before != self.doc.snapshot()
                {
                    self.history.push(before);
                }
            }
            C::SetLimitsEnabled { on } => self.edit(|s| s.inputs.settings.limits_enabled = on)?,
            c @ (C::SetElbowLimit { .. }
            | C::SetArmSolver { .. }
            | C::SetTwist { .. }
            | C::SetCcdIterations { .. }
            | C::SetCcdStepAngles { .. }
            | C::SetCcdBlend { .. }
            | C::SetCcdLinkLimits { .. }) => {
                let settings =
                    super::solver_cmd::settings_after(&self.doc.stage.inputs.settings, c)
                        .map_err(EditorError::Invalid)?;
                self.edit(|s| s.inputs.settings = settings)?
            }
            C::SetSoften { value } => self.edit(|s| s.inputs.settings.soften = value)?,
            C::SetWeight { value } => self.edit(|s| s.inputs.settings.weight = value)?,
            C::SetGripOffset { kind, offset } => self.edit(|s| {
                s.inputs
                    .calibration
                    .grips
                    .entry(kind)
                    .or_default()
                    .offset_in_object = offset.into();
            })?,
            C::SetGripRotation { kind, euler_deg } => self.edit(|s| {
                s.inputs.calibration.grips.entry(kind).or_default().rotation = euler(euler_deg);
            })?,
            C::SetRodAdjust { offset, euler_deg } => self.edit(|s| {
                s.inputs.calibration.rod_adjust.offset_in_object = offset.into();
                s.inputs.calibration.rod_adjust.rotation = euler(euler_deg);
            })?,
            C::SetPalmCorrection { side, euler_deg } => self.edit(|s| {
                s.inputs.calibration.hands.get_mut(side).palm_correction = euler(euler_deg);
            })?,
            C::SetFingerCurl { side, value } => {
                self.edit(|s| s.inputs.calibration.hands.get_mut(side).finger_curl = value)?
            }
            C::SetThumbCurl { side, value } => {
                self.edit(|s| s.inputs.calibration.hands.get_mut(side).thumb_curl = value)?
            }
            C::SetPole { side, pole } => {
                let per_phase = self.per_phase_poles;
                self.edit(|s| {
                    let keys = s.inputs.calibration.poles.get_mut(side);
                    if per_phase {
                        keys.per_phase.insert(s.inputs.state.phase, pole.into());
                    } else {
                        keys.pole_in_actor = pole.into();
                    }
                })?
            }
            C::SetPerPhasePoles { on } => self.per_phase_poles = on,
            C::ApplyPoleProposal => self.apply_pole_proposal()?,
            C::FitToCharacter => self.fit_to_character()?,
            C::UseProp { prop, path } => self.use_prop(prop, path)?,
            C::SetGizmoMode { mode } => self.gizmo_mode = mode,
            C::SetGizmoSpace { space } => self.gizmo_space = space,
            C::SetHover { part } => self.hover = part,
            C::SetRodFrame { flip_ends, length } => self.set_rod_frame(flip_ends, length)?,
            C::SetRodGrips {
                rear_grip,
                reel_seat,
                reel_above,
                butt_offset,
            } => self.edit(|s| {
                s.rod_grips = crate::stage::RodGrips {
                    rear_grip,
                    reel_seat,
                    reel_above,
                    butt_offset,
                }
            })?,
            C::ReloadCharacter => self.reload_character()?,
            C::ApplyPresetToCharacter { path } => self.apply_preset_to_character(&path)?,
            C::SetHandedness { handedness } => {
                self.edit(|s| s.inputs.state.params.handedness = handedness)?
            }
            C::SetRodLength { metres } => {
                self.edit(|s| s.inputs.state.params.rod_length = metres)?
            }
            C::SetCastPower { value } => self.edit(|s| s.inputs.state.params.cast_power = value)?,
            C::SetTime { seconds } => {
                let params = self.doc.stage.inputs.state.params;
                self.set_state(SessionState::at_time(seconds, params), true)?;
            }
            C::SetPhase { phase, t } => {
                let params = self.doc.stage.inputs.state.params;
                self.set_state(SessionState::new(phase, t.clamp(0.0, 1.0), params), true)?;
            }
            C::Play { on } => self.playing = on,
            C::SetSpeed { value } => {
                if value.is_finite() {
                    self.speed = value.clamp(0.05, 4.0);
                }
            }
            C::Tick { dt } => {
                if self.playing && self.drag.is_none() && dt.is_finite() && dt > 0.0 {
                    let state = self.doc.stage.inputs.state;
                    let total = state.params.total_duration();
                    let mut t = state.time() + dt.min(0.5) * self.speed;
                    let wrapped = t > total;
                    if wrapped {
                        t = 0.0;
                    }
                    self.set_state(SessionState::at_time(t, state.params), wrapped)?;
                }
            }
            C::SetView { view } => self.camera.set_view(view),
            C::SetOrthographic { on } => self.camera.orthographic = on,
            C::Orbit { dx, dy } => self.camera.orbit(dx, dy),
            C::Pan { dx, dy } => self.camera.pan(dx, dy, f64::from(self.viewport[1])),
            C::Zoom { steps } => self.camera.zoom(steps),
            C::FrameSelection => self.frame_selection(),
            C::SetViewport { width, height } => self.viewport = [width.max(1), height.max(1)],
            C::Toggle { what, on } => {
                let o = &mut self.view.overlays;
                match what {
                    ViewToggle::Spheres => o.spheres = on,
                    ViewToggle::BoneLines => o.bone_lines = on,
                    ViewToggle::LimitArcs => o.limit_arcs = on,
                    ViewToggle::PoleAndPlane => o.pole_and_plane = on,
                    ViewToggle::Mesh => self.view.mesh_visible = on,
                    ViewToggle::Grid => self.view.grid = on,
                    ViewToggle::GripMarkers => self.grip_markers = on,
                    ViewToggle::Xray => self.view.xray = on,
                }
            }
            C::ExportAnimation {
                path,
                fps,
                first,
                last,
            } => {
                self.finish_pending();
                let options = crate::preset::ClipOptions {
                    fps,
                    first,
                    last,
                    ..Default::default()
                };
                let clips = files::export_animation(&mut self.doc.stage, &path, &options)?;
                let keys: usize = clips.iter().map(|c| c.keys_after()).sum();
                let worst = clips.iter().map(|c| c.max_error).fold(0.0, f64::max);
                self.message = Some(format!(
                    "exported {} clips ({keys} keys, within {:.2} mm) to {}",
                    clips.len(),
                    worst * 1e3,
                    path.display()
                ));
            }
            C::Save { path } => {
                self.finish_pending();
                let path = path
                    .or_else(|| self.doc.path.clone())
                    .ok_or_else(|| EditorError::Invalid("no file name to save to".into()))?;
                files::save(&mut self.doc, &path)?;
                let _ = files::add_recent(&path);
                self.message = Some(format!("saved {}", path.display()));
            }
            C::Open { path } => {
                let (doc, warnings) = files::open(&path)?;
                let viewport = self.viewport;
                *self = EditorState::new(doc);
                self.viewport = viewport;
                if files::autosave_path().is_some_and(|a| a == path) {
                    // A recovered autosave is unsaved work, not a file of its own.
                    self.doc.path = None;
                    self.doc.dirty = true;
                } else {
                    let _ = files::add_recent(&path);
                }
                self.message = Some(if warnings.is_empty() {
                    format!("opened {}", path.display())
                } else {
                    warnings.join("; ")
                });
            }
        }
        Ok(())
    }

    /// Ends a drag (committing it) or an open edit group.
    pub(super) fn finish_pending(&mut self) {
        if self.drag.is_some() {
            let _ = self.apply_inner(EditorCommand::EndDrag);
        }
        let _ = self.apply_inner(EditorCommand::EndGroup);
    }

    fn frame_selection(&mut self) {
        let h = self.doc.stage.actor.height;
        match self
            .selection
            .and_then(|s| pick::handle_position(&self.doc.stage, s))
        {
            Some(p) => self.camera.frame(p, 0.15 * h),
            None => self
                .camera
                .frame(DVec3::new(0.0, 0.5 * h, 0.3 * h), 0.6 * h),
        }
    }

    fn apply_pole_proposal(&mut self) -> Result<(), EditorError> {
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
                if p.cost_after < p.cost_before {
                    *snap.inputs.calibration.poles.get_mut(side) =
                        PoleKeys::constant(p.proposed_in_actor);
                }
            }
        })?;
        let f = |side| {
            let p = proposals.get(side);
            format!(
                "{} flips {} → {}",
                side_name(side),
                p.flips_before,
                p.flips_after
            )
        };
        self.message = Some(format!(
            "pole search: {}, {}",
            f(crate::rig::Side::Left),
            f(crate::rig::Side::Right)
        ));
        Ok(())
    }

    fn fit_to_character(&mut self) -> Result<(), EditorError> {
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
        self.message = Some(format!(
            "fit to character: reached left {:.1}%, right {:.1}% of {} samples, {} flip(s)",
            100.0 * report.reached_fraction.left,
            100.0 * report.reached_fraction.right,
            report.samples,
            report.flips
        ));
        Ok(())
    }

    fn apply_preset_to_character(&mut self, path: &std::path::Path) -> Result<(), EditorError> {
        let preset = crate::preset::io::load_preset(path).map_err(FileError::from)?;
        let (source, _) = crate::preset::io::load_stage(path, &preset).map_err(FileError::from)?;
        let s = &self.doc.stage;
        let (mapped, settings, report) = retarget(
            &source.actor,
            &source.inputs.calibration,
            &source.inputs.settings,
            &s.actor,
        );
        let threads = crate::fishing::default_threads();
        let (calib, fit) = refine(
            &s.actor,
            &settings,
            &s.inputs.state.params,
            mapped,
            false,
            FIT_SAMPLES,
            threads,
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
        self.message = Some(message);
        Ok(())
    }

    /// The grip each hand holds now (for the calibration panel).
    pub fn held_kind(&self, side: crate::rig::Side) -> Option<GripKind> {
        pick::held_grip(&self.doc.stage, side).map(|g| g.0)
    }

    /// Window title: dirty marker and file name.
    pub fn title(&self) -> String {
        self.doc.title()
    }
}

fn side_name(side: crate::rig::Side) -> &'static str {
    side.name()
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
