//! egui panels. Each `*_ui` function reads the [`EditorState`] and pushes
//! [`EditorCommand`]s; the caller applies them, so the panels never edit the document directly.

mod export;
mod fingers;
mod flips;
mod inspector;
mod panels;
mod props;
mod tackle;

pub use export::{ExportChoice, ExportForm, export_animation_ui};
pub use flips::flip_debugger_ui;
pub use inspector::inspector_ui;
pub use panels::{calibration_ui, diagnostics_ui, outliner_ui, session_ui, toggles_ui};
pub use props::{dropped_model_ui, props_menu_ui, props_panel_ui};

use super::{EditorCommand, EditorState};
use crate::editor::command::DocumentCommand;

/// Commands gathered during one frame of UI, in order. [`Commands::push`] takes any concern's
/// command; the rest is the `Vec`'s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Commands(pub Vec<EditorCommand>);

impl Commands {
    /// Appends `cmd`.
    pub fn push(&mut self, cmd: impl Into<EditorCommand>) {
        self.0.push(cmd.into());
    }
}

impl std::ops::Deref for Commands {
    type Target = Vec<EditorCommand>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Commands {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl IntoIterator for Commands {
    type Item = EditorCommand;
    type IntoIter = std::vec::IntoIter<EditorCommand>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// A slider or drag value that undoes as one step per drag: `BeginGroup` when the drag starts,
/// the value command while it changes, `EndGroup` when it stops.
pub(crate) fn grouped(
    response: &egui::Response,
    value: Option<impl Into<EditorCommand>>,
    out: &mut Commands,
) {
    if response.drag_started() {
        out.push(DocumentCommand::BeginGroup);
    }
    if let Some(cmd) = value {
        out.push(cmd);
    }
    if response.drag_stopped() || response.lost_focus() {
        out.push(DocumentCommand::EndGroup);
    }
}

/// A slider bound to a document value. With egui's default `SliderClamping::Always` the
/// slider clamps the value it reads (an out-of-range preset value is shown as the range end)
/// and stores it back rounded to `max_decimals` on every frame, reporting a change: merely
/// showing a preset rewrote its session time and marked it changed. `Edits` clamps and rounds
/// only what the user drags or types; document values are shown and kept as they are.
pub(crate) fn doc_slider<'a>(
    value: &'a mut f64,
    range: std::ops::RangeInclusive<f64>,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

/// Every panel in the right-hand side bar, in order.
pub fn side_bar_ui(ui: &mut egui::Ui, ed: &mut EditorState, out: &mut Commands) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        egui::CollapsingHeader::new("Fishing session")
            .default_open(true)
            .show(ui, |ui| session_ui(ui, ed, out));
        egui::CollapsingHeader::new("IK inspector")
            .default_open(true)
            .show(ui, |ui| inspector_ui(ui, ed, out));
        egui::CollapsingHeader::new("Elbow-flip debugger")
            .default_open(true)
            .show(ui, |ui| flip_debugger_ui(ui, ed, out));
        egui::CollapsingHeader::new("Diagnostics")
            .default_open(true)
            .show(ui, |ui| diagnostics_ui(ui, ed));
        egui::CollapsingHeader::new("Grip calibration")
            .default_open(false)
            .show(ui, |ui| calibration_ui(ui, ed, out));
        egui::CollapsingHeader::new("Rod, net and seat")
            .default_open(ed.doc().stage.props.rod_model.is_some())
            .show(ui, |ui| props_panel_ui(ui, ed, out));
    });
}
