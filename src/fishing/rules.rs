//! The field rules every settings type states once, in its `problems(prefix)`: the preset
//! checker, the poser and the editor all report through them. A problem names the field by
//! its JSON path (`calibration.poles.left.pole_in_actor[0]`).

use glam::{DQuat, DVec3};

/// One broken rule: where (a JSON path) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldProblem {
    /// JSON path of the field, e.g. `calibration.hands.left.finger_curl`.
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The first problem as `path: message`, for `validate()`-style callers.
///
/// # Errors
/// When `problems` is not empty.
pub fn first(problems: Vec<FieldProblem>) -> Result<(), String> {
    match problems.into_iter().next() {
        Some(p) => Err(p.to_string()),
        None => Ok(()),
    }
}

/// Positions and offsets are metres in actor, rod or hand space; nothing in a seated pose is
/// 10 km away, and beyond that f32 files (glTF) lose the millimetres.
pub const MAX_DISTANCE: f64 = 1.0e4;

/// `prefix.key`, or `key` alone for an empty prefix.
pub fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Records `c` (component `i` of `path`) as not finite; true when it is finite.
fn finite_component(c: f64, i: usize, path: &str, out: &mut Vec<FieldProblem>) -> bool {
    if !c.is_finite() {
        push(
            out,
            format!("{path}[{i}]"),
            format!("{c} is not a finite number"),
        );
    }
    c.is_finite()
}

/// Finite components (any magnitude: angles, axes).
pub fn finite3(v: DVec3, path: &str, out: &mut Vec<FieldProblem>) {
    for (i, c) in v.to_array().into_iter().enumerate() {
        finite_component(c, i, path, out);
    }
}

/// Records a problem.
pub fn push(out: &mut Vec<FieldProblem>, path: impl Into<String>, message: impl Into<String>) {
    out.push(FieldProblem {
        path: path.into(),
        message: message.into(),
    });
}

/// A number in `lo..=hi`.
pub fn number(v: f64, path: &str, lo: f64, hi: f64, out: &mut Vec<FieldProblem>) {
    if !v.is_finite() {
        push(out, path, format!("{v} is not a finite number"));
    } else if !(lo..=hi).contains(&v) {
        push(out, path, format!("{v} is outside {lo}..={hi}"));
    }
}

/// A finite position or offset within ±[`MAX_DISTANCE`] metres on each axis.
pub fn position(v: DVec3, path: &str, out: &mut Vec<FieldProblem>) {
    for (i, c) in v.to_array().into_iter().enumerate() {
        if finite_component(c, i, path, out) && c.abs() > MAX_DISTANCE {
            push(
                out,
                format!("{path}[{i}]"),
                format!("{c:e} is beyond ±{MAX_DISTANCE} m (not a place in a seated pose)"),
            );
        }
    }
}

/// A finite unit quaternion (length within 1e-3 of 1).
pub fn unit_quat(q: DQuat, path: &str, out: &mut Vec<FieldProblem>) {
    let mut finite = true;
    for (i, c) in q.to_array().into_iter().enumerate() {
        finite &= finite_component(c, i, path, out);
    }
    if finite && (q.length() - 1.0).abs() > 1e-3 {
        push(
            out,
            path,
            format!("not a unit quaternion (length {})", q.length()),
        );
    }
}
