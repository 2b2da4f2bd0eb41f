//! Arbitrary bytes → (gunzip when gzip) → any format's reader (tenhou.net/6, mjai, majiang,
//! mjlog) → `replay_game` with every core observer. Seeded with JSON documents of each format.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    haifu_fuzz::read_any_replay(data);
});
