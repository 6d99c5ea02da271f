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
