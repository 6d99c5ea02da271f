use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum IkCommand {
    /// three.js r187 CCDIKSolver semantics on an oracle-format scene.
    Ccd(SceneArgs),
    /// Seed-001 two-bone IK on a scene with a `twoBone` block.
    TwoBone(SceneArgs),
}

#[derive(Args, Debug)]
pub struct SceneArgs {
    /// Scene file (three.js oracle scene format).
    #[arg(long)]
    pub scene: PathBuf,
}

pub fn run(cmd: IkCommand) -> anyhow::Result<()> {
    anyhow::bail!("not implemented yet: {cmd:?}")
}
