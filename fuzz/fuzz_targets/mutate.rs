//! Structure-aware: the input picks a real seed log and a list of tag-level edits
//! (see `src/mutate.rs`); the edited document goes through decode → replay → observers.
#![no_main]

use haifu_fuzz::mutate::{render, Case};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|case: Case| {
    let doc = render(&case);
    haifu_fuzz::decode_and_replay(&doc);
});
