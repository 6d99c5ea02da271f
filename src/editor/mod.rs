//! The interactive editor. A headless core ([`EditorState`], commands, drags, picking, undo)
//! that tests and `--script` drive, egui panels, and the winit/egui-wgpu window app.

pub mod app;
mod app_ui;
pub mod camera;
pub mod command;
pub mod document;
pub mod drag;
pub mod driver;
pub mod edits;
pub mod egui_draw;
pub mod error;
mod file_cmd;
pub mod files;
pub mod gfx;
pub mod gizmo;
pub mod handles;
pub mod pick;
pub mod playback;
pub mod pose_edit;
pub mod script;
pub mod state;
pub mod ui;
pub mod view_state;
pub mod watch;

pub use app_ui::{
    InPlaceViewport, UiState, ViewportImage, lean_style, style as app_style, style_for_adapter,
};
pub use camera::{OrbitCamera, ViewPreset};
pub use command::{
    DocumentCommand, DragCommand, EditorCommand, FileCommand, PlaybackCommand, PoseEdit, PropKind,
    ViewCommand, ViewToggle,
};
pub use document::{Document, History, Snapshot};
pub use edits::ANALYSIS_SAMPLES;
pub use edits::Edits;
pub use error::EditorError;
pub use handles::{Axis, Handle};
pub use playback::Playback;
pub use state::EditorState;
pub use view_state::{MARGIN_THRESHOLD, ViewState};
