//! `anglerpose calibrate` per character: the prepared actor (framed, seated, fitted)
//! calibrated over 600 timeline samples on all cores. Loading and preparing are outside the
//! timed loop; every iteration calibrates a stage of its own, as `anglerpose calibrate`
//! does (an actor's grip memo would otherwise hold every grip from the iteration before).
//! Characters from ../shared/models are skipped when absent.

use anglerpose::fishing::calibrate;
use anglerpose::gltf_io;
use anglerpose::stage::{Props, Stage, bundled_assets_dir};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

fn calibrate_characters(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let threads = anglerpose::fishing::default_threads();
    let mut group = c.benchmark_group("calibrate_600");
    group.sample_size(10);
    for (name, path) in [
        ("angler", root.join("assets/angler.glb")),
        (
            "mannequiny",
            root.join("../shared/models/mannequiny-0.3.0.glb"),
        ),
        ("cesiumman", root.join("../shared/models/CesiumMan.glb")),
        (
            "riggedfigure",
            root.join("../shared/models/RiggedFigure.glb"),
        ),
        (
            "kaykit",
            root.join("../shared/models/KayKit_Mannequin/manny_med_mod.gltf"),
        ),
    ] {
        if !path.exists() {
            anglerpose::skip_notice!("SKIP: {} is absent; not benchmarked", path.display());
            continue;
        }
        let character = gltf_io::load(&path).expect("loads");
        let props = Props::load(&bundled_assets_dir()).expect("props");
        let stage = || Stage::new(character.clone(), props.clone()).expect("humanoid");
        group.bench_function(name, |b| {
            b.iter_batched(
                stage,
                |stage| {
                    calibrate(
                        black_box(&stage.actor),
                        &stage.inputs.settings,
                        &stage.inputs.state.params,
                        600,
                        threads,
                    )
                    .expect("calibrates")
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, calibrate_characters);
criterion_main!(benches);
