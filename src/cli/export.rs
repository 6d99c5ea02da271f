use anglerpose::fishing::SessionState;
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
}

pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    if let Some(t) = args.t
        && !(t.is_finite() && (0.0..=1.0).contains(&t))
    {
        anyhow::bail!("--t {t} is outside 0..1");
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
        let s = stage.state;
        stage.state = SessionState::new(
            args.phase.unwrap_or(s.phase),
            args.t.unwrap_or(s.t),
            s.params,
        );
        stage.reset_flip_tracking();
        stage.update().context("posing the angler")?;
    }
    let bytes = match args.format {
        ExportFormat::Glb => {
            if args.samples.is_some() {
                anyhow::bail!("--samples applies to --format pose-json only");
            }
            preset::posed_glb(&stage)?
        }
        ExportFormat::PoseJson => {
            let states = match args.samples {
                Some(0) => anyhow::bail!("--samples must be at least 1"),
                Some(n) => preset::timeline_states(n, stage.state.params),
                None => vec![stage.state],
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
