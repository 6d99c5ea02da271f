//! Subcommands; each lives in a file of its own.

mod assets;
mod ik;
mod inspect;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "anglerpose", version, about = "Fishing-pose editor and IK toolkit")]
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
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Ik(cmd) => ik::run(cmd),
        Command::Inspect(args) => inspect::run(args),
        Command::Assets(cmd) => assets::run(cmd),
    }
}
