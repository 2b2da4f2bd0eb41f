//! §8: the tsumo-rate models scored against the real tenpai draws of the `tenpai_draws` frame.
//!
//! Models (each gives p, the chance that a tenpai draw is a hit, as a sum over the wait
//! kinds' types t of a term):
//! - `uniform`: u(t)/U (§3's naive rate);
//! - `params-hv`: the §3 rate of (class of t, h(t), v(t)) fitted on the *other* fold's games
//!   (2-fold cross-fitting: every draw is scored by parameters that never saw its game);
//! - `params-thv`: the (class, turn, h, v) rate of the other fold, falling back to its
//!   (class, h, v) rate, then to `uniform`'s term;
//! - `file-hv`, `file-thv`: the same two read from a parameter file (`--params`).
//!
//! Where §8 is silent — a (class, h, v) bucket `params-hv` needs but the fitting fold (or the
//! file) lacks — the term falls back to `uniform`'s, as `params-thv`'s last fallback does;
//! every fallback is counted per model. p is capped at 1 − 1e-9 and floored at 1e-9 for the
//! logarithms only.
//!
//! Invariant: the frame is read a slice of rows at a time and every sum is added in row order,
//! so the report does not depend on threads and its memory not on the number of draws.

use crate::exact::ExactSum;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::*;
use rayon::prelude::*;
use serde_json::Value;

use crate::frames::dataset;
use crate::rules::Players;
use crate::tile::{self, KINDS, TYPES};

/// The tile classes of §3 (a type's class is [`tile::type_class`]), in parameter-file order.
pub(crate) const CLASSES: [&str; 5] = ["honor", "terminal", "28", "3to7", "red5"];
/// Turns are 1..TURNS.
const TURNS: usize = 64;
/// Held and visible copies are 0..=4.
const COUNTS: usize = 5;

/// The index in [`CLASSES`] of each type's class ([`tile::type_class`]; a test holds them equal).
const CLASS_OF: [u8; TYPES] = {
    let mut c = [0u8; TYPES];
    let mut t = 0;
    while t < TYPES {
        c[t] = if t >= KINDS {
            4
        } else if t >= 27 {
            0
        } else {
            match t % 9 {
                0 | 8 => 1,
                1 | 7 => 2,
                _ => 3,
            }
        };
        t += 1;
    }
    c
};

fn class_index(t: usize) -> usize {
    usize::from(CLASS_OF[t])
}

/// Rates of one parameter set: (units, hits) per (class, h, v) and per (class, turn, h, v).
#[derive(Clone)]
pub(crate) struct Rates {
    hv: Vec<(f64, bool)>,
    thv: Vec<(f64, bool)>,
}

impl Rates {
    fn empty() -> Rates {
        Rates {
            hv: vec![(0.0, false); CLASSES.len() * COUNTS * COUNTS],
            thv: vec![(0.0, false); CLASSES.len() * TURNS * COUNTS * COUNTS],
        }
    }

    fn hv_index(class: usize, h: usize, v: usize) -> Option<usize> {
        (h < COUNTS && v < COUNTS).then(|| (class * COUNTS + h) * COUNTS + v)
    }

    fn thv_index(class: usize, turn: usize, h: usize, v: usize) -> Option<usize> {
        (turn < TURNS && h < COUNTS && v < COUNTS)
            .then(|| ((class * TURNS + turn) * COUNTS + h) * COUNTS + v)
    }

    fn set_hv(&mut self, class: usize, h: usize, v: usize, rate: f64) {
        if let Some(i) = Self::hv_index(class, h, v) {
            self.hv[i] = (rate, true);
        }
    }

    fn set_thv(&mut self, class: usize, turn: usize, h: usize, v: usize, rate: f64) {
        if let Some(i) = Self::thv_index(class, turn, h, v) {
            self.thv[i] = (rate, true);
        }
    }

    fn hv(&self, class: usize, h: usize, v: usize) -> Option<f64> {
        let (r, known) = self.hv[Self::hv_index(class, h, v)?];
        known.then_some(r)
    }

    fn thv(&self, class: usize, turn: usize, h: usize, v: usize) -> Option<f64> {
        let (r, known) = self.thv[Self::thv_index(class, turn, h, v)?];
        known.then_some(r)
    }

    /// The rates of fold `fold`'s buckets in a `draw_rate` frame (hits / units, buckets with
    /// units only).
    fn of_fold(draw_rate: &DataFrame, fold: i32) -> Result<Rates> {
        let mut rates = Rates::empty();
        let per = |keys: &[&str]| -> Result<DataFrame> {
            Ok(draw_rate
                .clone()
                .lazy()
                .filter(col("fold").eq(lit(fold)))
                .group_by(keys.iter().map(|k| col(*k)).collect::<Vec<_>>())
                .agg([col("units").sum(), col("hits").sum()])
                .collect()?)
        };
        let ints = |df: &DataFrame, c: &str| -> Result<Vec<i64>> {
            let s = df.column(c)?.cast(&DataType::Int64)?;
            Ok(s.i64()?.into_no_null_iter().collect())
        };
        let classes = |df: &DataFrame| -> Result<Vec<usize>> {
            let s = df.column("tile_class")?.str()?.clone();
            s.iter()
                .map(|c| {
                    let c = c.unwrap_or_default();
                    CLASSES
                        .iter()
                        .position(|&x| x == c)
                        .with_context(|| format!("draw_rate: unknown tile_class {c:?}"))
                })
                .collect()
        };
        let hv = per(&["tile_class", "held", "visible"])?;
        let (cl, h, v, u, x) = (
            classes(&hv)?,
            ints(&hv, "held")?,
            ints(&hv, "visible")?,
            ints(&hv, "units")?,
            ints(&hv, "hits")?,
        );
        for i in 0..hv.height() {
            if u[i] > 0 {
                rates.set_hv(
                    cl[i],
                    h[i] as usize,
                    v[i] as usize,
                    x[i] as f64 / u[i] as f64,
                );
            }
        }
        let thv = per(&["tile_class", "turn", "held", "visible"])?;
        let (cl, t, h, v, u, x) = (
            classes(&thv)?,
            ints(&thv, "turn")?,
            ints(&thv, "held")?,
            ints(&thv, "visible")?,
            ints(&thv, "units")?,
            ints(&thv, "hits")?,
        );
        for i in 0..thv.height() {
            if u[i] > 0 {
                rates.set_thv(
                    cl[i],
                    t[i] as usize,
                    h[i] as usize,
                    v[i] as usize,
                    x[i] as f64 / u[i] as f64,
                );
            }
        }
        Ok(rates)
    }

    /// The rates of a parameter file (`haifu params tsumo-rate`, or an engine author's own
    /// in the same format). A format, format version or definitions version this haifu does
    /// not know is refused, naming the field.
    pub(crate) fn of_file(path: &Path) -> Result<Rates> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let v: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let field = |name: &str| v.get(name).cloned().unwrap_or(Value::Null);
        let refuse = |name: &str, want: &str| -> Result<()> {
            bail!(
                "{}: field `{name}` is {}, expected {want}",
                path.display(),
                field(name)
            )
        };
        if field("format") != crate::param_file::FORMAT {
            refuse("format", &format!("\"{}\"", crate::param_file::FORMAT))?;
        }
        if field("format_version") != crate::param_file::FORMAT_VERSION {
            refuse(
                "format_version",
                &crate::param_file::FORMAT_VERSION.to_string(),
            )?;
        }
        // §3 is the same in definitions versions 1 and 2.
        if !matches!(field("definitions_version").as_str(), Some("1" | "2")) {
            refuse("definitions_version", "\"1\" or \"2\"")?;
        }
        let mut rates = Rates::empty();
        let rows = |name: &str| -> Result<Vec<Value>> {
            match field(name) {
                Value::Array(rows) => Ok(rows),
                other => bail!(
                    "{}: field `{name}` is {other}, expected an array of buckets",
                    path.display()
                ),
            }
        };
        let num = |r: &Value, k: &str, i: usize, name: &str| -> Result<f64> {
            r.get(k)
                .and_then(Value::as_f64)
                .with_context(|| format!("{}: {name}[{i}] has no number `{k}`", path.display()))
        };
        for (section, with_turn) in [("by_held_visible", false), ("by_turn_held_visible", true)] {
            for (i, r) in rows(section)?.iter().enumerate() {
                let class = r.get("class").and_then(Value::as_str).unwrap_or_default();
                if class == "all" {
                    continue;
                }
                let Some(c) = CLASSES.iter().position(|&x| x == class) else {
                    bail!(
                        "{}: {section}[{i}] has class {class:?}, expected one of all, {}",
                        path.display(),
                        CLASSES.join(", ")
                    );
                };
                let rate = num(r, "rate", i, section)?;
                let (h, v) = (
                    num(r, "held", i, section)? as usize,
                    num(r, "visible", i, section)? as usize,
                );
                if with_turn {
                    rates.set_thv(c, num(r, "turn", i, section)? as usize, h, v, rate);
                } else {
                    rates.set_hv(c, h, v, rate);
                }
            }
        }
        Ok(rates)
    }
}

/// How a model predicts a term.
#[derive(Clone)]
enum Model {
    Uniform,
    /// Per fold of the scored draw, the rates fitted on the other fold; `thv` with the turn.
    CrossFit {
        rates: [Rates; 2],
        thv: bool,
    },
    File {
        rates: Rates,
        thv: bool,
    },
}

/// A model's sums over a group of tenpai draws.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sums {
    units: u64,
    hits: u64,
    /// Σp, the log-losses and the Brier scores, summed exactly (the same in any row order:
    /// frames in parts, shards merged).
    expected: ExactSum,
    log_loss: ExactSum,
    brier: ExactSum,
    /// Terms that fell back (thv → hv or uniform, hv → uniform), each counted once.
    fallbacks: u64,
}

/// What one draw adds to a model's sums.
#[derive(Clone, Copy)]
struct Contribution {
    p: f64,
    hit: bool,
    /// −[hit·ln p + (1 − hit)·ln(1 − p)], p capped to [1e-9, 1 − 1e-9].
    log_loss: f64,
    brier: f64,
    fallbacks: u64,
}

impl Contribution {
    fn new(p: f64, hit: bool, fallbacks: u64) -> Contribution {
        let q = p.clamp(1e-9, 1.0 - 1e-9);
        Contribution {
            p,
            hit,
            log_loss: -if hit { q.ln() } else { (1.0 - q).ln() },
            brier: (p - f64::from(u8::from(hit))).powi(2),
            fallbacks,
        }
    }
}

impl std::ops::AddAssign<&Sums> for Sums {
    fn add_assign(&mut self, o: &Sums) {
        self.units += o.units;
        self.hits += o.hits;
        self.expected += o.expected;
        self.log_loss += o.log_loss;
        self.brier += o.brier;
        self.fallbacks += o.fallbacks;
    }
}

impl Sums {
    fn add(&mut self, c: &Contribution) {
        self.units += 1;
        self.hits += u64::from(c.hit);
        self.expected.add(c.p);
        self.log_loss.add(c.log_loss);
        self.brier.add(c.brier);
        self.fallbacks += c.fallbacks;
    }
}

/// One wait type of a draw: type, held, visible, and the type's copies in the game (4; a
/// five of a game with red fives: 3 black, 1 red).
type Term = (u8, u8, u8, u8);

/// p of `model` for a draw of fold `fold` at `turn`, and how many of its terms fell back (a
/// term counts once, whether it fell back to the pooled rate or to `uniform`'s term).
fn predict(model: &Model, terms: &[Term], turn: usize, unseen: f64, fold: usize) -> (f64, u64) {
    let mut p = 0.0;
    let mut fell = 0;
    for &(t, h, v, copies) in terms {
        let u = f64::from(copies.saturating_sub(h + v));
        let (t, h, v) = (usize::from(t), usize::from(h), usize::from(v));
        let uniform = if unseen > 0.0 { u / unseen } else { 0.0 };
        let class = class_index(t);
        let (rates, thv) = match model {
            Model::Uniform => {
                p += uniform;
                continue;
            }
            Model::CrossFit { rates, thv } => (&rates[1 - fold], *thv),
            Model::File { rates, thv } => (rates, *thv),
        };
        let own = if thv {
            rates.thv(class, turn, h, v)
        } else {
            rates.hv(class, h, v)
        };
        p += match own {
            Some(r) => r,
            None => {
                fell += 1;
                let pooled = if thv { rates.hv(class, h, v) } else { None };
                pooled.unwrap_or(uniform)
            }
        };
    }
    (p, fell)
}

/// The outs buckets, turn buckets, calibration bins and hazard rows of the report.
const OUTS: [&str; 6] = ["0", "1-2", "3-4", "5-6", "7-8", "9+"];
const TURN_BUCKETS: [&str; 3] = ["1-6", "7-12", "13+"];
const BINS: [(f64, &str); 8] = [
    (0.02, "[0, 2%)"),
    (0.04, "[2, 4%)"),
    (0.06, "[4, 6%)"),
    (0.08, "[6, 8%)"),
    (0.10, "[8, 10%)"),
    (0.15, "[10, 15%)"),
    (0.20, "[15, 20%)"),
    (f64::INFINITY, "[20%, 1]"),
];
const HAZARD: usize = 18;

fn outs_bucket(outs: i64) -> usize {
    match outs {
        0 => 0,
        1..=2 => 1,
        3..=4 => 2,
        5..=6 => 3,
        7..=8 => 4,
        _ => 5,
    }
}

fn turn_bucket(turn: i64) -> usize {
    match turn {
        ..=6 => 0,
        7..=12 => 1,
        _ => 2,
    }
}

/// One model's sums, overall and split.
#[derive(Clone, Copy, Default)]
struct ModelSums {
    overall: Sums,
    riichi: [Sums; 2],
    outs: [Sums; OUTS.len()],
    turn: [Sums; TURN_BUCKETS.len()],
    calibration: [Sums; BINS.len()],
    /// Riichi draws by draws since riichi (1..=17, 18+).
    hazard: [Sums; HAZARD],
}

impl std::ops::AddAssign<&ModelSums> for ModelSums {
    fn add_assign(&mut self, o: &ModelSums) {
        fn add(a: &mut [Sums], b: &[Sums]) {
            a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        }
        self.overall += &o.overall;
        add(&mut self.riichi, &o.riichi);
        add(&mut self.outs, &o.outs);
        add(&mut self.turn, &o.turn);
        add(&mut self.calibration, &o.calibration);
        add(&mut self.hazard, &o.hazard);
    }
}

impl ModelSums {
    fn add(&mut self, d: &Draw, c: &Contribution) {
        self.overall.add(c);
        self.riichi[usize::from(d.in_riichi)].add(c);
        self.outs[outs_bucket(i64::from(d.outs))].add(c);
        self.turn[turn_bucket(i64::from(d.turn))].add(c);
        let bin = BINS
            .iter()
            .position(|&(hi, _)| c.p < hi)
            .unwrap_or(BINS.len() - 1);
        self.calibration[bin].add(c);
        if d.in_riichi {
            self.hazard[usize::from(d.since.clamp(1, HAZARD as u8)) - 1].add(c);
        }
    }
}

/// Every model's name and sums.
struct Totals {
    names: Vec<&'static str>,
    models: Vec<ModelSums>,
}

/// Most wait types a tenpai hand can have: 13 kinds (thirteen orphans) or, in a standard
/// hand, 9 kinds of which at most 3 are fives with a red type each.
const MAX_TERMS: usize = 16;

/// One tenpai draw as the models see it.
#[derive(Clone, Copy)]
struct Draw {
    fold: u8,
    turn: u8,
    in_riichi: bool,
    since: u8,
    outs: u8,
    unseen: u8,
    hit: bool,
    n_terms: u8,
    terms: [Term; MAX_TERMS],
}

impl Draw {
    fn terms(&self) -> &[Term] {
        &self.terms[..usize::from(self.n_terms)]
    }
}

/// The values of an `Int32` column (`null` for a null), one slice per chunk.
fn ints(df: &DataFrame, c: &str, null: i32) -> Result<Vec<i32>> {
    let ca = df.column(c)?.i32()?;
    let mut out = Vec::with_capacity(ca.len());
    for arr in ca.downcast_iter() {
        if arr.validity().is_none_or(|v| v.unset_bits() == 0) {
            out.extend_from_slice(arr.values());
        } else {
            out.extend(arr.iter().map(|v| v.copied().unwrap_or(null)));
        }
    }
    Ok(out)
}

/// The values of a `Boolean` column (`null` for a null).
fn bools(df: &DataFrame, c: &str, null: bool) -> Result<Vec<bool>> {
    let ca = df.column(c)?.bool()?;
    let mut out = Vec::with_capacity(ca.len());
    for arr in ca.downcast_iter() {
        if arr.validity().is_none_or(|v| v.unset_bits() == 0) {
            out.extend(arr.values().iter());
        } else {
            out.extend(arr.iter().map(|v| v.unwrap_or(null)));
        }
    }
    Ok(out)
}

/// The draws of one slice of the `tenpai_draws` frame (`first_row` its first row's index, for
/// the messages).
fn draws_of(df: &DataFrame, first_row: usize) -> Result<Vec<Draw>> {
    let narrow =
        |v: Vec<i32>| -> Vec<u8> { v.into_iter().map(|x| x.clamp(0, 255) as u8).collect() };
    let fold = narrow(ints(df, "fold", 0)?);
    let turn = narrow(ints(df, "turn", 1)?);
    let since = narrow(ints(df, "draws_since_riichi", 1)?);
    let outs = narrow(ints(df, "outs", 0)?);
    let unseen = narrow(ints(df, "unseen", 0)?);
    let (riichi, hit) = (bools(df, "in_riichi", false)?, bools(df, "hit", false)?);
    let wait_types = df.column("wait_types")?.str()?.clone();
    let mut draws = Vec::with_capacity(df.height());
    for (row, text) in wait_types.iter().enumerate() {
        let bad = || {
            format!(
                "tenpai_draws row {}: malformed wait_types {:?} (expected `type:held:visible`, \
                 space-separated)",
                first_row + row,
                text.unwrap_or_default()
            )
        };
        let (terms, n_terms) = parse_wait_types(text.unwrap_or_default()).with_context(bad)?;
        draws.push(Draw {
            fold: fold[row].min(1),
            turn: turn[row].max(1),
            in_riichi: riichi[row],
            since: since[row],
            outs: outs[row],
            unseen: unseen[row],
            hit: hit[row],
            n_terms,
            terms,
        });
    }
    Ok(draws)
}

/// Draws scored by one task: the sums of each chunk are added in chunk order, so the totals
/// are the same on any number of threads.
const CHUNK: usize = 4096;

/// Scores every model over the `tenpai_draws` frame of the files `tenpai_draws` (in reading
/// order), fitting the cross-fitted models on `draw_rate` (the frame), and `file` from
/// `params` when given; with `only`, over the draws and buckets of that table alone (frames of
/// both tables, §24).
fn score(
    draw_rate: &DataFrame,
    tenpai_draws: &[PathBuf],
    params: Option<&Path>,
    only: Option<Players>,
) -> Result<Totals> {
    if draw_rate.column("fold").is_err() {
        bail!("draw_rate has no fold column (written before definitions version 2): ingest again");
    }
    let table_rows;
    let draw_rate = match only {
        Some(p) => {
            table_rows = draw_rate
                .clone()
                .lazy()
                .filter(col("players").eq(lit(p.seats() as i32)))
                .collect()?;
            &table_rows
        }
        None => draw_rate,
    };
    let mut models = vec![("uniform", Model::Uniform)];
    let folds = [Rates::of_fold(draw_rate, 0)?, Rates::of_fold(draw_rate, 1)?];
    models.push((
        "params-hv",
        Model::CrossFit {
            rates: folds.clone(),
            thv: false,
        },
    ));
    models.push((
        "params-thv",
        Model::CrossFit {
            rates: folds,
            thv: true,
        },
    ));
    if let Some(path) = params {
        let rates = Rates::of_file(path)?;
        models.push((
            "file-hv",
            Model::File {
                rates: rates.clone(),
                thv: false,
            },
        ));
        models.push(("file-thv", Model::File { rates, thv: true }));
    }
    let mut totals = Totals {
        names: models.iter().map(|(name, _)| *name).collect(),
        models: vec![ModelSums::default(); models.len()],
    };
    let mut columns = vec![
        "fold",
        "turn",
        "in_riichi",
        "draws_since_riichi",
        "outs",
        "unseen",
        "hit",
        "wait_types",
    ];
    if only.is_some() {
        columns.push("players");
    }
    let score_chunk = |draws: &[Draw]| -> Vec<ModelSums> {
        let mut sums = vec![ModelSums::default(); models.len()];
        for d in draws {
            for (m, (_, model)) in models.iter().enumerate() {
                let (p, fell) = predict(
                    model,
                    d.terms(),
                    usize::from(d.turn),
                    f64::from(d.unseen),
                    usize::from(d.fold),
                );
                sums[m].add(d, &Contribution::new(p, d.hit, fell));
            }
        }
        sums
    };
    let mut offset = 0;
    for df in dataset::Slices::new(tenpai_draws.to_vec(), SLICE_ROWS).columns(&columns) {
        let mut df = df?;
        let rows = df.height();
        if let Some(p) = only {
            df = df
                .lazy()
                .filter(col("players").eq(lit(p.seats() as i32)))
                .collect()?;
        }
        let draws = draws_of(&df, offset)?;
        offset += rows;
        let chunks: Vec<Vec<ModelSums>> = draws.par_chunks(CHUNK).map(score_chunk).collect();
        for chunk in &chunks {
            for (total, sums) in totals.models.iter_mut().zip(chunk) {
                *total += sums;
            }
        }
    }
    Ok(totals)
}

/// Rows of `tenpai_draws` read at a time.
const SLICE_ROWS: usize = 1 << 17;

/// The terms of a `wait_types` value (`5p:1:2 0p:0:1`: items of exactly six bytes, one space
/// apart): type, held, visible and copies (a black five has 3 copies when its red type is also
/// listed, as it is in every game with red fives).
fn parse_wait_types(text: &str) -> Option<([Term; MAX_TERMS], u8)> {
    let bytes = text.as_bytes();
    let n = bytes.len().div_ceil(7);
    if n == 0 || n > MAX_TERMS || bytes.len() != 7 * n - 1 {
        return None;
    }
    let mut terms = [(0, 0, 0, 0); MAX_TERMS];
    for (i, term) in terms.iter_mut().enumerate().take(n) {
        let item = &bytes[7 * i..7 * i + 6];
        if item[2] != b':' || item[4] != b':' || (i + 1 < n && bytes[7 * i + 6] != b' ') {
            return None;
        }
        let t = std::str::from_utf8(&item[..2])
            .ok()
            .and_then(tile::parse_type)?;
        let (h, v) = (item[3].wrapping_sub(b'0'), item[5].wrapping_sub(b'0'));
        if h > 4 || v > 4 {
            return None;
        }
        *term = (t as u8, h, v, tile::copies_of_type(t, false));
    }
    for i in 0..n {
        let t = usize::from(terms[i].0);
        if t >= KINDS {
            let five = tile::FIVES[t - KINDS] as u8;
            for term in terms[..n].iter_mut().filter(|term| term.0 == five) {
                term.3 = 3;
            }
        }
    }
    Some((terms, n as u8))
}

/// The §8 report as one long frame: section (`models`, `in_riichi`, `outs`, `turn`,
/// `calibration`, `hazard`), value (the split's label; `all` for `models`), model, units,
/// hits, expected (Σp), obs_exp (hits / expected), log_loss, brier, mean_p, fallbacks.
pub(crate) fn report(
    frames: &Path,
    params: Option<&Path>,
    table: &super::Table,
) -> Result<DataFrame> {
    let draw_rate = dataset::read(frames, "draw_rate", None)?;
    let tenpai_draws = dataset::require(frames, "tenpai_draws")?;
    let only = table.mixed().then_some(table.players);
    report_from(&draw_rate, &tenpai_draws, params, only)
}

/// [`report`] over a `draw_rate` frame and the files of a `tenpai_draws` frame in reading
/// order (the ingest scores its one file as it finishes, before it is renamed into place);
/// with `only`, over that table's draws and buckets alone.
pub(crate) fn report_from(
    draw_rate: &DataFrame,
    tenpai_draws: &[PathBuf],
    params: Option<&Path>,
    only: Option<Players>,
) -> Result<DataFrame> {
    let t = score(draw_rate, tenpai_draws, params, only)?;
    let mut rows: Vec<(&str, String, &str, Sums)> = Vec::new();
    for (m, name) in t.names.iter().enumerate() {
        rows.push(("models", "all".into(), name, t.models[m].overall));
    }
    for (label, i) in [("false", 0), ("true", 1)] {
        for (m, name) in t.names.iter().enumerate() {
            rows.push(("in_riichi", label.into(), name, t.models[m].riichi[i]));
        }
    }
    for (i, label) in OUTS.iter().enumerate() {
        for (m, name) in t.names.iter().enumerate() {
            rows.push(("outs", label.to_string(), name, t.models[m].outs[i]));
        }
    }
    for (i, label) in TURN_BUCKETS.iter().enumerate() {
        for (m, name) in t.names.iter().enumerate() {
            rows.push(("turn", label.to_string(), name, t.models[m].turn[i]));
        }
    }
    for (i, (_, label)) in BINS.iter().enumerate() {
        for (m, name) in t.names.iter().enumerate() {
            rows.push((
                "calibration",
                label.to_string(),
                name,
                t.models[m].calibration[i],
            ));
        }
    }
    for d in 0..HAZARD {
        let label = if d + 1 == HAZARD {
            format!("{HAZARD}+")
        } else {
            (d + 1).to_string()
        };
        for (m, name) in t.names.iter().enumerate() {
            rows.push(("hazard", label.clone(), name, t.models[m].hazard[d]));
        }
    }
    let f = |g: &dyn Fn(&Sums) -> f64| -> Vec<f64> { rows.iter().map(|r| g(&r.3)).collect() };
    let per_unit = |x: f64, s: &Sums| {
        if s.units > 0 {
            x / s.units as f64
        } else {
            f64::NAN
        }
    };
    Ok(DataFrame::new_infer_height(vec![
        Column::new(
            "section".into(),
            rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        ),
        Column::new(
            "value".into(),
            rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>(),
        ),
        Column::new("model".into(), rows.iter().map(|r| r.2).collect::<Vec<_>>()),
        Column::new(
            "units".into(),
            rows.iter().map(|r| r.3.units as i64).collect::<Vec<_>>(),
        ),
        Column::new(
            "hits".into(),
            rows.iter().map(|r| r.3.hits as i64).collect::<Vec<_>>(),
        ),
        Column::new("expected".into(), f(&|s| s.expected.value())),
        Column::new(
            "obs_exp".into(),
            f(&|s| {
                if s.expected.value() > 0.0 {
                    s.hits as f64 / s.expected.value()
                } else {
                    f64::NAN
                }
            }),
        ),
        Column::new("log_loss".into(), f(&|s| per_unit(s.log_loss.value(), s))),
        Column::new("brier".into(), f(&|s| per_unit(s.brier.value(), s))),
        Column::new("mean_p".into(), f(&|s| per_unit(s.expected.value(), s))),
        Column::new(
            "fallbacks".into(),
            rows.iter()
                .map(|r| r.3.fallbacks as i64)
                .collect::<Vec<_>>(),
        ),
    ])?)
}

/// The report for a person: the models over every tenpai draw with the best value of each
/// metric starred, then one table per split, the calibration bins and the riichi hazard table.
pub(crate) fn render_table(df: &DataFrame) -> Result<String> {
    use super::render::{marked_table, Best};
    let section = |name: &str| -> Result<DataFrame> {
        Ok(df
            .clone()
            .lazy()
            .filter(col("section").eq(lit(name)))
            .drop(cols(["section"]))
            .collect()?)
    };
    let models = section("models")?;
    let units = models
        .column("units")?
        .get(0)?
        .extract::<i64>()
        .unwrap_or(0);
    let hits = models.column("hits")?.get(0)?.extract::<i64>().unwrap_or(0);
    let mut out = format!(
        "== tsumo-rate models on {units} tenpai draws, {hits} hits (docs/definitions.md §8; * = best)\n"
    );
    let metrics = [
        ("obs_exp", Best::NearestOne),
        ("log_loss", Best::Lowest),
        ("brier", Best::Lowest),
    ];
    out.push_str(&marked_table(
        &models,
        &["model", "units", "hits", "fallbacks"],
        &metrics,
        5,
    )?);
    for (name, what) in [
        ("in_riichi", "by in_riichi"),
        ("outs", "by outs"),
        ("turn", "by turn (1-6, 7-12, 13+)"),
        ("calibration", "calibration by p"),
        ("hazard", "riichi hands by draws since riichi"),
    ] {
        out.push_str(&format!("\n== {what}\n"));
        let part = section(name)?;
        let part = part
            .lazy()
            .select([
                col("value"),
                col("model"),
                col("units"),
                col("hits"),
                (col("hits").cast(DataType::Float64) / col("units").cast(DataType::Float64))
                    .alias("hit_rate"),
                col("mean_p"),
                col("obs_exp"),
                col("log_loss"),
                col("brier"),
            ])
            .collect()?;
        out.push_str(&marked_table(
            &part,
            &["value", "model", "units", "hits"],
            &[
                ("hit_rate", Best::Unmarked),
                ("mean_p", Best::Unmarked),
                ("obs_exp", Best::Unmarked),
                ("log_loss", Best::Unmarked),
                ("brier", Best::Unmarked),
            ],
            5,
        )?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_table_is_the_section_3_class() {
        for t in 0..TYPES {
            assert_eq!(CLASSES[class_index(t)], tile::type_class(t), "type {t}");
        }
    }

    #[test]
    fn wait_types_parse_with_the_copies_of_each_type() {
        // A red game's five is two types: 3 black copies and the red one.
        let (terms, n) = parse_wait_types("2p:0:0 5p:0:1 0p:0:0").unwrap();
        assert_eq!(
            &terms[..usize::from(n)],
            &[(10, 0, 0, 4), (13, 0, 1, 3), (35, 0, 0, 1)]
        );
        // Without its red type (a game without red fives) a five has 4.
        let (terms, n) = parse_wait_types("5m:1:2").unwrap();
        assert_eq!(&terms[..usize::from(n)], &[(4, 1, 2, 4)]);
        let (terms, n) = parse_wait_types("3z:1:3").unwrap();
        assert_eq!(&terms[..usize::from(n)], &[(29, 1, 3, 4)]);
        for bad in [
            "",
            "2p",
            "2p:0:0 ",
            "2p:0:0  5p:0:1",
            "2x:0:0",
            "2p:5:0",
            "2p-0-0",
            "8z:0:0",
        ] {
            assert!(parse_wait_types(bad).is_none(), "{bad:?}");
        }
    }

    /// tools/fixtures/EXPECTED_V2.md §4.4: the hand-made parameter file.
    const TINY: &str = include_str!("../../tools/fixtures/tiny_tsumo_rate.json");

    fn tiny() -> Rates {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tiny.json");
        std::fs::write(&path, TINY).unwrap();
        Rates::of_file(&path).unwrap()
    }

    /// EXPECTED_V2.md §4.4, worked by hand: p of three f007 draws under the tiny file.
    #[test]
    fn tiny_parameter_file_predictions() {
        let rates = tiny();
        let hv = Model::File {
            rates: rates.clone(),
            thv: false,
        };
        let thv = Model::File { rates, thv: true };
        let draw = |s: &str| parse_wait_types(s).unwrap();
        let close = |got: (f64, u64), want: (f64, u64)| {
            assert!(
                (got.0 - want.0).abs() < 1e-12 && got.1 == want.1,
                "{got:?} != {want:?}"
            );
        };
        // Draw 6 (turn 2, U 117): hv 0.012 + 0.01 + 0.01; thv 0.0125 + [(3to7, 2, 0, 1)
        // absent: the pooled 0.01] + 0.025.
        let (t, n) = draw("2p:0:0 5p:0:1 0p:0:0");
        let terms = &t[..usize::from(n)];
        close(predict(&hv, terms, 2, 117.0, 0), (0.032, 0));
        close(predict(&thv, terms, 2, 117.0, 0), (0.0475, 1));
        close(
            predict(&Model::Uniform, terms, 2, 117.0, 0),
            (7.0 / 117.0, 0),
        );
        // Draw 9 (the rinshan draw, turn 2, U 113): hv 0.01 + 0.015; thv 0.01 (pooled) + 0.0125.
        let (t, n) = draw("3m:0:1 6m:0:0");
        let terms = &t[..usize::from(n)];
        close(predict(&hv, terms, 2, 113.0, 0), (0.025, 0));
        close(predict(&thv, terms, 2, 113.0, 0), (0.0225, 1));
        // Draw 19 (turn 5, U 100): thv: 28 has neither (28, 5, 0, 1) nor (28, 0, 1), so the
        // uniform term 3/100; (3to7, 5, 0, 1) 0.02; red5 at turn 5 absent: pooled 0.01.
        // hv falls back to the uniform term for the missing (28, 0, 1) as well (README).
        let (t, n) = draw("2p:0:1 5p:0:1 0p:0:0");
        let terms = &t[..usize::from(n)];
        close(predict(&thv, terms, 5, 100.0, 0), (0.06, 2));
        close(predict(&hv, terms, 5, 100.0, 0), (0.05, 1));
        // A karaten wait: u = 0, so uniform (and its fallback) is 0.
        let (t, n) = draw("3z:1:3");
        let terms = &t[..usize::from(n)];
        close(predict(&Model::Uniform, terms, 3, 107.0, 0), (0.0, 0));
        close(predict(&thv, terms, 3, 107.0, 0), (0.0, 1));
    }

    /// Cross-fitting: a draw of fold f is scored by the rates of the other fold.
    #[test]
    fn cross_fit_uses_the_other_fold() {
        let mut fold0 = Rates::empty();
        fold0.set_hv(3, 0, 0, 0.5);
        let mut fold1 = Rates::empty();
        fold1.set_hv(3, 0, 0, 0.25);
        let model = Model::CrossFit {
            rates: [fold0, fold1],
            thv: false,
        };
        let (t, n) = parse_wait_types("4m:0:0").unwrap();
        let terms = &t[..usize::from(n)];
        assert_eq!(predict(&model, terms, 1, 100.0, 0), (0.25, 0));
        assert_eq!(predict(&model, terms, 1, 100.0, 1), (0.5, 0));
    }

    #[test]
    fn contributions_cap_p_for_the_logarithm_only() {
        let c = Contribution::new(0.0, false, 0);
        assert_eq!((c.p, c.brier), (0.0, 0.0));
        assert!((c.log_loss - 1e-9).abs() < 1e-15);
        let c = Contribution::new(0.0, true, 0);
        assert!((c.log_loss - 1e-9f64.ln().abs()).abs() < 1e-9);
        let c = Contribution::new(0.25, true, 0);
        assert!((c.log_loss - 4f64.ln()).abs() < 1e-15);
        assert_eq!(c.brier, 0.5625);
    }

    /// A file whose format, format version or definitions version this haifu does not know
    /// is refused, naming the field.
    #[test]
    fn unknown_files_are_refused_naming_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let refuse = |text: &str| -> String {
            let path = dir.path().join("p.json");
            std::fs::write(&path, text).unwrap();
            format!("{:#}", Rates::of_file(&path).err().expect("refused"))
        };
        let with = |field: &str, value: &str| {
            let mut v: Value = serde_json::from_str(TINY).unwrap();
            v[field] = serde_json::from_str(value).unwrap();
            v.to_string()
        };
        let e = refuse(&with("format", "\"other.format\""));
        assert!(
            e.contains("field `format` is \"other.format\", expected \"haifu.tsumo-rate\""),
            "{e}"
        );
        let e = refuse(&with("format_version", "2"));
        assert!(e.contains("field `format_version` is 2, expected 1"), "{e}");
        let e = refuse(&with("definitions_version", "\"3\""));
        assert!(e.contains("field `definitions_version` is \"3\""), "{e}");
        let e = refuse(&with("by_held_visible", "{}"));
        assert!(e.contains("field `by_held_visible`"), "{e}");
        let e = refuse("not json");
        assert!(e.contains("is not JSON"), "{e}");
        let e = refuse(&TINY.replace("\"class\": \"honor\"", "\"class\": \"dragon\""));
        assert!(e.contains("by_held_visible[0] has class \"dragon\""), "{e}");
        let e = refuse(&TINY.replace("\"rate\": 0.03", "\"rate\": \"high\""));
        assert!(e.contains("by_held_visible[0] has no number `rate`"), "{e}");
    }
}
