//! Bytes → preset → `anglerpose::fuzz_entry::clip_roundtrip` (see its docs for what it asserts; the
//! same function replays kept inputs in tests/fuzz_regressions.rs). Never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = anglerpose::fuzz_entry::clip_roundtrip(data);
});
