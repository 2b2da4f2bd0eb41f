//! §15 by turn with a user's category table: the table scored at every moment of the
//! `danger_moments` frame, added to the `danger-by-turn` report's built-in rows, the best of
//! each (observer, turn) marked again over all six.
//!
//! Invariants: the table's sums are integers in the frame's units (each moment's metric
//! rounded to 2^-32 as the built-ins' are), so its means do not depend on the order the frame
//! is read in; the frame is read a slice of rows at a time.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use polars::prelude::*;

use crate::danger::{weights, CategoryTable, DangerView, Estimator};
use crate::frames::dataset::{self, Slices};
use crate::frames::{parse_kind_digits, DANGER_MOMENTS};
use crate::rules::Players;
use crate::stats::danger_moments::{moment_metrics, LAST_TURN, METRIC_UNIT};
use crate::tile::KINDS;

/// Rows of the frame read at once.
const SLICE_ROWS: usize = 1 << 16;

/// (observer, turn capped at [`LAST_TURN`]) → (moments, exact sums of RMSE, cross-entropy,
/// KLD in 2^-32 units).
type TableSums = BTreeMap<(i64, i64), (i64, [i128; 3])>;

/// `table` at every moment of the frames in `dir` (the games `keep` lists, when given), all
/// of them games of `players` (§24: a table's games, never both).
pub(crate) fn table_sums(
    dir: &Path,
    table: &CategoryTable,
    keep: Option<&Series>,
    players: Players,
) -> Result<TableSums> {
    let est = Estimator::Table(table.clone());
    let mut sums = TableSums::new();
    for df in Slices::new(dataset::require(dir, DANGER_MOMENTS)?, SLICE_ROWS) {
        let mut df = df?;
        if let Some(ids) = keep {
            df = df
                .lazy()
                .filter(col("game_id").is_in(lit(ids.clone()).implode(false), false))
                .collect()?;
        }
        let text = |c: &str| -> Result<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
        let int = |c: &str| -> Result<Int32Chunked> { Ok(df.column(c)?.i32()?.clone()) };
        let (visible, holds, genbutsu, waits) = (
            text("visible")?,
            text("observer_holds")?,
            text("genbutsu")?,
            text("waits")?,
        );
        let (observer, turn) = (int("observer")?, int("turn")?);
        for row in 0..df.height() {
            let digits = |ca: &StringChunked| -> Result<[u8; KINDS]> {
                ca.get(row)
                    .and_then(parse_kind_digits)
                    .with_context(|| format!("{DANGER_MOMENTS} row {row}: malformed digits"))
            };
            let (v, h) = (digits(&visible)?, digits(&holds)?);
            let g = digits(&genbutsu)?.map(|x| x > 0);
            let w = digits(&waits)?.map(|x| x > 0);
            let view = DangerView::from_counts_for(&v, &h, &g, players);
            let m = moment_metrics(&weights(&est, &view), &w, players);
            let o = i64::from(observer.get(row).context("observer")?);
            let t = i64::from(turn.get(row).context("turn")?).min(i64::from(LAST_TURN));
            let entry = sums.entry((o, t)).or_insert((0, [0; 3]));
            entry.0 += 1;
            for (s, x) in entry.1.iter_mut().zip(m) {
                *s += i128::from((x * METRIC_UNIT).round() as i64);
            }
        }
    }
    Ok(sums)
}

/// The report's rows (`danger-by-turn`'s columns) with the table's added after the built-ins
/// of each (observer, turn), and `best_*` marked again over every estimator.
pub(crate) fn with_table(report: &DataFrame, name: &str, sums: &TableSums) -> Result<DataFrame> {
    struct Row {
        observer: i64,
        turn: String,
        estimator: String,
        moments: i64,
        m: [f64; 3],
    }
    let order = |t: &str| -> i64 {
        match t {
            "all" => 100,
            "19+" => i64::from(LAST_TURN),
            t => t.parse().unwrap_or(0),
        }
    };
    let mut rows: Vec<(i64, i64, usize, Row)> = Vec::new();
    let obs = report.column("observer")?.cast(&DataType::Int64)?;
    let moments = report.column("moments")?.cast(&DataType::Int64)?;
    let (turn, est) = (
        report.column("turn")?.str()?,
        report.column("estimator")?.str()?,
    );
    let metric = |c: &str| -> Result<Float64Chunked> { Ok(report.column(c)?.f64()?.clone()) };
    let (rmse, ce, kld) = (metric("rmse")?, metric("cross_entropy")?, metric("kld")?);
    for i in 0..report.height() {
        let t = turn.get(i).unwrap_or_default().to_string();
        let o = obs.i64()?.get(i).unwrap_or(0);
        rows.push((
            o,
            order(&t),
            i,
            Row {
                observer: o,
                turn: t,
                estimator: est.get(i).unwrap_or_default().to_string(),
                moments: moments.i64()?.get(i).unwrap_or(0),
                m: [
                    rmse.get(i).unwrap_or(f64::NAN),
                    ce.get(i).unwrap_or(f64::NAN),
                    kld.get(i).unwrap_or(f64::NAN),
                ],
            },
        ));
    }
    // The table's rows, per turn and over all turns.
    let mut totals: BTreeMap<(i64, i64), (i64, [i128; 3])> = BTreeMap::new();
    for (&(o, t), &(n, s)) in sums {
        for key in [(o, t), (o, 100)] {
            let e = totals.entry(key).or_insert((0, [0; 3]));
            e.0 += n;
            for (a, b) in e.1.iter_mut().zip(s) {
                *a += b;
            }
        }
    }
    for ((o, t), (n, s)) in totals {
        let label = match t {
            100 => "all".to_string(),
            t if t >= i64::from(LAST_TURN) => "19+".to_string(),
            t => t.to_string(),
        };
        rows.push((
            o,
            t,
            usize::MAX,
            Row {
                observer: o,
                turn: label,
                estimator: name.to_string(),
                moments: n,
                m: s.map(|x| x as f64 / METRIC_UNIT / n as f64),
            },
        ));
    }
    rows.sort_by_key(|r| (r.0, r.1, r.2));
    let mut best = vec![[false; 3]; rows.len()];
    for (i, r) in rows.iter().enumerate() {
        for (m, b) in best[i].iter_mut().enumerate() {
            let lowest = rows
                .iter()
                .filter(|x| x.0 == r.0 && x.1 == r.1)
                .map(|x| x.3.m[m])
                .fold(f64::INFINITY, f64::min);
            *b = r.3.m[m] == lowest;
        }
    }
    let col_f = |m: usize| -> Vec<f64> { rows.iter().map(|r| r.3.m[m]).collect() };
    let col_b = |m: usize| -> Vec<bool> { best.iter().map(|b| b[m]).collect() };
    Ok(df!(
        "observer" => rows.iter().map(|r| r.3.observer).collect::<Vec<_>>(),
        "turn" => rows.iter().map(|r| r.3.turn.clone()).collect::<Vec<_>>(),
        "estimator" => rows.iter().map(|r| r.3.estimator.clone()).collect::<Vec<_>>(),
        "moments" => rows.iter().map(|r| r.3.moments).collect::<Vec<_>>(),
        "rmse" => col_f(0),
        "cross_entropy" => col_f(1),
        "kld" => col_f(2),
        "best_rmse" => col_b(0),
        "best_cross_entropy" => col_b(1),
        "best_kld" => col_b(2),
    )?)
}
