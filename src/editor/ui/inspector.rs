//! The IK inspector: global limit switch, weight and softening, then one block per arm chain —
//! its solver (two-bone or CCD) and that solver's parameters: the elbow hinge limit and pole
//! for two-bone; iterations, step angles, blend and per-link limits (hinge axis, Euler range
//! with numeric min/max) for CCD. Every edit is an [`EditorCommand`] (one undo step per drag).

use super::{Commands, doc_slider, grouped};
use crate::editor::EditorState;
use crate::editor::command::{DocumentCommand, PoseEdit};
use crate::fishing::{ArmSettings, ArmSolverKind, CcdLinkLimits, CcdLinkRole, SIDES};
use crate::rig::Side;
use egui::RichText;
use glam::DVec3;

/// Global switches, then each arm's chain.
pub fn inspector_ui(ui: &mut egui::Ui, ed: &EditorState, out: &mut Commands) {
    let s = ed.doc().stage.inputs.settings;
    let mut on = s.limits_enabled;
    if ui
        .checkbox(&mut on, "Angle limits (global)")
        .on_hover_text("Off overrides every joint's own limit switch")
        .changed()
    {
        out.push(PoseEdit::SetLimitsEnabled { on });
    }
    egui::Grid::new("ik_global").num_columns(2).show(ui, |ui| {
        let mut w = s.weight;
        ui.label("Weight");
        let r = ui
            .add(doc_slider(&mut w, 0.0..=1.0))
            .on_hover_text("Blend of the arm IK with the base pose (CCD: unless it has its own)");
        grouped(
            &r,
            r.changed().then_some(PoseEdit::SetWeight { value: w }),
            out,
        );
        ui.end_row();
        let mut soften = s.soften;
        ui.label("Soften");
        let r = ui
            .add(doc_slider(&mut soften, 0.8..=1.0))
            .on_hover_text("Two-bone: ozz-style softening near full reach (1 = off)");
        grouped(
            &r,
            r.changed().then_some(PoseEdit::SetSoften { value: soften }),
            out,
        );
        ui.end_row();
    });
    let mut per_phase = ed.edits().per_phase_poles();
    if ui
        .checkbox(&mut per_phase, "Edit poles per phase")
        .on_hover_text("Pole drags set the current phase's key instead of the constant pole")
        .changed()
    {
        out.push(DocumentCommand::SetPerPhasePoles { on: per_phase });
    }
    for side in SIDES {
        ui.separator();
        chain_ui(ui, ed, side, out);
    }
}

fn chain_ui(ui: &mut egui::Ui, ed: &EditorState, side: Side, out: &mut Commands) {
    let arm = *ed.doc().stage.inputs.settings.arm(side);
    ui.horizontal(|ui| {
        let title = match side {
            Side::Left => "Left arm",
            Side::Right => "Right arm",
        };
        ui.label(RichText::new(title).strong());
        egui::ComboBox::from_id_salt(("solver", side.name()))
            .selected_text(arm.solver.label())
            .show_ui(ui, |ui| {
                for kind in ArmSolverKind::ALL {
                    if ui
                        .selectable_label(kind == arm.solver, kind.label())
                        .clicked()
                        && kind != arm.solver
                    {
                        out.push(PoseEdit::SetArmSolver { side, solver: kind });
                    }
                }
            })
            .response
            .on_hover_text("Two-bone: seed-001 solver with pole. CCD: three.js CCDIKSolver");
    });
    match arm.solver {
        ArmSolverKind::TwoBone => elbow_ui(ui, side, &arm, out),
        ArmSolverKind::Ccd => ccd_ui(ui, side, &arm, out),
    }
    // The pole only steers the two-bone solver.
    let pole = ed.doc().stage.inputs.calibration.poles.get(side);
    let p = pole.key(ed.doc().stage.inputs.state.phase).to_array();
    let two_bone = arm.solver == ArmSolverKind::TwoBone;
    ui.add_enabled_ui(two_bone, |ui| {
        ui.horizontal(|ui| {
            ui.label("pole");
            super::panels::vec3_edit(ui, p, 0.005, 3, out, |p| PoseEdit::SetPole {
                side,
                pole: p,
            });
        })
        .response
        .on_disabled_hover_text("CCD does not use a pole");
    });
}

fn elbow_ui(ui: &mut egui::Ui, side: Side, arm: &ArmSettings, out: &mut Commands) {
    let lim = arm.elbow_limit;
    let (mut min, mut max, mut enabled) = (
        lim.min_bend.to_degrees(),
        lim.max_bend.to_degrees(),
        lim.enabled,
    );
    let cmd = |min_deg, max_deg, enabled| PoseEdit::SetElbowLimit {
        side: Some(side),
        min_deg,
        max_deg,
        enabled,
    };
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut enabled, "elbow limit")
            .on_hover_text("This elbow's hinge limit on the bend angle (0° = straight)")
            .changed()
        {
            out.push(cmd(min, max, enabled));
        }
        ui.add_enabled_ui(enabled, |ui| {
            let r = ui.add(
                egui::DragValue::new(&mut min)
                    .range(0.0..=max)
                    .speed(0.5)
                    .prefix("min ")
                    .suffix("°"),
            );
            grouped(&r, r.changed().then(|| cmd(min, max, enabled)), out);
            let r = ui.add(
                egui::DragValue::new(&mut max)
                    .range(min..=180.0)
                    .speed(0.5)
                    .prefix("max ")
                    .suffix("°"),
            );
            grouped(&r, r.changed().then(|| cmd(min, max, enabled)), out);
        });
    });
    let mut twist = arm.twist.to_degrees();
    ui.horizontal(|ui| {
        let r = ui
            .add(
                egui::DragValue::new(&mut twist)
                    .range(-180.0..=180.0)
                    .speed(0.5)
                    .prefix("twist ")
                    .suffix("°"),
            )
            .on_hover_text(
                "Turns the elbow about the shoulder → wrist line after the solve; the wrist \
                 stays on its target",
            );
        let set = PoseEdit::SetTwist {
            side,
            degrees: twist,
        };
        grouped(&r, r.changed().then_some(set), out);
    });
}

/// An optional value: a checkbox and, when on, a drag value. Sends `make(value)` on change.
#[allow(clippy::too_many_arguments)]
fn optional_value(
    ui: &mut egui::Ui,
    label: &str,
    hint: &str,
    value: Option<f64>,
    default: f64,
    range: std::ops::RangeInclusive<f64>,
    speed: f64,
    suffix: &str,
    out: &mut Commands,
    make: impl Fn(Option<f64>) -> PoseEdit,
) {
    ui.horizontal(|ui| {
        let mut on = value.is_some();
        let mut v = value.unwrap_or(default);
        if ui.checkbox(&mut on, label).on_hover_text(hint).changed() {
            out.push(make(on.then_some(v)));
        }
        ui.add_enabled_ui(on, |ui| {
            let r = ui.add(
                egui::DragValue::new(&mut v)
                    .range(range)
                    .speed(speed)
                    .suffix(suffix),
            );
            grouped(&r, r.changed().then(|| make(Some(v))), out);
        });
    });
}

fn ccd_ui(ui: &mut egui::Ui, side: Side, arm: &ArmSettings, out: &mut Commands) {
    let ccd = arm.ccd;
    ui.horizontal(|ui| {
        ui.label("iterations");
        let mut n = ccd.iterations;
        let r = ui.add(
            egui::DragValue::new(&mut n)
                .range(1..=crate::fishing::CcdArmSettings::MAX_ITERATIONS)
                .speed(0.2),
        );
        grouped(
            &r,
            r.changed().then_some(PoseEdit::SetCcdIterations {
                side,
                iterations: n,
            }),
            out,
        );
    });
    let mut finish = ccd.planar_finish;
    if ui
        .checkbox(&mut finish, "finish at the limit")
        .on_hover_text(
            "Not in three.js: once the passes go planar, jump to where they converge \
             (near full reach three's passes stop millimetres short). \
             Off: three's passes alone, up to the iterations",
        )
        .changed()
    {
        out.push(PoseEdit::SetCcdPlanarFinish { side, on: finish });
    }
    let deg = |v: Option<f64>| v.map(f64::to_degrees);
    let (min_deg, max_deg) = (deg(ccd.min_angle), deg(ccd.max_angle));
    optional_value(
        ui,
        "min step",
        "three.js minAngle: smaller steps are raised to it",
        min_deg,
        0.0,
        0.0..=180.0,
        0.1,
        "°",
        out,
        |v| PoseEdit::SetCcdStepAngles {
            side,
            min_deg: v,
            max_deg,
        },
    );
    optional_value(
        ui,
        "max step",
        "three.js maxAngle: caps every step",
        max_deg,
        15.0,
        0.0..=180.0,
        0.1,
        "°",
        out,
        |v| PoseEdit::SetCcdStepAngles {
            side,
            min_deg,
            max_deg: v,
        },
    );
    optional_value(
        ui,
        "own blend",
        "three.js blendFactor; off uses the global weight",
        ccd.blend_factor,
        1.0,
        0.0..=1.0,
        0.005,
        "",
        out,
        |blend| PoseEdit::SetCcdBlend { side, blend },
    );
    for role in CcdLinkRole::ALL {
        link_ui(ui, side, role, ccd.link(role), out);
    }
}

/// Hinge axis choices offered in the combo (a custom axis from a preset is kept and shown).
const HINGES: [(&str, Option<DVec3>); 4] = [
    ("no hinge", None),
    ("hinge X", Some(DVec3::X)),
    ("hinge Y", Some(DVec3::Y)),
    ("hinge Z", Some(DVec3::Z)),
];

fn link_ui(
    ui: &mut egui::Ui,
    side: Side,
    role: CcdLinkRole,
    limits: &CcdLinkLimits,
    out: &mut Commands,
) {
    let send = |l: CcdLinkLimits| {
        let deg = |v: DVec3| v.to_array().map(f64::to_degrees);
        PoseEdit::SetCcdLinkLimits {
            side,
            link: role,
            enabled: l.enabled,
            limitation: l.limitation.map(|a| a.to_array()),
            min_deg: l.rotation_min.map(deg),
            max_deg: l.rotation_max.map(deg),
        }
    };
    let name = match role {
        CcdLinkRole::Forearm => "forearm (elbow)",
        CcdLinkRole::UpperArm => "upper arm (shoulder)",
    };
    let mut l = *limits;
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut l.enabled, name)
            .on_hover_text("This link's limits on or off (the global switch overrides)")
            .changed()
        {
            out.push(send(l));
        }
        let current = HINGES
            .iter()
            .find(|(_, a)| *a == l.limitation)
            .map_or("custom hinge", |(n, _)| *n);
        egui::ComboBox::from_id_salt(("hinge", side.name(), role.name()))
            .selected_text(current)
            .width(80.0)
            .show_ui(ui, |ui| {
                for (label, axis) in HINGES {
                    if ui.selectable_label(axis == l.limitation, label).clicked() {
                        out.push(send(CcdLinkLimits {
                            limitation: axis,
                            ..l
                        }));
                    }
                }
            })
            .response
            .on_hover_text("three.js limitation: the link turns only about this local axis");
    });
    let mut ranged = l.rotation_min.is_some() || l.rotation_max.is_some();
    let mut lo = l
        .rotation_min
        .unwrap_or(DVec3::splat(-std::f64::consts::PI));
    let mut hi = l.rotation_max.unwrap_or(DVec3::splat(std::f64::consts::PI));
    ui.horizontal(|ui| {
        ui.add_space(18.0);
        if ui
            .checkbox(&mut ranged, "Euler range")
            .on_hover_text("three.js rotationMin / rotationMax, XYZ degrees")
            .changed()
        {
            out.push(send(CcdLinkLimits {
                rotation_min: ranged.then_some(lo),
                rotation_max: ranged.then_some(hi),
                ..l
            }));
        }
    });
    if !ranged {
        return;
    }
    for (label, is_min) in [("min", true), ("max", false)] {
        ui.horizontal(|ui| {
            ui.add_space(18.0);
            ui.label(label);
            for i in 0..3 {
                let mut v = if is_min { lo[i] } else { hi[i] }.to_degrees();
                let range = if is_min {
                    -360.0..=hi[i].to_degrees()
                } else {
                    lo[i].to_degrees()..=360.0
                };
                let r = ui.add(
                    egui::DragValue::new(&mut v)
                        .range(range)
                        .speed(0.5)
                        .max_decimals(1)
                        .prefix(["x ", "y ", "z "][i])
                        .suffix("°"),
                );
                let cmd = r.changed().then(|| {
                    if is_min {
                        lo[i] = v.to_radians();
                    } else {
                        hi[i] = v.to_radians();
                    }
                    send(CcdLinkLimits {
                        rotation_min: Some(lo),
                        rotation_max: Some(hi),
                        ..l
                    })
                });
                grouped(&r, cmd, out);
            }
        });
    }
}
