//! `fuzz/regressions/` replayed by `cargo test` of this crate (what `make fuzz-smoke` runs
//! first), with overflow checks on.
//!
//! The root crate's `tests/fuzz_regressions.rs` replays the same files, but `make test` builds
//! it with the release profile, which has no overflow checks: there, reverting a fix for an
//! arithmetic overflow (every regression so far: `overflow-*.xml`) lets the i32 wrap silently
//! and the test still passes. This crate is its own workspace, and its `Cargo.toml` sets
//! `overflow-checks = true` for `dev` (which `cargo test`'s `test` profile inherits) and
//! `release` (which `cargo test --release`'s `bench` profile inherits); the setting applies to
//! every package of the build, the `haifu` core included. So here an overflow panics, as it
//! did in the instrumented fuzz target that found it, and `overflow_checks_are_on` fails if
//! the setting is ever lost.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Every regression input (all files of `fuzz/regressions/` but its README), sorted.
fn regression_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|x| x != "md"))
        .collect();
    files.sort();
    files
}

/// Protects the premise of the test below: an i32 overflow panics in this build. Without it,
/// the overflow regressions could not fail (the release-profile situation of the root crate).
#[test]
fn overflow_checks_are_on() {
    let max = std::hint::black_box(i32::MAX);
    let wrapped = panic::catch_unwind(|| max + std::hint::black_box(1));
    assert!(
        wrapped.is_err(),
        "i32::MAX + 1 did not panic: this build has no overflow checks, so the fuzz \
         regressions below check nothing (see fuzz/Cargo.toml)"
    );
}

/// Protects every fix a fuzz regression stands for: each file of `fuzz/regressions/` goes
/// through the `replay` target's harness ([`crate::read_decode_replay`]: gunzip when gzip,
/// decode, replay with every core observer, the draw-rate commit and the §4 totals) without a
/// panic, overflow panics included. Reverting a fix (e.g. 778cbda's score bound in
/// `src/mjlog/decode.rs`) makes its file panic here with "attempt to ... with overflow".
#[test]
fn fuzz_regressions_do_not_panic_with_overflow_checks() {
    let files = regression_files();
    // Guards against a moved or emptied directory turning this into a test of nothing.
    assert!(files.len() >= 5, "{files:?}");
    let mut failed = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if let Err(e) = panic::catch_unwind(AssertUnwindSafe(|| crate::read_decode_replay(&bytes)))
        {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!(
                "{}: {msg}",
                path.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "these regression inputs panic: {failed:#?}"
    );
}
