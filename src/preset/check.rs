//! Semantic checks of a parsed preset: finite numbers, unit quaternions, ranges, min ≤ max.
//! Every problem is collected with its JSON path. Pure; file references are checked in
//! [`super::io`].

use super::{Preset, Problem};
use crate::fishing::rules::FieldProblem;
use crate::fishing::{GripCalibration, SessionState, SolverSettings};

/// Every problem of `preset` that needs no files (see [`super::io::validate_file`] for the
/// character and override checks).
pub fn check_preset(preset: &Preset) -> Vec<Problem> {
    let mut out = Vec::new();
    if preset.character.path.trim().is_empty() {
        out.push(Problem::error("character.path", "is empty"));
    }
    if let Some(h) = &preset.character.sha256
        && !(h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    {
        out.push(Problem::error(
            "character.sha256",
            "expected 64 lower-case hex digits (SHA-256) or null",
        ));
    }
    calibration(&preset.calibration, "calibration", &mut out);
    settings(&preset.settings, "settings", &mut out);
    state(&preset.state, "state", &mut out);
    for (name, pose) in &preset.poses {
        let prefix = format!("poses.{name}");
        if name.trim().is_empty() {
            out.push(Problem::error(
                prefix.clone(),
                "pose names must not be empty",
            ));
        }
        state(&pose.state, &format!("{prefix}.state"), &mut out);
        if let Some(c) = &pose.calibration {
            calibration(c, &format!("{prefix}.calibration"), &mut out);
        }
    }
    out
}

fn calibration(c: &GripCalibration, prefix: &str, out: &mut Vec<Problem>) {
    out.extend(errors(c.problems(prefix)));
}

fn settings(s: &SolverSettings, prefix: &str, out: &mut Vec<Problem>) {
    out.extend(errors(s.problems(prefix)));
}

fn state(s: &SessionState, prefix: &str, out: &mut Vec<Problem>) {
    out.extend(errors(s.problems(prefix)));
}

fn errors(problems: Vec<FieldProblem>) -> impl Iterator<Item = Problem> {
    problems
        .into_iter()
        .map(|p| Problem::error(p.path, p.message))
}
