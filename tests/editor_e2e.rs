//! End to end under Xvfb: start the editor on a preset of the bundled angler, drag the right
//! wrist-target sphere with real X mouse events (xdotool), save with Ctrl+S, quit with
//! Ctrl+Q, and check from the saved preset and the viewport screenshot that the arm followed.
//!
//! Skips loudly when `xvfb-run` or `xdotool` is missing, unless `ANGLERPOSE_REQUIRE_GPU=1`.

use anglerpose::editor::pick::handle_pixel;
use anglerpose::editor::{EditorCommand as C, EditorState, Handle, files};
use anglerpose::rig::Side;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn skip(reason: &str) {
    if std::env::var("ANGLERPOSE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
        panic!("ANGLERPOSE_REQUIRE_GPU=1 but {reason}");
    }
    eprintln!("\n**********\nSKIP editor end-to-end: {reason}\n**********\n");
}

fn wait_for(what: &str, timeout: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

struct Kill(Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("xdotool runs");
    assert!(
        out.status.success(),
        "xdotool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn read_layout(path: &Path) -> Option<([f64; 2], [u32; 2])> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let o = v["origin"].as_array()?;
    let s = v["size"].as_array()?;
    Some((
        [o[0].as_f64()?, o[1].as_f64()?],
        [s[0].as_u64()? as u32, s[1].as_u64()? as u32],
    ))
}

fn free_display() -> String {
    for n in 90..140 {
        if !Path::new(&format!("/tmp/.X{n}-lock")).exists() {
            return format!(":{n}");
        }
    }
    ":139".into()
}

#[test]
fn dragging_a_target_with_the_mouse_moves_the_arm_and_saves() {
    if !(have("Xvfb") && have("xdotool")) {
        skip("Xvfb or xdotool is not installed (apt-get install -y xvfb xdotool imagemagick)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("anglerpose-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("runtime")).unwrap();
    let preset = dir.join("pose.json");
    let layout = dir.join("layout.json");
    let shot = dir.join("viewport.png");
    // A preset of the bundled angler, so Ctrl+S saves without a file dialog.
    let mut doc = files::open_default().unwrap();
    files::save(&mut doc, &preset).unwrap();
    let original = std::fs::read_to_string(&preset).unwrap();

    let display = free_display();
    let _xvfb = Kill(
        Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts"),
    );
    wait_for("Xvfb", Duration::from_secs(20), || {
        Path::new(&format!("/tmp/.X11-unix/X{}", &display[1..])).exists()
    });
    let editor = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .args(["edit", preset.to_str().unwrap(), "--window", "1200x760"])
        .arg("--layout-out")
        .arg(&layout)
        .arg("--screenshot")
        .arg(&shot)
        .env("DISPLAY", &display)
        .env("XDG_RUNTIME_DIR", dir.join("runtime"))
        .env("ANGLERPOSE_STATE_DIR", dir.join("state"))
        .env_remove("WAYLAND_DISPLAY")
        .spawn()
        .expect("editor starts");
    let mut editor = Kill(editor);
    wait_for("the editor's layout", Duration::from_secs(120), || {
        read_layout(&layout).is_some()
    });
    std::thread::sleep(Duration::from_secs(2));
    let (origin, size) = read_layout(&layout).unwrap();
    let window = xdotool(&display, &["search", "--sync", "--name", "anglerpose"]);
    let window = window.lines().next().unwrap().to_string();
    // No window manager under Xvfb: give the window the keyboard focus explicitly.
    xdotool(&display, &["windowfocus", "--sync", &window]);

    // The same camera the editor uses: the opened preset in a viewport of the laid-out size.
    let (doc, _) = files::open(&preset).unwrap();
    let mut ed = EditorState::new(doc);
    ed.apply(C::SetViewport {
        width: size[0],
        height: size[1],
    })
    .unwrap();
    let start = handle_pixel(
        &ed.doc.stage,
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
        let [x, y] = at(p);
        xdotool(&display, &["mousemove", "--window", &window, &x, &y]);
        std::thread::sleep(Duration::from_millis(700));
    };
    mv(start);
    xdotool(&display, &["mousedown", "1"]);
    std::thread::sleep(Duration::from_millis(700));
    for k in 1..=5 {
        let f = k as f64 / 5.0;
        mv([start[0] + by[0] * f, start[1] + by[1] * f]);
    }
    let end = [start[0] + by[0], start[1] + by[1]];
    xdotool(&display, &["mouseup", "1"]);
    std::thread::sleep(Duration::from_secs(2));
    xdotool(&display, &["key", "ctrl+s"]);
    eprintln!("dragged the right target from {start:?} by {by:?} (viewport at {origin:?})");
    wait_for("the save", Duration::from_secs(60), || {
        std::fs::read_to_string(&preset).is_ok_and(|t| t != original)
    });
    xdotool(&display, &["key", "ctrl+q"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = editor.0.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "the editor did not quit on Ctrl+Q"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(status.success(), "editor exit status {status}");

    // The saved preset: the right wrist target moved to where the mouse let go.
    let (saved, _) = files::open(&preset).unwrap();
    let before = ed
        .doc
        .stage
        .evaluation()
        .unwrap()
        .arms
        .right
        .wrist_target_in_world;
    let after = saved
        .stage
        .evaluation()
        .unwrap()
        .arms
        .right
        .wrist_target_in_world;
    let wrist_before = ed
        .doc
        .stage
        .pose
        .world_position(ed.doc.stage.actor.arm(Side::Right).hand);
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
    let mut check = EditorState::new(saved);
    check
        .apply(C::SetViewport {
            width: size[0],
            height: size[1],
        })
        .unwrap();
    let landed = handle_pixel(
        &check.doc.stage,
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
    assert!(check.doc.stage.evaluation().unwrap().arms.right.ik.reached);
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
