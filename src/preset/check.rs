//! Semantic checks of a parsed preset: finite numbers, unit quaternions, ranges, min ≤ max.
//! Every problem is collected with its JSON path. Pure; file references are checked in
//! [`super::io`].

use super::{Preset, Problem};
use crate::fishing::rules::{self, FieldProblem, Path};
use crate::fishing::{GripCalibration, SessionState};

/// Every problem of `preset` that needs no files (see [`super::io::validate_file`] for the
/// character and override checks).
pub fn check_preset(preset: &Preset) -> Vec<Problem> {
    let mut out = Vec::new();
    file_ref(
        "character",
        &preset.character.path,
        preset.character.sha256.as_deref(),
        &mut out,
    );
    if let Some(rod) = &preset.rod {
        file_ref("rod", &rod.path, rod.sha256.as_deref(), &mut out);
        let mut p = Vec::new();
        if let Some(l) = rod.length {
            rules::number(l, &Path::root("rod.length"), 0.3, 10.0, &mut p);
        }
        for (v, key) in [
            (rod.rear_grip, "rod.rear_grip"),
            (rod.reel_seat, "rod.reel_seat"),
        ] {
            if let Some(v) = v {
                rules::number(v, &Path::root(key), 0.0, 10.0, &mut p);
            }
        }
        if let (Some(a), Some(b)) = (rod.rear_grip, rod.reel_seat)
            && a > b
        {
            rules::push(&mut p, "rod.rear_grip", "must not be beyond rod.reel_seat");
        }
        out.extend(errors(p));
    }
    if let Some(net) = &preset.net {
        file_ref("net", &net.path, net.sha256.as_deref(), &mut out);
        if let Some(l) = net.length {
            let mut p = Vec::new();
            rules::number(l, &Path::root("net.length"), 0.3, 10.0, &mut p);
            out.extend(errors(p));
        }
    }
    if let Some(seat) = &preset.seat {
        file_ref("seat", &seat.path, seat.sha256.as_deref(), &mut out);
    }
    out.extend(errors(preset.inputs.problems()));
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

/// A file reference's rules: a path, and a hash of 64 lower-case hex digits when known.
fn file_ref(key: &str, path: &str, sha256: Option<&str>, out: &mut Vec<Problem>) {
    if path.trim().is_empty() {
        out.push(Problem::error(format!("{key}.path"), "is empty"));
    }
    if let Some(h) = sha256
        && !(h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    {
        out.push(Problem::error(
            format!("{key}.sha256"),
            "expected 64 lower-case hex digits (SHA-256) or null",
        ));
    }
}

fn calibration(c: &GripCalibration, prefix: &str, out: &mut Vec<Problem>) {
    out.extend(errors(c.problems(prefix)));
}

fn state(s: &SessionState, prefix: &str, out: &mut Vec<Problem>) {
    out.extend(errors(s.problems(prefix)));
}

fn errors(problems: Vec<FieldProblem>) -> impl Iterator<Item = Problem> {
    problems
        .into_iter()
        .map(|p| Problem::error(p.path, p.message))
}
