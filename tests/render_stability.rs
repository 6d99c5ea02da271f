//! The stability slice drawn for real (issue 36): rendered on the available adapter (Mesa
//! lavapipe in CI), the cells round each arm's target tint the pixels there toward their
//! class's colour, and nothing changes where no slice is. Skips loudly without an adapter
//! (unless `ANGLERPOSE_REQUIRE_GPU=1`).

use anglerpose::fishing::{Phase, SampleClass, SessionState};
use anglerpose::render::capture::render_to_image;
use anglerpose::render::gpu::test_gpu;
use anglerpose::rig::Side;
use anglerpose::stage::{CameraPreset, Stage, ViewOptions, camera_for_scaled, class_hex};

#[test]
fn the_slice_tints_the_pixels_round_the_target_toward_its_class() {
    let Some(gpu) = test_gpu() else { return };
    let mut stage = Stage::bundled().unwrap();
    stage.inputs.state = SessionState::new(Phase::SeatedHold, 0.5, stage.inputs.state.params);
    let eval = *stage.update().unwrap();
    let size = [480, 360];
    let camera = camera_for_scaled(CameraPreset::Hands, size, stage.size_factor());
    // Only the slice: the target and effector spheres would cover the pixel looked at.
    let mut view = ViewOptions {
        overlays: anglerpose::stage::OverlayOptions::NONE,
        ..ViewOptions::default()
    };
    let plain =
        render_to_image(&gpu, size, &stage.frame(camera, &view), &stage.mesh_data()).unwrap();
    view.overlays.stability = true;
    let sliced =
        render_to_image(&gpu, size, &stage.frame(camera, &view), &stage.mesh_data()).unwrap();
    let target = eval.arms.get(Side::Right).wrist_target_in_world.as_vec3();
    let [x, y] = camera
        .world_to_pixel(target.to_array())
        .expect("target in view");
    // The cell on the target is stable at the seated hold (the core says so).
    let readout = stage.stability_readout(Side::Right).unwrap();
    assert!(readout.margin.margin > 0.01, "{readout:?}");
    let hex = class_hex(SampleClass::Stable);
    let green = [
        (hex >> 16) as f32,
        ((hex >> 8) & 0xff) as f32,
        (hex & 0xff) as f32,
    ];
    let distance = |p: &image::Rgba<u8>| {
        (0..3)
            .map(|i| (f32::from(p.0[i]) - green[i]).powi(2))
            .sum::<f32>()
            .sqrt()
    };
    let (px, py) = (x.round() as u32, y.round() as u32);
    let (a, b) = (plain.get_pixel(px, py), sliced.get_pixel(px, py));
    assert!(
        distance(b) < distance(a) - 10.0,
        "at the target: plain {a:?}, with the slice {b:?}"
    );
    // Far from both arms (the image's top-left corner) nothing changed.
    assert_eq!(plain.get_pixel(2, 2), sliced.get_pixel(2, 2));
}
