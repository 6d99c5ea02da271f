//! File → Export animation…: the clip options (rate and phase range) before the save dialog.

use crate::editor::command::FileCommand;
use crate::fishing::Phase;
use crate::preset::ClipOptions;

/// What the export window shows and keeps between openings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExportForm {
    pub fps: f64,
    pub first: Phase,
    pub last: Phase,
}

impl Default for ExportForm {
    fn default() -> Self {
        let o = ClipOptions::default();
        Self {
            fps: o.fps,
            first: o.first,
            last: o.last,
        }
    }
}

/// What the window asks for this frame.
pub enum ExportChoice {
    /// Still open.
    Stay,
    Cancel,
    /// The user picked a file: the command that exports to it.
    Export(FileCommand),
}

fn phase_combo(ui: &mut egui::Ui, id: &str, phase: &mut Phase) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(phase.name())
        .show_ui(ui, |ui| {
            for p in Phase::ALL {
                ui.selectable_value(phase, p, p.name());
            }
        });
}

/// The options window body. `pick` asks for the output file (the native save dialog in the
/// app); `None` means the user cancelled it.
pub fn export_animation_ui(
    ui: &mut egui::Ui,
    form: &mut ExportForm,
    pick: impl FnOnce() -> Option<std::path::PathBuf>,
) -> ExportChoice {
    egui::Grid::new("export_animation")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Frame rate");
            ui.add(
                egui::DragValue::new(&mut form.fps)
                    .range(1.0..=240.0)
                    .speed(1.0)
                    .suffix(" fps"),
            );
            ui.end_row();
            ui.label("From phase");
            phase_combo(ui, "export_first", &mut form.first);
            ui.end_row();
            ui.label("To phase");
            phase_combo(ui, "export_last", &mut form.last);
            ui.end_row();
        });
    if form.last < form.first {
        form.last = form.first;
    }
    ui.label(
        egui::RichText::new(
            "One clip `session` over the range and one per phase; \
             keys reduced to within 0.5 mm of the solver.",
        )
        .small()
        .weak(),
    );
    let mut choice = ExportChoice::Stay;
    ui.horizontal(|ui| {
        if ui.button("Export GLB…").clicked() {
            choice = match pick() {
                Some(path) => ExportChoice::Export(FileCommand::ExportAnimation {
                    path,
                    fps: form.fps,
                    first: form.first,
                    last: form.last,
                }),
                None => ExportChoice::Stay,
            };
        }
        if ui.button("Cancel").clicked() {
            choice = ExportChoice::Cancel;
        }
    });
    choice
}
