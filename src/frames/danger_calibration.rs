//! `danger_calibration`: one row per (table, moment, estimator, calibration bin of 34·w; 27·w
//! with three players) with the (situation, kind) pairs in the bin and how many were waits
//! (docs/definitions.md §4, §24); `players` says the table.

use polars::prelude::*;

use crate::danger::{calibration_bin_label, EvalTotals};
use crate::rules::Players;

pub(super) const NAME: &str = "danger_calibration";

/// The frame of a run's (or a scoring's) totals, per table (four players first).
pub(crate) fn frame(totals: &[(Players, &EvalTotals)]) -> PolarsResult<DataFrame> {
    let mut rows = Vec::new();
    let mut players = Vec::new();
    for (p, t) in totals {
        let r = t.calibration_rows();
        players.extend(std::iter::repeat_n(p.seats() as i32, r.len()));
        rows.extend(r);
    }
    DataFrame::new_infer_height(vec![
        Column::new(
            "moment".into(),
            rows.iter().map(|r| r.moment).collect::<Vec<_>>(),
        ),
        Column::new(
            "estimator".into(),
            rows.iter().map(|r| r.estimator).collect::<Vec<_>>(),
        ),
        Column::new(
            "bin".into(),
            rows.iter().map(|r| r.bin as i32).collect::<Vec<_>>(),
        ),
        Column::new(
            "bin_label".into(),
            rows.iter()
                .map(|r| calibration_bin_label(r.bin))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "pairs".into(),
            rows.iter().map(|r| r.pairs as i64).collect::<Vec<_>>(),
        ),
        Column::new(
            "waits".into(),
            rows.iter().map(|r| r.waits as i64).collect::<Vec<_>>(),
        ),
        Column::new("players".into(), players),
    ])
}
