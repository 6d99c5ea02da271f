//! `anglerpose ik ccd` end to end: good scenes print the oracle-shaped JSON; bad scene files
//! exit non-zero with one message naming the file and the JSON path, and never panic.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_anglerpose")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ccd")
        .join(name)
}

fn run_ccd(path: &Path) -> Output {
    Command::new(bin())
        .args(["ik", "ccd", "--scene"])
        .arg(path)
        .output()
        .expect("run the binary")
}

/// Writes `text` to a scratch file named `name` and runs the CLI on it.
fn run_text(name: &str, text: &str) -> (Output, PathBuf) {
    let dir = std::env::temp_dir().join(format!("anglerpose-cli-ik-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (run_ccd(&path), path)
}

const GOOD: &str = r#"{"bones": [
  {"name": "a", "parent": -1, "position": [0, 0, 0]},
  {"name": "b", "parent": 0, "position": [0, 1, 0]},
  {"name": "c", "parent": 1, "position": [0, 1, 0]},
  {"name": "t", "parent": -1, "position": [1, 1, 0]}
], "iks": [{"target": 3, "effector": 2, "iteration": 10,
            "links": [{"index": 1}, {"index": 0}]}]}"#;

#[test]
fn good_scene_prints_the_oracle_result() {
    let out = run_ccd(&fixture("03_hinge_limitation.json"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("03_hinge_limitation.expected.json")).unwrap(),
    )
    .unwrap();
    for (g, w) in got["bones"]
        .as_array()
        .unwrap()
        .iter()
        .zip(want["bones"].as_array().unwrap())
    {
        for key in ["quaternion", "worldPosition"] {
            let (g, w) = (g[key].as_array().unwrap(), w[key].as_array().unwrap());
            for (a, b) in g.iter().zip(w) {
                assert!(
                    (a.as_f64().unwrap() - b.as_f64().unwrap()).abs() < 1e-9,
                    "{key}"
                );
            }
        }
    }
    let d = got["chains"][0]["distance"].as_f64().unwrap();
    assert!((d - want["chains"][0]["distance"].as_f64().unwrap()).abs() < 1e-9);

    let (out, _) = run_text("good.json", GOOD);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        got["chains"][0]["distance"].as_f64().unwrap() < 1e-3,
        "{got}"
    );
}

/// Each case: file name, edit of GOOD (from, to), fragments the error must contain.
#[test]
fn bad_scenes_fail_with_file_and_json_path() {
    let cases: &[(&str, &str, &str, &[&str])] = &[
        (
            "syntax.json",
            r#""iks": ["#,
            r#""iks" ["#,
            &["invalid JSON", "line 6", "(in iks)"],
        ),
        (
            "missing.json",
            r#""effector": 2, "#,
            "",
            &["iks[0].effector", "missing"],
        ),
        (
            "overflow.json",
            "[1, 1, 0]",
            "[1, 1e999, 0]",
            &["bones[3].position", "finite"],
        ),
        (
            "range.json",
            r#"{"index": 0}"#,
            r#"{"index": 9}"#,
            &["iks[0].links[1].index", "out of range"],
        ),
        (
            "cycle.json",
            r#""parent": -1, "position": [0, 0, 0]"#,
            r#""parent": 2, "position": [0, 0, 0]"#,
            &["bones[", "].parent", "cycle"],
        ),
        (
            "chain.json",
            r#"{"index": 1}, {"index": 0}"#,
            r#"{"index": 0}, {"index": 1}"#,
            &["iks[0].links[0].index", "not the parent"],
        ),
        (
            "type.json",
            r#""iteration": 10"#,
            r#""iteration": "10""#,
            &["iks[0].iteration", "expected a number"],
        ),
        (
            "bones.json",
            r#""parent": 0, "position": [0, 1, 0]"#,
            r#""parent": 0, "position": [0, 1]"#,
            &["bones[1].position"],
        ),
    ];
    for (file, from, to, needles) in cases {
        assert!(GOOD.contains(from), "{file}: {from}");
        let (out, path) = run_text(file, &GOOD.replacen(from, to, 1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{file} should fail");
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert!(out.stdout.is_empty(), "{file}: printed a result");
        assert!(err.contains(&path.display().to_string()), "{file}: {err}");
        for n in *needles {
            assert!(err.contains(n), "{file}: `{n}` not in: {err}");
        }
        assert_eq!(err.trim().lines().count(), 1, "{file}: one message: {err}");
    }
}

#[test]
fn missing_file_and_empty_file_are_errors() {
    let out = run_ccd(Path::new("/nonexistent/anglerpose/scene.json"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("/nonexistent/anglerpose/scene.json") && !err.contains("panicked"),
        "{err}"
    );
    for (name, text) in [
        ("empty.json", ""),
        ("array.json", "[]"),
        ("nobones.json", r#"{"bones": []}"#),
    ] {
        let (out, path) = run_text(name, text);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}");
        assert!(
            err.contains(&path.display().to_string()) && !err.contains("panicked"),
            "{err}"
        );
    }
}
