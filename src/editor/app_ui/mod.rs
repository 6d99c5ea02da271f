//! The window's layout and input: menu bar, tool bar with view toggles, outliner on the left,
//! inspectors on the right, status bar, the 3D viewport in the middle (mouse: pick / drag /
//! orbit / pan / zoom; keys: X Y Z Shift Esc F, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, Ctrl+S,
//! Ctrl+O), and the modal dialogs (unsaved changes, autosave recovery, screenshot).

mod input;

use super::camera::ViewPreset;
use super::ui::{self, Commands};
use super::{EditorState, files};
use crate::editor::command::{DocumentCommand, FileCommand, ViewCommand};
use egui::{Color32, RichText};
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
pub(super) enum PointerMode {
    Handle,
    Orbit,
    Pan,
}

/// How the central panel shows the 3D view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewportImage {
    /// Not at all (no renderer yet).
    None,
    /// egui draws this texture, which the 3D view was rendered into (MSAA adapters).
    Texture(egui::TextureId),
    /// A paint callback carrying [`InPlaceViewport`]: the window's UI pass draws the 3D view
    /// straight into the window there, in egui's order (see `Gfx::draw_ui`).
    InPlace,
}

/// The marker of [`ViewportImage::InPlace`]'s paint callback.
#[derive(Clone, Copy, Debug)]
pub struct InPlaceViewport;

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
    pub(super) pointer: Option<PointerMode>,
    /// A number typed during a drag (Blender-style), as typed.
    pub(super) typed: String,
    recent: Vec<PathBuf>,
    pending_open: Option<PathBuf>,
    /// The side, top and bottom panels leave their fill to the pass's clear colour: the
    /// window sets this, clears to `visuals.panel_fill` and drops the fills with
    /// [`Self::drop_panel_fills`]. The same picture with half the window's pixels not drawn
    /// twice, which on CPU rasterisers is milliseconds a frame.
    pub panels_on_clear: bool,
    /// The panels' outer rectangles as laid out this frame (points).
    panel_rects: Vec<egui::Rect>,
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
            typed: String::new(),
            recent: files::recent_files(),
            pending_open: None,
            panels_on_clear: false,
            panel_rects: Vec::new(),
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

/// The editor's UI style on `gpu`: [`style`], and [`lean_style`] on a CPU adapter. Returns
/// whether the UI is drawn lean.
pub fn style_for_adapter(ctx: &egui::Context, gpu: &crate::render::Gpu) -> bool {
    style(ctx);
    let lean = gpu.is_cpu();
    if lean {
        lean_style(ctx);
    }
    lean
}

/// The UI drawn lean for a CPU rasteriser (lavapipe, llvmpipe, WARP), on top of [`style`]:
/// square widget corners and no anti-aliasing feather. A software rasteriser sets every
/// triangle up one by one, and a rounded, feathered widget background is ~100 triangles
/// where a square one is 2: the bundled editor's 1280×720 frame went from 9,077 to 2,867
/// triangles, and the UI's share of it on lavapipe from 3.6 to 2.3–2.4 ms (paired with the
/// 3D pass alone, `benches/editor_window.rs`). Text is unchanged (its glyphs are textures).
pub fn lean_style(ctx: &egui::Context) {
    ctx.all_styles_mut(|s| {
        let w = &mut s.visuals.widgets;
        for state in [
            &mut w.noninteractive,
            &mut w.inactive,
            &mut w.hovered,
            &mut w.active,
            &mut w.open,
        ] {
            state.corner_radius = egui::CornerRadius::ZERO;
        }
    });
    ctx.tessellation_options_mut(|o| o.feathering = false);
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
        if !ed.doc().dirty {
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
        viewport: ViewportImage,
        out: &mut Commands,
    ) {
        if let Some(path) = self.pending_open.take() {
            out.push(FileCommand::Open { path: path.clone() });
            self.recent = files::recent_files();
        }
        self.shortcuts(ui.ctx(), ed, out);
        self.panel_rects.clear();
        let top = egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, ed, out));
        self.panel_rects.push(top.response.rect);
        let bottom = egui::Panel::bottom("status").show(ui, |ui| status_bar(ui, ed));
        self.panel_rects.push(bottom.response.rect);
        let left = egui::Panel::left("outliner")
            .default_size(230.0)
            .resizable(true)
            .show(ui, |ui| {
                ui.heading("Outliner");
                ui.label(RichText::new("bones · [humanoid role]").small().weak());
                ui::outliner_ui(ui, ed, out);
            });
        self.panel_rects.push(left.response.rect);
        let right = egui::Panel::right("inspector")
            .default_size(360.0)
            .resizable(true)
            .show(ui, |ui| ui::side_bar_ui(ui, ed, out));
        self.panel_rects.push(right.response.rect);
        egui::CentralPanel::no_frame().show(ui, |ui| self.viewport(ui, ed, viewport, out));
        self.dialogs(ui.ctx(), ed, out);
    }

    /// With [`Self::panels_on_clear`]: removes from `shapes` (this frame's, as laid out by
    /// [`Self::show`]) the panels' background fills, plain rectangles of `fill` (the panel
    /// fill, which the pass clears to) inside a panel and covering most of it. They are the
    /// first thing painted where they lie, so the clear shows exactly what they would. The
    /// panels keep their frames while laid out, so what egui derives from the fill (scroll
    /// fades) is unchanged.
    pub fn drop_panel_fills(&self, shapes: &mut Vec<egui::epaint::ClippedShape>, fill: Color32) {
        if !self.panels_on_clear {
            return;
        }
        let is_panel_fill = |shape: &egui::Shape| {
            let egui::Shape::Rect(r) = shape else {
                return false;
            };
            r.fill == fill
                && r.stroke.is_empty()
                && r.fill_texture_id() == egui::TextureId::default()
                && self
                    .panel_rects
                    .iter()
                    .any(|p| p.expand(0.5).contains_rect(r.rect) && r.rect.area() >= 0.9 * p.area())
        };
        shapes.retain(|s| !is_panel_fill(&s.shape));
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
                    out.push(DocumentCommand::ApplyPresetToCharacter { path });
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
                    if ed.doc().dirty {
                        self.dialog = Some(Dialog::ConfirmQuit);
                    } else {
                        self.quit_confirmed = true;
                    }
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(ed.history().can_undo(), egui::Button::new("Undo  (Ctrl+Z)"))
                    .clicked()
                {
                    out.push(DocumentCommand::Undo);
                }
                if ui
                    .add_enabled(
                        ed.history().can_redo(),
                        egui::Button::new("Redo  (Ctrl+Shift+Z)"),
                    )
                    .clicked()
                {
                    out.push(DocumentCommand::Redo);
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
                        out.push(ViewCommand::SetView { view: v });
                    }
                }
                let mut ortho = ed.view().camera().orthographic;
                if ui.checkbox(&mut ortho, "Orthographic  (5)").changed() {
                    out.push(ViewCommand::SetOrthographic { on: ortho });
                }
                if ui.button("Frame selection  (F)").clicked() {
                    out.push(ViewCommand::FrameSelection);
                }
            });
            ui.separator();
            ui::toggles_ui(ui, ed, out);
        });
    }

    pub(super) fn open_dialog(&mut self, ed: &EditorState) {
        let file = rfd::FileDialog::new()
            .add_filter(
                "Preset or character",
                &["json", "glb", "gltf", "vrm", "fbx"],
            )
            .pick_file();
        if let Some(path) = file {
            self.request_open(ed, path);
        }
    }

    pub(super) fn save(&mut self, ed: &EditorState, save_as: bool, out: &mut Commands) {
        let path = match (&ed.doc().path, save_as) {
            (Some(p), false) => Some(p.clone()),
            _ => rfd::FileDialog::new()
                .add_filter("Preset", &["json"])
                .set_file_name("pose.json")
                .save_file(),
        };
        if let Some(path) = path {
            // The app removes the autosave once the save has succeeded.
            out.push(FileCommand::Save { path: Some(path) });
        }
    }

    fn dialogs(&mut self, ctx: &egui::Context, ed: &EditorState, out: &mut Commands) {
        let Some(dialog) = self.dialog.clone() else {
            return;
        };
        match dialog {
            Dialog::ConfirmQuit | Dialog::ConfirmOpen(_) => {
                self.unsaved_changes_dialog(ctx, ed, &dialog, out);
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
                dialog_window(&title).show(ctx, |ui| {
                    ui.set_max_width(520.0);
                    ui.label(message.as_str());
                    if ui.button("OK").clicked() {
                        self.dialog = None;
                    }
                });
            }
            Dialog::Recover(path) => {
                dialog_window("Recover unsaved work?").show(ctx, |ui| {
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
                dialog_window("Export animation").show(ctx, |ui| {
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
            Dialog::Screenshot => self.screenshot_dialog(ctx),
        }
    }

    /// Save, discard or cancel before quitting or opening another file.
    fn unsaved_changes_dialog(
        &mut self,
        ctx: &egui::Context,
        ed: &EditorState,
        dialog: &Dialog,
        out: &mut Commands,
    ) {
        dialog_window("Unsaved changes").show(ctx, |ui| {
            ui.label(format!("{} has unsaved changes.", ed.title()));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    self.save(ed, false, out);
                    self.dialog = None;
                }
                if ui.button("Discard").clicked() {
                    self.dialog = None;
                    match dialog {
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

    /// The screenshot's size and overlays, then where to save it.
    fn screenshot_dialog(&mut self, ctx: &egui::Context) {
        dialog_window("Screenshot").show(ctx, |ui| {
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
                        self.screenshot_request = Some((path, self.shot_size, self.shot_overlays));
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

/// A dialog's window: fixed, centred.
fn dialog_window(title: &str) -> egui::Window<'static> {
    egui::Window::new(title.to_owned())
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

fn status_bar(ui: &mut egui::Ui, ed: &EditorState) {
    ui.horizontal(|ui| {
        let dirty = if ed.doc().dirty {
            "● modified"
        } else {
            "saved"
        };
        ui.label(RichText::new(dirty).color(if ed.doc().dirty {
            Color32::from_rgb(255, 190, 90)
        } else {
            Color32::from_gray(170)
        }));
        ui.separator();
        ui.label(format!("undo {}", ed.history().undo_len()));
        ui.separator();
        if let Some(m) = ed.message() {
            ui.label(m);
        }
    });
}
