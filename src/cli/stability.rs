//! `anglerpose stability`: how far each arm's wrist target can move at one session state
//! before the elbow flips or the arm cannot reach (issue 36), and a picture of each arm's
//! slice with `--out`.

use super::render::{load_stage, parse_phase, save_png_atomic};
use anglerpose::fishing::{Phase, SampleClass, SessionState, StabilityGrid, StabilityReport};
use anglerpose::rig::Side;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct StabilityArgs {
    /// Preset file (default: the bundled angler).
    #[arg(long, conflicts_with = "character")]
    pub preset: Option<PathBuf>,
    /// A character file (.glb/.gltf/.vrm/.fbx), seated with the default calibration.
    #[arg(long)]
    pub character: Option<PathBuf>,
    /// Session phase (seated_hold, cast_wind_up, …); default: the preset's, else
    /// seated_hold.
    #[arg(long, value_parser = parse_phase)]
    pub phase: Option<Phase>,
    /// Normalised time within the phase, 0..1 (default: the preset's, else 0).
    #[arg(long)]
    pub t: Option<f64>,
    /// Half the size of the region sampled round each target, metres.
    #[arg(long, default_value_t = 0.08)]
    pub extent: f64,
    /// Samples per side of the slice, odd so that one lies on the target.
    #[arg(long, default_value_t = 33)]
    pub samples: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write both arms' slices (left, right) to this PNG.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Pixels per slice cell in the picture.
const CELL: u32 = 8;

pub fn run(args: StabilityArgs) -> anyhow::Result<()> {
    if !(args.extent.is_finite() && args.extent > 0.0 && args.extent <= 1.0) {
        anyhow::bail!(
            "--extent {}: use a length in metres, 0 < extent ≤ 1",
            args.extent
        );
    }
    if !(3..=127).contains(&args.samples) || args.samples.is_multiple_of(2) {
        anyhow::bail!("--samples {}: use an odd number in 3..=127", args.samples);
    }
    if let Some(t) = args.t
        && !(t.is_finite() && (0.0..=1.0).contains(&t))
    {
        anyhow::bail!("--t {t} is outside 0..1");
    }
    let mut stage = load_stage(args.preset.as_deref(), args.character.as_deref())?;
    let phase = args.phase.unwrap_or(stage.inputs.state.phase);
    let t = args.t.unwrap_or(if args.phase.is_some() {
        0.0
    } else {
        stage.inputs.state.t
    });
    stage.inputs.state = SessionState::new(phase, t, stage.inputs.state.params);
    let eval = *stage.update()?;
    let mut arms = Vec::new();
    for side in [Side::Left, Side::Right] {
        let report = eval.arms.get(side);
        let not_posed = || anyhow::anyhow!("the character is not posed");
        let plane = stage
            .bend_plane_grid(side, args.extent, args.samples)
            .ok_or_else(not_posed)?;
        let job = |grid| stage.stability_job(side, grid).ok_or_else(not_posed);
        let slice = job(plane)?.solve()?;
        // The margin along rays out to the extent, in twelfths of it (in the same axes).
        let rays = StabilityGrid {
            steps: [1, 1, 1],
            ..plane
        };
        let margin = job(rays)?.margin_along_rays(args.extent / 12.0, args.extent)?;
        arms.push((side, report.solver_kind(), slice, margin));
    }
    if args.json {
        let per_arm: serde_json::Map<String, serde_json::Value> = arms
            .iter()
            .map(|(side, solver, slice, margin)| {
                (
                    side.name().to_string(),
                    json!({
                        "solver": solver,
                        "reached": slice.reached,
                        "margin_m": margin.margin,
                        "margin_bounded": margin.nearest.is_some(),
                        "margin_direction": margin.direction.to_array(),
                        "nearest": margin.nearest,
                        "slice": {
                            "axes": slice.grid.axes.map(|a| a.to_array()),
                            "half_extent_m": slice.grid.half_extent,
                            "steps": slice.grid.steps,
                            "counts": counts_json(slice),
                            "margin_m": slice.margin,
                        },
                    }),
                )
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "phase": phase.name(),
                "t": t,
                "arms": per_arm,
            }))?
        );
    } else {
        outln!("stability at {} t={t:.2}:", phase.name());
        for (side, solver, slice, margin) in &arms {
            let margin = match margin.nearest {
                Some(class) => format!(
                    "{:.1} mm to the nearest {} target, toward {:.2?}",
                    margin.margin * 1e3,
                    class.name(),
                    margin.direction.to_array()
                ),
                None => format!(
                    "over {:.0} mm (no boundary that near along any ray)",
                    margin.margin * 1e3
                ),
            };
            outln!(
                "  {} arm ({}): margin {margin}",
                side.name(),
                solver.label()
            );
            outln!(
                "    slice through the bend plane: {} stable, {} sensitive, {} flipped, {} out of reach",
                slice.count(SampleClass::Stable),
                slice.count(SampleClass::Sensitive),
                slice.count(SampleClass::Flipped),
                slice.count(SampleClass::OutOfReach)
            );
        }
    }
    if let Some(out) = &args.out {
        let slices: Vec<&StabilityReport> = arms.iter().map(|a| &a.2).collect();
        save_png_atomic(&slice_picture(&slices), out)?;
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}

fn counts_json(r: &StabilityReport) -> serde_json::Value {
    json!({
        "stable": r.count(SampleClass::Stable),
        "sensitive": r.count(SampleClass::Sensitive),
        "flipped": r.count(SampleClass::Flipped),
        "out_of_reach": r.count(SampleClass::OutOfReach),
    })
}

/// The colour of a class in the picture: the viewport slice's
/// ([`anglerpose::stage::class_hex`]), opaque.
pub fn class_colour(c: SampleClass) -> [u8; 4] {
    let hex = anglerpose::stage::class_hex(c);
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255]
}

/// The slices side by side, one cell [`CELL`] pixels, the first axis to the right and the
/// second up, a gap between them; the target's cell outlined in white.
fn slice_picture(slices: &[&StabilityReport]) -> image::RgbaImage {
    let gap = 2 * CELL;
    let size = |r: &StabilityReport| (r.grid.steps[0] as u32 * CELL, r.grid.steps[1] as u32 * CELL);
    let width = slices.iter().map(|r| size(r).0 + gap).sum::<u32>() + gap;
    let height = slices.iter().map(|r| size(r).1).max().unwrap_or(0) + 2 * gap;
    let mut img = image::RgbaImage::from_pixel(width, height, image::Rgba([30, 30, 34, 255]));
    let mut left = gap;
    for r in slices {
        let (w, _) = size(r);
        let [nx, ny, _] = r.grid.steps;
        for s in &r.samples {
            let (cx, cy) = (s.cell[0] as u32, (ny - 1 - s.cell[1]) as u32);
            let colour = image::Rgba(class_colour(s.class));
            let centre = s.cell[0] == nx / 2 && s.cell[1] == ny / 2;
            for py in 0..CELL {
                for px in 0..CELL {
                    let edge = px == 0 || py == 0 || px == CELL - 1 || py == CELL - 1;
                    let c = if centre && edge {
                        image::Rgba([255, 255, 255, 255])
                    } else {
                        colour
                    };
                    img.put_pixel(left + cx * CELL + px, gap + cy * CELL + py, c);
                }
            }
        }
        left += w + gap;
    }
    img
}
