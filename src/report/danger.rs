//! §4 over the frames: the `phoenix-table` estimator from the `wait_danger` frame, scoring
//! estimators over the files of a `danger_situations` frame a slice at a time (the
//! `danger_eval`, `danger_calibration` and `danger_eval_summary` frames), and the tables
//! `haifu danger-eval` and `haifu run` print.
//!
//! Invariant: the frames scored replace those of the directory whole, in either layout (a
//! `danger_eval` in parts is removed once its one new file is in place), so no row is read
//! twice.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::*;
use rayon::prelude::*;

use crate::danger::{
    self, scores_each_for, weights, Category, CategoryTable, DangerView, Estimator, EstimatorName,
    EvalKey, EvalTotals, Moment, Scores,
};
use crate::frames::{self, dataset, parse_kind_digits, EvalRows, FrameChunk, FrameWriter};
use crate::rules::Players;
use crate::tile::KINDS;

/// `phoenix-table`: each category's §2 total rate (wait units / units) on the ingested corpus
/// itself (the games `keep` lists, when given: all of them games of `players`), from the
/// `wait_danger` frame of `frames`. A category with no units gets weight 0.
fn phoenix_table(frames: &Path, keep: Option<&Series>, players: Players) -> Result<CategoryTable> {
    let mut units = dataset::scan(frames, "wait_danger")?;
    if let Some(ids) = keep {
        units = units.filter(in_games(ids));
    }
    let counts = units
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
    Ok(danger::phoenix_table(&per_category, players))
}

/// The rows of the games in `ids`.
fn in_games(ids: &Series) -> Expr {
    col("game_id").is_in(lit(ids.clone()).implode(false), false)
}

/// The estimators named, in order: `phoenix-table` from the `wait_danger` frame of the frames
/// directory `frames`, `table` from `user_table` (an error without one).
pub fn resolve(
    names: &[EstimatorName],
    frames: &Path,
    user_table: Option<&CategoryTable>,
) -> Result<Vec<Estimator>> {
    resolve_on(names, frames, user_table, None, Players::Four)
}

/// [`resolve`] on the games `keep` lists (`phoenix-table` fitted on them), when given, all of
/// them games of `players` (a user's table must weigh that table's categories).
pub(crate) fn resolve_on(
    names: &[EstimatorName],
    frames: &Path,
    user_table: Option<&CategoryTable>,
    keep: Option<&Series>,
    players: Players,
) -> Result<Vec<Estimator>> {
    names
        .iter()
        .map(|&n| {
            Ok(match n {
                EstimatorName::PhoenixTable => {
                    Estimator::Table(phoenix_table(frames, keep, players)?)
                }
                EstimatorName::Table => match user_table {
                    Some(t) if !t.covers(players) => bail!(
                        "the table gives no weight to the six 19m-* categories of three-player \
                         games (1m and 9m have no suji there, §24): add 19m-0 … 19m-4 and \
                         19m-genbutsu to score it on three-player games"
                    ),
                    Some(t) => Estimator::Table(t.clone()),
                    None => bail!("estimator `table` needs --table FILE.csv"),
                },
                builtin => builtin.builtin().expect("the other names are built-ins"),
            })
        })
        .collect()
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

/// Scores `estimators` (at `first_position` on, as [`evaluate_from`]) over the files of a
/// `danger_situations` frame (in reading order, [`dataset::files`]), `slice_rows` rows of the
/// frame at a time, handing each slice's `danger_eval` rows to `write` in row order (at least
/// once, so a frame without rows still gives the frame's schema); returns the totals and the
/// situations scored per moment.
pub fn evaluate_file(
    files: &[PathBuf],
    estimators: &[Estimator],
    first_position: usize,
    slice_rows: usize,
    write: impl FnMut(&FrameChunk) -> Result<()>,
) -> Result<(EvalTotals, BTreeMap<String, u64>)> {
    evaluate_file_on(
        files,
        estimators,
        first_position,
        slice_rows,
        Among::all(Players::Four),
        write,
    )
}

/// Which situations of a `danger_situations` file a scoring reads: those of the games `keep`
/// lists (all, when `None`), and of those the games of `players` only when `only` (the
/// scoring of a file that holds both tables' games; the file's `players` column decides).
#[derive(Clone, Copy)]
pub(crate) struct Among<'a> {
    pub(crate) keep: Option<&'a Series>,
    pub(crate) players: Players,
    pub(crate) only: bool,
}

impl Among<'_> {
    /// Every situation of the file, all of them games of `players`.
    pub(crate) fn all(players: Players) -> Among<'static> {
        Among {
            keep: None,
            players,
            only: false,
        }
    }
}

/// [`evaluate_file`] on the situations `among` selects.
pub(crate) fn evaluate_file_on(
    files: &[PathBuf],
    estimators: &[Estimator],
    first_position: usize,
    slice_rows: usize,
    among: Among<'_>,
    mut write: impl FnMut(&FrameChunk) -> Result<()>,
) -> Result<(EvalTotals, BTreeMap<String, u64>)> {
    if files.is_empty() {
        bail!("no danger_situations file to score: run `haifu ingest ... --out DIR` first");
    }
    let mut totals = EvalTotals::default();
    let mut situations: BTreeMap<String, u64> = BTreeMap::new();
    for slice in dataset::Slices::new(files.to_vec(), slice_rows) {
        let mut slice = slice?;
        if let Some(ids) = among.keep {
            slice = slice.lazy().filter(in_games(ids)).collect()?;
        }
        if among.only {
            slice = slice
                .lazy()
                .filter(players_of_rows().eq(lit(among.players.seats() as i32)))
                .collect()?;
        }
        let ev = evaluate_from(&slice, estimators, first_position, among.players)?;
        write(&ev.eval)?;
        totals += ev.totals;
        for (moment, n) in ev.situations {
            *situations.entry(moment).or_default() += n;
        }
    }
    Ok((totals, situations))
}

/// The two frames of a scoring run.
pub struct Evaluation {
    /// The table of the games scored.
    pub players: Players,
    /// The `danger_eval` rows.
    pub(crate) eval: FrameChunk,
    pub totals: EvalTotals,
    /// Situations scored per moment.
    pub situations: BTreeMap<String, u64>,
}

impl Evaluation {
    /// The `danger_eval` rows as a frame.
    pub fn eval_frame(&self) -> PolarsResult<DataFrame> {
        self.eval.clone().into_dataframe()
    }

    /// The `danger_calibration` frame of these scores.
    pub fn calibration_frame(&self) -> PolarsResult<DataFrame> {
        frames::danger_calibration_frame(&[(self.players, &self.totals)])
    }

    /// The `danger_eval_summary` frame of these scores.
    pub fn summary_frame(&self) -> PolarsResult<DataFrame> {
        frames::danger_eval_summary_frame(&[(self.players, &self.totals)])
    }
}

impl EvalTotals {
    /// The `danger_calibration` frame of these totals (of four-player games).
    pub fn calibration_frame(&self) -> PolarsResult<DataFrame> {
        frames::danger_calibration_frame(&[(Players::Four, self)])
    }

    /// The `danger_eval_summary` frame of these totals (of four-player games).
    pub fn summary_frame(&self) -> PolarsResult<DataFrame> {
        frames::danger_eval_summary_frame(&[(Players::Four, self)])
    }
}

/// Scores `estimators` on every included situation of a `danger_situations` frame.
///
/// `first_position` is the report-order position of `estimators[0]` in the calibration
/// frame (0 unless these rows join builtin scores made elsewhere).
pub(crate) fn evaluate_from(
    ds: &DataFrame,
    estimators: &[Estimator],
    first_position: usize,
    players: Players,
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
            let view = DangerView::from_counts_for(&p.visible, &p.holds, &p.genbutsu, players);
            estimators
                .iter()
                .map(|est| {
                    let [s] = scores_each_for(&[weights(est, &view)], &p.waits, players);
                    s
                })
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
        players,
        eval: out.take_chunk(&ids, 0, &names),
        totals,
        situations,
    })
}

/// Scores `estimators` on every included situation of a `danger_situations` frame of
/// four-player games.
pub fn evaluate(ds: &DataFrame, estimators: &[Estimator]) -> Result<Evaluation> {
    evaluate_from(ds, estimators, 0, Players::Four)
}

/// The `players` of a frame's rows: its `players` column (frames written before version 5
/// have none: their games are four-player).
pub(crate) fn players_of_rows() -> Expr {
    col("players")
}

/// One included situation as parsed from the frame.
struct Parsed {
    key: EvalKey,
    visible: [u8; KINDS],
    holds: [u8; KINDS],
    genbutsu: [bool; KINDS],
    waits: [bool; KINDS],
}

/// The frames [`write_scores`] writes, each one file that replaces the frame whole.
const SCORED: [&str; 3] = ["danger_eval", "danger_calibration", "danger_eval_summary"];

/// Scores the estimators `names` (and `user_table`) over the frames in `frames`, writing the
/// three §4 frames there (each as one file: the parts of a frame in parts go once it is in
/// place).
/// All of them games of `players` (frames of both tables are scored as a slice of each).
pub(crate) fn score(
    frames: &Path,
    names: &[EstimatorName],
    user_table: Option<&CategoryTable>,
    players: Players,
) -> Result<()> {
    let estimators = resolve_on(names, frames, user_table, None, players)?;
    let situations = dataset::require(frames, "danger_situations")?;
    let mut writer = FrameWriter::new(frames)?;
    let written = write_scores(&mut writer, &situations, &estimators, Among::all(players));
    if written.is_err() {
        writer.abandon();
    }
    written?;
    for name in SCORED {
        dataset::remove_parts(frames, name)?;
    }
    Ok(())
}

/// Scores the situations of the `danger_situations` files `situations` (those of the games
/// `keep` lists, when given) a slice at a time into the three §4 frames ([`SCORED`]) in
/// `writer`'s directory, each under a temporary name until all are complete.
pub(crate) fn write_scores(
    writer: &mut FrameWriter,
    situations: &[PathBuf],
    estimators: &[Estimator],
    among: Among<'_>,
) -> Result<()> {
    let [eval, _, summary] = SCORED;
    let (totals, _) = evaluate_file_on(situations, estimators, 0, SITUATION_ROWS, among, |ev| {
        Ok(writer.write_chunk(eval, ev)?)
    })?;
    let totals = [(among.players, &totals)];
    frames::write_danger_totals(writer, &totals)?;
    writer.finish()?;
    writer.commit(&format!("{summary}.parquet"))?;
    Ok(())
}

/// The `danger-eval` and `danger-calibration` reports over the frames in `frames`.
pub(crate) fn reports(
    frames: &Path,
    slice: Option<&super::Slice>,
    table: &super::Table,
) -> Result<(DataFrame, DataFrame)> {
    let mut ctx = super::context_over(frames, None, slice, table)?;
    let summary = super::run_bundled(&mut ctx, "danger-eval")?;
    let calib = super::run_bundled(&mut ctx, "danger-calibration")?;
    Ok((summary, calib))
}

/// The §4 tables (a table per moment, best values starred, then the calibration table) from
/// the `danger-eval` and `danger-calibration` reports already run.
pub(crate) fn render_reports(
    summary: &DataFrame,
    calib: &DataFrame,
    players: Players,
) -> Result<String> {
    let mut out = String::new();
    for moment in ["declaration", "last_draw"] {
        let df = summary
            .clone()
            .lazy()
            .filter(col("moment").eq(lit(moment)))
            .collect()?;
        out.push_str(&format!("== moment: {moment} (* = best)\n"));
        out.push_str(&marked_table(&df)?);
        out.push('\n');
    }
    out.push_str(&format!(
        "== calibration (pairs of (situation, kind) by {}·w bin)\n",
        players.kind_count()
    ));
    out.push_str(&super::to_table(calib));
    Ok(out)
}

/// Estimators as rows, metrics as columns, the best value of each metric starred.
fn marked_table(df: &DataFrame) -> Result<String> {
    use super::render::Best;
    Ok(super::render::marked_table(
        df,
        &["estimator", "situations"],
        &[
            ("rmse", Best::Lowest),
            ("cross_entropy", Best::Lowest),
            ("auc", Best::Highest),
            ("brier", Best::Lowest),
        ],
        5,
    )?)
}
