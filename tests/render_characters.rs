//! Golden renders of each shared character seated with the rod after calibration, front and
//! three-quarter, as `anglerpose render --preset` draws them (looked at when created; refresh
//! with `ANGLERPOSE_UPDATE_GOLDEN=1`). Skipped when ../shared/models is absent.

mod support;

use anglerpose::fishing::{Phase, SessionState, calibrate};
use anglerpose::gltf_io;
use anglerpose::render::capture::render_to_image;
use anglerpose::render::gpu::test_gpu;
use anglerpose::stage::{
    CameraPreset, Props, Stage, ViewOptions, bundled_assets_dir, camera_for_scaled,
};
use support::gltf_edit::shared_models;
use support::golden::check_golden;

#[test]
fn seated_shared_characters_match_their_goldens() {
    let Some(dir) = shared_models("seated_shared_characters_match_their_goldens") else {
        return;
    };
    let Some(gpu) = test_gpu() else { return };
    let size = [480, 360];
    for (file, name) in [
        ("mannequiny-0.3.0.glb", "mannequiny"),
        ("CesiumMan.glb", "cesiumman"),
        ("RiggedFigure.glb", "riggedfigure"),
        ("KayKit_Mannequin/manny_med_mod.gltf", "kaykit"),
    ] {
        let character = gltf_io::load(dir.join(file)).unwrap();
        let props = Props::load(&bundled_assets_dir()).unwrap();
        let mut stage = Stage::new(character, props).unwrap();
        let (calib, _) = calibrate(
            &stage.actor,
            &stage.inputs.settings,
            &stage.inputs.state.params,
            600,
            2,
        )
        .unwrap();
        stage.inputs.calibration = calib;
        stage.inputs.state = SessionState::new(Phase::SeatedHold, 0.0, stage.inputs.state.params);
        stage.update().unwrap();
        for (preset, view_name) in [
            (CameraPreset::Front, "front"),
            (CameraPreset::ThreeQuarter, "three-quarter"),
        ] {
            let camera = camera_for_scaled(preset, size, stage.size_factor());
            let frame = stage.frame(camera, &ViewOptions::default());
            let img = render_to_image(&gpu, size, &frame, &stage.mesh_data()).unwrap();
            check_golden(&format!("seated-{name}-{view_name}.png"), &img);
        }
    }
}
