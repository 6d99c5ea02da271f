//! `anglerpose edit [FILE]`: the interactive editor (also what plain `anglerpose` opens).

use anglerpose::editor::app::{AppOptions, run_app};
use anglerpose::editor::script::load_script;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug, Default)]
pub struct EditArgs {
    /// A preset (.json) or a character (.glb / .gltf / .vrm / .fbx); default: the bundled angler.
    pub file: Option<PathBuf>,
    /// Quit after this many frames and print the mean frame time.
    #[arg(long)]
    pub exit_after_frames: Option<u64>,
    /// Write the 3D viewport to this PNG when quitting.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Screenshot size WIDTHxHEIGHT (default: the viewport's size).
    #[arg(long, value_parser = super::render::parse_size)]
    pub screenshot_size: Option<[u32; 2]>,
    /// Leave overlays and gizmos out of the screenshot.
    #[arg(long)]
    pub screenshot_no_overlays: bool,
    /// A JSON list of timed input events or editor commands (see `editor::script`).
    #[arg(long)]
    pub script: Option<PathBuf>,
    /// Window size WIDTHxHEIGHT in logical pixels.
    #[arg(long, default_value = "1600x900", value_parser = super::render::parse_size)]
    pub window: [u32; 2],
    /// Write the viewport's place in the window to this JSON file (for end-to-end tests).
    #[arg(long)]
    pub layout_out: Option<PathBuf>,
    /// Seconds between autosaves of unsaved changes.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    pub autosave_seconds: f64,
    /// Recover the autosave of a session that did not exit cleanly (as the recovery dialog's
    /// Recover button does); fails when there is none.
    #[arg(long)]
    pub recover: bool,
    /// MSAA samples of the 3D view (1 or 4; default: 1 on CPU adapters, else the most the
    /// adapter offers up to 4). With 1 the view is drawn straight into the window; with more
    /// it is rendered offscreen, resolved and shown as an image.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4))]
    pub msaa: Option<u32>,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=86_400.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "{text:?} is not a number of seconds from 0 to 86400"
        )),
    }
}

pub fn run(args: EditArgs) -> anyhow::Result<()> {
    let script = match &args.script {
        Some(path) => load_script(path)?,
        None => Vec::new(),
    };
    run_app(AppOptions {
        file: args.file,
        exit_after_frames: args.exit_after_frames,
        screenshot: args.screenshot,
        screenshot_size: args.screenshot_size,
        screenshot_overlays: !args.screenshot_no_overlays,
        script,
        window_size: args.window,
        layout_out: args.layout_out,
        autosave_interval: Some(Duration::from_secs_f64(args.autosave_seconds)),
        recover: args.recover,
        msaa: args.msaa,
    })?;
    Ok(())
}
