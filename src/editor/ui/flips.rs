//! The elbow-flip debugger: per arm, elbow angle and bend side over the whole timeline (from
//! `analyse_timeline`), flip markers that jump the scrubber when clicked, and the pole
//! search's proposal as one undoable step.

use super::Commands;
use crate::editor::EditorState;
use crate::editor::command::EditorCommand as C;
use crate::fishing::SIDES;
use crate::rig::Side;
use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, pos2, vec2};

const ANGLE: Color32 = Color32::from_rgb(110, 190, 255);
const SIDE_POS: Color32 = Color32::from_rgb(120, 220, 140);
const SIDE_NEG: Color32 = Color32::from_rgb(255, 110, 90);
const FLIP: Color32 = Color32::from_rgb(255, 70, 200);
const LIMIT: Color32 = Color32::from_rgb(255, 160, 60);

pub fn flip_debugger_ui(ui: &mut egui::Ui, ed: &mut EditorState, out: &mut Commands) {
    let now = ed.doc.stage.state.time();
    let total = ed.doc.stage.state.params.total_duration().max(1e-6);
    let Some(analysis) = ed.analysis().cloned() else {
        ui.label("the timeline cannot be analysed with this calibration");
        return;
    };
    ui.label(
        RichText::new("blue: elbow bend (0–180°) · band: bend side (green = as at rest, red = flipped) · pink: flips (click to jump)")
            .small()
            .weak(),
    );
    for side in SIDES {
        let samples = analysis.samples.get(side);
        let flips: Vec<_> = analysis.flips.iter().filter(|f| f.side == side).collect();
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{} arm", side.name())).strong());
            let text = format!("{} flip(s)", flips.len());
            let colour = if flips.is_empty() { SIDE_POS } else { FLIP };
            ui.label(RichText::new(text).color(colour));
        });
        let width = ui.available_width().max(120.0);
        let (response, painter) = ui.allocate_painter(vec2(width, 86.0), Sense::click());
        let rect = response.rect;
        painter.rect_filled(rect, 3.0, Color32::from_gray(24));
        let plot = Rect::from_min_max(rect.min + vec2(4.0, 4.0), rect.max - vec2(4.0, 14.0));
        let band = Rect::from_min_max(
            pos2(plot.min.x, plot.max.y + 3.0),
            pos2(plot.max.x, rect.max.y - 3.0),
        );
        let x_of = |t: f64| plot.min.x + (t / total) as f32 * plot.width();
        let y_of = |a: f64| plot.max.y - (a / std::f64::consts::PI) as f32 * plot.height();
        // Limit band.
        // The two-bone elbow limit band (a CCD arm limits its links' rotations instead).
        let settings = &ed.doc.stage.settings;
        let lim = settings.effective_elbow_limit(side);
        if lim.enabled && settings.arm(side).solver == crate::fishing::ArmSolverKind::TwoBone {
            for a in [lim.min_bend, lim.max_bend] {
                painter.hline(
                    plot.x_range(),
                    y_of(a),
                    Stroke::new(1.0, LIMIT.gamma_multiply(0.5)),
                );
            }
        }
        // Bend side band and angle curve.
        let points: Vec<Pos2> = samples
            .iter()
            .map(|s| pos2(x_of(s.time), y_of(s.elbow_bend)))
            .collect();
        for w in samples.windows(2) {
            let c = if w[0].bend_side >= 0.0 {
                SIDE_POS
            } else {
                SIDE_NEG
            };
            let r = Rect::from_x_y_ranges(x_of(w[0].time)..=x_of(w[1].time), band.y_range());
            painter.rect_filled(r, 0.0, c.gamma_multiply(0.7));
        }
        painter.add(egui::Shape::line(points, Stroke::new(1.5, ANGLE)));
        for f in &flips {
            let x = x_of(f.time);
            painter.vline(x, rect.y_range(), Stroke::new(2.0, FLIP));
        }
        // The scrubber.
        painter.vline(x_of(now), rect.y_range(), Stroke::new(1.0, Color32::WHITE));
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            // Snap to a flip marker within 6 px, else scrub where clicked.
            let near = flips
                .iter()
                .map(|f| (f.time, (x_of(f.time) - pos.x).abs()))
                .filter(|(_, d)| *d < 6.0)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let t = match near {
                Some((t, _)) => t,
                None => f64::from((pos.x - plot.min.x) / plot.width()) * total,
            };
            out.push(C::SetTime {
                seconds: t.clamp(0.0, total),
            });
        }
        response.on_hover_text(hover_text(side, &analysis));
    }
    ui.horizontal(|ui| {
        if ui
            .button("Apply pole search")
            .on_hover_text("Search poles over the whole timeline for fewer flips and natural elbows (undoable)")
            .clicked()
        {
            out.push(C::ApplyPoleProposal);
        }
        if let Some(p) = &ed.last_proposal {
            ui.label(
                RichText::new(format!(
                    "L {}→{}  R {}→{} flips",
                    p.left.flips_before, p.left.flips_after, p.right.flips_before, p.right.flips_after
                ))
                .weak(),
            );
        }
    });
}

fn hover_text(side: Side, a: &crate::fishing::TimelineAnalysis) -> String {
    let reach = a.out_of_reach.iter().filter(|i| i.side == side).count();
    let clamps = a.limit_clamps.iter().filter(|i| i.side == side).count();
    format!("out of reach: {reach} run(s); limit clamps: {clamps} run(s)")
}
