//! `anglerpose ik two-bone`: solved output, report fields and clear errors.

use std::path::Path;
use std::process::Command;

fn run(scene: &str) -> (bool, String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/two_bone")
        .join(scene);
    let out = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .args(["ik", "two-bone", "--scene"])
        .arg(&path)
        .output()
        .expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn vec3(v: &serde_json::Value) -> [f64; 3] {
    let a = v.as_array().expect("array");
    [0, 1, 2].map(|i| a[i].as_f64().expect("number"))
}

#[test]
fn reachable_scene_puts_the_wrist_on_the_target() {
    let (ok, stdout, stderr) = run("arm.json");
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let bones = v["bones"].as_array().unwrap();
    assert_eq!(bones.len(), 5);
    let wrist = vec3(&bones[3]["worldPosition"]);
    let target = [-0.05, 1.0, 0.25];
    let err: f64 = (0..3)
        .map(|i| (wrist[i] - target[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(err < 1e-12, "wrist {wrist:?}");
    assert_eq!(v["report"]["reached"], true);
    assert_eq!(v["report"]["clamp"], "none");
    assert_eq!(v["report"]["fallback"], "none");
    // Local quaternions are unit and the parent did not move.
    for b in bones {
        let q = b["quaternion"].as_array().unwrap();
        let n: f64 = q.iter().map(|c| c.as_f64().unwrap().powi(2)).sum();
        assert!((n - 1.0).abs() < 1e-12);
    }
    assert_eq!(vec3(&bones[0]["worldPosition"]), [0.0, 1.2, 0.0]);
}

#[test]
fn unreachable_limited_scene_reports_clamp_limit_and_softening() {
    let (ok, stdout, stderr) = run("too_far_limited.json");
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let r = &v["report"];
    assert_eq!(r["reached"], false);
    assert_eq!(r["softened"], true);
    assert_eq!(r["elbow_limited"], true);
    let bend = r["elbow_bend"].as_f64().unwrap();
    assert!((bend - 10f64.to_radians()).abs() < 1e-9, "bend {bend}");
}

#[test]
fn bad_scenes_fail_with_a_clear_message() {
    for (file, needle) in [
        ("no_two_bone.json", "twoBone"),
        ("zero_length.json", "zero length"),
        ("bad_limit.json", "min bend"),
    ] {
        let (ok, _, stderr) = run(file);
        assert!(!ok, "{file} accepted");
        assert!(
            stderr.contains(file),
            "{file}: message does not name the file: {stderr}"
        );
        assert!(stderr.contains(needle), "{file}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
