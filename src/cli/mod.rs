//! Subcommands; each lives in a file of its own.

/// `println!` for command output: a closed pipe (`anglerpose solve … | head`) ends the
/// command quietly through [`ClosedPipe`] instead of panicking; other write errors are errors.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))?
    };
}

mod assets;
mod calibrate;
mod edit;
mod export;
mod ik;
mod ik_two_bone;
mod inspect;
mod inspect_prop;
mod prop_args;
mod render;
mod retarget;
mod scene_file;
mod solve;
mod stability;
mod validate;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "anglerpose",
    version,
    about = "Fishing-pose editor and IK toolkit"
)]
pub struct Cli {
    /// Without a subcommand the editor opens on the bundled angler.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the interactive editor on a preset or a character (default: the bundled angler).
    Edit(edit::EditArgs),
    /// Run an IK solver on a JSON scene and print the result as JSON.
    #[command(subcommand)]
    Ik(ik::IkCommand),
    /// Print skins, joints, the humanoid map and warnings of a glTF file.
    Inspect(inspect::InspectArgs),
    /// Generate the bundled assets (angler, rod, net, stool).
    #[command(subcommand)]
    Assets(assets::AssetsCommand),
    /// Render the bundled angler, seated with the rod, to a PNG (headless).
    Render(render::RenderArgs),
    /// Fit any humanoid character: seat it, choose grip offsets and poles over the whole
    /// session, write a preset and print a per-phase report.
    Calibrate(calibrate::CalibrateArgs),
    /// Carry a preset to another character through the humanoid map (normalised by the
    /// body), then re-fit the rod adjustment and poles; grips keep their places on the rod.
    Retarget(retarget::RetargetArgs),
    /// Pose the bundled angler for a session state (or sample the timeline) and print JSON.
    Solve(solve::SolveArgs),
    /// Export the posed character (glTF binary) or a pose table (JSON) from a preset.
    Export(export::ExportArgs),
    /// Check a preset file and print every problem with its JSON path.
    Validate(validate::ValidateArgs),
    /// How far each arm's target can move before the elbow flips or the arm cannot reach,
    /// at one session state; `--out` draws each arm's slice.
    Stability(stability::StabilityArgs),
}

/// The reader of our standard output went away (e.g. `| head`): stop quietly, exit 0.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
pub struct ClosedPipe;

/// Writes one line to standard output. A broken pipe becomes [`ClosedPipe`].
pub fn write_line(args: std::fmt::Arguments) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.write_all(b"\n"));
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(ClosedPipe.into()),
        other => Ok(other?),
    }
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        return edit::run(edit::EditArgs {
            window: [1600, 900],
            ..Default::default()
        });
    };
    match command {
        Command::Edit(args) => edit::run(args),
        Command::Ik(cmd) => ik::run(cmd),
        Command::Inspect(args) => inspect::run(args),
        Command::Assets(cmd) => assets::run(cmd),
        Command::Render(args) => render::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Stability(args) => stability::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Retarget(args) => retarget::run(args),
        Command::Export(args) => export::run(args),
        Command::Validate(args) => validate::run(args),
    }
}
