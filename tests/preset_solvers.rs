//! Per-arm solver settings in presets (version 2): the solver choice, per-arm elbow limits and
//! CCD parameters round-trip exactly and re-pose identically; version-1 files (one shared
//! elbow limit) migrate to both arms; bad CCD values are reported at their JSON paths.

mod support;

use anglerpose::fishing::{ArmSolverKind, CcdLinkLimits, SIDES};
use anglerpose::preset::{self, Preset, io, parse_preset};
use anglerpose::stage::{Stage, bundled_assets_dir};
use glam::DVec3;
use support::fs::{fixture, scratch};

/// A stage with every per-arm setting away from its default.
fn edited_stage() -> Stage {
    let mut stage = Stage::bundled().unwrap();
    let s = &mut stage.inputs.settings;
    s.arms.left.solver = ArmSolverKind::Ccd;
    let ccd = &mut s.arms.left.ccd;
    ccd.iterations = 40;
    ccd.min_angle = Some(1e-4);
    ccd.max_angle = Some(0.6);
    ccd.blend_factor = Some(0.9);
    ccd.forearm = CcdLinkLimits {
        enabled: true,
        limitation: Some(DVec3::new(0.99, 0.1, 0.0).normalize()),
        rotation_min: Some(DVec3::new(0.05, -0.01, -0.02)),
        rotation_max: Some(DVec3::new(2.5, 0.01, 0.02)),
    };
    ccd.upper_arm.enabled = true;
    ccd.upper_arm.rotation_max = None;
    s.arms.right.elbow_limit.min_bend = 0.2;
    s.arms.right.elbow_limit.enabled = false;
    s.arms.right.ccd.iterations = 7;
    stage.update().unwrap();
    stage
}

#[test]
fn per_arm_solver_settings_round_trip_and_pose_identically() {
    let dir = scratch("solver-roundtrip");
    let path = dir.join("ccd.json");
    let stage = edited_stage();
    let character = io::character_ref(&path, &bundled_assets_dir().join("angler.glb")).unwrap();
    let preset = Preset::from_stage(&stage, character);
    assert_eq!(preset.version, preset::VERSION);
    let text = preset.to_json();
    assert!(text.contains("\"solver\": \"ccd\""), "{text}");
    assert!(text.contains("\"solver\": \"two_bone\""));
    assert!(!text.contains("\"elbow_limit\": {\n      \"min_bend\""));
    // Text → preset is exact (f64 round trip), and so is the file.
    assert_eq!(parse_preset(&text).unwrap(), preset);
    io::save_preset_atomic(&path, &preset).unwrap();
    let loaded = io::load_preset(&path).unwrap();
    assert_eq!(loaded.inputs.settings, stage.inputs.settings);
    assert_eq!(loaded, preset);
    let (again, warnings) = io::load_stage(&path, &loaded).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(again.pose.locals(), stage.pose.locals());
    let eval = again.evaluation().unwrap();
    assert_eq!(eval.arms.left.solver_kind(), ArmSolverKind::Ccd);
    assert_eq!(eval.arms.right.solver_kind(), ArmSolverKind::TwoBone);
    // The saved choice matters: the same file with the left arm on two-bone poses differently.
    let mut two_bone = loaded.clone();
    two_bone.inputs.settings.arms.left.solver = ArmSolverKind::TwoBone;
    let mut other = again.clone();
    two_bone.apply_to(&mut other).unwrap();
    assert_ne!(other.pose.locals(), stage.pose.locals());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_version_1_preset_migrates_its_shared_elbow_limit_to_both_arms() {
    let path = fixture("presets/v1_landing.json");
    let before = std::fs::read(&path).unwrap();
    let text = String::from_utf8(before.clone()).unwrap();
    assert!(text.contains("\"version\": 1") && text.contains("\"min_bend\": 0.1"));
    let preset = io::load_preset(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(preset.version, preset::VERSION);
    let defaults = anglerpose::fishing::ArmSettings::default();
    for side in SIDES {
        let arm = preset.inputs.settings.arm(side);
        assert_eq!(arm.solver, ArmSolverKind::TwoBone);
        assert_eq!(arm.elbow_limit.min_bend, 0.1);
        assert_eq!(arm.elbow_limit.max_bend, defaults.elbow_limit.max_bend);
        assert!(arm.elbow_limit.enabled);
        assert_eq!(arm.ccd, defaults.ccd);
    }
    assert!(io::validate_file(&path).is_empty());
    // It poses like the bundled landing example with that elbow limit on both arms.
    let (stage, warnings) = io::load_stage(&path, &preset).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let example = io::load_preset(bundled_assets_dir().join("presets/landing.json")).unwrap();
    let mut direct = Stage::bundled().unwrap();
    let mut expected = example;
    for side in SIDES {
        expected.inputs.settings.arm_mut(side).elbow_limit.min_bend = 0.1;
    }
    expected.apply_to(&mut direct).unwrap();
    assert_eq!(stage.pose.locals(), direct.pose.locals());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "loading never rewrites"
    );
}

fn problems_of(text: &str) -> Vec<anglerpose::preset::Problem> {
    parse_preset(text).expect_err("invalid preset")
}

fn has(problems: &[anglerpose::preset::Problem], path: &str) -> bool {
    problems.iter().any(|p| p.is_error() && p.path == path)
}

#[test]
fn bad_per_arm_values_are_reported_at_their_paths() {
    let stage = Stage::bundled().unwrap();
    let character = anglerpose::preset::CharacterRef {
        path: "../angler.glb".into(),
        sha256: None,
    };
    let mut preset = Preset::from_stage(&stage, character);
    let left = &mut preset.inputs.settings.arms.left;
    left.ccd.iterations = 0;
    left.ccd.forearm.rotation_min = Some(DVec3::new(1.0, 0.0, 0.0));
    left.ccd.forearm.rotation_max = Some(DVec3::new(0.5, 0.0, 0.0));
    let right = &mut preset.inputs.settings.arms.right;
    right.ccd.blend_factor = Some(2.0);
    right.ccd.upper_arm.limitation = Some(DVec3::ZERO);
    right.elbow_limit.max_bend = 4.0;
    let problems = problems_of(&preset.to_json());
    for path in [
        "settings.arms.left.ccd.iterations",
        "settings.arms.left.ccd.forearm.rotation_min[0]",
        "settings.arms.right.ccd.blend_factor",
        "settings.arms.right.ccd.upper_arm.limitation",
        "settings.arms.right.elbow_limit.max_bend",
    ] {
        assert!(has(&problems, path), "{path}: {problems:?}");
    }
    assert_eq!(problems.len(), 5, "{problems:?}");
    // Wrong types and unknown keys inside an arm name their path too.
    let good = Preset::from_stage(
        &stage,
        anglerpose::preset::CharacterRef {
            path: "../angler.glb".into(),
            sha256: None,
        },
    )
    .to_json();
    let typo = good.replacen("\"solver\": \"two_bone\"", "\"solver\": \"fabrik\"", 1);
    assert!(has(&problems_of(&typo), "settings.arms.left.solver"));
    let unknown = good.replacen(
        "\"iterations\": 64",
        "\"iterations\": 64, \"tolerance\": 1",
        1,
    );
    assert!(
        problems_of(&unknown).iter().any(
            |p| p.path.starts_with("settings.arms.left.ccd") && p.message.contains("tolerance")
        ),
        "{:?}",
        problems_of(&unknown)
    );
}

#[test]
fn version_1_layout_problems_keep_their_version_1_paths() {
    let text = std::fs::read_to_string(fixture("presets/v1_landing.json")).unwrap();
    // A v1 file cannot carry v2 per-arm settings.
    let mixed = text.replacen("\"limits_enabled\"", "\"arms\": {}, \"limits_enabled\"", 1);
    assert!(has(&problems_of(&mixed), "settings.arms"));
    // A v1 elbow limit error is reported once, where the v1 file has it.
    let bad = text.replacen("\"min_bend\": 0.1", "\"min_bend\": \"wide\"", 1);
    let problems = problems_of(&bad);
    assert!(
        has(&problems, "settings.elbow_limit.min_bend"),
        "{problems:?}"
    );
    assert!(
        problems.iter().all(|p| !p.path.contains("arms")),
        "{problems:?}"
    );
}
