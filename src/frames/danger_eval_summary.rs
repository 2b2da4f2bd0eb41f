//! `danger_eval_summary`: the exact mean of every §4 metric per (moment, estimator) over all
//! situations and per riichi turn × dealer-ness slice (columns in docs/frames.md), per table
//! (`players`, §24).

use polars::prelude::*;

use crate::danger::EvalTotals;
use crate::rules::Players;

pub(super) const NAME: &str = "danger_eval_summary";

/// The frame of a run's (or a scoring's) totals, per table (four players first).
pub(crate) fn frame(totals: &[(Players, &EvalTotals)]) -> PolarsResult<DataFrame> {
    let mut rows = Vec::new();
    let mut players = Vec::new();
    for (p, t) in totals {
        let r = t.summary_rows();
        players.extend(std::iter::repeat_n(p.seats() as i32, r.len()));
        rows.extend(r);
    }
    let mean = |i: usize| rows.iter().map(|r| r.means[i]).collect::<Vec<_>>();
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
            "riichi_turn".into(),
            rows.iter().map(|r| r.riichi_turn).collect::<Vec<_>>(),
        ),
        Column::new(
            "riichi_seat".into(),
            rows.iter().map(|r| r.riichi_seat).collect::<Vec<_>>(),
        ),
        Column::new(
            "situations".into(),
            rows.iter().map(|r| r.situations as i64).collect::<Vec<_>>(),
        ),
        Column::new("rmse".into(), mean(0)),
        Column::new("cross_entropy".into(), mean(1)),
        Column::new("auc".into(), mean(2)),
        Column::new("brier".into(), mean(3)),
        Column::new("players".into(), players),
    ])
}
