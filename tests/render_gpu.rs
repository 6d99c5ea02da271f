//! Real rendering on whatever adapter exists (lavapipe/llvmpipe without a GPU).
//!
//! Every GPU test skips with a loud `SKIP:` line when no adapter exists, unless
//! `ANGLERPOSE_REQUIRE_GPU=1`, which turns a missing adapter into a failure.
//! Golden images live in `tests/golden/`; refresh with `ANGLERPOSE_UPDATE_GOLDEN=1`.

mod support;
use support::golden::{GOLDEN_MIN_MATCHING, check_golden, matching_fraction};
use support::image::{hex_rgb, pixel};

use anglerpose::render::capture::{CAPTURE_FORMAT, capture};
use anglerpose::render::gpu::test_gpu;
use anglerpose::render::skin_check::gpu_skin_positions;
use anglerpose::render::{
    Camera, FrameData, Gpu, MeshData, MeshHandle, OverlayArc, OverlayLine, OverlaySphere, Overlays,
    RenderError, Renderer,
};
use anglerpose::rig::{Bone, Pose, Skeleton, Transform};
use anglerpose::stage::colors;
use glam::{DMat4, DQuat, DVec3, Vec3};
use image::RgbaImage;
use support::demo::{self, DemoView};

fn max_diff(a: [u8; 3], b: [u8; 3]) -> u8 {
    (0..3).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0)
}

/// Whether some pixel within `r` pixels of `p` has colour `want` (±`tol` per channel).
fn colour_near(img: &RgbaImage, p: [f32; 2], r: i32, want: [u8; 3], tol: u8) -> bool {
    (-r..=r).any(|dy| {
        (-r..=r).any(|dx| max_diff(pixel(img, [p[0] + dx as f32, p[1] + dy as f32]), want) <= tol)
    })
}

fn renderer_with_demo(gpu: &Gpu) -> (Renderer, Vec<MeshHandle>) {
    let mut renderer = Renderer::new(gpu, CAPTURE_FORMAT, gpu.best_sample_count(CAPTURE_FORMAT));
    let handles = demo::meshes()
        .iter()
        .map(|m| renderer.upload_mesh(m).expect("demo meshes are valid"))
        .collect();
    (renderer, handles)
}

// ---------------------------------------------------------------------------------------
// GPU skinning equals CPU skinning (f64 reference through the rig API).

/// The demo tube's skeleton (bones along +Y at `TUBE_JOINTS_Y`) posed by `bend`, in f64.
fn posed_tube(bend: [f64; 3]) -> (Skeleton, Pose) {
    let y = demo::TUBE_JOINTS_Y.map(f64::from);
    let bone = |name: &str, parent: Option<usize>, t: f64| Bone {
        name: name.into(),
        parent,
        rest: Transform::from_translation(DVec3::new(0.0, t, 0.0)),
    };
    let skel = Skeleton::new(vec![
        bone("root", None, y[0]),
        bone("mid", Some(0), y[1] - y[0]),
        bone("top", Some(1), y[2] - y[1]),
    ])
    .expect("valid skeleton");
    let mut pose = Pose::rest(&skel);
    pose.set_local_rotation(0, DQuat::from_rotation_z(bend[0]));
    pose.set_local_rotation(1, DQuat::from_rotation_z(bend[1]));
    pose.set_local_rotation(2, DQuat::from_rotation_x(bend[2]));
    pose.refresh_all(&skel);
    (skel, pose)
}

#[test]
fn gpu_skinning_matches_cpu_skinning() {
    let Some(gpu) = test_gpu() else { return };
    eprintln!("adapter: {}", gpu.describe());
    let mesh = demo::tube_mesh(16, 32);
    let bend = [0.3, -0.9, 0.7];
    let (skel, pose) = posed_tube(bend);
    // Skin matrices in f64: joint world × inverse bind (bind = rest world).
    let rest = Pose::rest(&skel);
    let skin64: Vec<DMat4> = (0..skel.len())
        .map(|j| {
            DMat4::from(*pose.world_from_bone(j)) * DMat4::from(*rest.world_from_bone(j)).inverse()
        })
        .collect();
    let skin32: Vec<[[f32; 4]; 4]> = skin64
        .iter()
        .map(|m| m.as_mat4().to_cols_array_2d())
        .collect();
    let gpu_positions = gpu_skin_positions(&gpu, &mesh, &skin32).expect("GPU skinning ran");
    assert_eq!(gpu_positions.len(), mesh.positions.len());

    let mut worst = 0.0f64;
    let mut moved = 0.0f64;
    for (i, p) in mesh.positions.iter().enumerate() {
        let bind = DVec3::new(p[0].into(), p[1].into(), p[2].into());
        let w = mesh.weights[i].map(f64::from);
        let sum: f64 = w.iter().sum();
        let cpu: DVec3 = (0..4)
            .map(|k| skin64[mesh.joints[i][k] as usize].transform_point3(bind) * (w[k] / sum))
            .sum();
        let g = gpu_positions[i];
        let got = DVec3::new(g[0].into(), g[1].into(), g[2].into());
        let rel = (got - cpu).length() / cpu.length().max(0.1);
        worst = worst.max(rel);
        moved = moved.max((cpu - bind).length());
    }
    eprintln!("GPU vs CPU skinning: worst relative error {worst:.3e}, max displacement {moved:.3}");
    assert!(
        moved > 0.3,
        "the pose must actually move vertices (moved {moved})"
    );
    assert!(
        worst <= 1e-4,
        "GPU skinning differs from CPU skinning: {worst:e} relative"
    );

    // A wrong palette must be caught by the same comparison (the test can fail).
    let mut wrong = skin32.clone();
    wrong[1] = skin32[2];
    let bad = gpu_skin_positions(&gpu, &mesh, &wrong).expect("GPU skinning ran");
    let differs = bad
        .iter()
        .zip(&gpu_positions)
        .any(|(a, b)| (Vec3::from(*a) - Vec3::from(*b)).length() > 1e-2);
    assert!(
        differs,
        "a different palette must change the skinned positions"
    );
}

#[test]
fn invalid_meshes_are_errors_not_panics() {
    let mut m = MeshData::new("broken");
    m.positions = vec![[0.0; 3]; 3];
    m.indices = vec![0, 1, 7];
    let err = anglerpose::render::mesh::validate(&m).unwrap_err();
    assert!(matches!(err, RenderError::InvalidMesh { .. }));
    assert!(err.to_string().contains("broken") && err.to_string().contains("index 2 = 7"));
    m.indices = vec![0, 1, 2];
    m.normals = vec![[0.0, 1.0, 0.0]];
    assert!(
        anglerpose::render::mesh::validate(&m)
            .unwrap_err()
            .to_string()
            .contains("normals has 1 entries")
    );
    m.normals.clear();
    m.positions[1][0] = f32::NAN;
    assert!(
        anglerpose::render::mesh::validate(&m)
            .unwrap_err()
            .to_string()
            .contains("position 1 is not finite")
    );

    let Some(gpu) = test_gpu() else { return };
    let mut renderer = Renderer::new(&gpu, CAPTURE_FORMAT, 1);
    assert!(renderer.upload_mesh(&m).is_err());
}

// ---------------------------------------------------------------------------------------
// Overlay placement.

#[test]
fn overlay_spheres_sit_on_their_projected_centres_even_behind_the_mesh() {
    let Some(gpu) = test_gpu() else { return };
    let (mut renderer, handles) = renderer_with_demo(&gpu);
    let size = [320, 240];
    let camera = demo::camera(DemoView::Front, size);
    let bend = [0.0, 0.0, 0.0];
    let base = demo::frame(&handles[..1], camera, bend, false);
    let plain = capture(&gpu, &mut renderer, &base).expect("capture");

    // Spheres behind the tube (z = −0.3, hidden by it) and beside it, each its own colour.
    let spheres = [
        ([0.0, 0.3, -0.3], colors::TARGET),
        ([0.0, 0.8, -0.3], colors::EFFECTOR),
        ([0.0, 1.3, -0.3], colors::LINK),
        ([0.6, 0.9, 0.0], colors::POLE),
    ];
    let mut with = base.clone();
    with.overlays.spheres = spheres
        .iter()
        .map(|&(centre, hex)| OverlaySphere {
            centre,
            radius: 0.04,
            rgba: colors::linear(hex, 1.0),
        })
        .collect();
    let img = capture(&gpu, &mut renderer, &with).expect("capture");

    let mut radii_px = Vec::new();
    for &(centre, hex) in &spheres {
        let p = camera
            .world_to_pixel(centre)
            .expect("in front of the camera");
        let want = hex_rgb(hex);
        let got = pixel(&img, p);
        assert!(
            max_diff(got, want) <= 2,
            "sphere {hex:06x} at pixel {p:?}: got {got:?}, want {want:?}"
        );
        // Radius in pixels, from projecting a point one radius to the side.
        let side = camera
            .world_to_pixel([centre[0] + 0.04, centre[1], centre[2]])
            .unwrap();
        radii_px.push((p, (side[0] - p[0]).abs()));
    }
    // The first three really are behind the mesh: without overlays the pixel is the tube.
    for &(centre, hex) in &spheres[..3] {
        let p = camera.world_to_pixel(centre).unwrap();
        let under = pixel(&plain, p);
        assert!(
            max_diff(under, hex_rgb(hex)) > 40,
            "sphere {hex:06x} should be hidden by the tube (pixel {under:?})"
        );
    }
    // Away from the spheres, nothing changed: no stray overlay colour anywhere.
    let mut compared = 0;
    for (x, y, px) in img.enumerate_pixels() {
        let c = [x as f32 + 0.5, y as f32 + 0.5];
        let near = radii_px.iter().any(|(p, r)| {
            let d = ((c[0] - p[0]).powi(2) + (c[1] - p[1]).powi(2)).sqrt();
            d <= r * 1.15 + 3.0
        });
        if near {
            continue;
        }
        compared += 1;
        let before = plain.get_pixel(x, y).0;
        let diff = (0..3).map(|i| px.0[i].abs_diff(before[i])).max().unwrap();
        assert!(
            diff <= 1,
            "pixel ({x},{y}) away from overlays changed: {before:?} -> {:?}",
            px.0
        );
    }
    assert!(
        compared > 70_000,
        "most of the image must be compared ({compared})"
    );
}

#[test]
fn limit_arcs_and_lines_are_drawn_where_projected() {
    let Some(gpu) = test_gpu() else { return };
    let (mut renderer, handles) = renderer_with_demo(&gpu);
    let size = [320, 240];
    let camera = demo::camera(DemoView::Front, size);
    let mut frame = demo::frame(&handles[..1], camera, [0.0; 3], false);
    let arc_line = 0x20c0ff;
    let limit = 0xff6020;
    let fill = 0x00ff00;
    let arc = OverlayArc {
        centre: [0.0, 0.8, 0.2],
        axis: [0.0, 0.0, 1.0],
        start_dir: [1.0, 0.0, 0.0],
        sweep_rad: std::f32::consts::FRAC_PI_2,
        radius: 0.3,
        current_angle: 0.5,
        fill_rgba: colors::linear(fill, 0.3),
        line_rgba: colors::linear(arc_line, 1.0),
        limit_rgba: colors::linear(limit, 1.0),
        on_limit: false,
    };
    let poly = [[-0.6, 0.2, 0.1], [-0.3, 1.4, 0.1]];
    frame.overlays = Overlays {
        arcs: vec![arc],
        lines: vec![OverlayLine {
            points: poly.to_vec(),
            rgba: colors::linear(colors::POLYLINE, 1.0),
            width_px: 3.0,
        }],
        ..Default::default()
    };
    let img = capture(&gpu, &mut renderer, &frame).expect("capture");
    let at = |angle: f32, r: f32| {
        let p = [0.3 * 0.0 + r * angle.cos(), 0.8 + r * angle.sin(), 0.2];
        camera.world_to_pixel(p).unwrap()
    };
    // The rim at 45° (inside the 0..90° range) carries the outline colour.
    let rim = at(std::f32::consts::FRAC_PI_4, 0.3);
    assert!(
        colour_near(&img, rim, 2, hex_rgb(arc_line), 2),
        "arc outline missing at {rim:?}"
    );
    // Outside the range (at −45°) there is no outline.
    let outside = at(-std::f32::consts::FRAC_PI_4, 0.3);
    assert!(
        !colour_near(&img, outside, 2, hex_rgb(arc_line), 30),
        "arc drawn outside its range"
    );
    // The current-angle line (0.5 rad) halfway out.
    let current = at(0.5, 0.2);
    assert!(
        colour_near(&img, current, 2, hex_rgb(arc_line), 2),
        "current-angle line missing"
    );
    // The translucent wedge tints its interior green but is not opaque.
    let inside = pixel(&img, at(1.2, 0.12));
    let plain = capture(
        &gpu,
        &mut renderer,
        &demo::frame(&handles[..1], camera, [0.0; 3], false),
    )
    .expect("capture");
    let before = pixel(&plain, at(1.2, 0.12));
    assert!(
        inside[1] > before[1] + 15,
        "wedge must tint green: {before:?} -> {inside:?}"
    );
    assert!(
        max_diff(inside, hex_rgb(fill)) > 60,
        "wedge must be translucent: {inside:?}"
    );
    // The polyline's midpoint is exactly 0xff0000.
    let mid = [
        (poly[0][0] + poly[1][0]) / 2.0,
        (poly[0][1] + poly[1][1]) / 2.0,
        0.1,
    ];
    let mid_px = camera.world_to_pixel(mid).unwrap();
    assert!(
        colour_near(&img, mid_px, 1, hex_rgb(colors::POLYLINE), 2),
        "polyline missing"
    );

    // On a limit the outline and the current-angle line switch colour.
    frame.overlays.arcs[0].on_limit = true;
    let img = capture(&gpu, &mut renderer, &frame).expect("capture");
    assert!(
        colour_near(&img, current, 2, hex_rgb(limit), 2),
        "on-limit colour missing"
    );
    assert!(
        !colour_near(&img, current, 2, hex_rgb(arc_line), 2),
        "normal colour still shown"
    );
}

#[test]
fn degenerate_frames_render_without_panicking() {
    let Some(gpu) = test_gpu() else { return };
    let (mut renderer, handles) = renderer_with_demo(&gpu);
    let camera = Camera::look_at([0.0; 3], [0.0; 3], [0.0; 3], f32::NAN, [0, 0], -1.0, 0.0);
    assert!(
        camera
            .view_from_world
            .iter()
            .flatten()
            .all(|c| c.is_finite())
    );
    let mut frame = FrameData::new(Camera {
        viewport: [16, 8],
        ..camera
    });
    frame.skinned.push(anglerpose::render::SkinnedDraw {
        mesh: handles[0],
        skin_matrices: vec![[[f32::NAN; 4]; 4]], // too short and non-finite
    });
    frame.overlays.arcs.push(OverlayArc {
        centre: [0.0; 3],
        axis: [0.0; 3],
        start_dir: [0.0; 3],
        sweep_rad: f32::INFINITY,
        radius: 0.0,
        current_angle: f32::NAN,
        fill_rgba: [1.0; 4],
        line_rgba: [1.0; 4],
        limit_rgba: [1.0; 4],
        on_limit: true,
    });
    frame.overlays.lines.push(OverlayLine {
        points: vec![[0.0; 3]],
        rgba: [1.0; 4],
        width_px: 2.0,
    });
    let img = capture(&gpu, &mut renderer, &frame).expect("capture");
    assert_eq!(img.dimensions(), (16, 8));
    assert!(matches!(
        capture(
            &gpu,
            &mut renderer,
            &FrameData::new(Camera {
                viewport: [0, 0],
                ..camera
            })
        ),
        Err(RenderError::InvalidSize { .. })
    ));
    // A target of the wrong format is an error, not a wgpu validation panic.
    let other = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: 16,
            height: 8,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let err = renderer
        .render(&other.create_view(&Default::default()), &frame)
        .unwrap_err();
    assert!(err.to_string().contains("Rgba16Float"), "{err}");
}

// ---------------------------------------------------------------------------------------
// Faces: single-sided meshes cull back faces, double-sided ones show both, and a mirroring
// model matrix keeps the front face the front.

/// A red unit quad in the z = 0 plane, counter-clockwise seen from +Z (its front).
fn red_quad(double_sided: bool) -> MeshData {
    let mut m = MeshData::new(if double_sided {
        "two-sided"
    } else {
        "one-sided"
    });
    m.positions = vec![
        [-0.5, -0.5, 0.0],
        [0.5, -0.5, 0.0],
        [0.5, 0.5, 0.0],
        [-0.5, 0.5, 0.0],
    ];
    m.normals = vec![[0.0, 0.0, 1.0]; 4];
    m.indices = vec![0, 1, 2, 0, 2, 3];
    m.base_color = [1.0, 0.0, 0.0, 1.0];
    m.double_sided = double_sided;
    m
}

#[test]
fn back_faces_are_culled_unless_double_sided_and_mirroring_keeps_the_front() {
    let Some(gpu) = test_gpu() else { return };
    let mut renderer = Renderer::new(&gpu, CAPTURE_FORMAT, 1);
    let one = renderer.upload_mesh(&red_quad(false)).unwrap();
    let two = renderer.upload_mesh(&red_quad(true)).unwrap();
    let shows_red = |renderer: &mut Renderer, mesh, eye_z: f32, mirror: bool| {
        let camera = Camera::look_at(
            [0.0, 0.0, eye_z],
            [0.0; 3],
            [0.0, 1.0, 0.0],
            0.8,
            [32, 32],
            0.1,
            10.0,
        );
        let mut frame = FrameData::new(camera);
        frame.grid = false;
        let x = if mirror { -1.0 } else { 1.0 };
        frame.rigid.push(anglerpose::render::RigidDraw {
            mesh,
            world_from_mesh: glam::Mat4::from_scale(Vec3::new(x, 1.0, 1.0)).to_cols_array_2d(),
            tint: [1.0; 4],
        });
        let img = capture(&gpu, renderer, &frame).expect("capture");
        let [r, g, b] = pixel(&img, [16.0, 16.0]);
        r > 100 && g < 60 && b < 60
    };
    assert!(
        shows_red(&mut renderer, one, 2.0, false),
        "front of a one-sided quad"
    );
    assert!(
        !shows_red(&mut renderer, one, -2.0, false),
        "back of a one-sided quad is culled"
    );
    assert!(
        shows_red(&mut renderer, two, 2.0, false),
        "front of a two-sided quad"
    );
    assert!(
        shows_red(&mut renderer, two, -2.0, false),
        "back of a two-sided quad"
    );
    // Mirrored in x, the quad's triangles turn clockwise as seen from +Z, yet that side is
    // still its front (the normal still faces +Z).
    assert!(
        shows_red(&mut renderer, one, 2.0, true),
        "front of a mirrored quad"
    );
    assert!(
        !shows_red(&mut renderer, one, -2.0, true),
        "back of a mirrored quad"
    );
}

// ---------------------------------------------------------------------------------------
// Golden images of the synthetic scene.

#[test]
fn golden_images_of_the_synthetic_scene() {
    let Some(gpu) = test_gpu() else { return };
    let (mut renderer, handles) = renderer_with_demo(&gpu);
    let size = [480, 360];
    for (view, view_name) in [
        (DemoView::Front, "front"),
        (DemoView::ThreeQuarter, "three-quarter"),
    ] {
        let mut images = Vec::new();
        for overlays in [true, false] {
            let camera = demo::camera(view, size);
            let frame = demo::frame(&handles, camera, demo::DEMO_BEND, overlays);
            let img = capture(&gpu, &mut renderer, &frame).expect("capture");
            let suffix = if overlays { "overlays" } else { "plain" };
            check_golden(&format!("demo-{view_name}-{suffix}.png"), &img);
            images.push(img);
        }
        // The comparison must be able to fail: losing the overlays is well past tolerance.
        let fraction = matching_fraction(&images[0], &images[1]);
        assert!(
            fraction < GOLDEN_MIN_MATCHING,
            "{view_name}: overlays changed only {fraction}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// A target that is not *Srgb: the shaders encode (the `ENCODE_SRGB` pipeline constant).

#[test]
fn a_plain_unorm_target_gets_the_same_bytes_as_an_srgb_one() {
    use anglerpose::render::capture::OffscreenTarget;
    let Some(gpu) = test_gpu() else { return };
    let size = [240, 180];
    let camera = demo::camera(DemoView::ThreeQuarter, size);
    let mut images = Vec::new();
    for format in [CAPTURE_FORMAT, wgpu::TextureFormat::Rgba8Unorm] {
        let mut renderer = Renderer::new(&gpu, format, 1);
        let handles: Vec<MeshHandle> = demo::meshes()
            .iter()
            .map(|m| renderer.upload_mesh(m).expect("demo meshes are valid"))
            .collect();
        // Opaque draws only: blending (overlays, grid lines) mixes encoded values on a plain
        // target and linear ones on an sRGB target, which differ by design.
        let mut frame = demo::frame(&handles, camera, demo::DEMO_BEND, false);
        frame.grid = false;
        let target = OffscreenTarget::with_format(&gpu, size, format).expect("target");
        renderer.render(&target.view, &frame).expect("render");
        images.push(target.read(&gpu).expect("readback"));
    }
    let (srgb, unorm) = (&images[0], &images[1]);
    let mut worst = 0u8;
    let mut lit = 0usize;
    for (a, b) in srgb.pixels().zip(unorm.pixels()) {
        let d = max_diff([a[0], a[1], a[2]], [b[0], b[1], b[2]]);
        worst = worst.max(d);
        lit += usize::from(a[0].max(a[1]).max(a[2]) > 40);
    }
    // The shader's encode and the hardware's differ by rounding only; without the encode the
    // plain target would hold linear values (mid greys 40–100 levels darker).
    assert!(worst <= 2, "largest channel difference {worst}");
    assert!(
        lit > 2_000,
        "the scene covers the image ({lit} bright pixels)"
    );
}
