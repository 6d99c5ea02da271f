//! Bytes → UTF-8 → three.js oracle scene reader (and, for scenes whose declared work is small,
//! the CCD run the CLI does next). Never panics, never hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Scenes may legitimately ask for up to 10^6 updates of 10^6 iterations; the solver is only
/// run when updates × iterations × links stays small enough for one fuzz execution.
const MAX_WORK: u64 = 200_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(scene) = anglerpose::oracle::parse_scene(text, "fuzz.json") else {
        return;
    };
    let per_update: u64 = scene
        .solver
        .chains
        .iter()
        .map(|c| u64::from(c.iteration).max(1) * (c.links.len() as u64).max(1))
        .sum();
    if u64::from(scene.updates).max(1) * per_update.max(1) * scene.skeleton.len() as u64
        <= MAX_WORK
    {
        let _ = anglerpose::oracle::ccd_result(&scene);
    }
});
