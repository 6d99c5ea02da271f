//! The session's line, lure, fish, water and rod action, and whether the head follows them
//! (issue 34): one drag value per parameter, each drag one undo step.

use super::{Commands, grouped};
use crate::editor::EditorState;
use crate::editor::command::PoseEdit;
use crate::fishing::head_look::LookSettings;
use crate::fishing::{LineParams, RodAction, WaterParams};

/// A drag value for one number; a change sends `make(new value)` (grouped per drag).
#[allow(clippy::too_many_arguments)]
fn number(
    ui: &mut egui::Ui,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
    speed: f64,
    prefix: &str,
    suffix: &str,
    hover: &str,
    out: &mut Commands,
    make: impl Fn(f64) -> PoseEdit,
) {
    let mut v = value;
    let r = ui
        .add(
            egui::DragValue::new(&mut v)
                .range(range)
                .speed(speed)
                .prefix(prefix)
                .suffix(suffix),
        )
        .on_hover_text(hover);
    let cmd = r.changed().then(|| make(v));
    grouped(&r, cmd, out);
}

/// Line, lure, fish, water and the rod's action.
pub fn tackle_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let p = ed.doc().stage.inputs.state.params;
    let line = p.line;
    let water = p.water;
    let set_line = |f: &dyn Fn(&mut LineParams)| {
        let mut l = line;
        f(&mut l);
        PoseEdit::SetLine { line: l }
    };
    let set_water = |f: &dyn Fn(&mut WaterParams)| {
        let mut w = water;
        f(&mut w);
        PoseEdit::SetWater { water: w }
    };
    ui.horizontal_wrapped(|ui| {
        number(
            ui,
            line.length_out,
            3.0..=100.0,
            0.1,
            "cast ",
            " m",
            "How far out the cast lands, from the rod's tip",
            out,
            |v| set_line(&|l| l.length_out = v),
        );
        number(
            ui,
            line.drop,
            0.05..=2.0,
            0.01,
            "drop ",
            " m",
            "Line between the tip and the lure before the cast",
            out,
            |v| set_line(&|l| l.drop = v),
        );
        number(
            ui,
            line.lure_weight_g,
            1.0..=500.0,
            0.5,
            "lure ",
            " g",
            "The lure's weight",
            out,
            |v| set_line(&|l| l.lure_weight_g = v),
        );
        number(
            ui,
            line.fish_pull,
            0.0..=200.0,
            0.2,
            "fish ",
            " N",
            "The fish's pull in the strike and the landing (0: no fish, a straight rod)",
            out,
            |v| set_line(&|l| l.fish_pull = v),
        );
    });
    ui.horizontal_wrapped(|ui| {
        number(
            ui,
            water.height,
            -5.0..=1.0,
            0.01,
            "water ",
            " m",
            "The water's height (the bank is at 0)",
            out,
            |v| set_water(&|w| w.height = v),
        );
        number(
            ui,
            water.near,
            0.0..=20.0,
            0.01,
            "bank ",
            " m",
            "How far ahead the water starts",
            out,
            |v| set_water(&|w| w.near = v),
        );
        let mut action = p.rod_action;
        egui::ComboBox::from_id_salt("rod_action")
            .selected_text(format!("{} action", action.name()))
            .show_ui(ui, |ui| {
                for a in RodAction::ALL {
                    ui.selectable_value(&mut action, a, a.name());
                }
            });
        if action != p.rod_action {
            out.push(PoseEdit::SetRodAction { action });
        }
        let mut colour = line.colour;
        if ui.color_edit_button_rgb(&mut colour).changed() {
            out.push(set_line(&|l| l.colour = colour));
        }
    });
    ui.horizontal(|ui| {
        let look = ed.doc().stage.inputs.settings.look;
        let mut on = look.enabled;
        if ui
            .checkbox(&mut on, "head follows")
            .on_hover_text("The head turns toward the lure, the line's entry or the fish")
            .changed()
        {
            out.push(PoseEdit::SetLook {
                look: LookSettings {
                    enabled: on,
                    ..look
                },
            });
        }
        number(
            ui,
            look.weight,
            0.0..=1.0,
            0.01,
            "weight ",
            "",
            "How far the head turns (1: as far as the neck limits allow)",
            out,
            |weight| PoseEdit::SetLook {
                look: LookSettings { weight, ..look },
            },
        );
    });
    if let Some(t) = ed.doc().stage.tackle() {
        let text = format!(
            "pull {:.1} N · tip moved {:.0} mm{}",
            t.pull,
            t.bend.tip_deflection * 1000.0,
            if t.bend.limited {
                " (at its limit)"
            } else {
                ""
            }
        );
        ui.label(egui::RichText::new(text).weak());
    }
}
