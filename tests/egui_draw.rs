//! The editor's own egui pass (`editor::egui_draw`, no branches on uniforms, fast on software
//! rasterisers) draws the editor's side bar as egui-wgpu does: the same pixels, within
//! rounding, from the same tessellated frame and textures.

mod support;

use anglerpose::editor::egui_draw::EguiDraw;
use anglerpose::render::capture::OffscreenTarget;
use anglerpose::render::gpu::test_gpu;
use image::RgbaImage;
use support::editor::bundled_editor;
use support::egui_frame::side_bar_frame;

const SIZE: [u32; 2] = [420, 560];
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
    let (device, queue) = (&gpu.device, &gpu.queue);
    let clear = wgpu::Color {
        r: 0.02,
        g: 0.02,
        b: 0.025,
        a: 1.0,
    };

    // Ours.
    let mut ours = EguiDraw::new(device, FORMAT);
    for (id, delta) in &deltas {
        ours.update_texture(device, queue, *id, delta);
    }
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
    let mut encoder = device.create_command_encoder(&Default::default());
    ours.draw(
        device,
        queue,
        &mut encoder,
        &target.view,
        SIZE,
        1.0,
        clear,
        &jobs,
    );
    queue.submit([encoder.finish()]);
    let ours_img = target.read(&gpu).expect("readback");

    // egui-wgpu, without dithering (the one thing it adds).
    let options = egui_wgpu::RendererOptions {
        dithering: false,
        ..Default::default()
    };
    let mut reference = egui_wgpu::Renderer::new(device, FORMAT, options);
    for (id, delta) in &deltas {
        reference.update_texture(device, queue, *id, delta);
    }
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: SIZE,
        pixels_per_point: 1.0,
    };
    let target = OffscreenTarget::with_format(&gpu, SIZE, FORMAT).expect("target");
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
                    load: wgpu::LoadOp::Clear(clear),
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
