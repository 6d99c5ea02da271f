//! The view commands of [`EditorState`]: selection, gizmo mode and space, camera and view
//! toggles. None of them touches the document.

use super::command::{ViewCommand, ViewToggle};
use super::handles;
use super::state::EditorState;
use glam::DVec3;

impl EditorState {
    /// Applies one view command (see [`ViewCommand`]).
    pub(super) fn view_command(&mut self, cmd: ViewCommand) {
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
            C::FrameSelection => self.frame_selection(),
            C::SetViewport { width, height } => self.viewport = [width.max(1), height.max(1)],
            C::SetMarginThreshold { metres } => {
                if metres.is_finite() {
                    self.margin_threshold = metres.clamp(0.0, crate::fishing::MARGIN_REACH);
                }
            }
            C::SetSliceFacing { facing } => self.view.overlays.slice_facing = facing,
            C::Toggle { what, on } => {
                let o = &mut self.view.overlays;
                match what {
                    ViewToggle::Spheres => o.spheres = on,
                    ViewToggle::BoneLines => o.bone_lines = on,
                    ViewToggle::LimitArcs => o.limit_arcs = on,
                    ViewToggle::PoleAndPlane => o.pole_and_plane = on,
                    ViewToggle::Contacts => o.contacts = on,
                    ViewToggle::Stability => o.stability = on,
                    ViewToggle::Mesh => self.view.mesh_visible = on,
                    ViewToggle::Grid => self.view.grid = on,
                    ViewToggle::Water => self.view.water = on,
                    ViewToggle::Line => self.view.line = on,
                    ViewToggle::GripMarkers => self.grip_markers = on,
                    ViewToggle::Xray => self.view.xray = on,
                }
            }
        }
    }

    fn frame_selection(&mut self) {
        let h = self.doc.stage.actor.height;
        match self
            .selection
            .and_then(|s| handles::handle_position(&self.doc.stage, s))
        {
            Some(p) => self.camera.frame(p, 0.15 * h),
            None => self
                .camera
                .frame(DVec3::new(0.0, 0.5 * h, 0.3 * h), 0.6 * h),
        }
    }
}
