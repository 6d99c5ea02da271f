//! The CCD oracle scenes in `tests/fixtures/ccd/`: three.js r187 scenes (copied from
//! `shared/oracles/threejs-ccd`, plus our own) and their expected outputs.
#![allow(dead_code)]

use anglerpose::oracle::{self, Scene};
use std::path::{Path, PathBuf};

/// Every scene and its `.expected.json`, sorted by name.
pub fn fixtures() -> Vec<(PathBuf, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ccd");
    let mut out: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            n.ends_with(".json") && !n.ends_with(".expected.json")
        })
        .map(|p| {
            let e = p.with_extension("expected.json");
            (p, e)
        })
        .collect();
    out.sort();
    out
}

/// A scene file, parsed (panics naming the file on an error).
pub fn load(path: &Path) -> Scene {
    let text = std::fs::read_to_string(path).unwrap();
    oracle::parse_scene(&text, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"))
}

/// The scene `tests/fixtures/ccd/{name}.json`.
pub fn load_name(name: &str) -> Scene {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/ccd/{name}.json")))
}
