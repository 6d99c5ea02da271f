//! The window's UI pass (`Gfx::draw_ui`): the 3D view is a paint callback that the pass hands
//! over in egui's order, between the UI under it and the labels over it; and panels that
//! leave their fill to the clear colour (`UiState::panels_on_clear`) look the same.
//!
//! GPU tests skip loudly without an adapter, unless `ANGLERPOSE_REQUIRE_GPU=1`.

mod support;

use anglerpose::editor::egui_draw::Callback;
use anglerpose::editor::{InPlaceViewport, UiState, ViewportImage};
use anglerpose::render::capture::OffscreenTarget;
use anglerpose::render::gpu::{colour_pass, test_gpu};
use egui::epaint::Primitive;
use support::editor::bundled_editor;
use support::egui_frame::{ours_draw, ours_renderer, window_frame};

const SIZE: [u32; 2] = [1000, 640];
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const BLUE: [u8; 4] = [0, 0, 255, 255];

fn inside(rect: [u32; 4], x: u32, y: u32) -> bool {
    (rect[0]..rect[0] + rect[2]).contains(&x) && (rect[1]..rect[1] + rect[3]).contains(&y)
}

#[test]
fn the_viewport_is_drawn_in_its_place_between_the_ui_below_and_the_labels_above() {
    let mut ui = UiState::default();
    let (jobs, deltas) = window_frame(&mut bundled_editor(), &mut ui, ViewportImage::InPlace, SIZE);
    let viewport = ui.viewport_origin_pixels;
    assert!(
        viewport[2] > 200 && viewport[3] > 200,
        "viewport {viewport:?}"
    );
    let callbacks = jobs
        .iter()
        .filter(|j| {
            matches!(&j.primitive, Primitive::Callback(cb)
                if cb.callback.downcast_ref::<InPlaceViewport>().is_some())
        })
        .count();
    assert_eq!(callbacks, 1, "one in-place viewport callback");

    let Some(gpu) = test_gpu() else { return };
    let mut ours = ours_renderer(&gpu, FORMAT, &deltas);
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut encoder = device.create_command_encoder(&Default::default());
    // The hook paints the whole target blue: what egui drew before it is covered, what it
    // draws after shows on top.
    let mut painted = Vec::new();
    let mut paint =
        |encoder: &mut wgpu::CommandEncoder, view: &wgpu::TextureView, cb: &Callback| {
            painted.push(cb.rect);
            let blue = wgpu::Color {
                r: 0.0,
                g: 0.0,
                b: 1.0,
                a: 1.0,
            };
            drop(colour_pass(
                encoder,
                "hook",
                view,
                wgpu::LoadOp::Clear(blue),
            ));
        };
    let clear = wgpu::Color::BLACK;
    ours.draw_with(
        device,
        queue,
        &mut encoder,
        &target.view,
        SIZE,
        1.0,
        clear,
        &jobs,
        &mut paint,
    );
    queue.submit([encoder.finish()]);
    let img = target.read(&gpu).expect("readback");

    assert_eq!(
        painted,
        vec![viewport],
        "the hook gets the viewport's pixel rectangle"
    );
    let (mut above_inside, mut above_outside) = (0, 0);
    for (x, y, p) in img.enumerate_pixels() {
        if p.0 != BLUE {
            if inside(viewport, x, y) {
                above_inside += 1;
            } else {
                above_outside += 1;
            }
        }
    }
    // The panels, their text and widgets came first: all covered.
    assert_eq!(
        above_outside, 0,
        "UI pixels drawn after the viewport outside it"
    );
    // The viewport's own labels (view name, hint) come after it.
    assert!(
        above_inside > 500,
        "only {above_inside} label pixels over the viewport"
    );

    // Without the hook the same jobs draw the UI only: the panels are there.
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    ours_draw(&gpu, &mut ours, &target.view, SIZE, clear, &jobs);
    let plain = target.read(&gpu).expect("readback");
    let ui_pixels = plain
        .enumerate_pixels()
        .filter(|(x, y, p)| !inside(viewport, *x, *y) && p.0 != [0, 0, 0, 255])
        .count();
    assert!(ui_pixels > 100_000, "{ui_pixels} panel pixels");
}

/// Twice the area egui's triangles cover in `jobs` (points²).
fn covered_area(jobs: &[egui::ClippedPrimitive]) -> f32 {
    let mut area = 0.0;
    for job in jobs {
        let Primitive::Mesh(mesh) = &job.primitive else {
            continue;
        };
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].pos);
            area += ((b - a).x * (c - a).y - (b - a).y * (c - a).x).abs();
        }
    }
    area
}

#[test]
fn panels_that_leave_their_fill_to_the_clear_colour_look_the_same_and_draw_less() {
    let mut filled_ui = UiState::default();
    let (filled, deltas) = window_frame(
        &mut bundled_editor(),
        &mut filled_ui,
        ViewportImage::None,
        SIZE,
    );
    let mut cleared_ui = UiState::default();
    cleared_ui.panels_on_clear = true;
    let (on_clear, _) = window_frame(
        &mut bundled_editor(),
        &mut cleared_ui,
        ViewportImage::None,
        SIZE,
    );
    let viewport = filled_ui.viewport_origin_pixels;
    assert_eq!(viewport, cleared_ui.viewport_origin_pixels, "same layout");
    // The panels' fill was most of the window's area.
    let (a, b) = (covered_area(&filled), covered_area(&on_clear));
    let window = 2.0 * (SIZE[0] * SIZE[1]) as f32;
    assert!(
        a - b > 0.3 * window,
        "covered {a} filled vs {b} on the clear"
    );

    let Some(gpu) = test_gpu() else { return };
    let ctx = egui::Context::default();
    anglerpose::editor::app_style(&ctx);
    let panel_fill = ctx.global_style().visuals.panel_fill;
    let [r, g, b, _] = panel_fill.to_array().map(|v| f64::from(v) / 255.0);
    let draw = |jobs: &[egui::ClippedPrimitive], clear: wgpu::Color| {
        let mut ours = ours_renderer(&gpu, FORMAT, &deltas);
        let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
        ours_draw(&gpu, &mut ours, &target.view, SIZE, clear, jobs);
        target.read(&gpu).expect("readback")
    };
    let filled = draw(&filled, wgpu::Color::BLACK);
    let on_clear = draw(&on_clear, wgpu::Color { r, g, b, a: 1.0 });
    // Outside the viewport (and the one-pixel feather along its edge) the same picture.
    let grown = [
        viewport[0] - 1,
        viewport[1] - 1,
        viewport[2] + 2,
        viewport[3] + 2,
    ];
    let mut worst = 0;
    let mut compared = 0;
    for ((x, y, p), q) in filled.enumerate_pixels().zip(on_clear.pixels()) {
        if !inside(grown, x, y) {
            compared += 1;
            worst = worst.max((0..4).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0));
        }
    }
    assert!(compared > 200_000, "{compared} pixels compared");
    assert!(worst <= 1, "largest channel difference {worst}");
    assert_eq!(
        on_clear.get_pixel(5, SIZE[1] / 2).0[..3],
        panel_fill.to_array()[..3]
    );
}
