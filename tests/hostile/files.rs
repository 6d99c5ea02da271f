//! Hostile cases outside glTF: degenerate two-bone chains, a 100 MB scene file given to the
//! CLI, and 100 MB presets.

use super::RUNAWAY;
use anglerpose::ik::two_bone::{TwoBoneError, TwoBoneJob};
use anglerpose::preset::{Preset, io};
use anglerpose::rig::{Bone, Pose, Skeleton, Transform};
use anglerpose::stage::{Stage, bundled_assets_dir};
use glam::DVec3;
use std::path::PathBuf;
use std::time::Instant;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anglerpose-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A three-bone arm with the given local offsets of the mid and tip bones.
fn arm(mid: DVec3, tip: DVec3) -> (Skeleton, Pose) {
    let bone = |name: &str, parent, t| Bone {
        name: name.into(),
        parent,
        rest: Transform::from_translation(t),
    };
    let skel = Skeleton::new(vec![
        bone("shoulder", None, DVec3::new(0.0, 1.5, 0.0)),
        bone("elbow", Some(0), mid),
        bone("wrist", Some(1), tip),
    ])
    .unwrap();
    let mut pose = Pose::rest(&skel);
    pose.refresh_all(&skel);
    (skel, pose)
}

#[test]
fn zero_length_and_coincident_bones_are_rejected_by_the_two_bone_solver() {
    let x = DVec3::X * 0.3;
    let cases = [
        ("zero upper", DVec3::ZERO, x, "upper segment"),
        ("zero lower", x, DVec3::ZERO, "lower segment"),
        ("all coincident", DVec3::ZERO, DVec3::ZERO, "upper segment"),
        // Shorter than 1e-9 of the chain's scale: numerically coincident.
        ("sub-nanometre upper", DVec3::X * 1e-12, x, "upper segment"),
    ];
    for (what, mid, tip, segment) in cases {
        let (skel, mut pose) = arm(mid, tip);
        let before = pose.clone();
        let job = TwoBoneJob::new(
            0,
            1,
            2,
            DVec3::new(0.4, 1.2, 0.2),
            DVec3::new(0.0, 0.0, -1.0),
        );
        let err = job.validate(&skel, &pose).expect_err(what);
        assert!(
            matches!(err, TwoBoneError::ZeroLength { segment: s, .. } if s.starts_with(segment)),
            "{what}: {err:?}"
        );
        assert!(job.solve(&skel, &mut pose).is_err(), "{what}");
        assert_eq!(
            pose, before,
            "{what}: a rejected solve must leave the pose untouched"
        );
    }
    // Positive control: a proper arm validates and solves to finite values.
    let (skel, mut pose) = arm(x, x);
    let job = TwoBoneJob::new(
        0,
        1,
        2,
        DVec3::new(0.4, 1.2, 0.2),
        DVec3::new(0.0, 0.0, -1.0),
    );
    let _ = job.solve(&skel, &mut pose).expect("valid arm");
    assert!(pose.is_finite());
}

#[cfg(unix)]
#[test]
fn a_100_mb_scene_file_is_refused_by_size() {
    let path = scratch("scene_100mb.json");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(br#"{"bones": [{"name": "a"}], "description": ""#)
            .unwrap();
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..100 {
            f.write_all(&chunk).unwrap();
        }
        f.write_all(b"\"}").unwrap();
    }
    let start = Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .args(["ik", "ccd", "--scene"])
        .arg(&path)
        .output()
        .expect("run the binary");
    assert!(start.elapsed() < RUNAWAY, "took {:?}", start.elapsed());
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("scene_100mb.json"), "{stderr}");
    assert!(
        stderr.contains("larger than the 16777216 bytes"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The default preset of the bundled angler, as JSON.
fn base_preset_json() -> serde_json::Value {
    let stage = Stage::bundled().expect("bundled stage");
    let dir = bundled_assets_dir().join("presets");
    let character = io::character_ref(
        &dir.join("x.json"),
        &bundled_assets_dir().join("angler.glb"),
    )
    .unwrap();
    serde_json::from_str(&Preset::from_stage(&stage, character).to_json()).unwrap()
}

#[test]
fn a_100_mb_preset_of_garbage_is_a_clear_error() {
    // Valid JSON, 100 MB in one string where the character path belongs.
    let mut doc = base_preset_json();
    doc["character"]["path"] = serde_json::Value::String("x".repeat(100 << 20));
    let path = scratch("garbage_100mb.json");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    drop(doc);
    let start = Instant::now();
    let result = io::load_preset(&path);
    assert!(start.elapsed() < RUNAWAY, "took {:?}", start.elapsed());
    let _ = std::fs::remove_file(&path);
    // The path does not resolve, but parsing must not choke on it: either a clear error naming
    // the file, or a preset (character files are checked when the stage is built).
    if let Err(e) = result {
        assert!(e.to_string().contains("garbage_100mb.json"), "{e}");
    }
}

/// Presets are a few kilobytes; a 100 MB one of well-formed named poses takes ~45 s and
/// gigabytes to parse and check. The decision (issue 8): `load_preset` refuses files over
/// `MAX_PRESET_BYTES` before reading them, like the scene reader.
#[test]
fn a_100_mb_preset_of_named_poses_is_refused_by_size() {
    let mut doc = base_preset_json();
    let state = doc["state"].clone();
    let one = serde_json::to_vec(&serde_json::json!({"state": state}))
        .unwrap()
        .len()
        + 16;
    let count = (100 << 20) / one;
    let poses = doc["poses"].as_object_mut().expect("poses is an object");
    for i in 0..count {
        poses.insert(format!("pose_{i:07}"), serde_json::json!({"state": state}));
    }
    let path = scratch("poses_100mb.json");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    drop(doc);
    assert!(std::fs::metadata(&path).unwrap().len() >= 95 << 20);
    let start = Instant::now();
    let result = io::load_preset(&path);
    assert!(start.elapsed() < RUNAWAY, "took {:?}", start.elapsed());
    let _ = std::fs::remove_file(&path);
    let e = result.expect_err("a 100 MB preset must be refused");
    assert!(e.to_string().contains("poses_100mb.json"), "{e}");
    assert!(e.to_string().contains("larger than"), "{e}");
}
