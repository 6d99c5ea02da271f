//! The window's layout and input: menu bar, tool bar with view toggles, outliner on the left,
//! inspectors on the right, status bar, the 3D viewport in the middle (mouse: pick / drag /
//! orbit / pan / zoom; keys: X Y Z Shift Esc F, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, Ctrl+S,
//! Ctrl+O), and the modal dialogs (unsaved changes, autosave recovery, screenshot).

use super::camera::ViewPreset;
use super::command::EditorCommand as C;
use super::gizmo::pick_axis_handle;
use super::pick::Axis;
use super::ui::{self, Commands};
use super::{EditorState, files};
use egui::{Color32, Key, RichText, Sense};
use std::path::PathBuf;

/// A modal question.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    ConfirmQuit,
    /// Open this file after confirming that unsaved work may be discarded.
    ConfirmOpen(PathBuf),
    /// An autosave from a session that did not exit cleanly.
    Recover(PathBuf),
    Screenshot,
    /// File → Export animation…: rate and phase range, then the save dialog.
    ExportAnimation,
    /// A glTF file was dropped: use it as the rod, net or seat, or open it as the character.
    DroppedModel {
        path: PathBuf,
        guess: String,
    },
    /// A file could not be opened (e.g. not a humanoid); the message says why.
    Error {
        title: String,
        message: String,
    },
}

/// What the viewport's mouse drag is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum PointerMode {
    Handle,
    Orbit,
    Pan,
}

/// UI state that is not part of the editor (layout, dialogs, requests for the app).
#[derive(Debug)]
pub struct UiState {
    pub dialog: Option<Dialog>,
    /// The viewport's size in physical pixels as laid out this frame.
    pub viewport_pixels: [u32; 2],
    /// The viewport's origin and size in the window, physical pixels.
    pub viewport_origin_pixels: [u32; 4],
    pub screenshot_request: Option<(PathBuf, [u32; 2], bool)>,
    pub quit_confirmed: bool,
    shot_size: [u32; 2],
    shot_overlays: bool,
    export_form: ui::ExportForm,
    pointer: Option<PointerMode>,
    recent: Vec<PathBuf>,
    pending_open: Option<PathBuf>,
}

impl Default for UiState {
    fn default() -> Self {
        Self {
            dialog: None,
            viewport_pixels: [0, 0],
            viewport_origin_pixels: [0; 4],
            screenshot_request: None,
            quit_confirmed: false,
            shot_size: [1920, 1080],
            shot_overlays: true,
            export_form: ui::ExportForm::default(),
            pointer: None,
            recent: files::recent_files(),
            pending_open: None,
        }
    }
}

/// Dark theme with slightly larger text; readable over the 3D view.
pub fn style(ctx: &egui::Context) {
    ctx.set_visuals(egui::Visuals::dark());
    ctx.global_style_mut(|s| {
        s.spacing.item_spacing = egui::vec2(6.0, 5.0);
        s.visuals.panel_fill = Color32::from_gray(30);
    });
}

impl UiState {
    /// A file dropped on the window: a preset opens (asking first when dirty); a glTF model
    /// asks whether it is the character, the rod, the net or the seat.
    pub fn dropped(&mut self, ed: &EditorState, path: PathBuf) {
        if files::extension(&path) == "json" {
            self.request_open(ed, path);
        } else {
            let guess = files::describe_model(&path);
            self.dialog = Some(Dialog::DroppedModel { path, guess });
        }
    }

    /// Asks before replacing a dirty document.
    pub fn request_open(&mut self, ed: &EditorState, path: PathBuf) {
        self.dialog = Some(Dialog::ConfirmOpen(path.clone()));
        if !ed.doc.dirty {
            self.dialog = None;
            self.open_now(path);
        }
    }

    fn open_now(&mut self, path: PathBuf) {
        self.pending_open = Some(path);
    }

    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        ed: &mut EditorState,
        viewport: Option<egui::TextureId>,
        out: &mut Commands,
    ) {
        if let Some(path) = self.pending_open.take() {
            out.push(C::Open { path: path.clone() });
            self.recent = files::recent_files();
        }
        self.shortcuts(ui.ctx(), ed, out);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, ed, out));
        egui::Panel::bottom("status").show(ui, |ui| status_bar(ui, ed));
        egui::Panel::left("outliner")
            .default_size(230.0)
            .resizable(true)
            .show(ui, |ui| {
                ui.heading("Outliner");
                ui.label(RichText::new("bones · [humanoid role]").small().weak());
                ui::outliner_ui(ui, ed, out);
            });
        egui::Panel::right("inspector")
            .default_size(360.0)
            .resizable(true)
            .show(ui, |ui| ui::side_bar_ui(ui, ed, out));
        egui::CentralPanel::no_frame().show(ui, |ui| self.viewport(ui, ed, viewport, out));
        self.dialogs(ui.ctx(), ed, out);
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…  (Ctrl+O)").clicked() {
                    self.open_dialog(ed);
                }
                ui.menu_button("Open recent", |ui| {
                    if self.recent.is_empty() {
                        ui.label("(none)");
                    }
                    for p in self.recent.clone() {
                        if ui.button(p.display().to_string()).clicked() {
                            self.request_open(ed, p);
                        }
                    }
                });
                if ui.button("Apply preset to this character…").clicked()
                    && let Some(path) = rfd::FileDialog::new()
                        .add_filter("Preset", &["json"])
                        .pick_file()
                {
                    out.push(C::ApplyPresetToCharacter { path });
                }
                if ui.button("Save  (Ctrl+S)").clicked() {
                    self.save(ed, false, out);
                }
                if ui.button("Save as…  (Ctrl+Shift+S)").clicked() {
                    self.save(ed, true, out);
                }
                ui.separator();
                ui::props_menu_ui(ui, ed, out);
                ui.separator();
                if ui.button("Export animation…").clicked() {
                    self.dialog = Some(Dialog::ExportAnimation);
                }
                if ui.button("Screenshot…  (F12)").clicked() {
                    self.dialog = Some(Dialog::Screenshot);
                }
                ui.separator();
                if ui.button("Quit  (Ctrl+Q)").clicked() {
                    if ed.doc.dirty {
                        self.dialog = Some(Dialog::ConfirmQuit);
                    } else {
                        self.quit_confirmed = true;
                    }
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(ed.history.can_undo(), egui::Button::new("Undo  (Ctrl+Z)"))
                    .clicked()
                {
                    out.push(C::Undo);
                }
                if ui
                    .add_enabled(
                        ed.history.can_redo(),
                        egui::Button::new("Redo  (Ctrl+Shift+Z)"),
                    )
                    .clicked()
                {
                    out.push(C::Redo);
                }
            });
            ui.menu_button("View", |ui| {
                for (label, v) in [
                    ("Front  (1)", ViewPreset::Front),
                    ("Side  (3)", ViewPreset::Side),
                    ("Top  (7)", ViewPreset::Top),
                    ("Three-quarter  (0)", ViewPreset::ThreeQuarter),
                ] {
                    if ui.button(label).clicked() {
                        out.push(C::SetView { view: v });
                    }
                }
                let mut ortho = ed.camera.orthographic;
                if ui.checkbox(&mut ortho, "Orthographic  (5)").changed() {
                    out.push(C::SetOrthographic { on: ortho });
                }
                if ui.button("Frame selection  (F)").clicked() {
                    out.push(C::FrameSelection);
                }
            });
            ui.separator();
            ui::toggles_ui(ui, ed, out);
        });
    }

    fn open_dialog(&mut self, ed: &EditorState) {
        let file = rfd::FileDialog::new()
            .add_filter("Preset or character", &["json", "glb", "gltf"])
            .pick_file();
        if let Some(path) = file {
            self.request_open(ed, path);
        }
    }

    fn save(&mut self, ed: &EditorState, save_as: bool, out: &mut Commands) {
        let path = match (&ed.doc.path, save_as) {
            (Some(p), false) => Some(p.clone()),
            _ => rfd::FileDialog::new()
                .add_filter("Preset", &["json"])
                .set_file_name("pose.json")
                .save_file(),
        };
        if let Some(path) = path {
            // The app removes the autosave once the save has succeeded.
            out.push(C::Save { path: Some(path) });
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context, ed: &EditorState, out: &mut Commands) {
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
        if let Some(drag) = &ed.drag
            && drag.snap != held.shift
        {
            out.push(C::SetSnap { on: held.shift });
        }
        for (key, mods) in pressed {
            let ctrl = mods.command;
            match key {
                Key::Z if ctrl && mods.shift => out.push(C::Redo),
                Key::Z if ctrl => out.push(C::Undo),
                Key::Y if ctrl => out.push(C::Redo),
                Key::S if ctrl => self.save(ed, mods.shift, out),
                Key::O if ctrl => self.open_dialog(ed),
                Key::Q if ctrl => {
                    if ed.doc.dirty {
                        self.dialog = Some(Dialog::ConfirmQuit);
                    } else {
                        self.quit_confirmed = true;
                    }
                }
                Key::X | Key::Y | Key::Z if ed.drag.is_some() => {
                    let axis = match key {
                        Key::X => Axis::X,
                        Key::Y => Axis::Y,
                        _ => Axis::Z,
                    };
                    let current = ed.drag.as_ref().and_then(|d| d.axis);
                    let axis = (current != Some(axis)).then_some(axis);
                    out.push(C::SetDragAxis { axis });
                }
                Key::Escape if ed.drag.is_some() => {
                    out.push(C::CancelDrag);
                    self.pointer = None;
                }
                Key::Escape => out.push(C::Select { handle: None }),
                Key::F => out.push(C::FrameSelection),
                Key::Num1 => out.push(C::SetView {
                    view: ViewPreset::Front,
                }),
                Key::Num3 => out.push(C::SetView {
                    view: ViewPreset::Side,
                }),
                Key::Num7 => out.push(C::SetView {
                    view: ViewPreset::Top,
                }),
                Key::Num0 => out.push(C::SetView {
                    view: ViewPreset::ThreeQuarter,
                }),
                Key::Num5 => out.push(C::SetOrthographic {
                    on: !ed.camera.orthographic,
                }),
                Key::Space => out.push(C::Play { on: !ed.playing }),
                Key::F12 => self.dialog = Some(Dialog::Screenshot),
                _ => {}
            }
        }
    }

    fn viewport(
        &mut self,
        ui: &mut egui::Ui,
        ed: &EditorState,
        texture: Option<egui::TextureId>,
        out: &mut Commands,
    ) {
        let rect = ui.available_rect_before_wrap();
        let ppp = ui.ctx().pixels_per_point();
        self.viewport_pixels = [
            (rect.width() * ppp).round().max(1.0) as u32,
            (rect.height() * ppp).round().max(1.0) as u32,
        ];
        self.viewport_origin_pixels = [
            (rect.min.x * ppp).round().max(0.0) as u32,
            (rect.min.y * ppp).round().max(0.0) as u32,
            self.viewport_pixels[0],
            self.viewport_pixels[1],
        ];
        let response = ui.allocate_rect(rect, Sense::click_and_drag());
        if let Some(id) = texture {
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            ui.painter().image(id, rect, uv, Color32::WHITE);
        }
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
        if response.drag_started() {
            let origin = press.unwrap_or_default();
            let px = to_px(origin);
            self.pointer = Some(
                if middle || secondary || (primary && shift && ed.selection.is_none()) {
                    PointerMode::Pan
                } else {
                    let camera = ed.render_camera();
                    if let Some(axis) = pick_axis_handle(ed, &camera, px) {
                        let handle = ed
                            .selection
                            .expect("an axis handle belongs to the selection");
                        out.push(C::BeginDrag {
                            handle,
                            x: px[0],
                            y: px[1],
                        });
                        out.push(C::SetDragAxis { axis: Some(axis) });
                        PointerMode::Handle
                    } else if let Some(handle) = super::pick::pick(
                        &ed.doc.stage,
                        &ed.view,
                        &camera,
                        [px[0] as f32, px[1] as f32],
                    ) {
                        out.push(C::BeginDrag {
                            handle,
                            x: px[0],
                            y: px[1],
                        });
                        PointerMode::Handle
                    } else {
                        // Nothing under the mouse: the drag orbits (never fights a handle).
                        PointerMode::Orbit
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
                        out.push(C::DragTo { x, y });
                    }
                }
                Some(PointerMode::Orbit) => {
                    out.push(C::Orbit {
                        dx: f64::from(delta.x),
                        dy: f64::from(delta.y),
                    });
                }
                Some(PointerMode::Pan) => out.push(C::Pan {
                    dx: f64::from(delta.x),
                    dy: f64::from(delta.y),
                }),
                None => {}
            }
        }
        if response.drag_stopped() {
            if self.pointer == Some(PointerMode::Handle) {
                out.push(C::EndDrag);
            }
            self.pointer = None;
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let [x, y] = to_px(p);
            out.push(C::PointerDown { x, y });
            out.push(C::EndDrag);
        }
        if response.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            if scroll != 0.0 {
                out.push(C::Zoom {
                    steps: f64::from(scroll) / 50.0,
                });
            }
            if zoom != 1.0 {
                out.push(C::Zoom {
                    steps: f64::from(zoom.ln()) / 0.105,
                });
            }
        }
        // Hint in the corner.
        let hint = match (&ed.drag, ed.selection) {
            (Some(d), _) => format!(
                "dragging {} · X/Y/Z constrain{} · Shift snaps · Esc cancels",
                d.handle.label(),
                d.axis.map(|a| format!(" ({a:?})")).unwrap_or_default()
            ),
            (None, Some(h)) => format!("{} selected · drag it, or its axis arrows · F frames it", h.label()),
            (None, None) => "click a sphere, grip or the rod · drag empty space to orbit, right/middle to pan, wheel to zoom".into(),
        };
        label(
            ui.painter(),
            rect.left_bottom() + egui::vec2(10.0, -10.0),
            egui::Align2::LEFT_BOTTOM,
            hint,
        );
        let projection = if ed.camera.orthographic {
            "orthographic"
        } else {
            "perspective"
        };
        label(
            ui.painter(),
            rect.left_top() + egui::vec2(10.0, 8.0),
            egui::Align2::LEFT_TOP,
            format!("{projection} · {}", ed.doc.stage.state.phase.name()),
        );
    }

    fn dialogs(&mut self, ctx: &egui::Context, ed: &EditorState, out: &mut Commands) {
        let Some(dialog) = self.dialog.clone() else {
            return;
        };
        let window = |title: &str| {
            egui::Window::new(title)
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        };
        match dialog {
            Dialog::ConfirmQuit | Dialog::ConfirmOpen(_) => {
                window("Unsaved changes").show(ctx, |ui| {
                    ui.label(format!("{} has unsaved changes.", ed.title()));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            self.save(ed, false, out);
                            self.dialog = None;
                        }
                        if ui.button("Discard").clicked() {
                            self.dialog = None;
                            match &dialog {
                                Dialog::ConfirmOpen(p) => self.open_now(p.clone()),
                                _ => self.quit_confirmed = true,
                            }
                        }
                        if ui.button("Cancel").clicked() {
                            self.dialog = None;
                        }
                    });
                });
            }
            Dialog::DroppedModel { path, guess } => {
                let mut open = None;
                if ui::dropped_model_ui(ctx, &path, &guess, out, &mut open) {
                    self.dialog = None;
                }
                if let Some(p) = open {
                    self.request_open(ed, p);
                }
            }
            Dialog::Error { title, message } => {
                window(&title).show(ctx, |ui| {
                    ui.set_max_width(520.0);
                    ui.label(message.as_str());
                    if ui.button("OK").clicked() {
                        self.dialog = None;
                    }
                });
            }
            Dialog::Recover(path) => {
                window("Recover unsaved work?").show(ctx, |ui| {
                    ui.label("The editor did not exit cleanly last time. An autosave exists:");
                    ui.monospace(path.display().to_string());
                    ui.horizontal(|ui| {
                        if ui.button("Recover").clicked() {
                            self.open_now(path.clone());
                            self.dialog = None;
                        }
                        if ui.button("Discard").clicked() {
                            files::clear_autosave();
                            self.dialog = None;
                        }
                    });
                });
            }
            Dialog::ExportAnimation => {
                window("Export animation").show(ctx, |ui| {
                    let pick = || {
                        rfd::FileDialog::new()
                            .add_filter("glTF binary", &["glb"])
                            .set_file_name("session.glb")
                            .save_file()
                    };
                    match ui::export_animation_ui(ui, &mut self.export_form, pick) {
                        ui::ExportChoice::Stay => {}
                        ui::ExportChoice::Cancel => self.dialog = None,
                        ui::ExportChoice::Export(cmd) => {
                            out.push(cmd);
                            self.dialog = None;
                        }
                    }
                });
            }
            Dialog::Screenshot => {
                window("Screenshot").show(ctx, |ui| {
                    ui.horizontal(|ui| {
                        ui.add(
                            egui::DragValue::new(&mut self.shot_size[0])
                                .range(16..=8192)
                                .suffix(" px"),
                        );
                        ui.label("×");
                        ui.add(
                            egui::DragValue::new(&mut self.shot_size[1])
                                .range(16..=8192)
                                .suffix(" px"),
                        );
                    });
                    ui.checkbox(&mut self.shot_overlays, "overlays and gizmos");
                    ui.horizontal(|ui| {
                        let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                        if ui.button("Save PNG…  (Enter)").clicked() || enter {
                            if let Some(path) = rfd::FileDialog::new()
                                .add_filter("PNG", &["png"])
                                .set_file_name("anglerpose.png")
                                .save_file()
                            {
                                self.screenshot_request =
                                    Some((path, self.shot_size, self.shot_overlays));
                            }
                            self.dialog = None;
                        }
                        if ui.button("Cancel").clicked() {
                            self.dialog = None;
                        }
                    });
                });
            }
        }
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

fn status_bar(ui: &mut egui::Ui, ed: &EditorState) {
    ui.horizontal(|ui| {
        let dirty = if ed.doc.dirty {
            "● modified"
        } else {
            "saved"
        };
        ui.label(RichText::new(dirty).color(if ed.doc.dirty {
            Color32::from_rgb(255, 190, 90)
        } else {
            Color32::from_gray(170)
        }));
        ui.separator();
        ui.label(format!("undo {}", ed.history.undo_len()));
        ui.separator();
        if let Some(m) = &ed.message {
            ui.label(m);
        }
    });
}
