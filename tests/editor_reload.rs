//! Live reload under Xvfb: the editor follows its character file on disk. A rewrite with the
//! same rig and a new material shows the new material; a truncated file leaves the last good
//! character and says why; a renamed bone repairs the preset's override and reports it.
//! Skips loudly without Xvfb/xdotool or ../shared/models (unless `ANGLERPOSE_REQUIRE_GPU=1`
//! for the display tools).

mod support;

use std::path::Path;
use std::time::Duration;
use support::fs::fresh_scratch;
use support::gltf_edit::{Doc, shared_models};
use support::xwin::{Editor, Xvfb, read_layout, wait_for};

/// Writes through a temporary file and a rename, as most tools save.
fn write_then_rename(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn red_pixels(img: &image::RgbaImage, origin: [u32; 2], size: [u32; 2]) -> usize {
    let mut n = 0;
    for y in origin[1]..(origin[1] + size[1]).min(img.height()) {
        for x in origin[0]..(origin[0] + size[0]).min(img.width()) {
            let p = img.get_pixel(x, y).0;
            if p[0] > 120 && p[1] < 60 && p[2] < 60 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_editor_follows_the_character_file_on_disk() {
    let Some(models) = shared_models("the_editor_follows_the_character_file_on_disk") else {
        return;
    };
    let Some(x) = Xvfb::start("editor live reload") else {
        return;
    };
    let dir = fresh_scratch("reload");
    let file = dir.join("figure.glb");
    let original = std::fs::read(models.join("RiggedFigure.glb")).unwrap();
    std::fs::write(&file, &original).unwrap();
    // A preset with an override on the left hand, saved next to the character.
    let preset = dir.join("figure.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_anglerpose"))
        .arg("calibrate")
        .arg(&file)
        .arg("--out")
        .arg(&preset)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&preset).unwrap()).unwrap();
    json["humanoid_overrides"] = serde_json::json!({"left.hand": "arm_joint_L_3"});
    std::fs::write(&preset, serde_json::to_string_pretty(&json).unwrap()).unwrap();

    let (mut editor, layout) = Editor::start_laid_out(&x, &dir, "editor-reload", &preset);
    let (origin, size) = read_layout(&layout).unwrap();
    let before = x.capture_screen(&dir.join("before.png"));

    // 1. Same rig, red material, written through a rename: reloads and shows red.
    let mut doc = Doc::read(&file);
    for m in doc.json["materials"].as_array_mut().unwrap() {
        m["pbrMetallicRoughness"]["baseColorFactor"] = serde_json::json!([1.0, 0.0, 0.0, 1.0]);
    }
    write_then_rename(&file, &doc.bytes());
    wait_for("the reload", Duration::from_secs(20), || {
        editor.log_text().contains("reloaded")
    });
    std::thread::sleep(Duration::from_secs(2));
    editor.assert_alive("reloading a new material");
    if let (Some(before), Some(after)) = (before, x.capture_screen(&dir.join("after.png"))) {
        let (a, b) = (
            red_pixels(&before, origin, size),
            red_pixels(&after, origin, size),
        );
        assert!(
            b > a + 2000,
            "red pixels before {a}, after {b}: the new material shows"
        );
    }

    // 2. A truncated file, written in place: the message, and the last good character stays.
    let red = doc.bytes();
    std::fs::write(&file, &red[..red.len() / 3]).unwrap();
    wait_for(
        "the failed reload's message",
        Duration::from_secs(20),
        || editor.log_text().contains("the last good character stays"),
    );
    editor.assert_alive("a truncated character file");
    assert!(
        editor.log_text().contains("figure.glb"),
        "{}",
        editor.log_text()
    );
    std::thread::sleep(Duration::from_secs(1));
    if let Some(kept) = x.capture_screen(&dir.join("kept.png")) {
        let n = red_pixels(&kept, origin, size);
        assert!(
            n > 2000,
            "the last good (red) character is still drawn: {n} red pixels"
        );
    }

    // 3. The override's bone renamed: the override is dropped (detection finds the hand by its
    //    new name) and reported.
    let mut doc = Doc::read(&models.join("RiggedFigure.glb"));
    assert_eq!(doc.rename(&[("arm_joint_L_3".into(), "wrist_L".into())]), 1);
    write_then_rename(&file, &doc.bytes());
    wait_for("the override report", Duration::from_secs(20), || {
        let log = editor.log_text();
        log.contains("left.hand = \"arm_joint_L_3\"") && log.contains("detected instead")
    });
    assert!(
        editor.log_text().contains("wrist_L"),
        "{}",
        editor.log_text()
    );
    editor.assert_alive("a renamed bone");
}
