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

use anglerpose::editor::egui_draw::EguiDraw;
use anglerpose::render::Gpu;
use anglerpose::render::capture::OffscreenTarget;
use criterion::{Criterion, criterion_group, criterion_main};

const SIZE: [u32; 2] = [1280, 720];
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
const CLEAR: wgpu::Color = wgpu::Color::BLACK;

fn benches(c: &mut Criterion) {
    let gpu = match Gpu::new_headless() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("SKIP: no GPU adapter ({e})");
            return;
        }
    };
    eprintln!("adapter: {}", gpu.describe());
    let (device, queue) = (&gpu.device, &gpu.queue);
    let (jobs, deltas) = egui_frame::side_bar_frame(&mut editor::bundled_editor(), SIZE);
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    let wait = || {
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
    };

    let mut ours = EguiDraw::new(device, FORMAT);
    for (id, delta) in &deltas {
        ours.update_texture(device, queue, *id, delta);
    }
    c.bench_function("egui_pass/editor_1280x720", |b| {
        b.iter(|| {
            let mut encoder = device.create_command_encoder(&Default::default());
            ours.draw(
                device,
                queue,
                &mut encoder,
                &target.view,
                SIZE,
                1.0,
                CLEAR,
                &jobs,
            );
            queue.submit([encoder.finish()]);
            wait();
        })
    });

    let mut reference = egui_wgpu::Renderer::new(device, FORMAT, Default::default());
    for (id, delta) in &deltas {
        reference.update_texture(device, queue, *id, delta);
    }
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: SIZE,
        pixels_per_point: 1.0,
    };
    c.bench_function("egui_pass/egui_wgpu_1280x720", |b| {
        b.iter(|| {
            let mut encoder = device.create_command_encoder(&Default::default());
            let extra = reference.update_buffers(device, queue, &mut encoder, &jobs, &screen);
            {
                let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui-wgpu"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &target.view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(CLEAR),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                });
                let mut pass = pass.forget_lifetime();
                reference.render(&mut pass, &jobs, &screen);
            }
            queue.submit(extra.into_iter().chain([encoder.finish()]));
            wait();
        })
    });
}

criterion_group!(egui_pass, benches);
criterion_main!(egui_pass);
