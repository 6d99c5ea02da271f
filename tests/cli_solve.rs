//! `anglerpose solve`: one state, a preset, the timeline, and bad arguments.

use std::process::Command;

fn solve(args: &[&str]) -> (bool, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("solve")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.success(), json, stderr)
}

#[test]
fn one_state_reports_both_arms_on_their_grips() {
    let (ok, v, stderr) = solve(&["--phase", "retrieve", "--t", "0.5"]);
    assert!(ok, "{stderr}");
    assert_eq!(v["state"]["phase"], "retrieve");
    for side in ["left", "right"] {
        let arm = &v["arms"][side];
        assert_eq!(arm["ik"]["reached"], true, "{side}: {arm}");
        assert!(arm["ik"]["residual"].as_f64().unwrap() < 1e-4);
    }
    let hand = &v["bones"]["hand.R"];
    assert_eq!(hand["quaternion"].as_array().unwrap().len(), 4);
    assert_eq!(hand["world_position"].as_array().unwrap().len(), 3);
    // The camelCase key of earlier versions, kept as an alias for a version.
    assert_eq!(hand["worldPosition"], hand["world_position"]);
}

#[test]
fn preset_state_is_used_and_timeline_lists_no_flips_for_defaults() {
    let (ok, v, stderr) = solve(&["--preset", "assets/presets/landing.json"]);
    assert!(ok, "{stderr}");
    assert_eq!(v["state"]["phase"], "landing");
    let (ok, v, stderr) = solve(&["--timeline", "600"]);
    assert!(ok, "{stderr}");
    assert_eq!(v["samples"], 600);
    assert_eq!(v["flips"].as_array().unwrap().len(), 0, "{}", v["flips"]);
    assert_eq!(v["arms"]["left"].as_array().unwrap().len(), 600);
}

#[test]
fn bad_arguments_fail_cleanly() {
    for args in [
        vec!["--phase", "fly_fishing"],
        vec!["--t", "1.5"],
        vec!["--timeline", "1"],
        vec!["--preset", "tests/fixtures/presets/does-not-exist.json"],
    ] {
        let (ok, _, stderr) = solve(&args);
        assert!(!ok, "{args:?} accepted");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!stderr.is_empty());
    }
}
