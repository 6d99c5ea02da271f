//! The drag commands of [`Edits`]: pick and begin, move, constrain (axis, plane, snapping,
//! a typed number), end as one undo step or cancel back to the start exactly. The view
//! gives the camera and the gizmo's mode; a press selects what it grabs.

use super::Edits;
use crate::editor::command::DragCommand as C;
use crate::editor::drag::Drag;
use crate::editor::error::EditorError;
use crate::editor::handles::{GizmoPart, GizmoSpace, Handle};
use crate::editor::pick::{self, Hit};
use crate::editor::view_state::ViewState;

impl Edits {
    /// Applies one drag command (see [`C`]) seen through `view`.
    pub(in crate::editor) fn drag_command(
        &mut self,
        cmd: C,
        view: &mut ViewState,
    ) -> Result<(), EditorError> {
        match cmd {
            C::PointerDown { x, y } => {
                let camera = view.render_camera();
                let hit = pick::pick_at(&self.doc.stage, view, &camera, [x, y]);
                view.select(hit.map(Hit::handle));
                if let Some(hit) = hit {
                    self.begin_drag(hit.handle(), [x, y], view)?;
                }
                // A gizmo arrow or ring constrains to its axis, a square to its plane.
                match hit {
                    Some(Hit::Gizmo(_, GizmoPart::Arrow(a) | GizmoPart::Ring(a))) => {
                        self.drag_command(C::SetDragAxis { axis: Some(a) }, view)?
                    }
                    Some(Hit::Gizmo(_, GizmoPart::Plane(n))) => {
                        self.drag_command(C::SetDragPlane { normal: Some(n) }, view)?
                    }
                    _ => {}
                }
            }
            C::BeginDrag { handle, x, y } => {
                view.select(Some(handle));
                self.begin_drag(handle, [x, y], view)?;
            }
            C::DragTo { x, y } => {
                if let Some(drag) = &mut self.drag {
                    drag.pixel = [x, y];
                }
                self.update_drag(view)?;
            }
            C::SetDragAxis { axis } => {
                if let Some(drag) = &mut self.drag {
                    drag.axis = axis;
                    if axis.is_some() {
                        drag.plane = None;
                    }
                }
                self.update_drag(view)?;
            }
            C::SetSnap { on } => {
                if let Some(drag) = &mut self.drag {
                    drag.snap = on;
                }
                self.update_drag(view)?;
            }
            C::EndDrag => self.end_drag(),
            C::CancelDrag => {
                if let Some(drag) = self.drag.take() {
                    self.doc.restore(&drag.before);
                    self.invalidate_timeline();
                }
            }
            C::SetDragPlane { normal } => {
                if let Some(drag) = &mut self.drag {
                    drag.plane = normal;
                    drag.axis = None;
                }
                self.update_drag(view)?;
            }
            C::SetDragNumber { value } => {
                if let Some(drag) = &mut self.drag {
                    drag.typed = value.filter(|v| v.is_finite());
                }
                self.update_drag(view)?;
            }
        }
        Ok(())
    }

    fn begin_drag(
        &mut self,
        handle: Handle,
        pixel: [f64; 2],
        view: &ViewState,
    ) -> Result<(), EditorError> {
        self.finish_pending();
        let before = self.doc.snapshot();
        let rotate = view.rotates(handle);
        let mut drag =
            Drag::begin(&self.doc.stage, before, handle, pixel, rotate).ok_or_else(|| {
                EditorError::Invalid(format!("{} cannot be dragged now", handle.label()))
            })?;
        drag.per_phase_pole = self.per_phase_poles;
        drag.local = view.gizmo_space() == GizmoSpace::Local;
        self.drag = Some(drag);
        Ok(())
    }

    fn update_drag(&mut self, view: &ViewState) -> Result<(), EditorError> {
        let Some(drag) = &self.drag else {
            return Ok(());
        };
        let camera = view.render_camera();
        let after = drag.apply(&self.doc.stage, &camera);
        let before = drag.before.clone();
        if let Err(e) = self.set_live(&after) {
            // Back to the start pose while the mouse is somewhere unsolvable.
            let _ = self.set_live(&before);
            return Err(e);
        }
        self.invalidate_timeline();
        Ok(())
    }
}
