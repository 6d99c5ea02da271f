use anglerpose::fishing::{Phase, SessionState};
use anglerpose::render::{Gpu, capture::render_to_image};
use anglerpose::stage::{CameraPreset, OverlayOptions, Stage, ViewOptions, camera_for};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Output PNG file.
    #[arg(long)]
    pub out: PathBuf,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: [u32; 2],
    #[arg(long, value_enum, default_value = "three-quarter")]
    pub camera: CameraPreset,
    /// Draw only the model and props.
    #[arg(long)]
    pub no_overlays: bool,
    /// Also draw bone lines.
    #[arg(long)]
    pub bones: bool,
    /// Draw the character and props see-through (x-ray), so overlays inside the body read.
    #[arg(long)]
    pub xray: bool,
    /// Do not draw the character's mesh (props and overlays stay).
    #[arg(long)]
    pub no_mesh: bool,
    /// Session phase (seated_hold, cast_wind_up, cast_forward, release, retrieve, strike, landing).
    #[arg(long, default_value = "seated_hold", value_parser = parse_phase)]
    pub phase: Phase,
    /// Normalised time within the phase, 0..1.
    #[arg(long, default_value_t = 0.0)]
    pub t: f64,
}

pub fn parse_size(s: &str) -> Result<[u32; 2], String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size {s:?} is not WIDTHxHEIGHT"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=8192).contains(n))
            .ok_or_else(|| format!("size {s:?}: {v:?} is not a number in 1..=8192"))
    };
    Ok([parse(w)?, parse(h)?])
}

pub fn parse_phase(s: &str) -> Result<Phase, String> {
    Phase::from_name(s).ok_or_else(|| {
        let names: Vec<_> = Phase::ALL.iter().map(|p| p.name()).collect();
        format!("unknown phase {s:?}; one of {}", names.join(", "))
    })
}

pub fn run(args: RenderArgs) -> anyhow::Result<()> {
    if !(args.t.is_finite() && (0.0..=1.0).contains(&args.t)) {
        anyhow::bail!("--t {} is outside 0..1", args.t);
    }
    let mut stage = Stage::bundled().context("loading the bundled angler")?;
    stage.state = SessionState::new(args.phase, args.t, stage.state.params);
    stage.update().context("posing the angler")?;
    let mut view = ViewOptions::default();
    if args.no_overlays {
        view.overlays = OverlayOptions::NONE;
    }
    view.overlays.bone_lines = args.bones;
    view.xray = args.xray;
    view.mesh_visible = !args.no_mesh;
    let frame = stage.frame(camera_for(args.camera, args.size), &view);
    let gpu = Gpu::new_headless()?;
    let image = render_to_image(&gpu, args.size, &frame, &stage.mesh_data())?;
    save_png_atomic(&image, &args.out)?;
    eprintln!(
        "wrote {} ({}x{}, {})",
        args.out.display(),
        args.size[0],
        args.size[1],
        gpu.describe()
    );
    Ok(())
}

/// Writes a PNG atomically (temporary file in the same folder, fsync, rename; see
/// [`anglerpose::preset::io::write_atomic`]).
pub fn save_png_atomic(image: &image::RgbaImage, out: &std::path::Path) -> anyhow::Result<()> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut bytes, image::ImageFormat::Png)
        .with_context(|| format!("encoding {}", out.display()))?;
    anglerpose::preset::io::write_atomic(out, bytes.get_ref())
        .with_context(|| format!("writing {}", out.display()))?;
    Ok(())
}
