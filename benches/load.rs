//! Loading mannequiny-0.3.0.glb to a ready rig: import (buffers, skeleton, bind pose, meshes)
//! plus the rest pose and the humanoid map. Skips when ../shared/models is absent.

use anglerpose::gltf_io;
use anglerpose::rig::{HumanoidMap, Pose};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

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

criterion_group!(benches, load_mannequiny);
criterion_main!(benches);
