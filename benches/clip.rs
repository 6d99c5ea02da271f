//! `export --animation`: baking the session clips (the session and one clip per phase at
//! 30 fps, 620 frames in all for the default parameters) with key reduction, and the whole
//! animated GLB. Prints each clip's size before and after reduction once.

use anglerpose::preset::{self, ClipOptions, io as preset_io};
use anglerpose::stage::{Stage, bundled_assets_dir};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn stage(preset: &str) -> Stage {
    let path = bundled_assets_dir().join("presets").join(preset);
    let p = preset_io::load_preset(&path).expect("preset");
    let (mut stage, _) = preset_io::load_stage(&path, &p).expect("stage");
    stage.update().expect("poses");
    stage
}

fn clips(c: &mut Criterion) {
    let mut group = c.benchmark_group("clip");
    group.sample_size(20);
    let options = ClipOptions::default();
    for (name, file) in [("two_bone", "seated_hold.json"), ("ccd", "ccd_arms.json")] {
        let mut s = stage(file);
        let baked = preset::bake_clips(&mut s, &options).expect("bakes");
        let frames: usize = baked.iter().map(|c| c.frames).sum();
        let before: usize = baked.iter().map(|c| c.bytes_before()).sum();
        let after: usize = baked.iter().map(|c| c.bytes_after()).sum();
        let keys_before: usize = baked.iter().map(|c| c.keys_before()).sum();
        let keys_after: usize = baked.iter().map(|c| c.keys_after()).sum();
        eprintln!(
            "{name}: {frames} frames in {} clips; keys {keys_before} -> {keys_after}; \
             keyframe data {:.1} KiB -> {:.1} KiB",
            baked.len(),
            before as f64 / 1024.0,
            after as f64 / 1024.0
        );
        group.bench_function(format!("bake_{frames}_frames/{name}"), |b| {
            b.iter(|| black_box(preset::bake_clips(&mut s, &options).unwrap()))
        });
    }
    let mut s = stage("seated_hold.json");
    group.bench_function("animated_glb/two_bone", |b| {
        b.iter(|| black_box(preset::animated_glb(&mut s, &options).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, clips);
criterion_main!(benches);
