//! The window app's driver without a window: script events run on their frames, commands
//! and drags reach the editor, and the window's part (surface faults, a resize before
//! acquire, GPU errors, screenshots, quit) is handed back.

mod support;

#[test]
fn the_driver_runs_each_script_event_on_its_frame_and_hands_the_window_its_part() {
    use anglerpose::editor::driver::{Driver, WindowRequests};
    use anglerpose::editor::files::{AUTOSAVE_INTERVAL, Autosaver};
    use anglerpose::editor::script::{SurfaceFault, parse_script};
    let script = parse_script(
        r#"[
            {"frame": 3, "quit": true},
            {"frame": 0, "command": {"cmd": "set_phase", "phase": "landing", "t": 0.5}},
            {"frame": 2, "surface": "outdated", "resize_before_acquire": [640, 360],
             "gpu_error": true, "screenshot": "a.png"},
            {"frame": 2, "drag": {"handle": {"target": "left"}, "by": [30, 0]}}
        ]"#,
    )
    .unwrap();
    let mut ed = support::editor::bundled_editor();
    let mut driver = Driver::new(script, Autosaver::new(AUTOSAVE_INTERVAL), None);
    assert!(driver.scripted());
    assert_eq!(driver.run_script(&mut ed, 0), WindowRequests::default());
    assert_eq!(
        ed.doc().stage.inputs.state.phase,
        anglerpose::fishing::Phase::Landing
    );
    assert!(!ed.doc().dirty, "time is not an edit");
    assert_eq!(driver.run_script(&mut ed, 1), WindowRequests::default());
    assert!(driver.surface_fault.is_none() && !driver.quitting);
    let requests = driver.run_script(&mut ed, 2);
    assert_eq!(
        requests,
        WindowRequests {
            gpu_error: true,
            screenshots: vec!["a.png".into()],
        }
    );
    assert_eq!(driver.surface_fault, Some(SurfaceFault::Outdated));
    assert_eq!(driver.resize_before_acquire, Some([640, 360]));
    // The drag was applied as one undo step.
    assert!(ed.doc().dirty && ed.history().undo_len() == 1 && ed.drag().is_none());
    assert!(driver.scripted() && !driver.quitting);
    let _ = driver.run_script(&mut ed, 3);
    assert!(driver.quitting && !driver.scripted());
}
