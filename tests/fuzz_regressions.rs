//! Fuzz regressions: every file in `fuzz/regressions/` (inputs that once crashed a fuzz
//! target, minimised) goes through read → decode → replay with every core observer → §4
//! estimator scoring, the same harness as the fuzz targets (`fuzz/src/lib.rs`). Each must
//! finish without a panic; decode or replay returning `Err` is fine.
//!
//! Note: `make test` builds with the release profile, which has no overflow checks, so an
//! arithmetic-overflow regression shows only under `cargo test` (dev profile) or
//! `make fuzz-smoke` (which replays these files through the instrumented `replay` target).

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use haifu::stats::{DrawRateCells, RunTotals};

fn regression_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|x| x != "md"))
        .collect();
    files.sort();
    files
}

/// The fuzz targets' harness: never panics on any input, whatever it returns.
fn run(bytes: &[u8], cells: &mut DrawRateCells, totals: &mut RunTotals) {
    let mut inflated = Vec::new();
    let Ok(doc) = haifu::input::decompress(bytes, &mut inflated) else {
        return;
    };
    let Ok(log) = haifu::mjlog::decode(doc) else {
        return;
    };
    let mut records = Vec::new();
    if let Ok(obs) = haifu::stats::observe_game(&log, &mut records) {
        cells.commit(&records, 1);
        *totals += &obs;
        let _ = totals.eval.summary_rows();
        let _ = totals.phoenix_table(haifu::rules::Players::Four);
        let _ = totals.phoenix_table(haifu::rules::Players::Three);
    }
}

#[test]
fn fuzz_regressions_do_not_panic() {
    let files = regression_files();
    let mut failed = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut cells = DrawRateCells::default();
        let mut totals = RunTotals::default();
        if panic::catch_unwind(AssertUnwindSafe(|| run(&bytes, &mut cells, &mut totals))).is_err() {
            failed.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    eprintln!("fuzz regressions: {} files replayed", files.len());
    assert!(
        failed.is_empty(),
        "these regression inputs panic: {failed:?}"
    );
}
