//! Version 0 → version 1 (see the module docs of [`super`] for both layouts).

use super::{Problem, VERSION};
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
    root.insert("version".into(), json!(VERSION));
    if problems.is_empty() {
        Ok(root)
    } else {
        Err(problems)
    }
}
