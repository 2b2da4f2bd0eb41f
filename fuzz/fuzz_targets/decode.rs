//! Arbitrary bytes → `haifu::mjlog::decode`, and the same bytes through
//! `haifu::input::decompress` (the gzip path of the ingest reader) → decode.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = haifu::mjlog::decode(data);
    if haifu::input::is_gzip(data) {
        let mut inflated = Vec::new();
        if let Ok(doc) = haifu::input::decompress(data, &mut inflated) {
            let _ = haifu::mjlog::decode(doc);
        }
    }
});
