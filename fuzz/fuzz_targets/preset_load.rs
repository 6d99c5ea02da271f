//! Bytes → UTF-8 → preset parser and checker (what `preset::io::load_preset` runs after
//! reading the file). Never panics, never hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(preset) = anglerpose::preset::parse_preset(text) {
        // A preset that parses must serialise and parse back.
        let again = anglerpose::preset::parse_preset(&preset.to_json());
        assert!(again.is_ok(), "a parsed preset does not parse back: {again:?}");
    }
});
