//! Subcommands; each lives in a file of its own.

mod assets;
mod ik;
mod ik_two_bone;
mod inspect;
mod render;
mod solve;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "anglerpose",
    version,
    about = "Fishing-pose editor and IK toolkit"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
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
    /// Pose the bundled angler for a session state (or sample the timeline) and print JSON.
    Solve(solve::SolveArgs),
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Ik(cmd) => ik::run(cmd),
        Command::Inspect(args) => inspect::run(args),
        Command::Assets(cmd) => assets::run(cmd),
        Command::Render(args) => render::run(args),
        Command::Solve(args) => solve::run(args),
    }
}
