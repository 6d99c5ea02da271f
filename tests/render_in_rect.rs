//! `Renderer::encode_in_rect`, which the editor uses to draw its 3D view straight into the
//! window: the frame lands in its rectangle exactly as a whole-target render of the same
//! frame at that size, and nothing outside the rectangle changes.
//!
//! GPU tests skip loudly without an adapter, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use anglerpose::render::capture::{CAPTURE_FORMAT, OffscreenTarget};
use anglerpose::render::gpu::{colour_pass, test_gpu};
use anglerpose::render::{Gpu, MeshHandle, RenderError, Renderer};
use image::RgbaImage;
use support::demo::{self, DEMO_BEND, DemoView};

const TARGET: [u32; 2] = [300, 220];
const MAGENTA: wgpu::Color = wgpu::Color {
    r: 1.0,
    g: 0.0,
    b: 1.0,
    a: 1.0,
};

fn demo_renderer(gpu: &Gpu, samples: u32) -> (Renderer, Vec<MeshHandle>) {
    let mut renderer = Renderer::new(gpu, CAPTURE_FORMAT, samples);
    let handles = demo::meshes()
        .iter()
        .map(|m| renderer.upload_mesh(m).expect("demo meshes are valid"))
        .collect();
    (renderer, handles)
}

/// `TARGET` cleared to magenta, then the demo frame drawn into `rect` of it.
fn in_rect(
    gpu: &Gpu,
    renderer: &mut Renderer,
    handles: &[MeshHandle],
    rect: [u32; 4],
) -> RgbaImage {
    let target = OffscreenTarget::new(gpu, TARGET).expect("target");
    let camera = demo::camera(DemoView::ThreeQuarter, [rect[2], rect[3]]);
    let frame = demo::frame(handles, camera, DEMO_BEND, true);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    drop(colour_pass(
        &mut encoder,
        "fill",
        &target.view,
        wgpu::LoadOp::Clear(MAGENTA),
    ));
    renderer
        .encode_in_rect(&mut encoder, &target.view, rect, &frame)
        .expect("drawn");
    gpu.queue.submit([encoder.finish()]);
    target.read(gpu).expect("readback")
}

fn is_magenta(p: &image::Rgba<u8>) -> bool {
    p.0 == [255, 0, 255, 255]
}

#[test]
fn a_frame_drawn_in_a_rectangle_is_the_whole_frame_there_and_nothing_elsewhere() {
    let Some(gpu) = test_gpu() else { return };
    let (mut renderer, handles) = demo_renderer(&gpu, 1);
    let rect = [70, 40, 180, 150];
    let img = in_rect(&gpu, &mut renderer, &handles, rect);

    // The same frame rendered on its own at the rectangle's size.
    let whole = OffscreenTarget::new(&gpu, [rect[2], rect[3]]).expect("target");
    let camera = demo::camera(DemoView::ThreeQuarter, [rect[2], rect[3]]);
    renderer
        .render(&whole.view, &demo::frame(&handles, camera, DEMO_BEND, true))
        .expect("render");
    let whole = whole.read(&gpu).expect("readback");

    let inside = |x: u32, y: u32| {
        (rect[0]..rect[0] + rect[2]).contains(&x) && (rect[1]..rect[1] + rect[3]).contains(&y)
    };
    let mut worst = 0u8;
    for (x, y, p) in img.enumerate_pixels() {
        if inside(x, y) {
            let q = whole.get_pixel(x - rect[0], y - rect[1]);
            worst = worst.max((0..4).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0));
        } else {
            assert!(
                is_magenta(p),
                "pixel ({x}, {y}) outside the rectangle is {p:?}"
            );
        }
    }
    assert!(
        worst <= 1,
        "inside the rectangle: largest difference {worst}"
    );
    // Not a vacuous match: the frame has the scene in it, not just one colour.
    let first = *whole.get_pixel(0, 0);
    let varied = whole.pixels().filter(|p| **p != first).count();
    assert!(
        varied * 2 > (rect[2] * rect[3]) as usize,
        "{varied} pixels differ from a corner"
    );
}

#[test]
fn a_rectangle_is_clipped_to_the_target_and_an_outside_one_draws_nothing() {
    let Some(gpu) = test_gpu() else { return };
    let (mut renderer, handles) = demo_renderer(&gpu, 1);

    // Reaching past the right and bottom edges: drawn up to them.
    let img = in_rect(&gpu, &mut renderer, &handles, [200, 150, 400, 400]);
    assert!(
        img.enumerate_pixels()
            .all(|(x, y, p)| (x >= 200 && y >= 150) != is_magenta(p))
    );

    // Wholly outside, or empty: the target stays as it was.
    for rect in [[300, 0, 50, 50], [0, 220, 50, 50], [10, 10, 0, 40]] {
        let img = in_rect(&gpu, &mut renderer, &handles, rect);
        assert!(img.pixels().all(is_magenta), "rect {rect:?} drew something");
    }
}

#[test]
fn drawing_into_a_rectangle_with_msaa_is_an_error_not_a_validation_panic() {
    let Some(gpu) = test_gpu() else { return };
    if gpu.best_sample_count(CAPTURE_FORMAT) < 4 {
        anglerpose::skip_notice!("SKIP: the adapter offers no 4x MSAA for {CAPTURE_FORMAT:?}");
        return;
    }
    let (mut renderer, handles) = demo_renderer(&gpu, 4);
    assert_eq!(renderer.sample_count(), 4);
    let target = OffscreenTarget::new(&gpu, TARGET).expect("target");
    let frame = demo::frame(
        &handles,
        demo::camera(DemoView::Front, [100, 100]),
        DEMO_BEND,
        false,
    );
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let err = renderer
        .encode_in_rect(&mut encoder, &target.view, [0, 0, 100, 100], &frame)
        .expect_err("MSAA resolves the whole attachment");
    assert!(
        matches!(&err, RenderError::Gpu { detail, .. } if detail.contains("1 sample")),
        "{err}"
    );
}
