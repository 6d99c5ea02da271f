//! End to end under Xvfb: start the editor on a preset of the bundled angler, drag the right
//! wrist-target sphere with real X mouse events (xdotool), save with Ctrl+S, quit with
//! Ctrl+Q, and check from the saved preset and the viewport screenshot that the arm followed.
//!
//! Skips loudly when `xvfb-run` or `xdotool` is missing, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use anglerpose::editor::pick::handle_pixel;
use anglerpose::editor::{Handle, files};
use anglerpose::rig::Side;
use std::time::Duration;
use support::editor::{arms, bundled_preset_in, editor_in};
use support::fs::fresh_scratch;
use support::xwin::{Editor, STARTUP, Xvfb, read_layout, wait_for};

#[test]
fn dragging_a_target_with_the_mouse_moves_the_arm_and_saves() {
    let Some(x) = Xvfb::start("editor end-to-end") else {
        return;
    };
    let dir = fresh_scratch("e2e");
    let shot = dir.join("viewport.png");
    let (preset, original) = bundled_preset_in(&dir);

    let extra = ["--screenshot".as_ref(), shot.as_os_str()];
    let (mut editor, layout) =
        Editor::start_laid_out_with(&x, &dir, "editor", &preset, "1200x760", &extra);
    let (origin, size) = read_layout(&layout).unwrap();
    let origin = origin.map(f64::from);
    let window = x.editor_window();
    // No window manager under Xvfb: give the window the keyboard focus explicitly.
    x.xdotool(&["windowfocus", "--sync", &window]);

    // The same camera the editor uses: the opened preset in a viewport of the laid-out size.
    let (doc, _) = files::open(&preset).unwrap();
    let ed = editor_in(doc, size);
    let start = handle_pixel(
        &ed.doc().stage,
        &ed.render_camera(),
        Handle::Target(Side::Right),
    )
    .expect("target on screen");
    let start = [start[0].round(), start[1].round()];
    let by = [-45.0, -35.0];
    let at = |p: [f64; 2]| {
        [
            format!("{}", (origin[0] + p[0]) as i64),
            format!("{}", (origin[1] + p[1]) as i64),
        ]
    };
    let mv = |p: [f64; 2]| {
        let [px, py] = at(p);
        x.xdotool(&["mousemove", "--window", &window, &px, &py]);
        std::thread::sleep(Duration::from_millis(700));
    };
    mv(start);
    x.xdotool(&["mousedown", "1"]);
    std::thread::sleep(Duration::from_millis(700));
    for k in 1..=5 {
        let f = k as f64 / 5.0;
        mv([start[0] + by[0] * f, start[1] + by[1] * f]);
    }
    let end = [start[0] + by[0], start[1] + by[1]];
    x.xdotool(&["mouseup", "1"]);
    std::thread::sleep(Duration::from_secs(2));
    x.xdotool(&["key", "ctrl+s"]);
    eprintln!("dragged the right target from {start:?} by {by:?} (viewport at {origin:?})");
    wait_for("the save", Duration::from_secs(60), || {
        std::fs::read_to_string(&preset).is_ok_and(|t| t != original)
    });
    x.xdotool(&["key", "ctrl+q"]);
    let status = editor.wait_exit(Duration::from_secs(60));
    assert!(status.success(), "editor exit status {status}");

    // The saved preset: the right wrist target moved to where the mouse let go.
    let (saved, _) = files::open(&preset).unwrap();
    let before = arms(&ed).right.wrist_target_in_world;
    let after = saved
        .stage
        .evaluation()
        .unwrap()
        .arms
        .right
        .wrist_target_in_world;
    let wrist_before = ed
        .doc()
        .stage
        .pose
        .world_position(ed.doc().stage.actor.arm(Side::Right).hand);
    let wrist_after = saved
        .stage
        .pose
        .world_position(saved.stage.actor.arm(Side::Right).hand);
    assert!(
        (after - before).length() > 0.02,
        "target moved {}",
        after - before
    );
    assert!(
        (wrist_after - wrist_before).length() > 0.02,
        "the wrist followed"
    );
    let check = editor_in(saved, size);
    let landed = handle_pixel(
        &check.doc().stage,
        &check.render_camera(),
        Handle::Target(Side::Right),
    )
    .unwrap();
    assert!(
        (landed[0] - end[0]).abs() < 2.5 && (landed[1] - end[1]).abs() < 2.5,
        "target at {landed:?}, mouse released at {end:?}"
    );
    // The screenshot: the wrist reached the new target, so the effector sphere (0x88ff88, drawn
    // over the target sphere 0xff8888) sits where the mouse let go, and not at the old spot.
    assert!(arms(&check).right.ik.reached);
    let img = image::open(&shot).expect("screenshot written").to_rgba8();
    assert_eq!([img.width(), img.height()], size);
    let near = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs() <= 12;
    let is = |p: [u8; 4], rgb: [u8; 3]| (0..3).all(|k| near(p[k], rgb[k]));
    const EFFECTOR: [u8; 3] = [0x88, 0xff, 0x88];
    const TARGET: [u8; 3] = [0xff, 0x88, 0x88];
    let p = img.get_pixel(landed[0] as u32, landed[1] as u32).0;
    assert!(is(p, EFFECTOR), "pixel at the new target {p:?}");
    let old = img.get_pixel(start[0] as u32, start[1] as u32).0;
    assert!(!is(old, EFFECTOR) && !is(old, TARGET), "old spot {old:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opening a preset and saving it without touching anything writes the same settings, state
/// and calibration back, even for values outside a slider's range or between its decimals
/// (softening 0.5 below the slider's 0.8; a session time off the scrubber's 0.01 s grid).
#[test]
fn showing_a_preset_does_not_change_it() {
    let Some(x) = Xvfb::start("editor open-and-save") else {
        return;
    };
    let dir = fresh_scratch("e2e-unchanged");
    let input = dir.join("input.json");
    let (mut doc, _) = files::open(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/presets/cast.json"),
    )
    .unwrap();
    doc.stage.inputs.settings.soften = 0.5;
    files::save(&mut doc, &input).unwrap();
    let input_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&input).unwrap()).unwrap();
    assert_eq!(input_json["settings"]["soften"], 0.5);
    let seconds = doc.stage.inputs.state.time();
    assert_ne!(
        (seconds * 100.0).round() / 100.0,
        seconds,
        "time off the 0.01 s grid"
    );

    let saved = dir.join("saved.json");
    let script = dir.join("script.json");
    let events = serde_json::json!([
        {"frame": 5, "command": {"cmd": "save", "path": saved}},
        {"frame": 6, "quit": true}
    ]);
    std::fs::write(&script, events.to_string()).unwrap();
    let mut editor = Editor::start(
        &x,
        &dir,
        &dir.join("state"),
        "editor",
        &[input.as_os_str(), "--script".as_ref(), script.as_os_str()],
    );
    let status = editor.wait_exit(STARTUP);
    assert!(
        status.success(),
        "exit {status}; log:\n{}",
        editor.log_text()
    );
    let saved_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    for key in ["settings", "state", "calibration"] {
        assert_eq!(saved_json[key], input_json[key], "{key} changed by opening");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `edit` on something that is not a humanoid opens the window on the bundled angler and
/// says why in a dialog (and the status bar) instead of exiting.
#[test]
fn a_non_humanoid_opens_the_window_with_the_reason() {
    let Some(x) = Xvfb::start("editor on a non-humanoid") else {
        return;
    };
    let dir = fresh_scratch("e2e-non-humanoid");
    let hand = dir.join("lone_hand.gltf");
    let rows = [
        r#"{"name":"hand_l","translation":[0,1,0],"children":[1]}"#,
        r#"{"name":"index_01_l","translation":[0.08,0,0],"children":[2]}"#,
        r#"{"name":"index_02_l","translation":[0.03,0,0]}"#,
    ];
    std::fs::write(
        &hand,
        format!(
            r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],"nodes":[{}]}}"#,
            rows.join(",")
        ),
    )
    .unwrap();
    let (mut editor, _layout) = Editor::start_laid_out(&x, &dir, "editor-non-humanoid", &hand);
    editor.assert_alive("opening a non-humanoid");
    let log = editor.log_text();
    assert!(
        log.contains("cannot open") && log.contains("lone_hand.gltf") && log.contains("arm"),
        "{log}"
    );
    let shot = dir.join("screen.png");
    let img = x.capture_screen(&shot).expect("screen capture");
    assert!(img.width() >= 1000, "{}", img.width());
    let window = x.editor_window();
    x.xdotool(&["windowfocus", "--sync", &window]);
    x.xdotool(&["key", "ctrl+q"]);
    assert!(editor.wait_exit(Duration::from_secs(30)).success());
}
