//! X-ray mode through the real renderer: the character and props turn see-through (what lies
//! behind them shows, the body reads lighter and closer to the background than when solid),
//! overlays stay on top with their exact colours and blend over the see-through body, and a
//! golden image of the x-ray view.

mod support;
use support::golden::check_golden;

use anglerpose::render::capture::render_to_image;
use anglerpose::render::gpu::test_gpu;
use anglerpose::render::{FrameData, Gpu, MeshData, MeshStyle};
use anglerpose::rig::Side;
use anglerpose::stage::colors;
use anglerpose::stage::{CameraPreset, OverlayOptions, Stage, ViewOptions, camera_for};
use image::RgbaImage;

const SIZE: [u32; 2] = [480, 270];

fn rgb(img: &RgbaImage, x: u32, y: u32) -> [f64; 3] {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]].map(f64::from)
}

fn diff(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

fn luminance(c: [f64; 3]) -> f64 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

fn render(gpu: &Gpu, frame: &FrameData, meshes: &[MeshData]) -> RgbaImage {
    render_to_image(gpu, SIZE, frame, meshes).expect("render")
}

fn view(overlays: OverlayOptions, xray: bool, mesh_visible: bool) -> ViewOptions {
    ViewOptions {
        overlays,
        xray,
        mesh_visible,
        ..ViewOptions::default()
    }
}

fn without_stool(mut frame: FrameData, meshes: &[MeshData]) -> FrameData {
    let before = frame.rigid.len();
    frame
        .rigid
        .retain(|d| !meshes[d.mesh.index()].name.contains("stool"));
    assert!(frame.rigid.len() < before, "the stool is drawn");
    frame
}

#[test]
fn xray_shows_the_stool_behind_the_legs() {
    let Some(gpu) = test_gpu() else { return };
    let stage = Stage::bundled().expect("bundled stage");
    let meshes = stage.mesh_data();
    let camera = camera_for(CameraPreset::Front, SIZE);
    let none = OverlayOptions::NONE;
    let frame = |xray, mesh| stage.frame(camera, &view(none, xray, mesh));
    let pair = |f: FrameData| {
        let without = without_stool(f.clone(), &meshes);
        (render(&gpu, &f, &meshes), render(&gpu, &without, &meshes))
    };
    let (solid, solid_no_stool) = pair(frame(false, true));
    let (xray, xray_no_stool) = pair(frame(true, true));
    let (bare, bare_no_stool) = pair(frame(false, false));
    // Stool pixels the solid character hides: the stool is there (the character-less images
    // differ) but the solid images do not change when it is removed. In x-ray the same
    // pixels pass part of the stool's contrast (`ratio`; 0 when solid, by this selection).
    let mut ratios = Vec::new();
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let stool = diff(rgb(&bare, x, y), rgb(&bare_no_stool, x, y));
            let solid_change = diff(rgb(&solid, x, y), rgb(&solid_no_stool, x, y));
            if stool > 16.0 && solid_change <= 1.0 {
                let xray_change = diff(rgb(&xray, x, y), rgb(&xray_no_stool, x, y));
                ratios.push(xray_change / stool);
            }
        }
    }
    assert!(
        ratios.len() > 150,
        "only {} stool pixels behind the legs",
        ratios.len()
    );
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let at_least_a_tenth = ratios.iter().filter(|&&r| r >= 0.1).count();
    assert!(
        median >= 0.15,
        "median share of the stool's contrast {median}"
    );
    assert!(
        at_least_a_tenth as f64 >= 0.75 * ratios.len() as f64,
        "{at_least_a_tenth} of {} pixels show a tenth of the stool",
        ratios.len()
    );
}

#[test]
fn xray_body_is_see_through_and_lighter_than_solid() {
    let Some(gpu) = test_gpu() else { return };
    let stage = Stage::bundled().expect("bundled stage");
    let meshes = stage.mesh_data();
    let camera = camera_for(CameraPreset::Front, SIZE);
    let none = OverlayOptions::NONE;
    let solid = render(
        &gpu,
        &stage.frame(camera, &view(none, false, true)),
        &meshes,
    );
    let xray = render(&gpu, &stage.frame(camera, &view(none, true, true)), &meshes);
    let bare = render(
        &gpu,
        &stage.frame(camera, &view(none, false, false)),
        &meshes,
    );
    // Every pixel the solid character covers: in x-ray it moves toward what is behind it.
    let (mut body, mut closer, mut changed) = (0, 0, 0);
    for y in 0..SIZE[1] {
        for x in 0..SIZE[0] {
            let (s, v, b) = (rgb(&solid, x, y), rgb(&xray, x, y), rgb(&bare, x, y));
            if diff(s, b) <= 24.0 {
                continue;
            }
            body += 1;
            if diff(v, b) < diff(s, b) {
                closer += 1;
            }
            if diff(v, s) > 12.0 {
                changed += 1;
            }
        }
    }
    assert!(body > 3000, "character covers only {body} pixels");
    assert!(
        closer as f64 >= 0.9 * body as f64,
        "{closer} of {body} closer"
    );
    assert!(
        changed as f64 >= 0.85 * body as f64,
        "{changed} of {body} changed"
    );
    // The chest (below the shoulders' midpoint): the dark shirt reads much lighter.
    let arm = |s: Side| stage.pose.world_position(stage.actor.arm(s).upper);
    let chest = (arm(Side::Left) + arm(Side::Right)) * 0.5 - glam::DVec3::Y * 0.15;
    let px = camera
        .world_to_pixel([chest.x as f32, chest.y as f32, chest.z as f32])
        .expect("chest on screen");
    let patch = |img: &RgbaImage| {
        let (cx, cy) = (px[0] as u32, px[1] as u32);
        let mut sum = 0.0;
        for y in cy - 2..=cy + 2 {
            for x in cx - 2..=cx + 2 {
                sum += luminance(rgb(img, x, y));
            }
        }
        sum / 25.0
    };
    let (s, v, b) = (patch(&solid), patch(&xray), patch(&bare));
    assert!(
        b - s > 25.0,
        "the shirt is darker than the background: {s} vs {b}"
    );
    assert!(
        v > s + 15.0 && v < b - 5.0,
        "x-ray chest {v}: solid {s}, behind {b}"
    );
}

/// sRGB byte → linear, and back.
fn linear(c: f64) -> f64 {
    let c = c / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn encode(l: f64) -> f64 {
    let c = if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    };
    c * 255.0
}

fn inside(p: [f32; 2], t: [[f32; 2]; 3]) -> bool {
    let s =
        |a: [f32; 2], b: [f32; 2]| (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let d = [s(t[0], t[1]), s(t[1], t[2]), s(t[2], t[0])];
    d.iter().all(|&v| v >= 0.0) || d.iter().all(|&v| v <= 0.0)
}

#[test]
fn overlays_keep_their_colours_over_the_xray_body() {
    let Some(gpu) = test_gpu() else { return };
    let stage = Stage::bundled().expect("bundled stage");
    let meshes = stage.mesh_data();
    let camera = camera_for(CameraPreset::Hands, SIZE);
    let spheres = OverlayOptions {
        spheres: true,
        ..OverlayOptions::NONE
    };
    let plane = OverlayOptions {
        pole_and_plane: true,
        ..OverlayOptions::NONE
    };
    let img = |o, xray| render(&gpu, &stage.frame(camera, &view(o, xray, true)), &meshes);
    let xray_spheres = img(spheres, true);
    let xray_plain = img(OverlayOptions::NONE, true);
    let solid_plain = img(OverlayOptions::NONE, false);
    let to_px = |p: glam::DVec3| camera.world_to_pixel([p.x as f32, p.y as f32, p.z as f32]);
    // Link spheres (shoulders and elbows, inside the body) keep their exact colour on top.
    let link = [16, 8, 0].map(|shift| f64::from((colors::LINK >> shift) & 0xff));
    let mut checked = 0;
    for side in [Side::Left, Side::Right] {
        let arm = stage.actor.arm(side);
        for bone in [arm.upper, arm.fore] {
            let Some(p) = to_px(stage.pose.world_position(bone)) else {
                continue;
            };
            if p[0] < 0.0 || p[1] < 0.0 || p[0] >= SIZE[0] as f32 || p[1] >= SIZE[1] as f32 {
                continue;
            }
            let (x, y) = (p[0] as u32, p[1] as u32);
            let got = rgb(&xray_spheres, x, y);
            assert!(diff(got, link) <= 3.0, "{side:?} bone {bone}: {got:?}");
            assert!(diff(rgb(&xray_plain, x, y), link) > 12.0);
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} link spheres on screen");
    // The bend plane (alpha 0.25) over the body: its colour is mixed into the see-through
    // body exactly by alpha blending, and the result differs from the solid body's.
    let xray_plane = img(plane, true);
    let solid_plane = img(plane, false);
    let yellow = [16, 8, 0].map(|shift| linear(f64::from((colors::BEND_PLANE >> shift) & 0xff)));
    let tri = |s: Side| {
        let arm = stage.actor.arm(s);
        [arm.upper, arm.fore, arm.hand].map(|b| to_px(stage.pose.world_position(b)).unwrap())
    };
    let mut blended = 0;
    for (side, other) in [(Side::Left, Side::Right), (Side::Right, Side::Left)] {
        let t = tri(side);
        let c = [
            (t[0][0] + t[1][0] + t[2][0]) / 3.0,
            (t[0][1] + t[1][1] + t[2][1]) / 3.0,
        ];
        if inside(c, tri(other)) {
            continue;
        }
        let (x, y) = (c[0] as u32, c[1] as u32);
        let under = rgb(&xray_plain, x, y);
        let want: [f64; 3] =
            std::array::from_fn(|i| encode(0.25 * yellow[i] + 0.75 * linear(under[i])));
        let got = rgb(&xray_plane, x, y);
        assert!(diff(got, want) <= 4.0, "{side:?}: {got:?} vs {want:?}");
        assert!(diff(got, under) > 10.0, "{side:?}: the plane shows");
        assert!(
            diff(got, rgb(&solid_plane, x, y)) > 10.0,
            "{side:?}: the body under the plane is see-through"
        );
        assert!(diff(rgb(&solid_plain, x, y), under) > 10.0);
        blended += 1;
    }
    assert!(
        blended >= 1,
        "no bend-plane centroid free of the other arm's plane"
    );
}

#[test]
fn xray_frame_style_and_golden_image() {
    let Some(gpu) = test_gpu() else { return };
    let stage = Stage::bundled().expect("bundled stage");
    let camera = camera_for(CameraPreset::ThreeQuarter, SIZE);
    let frame = stage.frame(camera, &view(OverlayOptions::default(), true, true));
    assert_eq!(
        frame.mesh_style,
        MeshStyle::XRay {
            opacity: MeshStyle::XRAY_OPACITY
        }
    );
    let img = render(&gpu, &frame, &stage.mesh_data());
    check_golden("angler-three-quarter-xray.png", &img);
}
