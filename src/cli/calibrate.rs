//! `anglerpose calibrate CHARACTER --out PRESET.json`: frames, seats and fits any humanoid,
//! chooses grip offsets and poles over the whole session timeline, saves a preset and prints
//! a per-phase report.

use anglerpose::fishing::{CalibrationReport, calibrate, margin_text};
use anglerpose::preset::{Preset, io as preset_io};
use anglerpose::rig::{BodyRole, HumanoidMap, Role};
use anglerpose::stage::Stage;
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// The character (.glb/.gltf/.fbx, or a .vrm: its declared humanoid maps its bones).
    pub character: PathBuf,
    /// Where to write the preset (atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Timeline samples to calibrate over (≥ 600 recommended).
    #[arg(long, default_value_t = 600)]
    pub samples: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Calibrate for a left-handed angler (the left hand holds the reel seat).
    #[arg(long)]
    pub left_handed: bool,
    #[command(flatten)]
    pub props: super::prop_args::PropArgs,
}

/// What stops a character from being calibrated, naming the missing roles; `None` when it can.
pub fn refusal(source: &std::path::Path, map: &HumanoidMap) -> Option<String> {
    if map.body.is_some() && map.has_both_arms() {
        return None;
    }
    let mut missing: Vec<String> = map
        .missing
        .iter()
        .filter(|r| {
            matches!(
                r.part,
                anglerpose::rig::ArmPart::UpperArm
                    | anglerpose::rig::ArmPart::Forearm
                    | anglerpose::rig::ArmPart::Hand
            )
        })
        .map(Role::to_string)
        .collect();
    missing.extend(
        map.body_missing
            .iter()
            .filter(|r| !matches!(r, BodyRole::Toe(_) | BodyRole::Neck))
            .map(BodyRole::to_string),
    );
    let mut s = format!(
        "{} is not a humanoid that can sit and hold a rod: missing {}",
        source.display(),
        if missing.is_empty() {
            "a body".to_string()
        } else {
            missing.join(", ")
        }
    );
    for n in &map.notes {
        let _ = write!(s, "; {n}");
    }
    Some(s)
}

pub fn run(args: CalibrateArgs) -> anyhow::Result<()> {
    if args.samples < 2 || args.samples > 100_000 {
        anyhow::bail!("--samples {}: use 2..=100000", args.samples);
    }
    let character = anglerpose::gltf_io::load(&args.character)?;
    let props = args.props.load()?;
    let source = character.source.clone();
    let map = character.detect_humanoid();
    if let Some(why) = refusal(&source, &map) {
        anyhow::bail!(why);
    }
    let mut stage = match Stage::new(character, props) {
        Ok(s) => s,
        Err(e) => anyhow::bail!("{} cannot be calibrated: {e}", source.display()),
    };
    if let Some(why) = refusal(&source, &stage.map) {
        anyhow::bail!(why);
    }
    if args.left_handed {
        stage.inputs.state.params.handedness = anglerpose::fishing::Handedness::Left;
    }
    let threads = args
        .threads
        .unwrap_or_else(anglerpose::fishing::default_threads);
    let (calibration, report) = calibrate(
        &stage.actor,
        &stage.inputs.settings,
        &stage.inputs.state.params,
        args.samples,
        threads,
    )?;
    stage.inputs.calibration = calibration;
    stage.reset_flip_tracking();
    stage.update()?;
    let character_ref = preset_io::character_ref(&args.out, &args.character)?;
    let (rod, net, seat) = preset_io::prop_refs(&args.out, &stage.props.sources)?;
    let preset = Preset {
        rod,
        net,
        seat,
        ..Preset::from_stage(&stage, character_ref)
    };
    preset_io::save_preset_atomic(&args.out, &preset)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for n in &stage.notes {
            outln!("note: {n}");
        }
        for line in super::inspect_prop::props_lines(&stage.props) {
            outln!("{line}");
        }
        outln!("{}", report_text(&report).trim_end_matches('\n'));
    }
    eprintln!("wrote {}", args.out.display());
    Ok(())
}

fn report_text(r: &CalibrationReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "calibrated over {} samples ({} candidate timelines): reached left {:.1}%, right {:.1}%, {} flip(s)",
        r.samples,
        r.evaluations,
        100.0 * r.reached_fraction.left,
        100.0 * r.reached_fraction.right,
        r.flips
    );
    let _ = writeln!(
        s,
        "  {:<6} {:<13} {:>8} {:>14} {:>6} {:>7} {:>7} {:>12} {:>10}  contact",
        "arm",
        "phase",
        "reached",
        "residual (mm)",
        "flips",
        "clamps",
        "inside",
        "margin (mm)",
        "flip (mm)"
    );
    for (side, rows) in [("left", &r.per_arm.left), ("right", &r.per_arm.right)] {
        for p in rows {
            // Fingers touching the held surface of those on it, and the worst gap.
            let contact = if p.fingers_on_grip == 0 {
                "-".to_string()
            } else {
                format!(
                    "{}/{} fingers touching, worst {:+.1} mm",
                    p.fingers_touching,
                    p.fingers_on_grip,
                    p.worst_finger_gap * 1000.0
                )
            };
            let _ = writeln!(
                s,
                "  {:<6} {:<13} {:>4}/{:<4} {:>14.2} {:>6} {:>7} {:>7} {:>12} {:>10}  {contact}",
                side,
                p.phase.name(),
                p.reached,
                p.samples,
                p.worst_residual * 1000.0,
                p.flips,
                p.clamps,
                p.elbow_inside,
                margin_text(p.smallest_margin),
                margin_text(p.smallest_flip_margin),
            );
        }
    }
    s
}
