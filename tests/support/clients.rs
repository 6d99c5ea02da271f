//! Real clients that play exported clips: three.js r187 in node (AnimationMixer) and Blender's
//! glTF importer through `bpy`. Each returns world positions in glTF coordinates.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// three.js plays `clip` of `glb` and reports every node's world position at `times`:
/// node index → one position per time.
pub fn threejs_clip(glb: &Path, clip: &str, times: &[f64]) -> BTreeMap<usize, Vec<[f64; 3]>> {
    let list: Vec<String> = times.iter().map(|t| format!("{t}")).collect();
    let out = Command::new("node")
        .arg(repo_file("scripts/check_export_threejs.mjs"))
        .args(["--clip", clip, "--times", &list.join(",")])
        .arg(glb)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "three.js clip check failed on {}: {}",
        glb.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["revision"], "187");
    json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["node"].as_u64().unwrap() as usize,
                positions(&n["positions"]),
            )
        })
        .collect()
}

fn positions(v: &serde_json::Value) -> Vec<[f64; 3]> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p = p.as_array().unwrap();
            [0, 1, 2].map(|i| p[i].as_f64().unwrap())
        })
        .collect()
}

/// The Python that has Blender's `bpy`: `ANGLERPOSE_BLENDER_PYTHON`, else `python3` when it
/// imports bpy. `None` prints a loud SKIP; with `ANGLERPOSE_REQUIRE_BLENDER=1` (CI) it panics.
pub fn blender_python(test: &str) -> Option<PathBuf> {
    let candidate = std::env::var_os("ANGLERPOSE_BLENDER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("python3"));
    let ok = Command::new(&candidate)
        .args(["-c", "import bpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(candidate);
    }
    let msg = format!(
        "{test}: Blender's Python module is not installed ({} cannot import bpy; \
         `pip install bpy==4.5.15` and set ANGLERPOSE_BLENDER_PYTHON)",
        candidate.display()
    );
    if std::env::var("ANGLERPOSE_REQUIRE_BLENDER").as_deref() == Ok("1") {
        panic!("{msg}, and ANGLERPOSE_REQUIRE_BLENDER=1");
    }
    anglerpose::skip_notice!("\n*** SKIP: {msg} ***\n");
    None
}

/// What Blender's importer makes of a clip: pose-bone heads by bone name and the world
/// positions of animated objects by object name, one per frame.
pub struct BlenderClip {
    pub version: String,
    pub bones: BTreeMap<String, Vec<[f64; 3]>>,
    pub objects: BTreeMap<String, Vec<[f64; 3]>>,
}

/// Blender imports `glb` at `fps` and plays `clip` at `frames`.
pub fn blender_clip(
    python: &Path,
    glb: &Path,
    clip: &str,
    fps: u32,
    frames: &[u32],
) -> BlenderClip {
    let list: Vec<String> = frames.iter().map(|f| f.to_string()).collect();
    let out = Command::new(python)
        .arg(repo_file("scripts/check_clip_blender.py"))
        .arg(glb)
        .args([
            "--clip",
            clip,
            "--fps",
            &fps.to_string(),
            "--frames",
            &list.join(","),
        ])
        .output()
        .expect("run Blender's python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "Blender clip check failed on {}: {}\n{stdout}",
        glb.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    // The importer logs to stdout too; the JSON is the last line.
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .expect("JSON line");
    let json: serde_json::Value = serde_json::from_str(line).unwrap();
    let map = |v: &serde_json::Value| {
        v.as_object()
            .unwrap()
            .iter()
            .map(|(k, p)| (k.clone(), positions(p)))
            .collect()
    };
    BlenderClip {
        version: json["blender"].as_str().unwrap().to_string(),
        bones: map(&json["bones"]),
        objects: map(&json["objects"]),
    }
}
