//! The editor window's keyboard and viewport input: shortcuts, the gizmo (W move, E rotate,
//! Q world / local; hover highlight; grab an arrow, plane square or ring; type a number while
//! dragging for the exact value, Enter to finish), picking and camera drags, and the hints
//! drawn over the viewport.

use super::{Dialog, InPlaceViewport, PointerMode, UiState, ViewportImage};
use crate::editor::EditorState;
use crate::editor::camera::ViewPreset;
use crate::editor::command::{DocumentCommand, DragCommand, PlaybackCommand, ViewCommand};
use crate::editor::handles::{Axis, GizmoMode, GizmoSpace};
use crate::editor::pick::{Hit, pick_at, pick_gizmo};
use crate::editor::ui::Commands;
use egui::{Color32, Key, Sense};

impl UiState {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context, ed: &EditorState, out: &mut Commands) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // Each key carries the modifiers held when it was pressed (a slow frame may see the
        // whole Ctrl+S press-and-release at once).
        let (pressed, held) = ctx.input(|i| {
            let keys: Vec<(Key, egui::Modifiers)> = i
                .events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::Key {
                        key,
                        pressed: true,
                        repeat: false,
                        modifiers,
                        ..
                    } => Some((*key, *modifiers)),
                    _ => None,
                })
                .collect();
            (keys, i.modifiers)
        });
        if let Some(drag) = ed.drag()
            && drag.snap != held.shift
        {
            out.push(DragCommand::SetSnap { on: held.shift });
        }
        if ed.drag().is_some() {
            self.typed_number(ctx, out);
        }
        for (key, mods) in pressed {
            let ctrl = mods.command;
            match key {
                Key::Enter if ed.drag().is_some() => {
                    out.push(DragCommand::EndDrag);
                    self.pointer = None;
                    self.typed.clear();
                }
                Key::W if !ctrl => out.push(ViewCommand::SetGizmoMode {
                    mode: Some(GizmoMode::Move),
                }),
                Key::E if !ctrl => out.push(ViewCommand::SetGizmoMode {
                    mode: Some(GizmoMode::Rotate),
                }),
                Key::Q if !ctrl => out.push(ViewCommand::SetGizmoSpace {
                    space: match ed.view().gizmo_space() {
                        GizmoSpace::World => GizmoSpace::Local,
                        GizmoSpace::Local => GizmoSpace::World,
                    },
                }),
                Key::Z if ctrl && mods.shift => out.push(DocumentCommand::Redo),
                Key::Z if ctrl => out.push(DocumentCommand::Undo),
                Key::Y if ctrl => out.push(DocumentCommand::Redo),
                Key::S if ctrl => self.save(ed, mods.shift, out),
                Key::O if ctrl => self.open_dialog(ed),
                Key::Q if ctrl => {
                    if ed.doc().dirty {
                        self.dialog = Some(Dialog::ConfirmQuit);
                    } else {
                        self.quit_confirmed = true;
                    }
                }
                Key::X | Key::Y | Key::Z if ed.drag().is_some() => {
                    let axis = match key {
                        Key::X => Axis::X,
                        Key::Y => Axis::Y,
                        _ => Axis::Z,
                    };
                    let current = ed.drag().and_then(|d| d.axis);
                    let axis = (current != Some(axis)).then_some(axis);
                    out.push(DragCommand::SetDragAxis { axis });
                }
                Key::Escape if ed.drag().is_some() => {
                    out.push(DragCommand::CancelDrag);
                    self.pointer = None;
                    self.typed.clear();
                }
                Key::Escape => out.push(ViewCommand::Select { handle: None }),
                Key::F => out.push(ViewCommand::FrameSelection),
                Key::Num1 if ed.drag().is_none() => out.push(ViewCommand::SetView {
                    view: ViewPreset::Front,
                }),
                Key::Num3 if ed.drag().is_none() => out.push(ViewCommand::SetView {
                    view: ViewPreset::Side,
                }),
                Key::Num7 if ed.drag().is_none() => out.push(ViewCommand::SetView {
                    view: ViewPreset::Top,
                }),
                Key::Num0 if ed.drag().is_none() => out.push(ViewCommand::SetView {
                    view: ViewPreset::ThreeQuarter,
                }),
                Key::Num5 if ed.drag().is_none() => out.push(ViewCommand::SetOrthographic {
                    on: !ed.view().camera().orthographic,
                }),
                Key::Space => out.push(PlaybackCommand::Play {
                    on: !ed.playback().playing(),
                }),
                Key::F12 => self.dialog = Some(Dialog::Screenshot),
                _ => {}
            }
        }
    }

    /// Digits, `.`, `-` and Backspace typed during a drag edit the typed number; each change
    /// sends it (or `null` when it no longer parses).
    fn typed_number(&mut self, ctx: &egui::Context, out: &mut Commands) {
        let before = self.typed.clone();
        ctx.input(|i| {
            for e in &i.events {
                match e {
                    egui::Event::Text(t) => {
                        for c in t.chars() {
                            match c {
                                '0'..='9' | '.' => self.typed.push(c),
                                '-' if self.typed.is_empty() => self.typed.push(c),
                                '-' => {
                                    // Blender: minus toggles the sign.
                                    if let Some(rest) = self.typed.strip_prefix('-') {
                                        self.typed = rest.to_string();
                                    } else {
                                        self.typed.insert(0, '-');
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    egui::Event::Key {
                        key: Key::Backspace,
                        pressed: true,
                        ..
                    } => {
                        self.typed.pop();
                    }
                    _ => {}
                }
            }
        });
        if self.typed != before {
            out.push(DragCommand::SetDragNumber {
                value: self.typed.parse::<f64>().ok(),
            });
        }
    }

    /// The hint in the viewport's corner: what a drag does now, what the selection offers,
    /// or how to start.
    fn hint(&self, ed: &EditorState) -> String {
        match (ed.drag(), ed.view().selection()) {
            (Some(d), _) => format!(
                "{} {} · X/Y/Z constrain{} · type a number{} · Enter finishes · Shift snaps · Esc cancels",
                if d.rotate { "rotating" } else { "moving" },
                d.handle.label(),
                d.axis
                    .map(|a| format!(" ({a:?}{})", if d.local { ", local" } else { "" }))
                    .unwrap_or_default(),
                if self.typed.is_empty() {
                    String::new()
                } else {
                    format!(
                        ": {} {}",
                        self.typed,
                        if d.rotate { "°" } else { "m" }
                    )
                }
            ),
            (None, Some(h)) => format!(
                "{} selected · drag it or its gizmo · W move, E rotate, Q {} axes · F frames it",
                h.label(),
                match ed.view().gizmo_space() {
                    GizmoSpace::World => "local",
                    GizmoSpace::Local => "world",
                }
            ),
            (None, None) => "click a sphere, grip or the rod · drag empty space to orbit, right/middle to pan, wheel to zoom".into(),
        }
    }

    /// Records where the viewport lies in physical pixels: its size and origin, with
    /// rounded edges, as the UI pass rounds the viewport's paint callback rectangle.
    fn place_viewport(&mut self, rect: egui::Rect, ppp: f32) {
        let px = |v: f32| (v * ppp).round();
        self.viewport_pixels = [
            (px(rect.max.x) - px(rect.min.x)).max(1.0) as u32,
            (px(rect.max.y) - px(rect.min.y)).max(1.0) as u32,
        ];
        self.viewport_origin_pixels = [
            (rect.min.x * ppp).round().max(0.0) as u32,
            (rect.min.y * ppp).round().max(0.0) as u32,
            self.viewport_pixels[0],
            self.viewport_pixels[1],
        ];
    }

    pub(super) fn viewport(
        &mut self,
        ui: &mut egui::Ui,
        ed: &EditorState,
        image: ViewportImage,
        out: &mut Commands,
    ) {
        let rect = ui.available_rect_before_wrap();
        let ppp = ui.ctx().pixels_per_point();
        self.place_viewport(rect, ppp);
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        paint_viewport(ui, rect, image);
        let to_px = |p: egui::Pos2| {
            [
                f64::from((p.x - rect.min.x) * ppp),
                f64::from((p.y - rect.min.y) * ppp),
            ]
        };
        let (press, primary, secondary, middle, shift) = ui.input(|i| {
            (
                i.pointer.press_origin(),
                i.pointer.primary_down(),
                i.pointer.secondary_down(),
                i.pointer.middle_down(),
                i.modifiers.shift,
            )
        });
        // The gizmo part under the mouse is highlighted (not while dragging: the dragged
        // part is).
        if ed.drag().is_none() {
            let hover = response.hover_pos().and_then(|p| {
                pick_gizmo(&ed.doc().stage, ed.view(), &ed.render_camera(), to_px(p))
            });
            if hover != ed.view().hover() {
                out.push(ViewCommand::SetHover { part: hover });
            }
        }
        // The stability slice's cell under the mouse, read out beside it.
        if ed.drag().is_none()
            && let Some(p) = response.hover_pos()
            && let Some(text) = ed.stability_hover(to_px(p))
        {
            label(
                ui.painter(),
                p + egui::vec2(16.0, 16.0),
                egui::Align2::LEFT_TOP,
                text,
            );
        }
        if response.drag_started() {
            let origin = press.unwrap_or_default();
            let px = to_px(origin);
            self.pointer = Some(
                if middle || secondary || (primary && shift && ed.view().selection().is_none()) {
                    PointerMode::Pan
                } else {
                    // The press is applied as `PointerDown`, which picks with the same
                    // `pick_at`: a gizmo part or a handle drags it.
                    match pick_at(&ed.doc().stage, ed.view(), &ed.render_camera(), px) {
                        Some(hit) => {
                            if matches!(hit, Hit::Gizmo(..)) {
                                self.typed.clear();
                            }
                            out.push(DragCommand::PointerDown { x: px[0], y: px[1] });
                            PointerMode::Handle
                        }
                        // Nothing under the mouse: the drag orbits (never fights a handle).
                        None => PointerMode::Orbit,
                    }
                },
            );
        }
        if response.dragged() {
            let delta = response.drag_delta() * ppp;
            match self.pointer {
                Some(PointerMode::Handle) => {
                    if let Some(p) = response.interact_pointer_pos() {
                        let [x, y] = to_px(p);
                        out.push(DragCommand::DragTo { x, y });
                    }
                }
                Some(PointerMode::Orbit) => {
                    out.push(ViewCommand::Orbit {
                        dx: f64::from(delta.x),
                        dy: f64::from(delta.y),
                    });
                }
                Some(PointerMode::Pan) => out.push(ViewCommand::Pan {
                    dx: f64::from(delta.x),
                    dy: f64::from(delta.y),
                }),
                None => {}
            }
        }
        if response.drag_stopped() {
            if self.pointer == Some(PointerMode::Handle) {
                out.push(DragCommand::EndDrag);
            }
            self.pointer = None;
            self.typed.clear();
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let [x, y] = to_px(p);
            out.push(DragCommand::PointerDown { x, y });
            out.push(DragCommand::EndDrag);
        }
        if response.hovered() {
            wheel_zoom(ui, out);
        }
        corner_labels(ui.painter(), rect, ed, self.hint(ed));
    }
}

/// Light text on a translucent dark plate, readable over the bright sky and the floor.
fn label(painter: &egui::Painter, at: egui::Pos2, align: egui::Align2, text: String) {
    let galley = painter.layout_no_wrap(
        text,
        egui::FontId::proportional(13.0),
        Color32::from_gray(235),
    );
    let rect = align.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(4.0), 4.0, Color32::from_black_alpha(150));
    painter.galley(rect.min, galley, Color32::from_gray(235));
}

/// The wheel and pinch over the viewport zoom the camera.
fn wheel_zoom(ui: &egui::Ui, out: &mut Commands) {
    let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
    if scroll != 0.0 {
        out.push(ViewCommand::Zoom {
            steps: f64::from(scroll) / 50.0,
        });
    }
    if zoom != 1.0 {
        out.push(ViewCommand::Zoom {
            steps: f64::from(zoom.ln()) / 0.105,
        });
    }
}

/// The viewport's corner labels: `hint` bottom left, the projection and phase top left.
fn corner_labels(painter: &egui::Painter, rect: egui::Rect, ed: &EditorState, hint: String) {
    label(
        painter,
        rect.left_bottom() + egui::vec2(10.0, -10.0),
        egui::Align2::LEFT_BOTTOM,
        hint,
    );
    let projection = if ed.view().camera().orthographic {
        "orthographic"
    } else {
        "perspective"
    };
    label(
        painter,
        rect.left_top() + egui::vec2(10.0, 8.0),
        egui::Align2::LEFT_TOP,
        format!(
            "{projection} · {}",
            ed.doc().stage.inputs.state.phase.name()
        ),
    );
}

/// Paints the 3D view's `image` into `rect`: a texture, or the renderer drawing in place.
fn paint_viewport(ui: &egui::Ui, rect: egui::Rect, image: ViewportImage) {
    match image {
        ViewportImage::None => {}
        ViewportImage::Texture(id) => {
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            ui.painter().image(id, rect, uv, Color32::WHITE);
        }
        ViewportImage::InPlace => {
            ui.painter().add(egui::PaintCallback {
                rect,
                callback: std::sync::Arc::new(InPlaceViewport),
            });
        }
    }
}
