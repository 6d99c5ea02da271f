//! Semantic checks of a parsed preset: finite numbers, unit quaternions, ranges, min ≤ max.
//! Every problem is collected with its JSON path. Pure; file references are checked in
//! [`super::io`].

use super::{Preset, Problem};
use crate::fishing::{
    CcdArmSettings, CcdLinkRole, GripCalibration, SIDES, SessionState, SolverSettings,
};
use glam::DVec3;
use std::f64::consts::PI;

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

fn number(v: f64, path: &str, lo: f64, hi: f64, out: &mut Vec<Problem>) {
    if !v.is_finite() {
        out.push(Problem::error(path, format!("{v} is not a finite number")));
    } else if !(lo..=hi).contains(&v) {
        out.push(Problem::error(path, format!("{v} is outside {lo}..={hi}")));
    }
}

fn vec3(v: DVec3, path: &str, out: &mut Vec<Problem>) {
    for (i, c) in v.to_array().into_iter().enumerate() {
        if !c.is_finite() {
            out.push(Problem::error(
                format!("{path}[{i}]"),
                format!("{c} is not a finite number"),
            ));
        }
    }
}

fn calibration(c: &GripCalibration, prefix: &str, out: &mut Vec<Problem>) {
    out.extend(
        c.problems(prefix)
            .into_iter()
            .map(|p| Problem::error(p.path, p.message)),
    );
}

fn settings(s: &SolverSettings, prefix: &str, out: &mut Vec<Problem>) {
    for side in SIDES {
        let arm = s.arm(side);
        let p = format!("{prefix}.arms.{}", side.name());
        let lim = &arm.elbow_limit;
        let min_path = format!("{p}.elbow_limit.min_bend");
        let max_path = format!("{p}.elbow_limit.max_bend");
        number(lim.min_bend, &min_path, 0.0, PI, out);
        number(lim.max_bend, &max_path, 0.0, PI, out);
        if lim.min_bend.is_finite() && lim.max_bend.is_finite() && lim.min_bend > lim.max_bend {
            out.push(Problem::error(
                min_path,
                format!(
                    "min_bend {} is greater than max_bend {}",
                    lim.min_bend, lim.max_bend
                ),
            ));
        }
        ccd(&arm.ccd, &format!("{p}.ccd"), out);
    }
    number(s.soften, &format!("{prefix}.soften"), 0.0, 1.0, out);
    number(s.weight, &format!("{prefix}.weight"), 0.0, 1.0, out);
}

fn ccd(c: &CcdArmSettings, prefix: &str, out: &mut Vec<Problem>) {
    let max = CcdArmSettings::MAX_ITERATIONS;
    if !(1..=max).contains(&c.iterations) {
        out.push(Problem::error(
            format!("{prefix}.iterations"),
            format!("{} is outside 1..={max}", c.iterations),
        ));
    }
    for (what, v, hi) in [
        ("min_angle", c.min_angle, PI),
        ("max_angle", c.max_angle, PI),
        ("blend_factor", c.blend_factor, 1.0),
    ] {
        if let Some(v) = v {
            number(v, &format!("{prefix}.{what}"), 0.0, hi, out);
        }
    }
    for role in CcdLinkRole::ALL {
        let l = c.link(role);
        let p = format!("{prefix}.{}", role.name());
        if let Some(a) = l.limitation {
            let before = out.len();
            vec3(a, &format!("{p}.limitation"), out);
            if out.len() == before && a.length_squared() < 1e-12 {
                out.push(Problem::error(
                    format!("{p}.limitation"),
                    "the hinge axis has zero length",
                ));
            }
        }
        for (what, v) in [
            ("rotation_min", l.rotation_min),
            ("rotation_max", l.rotation_max),
        ] {
            if let Some(v) = v {
                vec3(v, &format!("{p}.{what}"), out);
            }
        }
        if let (Some(lo), Some(hi)) = (l.rotation_min, l.rotation_max) {
            for i in 0..3 {
                if lo[i].is_finite() && hi[i].is_finite() && lo[i] > hi[i] {
                    out.push(Problem::error(
                        format!("{p}.rotation_min[{i}]"),
                        format!("{} is greater than rotation_max[{i}] {}", lo[i], hi[i]),
                    ));
                }
            }
        }
    }
}

fn state(s: &SessionState, prefix: &str, out: &mut Vec<Problem>) {
    number(s.t, &format!("{prefix}.t"), 0.0, 1.0, out);
    let p = format!("{prefix}.params");
    number(
        s.params.rod_length,
        &format!("{p}.rod_length"),
        1.0,
        5.0,
        out,
    );
    number(
        s.params.cast_power,
        &format!("{p}.cast_power"),
        0.2,
        2.0,
        out,
    );
}
