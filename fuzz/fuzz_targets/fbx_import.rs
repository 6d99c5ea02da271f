//! Bytes → FBX importer (ufbx, then the conversion to a character), binary or ASCII. The
//! importer must return `Ok` or `Err`, never panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    // The directory does not exist, so textures named by the file fail to resolve instead of
    // reading files of the machine running the fuzzer.
    let _ = anglerpose::gltf_io::load_from_bytes(Path::new("/nonexistent-fuzz/input.fbx"), data);
});
