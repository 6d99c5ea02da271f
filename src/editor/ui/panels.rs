//! Outliner, grip calibration, fishing session, diagnostics and view toggles (the IK inspector
//! is in `inspector.rs`).

use super::{Commands, doc_slider, grouped};
use crate::editor::command::ViewToggle;
use crate::editor::command::{DocumentCommand, PlaybackCommand, PoseEdit, ViewCommand};
use crate::editor::pose_edit::euler_of;
use crate::editor::{EditorState, Handle};
use crate::fishing::{GripKind, Handedness, Phase, SIDES};
use crate::rig::Side;
use egui::{Color32, RichText};

/// Three drag values; each change sends `make(new value)` (grouped per drag).
pub(super) fn vec3_edit(
    ui: &mut egui::Ui,
    value: [f64; 3],
    speed: f64,
    decimals: usize,
    out: &mut Commands,
    make: impl Fn([f64; 3]) -> PoseEdit,
) {
    let mut v = value;
    for i in 0..3 {
        let r = ui.add(
            egui::DragValue::new(&mut v[i])
                .speed(speed)
                .max_decimals(decimals),
        );
        let cmd = r.changed().then(|| make(v));
        grouped(&r, cmd, out);
    }
}

fn side_title(side: Side) -> &'static str {
    match side {
        Side::Left => "Left arm",
        Side::Right => "Right arm",
    }
}

/// Bones of the character with their humanoid roles; clicking an arm bone selects its target.
pub fn outliner_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let stage = &ed.doc().stage;
    let roles = stage.map.roles();
    let skel = &stage.character.skeleton;
    let mut rows = Vec::new();
    let mut stack: Vec<(usize, usize)> = (0..skel.len())
        .filter(|&b| skel.parent(b).is_none())
        .rev()
        .map(|b| (b, 0))
        .collect();
    // Depth-first, so children sit under their parent.
    while let Some((b, depth)) = stack.pop() {
        rows.push((b, depth));
        for &c in skel.children(b).iter().rev() {
            stack.push((c, depth + 1));
        }
    }
    egui::ScrollArea::vertical()
        .id_salt("outliner")
        .show(ui, |ui| {
            for (b, depth) in rows {
                if !stage.character.is_joint(b) {
                    continue;
                }
                let role = roles.iter().find(|(_, i)| *i == b).map(|(r, _)| *r);
                ui.horizontal(|ui| {
                    ui.add_space(10.0 * depth.min(10) as f32);
                    let name = &skel.bone(b).name;
                    match role {
                        Some(r) => {
                            let selected = ed.view().selection() == Some(Handle::Target(r.side));
                            let text = RichText::new(format!("{name}  [{r}]"))
                                .color(Color32::from_rgb(140, 200, 255));
                            if ui.selectable_label(selected, text).clicked() {
                                out.push(ViewCommand::Select {
                                    handle: Some(Handle::Target(r.side)),
                                });
                            }
                        }
                        None => {
                            ui.label(RichText::new(name).color(Color32::from_gray(165)));
                        }
                    }
                });
            }
        });
}

/// Per-hand grip offsets (of the grip each hand holds now), palm correction and curls.
pub fn calibration_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let calib = &ed.doc().stage.inputs.calibration;
    if ui
        .add_enabled(
            ed.doc().stage.map.body.is_some(),
            egui::Button::new("Fit to character"),
        )
        .on_hover_text(
            "Choose grip offsets, rod adjustment and poles so the wrists reach their grips over \
             the whole session without flips (undoable)",
        )
        .clicked()
    {
        out.push(DocumentCommand::FitToCharacter);
    }
    super::fingers::contact_switch_ui(ui, ed, out);
    for side in SIDES {
        ui.label(RichText::new(side_title(side)).strong());
        let kind = ed.held_kind(side).unwrap_or(GripKind::RodFront);
        let grip = calib.grip(kind);
        ui.label(format!("holding {kind:?}"));
        let offset = grip.offset_in_object.to_array();
        ui.horizontal(|ui| {
            ui.label("offset m");
            vec3_edit(ui, offset, 0.002, 3, out, |offset| {
                PoseEdit::SetGripOffset { kind, offset }
            });
        });
        let rot = euler_of(grip.rotation);
        ui.horizontal(|ui| {
            ui.label("grip rot °");
            vec3_edit(ui, rot, 0.5, 1, out, |rot| PoseEdit::SetGripRotation {
                kind,
                euler_deg: rot,
            });
        });
        let hand = calib.hands.get(side);
        let palm = euler_of(hand.palm_correction);
        ui.horizontal(|ui| {
            ui.label("palm corr °");
            vec3_edit(ui, palm, 0.5, 1, out, |palm| PoseEdit::SetPalmCorrection {
                side,
                euler_deg: palm,
            });
        });
        let mut curl = hand.finger_curl;
        let r = ui.add(doc_slider(&mut curl, 0.0..=1.0).text("finger curl"));
        grouped(
            &r,
            r.changed()
                .then_some(PoseEdit::SetFingerCurl { side, value: curl }),
            out,
        );
        let mut thumb = hand.thumb_curl;
        let r = ui.add(doc_slider(&mut thumb, 0.0..=1.0).text("thumb curl"));
        grouped(
            &r,
            r.changed()
                .then_some(PoseEdit::SetThumbCurl { side, value: thumb }),
            out,
        );
        super::fingers::fingers_ui(ui, ed, side, out);
        ui.separator();
    }
    let adj = calib.rod_adjust;
    let offset = adj.offset_in_object.to_array();
    let rot = euler_of(adj.rotation);
    ui.label(RichText::new("Rod adjustment (rod space)").strong());
    ui.horizontal(|ui| {
        ui.label("offset m");
        vec3_edit(ui, offset, 0.002, 3, out, |offset| PoseEdit::SetRodAdjust {
            offset,
            euler_deg: rot,
        });
    });
    ui.horizontal(|ui| {
        ui.label("rotation °");
        vec3_edit(ui, rot, 0.5, 1, out, |rot| PoseEdit::SetRodAdjust {
            offset,
            euler_deg: rot,
        });
    });
}

/// Phase, time scrubber over the whole timeline, play / pause, speed and session parameters.
pub fn session_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let state = ed.doc().stage.inputs.state;
    let total = state.params.total_duration();
    ui.horizontal(|ui| {
        let label = if ed.playback().playing() {
            "Pause"
        } else {
            "Play"
        };
        if ui.button(label).clicked() {
            out.push(PlaybackCommand::Play {
                on: !ed.playback().playing(),
            });
        }
        let mut speed = ed.playback().speed();
        if ui
            .add(
                egui::DragValue::new(&mut speed)
                    .range(0.05..=4.0)
                    .speed(0.01)
                    .suffix("×"),
            )
            .changed()
        {
            out.push(PlaybackCommand::SetSpeed { value: speed });
        }
        egui::ComboBox::from_id_salt("phase")
            .selected_text(state.phase.name())
            .show_ui(ui, |ui| {
                for p in Phase::ALL {
                    if ui.selectable_label(p == state.phase, p.name()).clicked() {
                        out.push(PlaybackCommand::SetPhase { phase: p, t: 0.0 });
                    }
                }
            });
    });
    let mut time = state.time();
    ui.spacing_mut().slider_width = (ui.available_width() - 70.0).max(80.0);
    if ui
        .add(
            doc_slider(&mut time, 0.0..=total)
                .suffix(" s")
                .max_decimals(2),
        )
        .changed()
    {
        out.push(PlaybackCommand::SetTime { seconds: time });
    }
    ui.label(
        RichText::new(format!(
            "{} · t = {:.2}",
            state.phase.name(),
            state.t_clamped()
        ))
        .weak(),
    );
    let p = state.params;
    ui.horizontal(|ui| {
        let mut len = p.rod_length;
        let r = ui.add(
            egui::DragValue::new(&mut len)
                .range(1.0..=5.0)
                .speed(0.01)
                .prefix("rod ")
                .suffix(" m"),
        );
        grouped(
            &r,
            r.changed()
                .then_some(PoseEdit::SetRodLength { metres: len }),
            out,
        );
        let mut power = p.cast_power;
        let r = ui.add(
            egui::DragValue::new(&mut power)
                .range(0.2..=2.0)
                .speed(0.01)
                .prefix("power "),
        );
        grouped(
            &r,
            r.changed()
                .then_some(PoseEdit::SetCastPower { value: power }),
            out,
        );
        let mut right = p.handedness == Handedness::Right;
        if ui.checkbox(&mut right, "right-handed").changed() {
            let handedness = if right {
                Handedness::Right
            } else {
                Handedness::Left
            };
            out.push(PoseEdit::SetHandedness { handedness });
        }
    });
    super::tackle::tackle_ui(ui, ed, out);
}

/// Reach, residual, elbow angle, limit hits and flips of the current evaluation.
pub fn diagnostics_ui(ui: &mut egui::Ui, ed: &EditorState) {
    let Some(eval) = ed.doc().stage.evaluation() else {
        ui.label("not posed");
        return;
    };
    egui::Grid::new("diag")
        .striped(true)
        .num_columns(3)
        .show(ui, |ui| {
            ui.label("");
            ui.label(RichText::new("left").strong());
            ui.label(RichText::new("right").strong());
            ui.end_row();
            let row = |ui: &mut egui::Ui, name: &str, f: &dyn Fn(Side) -> (String, bool)| {
                ui.label(name);
                for side in SIDES {
                    let (text, bad) = f(side);
                    let colour = if bad {
                        Color32::from_rgb(255, 140, 90)
                    } else {
                        ui.visuals().text_color()
                    };
                    ui.label(RichText::new(text).color(colour).monospace());
                }
                ui.end_row();
            };
            let arm = |s: Side| eval.arms.get(s);
            row(ui, "solver", &|s| {
                let a = arm(s);
                let text = match a.ccd() {
                    // "+ limit": the passes went planar and the arm jumped to their limit.
                    Some(c) if c.planar_finish.is_some() => {
                        format!("CCD ×{} + limit", c.iterations)
                    }
                    Some(c) => format!("CCD ×{}", c.iterations),
                    None => a.solver_kind().label().to_string(),
                };
                (text, false)
            });
            row(ui, "reached", &|s| {
                let a = arm(s);
                let r = a.ik.reached;
                let text = match (r, a.grip_slide) {
                    (false, _) => "NO".to_string(),
                    (true, 0.0) => "yes".to_string(),
                    // A rear hand short of its grip that reached by sliding along the handle.
                    (true, slide) => format!("slid {:+.0} mm", slide * 1000.0),
                };
                (text, !r)
            });
            row(ui, "residual", &|s| {
                let r = arm(s).ik.residual;
                (format!("{:.1} mm", r * 1000.0), r > 1e-3)
            });
            row(ui, "elbow", &|s| {
                (format!("{:.1}°", arm(s).ik.elbow_bend.to_degrees()), false)
            });
            row(ui, "limit hit", &|s| {
                let a = arm(s);
                // CCD: which links sit on a limit (f = forearm, u = upper arm).
                let l = match a.ccd() {
                    Some(c) => c.links.iter().any(|l| l.on_limit),
                    None => a.ik.elbow_limited,
                };
                let text = match a.ccd() {
                    Some(c) if l => c
                        .links
                        .iter()
                        .filter(|l| l.on_limit)
                        .map(|l| l.role.name())
                        .collect::<Vec<_>>()
                        .join(", "),
                    _ if l => "yes".into(),
                    _ => "no".into(),
                };
                (text, l)
            });
            row(ui, "flipped", &|s| {
                let f = arm(s).flipped;
                (if f { "FLIP".into() } else { "no".into() }, f)
            });
            row(ui, "palm turn", &|s| {
                (format!("{:.1}°", arm(s).palm_turn.to_degrees()), false)
            });
            if ed.view().options().overlays.stability {
                stability_rows(ui, ed, &row);
            }
        });
}

/// A diagnostics row: a name, then per arm its text and whether it is bad.
type Row<'a> = &'a dyn Fn(&mut egui::Ui, &str, &dyn Fn(Side) -> (String, bool));

/// Each arm's stability margin (how far its target can move before the elbow flips or the
/// arm cannot reach) and its elbow's sensitivity, while the stability slice is shown.
fn stability_rows(ui: &mut egui::Ui, ed: &EditorState, row: Row<'_>) {
    use crate::fishing::SampleClass;
    let stage = &ed.doc().stage;
    let k = stage.size_factor();
    let readouts = SIDES.map(|s| stage.stability_readout(s));
    let of = |s: Side| readouts[usize::from(s == Side::Right)];
    row(ui, "margin", &|s| match of(s) {
        Some(r) => match r.margin.nearest {
            Some(class) => {
                let what = if class == SampleClass::Flipped {
                    "flip"
                } else {
                    "reach"
                };
                let mm = r.margin.margin * 1000.0;
                (format!("{mm:.0} mm to {what}"), r.margin.margin < 0.02 * k)
            }
            None => (format!("over {:.0} mm", r.margin.margin * 1000.0), false),
        },
        None => ("-".into(), false),
    });
    row(ui, "elbow per target", &|s| match of(s) {
        Some(r) => (
            format!("{:.1}×", r.sensitivity),
            r.sensitivity > crate::fishing::SENSITIVE,
        ),
        None => ("-".into(), false),
    });
}

/// View toggles (overlay groups, mesh, grid, projection and named views).
pub fn toggles_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let o = ed.view().options().overlays;
    let mut toggle = |ui: &mut egui::Ui, what: ViewToggle, on: bool, label: &str, hint: &str| {
        let mut v = on;
        if ui.toggle_value(&mut v, label).on_hover_text(hint).changed() {
            out.push(ViewCommand::Toggle { what, on: v });
        }
    };
    toggle(
        ui,
        ViewToggle::Mesh,
        ed.view().options().mesh_visible,
        "Mesh",
        "Show the character's mesh",
    );
    toggle(
        ui,
        ViewToggle::Xray,
        ed.view().options().xray,
        "X-ray",
        "See-through character and props: bones, spheres, limit arcs and bend planes read \
         inside the body",
    );
    toggle(
        ui,
        ViewToggle::Spheres,
        o.spheres,
        "IK spheres",
        "CCD-helper spheres: target, effector, links",
    );
    toggle(
        ui,
        ViewToggle::BoneLines,
        o.bone_lines,
        "Bones",
        "Bone lines",
    );
    toggle(
        ui,
        ViewToggle::LimitArcs,
        o.limit_arcs,
        "Limit arcs",
        "Elbow hinge limits and CCD link limits",
    );
    toggle(
        ui,
        ViewToggle::PoleAndPlane,
        o.pole_and_plane,
        "Poles",
        "Pole markers and bend planes",
    );
    toggle(
        ui,
        ViewToggle::Contacts,
        o.contacts,
        "Contacts",
        "A marker on each fingertip: green touching the handle, amber a gap, magenta inside",
    );
    toggle(
        ui,
        ViewToggle::Stability,
        o.stability,
        "Stability",
        "Each arm's slice round its target in the bend plane: green stable, amber sensitive \
         (the elbow moves over 3x as far as the target), red beyond the flip boundary, grey out \
         of reach; hover a cell for its read-out",
    );
    toggle(
        ui,
        ViewToggle::GripMarkers,
        ed.view().grip_markers(),
        "Grips",
        "Markers on the held grips",
    );
    toggle(
        ui,
        ViewToggle::Grid,
        ed.view().options().grid,
        "Grid",
        "Ground grid",
    );
    toggle(
        ui,
        ViewToggle::Water,
        ed.view().options().water,
        "Water",
        "The water's surface",
    );
    toggle(
        ui,
        ViewToggle::Line,
        ed.view().options().line,
        "Line",
        "The line from the rod's tip, the lure and the fish",
    );
    if o.stability {
        let mut facing = o.slice_facing;
        egui::ComboBox::from_id_salt("slice_facing")
            .selected_text(facing.label())
            .show_ui(ui, |ui| {
                for f in crate::stage::SliceFacing::ALL {
                    ui.selectable_value(&mut facing, f, f.label());
                }
            })
            .response
            .on_hover_text("The plane the stability slice lies in, through each wrist target");
        if facing != o.slice_facing {
            out.push(ViewCommand::SetSliceFacing { facing });
        }
    }
}
