//! One tessellated egui frame of the editor's side bar, for the egui-pass test and bench.
#![allow(dead_code)]

use anglerpose::editor::egui_draw::EguiDraw;
use anglerpose::editor::{EditorState, UiState, ViewportImage, ui};
use anglerpose::render::Gpu;

/// Texture updates in the order egui sent them.
pub type Deltas = Vec<(egui::TextureId, egui::epaint::ImageDelta)>;

/// Two frames of `show` in a `size` screen on `ctx` (the first loads the fonts),
/// tessellated after `keep` edits the second frame's shapes: that frame's meshes and every
/// texture update of both.
fn two_frames(
    ctx: &egui::Context,
    size: [u32; 2],
    mut show: impl FnMut(&mut egui::Ui),
    keep: impl FnOnce(&mut Vec<egui::epaint::ClippedShape>),
) -> (Vec<egui::ClippedPrimitive>, Deltas) {
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(size[0] as f32, size[1] as f32),
        )),
        ..Default::default()
    };
    let mut deltas = Vec::new();
    let mut output = None;
    for _ in 0..2 {
        let mut out = ctx.run_ui(input(), &mut show);
        for (id, set) in std::mem::take(&mut out.textures_delta.set) {
            deltas.extend(set.into_iter().map(|d| (id, d)));
        }
        out.textures_delta.clear();
        output = Some(out);
    }
    let mut output = output.expect("two frames");
    keep(&mut output.shapes);
    let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
    (jobs, deltas)
}

/// Two frames of `ed`'s side bar in a `size` screen (the first loads the fonts), tessellated:
/// the second frame's meshes and every texture update of both.
pub fn side_bar_frame(
    ed: &mut EditorState,
    size: [u32; 2],
) -> (Vec<egui::ClippedPrimitive>, Deltas) {
    let show = |ui: &mut egui::Ui| ui::side_bar_ui(ui, ed, &mut ui::Commands::default());
    two_frames(&egui::Context::default(), size, show, |_| {})
}

/// Two frames of the whole editor window (`ui`'s panels and viewport, the 3D view shown as
/// `image`) in a `size` screen, tessellated, as [`side_bar_frame`], after
/// `UiState::drop_panel_fills` as the window does. `ui` keeps the layout
/// (`viewport_origin_pixels`).
pub fn window_frame(
    ed: &mut EditorState,
    ui_state: &mut UiState,
    image: ViewportImage,
    size: [u32; 2],
) -> (Vec<egui::ClippedPrimitive>, Deltas) {
    let ctx = egui::Context::default();
    anglerpose::editor::app_style(&ctx);
    let fill = ctx.global_style().visuals.panel_fill;
    let mut commands = ui::Commands::default();
    // Both closures need the UI state: laying out, then dropping the panel fills.
    let ui_state = std::cell::RefCell::new(ui_state);
    let show = |ui: &mut egui::Ui| ui_state.borrow_mut().show(ui, ed, image, &mut commands);
    two_frames(&ctx, size, show, |shapes| {
        ui_state.borrow().drop_panel_fills(shapes, fill)
    })
}

/// egui-wgpu, the reference, with `deltas` applied (`dithering` as given).
pub fn egui_wgpu_renderer(
    gpu: &Gpu,
    format: wgpu::TextureFormat,
    deltas: &Deltas,
    dithering: bool,
) -> egui_wgpu::Renderer {
    let options = egui_wgpu::RendererOptions {
        dithering,
        ..Default::default()
    };
    let mut renderer = egui_wgpu::Renderer::new(&gpu.device, format, options);
    for (id, delta) in deltas {
        renderer.update_texture(&gpu.device, &gpu.queue, *id, delta);
    }
    renderer
}

/// Draws `jobs` with egui-wgpu into `view` (`size` pixels, 1 pixel a point), cleared to
/// `clear`, and submits.
pub fn egui_wgpu_draw(
    gpu: &Gpu,
    renderer: &mut egui_wgpu::Renderer,
    view: &wgpu::TextureView,
    size: [u32; 2],
    clear: wgpu::Color,
    jobs: &[egui::ClippedPrimitive],
) {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: size,
        pixels_per_point: 1.0,
    };
    let mut encoder = device.create_command_encoder(&Default::default());
    let extra = renderer.update_buffers(device, queue, &mut encoder, jobs, &screen);
    {
        let pass = anglerpose::render::gpu::clear_pass(&mut encoder, "egui-wgpu", view, clear);
        renderer.render(&mut pass.forget_lifetime(), jobs, &screen);
    }
    queue.submit(extra.into_iter().chain([encoder.finish()]));
}

/// The editor's egui pass with `deltas` applied.
pub fn ours_renderer(gpu: &Gpu, format: wgpu::TextureFormat, deltas: &Deltas) -> EguiDraw {
    let mut ours = EguiDraw::new(&gpu.device, format);
    for (id, delta) in deltas {
        ours.update_texture(&gpu.device, &gpu.queue, *id, delta);
    }
    ours
}

/// Draws `jobs` with the editor's pass into `view` (`size` pixels, 1 pixel a point), cleared
/// to `clear`, and submits.
pub fn ours_draw(
    gpu: &Gpu,
    ours: &mut EguiDraw,
    view: &wgpu::TextureView,
    size: [u32; 2],
    clear: wgpu::Color,
    jobs: &[egui::ClippedPrimitive],
) {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut encoder = device.create_command_encoder(&Default::default());
    ours.draw(device, queue, &mut encoder, view, size, 1.0, clear, jobs);
    queue.submit([encoder.finish()]);
}
