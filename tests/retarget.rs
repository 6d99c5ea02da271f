//! Presets travel between characters: calibrate one, retarget it to the others through the
//! humanoid map; each retargeted preset passes the checks of a calibrated one and keeps every
//! grip's place on the rod. Characters from ../shared/models (skipped when absent).

mod support;

use anglerpose::fishing::{GripKind, calibrate, refine, retarget};
use anglerpose::gltf_io;
use anglerpose::stage::{Props, Stage, bundled_assets_dir};
use std::path::PathBuf;
use std::process::Command;
use support::checks::assert_preset_ok;
use support::gltf_edit::shared_models;

fn stage(path: &std::path::Path) -> Stage {
    let props = Props::load(&bundled_assets_dir()).unwrap();
    Stage::new(gltf_io::load(path).unwrap(), props).unwrap()
}

/// Nominal grip places on the bundled rod (metres from the butt).
fn place(calib: &anglerpose::fishing::GripCalibration, kind: GripKind) -> f64 {
    let nominal = match kind {
        GripKind::RodRear => anglerpose::fishing::ROD_REAR_GRIP,
        _ => anglerpose::fishing::ROD_FRONT_GRIP,
    };
    nominal + calib.grip(kind).offset_in_object.y
}

#[test]
fn a_calibrated_preset_retargets_to_every_other_character() {
    let Some(dir) = shared_models("a_calibrated_preset_retargets_to_every_other_character") else {
        return;
    };
    let files: Vec<PathBuf> = vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/angler.glb"),
        dir.join("mannequiny-0.3.0.glb"),
        dir.join("CesiumMan.glb"),
        dir.join("RiggedFigure.glb"),
        dir.join("KayKit_Mannequin/manny_med_mod.gltf"),
    ];
    for source_file in &files[..2] {
        let source = stage(source_file);
        let (calib, _) = calibrate(
            &source.actor,
            &source.inputs.settings,
            &source.inputs.state.params,
            600,
            2,
        )
        .unwrap();
        for target_file in files.iter().filter(|f| *f != source_file) {
            let name = format!(
                "{} → {}",
                source_file.file_name().unwrap().to_string_lossy(),
                target_file.file_name().unwrap().to_string_lossy()
            );
            let mut target = stage(target_file);
            let (mapped, settings, report) = retarget(
                &source.actor,
                &calib,
                &source.inputs.settings,
                &target.actor,
            );
            assert!(
                report.arm_scale.left > 0.5 && report.arm_scale.left < 2.0,
                "{name}"
            );
            let (refined, _) = refine(
                &target.actor,
                &settings,
                &target.inputs.state.params,
                mapped.clone(),
                false,
                600,
                2,
            )
            .unwrap();
            for kind in [GripKind::RodRear, GripKind::RodFront] {
                let (a, b) = (place(&calib, kind), place(&refined, kind));
                assert!(
                    (a - b).abs() <= 0.1 * a,
                    "{name}: {kind:?} at {b} m, was {a} m"
                );
            }
            assert_eq!(refined.hands, mapped.hands, "{name}: palms and curls kept");
            target.inputs.calibration = refined;
            target.inputs.settings = settings;
            assert_preset_ok(&name, &mut target);
        }
    }
}

#[test]
fn retarget_cli_writes_a_valid_preset_and_reports_what_it_could_not_map() {
    let Some(models) = shared_models("retarget_cli_writes_a_valid_preset") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("anglerpose-retarget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_anglerpose");
    let source = dir.join("angler.json");
    let out = Command::new(bin)
        .args([
            "calibrate",
            concat!(env!("CARGO_MANIFEST_DIR"), "/assets/angler.glb"),
            "--out",
        ])
        .arg(&source)
        .output()
        .unwrap();
    assert!(out.status.success());
    // An override naming an angler bone that CesiumMan does not have.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&source).unwrap()).unwrap();
    json["humanoid_overrides"] = serde_json::json!({"left.hand": "hand.L"});
    json["poses"] = serde_json::json!({"cast": {"state": json["state"].clone()}});
    std::fs::write(&source, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let target = dir.join("cesium.json");
    let out = Command::new(bin)
        .arg("retarget")
        .arg(&source)
        .arg("--to")
        .arg(models.join("CesiumMan.glb"))
        .arg("--out")
        .arg(&target)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("left.hand") && stdout.contains("hand.L"),
        "{stdout}"
    );
    assert!(stdout.contains("no finger bones"), "{stdout}");
    assert!(stdout.contains("0 flip(s)"), "{stdout}");
    let v = Command::new(bin)
        .arg("validate")
        .arg(&target)
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert!(
        j["character"]["path"]
            .as_str()
            .unwrap()
            .ends_with("CesiumMan.glb")
    );
    assert_eq!(j["humanoid_overrides"], serde_json::json!({}));
    assert!(j["poses"]["cast"].is_object(), "named poses travel");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Per-finger tunings of the contact grips travel by role: the angler's front index finger
/// opened off the handle and its stem moved between index and middle finger, retargeted to
/// mannequiny, open mannequiny's index finger off its handle the same way.
#[test]
fn finger_tunings_travel_and_act_on_the_target() {
    let Some(dir) = shared_models("finger_tunings_travel_and_act_on_the_target") else {
        return;
    };
    use anglerpose::fishing::FingerTuning;
    use anglerpose::ik::grip_contact::ContactState;
    use anglerpose::rig::Side;
    let source = stage(&bundled_assets_dir().join("angler.glb"));
    let mut calib = source.inputs.calibration.clone();
    let hand = calib.hands.get_mut(Side::Right);
    hand.fingers.index = FingerTuning {
        curl_offset: -0.3,
        spread: 0.05,
    };
    hand.stem_index_middle = true;
    hand.thumb_wraps = true;
    let mut target = stage(&dir.join("mannequiny-0.3.0.glb"));
    target.update().unwrap();
    let index_gap = |stage: &Stage| {
        let c = stage.evaluation().unwrap().arms.get(Side::Right).contact;
        c.fingers[1].expect("the index finger is on the handle")
    };
    let untuned = index_gap(&target);
    assert_eq!(
        untuned.state,
        ContactState::Touching,
        "untuned: {untuned:?}"
    );
    let (mapped, settings, _) = retarget(
        &source.actor,
        &calib,
        &source.inputs.settings,
        &target.actor,
    );
    let got = mapped.hands.get(Side::Right);
    assert_eq!(got.fingers, calib.hands.get(Side::Right).fingers);
    assert!(got.stem_index_middle && got.thumb_wraps);
    target.inputs.calibration = mapped;
    target.inputs.settings = settings;
    target.update().unwrap();
    let tuned = index_gap(&target);
    assert_eq!(tuned.state, ContactState::Gap, "tuned: {tuned:?}");
    // Shared over its joints by their curl limits, the knuckle opens least: the base of the
    // finger stays nearest the handle.
    assert!(
        tuned.gap > 0.001,
        "opened 0.3 rad off the handle: {tuned:?}"
    );
}
