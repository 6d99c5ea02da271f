//! Renderer benchmarks on whatever adapter exists (lavapipe/llvmpipe without a GPU):
//! - `frame_1280x720_overlays_msaa{4,1}`: one offscreen frame of the synthetic demo scene with
//!   overlays (prepare + encode + submit + wait; no readback), with and without MSAA;
//! - `prepare_frame_data`: CPU time to build the `FrameData` (skin matrices + overlays);
//!
//! Prints a SKIP line and exits cleanly when no adapter exists.

use anglerpose::render::capture::{CAPTURE_FORMAT, OffscreenTarget};
#[path = "../tests/support/demo.rs"]
mod demo;

use anglerpose::render::{Gpu, Renderer};
use criterion::{Criterion, criterion_group, criterion_main};
use demo::DemoView;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let Some(gpu) = anglerpose::render::gpu::test_gpu() else {
        return;
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
    angler(c, &gpu, &target);
}

/// The bundled angler: CPU time to pose and build its draw data, and one 1280×720 frame with
/// overlays.
fn angler(c: &mut Criterion, gpu: &Gpu, target: &OffscreenTarget) {
    use anglerpose::fishing::SessionState;
    use anglerpose::stage::{CameraPreset, Stage, ViewOptions, camera_for};
    let mut stage = Stage::bundled().expect("bundled stage");
    let camera = camera_for(CameraPreset::ThreeQuarter, [1280, 720]);
    let view = ViewOptions::default();
    let params = stage.inputs.state.params;
    let mut k = 0usize;
    let mut step = move |stage: &mut Stage| {
        k = (k + 1) % 600;
        stage.inputs.state = SessionState::at_fraction(k as f64 / 599.0, params);
        stage.update().expect("pose");
        stage.frame(camera, &view)
    };
    c.bench_function("angler/pose_and_prepare_frame_data", |b| {
        b.iter(|| black_box(step(&mut stage)))
    });
    let mut group = c.benchmark_group("angler");
    group.sample_size(20);
    for samples in [gpu.best_sample_count(CAPTURE_FORMAT), 1] {
        let mut renderer = Renderer::new(gpu, CAPTURE_FORMAT, samples);
        for mesh in stage.mesh_data() {
            renderer
                .upload_mesh(&mesh)
                .expect("angler meshes are valid");
        }
        if samples == 1 {
            // The compute skinning pass alone (the angler's 23k vertices), waited for.
            let frame = step(&mut stage);
            group.bench_function("skinning_pass", |b| {
                b.iter(|| {
                    black_box(renderer.skin_only(&frame));
                    gpu.device
                        .poll(wgpu::PollType::wait_indefinitely())
                        .expect("device poll");
                })
            });
        }
        let name = format!("frame_1280x720_overlays_msaa{}", renderer.sample_count());
        group.bench_function(&name, |b| {
            b.iter(|| {
                let frame = step(&mut stage);
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
