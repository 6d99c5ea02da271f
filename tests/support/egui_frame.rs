//! One tessellated egui frame of the editor's side bar, for the egui-pass test and bench.
#![allow(dead_code)]

use anglerpose::editor::{EditorState, ui};

/// Texture updates in the order egui sent them.
pub type Deltas = Vec<(egui::TextureId, egui::epaint::ImageDelta)>;

/// Two frames of `ed`'s side bar in a `size` screen (the first loads the fonts), tessellated:
/// the second frame's meshes and every texture update of both.
pub fn side_bar_frame(
    ed: &mut EditorState,
    size: [u32; 2],
) -> (Vec<egui::ClippedPrimitive>, Deltas) {
    let ctx = egui::Context::default();
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
        let mut out = ctx.run_ui(input(), |ui| {
            let mut commands = ui::Commands::default();
            ui::side_bar_ui(ui, ed, &mut commands);
        });
        for (id, set) in std::mem::take(&mut out.textures_delta.set) {
            deltas.extend(set.into_iter().map(|d| (id, d)));
        }
        out.textures_delta.clear();
        output = Some(out);
    }
    let output = output.expect("two frames");
    let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
    (jobs, deltas)
}
