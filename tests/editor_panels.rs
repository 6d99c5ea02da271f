//! Snapshot tests of the editor's side bar (fishing session, IK inspector with twist, the
//! egui_plot flip debugger, diagnostics), rendered by egui_kittest's wgpu renderer on the
//! available adapter (Mesa lavapipe in CI), for a two-bone and a CCD-armed preset, and a click
//! through the accessibility tree that must produce the panel's command.
//!
//! The goldens are `tests/snapshots/*.png`; after a deliberate UI change, regenerate them with
//! `UPDATE_SNAPSHOTS=1 cargo test --test editor_panels` and look at them. Up to 0.5% of the
//! pixels may differ (font anti-aliasing between Mesa builds); a moved or missing widget
//! changes far more.

use anglerpose::editor::DocumentCommand;
use anglerpose::editor::command::EditorCommand as C;
use anglerpose::editor::{EditorState, files, ui};
use anglerpose::stage::bundled_assets_dir;
use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotOptions};
use std::cell::RefCell;
use std::rc::Rc;

const SIZE: [f32; 2] = [380.0, 1150.0];

fn editor(preset: &str) -> EditorState {
    let path = bundled_assets_dir().join("presets").join(preset);
    let (doc, _) = files::open(&path).unwrap_or_else(|e| panic!("{e}"));
    EditorState::new(doc)
}

fn options() -> SnapshotOptions {
    let pixels = (SIZE[0] * SIZE[1]) as usize;
    SnapshotOptions::new().max_failed_pixels(pixels / 200)
}

/// The side bar of `ed` in a harness; the commands it pushes land in the returned list.
fn side_bar(ed: EditorState) -> (Harness<'static>, Rc<RefCell<Vec<C>>>) {
    let commands = Rc::new(RefCell::new(Vec::new()));
    let sink = commands.clone();
    let mut ed = ed;
    // egui_kittest also checks that every widget has an accessible name; nine drag values and
    // combo boxes of the side bar have none yet (left for the accessibility pass).
    let harness = Harness::builder()
        .with_size(SIZE)
        .with_accessibility_check(false)
        .wgpu()
        .build_ui(move |ui| {
            let mut out = ui::Commands::default();
            ui::side_bar_ui(ui, &mut ed, &mut out);
            sink.borrow_mut().extend(out);
        });
    (harness, commands)
}

fn gpu_or_skip() -> bool {
    anglerpose::render::gpu::test_gpu().is_some()
}

/// The side bar of `preset` against `tests/snapshots/{name}.png`.
fn assert_side_bar_snapshot(preset: &str, name: &str) {
    if !gpu_or_skip() {
        return;
    }
    let (mut h, _) = side_bar(editor(preset));
    h.run();
    h.snapshot_options(name, &options());
}

#[test]
fn the_side_bar_of_a_two_bone_preset_matches_its_snapshot() {
    assert_side_bar_snapshot("seated_hold.json", "side_bar_two_bone");
}

#[test]
fn the_side_bar_of_a_ccd_preset_matches_its_snapshot() {
    assert_side_bar_snapshot("ccd_arms.json", "side_bar_ccd");
}

#[test]
fn clicking_apply_pole_search_pushes_its_command() {
    if !gpu_or_skip() {
        return;
    }
    let (mut h, commands) = side_bar(editor("seated_hold.json"));
    h.run();
    commands.borrow_mut().clear();
    h.get_by_label("Apply pole search").click();
    h.run();
    let got = commands.borrow();
    assert!(
        got.iter()
            .any(|c| matches!(c, C::Document(DocumentCommand::ApplyPoleProposal))),
        "commands after the click: {got:?}"
    );
}

#[test]
fn clicking_jump_to_the_weakest_instant_pushes_its_command() {
    use anglerpose::editor::PlaybackCommand;
    if !gpu_or_skip() {
        return;
    }
    let (mut h, commands) = side_bar(editor("seated_hold.json"));
    h.run();
    commands.borrow_mut().clear();
    h.get_by_label("Jump to the weakest instant").click();
    h.run();
    let got = commands.borrow();
    assert!(
        got.iter()
            .any(|c| matches!(c, C::Playback(PlaybackCommand::JumpToWeakest))),
        "commands after the click: {got:?}"
    );
}
