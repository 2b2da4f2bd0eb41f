//! §4 scoring: every estimator over every recorded situation (the `danger_situations` frame),
//! giving the `danger_eval` frame (one row per situation, moment and estimator) and the
//! `danger_calibration` frame (pairs and waits per calibration bin).
//!
//! Invariant: only situations with no §4 exclusion at their moment are scored; every
//! estimator sees exactly the same situations.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use polars::prelude::*;
use rayon::prelude::*;

use crate::danger::{
    auc, brier, calibration_bin, calibration_bin_label, cross_entropy, rmse, weights, Category,
    CategoryTable, Estimator, CALIBRATION_BINS,
};
use crate::frames::parse_kind_digits;
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
    let rates = LazyFrame::scan_parquet(
        PlRefPath::try_from_path(wait_danger)?,
        ScanArgsParquet::default(),
    )?
    .group_by([col("category")])
    .agg([col("is_wait").cast(DataType::Float64).mean().alias("rate")])
    .collect()?;
    let cats = rates.column("category")?.str()?.clone();
    let vals = rates.column("rate")?.f64()?.clone();
    let mut found: BTreeMap<Category, f64> = BTreeMap::new();
    for (c, v) in cats.iter().zip(vals.iter()) {
        if let (Some(c), Some(v)) = (c.and_then(Category::from_name), v) {
            found.insert(c, v);
        }
    }
    let pairs: Vec<(Category, f64)> = Category::ALL
        .iter()
        .map(|&c| (c, found.get(&c).copied().unwrap_or(0.0)))
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

/// Reads a whole Parquet file.
pub fn read_parquet(path: &Path) -> Result<DataFrame> {
    let f = std::fs::File::open(path).with_context(|| {
        format!(
            "cannot open {}: run `haifu ingest ... --out DIR` first",
            path.display()
        )
    })?;
    Ok(ParquetReader::new(f).finish()?)
}

/// The two frames of a scoring run.
pub struct Evaluation {
    pub eval: DataFrame,
    pub calibration: DataFrame,
    /// Situations scored per moment.
    pub situations: BTreeMap<String, u64>,
}

/// Scores `estimators` on every included situation of a `danger_situations` frame.
pub fn evaluate(ds: &DataFrame, estimators: &[Estimator]) -> Result<Evaluation> {
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

    // Parse the included rows, then score them in parallel; results are assembled in row
    // order and calibration counts are integers, so the output does not depend on threads.
    let mut rows: Vec<Parsed> = Vec::new();
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
        rows.push(Parsed {
            row,
            visible: digits(&visible)?,
            holds: digits(&holds)?,
            genbutsu: g,
            waits: w,
        });
    }
    let scored: Vec<Vec<Scored>> = rows
        .par_iter()
        .map(|p| {
            let view = crate::danger::DangerView::from_counts(&p.visible, &p.holds, &p.genbutsu);
            let w = &p.waits;
            estimators
                .iter()
                .map(|est| {
                    let wt = weights(est, &view);
                    let mut bins = [(0u64, 0u64); CALIBRATION_BINS];
                    for k in 0..KINDS {
                        let b = calibration_bin(wt[k]);
                        bins[b].0 += 1;
                        bins[b].1 += w[k] as u64;
                    }
                    Scored {
                        metrics: [
                            rmse(&wt, w),
                            cross_entropy(&wt, w),
                            auc(&wt, w),
                            brier(&wt, w),
                        ],
                        bins,
                    }
                })
                .collect()
        })
        .collect();
    let mut cols = EvalColumns::default();
    let mut calib: BTreeMap<(String, usize), [(u64, u64); CALIBRATION_BINS]> = BTreeMap::new();
    let mut situations: BTreeMap<String, u64> = BTreeMap::new();
    for (p, per_estimator) in rows.iter().zip(scored) {
        let (row, w) = (p.row, &p.waits);
        let m = moment.get(row).unwrap_or_default().to_string();
        *situations.entry(m.clone()).or_default() += 1;
        for (ei, sc) in per_estimator.into_iter().enumerate() {
            cols.row.push(row as u32);
            cols.estimator.push(ei as u8);
            cols.hand.push(hand.get(row).unwrap_or(0));
            cols.riichi_seat.push(riichi_seat.get(row).unwrap_or(0));
            cols.rmse.push(sc.metrics[0]);
            cols.cross_entropy.push(sc.metrics[1]);
            cols.auc.push(sc.metrics[2]);
            cols.brier.push(sc.metrics[3]);
            cols.n_waits.push(w.iter().filter(|&&x| x).count() as i32);
            cols.riichi_turn.push(riichi_turn.get(row).unwrap_or(0));
            cols.riichi_is_dealer
                .push(riichi_is_dealer.get(row).unwrap_or(false));
            let bins = calib
                .entry((m.clone(), ei))
                .or_insert([(0, 0); CALIBRATION_BINS]);
            for (acc, add) in bins.iter_mut().zip(sc.bins) {
                acc.0 += add.0;
                acc.1 += add.1;
            }
        }
    }
    let eval = DataFrame::new_infer_height(vec![
        str_col(
            "game_id",
            cols.row
                .iter()
                .map(|&r| game_id.get(r as usize).unwrap_or("")),
        ),
        Column::new("hand".into(), cols.hand),
        Column::new("riichi_seat".into(), cols.riichi_seat),
        str_col(
            "moment",
            cols.row
                .iter()
                .map(|&r| moment.get(r as usize).unwrap_or("")),
        ),
        str_col(
            "estimator",
            cols.estimator
                .iter()
                .map(|&e| estimators[e as usize].name()),
        ),
        Column::new("rmse".into(), cols.rmse),
        Column::new("cross_entropy".into(), cols.cross_entropy),
        Column::new("auc".into(), cols.auc),
        Column::new("brier".into(), cols.brier),
        Column::new("n_waits".into(), cols.n_waits),
        Column::new("riichi_turn".into(), cols.riichi_turn),
        Column::new("riichi_is_dealer".into(), cols.riichi_is_dealer),
    ])?;
    let (mut cm, mut ce, mut cb, mut cl, mut cp, mut cw) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for ((m, ei), bins) in &calib {
        for (b, (pairs, wts)) in bins.iter().enumerate() {
            cm.push(m.clone());
            ce.push(estimators[*ei].name().to_string());
            cb.push(b as i32);
            cl.push(calibration_bin_label(b));
            cp.push(*pairs as i64);
            cw.push(*wts as i64);
        }
    }
    let calibration = DataFrame::new_infer_height(vec![
        Column::new("moment".into(), cm),
        Column::new("estimator".into(), ce),
        Column::new("bin".into(), cb),
        Column::new("bin_label".into(), cl),
        Column::new("pairs".into(), cp),
        Column::new("waits".into(), cw),
    ])?;
    Ok(Evaluation {
        eval,
        calibration,
        situations,
    })
}

/// One included situation as parsed from the frame.
struct Parsed {
    row: usize,
    visible: [u8; KINDS],
    holds: [u8; KINDS],
    genbutsu: [bool; KINDS],
    waits: [bool; KINDS],
}

/// One estimator's result on one situation.
struct Scored {
    /// rmse, cross-entropy, AUC, Brier.
    metrics: [f64; 4],
    /// (pairs, waits) per calibration bin.
    bins: [(u64, u64); CALIBRATION_BINS],
}

fn str_col<'a>(name: &str, values: impl Iterator<Item = &'a str>) -> Column {
    StringChunked::from_iter_values(name.into(), values)
        .into_series()
        .into_column()
}

#[derive(Default)]
struct EvalColumns {
    /// Source row in `danger_situations` (for game_id and moment).
    row: Vec<u32>,
    /// Index into the estimators.
    estimator: Vec<u8>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    rmse: Vec<f64>,
    cross_entropy: Vec<f64>,
    auc: Vec<f64>,
    brier: Vec<f64>,
    n_waits: Vec<i32>,
    riichi_turn: Vec<i32>,
    riichi_is_dealer: Vec<bool>,
}

/// Scores the default estimators on the `danger_situations` and `wait_danger` Parquet files
/// given (the ingest calls this on its temporary files before renaming them).
pub fn evaluate_default(situations: &Path, wait_danger: &Path) -> Result<Evaluation> {
    let names: Vec<String> = DEFAULT_ESTIMATORS.iter().map(|s| s.to_string()).collect();
    let t0 = std::time::Instant::now();
    let estimators = resolve(&names, wait_danger, None)?;
    let t1 = std::time::Instant::now();
    let ds = read_parquet(situations)?;
    let t2 = std::time::Instant::now();
    let r = evaluate(&ds, &estimators);
    if std::env::var_os("HAIFU_TIMINGS").is_some() {
        eprintln!(
            "timing:   phoenix-table {:.3} s, read situations {:.3} s, score {:.3} s",
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64(),
            t2.elapsed().as_secs_f64()
        );
    }
    r
}

/// Writes both frames into `frames` (atomically, each under a temporary name first).
pub fn write(frames: &Path, ev: &mut Evaluation) -> Result<()> {
    for (name, df) in [
        ("danger_eval", &mut ev.eval),
        ("danger_calibration", &mut ev.calibration),
    ] {
        let mut buf = Vec::new();
        ParquetWriter::new(&mut buf).finish(df)?;
        crate::frames::write_atomically(&frames.join(format!("{name}.parquet")), &buf)?;
    }
    Ok(())
}
