use anglerpose::fishing::{Phase, SessionState};
use anglerpose::preset::io as preset_io;
use anglerpose::render::{Gpu, capture::render_to_image};
use anglerpose::stage::{
    CameraPreset, OverlayOptions, SliceFacing, Stage, ViewOptions, camera_for_scaled,
};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Output PNG file.
    #[arg(long)]
    pub out: PathBuf,
    /// Render this preset's character, calibration, settings and state as the editor shows
    /// it (default: the bundled angler). `--phase` / `--t` override its state.
    #[arg(long, conflicts_with = "character")]
    pub preset: Option<PathBuf>,
    /// Render a character file (.glb/.gltf/.vrm/.fbx), seated with the default calibration.
    #[arg(long)]
    pub character: Option<PathBuf>,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: [u32; 2],
    #[arg(long, value_enum, default_value = "three-quarter")]
    pub camera: CameraPreset,
    /// A close-up of one hand on its grip (`left` or `right`) instead of `--camera`.
    #[arg(long, value_parser = parse_side)]
    pub close_up: Option<anglerpose::rig::Side>,
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
    /// Also draw each arm's stability slice round its target (green stable, amber sensitive,
    /// red beyond the flip boundary, grey out of reach; see `anglerpose stability`).
    #[arg(long)]
    pub stability: bool,
    /// The plane the stability slice lies in: bend-plane (default), camera or rod.
    #[arg(long, value_enum, default_value = "bend-plane", requires = "stability")]
    pub slice: SliceArg,
    /// Session phase (seated_hold, cast_wind_up, cast_forward, release, retrieve, strike,
    /// landing); default: the preset's, else seated_hold.
    #[arg(long, value_parser = parse_phase)]
    pub phase: Option<Phase>,
    /// Normalised time within the phase, 0..1 (default: the preset's, else 0).
    #[arg(long)]
    pub t: Option<f64>,
    /// Do not draw the water.
    #[arg(long)]
    pub no_water: bool,
    /// Do not draw the line, the lure and the fish.
    #[arg(long)]
    pub no_line: bool,
    /// The fish's pull on the line in the strike and the landing, newtons (0 = a straight
    /// rod; default: the preset's, else 18).
    #[arg(long)]
    pub fish_pull: Option<f64>,
    /// Where the rod bends: fast, moderate or slow (default: the preset's, else moderate).
    #[arg(long, value_enum)]
    pub rod_action: Option<RodActionArg>,
    /// Artist's props for `--character` or the bundled angler (a preset names its own).
    #[command(flatten)]
    pub props: super::prop_args::PropArgs,
}

/// `--rod-action` values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum RodActionArg {
    Fast,
    Moderate,
    Slow,
}

impl From<RodActionArg> for anglerpose::fishing::RodAction {
    fn from(a: RodActionArg) -> Self {
        match a {
            RodActionArg::Fast => Self::Fast,
            RodActionArg::Moderate => Self::Moderate,
            RodActionArg::Slow => Self::Slow,
        }
    }
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
    if let Some(t) = args.t
        && !(t.is_finite() && (0.0..=1.0).contains(&t))
    {
        anyhow::bail!("--t {t} is outside 0..1");
    }
    let mut stage = load_stage(args.preset.as_deref(), args.character.as_deref())?;
    let sources = args.props.sources();
    if sources != Default::default() {
        if args.preset.is_some() {
            anyhow::bail!("--rod, --net and --seat are for --character: a preset names its own");
        }
        stage.set_props(args.props.load()?)?;
    }
    let phase = args.phase.unwrap_or(stage.inputs.state.phase);
    let t = args.t.unwrap_or(if args.phase.is_some() {
        0.0
    } else {
        stage.inputs.state.t
    });
    let mut params = stage.inputs.state.params;
    if let Some(pull) = args.fish_pull {
        params.line.fish_pull = pull;
    }
    if let Some(action) = args.rod_action {
        params.rod_action = action.into();
    }
    stage.inputs.state = SessionState::new(phase, t, params);
    stage.update().context("posing the character")?;
    let mut view = ViewOptions::default();
    if args.no_overlays {
        view.overlays = OverlayOptions::NONE;
    }
    view.overlays.bone_lines = args.bones;
    view.overlays.stability = args.stability;
    view.overlays.slice_facing = match args.slice {
        SliceArg::BendPlane => SliceFacing::BendPlane,
        SliceArg::Camera => SliceFacing::Camera,
        SliceArg::Rod => SliceFacing::Rod,
    };
    view.xray = args.xray;
    view.water = !args.no_water;
    view.line = !args.no_line;
    view.mesh_visible = !args.no_mesh;
    let camera = match args
        .close_up
        .and_then(|side| stage.close_up(side, args.size))
    {
        Some(camera) => camera,
        None => camera_for_scaled(args.camera, args.size, stage.size_factor()),
    };
    let frame = stage.frame(camera, &view);
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

/// The stage of a preset, of a character file with default calibration, or of the bundled
/// angler; warnings and setup notes go to stderr.
pub fn load_stage(
    preset: Option<&std::path::Path>,
    character: Option<&std::path::Path>,
) -> anyhow::Result<Stage> {
    let stage = match (preset, character) {
        (Some(path), _) => {
            let preset = preset_io::load_preset(path)?;
            let (stage, warnings) = preset_io::load_stage(path, &preset)?;
            for w in warnings {
                eprintln!("warning: {w}");
            }
            stage
        }
        (None, Some(path)) => {
            let character = anglerpose::gltf_io::load(path)?;
            let props = anglerpose::stage::Props::load(&anglerpose::stage::bundled_assets_dir())
                .context("loading the bundled props")?;
            Stage::new(character, props)?
        }
        (None, None) => Stage::bundled().context("loading the bundled angler")?,
    };
    for n in &stage.notes {
        eprintln!("note: {n}");
    }
    Ok(stage)
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

fn parse_side(s: &str) -> Result<anglerpose::rig::Side, String> {
    match s {
        "left" => Ok(anglerpose::rig::Side::Left),
        "right" => Ok(anglerpose::rig::Side::Right),
        _ => Err(format!("{s:?} is not a side (left or right)")),
    }
}

/// `--slice`: where the stability slice lies.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SliceArg {
    BendPlane,
    Camera,
    Rod,
}
