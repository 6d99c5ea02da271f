//! The editor with `--msaa 4` under Xvfb: the 3D view is rendered offscreen with 4× MSAA
//! and shown by egui as an image (the path GPU adapters take by default), and the window
//! shows what its screenshot renders. The default single-sampled in-place path is covered
//! by `editor_surface.rs` and `editor_e2e.rs`.
//!
//! Skips loudly when `xvfb-run` or `xdotool` is missing, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use std::time::Duration;
use support::fs::fresh_scratch;
use support::image::{assert_drawn, assert_screen_shows};
use support::xwin::{Editor, Xvfb, read_layout};

#[test]
fn with_msaa_the_window_shows_the_offscreen_view_its_screenshot_renders() {
    let Some(x) = Xvfb::start("editor --msaa 4") else {
        return;
    };
    let dir = fresh_scratch("msaa");
    let shot = dir.join("viewport.png");
    let angler = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/angler.glb");
    let msaa = [
        "--msaa".as_ref(),
        "4".as_ref(),
        "--screenshot".as_ref(),
        shot.as_os_str(),
    ];
    let (mut editor, layout) =
        Editor::start_laid_out_with(&x, &dir, "editor", &angler, "1280x720", &msaa);
    editor.assert_alive("two seconds of frames");
    let screen = x.capture_screen(&dir.join("screen.png"));
    let window = x.editor_window();
    let (window_origin, _) = x.window_geometry(&window);
    let (origin, size) = read_layout(&layout).expect("layout");
    x.xdotool(&["windowfocus", "--sync", &window]);
    x.xdotool(&["key", "ctrl+q"]);
    let status = editor.wait_exit(Duration::from_secs(120));
    let log = editor.log_text();
    assert!(
        status.success(),
        "editor exit status {status}; its log:\n{log}"
    );
    assert!(
        log.contains("3D view: offscreen, 4 sample(s)"),
        "the 4× MSAA offscreen path:\n{log}"
    );

    let img = image::open(&shot)
        .unwrap_or_else(|e| panic!("{}: {e}", shot.display()))
        .to_rgba8();
    assert_eq!([img.width(), img.height()], size, "screenshot size");
    assert_drawn(&img);
    if let Some(screen) = screen {
        let at = [window_origin[0] + origin[0], window_origin[1] + origin[1]];
        assert_screen_shows(&screen, at, &img, &dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
