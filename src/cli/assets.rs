use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum AssetsCommand {
    /// Write angler.glb, rod.glb, net.glb and stool.glb.
    Generate(GenerateArgs),
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Output folder.
    #[arg(long, default_value = "assets")]
    pub out: PathBuf,
}

pub fn run(cmd: AssetsCommand) -> anyhow::Result<()> {
    anyhow::bail!("not implemented yet: {cmd:?}")
}
