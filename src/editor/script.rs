//! Scripted input for tests and demos: a JSON list of events, each at a frame number.
//!
//! ```json
//! [
//!   {"frame": 3, "drag": {"handle": {"target": "right"}, "by": [40, -30]}},
//!   {"frame": 5, "command": {"cmd": "set_time", "seconds": 1.5}},
//!   {"frame": 6, "command": {"cmd": "save", "path": "out.json"}},
//!   {"frame": 7, "screenshot": "shot.png"},
//!   {"frame": 8, "surface": "lost"},
//!   {"frame": 9, "resize_before_acquire": [300, 200]},
//!   {"frame": 9, "gpu_error": true},
//!   {"frame": 10, "quit": true}
//! ]
//! ```
//! A `drag` picks the handle at its current pixel (the same camera the viewport uses) and
//! moves it by `by` pixels in four steps, then ends the drag: exactly a mouse drag's commands.
//! A `surface` fault (`"lost"` or `"outdated"`) makes that frame's window surface report it
//! instead of a texture, so the app recovers exactly as from a real one. A
//! `resize_before_acquire` asks the window system for that inner size (physical pixels) after
//! the frame's UI is laid out and before its surface texture is acquired: the race of a
//! window manager resizing the window mid-frame, made repeatable. A `gpu_error` makes the
//! device report a validation error during that frame (wgpu's default handler would panic):
//! the app logs it, drops the frame and rebuilds its renderer.

use super::EditorState;
use super::command::EditorCommand;
use super::handles::Handle;
use super::pick::handle_pixel;
use crate::editor::command::DragCommand;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptDrag {
    pub handle: Handle,
    pub by: [f64; 2],
}

/// A window-surface failure a script can inject (what `get_current_texture` may report).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SurfaceFault {
    Lost,
    Outdated,
}

/// One scripted event: any of `command`, `drag`, `surface`, `resize_before_acquire`,
/// `screenshot`, `quit` (applied in that order).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptEvent {
    #[serde(default)]
    pub frame: u64,
    #[serde(default)]
    pub command: Option<EditorCommand>,
    #[serde(default)]
    pub drag: Option<ScriptDrag>,
    #[serde(default)]
    pub surface: Option<SurfaceFault>,
    #[serde(default)]
    pub resize_before_acquire: Option<[u32; 2]>,
    #[serde(default)]
    pub gpu_error: bool,
    #[serde(default)]
    pub screenshot: Option<PathBuf>,
    #[serde(default)]
    pub quit: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: at {at}: {message}")]
    Parse {
        path: PathBuf,
        at: String,
        message: String,
    },
}

/// Reads a script; events are sorted by frame (stable).
pub fn load_script(path: &Path) -> Result<Vec<ScriptEvent>, ScriptError> {
    let text = std::fs::read_to_string(path).map_err(|source| ScriptError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_script(&text).map_err(|(at, message)| ScriptError::Parse {
        path: path.to_path_buf(),
        at,
        message,
    })
}

/// Parses script text; the error names the JSON path.
pub fn parse_script(text: &str) -> Result<Vec<ScriptEvent>, (String, String)> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let mut events: Vec<ScriptEvent> = serde_path_to_error::deserialize(de)
        .map_err(|e| (e.path().to_string(), e.inner().to_string()))?;
    events.sort_by_key(|e| e.frame);
    Ok(events)
}

/// The commands a scripted drag sends (with the editor's current camera).
pub fn drag_commands(ed: &EditorState, drag: &ScriptDrag) -> Option<Vec<EditorCommand>> {
    let [x, y] = handle_pixel(&ed.doc().stage, &ed.render_camera(), drag.handle)?;
    let mut out = vec![EditorCommand::from(DragCommand::BeginDrag {
        handle: drag.handle,
        x,
        y,
    })];
    for k in 1..=4 {
        let f = f64::from(k) / 4.0;
        out.push(
            DragCommand::DragTo {
                x: x + drag.by[0] * f,
                y: y + drag.by[1] * f,
            }
            .into(),
        );
    }
    out.push(DragCommand::EndDrag.into());
    Some(out)
}
