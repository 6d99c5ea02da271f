//! The Khronos glTF validator (gltf-transform's `validate`, run through npx), for tests that
//! check files the project writes. Callers skip loudly when [`have_node`] is false.
#![allow(dead_code)]

use super::xwin::have;
use std::path::Path;
use std::process::{Command, Output};

/// node and npx are installed (the validator needs both).
pub fn have_node() -> bool {
    have("node") && have("npx")
}

/// Runs the validator on `path` (no assertions: callers may run several at once).
pub fn run_validator(path: &Path) -> Output {
    Command::new("npx")
        .args(["-y", "@gltf-transform/cli@4.5.1", "validate"])
        .arg(path)
        .env("NO_COLOR", "1")
        .output()
        .expect("run npx")
}

/// The validator ran and reported no errors for `path`.
pub fn assert_no_errors(path: &Path, out: &Output) {
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "validator failed on {}:\n{text}",
        path.display()
    );
    assert!(
        text.contains("No errors found."),
        "validator reports errors for {}:\n{text}",
        path.display()
    );
}

/// [`run_validator`] then [`assert_no_errors`].
pub fn assert_valid(path: &Path) {
    assert_no_errors(path, &run_validator(path));
}
