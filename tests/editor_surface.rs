//! The editor window survives its surface being lost or outdated, being minimised (unmapped)
//! and restored, and resizes down to 1×1 and back, under Xvfb with real X requests (xdotool).
//!
//! A lost surface cannot be provoked from outside, so the editor runs a script that makes every
//! fifth frame's surface report `Lost` or `Outdated` (`{"surface": "lost"}`): the app then takes
//! exactly the path it takes for a real one (recreate or reconfigure, acquire again) and logs
//! it. After each abuse the test waits until the editor has handled two more of those faults,
//! so it is not only alive but still drawing frames. At the end the window is back at a normal
//! size: the screen shows the angler in the viewport, the editor quits on Ctrl+Q with status 0
//! and its screenshot is the size of the viewport and shows the angler.
//!
//! A second, short test does the lost/outdated part on wgpu's GL backend (the editor once
//! could not start there at all). A third makes the window change size between a frame's
//! layout and its acquire, the race behind a CI crash (egui's scissor rectangles, clamped to
//! the laid-out size, fell outside a smaller surface texture: a wgpu validation panic).
//!
//! Skips loudly without Xvfb or xdotool, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use anglerpose::editor::pick::handle_pixel;
use anglerpose::editor::{Handle, files};
use anglerpose::rig::Side;
use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;
use support::editor::{arms, editor_in};
use support::fs::fresh_scratch;
use support::image::{WINDOW_TOLERANCE, assert_drawn, assert_screen_shows};
use support::xwin::{Editor, STARTUP, Xvfb, read_layout, wait_for};

const TEST: &str = "editor surface";
/// How long one abuse may take to show two more handled faults (frames on a CPU rasteriser
/// at 1000×700 take up to a few hundred milliseconds).
const PROGRESS: Duration = Duration::from_secs(120);
/// Window sizes of a resize burst: shrinking, growing and degenerate.
const BURST: [[u32; 2]; 8] = [
    [300, 200],
    [1, 1],
    [1200, 780],
    [2, 50],
    [640, 1],
    [37, 700],
    [1, 1],
    [900, 3],
];

/// The bundled angler as a character file (not a preset: the default calibration).
fn angler() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/angler.glb")
}

fn faults(log: &str) -> (usize, usize) {
    let lost = log.matches("surface lost: recreating").count();
    let outdated = log.matches("surface outdated: reconfiguring").count();
    (lost, outdated)
}

struct Run<'a> {
    x: &'a Xvfb,
    editor: Editor,
    window: String,
}

impl Run<'_> {
    /// Asserts the editor is alive after `what` and waits until it handled two more faults.
    fn still_drawing(&mut self, what: &str) {
        self.editor.assert_alive(what);
        let (lost, outdated) = faults(&self.editor.log_text());
        let before = lost + outdated;
        let editor = &mut self.editor;
        wait_for(&format!("frames after {what}"), PROGRESS, || {
            editor.assert_alive(what);
            let (l, o) = faults(&editor.log_text());
            l + o >= before + 2
        });
        eprintln!("alive and drawing after {what}");
    }

    fn resize(&self, w: u32, h: u32) {
        self.x
            .xdotool(&["windowsize", &self.window, &w.to_string(), &h.to_string()]);
    }
}

#[test]
fn the_editor_survives_lost_surfaces_minimising_and_resizing_to_one_pixel() {
    let Some(x) = Xvfb::start(TEST) else {
        return;
    };
    let dir = fresh_scratch("surface");
    let layout = dir.join("layout.json");
    let shot = dir.join("viewport.png");
    let script = dir.join("faults.json");
    // A fault every fifth frame, alternating, for far longer than the test runs.
    let events: Vec<String> = (1..4000)
        .map(|k| {
            let fault = if k % 2 == 0 { "outdated" } else { "lost" };
            format!("{{\"frame\": {}, \"surface\": \"{fault}\"}}", 5 * k)
        })
        .collect();
    std::fs::write(&script, format!("[{}]", events.join(",\n"))).unwrap();
    let character = angler();
    let args: Vec<&OsStr> = vec![
        character.as_os_str(),
        OsStr::new("--window"),
        OsStr::new("1000x700"),
        // Keeps drawing frames (the script's faults need frames); Ctrl+Q quits earlier.
        OsStr::new("--exit-after-frames"),
        OsStr::new("100000000"),
        OsStr::new("--script"),
        script.as_os_str(),
        OsStr::new("--layout-out"),
        layout.as_os_str(),
        OsStr::new("--screenshot"),
        shot.as_os_str(),
    ];
    let editor = Editor::start(&x, &dir, &dir.join("state"), "editor", &args);
    wait_for("the editor's layout", STARTUP, || {
        read_layout(&layout).is_some()
    });
    let window = x.editor_window();
    let mut run = Run {
        x: &x,
        editor,
        window,
    };
    run.still_drawing("startup");

    // Minimise: without a window manager the request alone changes nothing, so also unmap
    // the window as a window manager iconifying it does, then map it again.
    x.xdotool(&["windowminimize", &run.window]);
    run.still_drawing("windowminimize");
    x.xdotool(&["windowunmap", "--sync", &run.window]);
    run.still_drawing("unmapping the window");
    x.xdotool(&["windowmap", "--sync", &run.window]);
    x.xdotool(&["windowfocus", "--sync", &run.window]);
    run.still_drawing("mapping it again");

    // 1×1: the window really is that small, and the editor laid out a frame at that size.
    run.resize(1, 1);
    assert_eq!(x.window_size(&run.window), [1, 1]);
    wait_for("a frame laid out at 1×1", PROGRESS, || {
        run.editor.assert_alive("resizing to 1×1");
        read_layout(&layout).is_some_and(|(_, size)| size[0] <= 1 && size[1] <= 1)
    });
    run.still_drawing("resizing to 1×1");
    // Unmapped while tiny, then mapped.
    x.xdotool(&["windowunmap", "--sync", &run.window]);
    run.still_drawing("unmapping at 1×1");
    x.xdotool(&["windowmap", "--sync", &run.window]);

    // A burst of sizes, faster than the editor draws frames.
    for [w, h] in BURST {
        run.resize(w, h);
        std::thread::sleep(Duration::from_millis(60));
    }
    run.still_drawing("a burst of resizes");

    // Back to a normal size: the layout settles on a sensible viewport.
    run.resize(1000, 700);
    assert_eq!(x.window_size(&run.window), [1000, 700]);
    wait_for("a frame laid out at 1000×700", PROGRESS, || {
        run.editor.assert_alive("resizing back to 1000×700");
        read_layout(&layout).is_some_and(|(_, s)| s[0] >= 200 && s[1] >= 400)
    });
    run.still_drawing("resizing back to 1000×700");
    run.still_drawing("more frames at 1000×700");
    let (origin, size) = read_layout(&layout).unwrap();
    let (lost, outdated) = faults(&run.editor.log_text());
    assert!(
        lost >= 5 && outdated >= 5,
        "lost {lost}, outdated {outdated}"
    );

    // What the window shows (the viewport through the recreated surface), for later.
    let screen = x.capture_screen(&dir.join("screen.png"));
    let (window_origin, _) = x.window_geometry(&run.window);

    x.xdotool(&["windowfocus", "--sync", &run.window]);
    x.xdotool(&["key", "ctrl+q"]);
    let status = run.editor.wait_exit(Duration::from_secs(120));
    assert!(
        status.success(),
        "editor exit status {status}; its log:\n{}",
        run.editor.log_text()
    );

    // The screenshot: the viewport's size, with the angler drawn where the solver puts it.
    let img = image::open(&shot)
        .unwrap_or_else(|e| panic!("{}: {e}", shot.display()))
        .to_rgba8();
    assert_eq!([img.width(), img.height()], size, "screenshot size");
    let (doc, _) = files::open(&character).unwrap();
    let ed = editor_in(doc, size);
    let wrist = handle_pixel(
        &ed.doc().stage,
        &ed.render_camera(),
        Handle::Target(Side::Right),
    )
    .expect("the right wrist is on screen");
    assert!(arms(&ed).right.ik.reached);
    let near = |a: u8, b: u8| a.abs_diff(b) <= WINDOW_TOLERANCE;
    // The effector sphere (0x88ff88) sits on the reached wrist target.
    const EFFECTOR: [u8; 3] = [0x88, 0xff, 0x88];
    let p = img.get_pixel(wrist[0] as u32, wrist[1] as u32).0;
    assert!(
        (0..3).all(|k| near(p[k], EFFECTOR[k])),
        "pixel {p:?} at the right wrist {wrist:?}"
    );
    assert_drawn(&img);

    // The window's viewport region on screen matches the screenshot (same renderer, same
    // state), so the recreated surface presents what the editor draws.
    if let Some(screen) = screen {
        let at = [window_origin[0] + origin[0], window_origin[1] + origin[1]];
        assert_screen_shows(&screen, at, &img, &dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn on_the_gl_backend_the_editor_recovers_lost_and_outdated_surfaces() {
    let Some(x) = Xvfb::start("editor surface (GL)") else {
        return;
    };
    let dir = fresh_scratch("surface-gl");
    let shot = dir.join("viewport.png");
    let script = dir.join("faults.json");
    std::fs::write(
        &script,
        r#"[{"frame": 3, "surface": "lost"}, {"frame": 5, "surface": "outdated"},
            {"frame": 7, "surface": "lost"}, {"frame": 12, "quit": true}]"#,
    )
    .unwrap();
    let character = angler();
    let args = [
        character.as_os_str(),
        OsStr::new("--window"),
        OsStr::new("900x600"),
        OsStr::new("--script"),
        script.as_os_str(),
        OsStr::new("--screenshot"),
        shot.as_os_str(),
    ];
    let env = [("WGPU_BACKEND", "gl")];
    let mut editor = Editor::start_with_env(&x, &dir, &dir.join("state"), "gl", &args, &env);
    let status = editor.wait_exit(STARTUP);
    let log = editor.log_text();
    if log.contains("no GPU adapter found") {
        // GL is one of two CPU paths; the main test covers the default backend.
        anglerpose::skip_notice!(
            "\n**********\nSKIP editor surface (GL): no GL adapter\n{log}\n**********\n"
        );
        return;
    }
    assert!(
        status.success(),
        "editor exit status {status}; its log:\n{log}"
    );
    assert!(log.contains("(Gl, "), "not on GL: {log}");
    assert_eq!(faults(&log), (2, 1), "{log}");
    let img = image::open(&shot)
        .unwrap_or_else(|e| panic!("{}: {e}", shot.display()))
        .to_rgba8();
    assert!(
        img.width() >= 200 && img.height() >= 400,
        "{:?}",
        img.dimensions()
    );
    let corner = *img.get_pixel(0, 0);
    let drawn = img.pixels().filter(|p| **p != corner).count();
    assert!(drawn * 10 > img.pixels().len(), "only {drawn} pixels drawn");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resize_between_layout_and_acquire_is_drawn_clipped_not_a_crash() {
    let Some(x) = Xvfb::start(TEST) else {
        return;
    };
    let dir = fresh_scratch("surface-race");
    let script = dir.join("race.json");
    // The burst's sizes, each requested after a frame's layout.
    let mut events: Vec<String> = BURST
        .iter()
        .enumerate()
        .map(|(k, [w, h])| {
            format!(
                "{{\"frame\": {}, \"resize_before_acquire\": [{w}, {h}]}}",
                3 + 3 * k
            )
        })
        .collect();
    events.push(format!(
        "{{\"frame\": {}, \"quit\": true}}",
        6 + 3 * BURST.len()
    ));
    std::fs::write(&script, format!("[{}]", events.join(",\n"))).unwrap();
    let character = angler();
    let args: Vec<&OsStr> = vec![
        character.as_os_str(),
        OsStr::new("--window"),
        OsStr::new("1000x700"),
        OsStr::new("--exit-after-frames"),
        OsStr::new("100000000"),
        OsStr::new("--script"),
        script.as_os_str(),
    ];
    let mut editor = Editor::start(&x, &dir, &dir.join("state"), "editor", &args);
    let status = editor.wait_exit(Duration::from_secs(300));
    let log = editor.log_text();
    assert!(
        status.success(),
        "editor exit status {status}; its log:\n{log}"
    );
    // The race really happened: frames were drawn at a size other than their layout's.
    let raced = log.matches("window resized mid-frame").count();
    assert!(raced >= 3, "only {raced} mid-frame resizes; log:\n{log}");
}

/// wgpu's default uncaptured-error handler panics on any validation error. The editor's
/// handler logs it, the frame is drawn again with a rebuilt renderer, and the work goes on:
/// an edit made after the error reaches the autosave, a later screenshot shows the angler, and
/// the editor exits with status 0.
#[test]
fn a_gpu_validation_error_is_logged_the_renderer_rebuilt_and_autosave_keeps_working() {
    let Some(x) = Xvfb::start(TEST) else {
        return;
    };
    let dir = fresh_scratch("gpu-error");
    let state = dir.join("state");
    let shot = dir.join("after-error.png");
    let script = dir.join("gpu-error.json");
    std::fs::write(
        &script,
        format!(
            r#"[{{"frame": 3, "command": {{"cmd": "set_rod_length", "metres": 2.9}}}},
                {{"frame": 5, "gpu_error": true}},
                {{"frame": 9, "command": {{"cmd": "set_cast_power", "value": 1.7}}}},
                {{"frame": 12, "screenshot": {shot:?}}},
                {{"frame": 400, "quit": true}}]"#
        ),
    )
    .unwrap();
    let character = angler();
    let args: Vec<&OsStr> = vec![
        character.as_os_str(),
        OsStr::new("--window"),
        OsStr::new("800x600"),
        OsStr::new("--exit-after-frames"),
        OsStr::new("100000000"),
        OsStr::new("--autosave-seconds"),
        OsStr::new("0.2"),
        OsStr::new("--script"),
        script.as_os_str(),
    ];
    let mut editor = Editor::start(&x, &dir, &state, "editor", &args);
    let autosave = state.join("autosave.json");
    wait_for(
        "an autosave with the edit made after the GPU error",
        PROGRESS,
        || {
            editor.assert_alive("the GPU error");
            std::fs::read_to_string(&autosave).is_ok_and(|t| t.contains("\"cast_power\": 1.7"))
        },
    );
    let status = editor.wait_exit(Duration::from_secs(300));
    let log = editor.log_text();
    assert!(status.success(), "exit status {status}; log:\n{log}");
    assert_eq!(
        log.matches("GPU error (frame dropped, renderer rebuilt)")
            .count(),
        1,
        "the injected error is reported once; log:\n{log}"
    );
    assert!(
        log.contains("MAP_READ") || log.contains("MAP_WRITE"),
        "{log}"
    );
    let img = image::open(&shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
    let img = img.to_rgb8();
    // The angler (warm skin and clothes) is drawn over the sky and floor after the rebuild.
    let warm = img
        .pixels()
        .filter(|p| i32::from(p[0]) > i32::from(p[2]) + 40)
        .count();
    assert!(
        warm > img.len() / 3 / 200,
        "{}: only {warm} warm pixels; log:\n{log}",
        shot.display()
    );
}

/// The editor logs through `tracing`: by default its info lines (the adapter, the frame-time
/// summary) reach stderr with their level; `RUST_LOG=error` silences them.
#[test]
fn rust_log_controls_the_editors_logging() {
    let Some(x) = Xvfb::start(TEST) else {
        return;
    };
    let character = angler();
    let args: Vec<&OsStr> = vec![
        character.as_os_str(),
        OsStr::new("--window"),
        OsStr::new("640x480"),
        OsStr::new("--exit-after-frames"),
        OsStr::new("3"),
    ];
    let mut logs = Vec::new();
    for (name, env) in [("default", vec![]), ("quiet", vec![("RUST_LOG", "error")])] {
        let dir = fresh_scratch(&format!("log-{name}"));
        let mut editor =
            Editor::start_with_env(&x, &dir, &dir.join("state"), "editor", &args, &env);
        let status = editor.wait_exit(Duration::from_secs(300));
        let log = editor.log_text();
        assert!(status.success(), "{name}: exit {status}; log:\n{log}");
        logs.push(log);
    }
    let (default, quiet) = (&logs[0], &logs[1]);
    for want in ["INFO", "anglerpose editor on", "frames: 3"] {
        assert!(
            default.contains(want),
            "default log lacks {want:?}:\n{default}"
        );
    }
    assert!(
        !quiet.contains("frames: 3") && !quiet.contains("INFO"),
        "RUST_LOG=error:\n{quiet}"
    );
}
