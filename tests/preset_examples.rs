//! The example presets in `assets/presets/`: regenerating them gives the committed bytes,
//! every one survives save → load unchanged, and the loaded preset poses the angler exactly
//! like the stage it was saved from.
//!
//! Regenerate with `ANGLERPOSE_REGENERATE_PRESETS=1 cargo test --test preset_examples`.

mod support;

use anglerpose::preset::{self, Preset, io};
use anglerpose::stage::{Stage, bundled_assets_dir};
use std::path::PathBuf;
use support::fs::scratch;

fn presets_dir() -> PathBuf {
    bundled_assets_dir().join("presets")
}

/// The examples as code builds them today.
fn generated() -> Vec<(&'static str, Preset)> {
    let dir = presets_dir();
    std::fs::create_dir_all(&dir).expect("create assets/presets");
    let stage = Stage::bundled().expect("bundled stage");
    let character = io::character_ref(
        &dir.join("x.json"),
        &bundled_assets_dir().join("angler.glb"),
    )
    .expect("character ref");
    assert_eq!(character.path, "../angler.glb");
    let base = Preset::from_stage(&stage, character);
    preset::example_presets(&base)
}

#[test]
fn regenerating_gives_the_committed_presets() {
    let regenerate = std::env::var_os("ANGLERPOSE_REGENERATE_PRESETS").is_some();
    for (name, preset) in generated() {
        let path = presets_dir().join(name);
        let fresh = preset.to_json();
        if regenerate {
            io::save_preset_atomic(&path, &preset).expect("save example");
            continue;
        }
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            old == fresh,
            "{} differs from a fresh generation; regenerate with \
             ANGLERPOSE_REGENERATE_PRESETS=1 cargo test --test preset_examples",
            path.display()
        );
    }
}

#[test]
fn every_example_loads_validates_and_round_trips() {
    let out = scratch("roundtrip");
    for (name, expected) in generated() {
        let path = presets_dir().join(name);
        let loaded = io::load_preset(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded, expected, "{name}");
        let problems = io::validate_file(&path);
        assert!(problems.is_empty(), "{name}: {problems:?}");
        // Save → load: identical state and identical bytes.
        let copy = out.join(name);
        io::save_preset_atomic(&copy, &loaded).unwrap();
        let again = io::load_preset(&copy).unwrap();
        assert_eq!(again, loaded, "{name}");
        assert_eq!(
            std::fs::read(&copy).unwrap(),
            std::fs::read(&path).unwrap(),
            "{name}: re-saved bytes differ"
        );
        assert!(expected.poses.len() >= 2, "{name}: named poses");
    }
}

#[test]
fn a_loaded_preset_solves_to_the_pose_of_the_saved_stage() {
    let out = scratch("solve");
    for (name, preset) in generated() {
        // The stage the preset describes, built in memory.
        let mut stage = Stage::bundled().unwrap();
        preset.apply_to(&mut stage).unwrap();
        let file = out.join(name);
        let character = io::character_ref(&file, &bundled_assets_dir().join("angler.glb")).unwrap();
        let saved = Preset {
            poses: preset.poses.clone(),
            ..Preset::from_stage(&stage, character)
        };
        io::save_preset_atomic(&file, &saved).unwrap();
        let loaded = io::load_preset(&file).unwrap();
        let (mut from_file, warnings) = io::load_stage(&file, &loaded).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(from_file.inputs.state, stage.inputs.state);
        assert_eq!(from_file.pose.locals(), stage.pose.locals(), "{name}");
        // The poses differ between phases, so the comparison above has teeth.
        let mut other = from_file.clone();
        other.inputs.state.phase =
            if stage.inputs.state.phase == anglerpose::fishing::Phase::Landing {
                anglerpose::fishing::Phase::SeatedHold
            } else {
                anglerpose::fishing::Phase::Landing
            };
        other.update().unwrap();
        assert_ne!(other.pose.locals(), stage.pose.locals());
        // Named poses apply their state and calibration override.
        for (pose_name, named) in &loaded.poses {
            assert!(loaded.apply_named(pose_name, &mut from_file).unwrap());
            assert_eq!(from_file.inputs.state, named.state);
            let want = named
                .calibration
                .as_ref()
                .unwrap_or(&loaded.inputs.calibration);
            assert_eq!(&from_file.inputs.calibration, want);
            let mut direct = Stage::bundled().unwrap();
            direct.inputs.calibration = want.clone();
            direct.inputs.settings = loaded.inputs.settings;
            direct.inputs.state = named.state;
            direct.update().unwrap();
            assert_eq!(
                from_file.pose.locals(),
                direct.pose.locals(),
                "{name}/{pose_name}"
            );
        }
        assert!(!loaded.apply_named("no such pose", &mut from_file).unwrap());
    }
}

#[test]
fn the_bundled_default_is_the_seated_hold_example() {
    let (preset, stage, warnings) = io::load_default_stage().unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(stage.inputs.state, preset.inputs.state);
    assert_eq!(
        io::bundled_preset_path(),
        presets_dir().join("seated_hold.json")
    );
}
