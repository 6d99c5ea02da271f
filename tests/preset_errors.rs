//! Corrupted presets give clear errors naming the JSON path, `validate` reports every problem,
//! a failed load leaves the file byte-identical, and version 0 files are migrated.

mod support;

use anglerpose::preset::{PresetError, Problem, io, sha256_hex};
use std::path::Path;
use std::process::Command;
use support::fs::fixture;

fn digest(path: &Path) -> String {
    sha256_hex(&std::fs::read(path).unwrap())
}

/// Loads (expecting failure) and validates; checks the file is untouched. Returns the
/// problems `validate_file` reported and the load error's text.
fn broken(name: &str) -> (Vec<Problem>, String) {
    let path = fixture(&format!("presets/{name}"));
    let before = digest(&path);
    let load = io::load_preset(&path).and_then(|p| io::load_stage(&path, &p).map(|_| ()));
    let err = load.expect_err(name).to_string();
    assert!(
        err.contains(name),
        "{name}: error does not name the file: {err}"
    );
    let problems = io::validate_file(&path);
    assert!(
        problems.iter().any(Problem::is_error),
        "{name}: {problems:?}"
    );
    assert_eq!(digest(&path), before, "{name} was modified");
    (problems, err)
}

fn has(problems: &[Problem], path: &str, words: &str) -> bool {
    problems
        .iter()
        .any(|p| p.is_error() && p.path == path && p.message.contains(words))
}

#[test]
fn truncated_file_names_where_it_ends() {
    let (problems, err) = broken("truncated.json");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("ends early"), "{problems:?}");
    assert!(problems[0].path.starts_with("calibration"), "{problems:?}");
    assert!(err.contains("line"), "{err}");
}

#[test]
fn wrong_types_are_all_reported_with_their_paths() {
    let (problems, err) = broken("wrong_types.json");
    assert!(
        has(&problems, "state.params.rod_length", "invalid type"),
        "{problems:?}"
    );
    assert!(
        has(&problems, "settings.soften", "invalid type"),
        "{problems:?}"
    );
    assert!(
        has(
            &problems,
            "calibration.hands.left.finger_curl",
            "invalid type"
        ),
        "{problems:?}"
    );
    assert!(err.contains("state.params.rod_length"), "{err}");
}

#[test]
fn null_where_nan_was_saved_names_the_path() {
    let (problems, _) = broken("nan.json");
    assert!(
        has(&problems, "calibration.hands.right.thumb_curl", "null"),
        "{problems:?}"
    );
}

#[test]
fn overflowing_numbers_are_not_finite() {
    let (problems, _) = broken("inf.json");
    assert!(
        has(
            &problems,
            "calibration.poles.left.pole_in_actor[0]",
            "not finite"
        ),
        "{problems:?}"
    );
}

#[test]
fn a_missing_character_file_is_named() {
    let (problems, err) = broken("missing_character.json");
    assert!(
        has(&problems, "character.path", "does not exist"),
        "{problems:?}"
    );
    assert!(err.contains("no_such_angler.glb"), "{err}");
}

#[test]
fn a_newer_version_is_refused() {
    let (problems, err) = broken("version_999.json");
    assert_eq!(problems.len(), 1);
    assert!(has(&problems, "version", "newer"), "{problems:?}");
    assert!(err.contains("update anglerpose"), "{err}");
}

#[test]
fn unknown_override_bones_are_named() {
    let (problems, err) = broken("unknown_bone.json");
    assert!(
        has(
            &problems,
            "humanoid_overrides[\"left.hand\"]",
            "no_such_bone"
        ),
        "{problems:?}"
    );
    assert!(
        has(
            &problems,
            "humanoid_overrides[\"right.forearm\"]",
            "also_missing"
        ),
        "{problems:?}"
    );
    assert!(
        err.contains("no_such_bone") || err.contains("also_missing"),
        "{err}"
    );
}

#[test]
fn min_above_max_and_out_of_range_values_are_all_reported() {
    let (problems, _) = broken("bad_ranges.json");
    assert!(
        has(
            &problems,
            "settings.elbow_limit.min_bend",
            "greater than max_bend"
        ),
        "{problems:?}"
    );
    assert!(has(&problems, "state.t", "outside"), "{problems:?}");
    assert!(
        has(
            &problems,
            "poses.hold_end.state.params.cast_power",
            "outside"
        ),
        "{problems:?}"
    );
    assert!(matches!(
        io::load_preset(fixture("presets/bad_ranges.json")),
        Err(PresetError::Invalid { ref problems, .. }) if problems.len() == 3
    ));
}

#[test]
fn version_0_is_migrated() {
    let path = fixture("presets/v0_seated.json");
    let before = digest(&path);
    let preset = io::load_preset(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(preset.version, anglerpose::preset::VERSION);
    assert_eq!(preset.character.sha256, None);
    assert!(preset.poses.is_empty());
    assert_eq!(
        preset
            .inputs
            .calibration
            .poles
            .left
            .pole_in_actor
            .to_array(),
        [0.3, 0.4, -0.1]
    );
    assert!(preset.inputs.calibration.poles.right.per_phase.is_empty());
    let (stage, warnings) = io::load_stage(&path, &preset).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(stage.inputs.state, preset.inputs.state);
    assert!(io::validate_file(&path).is_empty());
    assert_eq!(digest(&path), before);
}

#[test]
fn a_changed_character_is_a_warning_not_an_error() {
    let path = fixture("presets/stale_hash.json");
    let problems = io::validate_file(&path);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(!problems[0].is_error() && problems[0].path == "character.sha256");
    let preset = io::load_preset(&path).unwrap();
    let (_, warnings) = io::load_stage(&path, &preset).unwrap();
    assert_eq!(warnings, problems);
}

fn validate_cli(path: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("validate")
        .arg(path)
        .output()
        .expect("run anglerpose");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn validate_command_prints_every_problem_and_fails() {
    let (ok, text) = validate_cli(&fixture("presets/wrong_types.json"));
    assert!(!ok, "{text}");
    for path in [
        "state.params.rod_length",
        "settings.soften",
        "calibration.hands.left.finger_curl",
    ] {
        assert!(text.contains(&format!("error at {path}:")), "{text}");
    }
    let (ok, text) = validate_cli(&fixture("presets/version_999.json"));
    assert!(!ok && text.contains("error at version:"), "{text}");
    let bundled = anglerpose::stage::bundled_assets_dir().join("presets/cast.json");
    let (ok, text) = validate_cli(&bundled);
    assert!(ok, "{text}");
}

#[test]
fn valid_overrides_are_applied_when_building_the_stage() {
    let dir = std::env::temp_dir().join(format!("anglerpose-overrides-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("overrides.json");
    let source = anglerpose::stage::bundled_assets_dir().join("presets/seated_hold.json");
    let mut preset = io::load_preset(&source).unwrap();
    let angler = anglerpose::stage::bundled_assets_dir().join("angler.glb");
    preset.character = io::character_ref(&path, &angler).unwrap();
    for (role, bone) in [("left.hand", "hand.L"), ("right.upper_arm", "upperarm.R")] {
        preset.humanoid_overrides.set(role.parse().unwrap(), bone);
    }
    io::save_preset_atomic(&path, &preset).unwrap();
    assert!(io::validate_file(&path).is_empty());
    let loaded = io::load_preset(&path).unwrap();
    assert_eq!(loaded.humanoid_overrides, preset.humanoid_overrides);
    let (stage, _) = io::load_stage(&path, &loaded).unwrap();
    assert_eq!(stage.map.method, anglerpose::rig::MapMethod::Override);
    // The overrides name the bones detection finds, so the pose is the same as without them.
    let (plain, _) = io::load_stage(&source, &io::load_preset(&source).unwrap()).unwrap();
    assert_eq!(stage.pose.locals(), plain.pose.locals());
}
