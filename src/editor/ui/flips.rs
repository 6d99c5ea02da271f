//! The elbow-flip debugger: per arm, elbow angle and bend side over the whole timeline (from
//! `analyse_timeline`), flip markers that jump the scrubber when clicked, a margin lane
//! under each arm's plot (its stability margin over the session, instants below a threshold
//! marked like flips, "jump to the weakest instant"), and the pole search's proposal as one
//! undoable step.

use super::Commands;
use crate::editor::EditorState;
use crate::editor::command::{DocumentCommand, PlaybackCommand, ViewCommand};
use crate::fishing::{ArmSample, MARGIN_REACH, PerSide, SIDES, TimelineAnalysis, margin_text};
use crate::rig::Side;
use egui::{Color32, RichText};
use egui_plot::{GridInput, GridMark, HLine, Line, Plot, PlotPoints, Points, Span, VLine};

const ANGLE: Color32 = Color32::from_rgb(110, 190, 255);
const SIDE_POS: Color32 = Color32::from_rgb(120, 220, 140);
const SIDE_NEG: Color32 = Color32::from_rgb(255, 110, 90);
const FLIP: Color32 = Color32::from_rgb(255, 70, 200);
const LIMIT: Color32 = Color32::from_rgb(255, 160, 60);
const REACH: Color32 = Color32::from_rgb(170, 170, 190);
const MARGIN: Color32 = Color32::from_rgb(230, 220, 120);

pub fn flip_debugger_ui(ui: &mut egui::Ui, ed: &mut EditorState, out: &mut Commands) {
    let now = ed.doc().stage.inputs.state.time();
    let total = ed
        .doc()
        .stage
        .inputs
        .state
        .params
        .total_duration()
        .max(1e-6);
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
    let margins = ed.margins().cloned();
    margin_header_ui(ui, ed, out);
    for side in SIDES {
        let flips: Vec<_> = analysis.flips.iter().filter(|f| f.side == side).collect();
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{} arm", side.name())).strong());
            let text = format!("{} flip(s)", flips.len());
            let colour = if flips.is_empty() { SIDE_POS } else { FLIP };
            ui.label(RichText::new(text).color(colour));
            ui.label(RichText::new(hover_text(side, &analysis)).weak());
        });
        let plot = arm_plot_ui(ui, ed, side, &analysis, now, total);
        let lane = margins
            .as_ref()
            .and_then(|m| margin_lane_ui(ui, ed, side, (&analysis, m), now, total));
        if let Some(t) = plot.or(lane) {
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
        if let Some(p) = &ed.edits().last_proposal() {
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

/// The margin lane's threshold slider and the jump to the session's weakest instant.
fn margin_header_ui(ui: &mut egui::Ui, ed: &mut EditorState, out: &mut Commands) {
    let weakest = ed.weakest_instant();
    ui.horizontal(|ui| {
        let mut mm = ed.view().margin_threshold() * 1000.0;
        let slider = egui::Slider::new(&mut mm, 0.0..=MARGIN_REACH * 1000.0)
            .text("margin threshold (mm)")
            .fixed_decimals(0);
        if ui
            .add(slider)
            .on_hover_text("Instants whose stability margin is below this are marked in the lanes")
            .changed()
        {
            out.push(ViewCommand::SetMarginThreshold {
                metres: mm / 1000.0,
            });
        }
    });
    ui.horizontal(|ui| {
        if let Some((side, t, m)) = weakest {
            if ui
                .button("Jump to the weakest instant")
                .on_hover_text("Scrub to the smallest stability margin of either arm")
                .clicked()
            {
                out.push(PlaybackCommand::JumpToWeakest);
            }
            ui.label(
                RichText::new(format!(
                    "{} arm, {t:.2} s: {} mm",
                    side.name(),
                    margin_text(m)
                ))
                .weak(),
            );
        }
    });
}

/// One arm's stability margin over the session (millimetres against seconds, the same time
/// axis as the flip plot), its runs below the threshold shaded and marked at their weakest
/// instant like flips. Returns the time to scrub to when clicked (snapping to a mark).
fn margin_lane_ui(
    ui: &mut egui::Ui,
    ed: &EditorState,
    side: Side,
    (analysis, margins): (&TimelineAnalysis, &PerSide<Vec<f64>>),
    now: f64,
    total: f64,
) -> Option<f64> {
    let samples = analysis.samples.get(side);
    let threshold = ed.view().margin_threshold();
    let thin: Vec<_> = analysis
        .thin_margins(margins, threshold)
        .into_iter()
        .filter(|r| r.side == side)
        .collect();
    // Each thin run is marked where its margin is smallest.
    let marks: Vec<f64> = thin
        .iter()
        .filter_map(|r| {
            (r.first_sample..=r.last_sample)
                .min_by(|&a, &b| margins.get(side)[a].total_cmp(&margins.get(side)[b]))
                .map(|k| samples[k].time)
        })
        .collect();
    let half = 0.5 * total / samples.len().saturating_sub(1).max(1) as f64;
    let response = Plot::new(("margin_lane", side.name()))
        .height(56.0)
        .y_axis_label("margin (mm)")
        .y_grid_spacer(margin_marks)
        .include_x(0.0)
        .include_x(total)
        .include_y(0.0)
        .include_y(MARGIN_REACH * 1000.0)
        .allow_scroll(false)
        .show_axes([false, true])
        .label_formatter(|pos| {
            let p = hovered(pos);
            Some(format!("{:.2} s\n{:.1} mm", p.x, p.y))
        })
        .show(ui, |plot| {
            for run in &thin {
                plot.span(
                    Span::new(
                        "thin margin",
                        (run.start_time - half)..=(run.end_time + half),
                    )
                    .fill(FLIP.gamma_multiply(0.2))
                    .border_width(0.0),
                );
            }
            plot.hline(
                HLine::new("threshold", threshold * 1000.0)
                    .color(FLIP.gamma_multiply(0.6))
                    .width(1.0),
            );
            let line: PlotPoints = samples
                .iter()
                .zip(margins.get(side))
                .map(|(s, m)| [s.time, m * 1000.0])
                .collect();
            plot.line(Line::new("margin", line).color(MARGIN).width(1.5));
            for &t in &marks {
                plot.vline(VLine::new("thin margin", t).color(FLIP).width(2.0));
            }
            plot.vline(VLine::new("now", now).color(Color32::WHITE).width(1.0));
            plot.pointer_coordinate()
        });
    clicked_time(&response, &marks)
}

/// The margin lane's marks (millimetres): the smallest round step whose marks lie at least
/// 32 points apart, where egui_plot writes their values (the default steps put them closer
/// in a lane this low, so the axis had no numbers).
fn margin_marks(input: GridInput) -> Vec<GridMark> {
    // `base_step_size` spans the plot's smallest grid spacing, 8 points.
    let step = [5.0, 10.0, 25.0, 50.0, 100.0, 150.0, 300.0, 600.0, 1200.0]
        .into_iter()
        .find(|&s| s >= 4.0 * input.base_step_size)
        .unwrap_or(1200.0);
    let (lo, hi) = input.bounds;
    let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
    (first..=last)
        .map(|k| GridMark {
            value: k as f64 * step,
            step_size: step,
        })
        .collect()
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
    let settings = &ed.doc().stage.inputs.settings;
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
        .label_formatter(|pos| {
            let p = hovered(pos);
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
    clicked_time(&response, &flips)
}

/// The plot position under the mouse, near a data point or not.
fn hovered(pos: &egui_plot::HoverPosition) -> egui_plot::PlotPoint {
    match pos {
        egui_plot::HoverPosition::NearDataPoint { position, .. }
        | egui_plot::HoverPosition::Elsewhere { position } => *position,
    }
}

/// The time a click on a plot scrubs to (`None` without a click): the nearest of `marks`
/// within 2% of the view's width, else where it was clicked.
fn clicked_time(
    response: &egui_plot::PlotResponse<Option<egui_plot::PlotPoint>>,
    marks: &[f64],
) -> Option<f64> {
    if !response.response.clicked() {
        return None;
    }
    let x = response.inner?.x;
    let width = response.transform.bounds().width();
    let near = marks
        .iter()
        .map(|&t| (t, (t - x).abs()))
        .filter(|(_, d)| *d < 0.02 * width)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    Some(near.map_or(x, |(t, _)| t))
}

#[cfg(test)]
mod tests {
    use super::margin_marks;
    use egui_plot::GridInput;

    /// The marks of a lane `points` high showing `bounds` (mm), as values.
    fn marks(bounds: (f64, f64), points: f64) -> Vec<f64> {
        let input = GridInput {
            bounds,
            // The value 8 points span (the plot's smallest grid spacing).
            base_step_size: (bounds.1 - bounds.0) / points * 8.0,
        };
        margin_marks(input).iter().map(|m| m.value).collect()
    }

    #[test]
    fn the_margin_lane_marks_round_steps_far_enough_apart_to_be_labelled() {
        // The lane as drawn: about 40 points of plot for 0..300 mm and egui_plot's margins.
        assert_eq!(marks((-15.0, 315.0), 40.0), vec![0.0, 300.0]);
        // Zoomed in, finer round steps, still at least 32 points apart.
        assert_eq!(marks((0.0, 60.0), 40.0), vec![0.0, 50.0]);
        assert_eq!(
            marks((0.0, 600.0), 160.0),
            vec![0.0, 150.0, 300.0, 450.0, 600.0]
        );
    }
}
