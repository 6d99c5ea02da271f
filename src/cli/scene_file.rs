//! The `--scene FILE` argument of the `ik` commands and reading it (size-capped, errors
//! naming the file and the JSON path).

use anglerpose::oracle;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SceneArgs {
    /// Scene file (three.js oracle scene format).
    #[arg(long)]
    pub scene: PathBuf,
}

/// Largest scene file accepted. Oracle scenes are a few kilobytes; parsing a JSON `Value`
/// takes several times the text's size in memory, so larger files are refused before they
/// are read rather than parsed.
pub const MAX_SCENE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads and parses a scene file; errors name the file (and the JSON path when parsing).
/// Files over [`MAX_SCENE_BYTES`] are refused without being read in full.
pub fn read_scene(args: &SceneArgs) -> anyhow::Result<oracle::Scene> {
    use std::io::Read;
    let name = args.scene.display().to_string();
    let too_big = |size: u64| {
        anyhow::anyhow!(
            "{name}: the scene file is {size} bytes, larger than the {MAX_SCENE_BYTES} bytes \
             a scene may have"
        )
    };
    let file = std::fs::File::open(&args.scene)
        .with_context(|| format!("{name}: cannot read the scene file"))?;
    if let Ok(meta) = file.metadata()
        && meta.len() > MAX_SCENE_BYTES
    {
        return Err(too_big(meta.len()));
    }
    // The size may change between the check and the read (or not be known for a pipe).
    let mut text = String::new();
    file.take(MAX_SCENE_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("{name}: cannot read the scene file"))?;
    if text.len() as u64 > MAX_SCENE_BYTES {
        return Err(too_big(text.len() as u64));
    }
    Ok(oracle::parse_scene(&text, &name)?)
}
