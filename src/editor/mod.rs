//! The interactive editor. A headless core ([`EditorState`], commands, drags, picking, undo)
//! that tests and `--script` drive, egui panels, and the winit/egui-wgpu window app.

pub mod app;
mod app_input;
mod app_ui;
pub mod camera;
pub mod command;
pub mod document;
mod document_cmd;
pub mod drag;
mod drag_cmd;
pub mod driver;
pub mod egui_draw;
mod file_cmd;
pub mod files;
pub mod gfx;
pub mod gizmo;
pub mod handles;
pub mod pick;
mod playback_cmd;
mod pose_edit;
mod props_cmd;
mod reload;
pub mod script;
pub mod state;
pub mod ui;
mod view_cmd;
pub mod watch;

pub use app_ui::{InPlaceViewport, UiState, ViewportImage, style as app_style};
pub use camera::{OrbitCamera, ViewPreset};
pub use command::{
    DocumentCommand, DragCommand, EditorCommand, FileCommand, PlaybackCommand, PoseEdit, PropKind,
    ViewCommand, ViewToggle,
};
pub use document::{Document, History, Snapshot};
pub use handles::{Axis, Handle};
pub use state::{ANALYSIS_SAMPLES, EditorError, EditorState, MARGIN_THRESHOLD};
