//! [`Driver`]: everything the window app does besides drawing — applying commands with the
//! autosave's bookkeeping, the `--script` timeline and its test hooks (surface faults, a
//! resize between layout and acquire, injected GPU errors, screenshots), live reload,
//! autosaving, the layout file tests aim the mouse with, and frame timing. No window, no
//! GPU: the app asks it what to do and does the window's part.

use super::EditorState;
use super::command::{EditorCommand, FileCommand};
use super::files::Autosaver;
use super::script::{ScriptEvent, SurfaceFault, drag_commands};
use super::watch::CharacterWatcher;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a frame's script events ask of the window (the rest the driver did itself).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WindowRequests {
    /// Make the device report a validation error during this frame.
    pub gpu_error: bool,
    /// Write the viewport to these PNGs (in order).
    pub screenshots: Vec<PathBuf>,
}

/// The app's session outside the window (see the module docs).
pub struct Driver {
    script: Vec<ScriptEvent>,
    script_next: usize,
    pub autosave: Autosaver,
    /// Live reload of the character file (`None` in headless use).
    pub watcher: Option<CharacterWatcher>,
    /// A scripted surface fault for the next frame's surface texture.
    pub surface_fault: Option<SurfaceFault>,
    /// A scripted window resize (physical pixels) between this frame's layout and acquire.
    pub resize_before_acquire: Option<[u32; 2]>,
    /// A script, the quit dialog or the frame limit asked to quit.
    pub quitting: bool,
    layout_out: Option<PathBuf>,
    written_layout: [u32; 4],
    frame_times: Vec<f64>,
}

impl Driver {
    /// A driver for `script` (sorted by frame), writing the viewport's layout to
    /// `layout_out` when it changes.
    pub fn new(script: Vec<ScriptEvent>, autosave: Autosaver, layout_out: Option<PathBuf>) -> Self {
        Self {
            script,
            script_next: 0,
            autosave,
            watcher: None,
            surface_fault: None,
            resize_before_acquire: None,
            quitting: false,
            layout_out,
            written_layout: [u32::MAX; 4],
            frame_times: Vec::new(),
        }
    }

    /// Script events are still to come.
    pub fn scripted(&self) -> bool {
        self.script_next < self.script.len()
    }

    /// Applies `cmd` to `ed`. A successful save tells the autosave the work is on disk, and
    /// opening the autosave (recovery) that it was recovered; only then may the autosave go.
    /// Errors are logged (the editor shows them in its status bar).
    pub fn apply(&mut self, ed: &mut EditorState, cmd: impl Into<EditorCommand>) {
        use EditorCommand::File;
        let cmd = cmd.into();
        let saving = matches!(cmd, File(FileCommand::Save { .. }));
        let recovering =
            matches!(&cmd, File(FileCommand::Open { path }) if self.autosave.is_autosave(path));
        let file_op = saving || matches!(cmd, File(FileCommand::Open { .. }));
        match ed.apply(cmd) {
            Err(e) => tracing::warn!("editor: {e}"),
            Ok(()) => {
                if recovering {
                    self.autosave.recovered(ed.doc());
                } else if saving {
                    self.autosave.saved();
                }
                if file_op {
                    tracing::info!("{}", ed.message().unwrap_or_default());
                }
            }
        }
    }

    /// Runs the script events due by `frame`: commands and drags are applied to `ed`, the
    /// surface fault, resize and quit are kept for the app, GPU errors and screenshots
    /// are returned.
    pub fn run_script(&mut self, ed: &mut EditorState, frame: u64) -> WindowRequests {
        let mut requests = WindowRequests::default();
        while let Some(ev) = self.script.get(self.script_next) {
            if ev.frame > frame {
                break;
            }
            let ev = ev.clone();
            self.script_next += 1;
            if let Some(cmd) = ev.command {
                self.apply(ed, cmd);
            }
            if let Some(drag) = &ev.drag {
                match drag_commands(ed, drag) {
                    Some(cmds) => cmds.into_iter().for_each(|c| self.apply(ed, c)),
                    None => tracing::warn!("script: {:?} is not on screen", drag.handle),
                }
            }
            if let Some(fault) = ev.surface {
                self.surface_fault = Some(fault);
            }
            requests.gpu_error |= ev.gpu_error;
            if let Some(size) = ev.resize_before_acquire {
                self.resize_before_acquire = Some(size);
            }
            requests.screenshots.extend(ev.screenshot);
            self.quitting |= ev.quit;
        }
        requests
    }

    /// Writes `{"origin": [x, y], "size": [w, h]}` to the layout file when the viewport
    /// moved or resized (atomically; a failure is logged).
    pub fn write_layout(&mut self, origin_and_size: [u32; 4]) {
        let Some(path) = &self.layout_out else {
            return;
        };
        if origin_and_size == self.written_layout {
            return;
        }
        self.written_layout = origin_and_size;
        let [x, y, w, h] = origin_and_size;
        let text = format!("{{\"origin\": [{x}, {y}], \"size\": [{w}, {h}]}}\n");
        if let Err(e) = crate::preset::io::write_atomic(path, text.as_bytes()) {
            tracing::warn!("{}: {e}", path.display());
        }
    }

    /// Polls live reload (reloading the character when its file changed) and autosaves when
    /// due. Returns whether the character was reloaded and the next time this wants to run.
    pub fn idle(&mut self, ed: &mut EditorState, now: Instant) -> (bool, Option<Instant>) {
        let mut reload = false;
        if let Some(w) = &mut self.watcher {
            if let Err(e) = w.watch(&ed.doc().character_path) {
                tracing::warn!("live reload off: {e}");
            }
            reload = w.poll(now);
        }
        if reload {
            self.apply(ed, FileCommand::ReloadCharacter);
            tracing::info!("{}", ed.message().unwrap_or_default());
        }
        match self.autosave.tick(ed.doc(), now) {
            Ok(true) => {
                let path = self.autosave.path().unwrap_or(Path::new(""));
                tracing::info!("autosaved {}", path.display());
            }
            Ok(false) => {}
            Err(e) => tracing::error!("autosave: {e}"),
        }
        let reload_due = self.watcher.as_ref().and_then(|w| w.due());
        let wake = [self.autosave.next_due(ed.doc()), reload_due]
            .into_iter()
            .flatten()
            .min();
        (reload, wake)
    }

    /// Records one frame's duration, seconds.
    pub fn frame_done(&mut self, seconds: f64) {
        self.frame_times.push(seconds);
    }

    /// The mean frame time in seconds after the first frames (shader compilation, first
    /// uploads), and how many frames it covers; `None` before any frame.
    pub fn mean_frame(&self) -> Option<(f64, usize)> {
        if self.frame_times.is_empty() {
            return None;
        }
        let skip = (self.frame_times.len() / 5).min(10);
        let t = &self.frame_times[skip..];
        Some((t.iter().sum::<f64>() / t.len() as f64, t.len()))
    }
}
