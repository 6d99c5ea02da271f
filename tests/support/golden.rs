//! Golden-image comparison shared by the GPU tests. Refresh with `ANGLERPOSE_UPDATE_GOLDEN=1`.
#![allow(dead_code)]

use image::RgbaImage;

/// Pixels whose largest channel difference exceeds this count as different.
pub const GOLDEN_CHANNEL_TOLERANCE: u8 = 8;
/// At least this fraction of pixels must be within the channel tolerance.
pub const GOLDEN_MIN_MATCHING: f64 = 0.995;

/// Fraction of pixels whose channels all differ by at most `GOLDEN_CHANNEL_TOLERANCE`.
pub fn matching_fraction(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let total = a.pixels().len().max(1);
    let matching = a
        .pixels()
        .zip(b.pixels())
        .filter(|(a, b)| (0..4).all(|i| a.0[i].abs_diff(b.0[i]) <= GOLDEN_CHANNEL_TOLERANCE))
        .count();
    matching as f64 / total as f64
}

/// Compares `img` with `tests/golden/<name>`, or rewrites the golden when
/// `ANGLERPOSE_UPDATE_GOLDEN=1`. On mismatch the actual image is saved to the temp folder.
pub fn check_golden(name: &str, img: &RgbaImage) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var("ANGLERPOSE_UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        img.save(&path)
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        eprintln!("updated golden {}", path.display());
        return;
    }
    let golden = image::open(&path)
        .unwrap_or_else(|e| {
            panic!(
                "reading golden {}: {e} (create it with ANGLERPOSE_UPDATE_GOLDEN=1)",
                path.display()
            )
        })
        .to_rgba8();
    assert_eq!(
        golden.dimensions(),
        img.dimensions(),
        "{name}: size differs from golden"
    );
    let fraction = matching_fraction(img, &golden);
    if fraction < GOLDEN_MIN_MATCHING {
        let actual = std::env::temp_dir().join(format!("actual-{name}"));
        let _ = img.save(&actual);
        panic!(
            "{name}: only {:.3}% of pixels within ±{GOLDEN_CHANNEL_TOLERANCE} of the golden \
             (need {:.1}%); actual image saved to {}",
            fraction * 100.0,
            GOLDEN_MIN_MATCHING * 100.0,
            actual.display()
        );
    }
}
