//! CCD benches (included by `benches/ik.rs`): one frame of every oracle scene in
//! `tests/fixtures/ccd`, named `ccd/<scene>`.
//!
//! Unit of work, identical to `scripts/bench_threejs_ccd.mjs` for three.js: restore the initial
//! local rotation of every chain link (the only bones the solver writes), refresh the world
//! transforms of each chain's top-link subtree (the only stale ones), then run one
//! `update(globalBlendFactor)` — so every iteration solves the same first frame. Nothing is
//! allocated inside the loop.

use anglerpose::ik::ccd::{CcdReport, CcdWorkspace};
use anglerpose::oracle;
use criterion::Criterion;
use std::hint::black_box;
use std::path::Path;

pub fn benches(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ccd");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/ccd")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.to_string_lossy();
            n.ends_with(".json") && !n.ends_with(".expected.json")
        })
        .collect();
    files.sort();
    let mut group = c.benchmark_group("ccd");
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("scene file");
        let sc = oracle::parse_scene(&text, &name).unwrap_or_else(|e| panic!("{e}"));
        let mut pose = sc.pose.clone();
        let restore: Vec<_> = sc
            .solver
            .chains
            .iter()
            .flat_map(|c| {
                c.links
                    .iter()
                    .map(|l| (l.index, sc.pose.local(l.index).rotation))
            })
            .collect();
        let tops: Vec<usize> = sc
            .solver
            .chains
            .iter()
            .filter_map(|c| c.links.last().map(|l| l.index))
            .collect();
        let mut report = CcdReport::default();
        let mut work = CcdWorkspace::default();
        let blend = sc.global_blend_factor.unwrap_or(1.0);
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                for &(bone, rotation) in &restore {
                    pose.set_local_rotation(bone, rotation);
                }
                for &top in &tops {
                    pose.refresh_subtree(&sc.skeleton, top);
                }
                sc.solver.update_into(
                    &sc.skeleton,
                    &mut pose,
                    black_box(blend),
                    &mut report,
                    &mut work,
                );
                black_box(&pose);
            })
        });
    }
    group.finish();
}
