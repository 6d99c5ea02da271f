//! Atomic saving: a write that fails half-way leaves the old file intact and no temporary
//! file behind; invalid presets are refused before anything is written.

mod support;

use anglerpose::preset::{PresetError, io};
use std::path::Path;
use support::fs::fresh_scratch;

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_write_failing_half_way_leaves_the_old_file_and_no_temp() {
    let dir = fresh_scratch("half");
    let path = dir.join("preset.json");
    std::fs::write(&path, b"old contents").unwrap();
    let big = vec![b'x'; 1 << 20];
    let err = io::write_atomic_with(&path, |w| {
        w.write_all(&big[..big.len() / 2])?;
        Err(std::io::Error::other("disk full (injected)"))
    })
    .unwrap_err();
    assert!(err.to_string().contains("injected"));
    assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
    assert_eq!(entries(&dir), ["preset.json"]);
}

#[test]
fn a_successful_write_replaces_the_file_and_leaves_no_temp() {
    let dir = fresh_scratch("ok");
    let path = dir.join("out.bin");
    std::fs::write(&path, b"old").unwrap();
    io::write_atomic(&path, b"new contents").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new contents");
    assert_eq!(entries(&dir), ["out.bin"]);
}

#[test]
fn writing_into_a_missing_folder_fails_cleanly() {
    let dir = fresh_scratch("missing");
    let path = dir.join("no/such/folder/x.json");
    assert!(io::write_atomic(&path, b"x").is_err());
    assert!(entries(&dir).is_empty());
}

#[test]
fn an_invalid_preset_is_not_saved() {
    let dir = fresh_scratch("invalid");
    let path = dir.join("p.json");
    let source = anglerpose::stage::bundled_assets_dir().join("presets/landing.json");
    let mut preset = io::load_preset(&source).unwrap();
    io::save_preset_atomic(&path, &preset).unwrap();
    let before = std::fs::read(&path).unwrap();
    preset.inputs.state.t = f64::NAN;
    preset.inputs.calibration.hands.left.finger_curl = f64::INFINITY;
    match io::save_preset_atomic(&path, &preset) {
        Err(PresetError::NotSaved { problems, .. }) => {
            let paths: Vec<_> = problems.iter().map(|p| p.path.as_str()).collect();
            assert_eq!(paths, ["calibration.hands.left.finger_curl", "state.t"]);
        }
        other => panic!("expected NotSaved, got {other:?}"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(entries(&dir), ["p.json"]);
}

#[test]
fn stale_temp_files_from_a_killed_save_do_not_block_the_next_save() {
    let dir = fresh_scratch("stale");
    let path = dir.join("p.json");
    std::fs::write(&path, b"old").unwrap();
    // Temp names a killed process with our pid would have left behind.
    for k in 0..200 {
        std::fs::write(
            dir.join(format!(".p.json.tmp-{}-{k}", std::process::id())),
            b"partial",
        )
        .unwrap();
    }
    io::write_atomic(&path, b"new").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    // The stale files are someone else's leftovers: untouched, and no new temp remains.
    assert_eq!(entries(&dir).len(), 201);
}
