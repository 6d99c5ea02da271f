use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// A .glb or .gltf file.
    pub file: PathBuf,
}

pub fn run(args: InspectArgs) -> anyhow::Result<()> {
    anyhow::bail!("not implemented yet: {args:?}")
}
