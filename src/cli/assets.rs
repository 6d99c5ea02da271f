use anglerpose::assetgen::generate_all;
use anyhow::Context;
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub enum AssetsCommand {
    /// Write angler.glb, rod.glb, net.glb, stool.glb, rod_surf.glb and rod_baitcaster.glb.
    Generate(GenerateArgs),
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Output folder.
    #[arg(long, default_value = "assets")]
    pub out: PathBuf,
}

pub fn run(cmd: AssetsCommand) -> anyhow::Result<()> {
    match cmd {
        AssetsCommand::Generate(args) => generate(&args.out),
    }
}

fn generate(out: &std::path::Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the output folder {}", out.display()))?;
    for file in generate_all() {
        let path = out.join(file.file_name);
        std::fs::write(&path, &file.bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("wrote {} ({} bytes)", path.display(), file.bytes.len());
    }
    Ok(())
}
