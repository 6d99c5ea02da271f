//! Replays fuzz inputs through the code the fuzz targets (fuzz/fuzz_targets/) exercise, so
//! that an input which once crashed, hung or exhausted memory stays fixed.
//!
//! Inputs live in `tests/fixtures/fuzz/<target>/` (every file libFuzzer ever reported, named
//! after what it found) and the seed corpus `fuzz/seeds/<target>/`. Each must give `Ok` or an
//! error — never a panic — within a generous runaway bound. Adding a regression is dropping
//! libFuzzer's `crash-*`/`timeout-*`/`oom-*` file into the target's folder.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const RUNAWAY: Duration = Duration::from_secs(30);

/// Every file of `tests/fixtures/fuzz/<target>` and `fuzz/seeds/<target>`, sorted.
fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        root.join("tests/fixtures/fuzz").join(target),
        root.join("fuzz/seeds").join(target),
    ] {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            out.extend(entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()));
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no fuzz inputs for {target}");
    out
}

/// Runs `f` on every input of `target`, bounding each run's time. Returns how many gave `Ok`.
fn replay(target: &str, f: impl Fn(&[u8]) -> bool) -> usize {
    let mut ok = 0;
    for path in inputs(target) {
        let bytes = std::fs::read(&path).unwrap();
        let start = Instant::now();
        ok += usize::from(f(&bytes));
        assert!(
            start.elapsed() < RUNAWAY,
            "{}: took {:?}",
            path.display(),
            start.elapsed()
        );
    }
    ok
}

/// A panic caught at the import's boundary is still a defect: it must not come back.
fn not_internal<T>(r: &Result<T, anglerpose::gltf_io::LoadError>) {
    if let Err(e @ anglerpose::gltf_io::LoadError::Internal { .. }) = r {
        panic!("the importer panicked inside its boundary: {e}");
    }
}

#[test]
fn fbx_import_inputs() {
    let ok = replay("fbx_import", |bytes| {
        let r = anglerpose::gltf_io::load_from_bytes(Path::new("/nonexistent-fuzz/in.fbx"), bytes);
        not_internal(&r);
        r.is_ok()
    });
    // The seeds include a valid file: the replay really loads something.
    assert!(ok >= 1, "{ok} inputs loaded");
}

#[test]
fn gltf_import_inputs() {
    let ok = replay("gltf_import", |bytes| {
        let glb =
            anglerpose::gltf_io::load_from_bytes(Path::new("/nonexistent-fuzz/in.glb"), bytes);
        let gltf =
            anglerpose::gltf_io::load_from_bytes(Path::new("/nonexistent-fuzz/in.gltf"), bytes);
        not_internal(&glb);
        not_internal(&gltf);
        glb.is_ok() || gltf.is_ok()
    });
    // The seeds include valid files: the replay really loads something.
    assert!(ok >= 2, "{ok} inputs loaded");
}

#[test]
fn scene_reader_inputs() {
    let ok = replay("scene_reader", |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return false;
        };
        match anglerpose::oracle::parse_scene(text, "fuzz.json") {
            Ok(scene) => {
                let _ = anglerpose::oracle::ccd_result(&scene);
                true
            }
            Err(_) => false,
        }
    });
    assert!(ok >= 4, "{ok} scenes parsed");
}

#[test]
fn preset_load_inputs() {
    let ok = replay("preset_load", |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return false;
        };
        match anglerpose::preset::parse_preset(text) {
            Ok(preset) => {
                let again = anglerpose::preset::parse_preset(&preset.to_json());
                assert!(
                    again.is_ok(),
                    "a parsed preset does not parse back: {again:?}"
                );
                true
            }
            Err(_) => false,
        }
    });
    assert!(ok >= 2, "{ok} presets parsed");
}

/// Found by `gltf_import` (tests/fixtures/fuzz/gltf_import/percent_encoded_uri_not_utf8.gltf):
/// a relative buffer or image URI whose `%XX` escapes decode to invalid UTF-8 made the `gltf`
/// crate's URI resolver panic (`urlencoding::decode(..).unwrap()`).
#[test]
fn percent_encoded_uri_that_is_not_utf8_is_an_error() {
    let buffer =
        r#"{"asset": {"version": "2.0"}, "buffers": [{"uri": "%FF%FE.bin", "byteLength": 4}]}"#;
    let err = anglerpose::gltf_io::load_from_bytes(Path::new("dir/uri.gltf"), buffer.as_bytes())
        .expect_err("the buffer cannot be read");
    let msg = err.to_string();
    assert!(
        msg.contains("dir/uri.gltf") && msg.contains("buffers[0]"),
        "{msg}"
    );
    assert!(msg.contains("does not percent-decode to UTF-8"), "{msg}");
    // Images fall back to a placeholder with a warning rather than failing the load.
    let image = r#"{"asset": {"version": "2.0"}, "images": [{"uri": "tex%C3%28.png"}]}"#;
    let c = anglerpose::gltf_io::load_from_bytes(Path::new("dir/img.gltf"), image.as_bytes())
        .expect("a broken image is a warning");
    assert_eq!(c.images.len(), 1);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("does not percent-decode to UTF-8")),
        "{:?}",
        c.warnings
    );
    // Valid escapes still resolve (to a missing file here): no false positive.
    let ok = r#"{"asset": {"version": "2.0"}, "buffers": [{"uri": "a%20b.bin", "byteLength": 4}]}"#;
    let msg = anglerpose::gltf_io::load_from_bytes(Path::new("dir/ok.gltf"), ok.as_bytes())
        .expect_err("no such file")
        .to_string();
    assert!(!msg.contains("percent-decode"), "{msg}");
}

#[test]
fn preset_pose_inputs() {
    let ok = replay("preset_pose", anglerpose::fuzz_entry::preset_pose);
    assert!(ok >= 3, "{ok} presets posed");
}

#[test]
fn preset_retarget_inputs() {
    let ok = replay("preset_retarget", anglerpose::fuzz_entry::preset_retarget);
    assert!(ok >= 3, "{ok} presets retargeted");
}

#[test]
fn clip_roundtrip_inputs() {
    let ok = replay("clip_roundtrip", anglerpose::fuzz_entry::clip_roundtrip);
    assert!(ok >= 3, "{ok} presets exported and loaded back");
}
