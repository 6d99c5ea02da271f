//! Golden close-ups of the hands on the rod (issue 33): the contact grips of the bundled angler
//! and, where ../shared/models is present, of mannequiny (fingers) and CesiumMan (mittens),
//! calibrated, at the seated hold, as `anglerpose render --close-up` draws them
//! (`Stage::close_up`), the rear hand pinching the reel's knob in the retrieve, and the
//! angler's front hand behind the baitcaster's reel and trigger (looked at when created;
//! refresh with `ANGLERPOSE_UPDATE_GOLDEN=1`).

mod support;

use anglerpose::fishing::{Phase, SessionState, calibrate};
use anglerpose::gltf_io;
use anglerpose::render::capture::render_to_image;
use anglerpose::render::gpu::{Gpu, test_gpu};
use anglerpose::rig::Side;
use anglerpose::stage::{OverlayOptions, Props, Stage, ViewOptions, bundled_assets_dir};
use image::RgbaImage;
use support::gltf_edit::shared_models;
use support::golden::check_golden;
use support::grip_stage::props_on;

#[test]
fn hands_on_the_rod_match_their_goldens() {
    let Some(gpu) = test_gpu() else { return };
    // mannequiny's rear hand is seen from beside its chest (`Stage::close_up` turns the view
    // about the handle); CesiumMan's small mitten hides in its sleeve there: its front hand
    // is shown.
    let both = [(Side::Left, "left"), (Side::Right, "right")];
    let mut files = vec![("angler", bundled_assets_dir().join("angler.glb"), &both[..])];
    if let Some(dir) = shared_models("hands_on_the_rod_match_their_goldens: shared characters") {
        files.push(("mannequiny", dir.join("mannequiny-0.3.0.glb"), &both[..]));
        files.push(("cesiumman", dir.join("CesiumMan.glb"), &both[1..]));
    }
    for (name, file, sides) in files {
        let props = Props::load(&bundled_assets_dir()).unwrap();
        let mut stage = Stage::new(gltf_io::load(&file).unwrap(), props).unwrap();
        assert!(
            stage.inputs.settings.finger_contact,
            "contact grips are the default"
        );
        calibrated_at_the_seated_hold(&mut stage);
        for &(side, side_name) in sides {
            let img = close_up(&gpu, &stage, side);
            check_golden(&format!("hands-{name}-{side_name}.png"), &img);
        }
        // The rear hand pinching the reel's knob in the retrieve, as `render --close-up left
        // --phase retrieve` draws it (the angler and mannequiny: hands with fingers).
        if name != "cesiumman" {
            stage.inputs.state =
                SessionState::new(Phase::Retrieve, 0.45, stage.inputs.state.params);
            stage.update().unwrap();
            let img = close_up(&gpu, &stage, Side::Left);
            check_golden(&format!("hands-{name}-knob.png"), &img);
        }
    }
}

/// The angler's front hand on the baitcaster, calibrated for it: behind the reel's body and
/// the trigger, its fingers round the handle (`GripStyle::behind_post`).
#[test]
fn the_front_hand_behind_a_baitcasters_reel_matches_its_golden() {
    let Some(gpu) = test_gpu() else { return };
    let props = props_on(Some("rod_baitcaster.glb"));
    let angler = gltf_io::load(bundled_assets_dir().join("angler.glb")).unwrap();
    let mut stage = Stage::new(angler, props).unwrap();
    calibrated_at_the_seated_hold(&mut stage);
    let img = close_up(&gpu, &stage, Side::Right);
    check_golden("hands-angler-baitcaster-right.png", &img);
}

/// Calibrates `stage`'s character as the goldens were made (300 samples, 2 threads) and poses
/// the middle of the seated hold.
fn calibrated_at_the_seated_hold(stage: &mut Stage) {
    let (calib, _) = calibrate(
        &stage.actor,
        &stage.inputs.settings,
        &stage.inputs.state.params,
        300,
        2,
    )
    .unwrap();
    stage.inputs.calibration = calib;
    stage.inputs.state = SessionState::new(Phase::SeatedHold, 0.5, stage.inputs.state.params);
    stage.update().unwrap();
}

/// The close-up of `side`'s hand on its grip, model and props only, at the goldens' size.
fn close_up(gpu: &Gpu, stage: &Stage, side: Side) -> RgbaImage {
    let size = [320, 240];
    let view = ViewOptions {
        overlays: OverlayOptions::NONE,
        ..ViewOptions::default()
    };
    let camera = stage.close_up(side, size).unwrap();
    let frame = stage.frame(camera, &view);
    render_to_image(gpu, size, &frame, &stage.mesh_data()).unwrap()
}
