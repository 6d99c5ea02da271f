//! The command line with inputs nobody here wrote: numbers too large to solve with, a reader
//! that closes the pipe early, presets with many problems at once and missing files. Every
//! case ends with a clear message naming the file (or quietly, for a closed pipe), never a
//! panic, and no `NaN`, infinity or `null` ever reaches an output.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use support::fs::{bin, scratch};

fn bundled(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Runs and returns (exit code, stdout, stderr).
fn run(cmd: &mut Command) -> (i32, String, String) {
    let o = cmd.output().expect("run anglerpose");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn edited(name: &str, from: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bundled(from)).unwrap()).unwrap();
    edit(&mut v);
    let path = scratch("robust").join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    path
}

#[test]
fn huge_numbers_are_refused_by_name_and_never_print_null() {
    // A bone at 1e308 used to be solved into NaN and printed as null.
    let scene = edited(
        "huge_bone.json",
        "tests/fixtures/ccd/01_browser_reachable.json",
        |v| {
            v["bones"][0]["position"] = serde_json::json!([0.0, 1e308, 0.0]);
        },
    );
    let (code, out, err) = run(bin().args(["ik", "ccd", "--scene"]).arg(&scene));
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.contains("null"), "{out}");
    assert!(
        err.contains("huge_bone.json") && err.contains("bones[0].position[1]"),
        "{err}"
    );
    assert!(err.contains("1e308 is beyond"), "{err}");

    // Each number in range, scales multiplying to 1e55 along the chain: a clear error or a
    // finite result, never null.
    let scene = edited(
        "deep_scales.json",
        "tests/fixtures/ccd/01_browser_reachable.json",
        |v| {
            for b in v["bones"].as_array_mut().unwrap() {
                b["scale"] = serde_json::json!([1e11, 1e11, 1e11]);
                b["position"] = serde_json::json!([0.0, 1e11, 0.0]);
            }
        },
    );
    let (code, out, err) = run(bin().args(["ik", "ccd", "--scene"]).arg(&scene));
    assert!(!out.contains("null"), "{out}");
    assert!(
        code == 0 || err.contains("deep_scales.json"),
        "{code}: {err}"
    );

    let two_bone = edited(
        "huge_target.json",
        "tests/fixtures/two_bone/arm.json",
        |v| {
            v["twoBone"]["target"] = serde_json::json!([1e300, 0.0, 0.0]);
        },
    );
    let (code, out, err) = run(bin().args(["ik", "two-bone", "--scene"]).arg(&two_bone));
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("twoBone.target[0]"), "{err}");

    // A preset whose pole is far beyond anything seated: refused with its JSON path by
    // validate, solve and export alike.
    let preset = edited("far_pole.json", "assets/presets/seated_hold.json", |v| {
        v["character"]["path"] = serde_json::json!(bundled("assets/angler.glb"));
        v["calibration"]["poles"]["left"]["pole_in_actor"][0] = serde_json::json!(1e308);
    });
    for args in [
        vec!["validate", preset.to_str().unwrap()],
        vec!["solve", "--preset", preset.to_str().unwrap()],
    ] {
        let (code, out, err) = run(bin().args(&args));
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        let all = out + &err;
        assert!(all.contains("far_pole.json"), "{args:?}: {all}");
        assert!(
            all.contains("calibration.poles.left.pole_in_actor[0]"),
            "{args:?}: {all}"
        );
        assert!(!all.contains("null"), "{all}");
    }
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let preset = bundled("assets/presets/seated_hold.json");
    let angler = bundled("assets/angler.glb");
    let scene = bundled("tests/fixtures/ccd/01_browser_reachable.json");
    for args in [
        vec!["solve", "--timeline", "5000"],
        vec!["solve"],
        vec!["inspect", angler.to_str().unwrap(), "--json"],
        vec!["inspect", angler.to_str().unwrap()],
        vec!["ik", "ccd", "--scene", scene.to_str().unwrap()],
        vec!["validate", preset.to_str().unwrap()],
    ] {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Hang up at once (every write then fails with a broken pipe, even a short output
        // that would fit the pipe's buffer), or, for the long timeline, after ten bytes like
        // `head -c 10`.
        let mut stdout = child.stdout.take().unwrap();
        if args.get(1) == Some(&"--timeline") {
            let mut first = [0u8; 10];
            std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
        }
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn validate_reports_every_problem_and_a_missing_character_is_said_once() {
    let preset = edited("many.json", "assets/presets/seated_hold.json", |v| {
        v["character"]["path"] = serde_json::json!(bundled("assets/angler.glb"));
        v["surprise"] = serde_json::json!(1);
        v["calibration"]["hands"]["left"]["finger_curl"] = serde_json::json!(3.0);
        v["state"]["t"] = serde_json::json!(7.0);
    });
    let (code, out, err) = run(bin().arg("validate").arg(&preset));
    assert_eq!(code, 1);
    for what in [
        "surprise: unknown field",
        "calibration.hands.left.finger_curl: 3 is outside 0..=1",
        "state.t: 7 is outside 0..=1",
    ] {
        assert!(out.contains(what), "missing {what:?} in:\n{out}");
    }
    assert!(err.contains("3 error(s)"), "{err}");

    let missing = edited("missing.json", "assets/presets/seated_hold.json", |v| {
        v["character"]["path"] = serde_json::json!("nowhere.glb");
    });
    for args in [
        vec!["solve", "--preset"],
        vec!["export", "--out", "/nonexistent-dir/x.glb", "--preset"],
        vec!["render", "--out", "/nonexistent-dir/x.png", "--preset"],
    ] {
        let (code, _, err) = run(bin().args(&args).arg(&missing));
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(err.matches("nowhere.glb").count(), 1, "{args:?}: {err}");
        assert_eq!(err.matches("No such file").count(), 1, "{args:?}: {err}");
        assert!(err.contains("missing.json"), "{err}");
    }
}
