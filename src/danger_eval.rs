//! §4 scoring: every estimator over every recorded situation (the `danger_situations` frame),
//! giving the `danger_eval` frame (one row per situation, moment and estimator), the
//! `danger_calibration` frame (pairs and waits per calibration bin) and the
//! `danger_eval_summary` frame (exact means of every metric, overall and by riichi turn and
//! dealer-ness).
//!
//! Invariant: only situations with no §4 exclusion at their moment are scored; every
//! estimator sees exactly the same situations.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use polars::prelude::*;
use rayon::prelude::*;

use crate::danger::{
    calibration_bin_label, scores, weights, Category, CategoryTable, Estimator, Scores,
    CALIBRATION_BINS,
};
use crate::frames::{parse_kind_digits, FrameChunk};
use crate::stats::{DangerSituation, Moment};
use crate::tile::KINDS;

/// The built-in estimators plus `phoenix-table`, in report order.
pub const DEFAULT_ESTIMATORS: [&str; 6] = [
    "none",
    "combo",
    "dennou-old",
    "dennou",
    "dennou-new",
    "phoenix-table",
];

/// `phoenix-table`: each category's §2 total rate (wait units / units) on the ingested corpus
/// itself, from a `wait_danger` Parquet file. A category with no units gets weight 0.
pub fn phoenix_table(wait_danger: &Path) -> Result<CategoryTable> {
    let counts = LazyFrame::scan_parquet(
        PlRefPath::try_from_path(wait_danger)?,
        ScanArgsParquet::default(),
    )?
    .group_by([col("category")])
    .agg([
        len().alias("units"),
        col("is_wait").cast(DataType::UInt64).sum().alias("waits"),
    ])
    .collect()?;
    let cats = counts.column("category")?.str()?.clone();
    let units = counts.column("units")?.cast(&DataType::UInt64)?;
    let waits = counts.column("waits")?.cast(&DataType::UInt64)?;
    let mut per_category = [(0u64, 0u64); Category::ALL.len()];
    for (i, c) in cats.iter().enumerate() {
        if let Some(c) = c.and_then(Category::from_name) {
            per_category[c.index()] = (
                units.get(i)?.extract::<u64>().unwrap_or(0),
                waits.get(i)?.extract::<u64>().unwrap_or(0),
            );
        }
    }
    phoenix_table_from_counts(&per_category)
}

/// `phoenix-table` from (units, waits) per §2 category, indexed by [`Category::index`].
pub fn phoenix_table_from_counts(
    counts: &[(u64, u64); Category::ALL.len()],
) -> Result<CategoryTable> {
    let pairs: Vec<(Category, f64)> = Category::ALL
        .iter()
        .map(|&c| {
            let (units, waits) = counts[c.index()];
            let rate = if units == 0 {
                0.0
            } else {
                waits as f64 / units as f64
            };
            (c, rate)
        })
        .collect();
    Ok(CategoryTable::from_pairs(&pairs)
        .map_err(|e| anyhow::anyhow!("phoenix-table: {e}"))?
        .with_name("phoenix-table"))
}

/// Resolves estimator names (`phoenix-table` from a `wait_danger` Parquet file, `table`
/// from `user_table`).
pub fn resolve(
    names: &[String],
    wait_danger: &Path,
    user_table: Option<CategoryTable>,
) -> Result<Vec<Estimator>> {
    let mut out = Vec::new();
    for n in names {
        let e = match n.as_str() {
            "phoenix-table" => Estimator::Table(phoenix_table(wait_danger)?),
            "table" => match &user_table {
                Some(t) => Estimator::Table(t.clone()),
                None => bail!("estimator `table` needs --table FILE.csv"),
            },
            other => Estimator::parse_builtin(other).with_context(|| {
                format!(
                    "unknown estimator `{other}`; known: {}, table",
                    DEFAULT_ESTIMATORS.join(", ")
                )
            })?,
        };
        out.push(e);
    }
    Ok(out)
}

/// Opens a frame file, with a hint when it is missing.
fn open_frame(path: &Path) -> Result<std::fs::File> {
    std::fs::File::open(path).with_context(|| {
        format!(
            "cannot open {}: run `haifu ingest ... --out DIR` first",
            path.display()
        )
    })
}

/// Reads a whole Parquet file.
pub fn read_parquet(path: &Path) -> Result<DataFrame> {
    Ok(ParquetReader::new(open_frame(path)?).finish()?)
}

/// `danger_situations` rows scored at a time by [`evaluate_file`] in a run, so that the memory
/// of scoring does not grow with the number of games (a row is about 200 bytes in memory).
pub const SITUATION_ROWS: usize = 1 << 16;

/// Scores `estimators` (at `first_position` on, as [`evaluate_from`]) over the
/// `danger_situations` Parquet file at `path`, `slice_rows` rows at a time, handing each
/// slice's `danger_eval` rows to `write` in row order (at least once, so an empty file still
/// gives the frame's schema); returns the totals and the situations scored per moment.
pub fn evaluate_file(
    path: &Path,
    estimators: &[Estimator],
    first_position: usize,
    slice_rows: usize,
    mut write: impl FnMut(&FrameChunk) -> Result<()>,
) -> Result<(EvalTotals, BTreeMap<String, u64>)> {
    let mut reader = ParquetReader::new(open_frame(path)?);
    let metadata = reader.get_metadata()?.clone();
    let rows = reader.num_rows()?;
    let mut totals = EvalTotals::default();
    let mut situations: BTreeMap<String, u64> = BTreeMap::new();
    let mut offset = 0;
    loop {
        let mut reader = ParquetReader::new(open_frame(path)?);
        reader.set_metadata(metadata.clone());
        let slice = reader.with_slice(Some((offset, slice_rows))).finish()?;
        let ev = evaluate_from(&slice, estimators, first_position)?;
        write(&ev.eval)?;
        totals.merge(ev.totals);
        for (moment, n) in ev.situations {
            *situations.entry(moment).or_default() += n;
        }
        offset += slice_rows.max(1);
        if offset >= rows {
            return Ok((totals, situations));
        }
    }
}

/// The two frames of a scoring run.
pub struct Evaluation {
    /// The `danger_eval` rows.
    pub eval: FrameChunk,
    pub totals: EvalTotals,
    /// Situations scored per moment.
    pub situations: BTreeMap<String, u64>,
}

/// What identifies one scored (situation, moment) in the `danger_eval` frame.
#[derive(Clone, Copy, Debug)]
pub struct EvalKey {
    /// Index of the game id in the caller's list (see [`EvalRows::take_chunk`]).
    pub game: u32,
    pub hand: i32,
    pub riichi_seat: i32,
    pub moment: Moment,
    pub riichi_turn: i32,
    pub riichi_is_dealer: bool,
    pub n_waits: i32,
}

impl EvalKey {
    /// The key of a recorded situation of game `game`.
    pub fn of(game: u32, s: &DangerSituation) -> EvalKey {
        EvalKey {
            game,
            hand: i32::from(s.hand),
            riichi_seat: i32::from(s.riichi_seat),
            moment: s.moment,
            riichi_turn: i32::from(s.riichi_turn),
            riichi_is_dealer: s.riichi_is_dealer,
            n_waits: s.waits.iter().filter(|&&w| w).count() as i32,
        }
    }
}

/// Rows of the `danger_eval` frame (one per situation, moment and estimator), column by
/// column. Every producer of the frame builds it here, so its schema is defined once.
#[derive(Default)]
pub struct EvalRows {
    game: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    /// Index into [`Moment::ALL`].
    moment: Vec<u32>,
    /// Index into the names given to [`EvalRows::take_chunk`].
    estimator: Vec<u32>,
    rmse: Vec<f64>,
    cross_entropy: Vec<f64>,
    auc: Vec<f64>,
    brier: Vec<f64>,
    n_waits: Vec<i32>,
    riichi_turn: Vec<i32>,
    riichi_is_dealer: Vec<bool>,
}

impl EvalRows {
    pub fn push(&mut self, key: &EvalKey, estimator: u8, s: &Scores) {
        self.game.push(key.game);
        self.hand.push(key.hand);
        self.riichi_seat.push(key.riichi_seat);
        self.moment.push(key.moment as u32);
        self.estimator.push(u32::from(estimator));
        self.rmse.push(s.rmse);
        self.cross_entropy.push(s.cross_entropy);
        self.auc.push(s.auc);
        self.brier.push(s.brier);
        self.n_waits.push(key.n_waits);
        self.riichi_turn.push(key.riichi_turn);
        self.riichi_is_dealer.push(key.riichi_is_dealer);
    }

    /// Rows pushed since the last [`EvalRows::take_chunk`].
    pub fn len(&self) -> usize {
        self.game.len()
    }

    /// True when no row was pushed since the last [`EvalRows::take_chunk`].
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    /// The rows as a frame chunk (the builder is left empty); `game_ids[key.game - first]`
    /// is each row's game id, `estimators[i]` the name of estimator index i.
    pub fn take_chunk(&mut self, game_ids: &[&str], first: u32, estimators: &[&str]) -> FrameChunk {
        let mut r = std::mem::take(self);
        r.game.iter_mut().for_each(|g| *g -= first);
        let moments = Moment::ALL.map(Moment::name);
        FrameChunk::default()
            .labels("game_id", game_ids, r.game)
            .int("hand", r.hand)
            .int("riichi_seat", r.riichi_seat)
            .labels("moment", &moments, r.moment)
            .labels("estimator", estimators, r.estimator)
            .float("rmse", r.rmse)
            .float("cross_entropy", r.cross_entropy)
            .float("auc", r.auc)
            .float("brier", r.brier)
            .int("n_waits", r.n_waits)
            .int("riichi_turn", r.riichi_turn)
            .boolean("riichi_is_dealer", &r.riichi_is_dealer)
    }
}

/// (kinds, waits) per calibration bin.
type BinCounts = [(u64, u64); CALIBRATION_BINS];

/// What the whole run's scores add up to, per moment and estimator: (kinds, waits) per
/// calibration bin (the `danger_calibration` frame) and exact sums of every metric per riichi
/// turn bucket and dealer-ness (the `danger_eval_summary` frame). Everything is an integer, so
/// the order in which situations are added does not matter.
#[derive(Default)]
pub struct EvalTotals {
    /// Keyed by (moment, estimator position in report order).
    groups: BTreeMap<(&'static str, usize), EstimatorTotals>,
}

/// [`EvalTotals`] of one moment and estimator.
struct EstimatorTotals {
    name: String,
    bins: BinCounts,
    /// Per [`SLICES`] entry: situations and the sums of rmse, cross-entropy, AUC and Brier.
    sums: [MetricSums; SLICES.len()],
}

/// Situations and exact metric sums: each value is counted in units of 2^-70 (exactly, for
/// every value from 2^-18 up; smaller ones to the nearest unit), so sums are exact integers
/// whatever the order; a NaN makes its sum NaN.
#[derive(Clone, Copy, Default)]
struct MetricSums {
    situations: u64,
    units: [i128; 4],
    nan: [bool; 4],
}

/// Units of [`MetricSums`] per 1: 2^70 (a metric below 1024 is under 2^80 units, so an
/// `i128` holds the sum of 2^47 of them).
const METRIC_UNIT: f64 = 1_180_591_620_717_411_303_424.0;

impl MetricSums {
    fn add(&mut self, s: &Scores) {
        self.situations += 1;
        for (i, x) in [s.rmse, s.cross_entropy, s.auc, s.brier]
            .into_iter()
            .enumerate()
        {
            self.nan[i] |= x.is_nan();
            // The metrics lie in 0..705 (cross-entropy: at most 34 terms of −ln 1e-9 each).
            self.units[i] += (x * METRIC_UNIT).round() as i128;
        }
    }

    fn merge(&mut self, other: &MetricSums) {
        self.situations += other.situations;
        for i in 0..4 {
            self.units[i] += other.units[i];
            self.nan[i] |= other.nan[i];
        }
    }

    /// Mean of each metric (NaN with no situation).
    fn means(&self) -> [f64; 4] {
        std::array::from_fn(|i| {
            if self.nan[i] {
                f64::NAN
            } else {
                self.units[i] as f64 / METRIC_UNIT / self.situations as f64
            }
        })
    }
}

/// The (riichi turn, riichi seat) slices of `danger_eval_summary`, as the labels it writes:
/// turn at declaration 1-6, 7-12 or 13+, and whether the riichi seat is dealer.
const SLICES: [(&str, &str); 6] = [
    ("1-6", "dealer"),
    ("1-6", "non-dealer"),
    ("7-12", "dealer"),
    ("7-12", "non-dealer"),
    ("13+", "dealer"),
    ("13+", "non-dealer"),
];

/// Index into [`SLICES`] of a riichi declared at `riichi_turn` by a dealer or not.
fn slice_of(riichi_turn: i32, riichi_is_dealer: bool) -> usize {
    let bucket = match riichi_turn {
        ..=6 => 0,
        7..=12 => 1,
        _ => 2,
    };
    2 * bucket + usize::from(!riichi_is_dealer)
}

impl EvalTotals {
    /// Adds one situation's scores under the estimator `name` at `position` in report order.
    pub fn add(&mut self, key: &EvalKey, position: usize, name: &str, s: &Scores) {
        let group = self
            .groups
            .entry((key.moment.name(), position))
            .or_insert_with(|| EstimatorTotals {
                name: name.to_string(),
                bins: [(0, 0); CALIBRATION_BINS],
                sums: Default::default(),
            });
        for (a, b) in group.bins.iter_mut().zip(&s.bins) {
            a.0 += u64::from(b.0);
            a.1 += u64::from(b.1);
        }
        group.sums[slice_of(key.riichi_turn, key.riichi_is_dealer)].add(s);
    }

    /// Adds every count and sum of `other`.
    pub fn merge(&mut self, other: EvalTotals) {
        for (key, theirs) in other.groups {
            let Some(ours) = self.groups.get_mut(&key) else {
                self.groups.insert(key, theirs);
                continue;
            };
            for (a, b) in ours.bins.iter_mut().zip(&theirs.bins) {
                a.0 += b.0;
                a.1 += b.1;
            }
            for (a, b) in ours.sums.iter_mut().zip(&theirs.sums) {
                a.merge(b);
            }
        }
    }

    /// The `danger_eval_summary` frame: per moment and estimator (report order), one row over
    /// all situations (`riichi_turn` and `riichi_seat` = `all`), then one per `SLICES`
    /// entry that has situations; `situations` and the exact mean of every metric.
    pub fn summary_frame(&self) -> PolarsResult<DataFrame> {
        let mut moment = Vec::new();
        let mut estimator = Vec::new();
        let mut turn = Vec::new();
        let mut seat = Vec::new();
        let mut situations = Vec::new();
        let mut means: [Vec<f64>; 4] = Default::default();
        for ((m, _), g) in &self.groups {
            let mut all = MetricSums::default();
            for s in &g.sums {
                all.merge(s);
            }
            let slices = g.sums.iter().zip(SLICES).filter(|(s, _)| s.situations > 0);
            for (sums, (t, r)) in std::iter::once((&all, ("all", "all"))).chain(slices) {
                moment.push(*m);
                estimator.push(g.name.as_str());
                turn.push(t);
                seat.push(r);
                situations.push(sums.situations as i64);
                for (column, mean) in means.iter_mut().zip(sums.means()) {
                    column.push(mean);
                }
            }
        }
        let [rmse, cross_entropy, auc, brier] = means;
        DataFrame::new_infer_height(vec![
            Column::new("moment".into(), moment),
            Column::new("estimator".into(), estimator),
            Column::new("riichi_turn".into(), turn),
            Column::new("riichi_seat".into(), seat),
            Column::new("situations".into(), situations),
            Column::new("rmse".into(), rmse),
            Column::new("cross_entropy".into(), cross_entropy),
            Column::new("auc".into(), auc),
            Column::new("brier".into(), brier),
        ])
    }

    /// The `danger_calibration` frame: one row per (moment, estimator, bin), moments by name,
    /// estimators in report order.
    pub fn calibration_frame(&self) -> PolarsResult<DataFrame> {
        let (mut cm, mut ce, mut cb, mut cl, mut cp, mut cw) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        for ((m, _), g) in &self.groups {
            for (b, (pairs, waits)) in g.bins.iter().enumerate() {
                cm.push(*m);
                ce.push(g.name.as_str());
                cb.push(b as i32);
                cl.push(calibration_bin_label(b));
                cp.push(*pairs as i64);
                cw.push(*waits as i64);
            }
        }
        DataFrame::new_infer_height(vec![
            Column::new("moment".into(), cm),
            Column::new("estimator".into(), ce),
            Column::new("bin".into(), cb),
            Column::new("bin_label".into(), cl),
            Column::new("pairs".into(), cp),
            Column::new("waits".into(), cw),
        ])
    }
}

/// Scores `estimators` on every included situation of a `danger_situations` frame.
///
/// `first_position` is the report-order position of `estimators[0]` in the calibration
/// frame (0 unless these rows join builtin scores made elsewhere).
pub fn evaluate_from(
    ds: &DataFrame,
    estimators: &[Estimator],
    first_position: usize,
) -> Result<Evaluation> {
    let s = |c: &str| -> Result<StringChunked> { Ok(ds.column(c)?.str()?.clone()) };
    let i = |c: &str| -> Result<Int32Chunked> { Ok(ds.column(c)?.i32()?.clone()) };
    let (game_id, moment, excluded) = (s("game_id")?, s("moment")?, s("excluded")?);
    let (visible, holds, genbutsu, waits) = (
        s("visible")?,
        s("observer_holds")?,
        s("genbutsu")?,
        s("waits")?,
    );
    let (hand, riichi_seat, riichi_turn) = (i("hand")?, i("riichi_seat")?, i("riichi_turn")?);
    let riichi_is_dealer = ds.column("riichi_is_dealer")?.bool()?.clone();
    let names: Vec<&str> = estimators.iter().map(Estimator::name).collect();

    // Parse the included rows, then score them in parallel; results are assembled in row
    // order and calibration counts are integers, so the output does not depend on threads.
    let mut rows: Vec<Parsed> = Vec::new();
    // Game ids of the included rows, a run of equal ids once.
    let mut ids: Vec<&str> = Vec::new();
    for row in 0..ds.height() {
        if excluded.get(row).is_some() {
            continue;
        }
        let digits = |ca: &StringChunked| -> Result<[u8; KINDS]> {
            ca.get(row)
                .and_then(parse_kind_digits)
                .with_context(|| format!("danger_situations row {row}: malformed per-kind digits"))
        };
        let g = digits(&genbutsu)?.map(|x| x != 0);
        let w = digits(&waits)?.map(|x| x != 0);
        let m = moment.get(row).unwrap_or_default();
        let id = game_id.get(row).unwrap_or_default();
        if ids.last() != Some(&id) {
            ids.push(id);
        }
        let key = EvalKey {
            game: ids.len() as u32 - 1,
            hand: hand.get(row).unwrap_or(0),
            riichi_seat: riichi_seat.get(row).unwrap_or(0),
            moment: Moment::from_name(m)
                .with_context(|| format!("danger_situations row {row}: unknown moment {m:?}"))?,
            riichi_turn: riichi_turn.get(row).unwrap_or(0),
            riichi_is_dealer: riichi_is_dealer.get(row).unwrap_or(false),
            n_waits: w.iter().filter(|&&x| x).count() as i32,
        };
        rows.push(Parsed {
            key,
            visible: digits(&visible)?,
            holds: digits(&holds)?,
            genbutsu: g,
            waits: w,
        });
    }
    let scored: Vec<Vec<Scores>> = rows
        .par_iter()
        .map(|p| {
            let view = crate::danger::DangerView::from_counts(&p.visible, &p.holds, &p.genbutsu);
            estimators
                .iter()
                .map(|est| scores(&weights(est, &view), &p.waits))
                .collect()
        })
        .collect();
    let mut out = EvalRows::default();
    let mut totals = EvalTotals::default();
    let mut situations: BTreeMap<String, u64> = BTreeMap::new();
    for (p, per_estimator) in rows.iter().zip(scored) {
        *situations
            .entry(p.key.moment.name().to_string())
            .or_default() += 1;
        for (ei, sc) in per_estimator.iter().enumerate() {
            out.push(&p.key, ei as u8, sc);
            totals.add(&p.key, first_position + ei, names[ei], sc);
        }
    }
    Ok(Evaluation {
        eval: out.take_chunk(&ids, 0, &names),
        totals,
        situations,
    })
}

/// Scores `estimators` on every included situation of a `danger_situations` frame.
pub fn evaluate(ds: &DataFrame, estimators: &[Estimator]) -> Result<Evaluation> {
    evaluate_from(ds, estimators, 0)
}

/// One included situation as parsed from the frame.
struct Parsed {
    key: EvalKey,
    visible: [u8; KINDS],
    holds: [u8; KINDS],
    genbutsu: [bool; KINDS],
    waits: [bool; KINDS],
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(moment: Moment, riichi_turn: i32, riichi_is_dealer: bool) -> EvalKey {
        EvalKey {
            game: 0,
            hand: 0,
            riichi_seat: 0,
            moment,
            riichi_turn,
            riichi_is_dealer,
            n_waits: 1,
        }
    }

    fn scores(rmse: f64) -> Scores {
        Scores {
            rmse,
            cross_entropy: 10.0 * rmse,
            auc: 0.5,
            brier: 0.0,
            bins: [(0, 0); CALIBRATION_BINS],
        }
    }

    #[test]
    fn summary_means_are_exact_and_order_free() {
        // 0.1 + 0.2 + 0.3 in floats is 0.6000000000000001 one way and 0.6 the other; the
        // exact sum of the three gives one mean either way, 0.2 to the last bit or so, and a
        // slice of one row gives back its value exactly.
        // Slices: turn 6 → 1-6, turns 7 and 12 → 7-12 (dealer, non-dealer), turn 13 → 13+.
        let rows = [
            (key(Moment::Declaration, 6, true), 0.1),
            (key(Moment::Declaration, 7, true), 0.2),
            (key(Moment::Declaration, 12, false), 0.3),
            (key(Moment::Declaration, 13, false), f64::NAN),
        ];
        let mut forward = EvalTotals::default();
        let mut backward = EvalTotals::default();
        for (k, x) in &rows[..3] {
            forward.add(k, 0, "combo", &scores(*x));
        }
        for (k, x) in rows[..3].iter().rev() {
            backward.add(k, 0, "combo", &scores(*x));
        }
        let f = forward.summary_frame().unwrap();
        assert!(f.equals(&backward.summary_frame().unwrap()));
        let col = |df: &DataFrame, c: &str| -> Vec<f64> {
            df.column(c)
                .unwrap()
                .f64()
                .unwrap()
                .into_no_null_iter()
                .collect()
        };
        let strs = |df: &DataFrame, c: &str| -> Vec<String> {
            let s = df.column(c).unwrap().str().unwrap().clone();
            s.iter().map(|v| v.unwrap().to_string()).collect()
        };
        // One `all` row, then the three slices with situations, in slice order.
        assert_eq!(strs(&f, "riichi_turn"), ["all", "1-6", "7-12", "7-12"]);
        assert_eq!(
            strs(&f, "riichi_seat"),
            ["all", "dealer", "dealer", "non-dealer"]
        );
        let rmse = col(&f, "rmse");
        assert!((rmse[0] - 0.2).abs() <= f64::EPSILON * 0.2, "{}", rmse[0]);
        assert_eq!([rmse[1], rmse[2], rmse[3]], [0.1, 0.2, 0.3]);
        assert_eq!(col(&f, "auc"), [0.5; 4]);
        let n: Vec<i64> = f
            .column("situations")
            .unwrap()
            .i64()
            .unwrap()
            .into_no_null_iter()
            .collect();
        assert_eq!(n, [3, 1, 1, 1]);
        // Merging two halves gives the frame of the whole; a NaN makes its means NaN.
        let mut half = EvalTotals::default();
        half.add(&rows[0].0, 0, "combo", &scores(rows[0].1));
        let mut rest = EvalTotals::default();
        for (k, x) in &rows[1..3] {
            rest.add(k, 0, "combo", &scores(*x));
        }
        half.merge(rest);
        assert!(f.equals(&half.summary_frame().unwrap()));
        forward.add(&rows[3].0, 0, "combo", &scores(rows[3].1));
        let g = forward.summary_frame().unwrap();
        let rmse = g.column("rmse").unwrap().f64().unwrap().clone();
        assert!(rmse.get(0).unwrap().is_nan());
        assert_eq!(strs(&g, "riichi_turn").last().unwrap(), "13+");
        assert!(rmse.get(g.height() - 1).unwrap().is_nan());
        assert_eq!(rmse.get(1), Some(0.1));
    }
}
