//! Files and processes for the tests: scratch folders, the CLI binary, fixtures and the
//! bundled assets.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `anglerpose-{name}-{pid}` in the temp folder, created if missing. Tests of one binary that
/// pass the same name share it.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anglerpose-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Like [`scratch`], emptied first: a folder for one test alone.
pub fn fresh_scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anglerpose-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `anglerpose` binary Cargo built for these tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_anglerpose"))
}

/// Runs `cmd`, asserts that it succeeded (its stderr in the message), returns its stdout.
pub fn stdout_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// `tests/fixtures/{rel}`.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

/// `assets/{rel}`: the bundled assets.
pub fn asset(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(rel)
}
