//! The lean UI for CPU rasterisers (`editor::lean_style`, issue 37 goal 4): on lavapipe every
//! UI triangle is set up one by one, and a rounded, feathered widget background is ~100 of
//! them. The editor's frame drawn lean has at most half the triangles of the round one and
//! the same text (glyph quads). It fails with `lean_style` a no-op (9,077 against 9,077).

mod support;

use anglerpose::editor::{UiState, ViewportImage, app_style, lean_style, ui};
use egui::epaint::{Primitive, WHITE_UV};

/// (all triangles, text triangles) of the bundled editor's 1280×720 frame as the window
/// tessellates it.
fn triangles(lean: bool) -> (usize, usize) {
    let ctx = egui::Context::default();
    app_style(&ctx);
    if lean {
        lean_style(&ctx);
    }
    let mut state = UiState::default();
    state.panels_on_clear = true;
    let mut ed = support::editor::bundled_editor();
    let mut prims = Vec::new();
    // A few frames: the first lays out without knowing sizes.
    for _ in 0..3 {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 720.0),
            )),
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |root| {
            state.show(
                root,
                &mut ed,
                ViewportImage::InPlace,
                &mut ui::Commands::default(),
            );
        });
        // The font atlas's uploads are not needed to count triangles.
        out.textures_delta.clear();
        let fill = ctx.global_style().visuals.panel_fill;
        state.drop_panel_fills(&mut out.shapes, fill);
        prims = ctx.tessellate(out.shapes, out.pixels_per_point);
    }
    let (mut all, mut text) = (0, 0);
    for p in &prims {
        if let Primitive::Mesh(m) = &p.primitive {
            for t in m.indices.chunks(3) {
                all += 1;
                if m.vertices[t[0] as usize].uv != WHITE_UV {
                    text += 1;
                }
            }
        }
    }
    (all, text)
}

#[test]
fn the_lean_ui_draws_the_same_text_with_half_the_triangles() {
    let (round, round_text) = triangles(false);
    let (lean, lean_text) = triangles(true);
    eprintln!("round: {round} triangles ({round_text} text); lean: {lean} ({lean_text} text)");
    assert!(round_text > 1000, "the frame shows its panels' text");
    assert_eq!(lean_text, round_text, "the same glyphs");
    assert!(
        2 * lean <= round,
        "lean {lean} triangles against {round}: not half"
    );
}
