//! Renderer benchmarks on whatever adapter exists (lavapipe/llvmpipe without a GPU):
//! - `frame_1280x720_overlays_msaa{4,1}`: one offscreen frame of the synthetic demo scene with
//!   overlays (prepare + encode + submit + wait; no readback), with and without MSAA;
//! - `prepare_frame_data`: CPU time to build the `FrameData` (skin matrices + overlays);
//!
//! Prints a SKIP line and exits cleanly when no adapter exists.

use anglerpose::render::capture::{CAPTURE_FORMAT, OffscreenTarget};
use anglerpose::render::demo::{self, DemoView};
use anglerpose::render::{Gpu, Renderer};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let gpu = match Gpu::new_headless() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("SKIP: no GPU adapter ({e})");
            return;
        }
    };
    eprintln!("adapter: {}", gpu.describe());
    let size = [1280, 720];
    let camera = demo::camera(DemoView::ThreeQuarter, size);
    let target = OffscreenTarget::new(&gpu, size).expect("target");
    let handles_for = |renderer: &mut Renderer| -> Vec<_> {
        demo::meshes()
            .iter()
            .map(|m| renderer.upload_mesh(m).expect("demo meshes are valid"))
            .collect()
    };

    {
        let mut renderer = Renderer::new(&gpu, CAPTURE_FORMAT, 1);
        let handles = handles_for(&mut renderer);
        c.bench_function("prepare_frame_data", |b| {
            let mut t = 0.0f32;
            b.iter(|| {
                t += 0.01;
                let bend = [0.15, 0.7 + 0.2 * t.sin(), 0.5];
                black_box(demo::frame(&handles, camera, bend, true))
            })
        });
    }

    let mut group = c.benchmark_group("render");
    group.sample_size(20);
    let best = gpu.best_sample_count(CAPTURE_FORMAT);
    for samples in [best, 1] {
        let mut renderer = Renderer::new(&gpu, CAPTURE_FORMAT, samples);
        let handles = handles_for(&mut renderer);
        let name = format!("frame_1280x720_overlays_msaa{}", renderer.sample_count());
        group.bench_function(&name, |b| {
            let mut t = 0.0f32;
            b.iter(|| {
                t += 0.01;
                let bend = [0.15, 0.7 + 0.2 * t.sin(), 0.5];
                let frame = demo::frame(&handles, camera, bend, true);
                renderer.render(&target.view, &frame).expect("render");
                gpu.device
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("device poll");
            })
        });
    }
    group.finish();
}

criterion_group!(render, benches);
criterion_main!(render);
