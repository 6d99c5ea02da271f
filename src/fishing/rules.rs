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

/// A JSON path built without allocating: a chain of keys that becomes a string only when a
/// problem is recorded at it (checking valid settings on every pose update then costs no
/// formatting). Empty keys are skipped, so `Path::root("")` is the document itself.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    key: &'a str,
}

impl<'a> Path<'a> {
    /// The path `prefix` (already dotted, e.g. `settings.arms`; may be empty).
    pub const fn root(prefix: &'a str) -> Self {
        Self {
            parent: None,
            key: prefix,
        }
    }

    /// `self.key`.
    pub fn join(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            key,
        }
    }
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut keys = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            if !p.key.is_empty() {
                keys.push(p.key);
            }
            at = p.parent;
        }
        for (i, k) in keys.iter().rev().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(k)?;
        }
        Ok(())
    }
}

/// Records `c` (component `i` of `path`) as not finite; true when it is finite.
fn finite_component(c: f64, i: usize, path: &Path, out: &mut Vec<FieldProblem>) -> bool {
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
pub fn finite3(v: DVec3, path: &Path, out: &mut Vec<FieldProblem>) {
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
pub fn number(v: f64, path: &Path, lo: f64, hi: f64, out: &mut Vec<FieldProblem>) {
    if !v.is_finite() {
        push(out, path.to_string(), format!("{v} is not a finite number"));
    } else if !(lo..=hi).contains(&v) {
        push(out, path.to_string(), format!("{v} is outside {lo}..={hi}"));
    }
}

/// A finite number within `range` (see [`number`]).
pub fn in_range(
    v: f64,
    path: &Path,
    range: crate::ik::two_bone::ParamRange,
    out: &mut Vec<FieldProblem>,
) {
    number(v, path, range.lo, range.hi, out);
}

/// A finite position or offset within ±[`MAX_DISTANCE`] metres on each axis.
pub fn position(v: DVec3, path: &Path, out: &mut Vec<FieldProblem>) {
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
pub fn unit_quat(q: DQuat, path: &Path, out: &mut Vec<FieldProblem>) {
    let mut finite = true;
    for (i, c) in q.to_array().into_iter().enumerate() {
        finite &= finite_component(c, i, path, out);
    }
    if finite && (q.length() - 1.0).abs() > 1e-3 {
        push(
            out,
            path.to_string(),
            format!("not a unit quaternion (length {})", q.length()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_only_their_keys() {
        let root = Path::root("");
        assert_eq!(root.to_string(), "");
        assert_eq!(root.join("t").to_string(), "t");
        let calib = Path::root("calibration");
        let grips = calib.join("grips");
        let rear = grips.join("rod_rear");
        let p = rear.join("offset_in_object");
        assert_eq!(p.to_string(), "calibration.grips.rod_rear.offset_in_object");
        let mut out = Vec::new();
        position(DVec3::new(0.0, f64::NAN, 2e4), &p, &mut out);
        let paths: Vec<&str> = out.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "calibration.grips.rod_rear.offset_in_object[1]",
                "calibration.grips.rod_rear.offset_in_object[2]"
            ]
        );
        number(0.5, &root.join("weight"), 0.0, 1.0, &mut out);
        assert_eq!(out.len(), 2, "a valid number records nothing");
    }
}
