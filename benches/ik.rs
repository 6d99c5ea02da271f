//! `cargo bench --bench ik`: one two-bone arm solve and one CCD update per oracle scene.

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "ik/ccd.rs"]
mod ik_ccd;
#[path = "ik/two_bone.rs"]
mod ik_two_bone;

fn ik(c: &mut Criterion) {
    ik_two_bone::benches(c);
    ik_ccd::benches(c);
}

criterion_group!(benches, ik);
criterion_main!(benches);
