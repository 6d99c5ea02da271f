//! Pixels of rendered images.
#![allow(dead_code)]

use image::RgbaImage;

/// `0xRRGGBB` as bytes.
pub fn hex_rgb(hex: u32) -> [u8; 3] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8]
}

/// The colour at `p` (pixels, clamped into the image).
pub fn pixel(img: &RgbaImage, p: [f32; 2]) -> [u8; 3] {
    let x = (p[0].floor() as i64).clamp(0, i64::from(img.width()) - 1) as u32;
    let y = (p[1].floor() as i64).clamp(0, i64::from(img.height()) - 1) as u32;
    let c = img.get_pixel(x, y).0;
    [c[0], c[1], c[2]]
}

/// How many pixels of `a` and `b` (the same size) differ by more than `tolerance` in some
/// colour channel.
pub fn differing_pixels(a: &RgbaImage, b: &RgbaImage, tolerance: u8) -> usize {
    a.pixels()
        .zip(b.pixels())
        .filter(|(p, q)| (0..3).any(|k| p.0[k].abs_diff(q.0[k]) > tolerance))
        .count()
}

/// Per-channel tolerance of the editor-window comparisons below.
pub const WINDOW_TOLERANCE: u8 = 12;

/// `shot` (an editor viewport screenshot) is not an empty background: over a tenth of it
/// differs from its top-left corner's colour.
pub fn assert_drawn(shot: &RgbaImage) {
    let flat = RgbaImage::from_pixel(shot.width(), shot.height(), *shot.get_pixel(0, 0));
    let drawn = differing_pixels(shot, &flat, WINDOW_TOLERANCE);
    assert!(
        drawn * 10 > (shot.width() * shot.height()) as usize,
        "only {drawn} pixels differ from the background"
    );
}

/// The region of `screen` at `at` (pixels) shows `shot`: under a tenth of its pixels differ
/// (labels drawn over the viewport). `dir` is named in the failure for the images.
pub fn assert_screen_shows(
    screen: &RgbaImage,
    at: [u32; 2],
    shot: &RgbaImage,
    dir: &std::path::Path,
) {
    let [w, h] = [shot.width(), shot.height()];
    let region = image::imageops::crop_imm(screen, at[0], at[1], w, h).to_image();
    let off = differing_pixels(&region, shot, WINDOW_TOLERANCE);
    assert!(
        off * 10 < (w * h) as usize,
        "{off} of {} viewport pixels on screen differ from the screenshot (see {})",
        w * h,
        dir.display()
    );
}
