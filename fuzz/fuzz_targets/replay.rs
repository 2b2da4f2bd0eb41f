//! Arbitrary bytes → (gunzip when gzip) → decode → `replay_game` with every core observer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    haifu_fuzz::read_decode_replay(data);
});
