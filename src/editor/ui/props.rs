//! The rod, net and seat in use (issue 20): the "Rod, net and seat" panel with the rod's grip
//! corrections, the File menu's "Use rod / net / seat…" items and the dialog for a model
//! dropped on the window.

use super::{Commands, doc_slider, grouped};
use crate::editor::EditorState;
use crate::editor::command::PropKind;
use crate::editor::command::{DocumentCommand, FileCommand};
use egui::RichText;
use std::path::{Path, PathBuf};

fn pick_model(title: &str) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title(title)
        .add_filter("glTF model", &["glb", "gltf"])
        .pick_file()
}

/// File menu items: use an artist's rod, net or seat, or go back to the bundled ones.
pub fn props_menu_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    for prop in PropKind::ALL {
        if ui.button(format!("Use {}…", prop.name())).clicked()
            && let Some(path) = pick_model(&format!("Choose the {} model", prop.name()))
        {
            out.push(FileCommand::UseProp {
                prop,
                path: Some(path),
            });
        }
    }
    let sources = &ed.doc().stage.props.sources;
    let in_use = [
        (PropKind::Rod, sources.rod.is_some()),
        (PropKind::Net, sources.net.is_some()),
        (PropKind::Seat, sources.seat.is_some()),
    ];
    for (prop, own) in in_use {
        if own && ui.button(format!("Bundled {}", prop.name())).clicked() {
            out.push(FileCommand::UseProp { prop, path: None });
        }
    }
}

fn file_label(path: Option<&Path>) -> String {
    path.and_then(|p| p.file_name())
        .map_or("bundled".to_string(), |n| n.to_string_lossy().into_owned())
}

/// The panel: which files are in use and, for an artist's rod, where the hands hold it.
pub fn props_panel_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let props = &ed.doc().stage.props;
    let gear = &ed.doc().stage.actor.gear;
    let rod_path = props.sources.rod.as_ref().map(|r| r.path.as_path());
    ui.horizontal(|ui| {
        ui.label(RichText::new("rod").strong());
        ui.label(file_label(rod_path));
        ui.label(format!(
            "{:.2} m, reel {}",
            gear.rod.length,
            if gear.rod.reel_above {
                "on top"
            } else {
                "below"
            }
        ));
    });
    if let Some(model) = &props.rod_model {
        let grips = props.rod_grips();
        let length = gear.rod.length;
        let mut rear = gear.rod.rear_grip;
        let r = ui.add(doc_slider(&mut rear, 0.0..=length).text("rear grip m"));
        grouped(
            &r,
            r.changed().then(|| {
                set(crate::stage::RodGrips {
                    rear_grip: Some(rear),
                    ..grips
                })
            }),
            out,
        );
        let mut seat = gear.rod.reel_seat;
        let r = ui.add(doc_slider(&mut seat, 0.0..=length).text("reel seat m"));
        grouped(
            &r,
            r.changed().then(|| {
                set(crate::stage::RodGrips {
                    reel_seat: Some(seat),
                    ..grips
                })
            }),
            out,
        );
        let mut above = gear.rod.reel_above;
        if ui
            .checkbox(&mut above, "reel on top (baitcaster)")
            .changed()
        {
            out.push(set(crate::stage::RodGrips {
                reel_above: Some(above),
                ..grips
            }));
        }
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!(
                    "detected: rear {:.3} m, seat {:.3} m",
                    model.rear_grip, model.reel_seat
                ))
                .weak(),
            );
            if ui
                .add_enabled(grips != Default::default(), egui::Button::new("Reset"))
                .on_hover_text("Put the hands back where detection found the grips")
                .clicked()
            {
                out.push(set(crate::stage::RodGrips::default()));
            }
        });
        ui.label(RichText::new("drag the blue markers on the blank to move the grips").weak());
        let mut offset = grips.butt_offset.unwrap_or(0.0);
        let most = 0.5 * (length + offset);
        let r = ui.add(doc_slider(&mut offset, 0.0..=most).text("butt offset m"));
        grouped(
            &r,
            r.changed().then(|| {
                set(crate::stage::RodGrips {
                    butt_offset: Some(offset),
                    ..grips
                })
            }),
            out,
        );
        if let Some(source) = &props.sources.rod {
            rod_frame_ui(ui, ed, source, out);
        }
        for n in &model.notes {
            ui.label(RichText::new(n).weak());
        }
    }
    let net = props.sources.net.as_ref().map(|n| n.path.as_path());
    ui.horizontal(|ui| {
        ui.label(RichText::new("net").strong());
        ui.label(file_label(net));
        ui.label(format!("grip {:.2} m", gear.net.grip));
    });
    ui.horizontal(|ui| {
        ui.label(RichText::new("seat").strong());
        ui.label(file_label(props.sources.seat.as_deref()));
    });
    ui.horizontal(|ui| props_menu_ui(ui, ed, out));
}

/// The rod's frame: the butt at the thin end, and the real length of a file not in metres
/// (each change re-detects the rod).
fn rod_frame_ui(
    ui: &mut egui::Ui,
    ed: &EditorState,
    source: &crate::stage::RodSource,
    out: &mut Commands,
) {
    let mut flip = source.flip_ends;
    if ui
        .checkbox(&mut flip, "butt at the thin end")
        .on_hover_text("Detection takes the thicker end for the butt; swap it")
        .changed()
    {
        out.push(FileCommand::SetRodFrame {
            flip_ends: flip,
            length: source.length,
        });
    }
    let metres = ed
        .doc()
        .stage
        .props
        .rod_model
        .as_ref()
        .is_some_and(|m| m.metres_per_unit == 1.0);
    if !metres {
        ui.horizontal(|ui| {
            ui.label("real length m");
            for l in [1.8, 2.1, 2.4, 2.7, 3.0, 3.6, 3.9, 4.2] {
                let now = (ed.doc().stage.actor.gear.rod.length - l).abs() < 0.005;
                if ui.selectable_label(now, format!("{l}")).clicked() && !now {
                    out.push(FileCommand::SetRodFrame {
                        flip_ends: source.flip_ends,
                        length: Some(l),
                    });
                }
            }
        });
    }
}

fn set(g: crate::stage::RodGrips) -> DocumentCommand {
    DocumentCommand::SetRodGrips {
        rear_grip: g.rear_grip,
        reel_seat: g.reel_seat,
        reel_above: g.reel_above,
        butt_offset: g.butt_offset,
    }
}

/// The dialog for a glTF file dropped on the window: open it as the character, or use it as
/// the rod, net or seat. `guess` says what it looks like. Returns true when it closes.
pub fn dropped_model_ui(
    ctx: &egui::Context,
    path: &Path,
    guess: &str,
    out: &mut Commands,
    open_as_character: &mut Option<PathBuf>,
) -> bool {
    let mut close = false;
    egui::Window::new("Use the dropped model as…")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_max_width(520.0);
            ui.monospace(path.display().to_string());
            ui.label(guess);
            ui.horizontal(|ui| {
                for prop in PropKind::ALL {
                    if ui.button(format!("Use as {}", prop.name())).clicked() {
                        out.push(FileCommand::UseProp {
                            prop,
                            path: Some(path.to_path_buf()),
                        });
                        close = true;
                    }
                }
                if ui.button("Open as character").clicked() {
                    *open_as_character = Some(path.to_path_buf());
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    close
}
