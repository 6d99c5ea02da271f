//! Version 0 → 1 → 2 (see the module docs of [`super`] for the layouts).

use super::Problem;
use crate::fishing::CcdArmSettings;
use serde_json::{Map, Value, json};

/// Migrates a version-0 document: `character` string → `{path, sha256: null}`, the flat
/// `poles: {left: [x,y,z], right: [x,y,z]}` → `calibration.poles.{side}.pole_in_actor`.
/// Version 0 had no named poses; a `poses` field is an error.
pub(crate) fn migrate_v0(mut root: Map<String, Value>) -> Result<Map<String, Value>, Vec<Problem>> {
    let mut problems = Vec::new();
    match root.remove("character") {
        Some(Value::String(path)) => {
            root.insert("character".into(), json!({ "path": path, "sha256": null }));
        }
        Some(other) => problems.push(Problem::error(
            "character",
            format!("version 0 stores the character as a path string, found {other}"),
        )),
        None => problems.push(Problem::error("character", "missing")),
    }
    if root.contains_key("poses") {
        problems.push(Problem::error(
            "poses",
            "version 0 has no named poses (use version 1)",
        ));
    }
    let poles = root.remove("poles");
    match (poles, root.get_mut("calibration")) {
        (Some(Value::Object(mut poles)), Some(Value::Object(calibration))) => {
            if calibration.contains_key("poles") {
                problems.push(Problem::error(
                    "calibration.poles",
                    "version 0 keeps the poles in the top-level `poles` field",
                ));
            }
            let mut sides = Map::new();
            for side in ["left", "right"] {
                match poles.remove(side) {
                    Some(v) => {
                        sides.insert(side.into(), json!({ "pole_in_actor": v }));
                    }
                    None => problems.push(Problem::error(format!("poles.{side}"), "missing")),
                }
            }
            for extra in poles.keys() {
                problems.push(Problem::error(
                    format!("poles.{extra}"),
                    "unknown field (expected left, right)",
                ));
            }
            calibration.insert("poles".into(), Value::Object(sides));
        }
        (Some(other), Some(Value::Object(_))) => problems.push(Problem::error(
            "poles",
            format!("expected {{\"left\": [x, y, z], \"right\": [x, y, z]}}, found {other}"),
        )),
        (None, _) => problems.push(Problem::error("poles", "missing (version 0 layout)")),
        (_, Some(other)) => problems.push(Problem::error(
            "calibration",
            format!("expected an object, found {other}"),
        )),
        (_, None) => problems.push(Problem::error("calibration", "missing")),
    }
    root.insert("version".into(), json!(1));
    if problems.is_empty() {
        Ok(root)
    } else {
        Err(problems)
    }
}

/// Migrates a version-1 document: the shared `settings.elbow_limit` becomes each arm's
/// `settings.arms.{left,right}` = `{solver: "two_bone", elbow_limit, ccd: <defaults>}`. A
/// missing or malformed `settings` is left for the section reader to report.
pub(crate) fn migrate_v1(mut root: Map<String, Value>) -> Result<Map<String, Value>, Vec<Problem>> {
    let mut problems = Vec::new();
    if let Some(Value::Object(settings)) = root.get_mut("settings") {
        if settings.contains_key("arms") {
            problems.push(Problem::error(
                "settings.arms",
                "version 1 has no per-arm settings (use version 2)",
            ));
        }
        match settings.remove("elbow_limit") {
            Some(limit) => {
                let ccd = serde_json::to_value(CcdArmSettings::default()).unwrap_or(Value::Null);
                let arm = json!({ "solver": "two_bone", "elbow_limit": limit, "ccd": ccd });
                settings.insert("arms".into(), json!({ "left": arm, "right": arm }));
            }
            None => problems.push(Problem::error(
                "settings.elbow_limit",
                "missing (version 1 layout)",
            )),
        }
    }
    root.insert("version".into(), json!(2));
    if problems.is_empty() {
        Ok(root)
    } else {
        Err(problems)
    }
}

/// Problems found in a migrated version-0/1 document name the file's own layout: the elbow
/// limit both arms inherited is reported once, at `settings.elbow_limit…`.
pub(crate) fn v1_paths(problems: Vec<Problem>) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::with_capacity(problems.len());
    for mut p in problems {
        for side in ["left", "right"] {
            let prefix = format!("settings.arms.{side}.elbow_limit");
            if let Some(rest) = p.path.strip_prefix(&prefix) {
                p.path = format!("settings.elbow_limit{rest}");
            }
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}
