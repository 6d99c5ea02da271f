//! The seated angler through the real renderer: overlays sit exactly where the solver says,
//! and golden images of the front and three-quarter views, with and without overlays.

mod support;
use support::golden::check_golden;
use support::image::{hex_rgb, pixel};

use anglerpose::render::capture::render_to_image;
use anglerpose::render::gpu::test_gpu;
use anglerpose::stage::colors;
use anglerpose::stage::{CameraPreset, OverlayOptions, Stage, ViewOptions, camera_for};

fn close(a: [u8; 3], b: [u8; 3], tol: u8) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= tol)
}

#[test]
fn arm_spheres_show_their_colours_at_their_projected_centres() {
    let Some(gpu) = test_gpu() else { return };
    let stage = Stage::bundled().expect("bundled stage");
    let size = [640, 360];
    let camera = camera_for(CameraPreset::Hands, size);
    let view = ViewOptions {
        overlays: OverlayOptions {
            spheres: true,
            bone_lines: false,
            limit_arcs: false,
            pole_and_plane: false,
            contacts: false,
            stability: false,
            slice_facing: Default::default(),
        },
        ..ViewOptions::default()
    };
    let frame = stage.frame(camera, &view);
    let img = render_to_image(&gpu, size, &frame, &stage.mesh_data()).expect("render");
    let plain = render_to_image(
        &gpu,
        size,
        &stage.frame(
            camera,
            &ViewOptions {
                overlays: OverlayOptions::NONE,
                ..view
            },
        ),
        &stage.mesh_data(),
    )
    .expect("render");
    let eval = stage.evaluation().expect("posed");
    let mut checked = 0;
    for side in anglerpose::fishing::SIDES {
        let arm = stage.actor.arm(side);
        // Spheres are drawn far-to-near; the target and effector overlap when the grip is
        // reached, so test the effector (wrist) and the links (elbow, shoulder).
        for (bone, hex) in [
            (arm.hand, colors::EFFECTOR),
            (arm.fore, colors::LINK),
            (arm.upper, colors::LINK),
        ] {
            let p = stage.pose.world_position(bone);
            let Some(px) = camera.world_to_pixel([p.x as f32, p.y as f32, p.z as f32]) else {
                continue;
            };
            if px[0] < 0.0 || px[1] < 0.0 || px[0] >= size[0] as f32 || px[1] >= size[1] as f32 {
                continue;
            }
            let got = pixel(&img, px);
            assert!(
                close(got, hex_rgb(hex), 3),
                "{side:?} bone {bone}: {got:?} at {px:?}, want {hex:06x}"
            );
            // Without overlays the same pixel shows the model or the background, not the sphere.
            assert!(
                !close(pixel(&plain, px), hex_rgb(hex), 12),
                "{side:?} bone {bone}: plain image already has the colour"
            );
            checked += 1;
        }
        assert!(eval.arms.get(side).ik.reached);
    }
    assert!(checked >= 5, "only {checked} sphere centres were on screen");
    // Pixels far from every overlay are not overlay-coloured: the top-left corner region.
    for (x, y) in [(5, 5), (size[0] - 5, 5), (5, size[1] - 5)] {
        let p = img.get_pixel(x, y).0;
        let rgb = [p[0], p[1], p[2]];
        for hex in [
            colors::TARGET,
            colors::EFFECTOR,
            colors::LINK,
            colors::POLYLINE,
        ] {
            assert!(
                !close(rgb, hex_rgb(hex), 12),
                "({x},{y}) looks like overlay {hex:06x}"
            );
        }
    }
}

#[test]
fn golden_images_of_the_seated_angler() {
    let Some(gpu) = test_gpu() else { return };
    let stage = Stage::bundled().expect("bundled stage");
    let meshes = stage.mesh_data();
    let size = [480, 270];
    for (preset, name) in [
        (CameraPreset::Front, "front"),
        (CameraPreset::ThreeQuarter, "three-quarter"),
    ] {
        for (overlays, suffix) in [
            (OverlayOptions::default(), "overlays"),
            (OverlayOptions::NONE, "plain"),
        ] {
            let view = ViewOptions {
                overlays,
                ..ViewOptions::default()
            };
            let frame = stage.frame(camera_for(preset, size), &view);
            let img = render_to_image(&gpu, size, &frame, &meshes).expect("render");
            check_golden(&format!("angler-{name}-{suffix}.png"), &img);
        }
    }
}
