//! Loading mannequiny-0.3.0.glb to a ready rig: import (buffers, skeleton, bind pose, meshes)
//! plus the rest pose and the humanoid map. Skips when ../shared/models is absent.
//!
//! FBX against glb (issue 35): Blender (`scripts/make_fbx_blender.py`) writes mannequiny
//! subdivided once (84k triangles) as FBX and as glb from the same scene, into
//! `target/bench-fbx/`; both load to a ready rig side by side. Skips loudly without bpy
//! (`ANGLERPOSE_BLENDER_PYTHON`, else `python3`).

use anglerpose::gltf_io;
use anglerpose::rig::{HumanoidMap, Pose};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;

fn load_mannequiny(c: &mut Criterion) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models/mannequiny-0.3.0.glb");
    if !path.exists() {
        anglerpose::skip_notice!("SKIP: {} is absent; load benchmark not run", path.display());
        return;
    }
    c.bench_function("load mannequiny-0.3.0.glb to rig + humanoid map", |b| {
        b.iter(|| {
            let character = gltf_io::load(black_box(&path)).expect("mannequiny loads");
            let rest = Pose::rest(&character.skeleton);
            let map = HumanoidMap::detect(&character.skeleton, &rest);
            black_box((character, rest, map))
        })
    });
}

/// `target/bench-fbx/mannequiny-84k.{fbx,glb}`, written by Blender when missing.
fn fbx_and_glb(model: &Path) -> Option<(PathBuf, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-fbx");
    let (fbx, glb) = (
        dir.join("mannequiny-84k.fbx"),
        dir.join("mannequiny-84k.glb"),
    );
    if fbx.exists() && glb.exists() {
        return Some((fbx, glb));
    }
    let python = std::env::var_os("ANGLERPOSE_BLENDER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("python3"));
    std::fs::create_dir_all(&dir).ok()?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/make_fbx_blender.py");
    let ok = Command::new(&python)
        .arg(script)
        .arg(model)
        .arg(&fbx)
        .args(["--subdivide", "1", "--glb"])
        .arg(&glb)
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some((fbx, glb))
}

fn load_fbx_against_glb(c: &mut Criterion) {
    let model =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models/mannequiny-0.3.0.glb");
    if !model.exists() {
        anglerpose::skip_notice!(
            "SKIP: {} is absent; FBX load benchmark not run",
            model.display()
        );
        return;
    }
    let Some((fbx, glb)) = fbx_and_glb(&model) else {
        anglerpose::skip_notice!(
            "SKIP: Blender's Python (bpy) could not write the FBX; FBX load benchmark not run"
        );
        return;
    };
    for (name, path) in [
        ("load/mannequiny-84k.glb", glb),
        ("load/mannequiny-84k.fbx", fbx),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let character = gltf_io::load(black_box(&path)).expect("loads");
                let rest = Pose::rest(&character.skeleton);
                let map = HumanoidMap::detect(&character.skeleton, &rest);
                black_box((character, rest, map))
            })
        });
    }
}

criterion_group!(benches, load_mannequiny, load_fbx_against_glb);
criterion_main!(benches);
