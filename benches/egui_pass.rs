//! The editor's egui pass against egui-wgpu's, side by side on the same tessellated frame:
//! the editor's side bar filling a 1280×720 target (text, sliders, plots), drawn, submitted
//! and waited for (no readback). On software rasterisers (lavapipe) egui-wgpu's fragment
//! shader pays for its uniform branches on every pixel; `editor::egui_draw` has none.
//!
//! Prints a SKIP line and exits cleanly when no adapter exists.

#[path = "../tests/support/editor.rs"]
mod editor;
#[path = "../tests/support/egui_frame.rs"]
mod egui_frame;

use anglerpose::render::capture::OffscreenTarget;
use criterion::{Criterion, criterion_group, criterion_main};

const SIZE: [u32; 2] = [1280, 720];
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const CLEAR: wgpu::Color = wgpu::Color::BLACK;

fn benches(c: &mut Criterion) {
    let Some(gpu) = anglerpose::render::gpu::test_gpu() else {
        return;
    };
    eprintln!("adapter: {}", gpu.describe());
    let device = &gpu.device;
    let (jobs, deltas) = egui_frame::side_bar_frame(&mut editor::bundled_editor(), SIZE);
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    let wait = || {
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
    };

    let mut ours = egui_frame::ours_renderer(&gpu, FORMAT, &deltas);
    c.bench_function("egui_pass/editor_1280x720", |b| {
        b.iter(|| {
            egui_frame::ours_draw(&gpu, &mut ours, &target.view, SIZE, CLEAR, &jobs);
            wait();
        })
    });

    let mut reference = egui_frame::egui_wgpu_renderer(&gpu, FORMAT, &deltas, true);
    c.bench_function("egui_pass/egui_wgpu_1280x720", |b| {
        b.iter(|| {
            egui_frame::egui_wgpu_draw(&gpu, &mut reference, &target.view, SIZE, CLEAR, &jobs);
            wait();
        })
    });
}

criterion_group!(egui_pass, benches);
criterion_main!(egui_pass);
