//! `danger_calibration`: one row per (moment, estimator, calibration bin of 34·w) with the
//! (situation, kind) pairs in the bin and how many were waits (docs/definitions.md §4).

use polars::prelude::*;

use crate::danger::{calibration_bin_label, EvalTotals};

pub(super) const NAME: &str = "danger_calibration";

/// The frame of a run's (or a scoring's) totals.
pub(crate) fn frame(totals: &EvalTotals) -> PolarsResult<DataFrame> {
    let rows = totals.calibration_rows();
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
    ])
}
