//! The stability slice in the real editor window under Xvfb (issue 36): a script turns the
//! slice on (facing the camera), the mouse is moved onto the right wrist target with real X
//! events, and the screen capture shows the slice's read-out beside the mouse — a dark label
//! that is not there when the mouse is away. The capture is kept for a person to look at.
//!
//! Skips loudly when `xvfb-run` or `xdotool` is missing, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use anglerpose::editor::pick::handle_pixel;
use anglerpose::editor::{Handle, files};
use anglerpose::rig::Side;
use std::time::Duration;
use support::editor::{bundled_preset_in, editor_in};
use support::fs::fresh_scratch;
use support::xwin::{Editor, Xvfb, read_layout};

/// Pixels of the label's box (the read-out's dark, translucent fill) in `img`, in the
/// 220×40 pixels below and right of `at`.
fn dark_label_pixels(img: &image::RgbaImage, at: [f64; 2]) -> usize {
    let (x0, y0) = (at[0] as u32 + 22, at[1] as u32 + 22);
    let mut n = 0;
    for y in y0..(y0 + 40).min(img.height()) {
        for x in x0..(x0 + 220).min(img.width()) {
            let p = img.get_pixel(x, y).0;
            if p[..3].iter().all(|&c| c < 70) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn hovering_the_slice_in_the_window_shows_its_read_out() {
    let Some(x) = Xvfb::start("stability hover in the window") else {
        return;
    };
    let dir = fresh_scratch("stability-window");
    let (preset, _) = bundled_preset_in(&dir);
    let script = dir.join("stability.json");
    std::fs::write(
        &script,
        r#"[
          {"frame": 2, "command": {"cmd": "toggle", "what": "stability", "on": true}},
          {"frame": 2, "command": {"cmd": "set_slice_facing", "facing": "camera"}}
        ]"#,
    )
    .unwrap();
    let extra = ["--script".as_ref(), script.as_os_str()];
    let (mut editor, layout) =
        Editor::start_laid_out_with(&x, &dir, "editor", &preset, "1200x760", &extra);
    let (origin, size) = read_layout(&layout).unwrap();
    let origin = origin.map(f64::from);
    let window = x.editor_window();
    let (doc, _) = files::open(&preset).unwrap();
    let ed = editor_in(doc, size);
    let target = handle_pixel(
        &ed.doc().stage,
        &ed.render_camera(),
        Handle::Target(Side::Right),
    )
    .expect("target on screen");
    let screen = [origin[0] + target[0], origin[1] + target[1]];
    let capture = |name: &str, at: [f64; 2]| {
        let [px, py] = at.map(|v| format!("{}", v as i64));
        x.xdotool(&["mousemove", "--window", &window, &px, &py]);
        // Two moves: egui draws the hover on the frame after the pointer event.
        std::thread::sleep(Duration::from_millis(800));
        x.xdotool(&["mousemove", "--window", &window, &px, &py]);
        std::thread::sleep(Duration::from_millis(1500));
        x.capture_screen(&dir.join(name))
    };
    let away = [origin[0] + 20.0, origin[1] + size[1] as f64 - 30.0];
    let Some(without) = capture("away.png", away) else {
        return;
    };
    let with = capture("hover.png", screen).unwrap();
    editor.assert_alive("hovering the slice");
    let (off, on) = (
        dark_label_pixels(&without, screen),
        dark_label_pixels(&with, screen),
    );
    eprintln!(
        "read-out box pixels: {off} with the mouse away, {on} over the target; capture in {}",
        dir.join("hover.png").display()
    );
    assert!(
        on > 2000 && on > 4 * off.max(1),
        "no read-out beside the mouse: {off} dark pixels away, {on} over the target"
    );
    // No window manager under Xvfb: give the window the keyboard focus explicitly.
    x.xdotool(&["windowfocus", "--sync", &window]);
    x.xdotool(&["key", "ctrl+q"]);
    let status = editor.wait_exit(Duration::from_secs(60));
    assert!(status.success(), "editor exit status {status}");
}
