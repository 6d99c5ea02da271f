//! `anglerpose stability` (issue 36): per arm the margin and the slice's classes as JSON, the
//! slice picture drawn from the same samples, and bad arguments refused with a reason.

mod support;

use std::process::Command;

fn stability(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("stability")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The class colours of the picture (as `cli/stability.rs` draws them).
const COLOURS: [(&str, [u8; 3]); 4] = [
    ("stable", [70, 160, 90]),
    ("sensitive", [230, 180, 50]),
    ("flipped", [210, 60, 60]),
    ("out_of_reach", [110, 110, 120]),
];

#[test]
fn margins_and_the_slice_picture_agree_with_the_samples() {
    let png = support::fs::fresh_scratch("cli-stability").join("slice.png");
    let png_arg = png.to_str().unwrap();
    let args = [
        "--phase",
        "landing",
        "--t",
        "0.5",
        "--extent",
        "0.3",
        "--samples",
        "33",
        "--json",
        "--out",
        png_arg,
    ];
    let (ok, stdout, stderr) = stability(&args);
    assert!(ok, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["phase"], "landing");
    let img = image::open(&png).unwrap().to_rgba8();
    // Two 33-cell slices of 8 px with 16 px margins and gaps.
    assert_eq!(img.dimensions(), (3 * 16 + 2 * 33 * 8, 33 * 8 + 32));
    let mut flipped = 0;
    for (i, side) in ["left", "right"].iter().enumerate() {
        let arm = &v["arms"][side];
        assert_eq!(arm["reached"], true, "{side}: {arm}");
        let margin = arm["margin_m"].as_f64().unwrap();
        assert!(
            margin > 0.0 && margin <= 0.3 * 3f64.sqrt(),
            "{side}: {margin}"
        );
        let counts = &arm["slice"]["counts"];
        let total: u64 = COLOURS
            .iter()
            .map(|(k, _)| counts[k].as_u64().unwrap())
            .sum();
        assert_eq!(total, 33 * 33, "{side}: {counts}");
        flipped += counts["flipped"].as_u64().unwrap();
        // Each cell's middle pixel has its class's colour, as many as the counts say.
        let left = 16 + i as u32 * (33 * 8 + 16);
        for (name, rgb) in COLOURS {
            let drawn = (0..33u32)
                .flat_map(|cx| (0..33u32).map(move |cy| (cx, cy)))
                .filter(|&(cx, cy)| {
                    let p = img.get_pixel(left + cx * 8 + 4, 16 + cy * 8 + 4);
                    p.0[..3] == rgb
                })
                .count() as u64;
            assert_eq!(drawn, counts[name].as_u64().unwrap(), "{side} {name}");
        }
        // The target's cell is outlined in white.
        let corner = img.get_pixel(left + 16 * 8, 16 + 16 * 8);
        assert_eq!(corner.0, [255, 255, 255, 255], "{side}");
    }
    // The landing's arms meet the turn of their bend planes within 30 cm.
    assert!(flipped > 0, "no flipped sample in either slice");
}

#[test]
fn text_output_names_each_arm_and_its_margin() {
    let (ok, stdout, stderr) = stability(&["--phase", "retrieve", "--t", "0.5"]);
    assert!(ok, "{stderr}");
    for side in [
        "left arm (two-bone): margin",
        "right arm (two-bone): margin",
    ] {
        assert!(stdout.contains(side), "{stdout}");
    }
    assert!(stdout.contains("slice through the bend plane"), "{stdout}");
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    for (args, says) in [
        (&["--samples", "32"][..], "odd"),
        (&["--extent", "0"][..], "--extent"),
        (&["--t", "2"][..], "outside 0..1"),
        (
            &["--preset", "no/such/preset.json"][..],
            "no/such/preset.json",
        ),
    ] {
        let (ok, _, stderr) = stability(args);
        assert!(!ok, "{args:?} ran");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
