//! `anglerpose ik ccd|two-bone --scene FILE`: the solvers on oracle-format scenes.

use super::scene_file::{SceneArgs, read_scene};
use anglerpose::oracle;
use anyhow::Context;
use clap::Subcommand;

#[derive(Subcommand, Debug)]
pub enum IkCommand {
    /// three.js r187 CCDIKSolver semantics on an oracle-format scene.
    Ccd(SceneArgs),
    /// Seed-001 two-bone IK on a scene with a `twoBone` block.
    TwoBone(SceneArgs),
}

pub fn run(cmd: IkCommand) -> anyhow::Result<()> {
    match cmd {
        IkCommand::Ccd(args) => ccd(args),
        IkCommand::TwoBone(args) => super::ik_two_bone::run(args),
    }
}

/// Solves the scene like the oracle (refresh, update, `updates` times) and prints the result.
fn ccd(args: SceneArgs) -> anyhow::Result<()> {
    let scene = read_scene(&args)?;
    let result =
        oracle::ccd_result(&scene).map_err(|e| anyhow::anyhow!("{}: {e}", args.scene.display()))?;
    let text = serde_json::to_string_pretty(&result).context("cannot serialise the result")?;
    outln!("{text}");
    Ok(())
}
