//! [`ViewState`]: how the editor looks at the document — the selection, the gizmo's mode,
//! space and hovered part, the camera and viewport, the view and overlay toggles, the margin
//! lane's threshold — and the view commands that change it. None of it touches the document.

use super::camera::OrbitCamera;
use super::command::{ViewCommand, ViewToggle};
use super::handles::{self, GizmoMode, GizmoPart, GizmoSpace, Handle};
use crate::stage::{Stage, ViewOptions};
use glam::DVec3;

/// The margin lane's threshold at start, metres: below it an instant is marked like a flip.
pub const MARGIN_THRESHOLD: f64 = 0.02;

/// The editor's view of the document (see the module docs).
#[derive(Clone, Debug)]
pub struct ViewState {
    selection: Option<Handle>,
    options: ViewOptions,
    /// Small markers at the grips each hand holds.
    grip_markers: bool,
    camera: OrbitCamera,
    /// The 3D viewport's size in physical pixels (picking and drags use it).
    viewport: [u32; 2],
    /// Instants whose margin is below this are marked in the margin lane, metres.
    margin_threshold: f64,
    /// W / E: the gizmo moves or rotates the selection (`None`: grips and the rod rotate,
    /// the rest move).
    gizmo_mode: Option<GizmoMode>,
    /// Q: gizmo axes in the world or in the selection's own frame.
    gizmo_space: GizmoSpace,
    /// The gizmo part under the mouse (drawn highlighted).
    hover: Option<GizmoPart>,
}

impl ViewState {
    /// The view at start for `stage`: the whole character framed, nothing selected.
    pub fn new(stage: &Stage) -> Self {
        let mut camera = OrbitCamera::default();
        let h = stage.actor.height;
        camera.frame(DVec3::new(0.0, 0.5 * h, 0.3 * h), 0.6 * h);
        Self {
            selection: None,
            options: ViewOptions::default(),
            grip_markers: true,
            camera,
            viewport: [1280, 720],
            margin_threshold: MARGIN_THRESHOLD,
            gizmo_mode: None,
            gizmo_space: GizmoSpace::World,
            hover: None,
        }
    }

    /// The selected handle.
    pub fn selection(&self) -> Option<Handle> {
        self.selection
    }

    /// The view and overlay toggles.
    pub fn options(&self) -> &ViewOptions {
        &self.options
    }

    /// Whether the grips each hand holds are marked.
    pub fn grip_markers(&self) -> bool {
        self.grip_markers
    }

    /// The orbit camera.
    pub fn camera(&self) -> &OrbitCamera {
        &self.camera
    }

    /// The 3D viewport's size in physical pixels.
    pub fn viewport(&self) -> [u32; 2] {
        self.viewport
    }

    /// The margin lane's threshold, metres.
    pub fn margin_threshold(&self) -> f64 {
        self.margin_threshold
    }

    /// The gizmo's mode (`None`: by handle).
    pub fn gizmo_mode(&self) -> Option<GizmoMode> {
        self.gizmo_mode
    }

    /// The gizmo's axes: world or local.
    pub fn gizmo_space(&self) -> GizmoSpace {
        self.gizmo_space
    }

    /// The gizmo part under the mouse.
    pub fn hover(&self) -> Option<GizmoPart> {
        self.hover
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

    /// Selects `handle` (a press on it, or on empty space for `None`).
    pub(super) fn select(&mut self, handle: Option<Handle>) {
        self.selection = handle;
    }

    /// Applies one view command (see [`ViewCommand`]); `stage` is what framing looks at.
    pub(super) fn apply(&mut self, cmd: ViewCommand, stage: &Stage) {
        use ViewCommand as C;
        match cmd {
            C::Select { handle } => self.selection = handle,
            C::SetGizmoMode { mode } => self.gizmo_mode = mode,
            C::SetGizmoSpace { space } => self.gizmo_space = space,
            C::SetHover { part } => self.hover = part,
            C::SetView { view } => self.camera.set_view(view),
            C::SetOrthographic { on } => self.camera.orthographic = on,
            C::Orbit { dx, dy } => self.camera.orbit(dx, dy),
            C::Pan { dx, dy } => self.camera.pan(dx, dy, f64::from(self.viewport[1])),
            C::Zoom { steps } => self.camera.zoom(steps),
            C::FrameSelection => self.frame_selection(stage),
            C::SetViewport { width, height } => self.viewport = [width.max(1), height.max(1)],
            C::SetMarginThreshold { metres } => {
                if metres.is_finite() {
                    self.margin_threshold = metres.clamp(0.0, crate::fishing::MARGIN_REACH);
                }
            }
            C::SetSliceFacing { facing } => self.options.overlays.slice_facing = facing,
            C::Toggle { what, on } => {
                let o = &mut self.options.overlays;
                match what {
                    ViewToggle::Spheres => o.spheres = on,
                    ViewToggle::BoneLines => o.bone_lines = on,
                    ViewToggle::LimitArcs => o.limit_arcs = on,
                    ViewToggle::PoleAndPlane => o.pole_and_plane = on,
                    ViewToggle::Contacts => o.contacts = on,
                    ViewToggle::Stability => o.stability = on,
                    ViewToggle::Mesh => self.options.mesh_visible = on,
                    ViewToggle::Grid => self.options.grid = on,
                    ViewToggle::Water => self.options.water = on,
                    ViewToggle::Line => self.options.line = on,
                    ViewToggle::GripMarkers => self.grip_markers = on,
                    ViewToggle::Xray => self.options.xray = on,
                }
            }
        }
    }

    fn frame_selection(&mut self, stage: &Stage) {
        let h = stage.actor.height;
        match self
            .selection
            .and_then(|s| handles::handle_position(stage, s))
        {
            Some(p) => self.camera.frame(p, 0.15 * h),
            None => self
                .camera
                .frame(DVec3::new(0.0, 0.5 * h, 0.3 * h), 0.6 * h),
        }
    }
}
