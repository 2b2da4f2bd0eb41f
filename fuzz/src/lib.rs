//! Shared code of haifu's fuzz targets: the decode + replay harness and the structure-aware
//! mutation engine of the `mutate` target.
//!
//! Every harness asserts nothing beyond "no panic, no abort": `Err` from decode or replay is a
//! fine outcome. `tests/fuzz_regressions.rs` in the root crate runs the same harness: both call
//! [`haifu::stats::observe_game`], the per-game work of an ingest.

pub mod mutate;
#[cfg(test)]
mod regressions;

use std::cell::RefCell;

use haifu::mjlog::GameLog;
use haifu::stats::{DrawRateCells, RunTotals};

thread_local! {
    /// The dense draw-rate counts (about 1.4 MB), allocated once per thread; every game that
    /// replays is committed into them, as the ingest workers do.
    static CELLS: RefCell<DrawRateCells> = RefCell::new(DrawRateCells::default());
    /// The run totals every game that replays is added to, as the merger does.
    static TOTALS: RefCell<RunTotals> = RefCell::new(RunTotals::default());
}

/// Decodes `bytes` as an mjlog document and, when that succeeds, replays it.
pub fn decode_and_replay(bytes: &[u8]) {
    if let Ok(log) = haifu::mjlog::decode(bytes) {
        replay(&log);
    }
}

/// Like the ingest path for any format: gunzips when the bytes are gzip, then reads them as
/// any document haifu recognises (mjlog, tenhou.net/6, mjai, a majiang paipu or an array of
/// them, each paipu its own game) and replays what decodes.
pub fn read_any_replay(bytes: &[u8]) {
    let mut inflated = Vec::new();
    let Ok(doc) = haifu::input::decompress(bytes, &mut inflated) else {
        return;
    };
    if let Some(paipu) = haifu::formats::majiang::many(doc) {
        // (The ingest worker reads an array of paipu from its own copy of the bytes.)
        let mut log = GameLog::default();
        for p in &paipu {
            let _ = haifu::formats::majiang::game_id(p);
            if haifu::formats::majiang::read_one(p, &mut log).is_ok() {
                replay(&log);
            }
        }
        return;
    }
    let mut log = GameLog::default();
    if haifu::formats::decode_into(doc, &mut log).is_ok() {
        haifu::formats::rules_from_log_id(&mut log, "2009082713gm-00e1-0000-8820f355");
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

/// Replays `log` as an ingest worker does ([`haifu::stats::observe_game_with`]: every
/// observer, the §10–§14 ones of `--with development` and §23's legal actions of `--with choices`
/// too, then the built-in estimators' scores) and, when
/// it replays whole, commits its draw records and adds it to the run totals as the merger does
/// (exact §4 sums, `phoenix-table`).
pub fn replay(log: &GameLog) {
    let mut records = Vec::new();
    let observe = haifu::stats::Observe {
        development: true,
        choices: true,
        danger_moments: true,
        hand_reading: true,
        ..Default::default()
    };
    if let Ok(obs) = haifu::stats::observe_game_with(log, &mut records, observe) {
        CELLS.with(|cells| cells.borrow_mut().commit(&records, 0));
        TOTALS.with(|totals| {
            let mut totals = totals.borrow_mut();
            *totals += &obs;
            let _ = totals.eval.summary_rows();
            let _ = totals.phoenix_table(haifu::rules::Players::Four);
            let _ = totals.phoenix_table(haifu::rules::Players::Three);
        });
    }
}
