//! Text → [`Preset`]: JSON syntax (with the JSON path where it broke), format and version
//! (migrating older versions, refusing newer ones), then each section deserialised on its own
//! so that one wrong type does not hide problems elsewhere, then [`check_preset`].

use super::check::check_preset;
use super::migrate::{migrate_v0, migrate_v1, v1_paths};
use super::{FORMAT, NamedPose, Preset, Problem, VERSION};
use crate::fishing::PoseInputs;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

const ROOT: &str = crate::oracle::ROOT_PATH;
const KEYS: [&str; 11] = [
    "format",
    "version",
    "character",
    "rod",
    "net",
    "seat",
    "humanoid_overrides",
    "calibration",
    "settings",
    "state",
    "poses",
];

/// Parses and checks a preset. Returns every error found (warnings are left to the caller,
/// which knows the files); never panics on any input.
///
/// # Errors
/// Every error found (at least one): invalid JSON, a wrong `format`, a missing, malformed or
/// newer `version`, a failed migration, a section that does not deserialise, or an error of
/// [`check_preset`]. Paths of migrated files name the file's own layout.
pub fn parse_preset(text: &str) -> Result<Preset, Vec<Problem>> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Err(vec![syntax_problem(text, &e)]),
    };
    let Value::Object(mut root) = value else {
        return Err(vec![Problem::error(ROOT, "a preset must be a JSON object")]);
    };
    let mut problems = Vec::new();
    match root.get("format") {
        Some(Value::String(s)) if s == FORMAT => {}
        Some(other) => problems.push(Problem::error(
            "format",
            format!("expected \"{FORMAT}\", found {other}"),
        )),
        None => problems.push(Problem::error(
            "format",
            format!("missing (expected \"{FORMAT}\")"),
        )),
    }
    let version = match root.get("version") {
        Some(v) => match v.as_u64() {
            Some(n) => n,
            None => {
                problems.push(Problem::error(
                    "version",
                    format!("expected a whole number, found {v}"),
                ));
                return Err(problems);
            }
        },
        None => {
            problems.push(Problem::error("version", "missing"));
            return Err(problems);
        }
    };
    if version > VERSION {
        problems.push(Problem::error(
            "version",
            format!(
                "version {version} is newer than this anglerpose understands (it reads versions \
                 0..={VERSION}); update anglerpose to open this preset"
            ),
        ));
        return Err(problems);
    }
    if version == 0 {
        match migrate_v0(root) {
            Ok(migrated) => root = migrated,
            Err(mut more) => {
                problems.append(&mut more);
                return Err(problems);
            }
        }
    }
    if version <= 1 {
        match migrate_v1(root) {
            Ok(migrated) => root = migrated,
            Err(mut more) => {
                problems.append(&mut more);
                return Err(problems);
            }
        }
    }
    let migrated = version < VERSION;
    parse_current(root, problems).map_err(|p| if migrated { v1_paths(p) } else { p })
}

/// The sections of a current-version document (after migration), then [`check_preset`].
fn parse_current(
    mut root: Map<String, Value>,
    mut problems: Vec<Problem>,
) -> Result<Preset, Vec<Problem>> {
    for key in root.keys() {
        if !KEYS.contains(&key.as_str()) {
            problems.push(Problem::error(
                key.clone(),
                format!("unknown field (expected one of {})", KEYS.join(", ")),
            ));
        }
    }
    let character = section(&mut root, "character", None, &mut problems);
    let rod = section(&mut root, "rod", Some(Default::default), &mut problems);
    let net = section(&mut root, "net", Some(Default::default), &mut problems);
    let seat = section(&mut root, "seat", Some(Default::default), &mut problems);
    let overrides = section(
        &mut root,
        "humanoid_overrides",
        Some(Default::default),
        &mut problems,
    );
    let calibration = section(&mut root, "calibration", None, &mut problems);
    let settings = section(&mut root, "settings", None, &mut problems);
    let state = section(&mut root, "state", None, &mut problems);
    let poses = poses(&mut root, &mut problems);
    let (
        Some(character),
        Some(rod),
        Some(net),
        Some(seat),
        Some(humanoid_overrides),
        Some(calibration),
        Some(settings),
        Some(state),
        Some(poses),
    ) = (
        character,
        rod,
        net,
        seat,
        overrides,
        calibration,
        settings,
        state,
        poses,
    )
    else {
        if problems.is_empty() {
            problems.push(Problem::error(ROOT, "incomplete preset"));
        }
        return Err(problems);
    };
    let preset = Preset {
        format: FORMAT.to_string(),
        version: VERSION,
        character,
        rod,
        net,
        seat,
        humanoid_overrides,
        inputs: PoseInputs::new(calibration, settings, state),
        poses,
    };
    // Every section parsed (unknown keys aside): the semantic problems are reported too.
    problems.extend(check_preset(&preset).into_iter().filter(Problem::is_error));
    if problems.is_empty() {
        Ok(preset)
    } else {
        Err(problems)
    }
}

/// Joins a section name and a `serde_path_to_error` path (`.` for the section itself).
pub(crate) fn join_path(prefix: &str, inner: &str) -> String {
    if inner == "." || inner.is_empty() {
        prefix.to_string()
    } else if inner.starts_with('[') {
        format!("{prefix}{inner}")
    } else {
        format!("{prefix}.{inner}")
    }
}

fn deserialize_at<T: DeserializeOwned>(
    value: Value,
    prefix: &str,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(v) => Some(v),
        Err(e) => {
            let path = join_path(prefix, &e.path().to_string());
            problems.push(Problem::error(path, e.into_inner().to_string()));
            None
        }
    }
}

fn section<T: DeserializeOwned>(
    root: &mut Map<String, Value>,
    key: &str,
    default: Option<fn() -> T>,
    problems: &mut Vec<Problem>,
) -> Option<T> {
    match (root.remove(key), default) {
        (Some(v), _) => deserialize_at(v, key, problems),
        (None, Some(make)) => Some(make()),
        (None, None) => {
            problems.push(Problem::error(key, "missing"));
            None
        }
    }
}

fn poses(
    root: &mut Map<String, Value>,
    problems: &mut Vec<Problem>,
) -> Option<BTreeMap<String, NamedPose>> {
    let mut out = BTreeMap::new();
    match root.remove("poses") {
        None => Some(out),
        Some(Value::Object(map)) => {
            let mut ok = true;
            for (name, v) in map {
                let prefix = format!("poses.{name}");
                match deserialize_at::<NamedPose>(v, &prefix, problems) {
                    Some(p) => {
                        out.insert(name, p);
                    }
                    None => ok = false,
                }
            }
            ok.then_some(out)
        }
        Some(other) => {
            problems.push(Problem::error(
                "poses",
                format!("expected an object of named poses, found {other}"),
            ));
            None
        }
    }
}

/// A JSON syntax error with the path of the value being read where it broke.
fn syntax_problem(text: &str, e: &serde_json::Error) -> Problem {
    let path = crate::oracle::syntax_path(text, e);
    let msg = e.to_string();
    let message = match e.classify() {
        serde_json::error::Category::Eof => {
            format!("the file ends early (truncated?): {msg}")
        }
        _ if msg.contains("number out of range") => {
            format!("number is not finite (too large for a 64-bit float): {msg}")
        }
        _ => format!("not valid JSON: {msg}"),
    };
    Problem::error(path, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_at_tracks_objects_arrays_and_truncation() {
        use crate::oracle::path_at;
        let text = r#"{"a": {"b": [1, 2, {"c": "x,y"}], "d": 3"#;
        assert_eq!(path_at(text, text.len()), "a.d");
        let at_two = text.find("2,").unwrap();
        assert_eq!(path_at(text, at_two), "a.b[1]");
        let at_x = text.find("x,y").unwrap() + 2;
        assert_eq!(path_at(text, at_x), "a.b[2].c");
        assert_eq!(path_at("", 0), "");
    }

    /// A syntax error names the value being read where it broke, the same way for presets
    /// and scenes: the byte serde_json stopped at is not read into the path (a closing
    /// bracket there does not leave the array it closes), and the document itself is
    /// `(root)`.
    #[test]
    fn syntax_errors_name_the_value_being_read_where_they_broke() {
        let path = |text: &str| {
            let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            crate::oracle::syntax_path(text, &e)
        };
        assert_eq!(path(r#"{"a": [1, 2}"#), "a[1]");
        assert_eq!(path(r#"{"a": {"b": tru}}"#), "a.b");
        assert_eq!(path("{\n  \"a\": 1,\n  \"b\": [x]\n}"), "b[0]");
        assert_eq!(path("]"), ROOT);
        assert_eq!(path(""), ROOT);
    }

    #[test]
    fn join_path_handles_sections_and_indices() {
        assert_eq!(join_path("state", "."), "state");
        assert_eq!(join_path("state", "t"), "state.t");
        assert_eq!(join_path("poses", "[0]"), "poses[0]");
    }
}
