//! The editor's own egui pass (`editor::egui_draw`, no branches on uniforms, fast on software
//! rasterisers) draws the editor's side bar as egui-wgpu does: the same pixels, within
//! rounding, from the same tessellated frame and textures.

mod support;

use anglerpose::render::capture::OffscreenTarget;
use anglerpose::render::gpu::test_gpu;
use image::RgbaImage;
use support::editor::bundled_editor;
use support::egui_frame::{
    egui_wgpu_draw, egui_wgpu_renderer, ours_draw, ours_renderer, side_bar_frame,
};

// Tall enough that the flip debugger's plot (its own clip rects) is in view under the
// session panel: a frame of text alone tessellates to one job.
const SIZE: [u32; 2] = [420, 720];
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

fn max_channel_difference(a: &RgbaImage, b: &RgbaImage) -> (u8, usize) {
    let mut worst = 0;
    let mut over = 0;
    for (p, q) in a.pixels().zip(b.pixels()) {
        let d = (0..4).map(|i| p[i].abs_diff(q[i])).max().unwrap_or(0);
        worst = worst.max(d);
        over += usize::from(d > 2);
    }
    (worst, over)
}

#[test]
fn the_editors_egui_pass_draws_what_egui_wgpu_draws() {
    let Some(gpu) = test_gpu() else { return };
    let (jobs, deltas) = side_bar_frame(&mut bundled_editor(), SIZE);
    assert!(jobs.len() > 3 && !deltas.is_empty(), "a real frame");
    let clear = wgpu::Color {
        r: 0.02,
        g: 0.02,
        b: 0.025,
        a: 1.0,
    };

    // Ours.
    let mut ours = ours_renderer(&gpu, FORMAT, &deltas);
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    ours_draw(&gpu, &mut ours, &target.view, SIZE, clear, &jobs);
    let ours_img = target.read(&gpu).expect("readback");

    // egui-wgpu, without dithering (the one thing it adds).
    let mut reference = egui_wgpu_renderer(&gpu, FORMAT, &deltas, false);
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    egui_wgpu_draw(&gpu, &mut reference, &target.view, SIZE, clear, &jobs);
    let reference_img = target.read(&gpu).expect("readback");

    // Both drew the side bar: text and widgets, not just the clear colour.
    let background = reference_img.get_pixel(SIZE[0] - 1, SIZE[1] - 1).0;
    let drawn = reference_img.pixels().filter(|p| p.0 != background).count();
    assert!(
        drawn > 10_000,
        "the side bar covers the image ({drawn} pixels)"
    );
    let (worst, over) = max_channel_difference(&ours_img, &reference_img);
    assert!(
        worst <= 2,
        "largest channel difference {worst} ({over} pixels over 2)"
    );
}
