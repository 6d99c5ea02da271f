//! The gizmo's keys in the real window under Xvfb (issue 19 item 1): grab the right wrist
//! target with the mouse, press X to constrain to the world X axis, type `0.05` on the
//! keyboard and Enter: the saved preset's target moved exactly 5 cm along X (the mouse moved
//! it only a few pixels). W / E / Q and the gizmo parts are tested headless in
//! `editor_gizmo.rs`.
//!
//! Skips loudly when `xvfb-run` or `xdotool` is missing, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use anglerpose::editor::pick::handle_pixel;
use anglerpose::editor::{Handle, files};
use anglerpose::rig::Side;
use glam::DVec3;
use std::time::Duration;
use support::editor::{bundled_preset_in, editor_in};
use support::fs::fresh_scratch;
use support::xwin::{Editor, Xvfb, read_layout, wait_for};

#[test]
fn typing_a_number_during_a_drag_sets_the_exact_distance() {
    let Some(x) = Xvfb::start("gizmo keys") else {
        return;
    };
    let dir = fresh_scratch("gizmo-keys");
    let (preset, original) = bundled_preset_in(&dir);
    let (mut editor, layout) = Editor::start_laid_out(&x, &dir, "editor", &preset);
    let (origin, size) = read_layout(&layout).unwrap();
    let window = x.editor_window();
    x.xdotool(&["windowfocus", "--sync", &window]);
    let (doc, _) = files::open(&preset).unwrap();
    let ed = editor_in(doc, size);
    let handle = Handle::Target(Side::Right);
    let start = handle_pixel(&ed.doc().stage, &ed.render_camera(), handle).unwrap();
    let mv = |p: [f64; 2]| {
        let (px, py) = (
            format!("{}", (f64::from(origin[0]) + p[0].round()) as i64),
            format!("{}", (f64::from(origin[1]) + p[1].round()) as i64),
        );
        x.xdotool(&["mousemove", "--window", &window, &px, &py]);
        std::thread::sleep(Duration::from_millis(600));
    };
    let pause = || std::thread::sleep(Duration::from_millis(500));
    mv(start);
    x.xdotool(&["mousedown", "1"]);
    pause();
    mv([start[0] + 6.0, start[1] - 4.0]);
    mv([start[0] + 12.0, start[1] - 8.0]);
    for key in ["x", "0", "period", "0", "5"] {
        x.xdotool(&["key", key]);
        pause();
    }
    x.xdotool(&["key", "Return"]);
    pause();
    x.xdotool(&["mouseup", "1"]);
    std::thread::sleep(Duration::from_secs(1));
    x.xdotool(&["key", "ctrl+s"]);
    wait_for("the save", Duration::from_secs(60), || {
        std::fs::read_to_string(&preset).is_ok_and(|t| t != original)
    });
    x.xdotool(&["key", "ctrl+q"]);
    let status = editor.wait_exit(Duration::from_secs(60));
    assert!(status.success(), "editor exit status {status}");
    let (saved, _) = files::open(&preset).unwrap();
    let target =
        |s: &anglerpose::stage::Stage| s.evaluation().unwrap().arms.right.wrist_target_in_world;
    let moved = target(&saved.stage) - target(&ed.doc().stage);
    assert!(
        (moved - DVec3::X * 0.05).length() < 1e-6,
        "the target moved {moved} (want exactly 5 cm along X); log:\n{}",
        editor.log_text()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
