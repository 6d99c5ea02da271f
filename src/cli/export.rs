use anglerpose::fishing::{Phase, SessionState};
use anglerpose::preset::{self, io as preset_io};
use anyhow::Context;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The posed character with rod, net and stool as glTF 2.0 binary.
    Glb,
    /// A runtime pose table (JSON): per sampled time, bone name → local rotation/translation.
    PoseJson,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Preset file (default: the bundled assets/presets/seated_hold.json).
    #[arg(long)]
    pub preset: Option<PathBuf>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, value_enum, default_value = "glb")]
    pub format: ExportFormat,
    /// A named pose of the preset (its state and calibration) instead of the preset's state.
    #[arg(long)]
    pub pose: Option<String>,
    /// Session phase (overrides the preset's state).
    #[arg(long, value_parser = super::render::parse_phase)]
    pub phase: Option<anglerpose::fishing::Phase>,
    /// Normalised time within the phase, 0..1 (overrides the preset's state).
    #[arg(long)]
    pub t: Option<f64>,
    /// pose-json only: N samples evenly over the whole timeline instead of one state.
    #[arg(long)]
    pub samples: Option<usize>,
    /// glb only: add the session as animation clips (`session` and one per phase).
    #[arg(long)]
    pub animation: bool,
    /// With --animation: resampling rate in frames per second (1..=240).
    #[arg(long, default_value_t = 30.0)]
    pub fps: f64,
    /// With --animation: the phases to bake, `FIRST..LAST` or one phase (default: all).
    #[arg(long, value_parser = parse_phase_range)]
    pub phases: Option<(Phase, Phase)>,
}

/// `cast_wind_up..release`, or one phase name.
fn parse_phase_range(s: &str) -> Result<(Phase, Phase), String> {
    let phase = |name: &str| {
        Phase::from_name(name.trim()).ok_or_else(|| {
            let names: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
            format!("unknown phase {name:?} (phases: {})", names.join(", "))
        })
    };
    match s.split_once("..") {
        Some((a, b)) => Ok((phase(a)?, phase(b)?)),
        None => phase(s).map(|p| (p, p)),
    }
}

pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    if let Some(t) = args.t
        && !(t.is_finite() && (0.0..=1.0).contains(&t))
    {
        anyhow::bail!("--t {t} is outside 0..1");
    }
    // Flags that do not fit the format, before anything is loaded.
    match args.format {
        ExportFormat::Glb if args.samples.is_some() => {
            anyhow::bail!("--samples applies to --format pose-json only")
        }
        ExportFormat::Glb if !args.animation && args.phases.is_some() => {
            anyhow::bail!("--phases applies to --animation only")
        }
        ExportFormat::PoseJson if args.animation => {
            anyhow::bail!("--animation applies to --format glb only")
        }
        _ => {}
    }
    let path = args
        .preset
        .clone()
        .unwrap_or_else(preset_io::bundled_preset_path);
    let preset = preset_io::load_preset(&path)?;
    let (mut stage, warnings) = preset_io::load_stage(&path, &preset)?;
    for w in &warnings {
        eprintln!("{}: {w}", path.display());
    }
    if let Some(name) = &args.pose
        && !preset.apply_named(name, &mut stage)?
    {
        return Err(preset::PresetError::NoSuchPose {
            path,
            name: name.clone(),
            available: preset.poses.keys().cloned().collect::<Vec<_>>().join(", "),
        }
        .into());
    }
    if args.phase.is_some() || args.t.is_some() {
        let s = stage.inputs.state;
        stage.inputs.state = SessionState::new(
            args.phase.unwrap_or(s.phase),
            args.t.unwrap_or(s.t),
            s.params,
        );
        stage.reset_flip_tracking();
        stage.update().context("posing the angler")?;
    }
    let bytes = match args.format {
        ExportFormat::Glb if args.animation => {
            let (first, last) = args.phases.unwrap_or((Phase::SeatedHold, Phase::Landing));
            let options = preset::ClipOptions {
                fps: args.fps,
                first,
                last,
                ..Default::default()
            };
            let (bytes, clips) = preset::animated_glb(&mut stage, &options)?;
            for clip in &clips {
                eprintln!("{}", clip_summary(clip));
            }
            bytes
        }
        ExportFormat::Glb => preset::posed_glb(&stage)?,
        ExportFormat::PoseJson => {
            let states = match args.samples {
                Some(0) => anyhow::bail!("--samples must be at least 1"),
                Some(n) => preset::timeline_states(n, stage.inputs.state.params),
                None => vec![stage.inputs.state],
            };
            let table = preset::pose_table(&mut stage, &states).context("posing the samples")?;
            let mut text = serde_json::to_string_pretty(&table)?;
            text.push('\n');
            text.into_bytes()
        }
    };
    preset_io::write_atomic(&args.out, &bytes)
        .with_context(|| format!("writing {}", args.out.display()))?;
    eprintln!("wrote {} ({} bytes)", args.out.display(), bytes.len());
    Ok(())
}

/// One line per clip: frames, channels, keys and bytes before → after reduction, and the
/// measured bound.
pub fn clip_summary(clip: &preset::BakedClip) -> String {
    format!(
        "clip {}: {:.3} s, {} frames ({} samples), {} channels, keys {} -> {}, keyframe data {:.1} KiB -> {:.1} KiB, max joint error {:.3} mm (channel bound {:.4} mm), between samples {:.3} mm",
        clip.name,
        clip.duration,
        clip.frames,
        clip.samples,
        clip.channels.len(),
        clip.keys_before(),
        clip.keys_after(),
        clip.bytes_before() as f64 / 1024.0,
        clip.bytes_after() as f64 / 1024.0,
        clip.max_error * 1000.0,
        clip.channel_bound * 1000.0,
        clip.between_error * 1000.0,
    )
}
