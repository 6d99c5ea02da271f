//! Headless editors for the editor tests: the state a window of a given size shows.
#![allow(dead_code)]

use anglerpose::editor::ViewCommand;
use anglerpose::editor::{Document, EditorState, files};
use anglerpose::fishing::{ArmReport, PerSide};
use std::path::{Path, PathBuf};

/// An editor on `doc` with a `width × height` viewport, so its camera is the one a window of
/// that size draws with.
pub fn editor_in(doc: Document, [width, height]: [u32; 2]) -> EditorState {
    let mut ed = EditorState::new(doc);
    ed.apply(ViewCommand::SetViewport { width, height })
        .expect("a viewport");
    ed
}

/// The bundled angler in a 1280 × 720 viewport.
pub fn bundled_editor() -> EditorState {
    editor_in(files::open_default().expect("bundled angler"), [1280, 720])
}

/// `dir/pose.json`: a preset of the bundled angler, so Ctrl+S in an editor opened on it saves
/// without a file dialog. Returns its path and its text as saved.
pub fn bundled_preset_in(dir: &Path) -> (PathBuf, String) {
    let preset = dir.join("pose.json");
    let mut doc = files::open_default().expect("bundled angler");
    files::save(&mut doc, &preset).expect("preset saved");
    let text = std::fs::read_to_string(&preset).expect("preset read back");
    (preset, text)
}

/// Both arms' reports of the editor's current pose (the stage has been posed).
pub fn arms(ed: &EditorState) -> &PerSide<ArmReport> {
    &ed.doc().stage.evaluation().expect("a posed stage").arms
}
