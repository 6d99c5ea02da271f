//! The elbow-flip debugger: per arm, elbow angle and bend side over the whole timeline (from
//! `analyse_timeline`), flip markers that jump the scrubber when clicked, and the pole
//! search's proposal as one undoable step.

use super::Commands;
use crate::editor::EditorState;
use crate::editor::command::{DocumentCommand, PlaybackCommand};
use crate::fishing::{ArmSample, SIDES};
use crate::rig::Side;
use egui::{Color32, RichText};
use egui_plot::{HLine, Line, Plot, PlotPoints, Points, Span, VLine};

const ANGLE: Color32 = Color32::from_rgb(110, 190, 255);
const SIDE_POS: Color32 = Color32::from_rgb(120, 220, 140);
const SIDE_NEG: Color32 = Color32::from_rgb(255, 110, 90);
const FLIP: Color32 = Color32::from_rgb(255, 70, 200);
const LIMIT: Color32 = Color32::from_rgb(255, 160, 60);
const REACH: Color32 = Color32::from_rgb(170, 170, 190);

pub fn flip_debugger_ui(ui: &mut egui::Ui, ed: &mut EditorState, out: &mut Commands) {
    let now = ed.doc.stage.inputs.state.time();
    let total = ed.doc.stage.inputs.state.params.total_duration().max(1e-6);
    let Some(analysis) = ed.analysis().cloned() else {
        ui.label("the timeline cannot be analysed with this calibration");
        return;
    };
    ui.label(
        RichText::new(
            "blue: elbow bend · green/red dots: bend side as at rest / flipped · pink: flips \
             (click near one to jump) · grey bands: out of reach · orange bands: limit clamps \
             · drag to pan, scroll to zoom, double-click to reset",
        )
        .small()
        .weak(),
    );
    for side in SIDES {
        let flips: Vec<_> = analysis.flips.iter().filter(|f| f.side == side).collect();
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{} arm", side.name())).strong());
            let text = format!("{} flip(s)", flips.len());
            let colour = if flips.is_empty() { SIDE_POS } else { FLIP };
            ui.label(RichText::new(text).color(colour));
            ui.label(RichText::new(hover_text(side, &analysis)).weak());
        });
        if let Some(t) = arm_plot_ui(ui, ed, side, &analysis, now, total) {
            out.push(PlaybackCommand::SetTime {
                seconds: t.clamp(0.0, total),
            });
        }
    }
    ui.horizontal(|ui| {
        if ui
            .button("Apply pole search")
            .on_hover_text("Search poles over the whole timeline for fewer flips and natural elbows (undoable)")
            .clicked()
        {
            out.push(DocumentCommand::ApplyPoleProposal);
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

/// One arm's elbow bend over the session (degrees against seconds) with hover read-out, zoom
/// and pan, bands for out-of-reach and limit-clamp runs (both solvers), the two-bone elbow
/// limits as lines, flips and the scrubber. Returns the time to scrub to when clicked.
fn arm_plot_ui(
    ui: &mut egui::Ui,
    ed: &EditorState,
    side: Side,
    analysis: &crate::fishing::TimelineAnalysis,
    now: f64,
    total: f64,
) -> Option<f64> {
    let samples = analysis.samples.get(side);
    let flips: Vec<f64> = analysis
        .flips
        .iter()
        .filter(|f| f.side == side)
        .map(|f| f.time)
        .collect();
    let settings = &ed.doc.stage.inputs.settings;
    let lim = settings.effective_elbow_limit(side);
    let two_bone = settings.arm(side).solver == crate::fishing::ArmSolverKind::TwoBone;
    // A run covers its samples and half a sample interval either side (a one-sample run is
    // still a visible band).
    let half = 0.5 * total / samples.len().saturating_sub(1).max(1) as f64;
    let band = move |r: &crate::fishing::TimelineIssue| (r.start_time - half)..=(r.end_time + half);
    let response = Plot::new(("flip_plot", side.name()))
        .height(120.0)
        .x_axis_label("session time (s)")
        .y_axis_label("elbow bend (°)")
        .include_x(0.0)
        .include_x(total)
        .include_y(0.0)
        .include_y(180.0)
        .allow_scroll(false)
        .label_formatter(move |pos| {
            let p = match pos {
                egui_plot::HoverPosition::NearDataPoint { position, .. }
                | egui_plot::HoverPosition::Elsewhere { position } => *position,
            };
            Some(format!("{:.2} s\n{:.1}°", p.x, p.y))
        })
        .show(ui, |plot| {
            for run in analysis.out_of_reach.iter().filter(|r| r.side == side) {
                plot.span(
                    Span::new("out of reach", band(run))
                        .fill(REACH.gamma_multiply(0.25))
                        .border_width(0.0),
                );
            }
            for run in analysis.limit_clamps.iter().filter(|r| r.side == side) {
                plot.span(
                    Span::new("limit clamp", band(run))
                        .fill(LIMIT.gamma_multiply(0.25))
                        .border_width(0.0),
                );
            }
            if lim.enabled && two_bone {
                for a in [lim.min_bend, lim.max_bend] {
                    plot.hline(
                        HLine::new("elbow limit", a.to_degrees())
                            .color(LIMIT)
                            .width(1.0),
                    );
                }
            }
            let bend: PlotPoints = samples
                .iter()
                .map(|s| [s.time, s.elbow_bend.to_degrees()])
                .collect();
            plot.line(Line::new("elbow bend", bend).color(ANGLE).width(1.5));
            let (same, flipped): (Vec<&ArmSample>, Vec<&ArmSample>) =
                samples.iter().partition(|s| s.bend_side >= 0.0);
            for (name, set, colour) in [
                ("as at rest", same, SIDE_POS),
                ("flipped side", flipped, SIDE_NEG),
            ] {
                let pts: PlotPoints = set.iter().map(|s| [s.time, 2.0]).collect();
                plot.points(Points::new(name, pts).color(colour).radius(1.5));
            }
            for &t in &flips {
                plot.vline(VLine::new("flip", t).color(FLIP).width(2.0));
            }
            plot.vline(VLine::new("now", now).color(Color32::WHITE).width(1.0));
            plot.pointer_coordinate()
        });
    if !response.response.clicked() {
        return None;
    }
    let at = response.inner?;
    // Snap to a flip within 2% of the view's width, else scrub where clicked.
    let width = response.transform.bounds().width();
    let near = flips
        .iter()
        .map(|&t| (t, (t - at.x).abs()))
        .filter(|(_, d)| *d < 0.02 * width)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    Some(near.map_or(at.x, |(t, _)| t))
}
