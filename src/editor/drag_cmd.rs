//! The drag commands of [`EditorState`]: pick and begin, move, constrain (axis, plane,
//! snapping, a typed number), end as one undo step or cancel back to the start exactly.

use super::command::DragCommand as C;
use super::drag::Drag;
use super::handles::{GizmoPart, GizmoSpace, Handle};
use super::pick::{self, Hit};
use super::state::{EditorError, EditorState};

impl EditorState {
    /// Applies one drag command (see [`C`]).
    pub(super) fn drag_command(&mut self, cmd: C) -> Result<(), EditorError> {
        match cmd {
            C::PointerDown { x, y } => {
                let camera = self.render_camera();
                let hit = pick::pick_at(self, &camera, [x, y]);
                self.selection = hit.map(Hit::handle);
                if let Some(hit) = hit {
                    self.begin_drag(hit.handle(), [x, y])?;
                }
                // A gizmo arrow or ring constrains to its axis, a square to its plane.
                match hit {
                    Some(Hit::Gizmo(_, GizmoPart::Arrow(a) | GizmoPart::Ring(a))) => {
                        self.drag_command(C::SetDragAxis { axis: Some(a) })?
                    }
                    Some(Hit::Gizmo(_, GizmoPart::Plane(n))) => {
                        self.drag_command(C::SetDragPlane { normal: Some(n) })?
                    }
                    _ => {}
                }
            }
            C::BeginDrag { handle, x, y } => {
                self.selection = Some(handle);
                self.begin_drag(handle, [x, y])?;
            }
            C::DragTo { x, y } => {
                if let Some(drag) = &mut self.drag {
                    drag.pixel = [x, y];
                }
                self.update_drag()?;
            }
            C::SetDragAxis { axis } => {
                if let Some(drag) = &mut self.drag {
                    drag.axis = axis;
                    if axis.is_some() {
                        drag.plane = None;
                    }
                }
                self.update_drag()?;
            }
            C::SetSnap { on } => {
                if let Some(drag) = &mut self.drag {
                    drag.snap = on;
                }
                self.update_drag()?;
            }
            C::EndDrag => {
                if let Some(drag) = self.drag.take() {
                    let now = self.doc.snapshot();
                    if now != drag.before {
                        self.history.push(drag.before);
                        self.doc.dirty = true;
                        self.invalidate_timeline();
                    }
                }
            }
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
                self.update_drag()?;
            }
            C::SetDragNumber { value } => {
                if let Some(drag) = &mut self.drag {
                    drag.typed = value.filter(|v| v.is_finite());
                }
                self.update_drag()?;
            }
        }
        Ok(())
    }

    pub(super) fn begin_drag(
        &mut self,
        handle: Handle,
        pixel: [f64; 2],
    ) -> Result<(), EditorError> {
        self.finish_pending();
        let before = self.doc.snapshot();
        let rotate = self.rotates(handle);
        let mut drag =
            Drag::begin(&self.doc.stage, before, handle, pixel, rotate).ok_or_else(|| {
                EditorError::Invalid(format!("{} cannot be dragged now", handle.label()))
            })?;
        drag.per_phase_pole = self.per_phase_poles;
        drag.local = self.gizmo_space == GizmoSpace::Local;
        self.drag = Some(drag);
        Ok(())
    }

    fn update_drag(&mut self) -> Result<(), EditorError> {
        let Some(drag) = &self.drag else {
            return Ok(());
        };
        let camera = self.render_camera();
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
