//! Shared code of haifu's fuzz targets: the decode + replay harness and the structure-aware
//! mutation engine of the `mutate` target.
//!
//! Every harness asserts nothing beyond "no panic, no abort": `Err` from decode or replay is a
//! fine outcome. `tests/fuzz_regressions.rs` in the root crate runs the same harness (kept in
//! sync by hand: it cannot depend on this crate).

pub mod mutate;

use std::cell::RefCell;

use haifu::danger::{weights, Estimator};
use haifu::mjlog::GameLog;
use haifu::replay::{replay_game, Observer};
use haifu::stats::{
    DangerSituationObserver, DrawRateCells, DrawRateObserver, RiichiResponseObserver,
    WaitDangerObserver,
};

thread_local! {
    /// The dense draw-rate counts (about 1.4 MB), allocated once per thread; every game that
    /// replays is committed into them, as the ingest workers do.
    static CELLS: RefCell<DrawRateCells> = RefCell::new(DrawRateCells::default());
}

/// Decodes `bytes` as an mjlog document and, when that succeeds, replays it.
pub fn decode_and_replay(bytes: &[u8]) {
    if let Ok(log) = haifu::mjlog::decode(bytes) {
        replay(&log);
    }
}

/// Like the ingest path: gunzips when the bytes are gzip, then decodes and replays.
pub fn read_decode_replay(bytes: &[u8]) {
    let mut inflated = Vec::new();
    if let Ok(doc) = haifu::input::decompress(bytes, &mut inflated) {
        decode_and_replay(doc);
    }
}

/// Replays `log` with every core observer attached (as `ingest::process_document` wires
/// them), then scores the recorded danger situations with every built-in estimator.
pub fn replay(log: &GameLog) {
    let mut riichi = RiichiResponseObserver::default();
    let mut waits = WaitDangerObserver::default();
    let mut danger = DangerSituationObserver::default();
    let mut records = Vec::new();
    let replayed = {
        let mut draws = DrawRateObserver {
            draws: &mut records,
        };
        let mut observers: [&mut dyn Observer; 4] =
            [&mut riichi, &mut waits, &mut danger, &mut draws];
        replay_game(log, &mut observers)
    };
    if replayed.is_ok() {
        CELLS.with(|cells| cells.borrow_mut().commit(&records));
        // What the run does with the rows downstream (§4 scoring), minus polars.
        for s in danger.rows.iter().filter(|s| s.excluded.is_none()) {
            let view = s.view();
            for name in Estimator::BUILTIN_NAMES {
                if let Some(est) = Estimator::parse_builtin(name) {
                    let _ = weights(&est, &view);
                }
            }
        }
    }
}
