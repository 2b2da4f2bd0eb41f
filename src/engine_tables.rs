//! §22: the tables engines load (§17 tenpai, §18 win chance, §19 placement, §20 ron share),
//! haifu's own and the engines' files, scored against the real units of the `--with tables`
//! frames (`haifu params validate --table ...`).
//!
//! Invariants:
//! - haifu's own tables are 2-fold cross-fitted (§8): a unit of fold g is scored by a table
//!   fitted on the units of fold 1 − g only; an engine's file is scored on every unit.
//! - p is clipped to [1e-9, 1 − 1e-9] for the logarithms only; Brier and the calibration bins
//!   (tenths of p, [0.9, 1] closed) use p as the model gives it.
//! - A cell a model lacks falls back as §22 says, and every fallback is counted per model.
//! - The engines' files are read in their own layouts and refused, naming the file and the
//!   line, when a file is missing, a number is not one, or the count is not the one needed.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::*;

use crate::frames::{dataset, order_seats};
use crate::rules::Players;
use crate::softmax::{self, Shape};

/// The tables §22 scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Table {
    /// §17 opponent tenpai.
    TenpaiRate,
    /// §18 win chance.
    WinRate,
    /// §19 final placement.
    Placement,
    /// §20 ron share of dama wins.
    RonShare,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::TenpaiRate => "tenpai-rate",
            Table::WinRate => "win-rate",
            Table::Placement => "placement",
            Table::RonShare => "ron-share",
        }
    }
}

/// The engines' files to score beside haifu's own tables.
#[derive(Clone, Debug, Default)]
pub(crate) struct Engines {
    /// akochan's `params` directory (or, for placement, a directory holding `para{k}_*.txt`;
    /// for ron-share, `dama_ron_ratio.txt` itself).
    pub(crate) akochan: Option<PathBuf>,
    /// mjai-manue's `game_stats.json`.
    pub(crate) manue: Option<PathBuf>,
    /// A user's win-chance table (turns_left, shanten, open_melds, probability).
    pub(crate) csv: Option<PathBuf>,
    /// The rows of one table's games when the frames hold both (§24: no score pools them).
    pub(crate) games: Option<Expr>,
    /// The table's rules: §19's orders and features, the seats of the place marginals.
    pub(crate) players: Players,
}

// ---------------------------------------------------------------------------------------
// Scoring sums.

/// Sums over units: units, Σ outcome, Σ p, Σ log-loss, Σ Brier.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Sums {
    pub(crate) units: u64,
    pub(crate) observed: f64,
    pub(crate) expected: f64,
    pub(crate) log_loss: f64,
    pub(crate) brier: f64,
}

/// The calibration bins: tenths of p.
const BINS: usize = 10;

fn clip(p: f64) -> f64 {
    p.clamp(1e-9, 1.0 - 1e-9)
}

fn bin(p: f64) -> usize {
    ((p * 10.0).floor().max(0.0) as usize).min(BINS - 1)
}

/// One model's score: overall and by calibration bin, and its fallbacks.
#[derive(Clone, Debug, Default)]
pub(crate) struct Score {
    pub(crate) overall: Sums,
    pub(crate) calibration: [Sums; BINS],
    pub(crate) fallbacks: u64,
}

impl Sums {
    fn add_binary(&mut self, p: f64, y: bool) {
        let yf = f64::from(u8::from(y));
        self.units += 1;
        self.observed += yf;
        self.expected += p;
        self.log_loss -= if y {
            clip(p).ln()
        } else {
            (1.0 - clip(p)).ln()
        };
        self.brier += (p - yf) * (p - yf);
    }
}

impl Score {
    /// A yes/no unit with probability p of yes.
    pub(crate) fn binary(&mut self, p: f64, y: bool) {
        self.overall.add_binary(p, y);
        self.calibration[bin(p)].add_binary(p, y);
    }

    /// A hand scored on its order: p over the orders (24, or 6 with three players), `y` the
    /// realised one. log-loss −ln p(y); Brier Σ over the orders of (p − [i = y])²; each order
    /// in the calibration.
    pub(crate) fn orders(&mut self, p: &[f64], y: usize) {
        let s = &mut self.overall;
        s.units += 1;
        s.observed += 1.0;
        s.expected += p[y];
        s.log_loss -= clip(p[y]).ln();
        for (i, &pi) in p.iter().enumerate() {
            let yi = f64::from(u8::from(i == y));
            s.brier += (pi - yi) * (pi - yi);
            self.calibration[bin(pi)].add_binary(pi, i == y);
        }
    }

    /// A hand scored on the place marginals: m[seat][place] from the order probabilities `p`
    /// of a game of `players`, log-loss the mean over the seats of −ln m[seat][its place],
    /// Brier the sum over the seats × places cells (16, or 9); each cell in the calibration.
    pub(crate) fn places(&mut self, p: &[f64], y: usize, players: Players) {
        let m = marginals(p, players);
        let (real, n) = order_seats(players, y);
        let seats = n as f64;
        let s = &mut self.overall;
        s.units += 1;
        s.observed += 1.0;
        for (place, &seat) in real[..n].iter().enumerate() {
            s.log_loss -= clip(m[usize::from(seat)][place]).ln() / seats;
            s.expected += m[usize::from(seat)][place] / seats;
        }
        for (seat, row) in m.iter().enumerate().take(n) {
            for (place, &q) in row.iter().enumerate().take(n) {
                let hit = usize::from(real[place]) == seat;
                let yf = f64::from(u8::from(hit));
                s.brier += (q - yf) * (q - yf);
                self.calibration[bin(q)].add_binary(q, hit);
            }
        }
    }
}

/// P(seat s finishes in place r) from the order probabilities `p` of a game of `players` (0
/// for the absent fourth seat of three).
pub(crate) fn marginals(p: &[f64], players: Players) -> [[f64; 4]; 4] {
    let mut m = [[0.0; 4]; 4];
    for (i, &pi) in p.iter().enumerate() {
        let (order, n) = order_seats(players, i);
        for (place, &seat) in order[..n].iter().enumerate() {
            m[usize::from(seat)][place] += pi;
        }
    }
    m
}

// ---------------------------------------------------------------------------------------
// Frames.

/// Rows a slice of [`each_slice`] holds at most.
const SLICE_ROWS: usize = 1 << 18;
/// The same for §19's units, which are held besides the slice (a slice of [`SLICE_ROWS`] would
/// be most of the memory the units' own growth adds: 262,144 rows of 7 columns, twice).
const PLACEMENT_SLICE_ROWS: usize = 1 << 16;

/// Calls `each` with frame `name`'s rows (the `columns` read, which must name those `keep`
/// and `games` test) `rows` at a time, in reading order, only the rows for which
/// `keep` and `games` hold. The units of §17, §18 and §20 are read this way, twice (the
/// counts, then the scores), so the memory of `params validate --table` does not grow with the
/// frame: it held the whole of `discard_units` before, 1.6 GB for 51,584 games. (§19's softmax
/// is fitted on every unit of a model at once: the units are held, [`PlacementUnit`], 24 bytes
/// a hand, and one model's in the fit's form at a time.)
fn each_slice(
    frames: &Path,
    (name, rows): (&str, usize),
    columns: &[&str],
    keep: Option<&Expr>,
    games: Option<&Expr>,
    mut each: impl FnMut(&DataFrame) -> Result<()>,
) -> Result<()> {
    let mut read = columns.to_vec();
    if games.is_some() && !read.contains(&"game_id") {
        read.push("game_id");
    }
    for slice in dataset::Slices::new(dataset::require(frames, name)?, rows).columns(&read) {
        let mut lf = slice?.lazy();
        for filter in keep.into_iter().chain(games) {
            lf = lf.filter(filter.clone());
        }
        let df = Context::with_context(lf.collect(), || {
            format!("cannot read frame {name} of {}", frames.display())
        })?;
        each(&df)?;
    }
    Ok(())
}

fn ints(df: &DataFrame, c: &str) -> Result<Vec<i32>> {
    let s = df.column(c)?.cast(&DataType::Int32)?;
    Ok(s.i32()?.iter().map(|v| v.unwrap_or(0)).collect())
}

fn bools(df: &DataFrame, c: &str) -> Result<Vec<bool>> {
    let s = df.column(c)?.bool()?.clone();
    Ok(s.iter().map(|v| v.unwrap_or(false)).collect())
}

fn strs(df: &DataFrame, c: &str) -> Result<Vec<String>> {
    let s = df.column(c)?.str()?.clone();
    Ok(s.iter().map(|v| v.unwrap_or("").to_string()).collect())
}

/// A §19 unit: a hand's fold, kyoku, start scores and the game's order number (24 bytes: every
/// unit is held while the softmaxes are fitted, [`fit_inputs`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PlacementUnit {
    pub(crate) fold: i32,
    pub(crate) scores: [i32; 4],
    /// The round (0 = East 1); 255 stands for any past 254, none of which has a model.
    pub(crate) kyoku: u8,
    pub(crate) order: u8,
}

impl PlacementUnit {
    /// The round as an index (of [`softmax::KYOKUS`] models, when below it).
    pub(crate) fn kyoku(&self) -> usize {
        usize::from(self.kyoku)
    }
}

/// The softmax's inputs (features, order number) of the units `keep` selects, in their order:
/// one model's units at a time, so that only those are held in the fit's form (40 bytes).
pub(crate) fn fit_inputs(
    shape: Shape,
    units: &[PlacementUnit],
    keep: impl Fn(&PlacementUnit) -> bool,
) -> Vec<([f64; softmax::FEATURES], u8)> {
    units
        .iter()
        .filter(|u| keep(u))
        .map(|u| (shape.features(u.scores), u.order))
        .collect()
}

/// The `placement_units` frame's hands (of one table's games, with `games`), read a slice at a
/// time.
pub(crate) fn placement_units(frames: &Path, games: Option<&Expr>) -> Result<Vec<PlacementUnit>> {
    let mut units = Vec::new();
    let columns = ["fold", "kyoku", "s0", "s1", "s2", "s3", "order"];
    each_slice(
        frames,
        ("placement_units", PLACEMENT_SLICE_ROWS),
        &columns,
        None,
        games,
        |df| {
            let (fold, kyoku, order) = (ints(df, "fold")?, ints(df, "kyoku")?, ints(df, "order")?);
            let s = [
                ints(df, "s0")?,
                ints(df, "s1")?,
                ints(df, "s2")?,
                ints(df, "s3")?,
            ];
            units.extend((0..df.height()).map(|i| PlacementUnit {
                fold: fold[i],
                scores: [s[0][i], s[1][i], s[2][i], s[3][i]],
                kyoku: kyoku[i].clamp(0, 255) as u8,
                order: order[i] as u8,
            }));
            Ok(())
        },
    )?;
    Ok(units)
}

// ---------------------------------------------------------------------------------------
// Engines' files.

/// The numbers of a text file of one number a line (blank lines skipped), exactly `n` of
/// them; refused naming the file and the line otherwise.
pub(crate) fn read_numbers(path: &Path, n: usize) -> Result<Vec<f64>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::with_capacity(n);
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        last_line = i + 1;
        if out.len() == n {
            bail!(
                "{}:{}: more than the {n} numbers needed",
                path.display(),
                i + 1
            );
        }
        let x: f64 = t
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .with_context(|| format!("{}:{}: {t:?} is not a number", path.display(), i + 1))?;
        out.push(x);
    }
    if out.len() < n {
        bail!(
            "{}:{}: {} numbers where {n} are needed (line {} missing)",
            path.display(),
            last_line,
            out.len(),
            last_line + 1
        );
    }
    Ok(out)
}

/// `dir/sub` when it is a directory, else `dir` itself (a directory holding the files).
fn engine_dir(dir: &Path, sub: &str) -> PathBuf {
    let d = dir.join(sub);
    if d.is_dir() {
        d
    } else {
        dir.to_path_buf()
    }
}

/// akochan's `tenpai_prob`: five weights per (melds 0..4, discards lb..=18).
pub(crate) struct AkochanTenpai {
    weights: Vec<Vec<[f64; 5]>>,
}

/// The first discard count with a file, per number of melds (§22's lb).
const AKOCHAN_LB: [usize; 4] = [2, 2, 3, 7];

impl AkochanTenpai {
    pub(crate) fn read(dir: &Path) -> Result<AkochanTenpai> {
        let d = engine_dir(dir, "tenpai_prob/ako");
        let mut weights = Vec::new();
        for (f, &lb) in AKOCHAN_LB.iter().enumerate() {
            let mut per = vec![[0.0; 5]; 19];
            for (k, w) in per.iter_mut().enumerate().skip(lb) {
                let v = read_numbers(&d.join(format!("fuuro{f}_para{k}_4000.txt")), 5)?;
                w.copy_from_slice(&v);
            }
            weights.push(per);
        }
        Ok(AkochanTenpai { weights })
    }

    /// §22: fn = melds (open + ankan), kn = turn; p = 1 with four melds; the file of
    /// min(max(lb, kn), 18); x = (1, tedashi, a, honour/terminal kinds, simple kinds);
    /// p = σ(w·x), capped at 0.12 without a meld.
    pub(crate) fn p(&self, melds: usize, turn: usize, x: [f64; 5]) -> f64 {
        if melds >= 4 {
            return 1.0;
        }
        let k = turn.clamp(AKOCHAN_LB[melds], 18);
        let w = &self.weights[melds][k];
        let z: f64 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-z).exp());
        if melds == 0 {
            p.min(0.12)
        } else {
            p
        }
    }
}

/// mjai-manue's `yamitenStats`: (tenpai, total) keyed "turns_left,calls".
#[derive(Debug)]
pub(crate) struct Manue {
    cells: std::collections::HashMap<(i64, i64), f64>,
}

impl Manue {
    pub(crate) fn read(path: &Path) -> Result<Manue> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
        let stats = v
            .get("yamitenStats")
            .and_then(|s| s.as_object())
            .with_context(|| format!("{}: no \"yamitenStats\" object", path.display()))?;
        let mut cells = std::collections::HashMap::new();
        for (key, cell) in stats {
            let line = text[..text.find(&format!("\"{key}\"")).unwrap_or(0)]
                .matches('\n')
                .count()
                + 1;
            let bad = || format!("{}:{line}: yamitenStats[{key:?}]", path.display());
            let (t, f) = key
                .split_once(',')
                .and_then(|(t, f)| Some((t.trim().parse().ok()?, f.trim().parse().ok()?)))
                .with_context(|| format!("{}: the key is not \"turns_left,calls\"", bad()))?;
            let num = |name: &str| {
                cell.get(name)
                    .and_then(|x| x.as_f64())
                    .with_context(|| format!("{}: {name:?} is not a number", bad()))
            };
            let (tenpai, total) = (num("tenpai")?, num("total")?);
            if total > 0.0 {
                cells.insert((t, f), tenpai / total);
            }
        }
        Ok(Manue { cells })
    }

    pub(crate) fn p(&self, turns_left: i64, calls: i64) -> Option<f64> {
        self.cells.get(&(turns_left, calls)).copied()
    }
}

/// akochan's `dama_ron_ratio.txt`: the ron share of dama wins per class.
pub(crate) fn read_ron_ratio(path: &Path) -> Result<[f64; 6]> {
    let file = if path.is_dir() {
        engine_dir(path, "ron_ratio/ako").join("dama_ron_ratio.txt")
    } else {
        path.to_path_buf()
    };
    let v = read_numbers(&file, 6)?;
    Ok([v[0], v[1], v[2], v[3], v[4], v[5]])
}

/// akochan's `rank_prob`: 96 weights per kyoku 0..12 (`para{k}_9000.txt`, `para{k}_nn.txt`).
pub(crate) fn read_rank_prob(dir: &Path) -> Result<Vec<Vec<f64>>> {
    let d = engine_dir(dir, "rank_prob/ako");
    (0..softmax::KYOKUS)
        .map(|k| read_numbers(&d.join(softmax::akochan_file(k)), softmax::WEIGHTS))
        .collect()
}

/// The classes of §20 in akochan's line order.
pub(crate) const CLASSES: [&str; 6] = ["honour", "1/9", "2/8", "3/7", "4/6", "5"];

// ---------------------------------------------------------------------------------------
// Rates fitted on a fold.

/// (hits, units) per cell, grown on demand.
#[derive(Clone, Default)]
struct Counts(std::collections::HashMap<Vec<i64>, (f64, f64)>);

impl Counts {
    fn add(&mut self, key: Vec<i64>, y: bool) {
        let e = self.0.entry(key).or_default();
        e.0 += f64::from(u8::from(y));
        e.1 += 1.0;
    }
    fn rate(&self, key: &[i64]) -> Option<f64> {
        self.0
            .get(key)
            .filter(|(_, n)| *n > 0.0)
            .map(|(k, n)| k / n)
    }
}

/// The first of the keys the counts know, its rate, and how many fell back (the index).
fn first_rate(counts: &[&Counts], keys: &[Vec<i64>]) -> (f64, u64) {
    for (i, (c, k)) in counts.iter().zip(keys).enumerate() {
        if let Some(r) = c.rate(k) {
            return (r, u64::from(i > 0));
        }
    }
    // A fitting fold without a single unit: no rate at all.
    (0.5, 1)
}

// ---------------------------------------------------------------------------------------
// The scores per table.

/// One table's scores: (part, model, score), in the order §22 lists the models.
pub(crate) type Scores = Vec<(&'static str, String, Score)>;

fn other(fold: i32) -> usize {
    usize::from(fold == 0)
}

fn fold_index(fold: i32) -> usize {
    usize::from(fold != 0)
}

/// The columns of a §17 unit that [`tenpai`] reads: fold, then the cells' and akochan's
/// features (indices as in [`TenpaiUnits`]).
const TENPAI_COLUMNS: [&str; 9] = [
    "fold",
    "turns_left",
    "turn",
    "open_melds",
    "ankan",
    "tedashi",
    "after_riichi_ako",
    "honor_terminal_kinds",
    "simple_kinds",
];

/// One slice of §17 units: [`TENPAI_COLUMNS`] and `tenpai`.
struct TenpaiUnits {
    c: Vec<Vec<i32>>,
    y: Vec<bool>,
}

/// Calls `each` with the §17 units (the discards of `discard_units` not in riichi, of
/// `games`' games) a slice at a time.
fn tenpai_units(
    frames: &Path,
    games: Option<&Expr>,
    mut each: impl FnMut(&TenpaiUnits) -> Result<()>,
) -> Result<()> {
    let mut columns = TENPAI_COLUMNS.to_vec();
    columns.extend(["tenpai", "in_riichi"]);
    let keep = col("in_riichi").not();
    each_slice(
        frames,
        ("discard_units", SLICE_ROWS),
        &columns,
        Some(&keep),
        games,
        |df| {
            let c = TENPAI_COLUMNS
                .iter()
                .map(|n| ints(df, n))
                .collect::<Result<_>>()?;
            each(&TenpaiUnits {
                c,
                y: bools(df, "tenpai")?,
            })
        },
    )
}

/// §22 for §17 tenpai: over the §17 units, the discards of `discard_units` not in riichi.
pub(crate) fn tenpai(frames: &Path, engines: &Engines) -> Result<Scores> {
    let akochan = engines
        .akochan
        .as_deref()
        .map(AkochanTenpai::read)
        .transpose()?;
    let manue = engines.manue.as_deref().map(Manue::read).transpose()?;
    let games = engines.games.as_ref();
    // Counts per fitting fold: pooled, by open_melds, by (turns_left, open_melds), by (turn).
    let mut pooled = [Counts::default(), Counts::default()];
    let mut by_om = pooled.clone();
    let mut by_tl = pooled.clone();
    let mut by_turn = pooled.clone();
    tenpai_units(frames, games, |u| {
        let (fold, tl, turn, om) = (&u.c[0], &u.c[1], &u.c[2], &u.c[3]);
        for (i, &y) in u.y.iter().enumerate() {
            let f = fold_index(fold[i]);
            let (om, tl, tu) = (
                i64::from(om[i]),
                i64::from(tl[i]),
                i64::from(turn[i].min(19)),
            );
            pooled[f].add(vec![], y);
            by_om[f].add(vec![om], y);
            by_tl[f].add(vec![tl, om], y);
            by_turn[f].add(vec![tu, om], y);
        }
        Ok(())
    })?;
    let mut names = vec!["uniform-rate", "table-turns-left", "table-turn"];
    if manue.is_some() {
        names.push("manue");
    }
    if akochan.is_some() {
        names.push("akochan");
    }
    let mut scores: Vec<Score> = vec![Score::default(); names.len()];
    tenpai_units(frames, games, |u| {
        let c = &u.c;
        let (fold, tl, turn, om, ankan) = (&c[0], &c[1], &c[2], &c[3], &c[4]);
        for (i, &y) in u.y.iter().enumerate() {
            let g = other(fold[i]);
            let (om_, tl_, tu_) = (
                i64::from(om[i]),
                i64::from(tl[i]),
                i64::from(turn[i].min(19)),
            );
            let mut m = 0;
            let mut put = |p: f64, fb: u64, scores: &mut Vec<Score>| {
                scores[m].binary(p, y);
                scores[m].fallbacks += fb;
                m += 1;
            };
            let (p, fb) = first_rate(&[&pooled[g]], &[vec![]]);
            put(p, fb, &mut scores);
            let (p, fb) = first_rate(
                &[&by_tl[g], &by_om[g], &pooled[g]],
                &[vec![tl_, om_], vec![om_], vec![]],
            );
            put(p, fb, &mut scores);
            let (p, fb) = first_rate(
                &[&by_turn[g], &by_om[g], &pooled[g]],
                &[vec![tu_, om_], vec![om_], vec![]],
            );
            put(p, fb, &mut scores);
            let melds = om[i] + ankan[i];
            if let Some(manue) = &manue {
                match manue.p(tl_, i64::from(melds)) {
                    Some(p) => put(p, 0, &mut scores),
                    None => {
                        let (p, _) = first_rate(&[&pooled[g]], &[vec![]]);
                        put(p, 1, &mut scores)
                    }
                }
            }
            if let Some(a) = &akochan {
                let x = [
                    1.0,
                    f64::from(c[5][i]),
                    f64::from(c[6][i]),
                    f64::from(c[7][i]),
                    f64::from(c[8][i]),
                ];
                put(
                    a.p(melds.max(0) as usize, turn[i].max(0) as usize, x),
                    0,
                    &mut scores,
                );
            }
        }
        Ok(())
    })?;
    Ok(names
        .into_iter()
        .zip(scores)
        .map(|(n, s)| ("units", n.to_string(), s))
        .collect())
}

/// Calls `each` with the §20 units (the dama wins of `win_kinds`, of `games`' games) a slice
/// at a time: (fold, the winning kind's class as an index of [`CLASSES`], ron).
fn dama_units(
    frames: &Path,
    games: Option<&Expr>,
    mut each: impl FnMut(i32, i64, bool),
) -> Result<()> {
    let keep = col("state").eq(lit("dama"));
    let columns = ["fold", "state", "class", "ron"];
    each_slice(
        frames,
        ("win_kinds", SLICE_ROWS),
        &columns,
        Some(&keep),
        games,
        |df| {
            let (fold, class, ron) = (ints(df, "fold")?, strs(df, "class")?, bools(df, "ron")?);
            for i in 0..ron.len() {
                let k = CLASSES
                    .iter()
                    .position(|&x| x == class[i])
                    .with_context(|| format!("win_kinds: unknown class {:?}", class[i]))?;
                each(fold[i], k as i64, ron[i]);
            }
            Ok(())
        },
    )
}

/// §22 for §20's ron share of dama wins.
pub(crate) fn ron_share(frames: &Path, engines: &Engines) -> Result<Scores> {
    let akochan = engines.akochan.as_deref().map(read_ron_ratio).transpose()?;
    let games = engines.games.as_ref();
    let mut by_class = [Counts::default(), Counts::default()];
    let mut pooled = by_class.clone();
    dama_units(frames, games, |fold, k, ron| {
        let f = fold_index(fold);
        by_class[f].add(vec![k], ron);
        pooled[f].add(vec![], ron);
    })?;
    let mut names = vec!["table"];
    if akochan.is_some() {
        names.push("akochan");
    }
    let mut scores = vec![Score::default(); names.len()];
    dama_units(frames, games, |fold, k, ron| {
        let g = other(fold);
        let (p, fb) = first_rate(&[&by_class[g], &pooled[g]], &[vec![k], vec![]]);
        scores[0].binary(p, ron);
        scores[0].fallbacks += fb;
        if let Some(a) = &akochan {
            scores[1].binary(a[k as usize], ron);
        }
    })?;
    Ok(names
        .into_iter()
        .zip(scores)
        .map(|(n, s)| ("units", n.to_string(), s))
        .collect())
}

/// A user's win-chance CSV: probability by (turns_left, shanten, open_melds 0 or 1+).
fn read_win_csv(path: &Path) -> Result<std::collections::HashMap<(i64, i64, i64), f64>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines().enumerate();
    let header: Vec<String> = lines
        .next()
        .with_context(|| format!("{}: empty", path.display()))?
        .1
        .split(',')
        .map(|h| h.trim().to_string())
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{}:1: no column {name:?}", path.display()))
    };
    let (ct, cs, co, cp) = (
        col("turns_left")?,
        col("shanten")?,
        col("open_melds")?,
        col("probability")?,
    );
    let mut out = std::collections::HashMap::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let field = |c: usize, name: &str| {
            f.get(c)
                .copied()
                .with_context(|| format!("{}:{}: no {name} field", path.display(), i + 1))
        };
        let int = |c: usize, name: &str| -> Result<i64> {
            let t = field(c, name)?;
            t.trim_end_matches('+')
                .parse::<i64>()
                .ok()
                .with_context(|| {
                    format!("{}:{}: {name} {t:?} is not a number", path.display(), i + 1)
                })
        };
        let p: f64 = field(cp, "probability")?
            .parse()
            .ok()
            .filter(|p: &f64| (0.0..=1.0).contains(p))
            .with_context(|| {
                format!(
                    "{}:{}: probability {:?} is not a number in [0, 1]",
                    path.display(),
                    i + 1,
                    f.get(cp).copied().unwrap_or("")
                )
            })?;
        out.insert(
            (
                int(ct, "turns_left")?,
                int(cs, "shanten")?,
                int(co, "open_melds")?.min(1),
            ),
            p,
        );
    }
    Ok(out)
}

/// Calls `each` with the §18 units (every discard of `discard_units`, of `games`' games) a
/// slice at a time: (fold, key (turns_left, shanten, open (0/1), in riichi (0/1)), won).
fn win_units(
    frames: &Path,
    games: Option<&Expr>,
    mut each: impl FnMut(i32, (i64, i64, i64, i64), bool),
) -> Result<()> {
    let columns = [
        "fold",
        "turns_left",
        "shanten",
        "open_melds",
        "in_riichi",
        "won",
    ];
    each_slice(
        frames,
        ("discard_units", SLICE_ROWS),
        &columns,
        None,
        games,
        |df| {
            let (fold, tl, sh, om) = (
                ints(df, "fold")?,
                ints(df, "turns_left")?,
                ints(df, "shanten")?,
                ints(df, "open_melds")?,
            );
            let (riichi, won) = (bools(df, "in_riichi")?, bools(df, "won")?);
            for i in 0..won.len() {
                let key = (
                    i64::from(tl[i]),
                    i64::from(sh[i]),
                    i64::from(om[i].min(1)),
                    i64::from(riichi[i]),
                );
                each(fold[i], key, won[i]);
            }
            Ok(())
        },
    )
}

/// §22 for §18's win chance (`won`).
pub(crate) fn win_rate(frames: &Path, engines: &Engines) -> Result<Scores> {
    let user = engines.csv.as_deref().map(read_win_csv).transpose()?;
    let games = engines.games.as_ref();
    let mut full = [Counts::default(), Counts::default()];
    let mut tl_sh = full.clone();
    let mut by_sh = full.clone();
    let mut pooled = full.clone();
    win_units(frames, games, |fold, (t, s, o, r), won| {
        let f = fold_index(fold);
        full[f].add(vec![t, s, o, r], won);
        tl_sh[f].add(vec![t, s], won);
        by_sh[f].add(vec![s], won);
        pooled[f].add(vec![], won);
    })?;
    let mut names = vec!["table"];
    if user.is_some() {
        names.push("csv");
    }
    let mut scores = vec![Score::default(); names.len()];
    win_units(frames, games, |fold, (t, s, o, r), won| {
        let g = other(fold);
        let (p, fb) = first_rate(
            &[&full[g], &tl_sh[g], &by_sh[g], &pooled[g]],
            &[vec![t, s, o, r], vec![t, s], vec![s], vec![]],
        );
        scores[0].binary(p, won);
        scores[0].fallbacks += fb;
        if let Some(u) = &user {
            match u.get(&(t, s, o)) {
                Some(&q) => scores[1].binary(q, won),
                None => {
                    scores[1].binary(p, won);
                    scores[1].fallbacks += 1;
                }
            }
        }
    })?;
    Ok(names
        .into_iter()
        .zip(scores)
        .map(|(n, s)| ("units", n.to_string(), s))
        .collect())
}

/// A metric's name and its value (lower is better) from the sums.
type Metric = (&'static str, fn(&Sums) -> f64);
/// A report row: part, section, value, model, sums, fallbacks, best.
type Row<'a> = (&'a str, &'a str, String, &'a str, Sums, u64, String);

/// The placement report's per-round parts: the orders of the hands that start a round.
const KYOKU_PARTS: [&str; 12] = [
    "orders E1",
    "orders E2",
    "orders E3",
    "orders E4",
    "orders S1",
    "orders S2",
    "orders S3",
    "orders S4",
    "orders W1",
    "orders W2",
    "orders W3",
    "orders W4",
];

/// True for a per-round part (scored on the models only, no calibration of its own).
fn per_round(part: &str) -> bool {
    KYOKU_PARTS.contains(&part)
}

/// §22 for §19's placement: each model on the orders and on the place marginals, and on the
/// orders of each round's hands.
pub(crate) fn placement(frames: &Path, engines: &Engines) -> Result<Scores> {
    let units = placement_units(frames, engines.games.as_ref())?;
    let shape = Shape::of(engines.players);
    let classes = shape.classes;
    let akochan = engines.akochan.as_deref().map(read_rank_prob).transpose()?;
    // Per fitting fold and kyoku: order counts and the fitted softmax.
    let mut counts = vec![vec![[0.0f64; softmax::CLASSES]; softmax::KYOKUS]; 2];
    for u in units.iter().filter(|u| u.kyoku() < softmax::KYOKUS) {
        counts[fold_index(u.fold)][u.kyoku()][usize::from(u.order)] += 1.0;
    }
    let fits: Vec<Vec<Vec<f64>>> = (0..2)
        .map(|f| {
            (0..softmax::KYOKUS)
                .map(|k| {
                    let inputs =
                        fit_inputs(shape, &units, |u| fold_index(u.fold) == f && u.kyoku() == k);
                    softmax::fit(shape, &inputs)
                })
                .collect()
        })
        .collect::<Result<_>>()?;
    let mut names = vec!["uniform", "table", "softmax"];
    if akochan.is_some() {
        names.push("akochan");
    }
    let mut orders = vec![Score::default(); names.len()];
    let mut places = vec![Score::default(); names.len()];
    // The same on the orders, per round (kyoku).
    let mut per_kyoku = vec![vec![Score::default(); names.len()]; softmax::KYOKUS];
    let uniform = [1.0 / classes as f64; softmax::CLASSES];
    for u in units.iter().filter(|u| u.kyoku() < softmax::KYOKUS) {
        let g = other(u.fold);
        let y = usize::from(u.order);
        let x = shape.features(u.scores);
        let n: f64 = counts[g][u.kyoku()].iter().sum();
        let (table, fb) = if n > 0.0 {
            (counts[g][u.kyoku()].map(|c| c / n), 0)
        } else {
            (uniform, 1)
        };
        let mut ps = vec![(uniform, 0), (table, fb)];
        ps.push((shape.probabilities(&fits[g][u.kyoku()], &x), 0));
        if let Some(a) = &akochan {
            ps.push((shape.probabilities(&a[u.kyoku()], &x), 0));
        }
        for (m, (p, fb)) in ps.iter().enumerate() {
            let p = &p[..classes];
            orders[m].orders(p, y);
            orders[m].fallbacks += fb;
            per_kyoku[u.kyoku()][m].orders(p, y);
            per_kyoku[u.kyoku()][m].fallbacks += fb;
            places[m].places(p, y, engines.players);
            places[m].fallbacks += fb;
        }
    }
    let mut out: Scores = Vec::new();
    for (n, s) in names.iter().zip(orders) {
        out.push(("orders", n.to_string(), s));
    }
    for (n, s) in names.iter().zip(places) {
        out.push(("places", n.to_string(), s));
    }
    for (k, scores) in per_kyoku.into_iter().enumerate() {
        if scores[0].overall.units == 0 {
            continue;
        }
        for (n, s) in names.iter().zip(scores) {
            out.push((KYOKU_PARTS[k], n.to_string(), s));
        }
    }
    Ok(out)
}

/// The §22 scores of `table`.
pub(crate) fn scores(frames: &Path, table: Table, engines: &Engines) -> Result<Scores> {
    match table {
        Table::TenpaiRate => tenpai(frames, engines),
        Table::WinRate => win_rate(frames, engines),
        Table::Placement => placement(frames, engines),
        Table::RonShare => ron_share(frames, engines),
    }
}

// ---------------------------------------------------------------------------------------
// The report.

/// The §22 report as one long frame: table, part (`units`; for placement `orders` and
/// `places`), section (`models`, `calibration`), value (`all`, or the bin), model, units,
/// log_loss, brier (per unit), observed, expected (Σ outcome, Σ p; null for placement),
/// obs_exp, fallbacks, best (the metrics this model is best at among the models of its part:
/// log_loss, brier and, but for placement, obs_exp nearest 1).
pub(crate) fn report(frames: &Path, table: Table, engines: &Engines) -> Result<DataFrame> {
    let scores = scores(frames, table, engines)?;
    Ok(frame(table, &scores)?)
}

fn per_unit(x: f64, s: &Sums) -> f64 {
    if s.units > 0 {
        x / s.units as f64
    } else {
        f64::NAN
    }
}

/// The best model per metric of each part, as the `best` column's text.
fn best_marks(table: Table, scores: &Scores) -> Vec<String> {
    let mut marks = vec![Vec::<&str>::new(); scores.len()];
    let metrics: Vec<Metric> = {
        let mut m: Vec<Metric> = vec![
            ("log_loss", |s| per_unit(s.log_loss, s)),
            ("brier", |s| per_unit(s.brier, s)),
        ];
        if table != Table::Placement {
            m.push(("obs_exp", |s| (s.observed / s.expected - 1.0).abs()));
        }
        m
    };
    for (name, key) in metrics {
        let mut best: std::collections::HashMap<&str, (f64, usize)> = Default::default();
        for (i, (part, _, s)) in scores.iter().enumerate() {
            let v = key(&s.overall);
            if v.is_nan() {
                continue;
            }
            let e = best.entry(part).or_insert((v, i));
            if v < e.0 {
                *e = (v, i);
            }
        }
        for (_, (_, i)) in best {
            marks[i].push(name);
        }
    }
    marks.into_iter().map(|m| m.join(",")).collect()
}

fn bin_label(b: usize) -> String {
    if b + 1 == BINS {
        "[0.9,1]".into()
    } else {
        format!("[{:.1},{:.1})", b as f64 / 10.0, (b + 1) as f64 / 10.0)
    }
}

fn frame(table: Table, scores: &Scores) -> PolarsResult<DataFrame> {
    let marks = best_marks(table, scores);
    // (part, section, value, model, sums, fallbacks, best)
    let mut rows: Vec<Row> = Vec::new();
    for (i, (part, model, s)) in scores.iter().enumerate() {
        rows.push((
            part,
            "models",
            "all".into(),
            model,
            s.overall,
            s.fallbacks,
            marks[i].clone(),
        ));
    }
    for b in 0..BINS {
        for (part, model, s) in scores.iter().filter(|(p, _, _)| !per_round(p)) {
            rows.push((
                part,
                "calibration",
                bin_label(b),
                model,
                s.calibration[b],
                0,
                String::new(),
            ));
        }
    }
    let placement_overall = |r: &Row| table == Table::Placement && r.1 == "models";
    let f = |g: &dyn Fn(&Row) -> Option<f64>| rows.iter().map(g).collect::<Vec<Option<f64>>>();
    DataFrame::new_infer_height(vec![
        Column::new("table".into(), vec![table.name(); rows.len()]),
        Column::new("part".into(), rows.iter().map(|r| r.0).collect::<Vec<_>>()),
        Column::new(
            "section".into(),
            rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        ),
        Column::new(
            "value".into(),
            rows.iter().map(|r| r.2.clone()).collect::<Vec<_>>(),
        ),
        Column::new("model".into(), rows.iter().map(|r| r.3).collect::<Vec<_>>()),
        Column::new(
            "units".into(),
            rows.iter().map(|r| r.4.units as i64).collect::<Vec<_>>(),
        ),
        Column::new(
            "log_loss".into(),
            f(&|r| Some(per_unit(r.4.log_loss, &r.4)).filter(|x| !x.is_nan())),
        ),
        Column::new(
            "brier".into(),
            f(&|r| Some(per_unit(r.4.brier, &r.4)).filter(|x| !x.is_nan())),
        ),
        Column::new(
            "observed".into(),
            f(&|r| (!placement_overall(r)).then_some(r.4.observed)),
        ),
        Column::new(
            "expected".into(),
            f(&|r| (!placement_overall(r)).then_some(r.4.expected)),
        ),
        Column::new(
            "obs_exp".into(),
            f(&|r| {
                (!placement_overall(r) && r.4.expected > 0.0).then(|| r.4.observed / r.4.expected)
            }),
        ),
        Column::new(
            "fallbacks".into(),
            rows.iter().map(|r| r.5 as i64).collect::<Vec<_>>(),
        ),
        Column::new(
            "best".into(),
            rows.iter().map(|r| r.6.clone()).collect::<Vec<_>>(),
        ),
    ])
}

/// The report for a person: per part the models with the best value of each metric starred,
/// then the calibration in tenths of p.
pub(crate) fn render_table(df: &DataFrame, table: Table, players: Players) -> Result<String> {
    use crate::report::render::{marked_table, Best};
    let shape = Shape::of(players);
    let orders = format!("on the {} final orders", shape.classes);
    let mut out = String::new();
    let parts: Vec<String> = {
        let mut p = strs(df, "part")?;
        p.dedup();
        let mut seen = Vec::new();
        for x in p {
            if !seen.contains(&x) {
                seen.push(x);
            }
        }
        seen
    };
    for part in parts {
        let sel = |section: &str| -> Result<DataFrame> {
            Ok(df
                .clone()
                .lazy()
                .filter(col("part").eq(lit(part.as_str())))
                .filter(col("section").eq(lit(section)))
                .collect()?)
        };
        let models = sel("models")?;
        let units = models
            .column("units")?
            .get(0)?
            .extract::<i64>()
            .unwrap_or(0);
        let what = match (table, part.as_str()) {
            (Table::Placement, "orders") => format!("hands, {orders}"),
            (Table::Placement, p) if per_round(p) => format!("hands starting this round, {orders}"),
            (Table::Placement, _) => "hands, on each seat's final place".to_string(),
            (Table::RonShare, _) => "dama wins".to_string(),
            _ => "units".to_string(),
        };
        let round = if per_round(&part) {
            &part["orders ".len()..]
        } else {
            ""
        };
        out.push_str(&format!(
            "== {}{}{round} models on {units} {what} (docs/definitions.md §22; * = best)\n",
            table.name(),
            if round.is_empty() { "" } else { ", round " },
        ));
        let mut metrics = vec![("log_loss", Best::Lowest), ("brier", Best::Lowest)];
        if table != Table::Placement {
            metrics.insert(0, ("obs_exp", Best::NearestOne));
        }
        let labels: &[&str] = if table == Table::Placement {
            &["model", "units", "fallbacks"]
        } else {
            &["model", "units", "observed", "fallbacks"]
        };
        out.push_str(&marked_table(&models, labels, &metrics, 5)?);
        if per_round(&part) {
            out.push('\n');
            continue;
        }
        out.push_str(&format!(
            "\n== calibration by p (each probability a unit gives: {} orders or {} seat-place \
             cells for placement)\n",
            shape.classes,
            players.seats() * players.seats()
        ));
        let cal = sel("calibration")?
            .lazy()
            .filter(col("units").gt(lit(0)))
            .select([
                col("value"),
                col("model"),
                col("units"),
                col("observed"),
                (col("observed") / col("units").cast(DataType::Float64)).alias("rate"),
                (col("expected") / col("units").cast(DataType::Float64)).alias("mean_p"),
                col("obs_exp"),
            ])
            .collect()?;
        out.push_str(&marked_table(
            &cal,
            &["value", "model", "units"],
            &[
                ("observed", Best::Unmarked),
                ("rate", Best::Unmarked),
                ("mean_p", Best::Unmarked),
                ("obs_exp", Best::Unmarked),
            ],
            4,
        )?);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join(name);
        std::fs::write(&p, text).unwrap();
        (d, p)
    }

    /// p = 0.8, yes: log-loss −ln 0.8 = 0.22314, Brier 0.04; p = 0.8, no: −ln 0.2 = 1.60944,
    /// Brier 0.64. Both in the bin [0.8, 0.9). p = 1 is clipped to 1 − 1e-9 for the logarithm
    /// (−ln(1e-9) = 20.7233 when the outcome is no) but not for Brier (1.0), bin [0.9, 1].
    #[test]
    fn binary_sums() {
        let mut s = Score::default();
        s.binary(0.8, true);
        s.binary(0.8, false);
        assert_eq!(s.overall.units, 2);
        assert!((s.overall.log_loss - (0.223_143_55 + 1.609_437_9)).abs() < 1e-6);
        assert!((s.overall.brier - 0.68).abs() < 1e-12);
        assert!((s.overall.expected - 1.6).abs() < 1e-12);
        assert_eq!(s.overall.observed, 1.0);
        assert_eq!(s.calibration[8].units, 2);
        let mut t = Score::default();
        t.binary(1.0, false);
        assert!((t.overall.log_loss - 20.723_265_8).abs() < 1e-4);
        assert_eq!(t.overall.brier, 1.0);
        assert_eq!(t.calibration[9].units, 1);
        assert_eq!(bin(0.0), 0);
        assert_eq!(bin(0.1), 1);
    }

    /// Uniform 1/24 over the orders, realised order 0: log-loss ln 24 = 3.17805; Brier
    /// (23/24)² + 23·(1/24)² = 0.95833. The marginals are 1/4 everywhere: log-loss ln 4 =
    /// 1.38629, Brier 4·(3/4)² + 12·(1/4)² = 3.
    #[test]
    fn placement_sums_on_uniform() {
        let p = [1.0 / 24.0; 24];
        let mut s = Score::default();
        s.orders(&p, 0);
        assert!((s.overall.log_loss - 24f64.ln()).abs() < 1e-12);
        assert!((s.overall.brier - 23.0 / 24.0).abs() < 1e-12);
        let mut m = Score::default();
        m.places(&p, 0, Players::Four);
        assert!((m.overall.log_loss - 4f64.ln()).abs() < 1e-12);
        assert!((m.overall.brier - 3.0).abs() < 1e-12);
        assert_eq!(m.calibration[2].units, 16);
    }

    /// Three players (§24): uniform 1/6 over the 6 orders, realised order 3 (seats 1, 2, 0):
    /// log-loss ln 6 = 1.79176; Brier (5/6)² + 5·(1/6)² = 0.83333. The marginals are 1/3
    /// everywhere (each seat is in each place in 2 of the 6 orders): log-loss ln 3 = 1.09861,
    /// Brier over the 9 cells 3·(2/3)² + 6·(1/3)² = 2, the 9 cells in bin [0.3, 0.4).
    #[test]
    fn placement_sums_on_uniform_three_players() {
        let p = [1.0 / 6.0; 6];
        let mut s = Score::default();
        s.orders(&p, 3);
        assert!((s.overall.log_loss - 6f64.ln()).abs() < 1e-12);
        assert!((s.overall.brier - 5.0 / 6.0).abs() < 1e-12);
        assert!((s.overall.expected - 1.0 / 6.0).abs() < 1e-12);
        let mut m = Score::default();
        m.places(&p, 3, Players::Three);
        assert!((m.overall.log_loss - 3f64.ln()).abs() < 1e-12);
        assert!((m.overall.brier - 2.0).abs() < 1e-12);
        assert!((m.overall.expected - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(m.calibration[3].units, 9);
        // All mass on the realised order 3: its seats 1, 2, 0 are first, second and third;
        // every cell is 0 or 1 and hit exactly, so log-loss 0 and Brier 0.
        let mut sure = [0.0; 6];
        sure[3] = 1.0;
        let mut m = Score::default();
        m.places(&sure, 3, Players::Three);
        assert!(m.overall.log_loss.abs() < 1e-8 && m.overall.brier == 0.0);
        let q = marginals(&sure, Players::Three);
        assert_eq!((q[1][0], q[2][1], q[0][2], q[3]), (1.0, 1.0, 1.0, [0.0; 4]));
    }

    /// All mass on order 1 (seats 0, 1, 3, 2): seat 3 is third, seat 2 fourth.
    #[test]
    fn marginals_follow_akochan_orders() {
        let mut p = [0.0; 24];
        p[1] = 1.0;
        let m = marginals(&p, Players::Four);
        assert_eq!(m[0][0], 1.0);
        assert_eq!(m[1][1], 1.0);
        assert_eq!(m[3][2], 1.0);
        assert_eq!(m[2][3], 1.0);
    }

    #[test]
    fn numbers_are_refused_naming_file_and_line() {
        let (_d, p) = tmp("a.txt", "1\n2\nx3\n");
        let e = format!("{:#}", read_numbers(&p, 3).unwrap_err());
        assert!(e.contains("a.txt:3") && e.contains("not a number"), "{e}");
        let (_d, p) = tmp("b.txt", &"1.0\r\n".repeat(95));
        let e = format!("{:#}", read_numbers(&p, 96).unwrap_err());
        assert!(
            e.contains("b.txt:95") && e.contains("95 numbers where 96"),
            "{e}"
        );
        let (_d, p) = tmp("c.txt", "1\n2\n3\n");
        let e = format!("{:#}", read_numbers(&p, 2).unwrap_err());
        assert!(e.contains("c.txt:3") && e.contains("more than"), "{e}");
        let e = format!(
            "{:#}",
            read_numbers(Path::new("/nonexistent/d.txt"), 2).unwrap_err()
        );
        assert!(e.contains("/nonexistent/d.txt"), "{e}");
        let (_d, p) = tmp("e.txt", "1e-001\r\n\r\n-2.5e+000\r\n");
        assert_eq!(read_numbers(&p, 2).unwrap(), vec![0.1, -2.5]);
    }

    /// Weights (−2, 0.1, 0.2, 0.05, 0.03) at x = (1, 3, 0, 2, 4): z = −2 + 0.3 + 0.1 + 0.12 =
    /// −1.48, σ(z) = 1/(1 + e^1.48) = 1/5.39295 = 0.185428; capped at 0.12 without a meld; with one meld (file fuuro1) the
    /// same weights give 0.185428. Four melds: 1. A turn below lb reads lb's file, above 18
    /// reads 18's.
    #[test]
    fn akochan_tenpai_model() {
        let w = [[-2.0, 0.1, 0.2, 0.05, 0.03]; 19];
        let a = AkochanTenpai {
            weights: vec![w.to_vec(); 4],
        };
        let x = [1.0, 3.0, 0.0, 2.0, 4.0];
        assert!((a.p(1, 5, x) - 0.185_428).abs() < 1e-5);
        assert_eq!(a.p(0, 5, x), 0.12);
        assert_eq!(a.p(4, 5, x), 1.0);
        let mut b = AkochanTenpai {
            weights: vec![vec![[0.0; 5]; 19]; 4],
        };
        b.weights[3][7] = [1.0, 0.0, 0.0, 0.0, 0.0];
        b.weights[2][18] = [-1.0, 0.0, 0.0, 0.0, 0.0];
        // σ(1) = 0.731059, σ(−1) = 0.268941
        assert!((b.p(3, 2, x) - 0.731_059).abs() < 1e-6);
        assert!((b.p(2, 25, x) - 0.268_941).abs() < 1e-6);
    }

    /// yamitenStats {"3,1": tenpai 30 / total 120} = 0.25; a cell without total refused.
    #[test]
    fn manue_cells() {
        let (_d, p) = tmp(
            "g.json",
            "{\"yamitenStats\": {\"3,1\": {\"total\": 120, \"tenpai\": 30}}}",
        );
        let m = Manue::read(&p).unwrap();
        assert_eq!(m.p(3, 1), Some(0.25));
        assert_eq!(m.p(3, 0), None);
        let (_d, p) = tmp(
            "h.json",
            "{\"yamitenStats\": {\n\"3,1\": {\"tenpai\": 30}}}",
        );
        let e = format!("{:#}", Manue::read(&p).unwrap_err());
        assert!(e.contains("h.json:2") && e.contains("\"total\""), "{e}");
        let (_d, p) = tmp("i.json", "{}");
        assert!(format!("{:#}", Manue::read(&p).unwrap_err()).contains("yamitenStats"));
    }

    /// Weights fitted, written in akochan's layout and read back by the rank_prob reader give
    /// the same probabilities (the text keeps 17 significant digits: exact to ~1e-15, far
    /// inside akochan's 32-bit 1e-6).
    #[test]
    fn akochan_files_read_back() {
        const FOUR: Shape = Shape {
            classes: 24,
            features: 4,
        };
        let units: Vec<([f64; 4], u8)> = (0..400)
            .map(|i| {
                let s = [
                    25_000 + 100 * (i % 97),
                    25_000 - 50 * (i % 31),
                    25_000,
                    20_000,
                ];
                (FOUR.features(s), (i % 24) as u8)
            })
            .collect();
        let w = softmax::fit(FOUR, &units).unwrap();
        let d = tempfile::tempdir().unwrap();
        for k in 0..softmax::KYOKUS {
            std::fs::write(
                d.path().join(softmax::akochan_file(k)),
                softmax::akochan_text(&w),
            )
            .unwrap();
        }
        let back = read_rank_prob(d.path()).unwrap();
        for (x, _) in units.iter().take(50) {
            let (p, q) = (FOUR.probabilities(&w, x), FOUR.probabilities(&back[11], x));
            for i in 0..24 {
                assert!((p[i] - q[i]).abs() < 1e-12);
            }
        }
        // One file short of a number is refused, naming it.
        let short = d.path().join("para3_9000.txt");
        let text = softmax::akochan_text(&w[..95]);
        std::fs::write(&short, text).unwrap();
        let e = format!("{:#}", read_rank_prob(d.path()).unwrap_err());
        assert!(
            e.contains("para3_9000.txt:95") && e.contains("95 numbers where 96"),
            "{e}"
        );
        std::fs::remove_file(&short).unwrap();
        let e = format!("{:#}", read_rank_prob(d.path()).unwrap_err());
        assert!(e.contains("para3_9000.txt"), "{e}");
    }

    fn write_frame(dir: &Path, name: &str, mut df: DataFrame) {
        let f = std::fs::File::create(dir.join(format!("{name}.parquet"))).unwrap();
        ParquetWriter::new(f).finish(&mut df).unwrap();
    }

    /// Three dama wins on honours: fold 0 a ron and a tsumo, fold 1 a ron (and an open ron
    /// that is not a unit). `table` scores fold 0's by fold 1's share 1/1 = 1 and fold 1's by
    /// fold 0's 1/2: p = 1, 1, 0.5 for ron, tsumo, ron. Log-loss: −ln(1 − 1e-9) ≈ 0, −ln(1e-9)
    /// = 20.72327, −ln 0.5 = 0.69315, mean 7.13881; Brier (0 + 1 + 0.25) / 3 = 0.41667;
    /// observed 2, expected 2.5. akochan's honour share 0.7 (file of six lines): log-loss
    /// (2·0.35667 + 1.20397) / 3 = 0.63911; Brier (0.09 + 0.49 + 0.09) / 3 = 0.22333.
    #[test]
    fn ron_share_cross_fits_by_fold() {
        let d = tempfile::tempdir().unwrap();
        write_frame(
            d.path(),
            "win_kinds",
            df!(
                "fold" => [0i32, 0, 1, 1],
                "state" => ["dama", "dama", "dama", "open"],
                "class" => ["honour", "honour", "honour", "5"],
                "ron" => [true, false, true, true],
            )
            .unwrap(),
        );
        let ratio = d.path().join("dama_ron_ratio.txt");
        std::fs::write(&ratio, "0.7\r\n0.1\r\n0.2\r\n0.3\r\n0.4\r\n0.5\r\n").unwrap();
        let s = ron_share(
            d.path(),
            &Engines {
                akochan: Some(ratio),
                ..Engines::default()
            },
        )
        .unwrap();
        let t = &s[0].2.overall;
        assert_eq!((s[0].1.as_str(), t.units, t.observed), ("table", 3, 2.0));
        assert!((t.expected - 2.5).abs() < 1e-12);
        assert!(
            (t.log_loss / 3.0 - 7.138_806).abs() < 1e-5,
            "{}",
            t.log_loss / 3.0
        );
        assert!((t.brier / 3.0 - 1.25 / 3.0).abs() < 1e-12);
        let a = &s[1].2.overall;
        assert!(
            (a.log_loss / 3.0 - 0.639_106).abs() < 1e-5,
            "{}",
            a.log_loss / 3.0
        );
        assert!((a.brier / 3.0 - 0.67 / 3.0).abs() < 1e-12);
    }

    /// Tenpai units: fold 0 (turns_left 10, no meld) tenpai, not tenpai; fold 1 (turns_left
    /// 10, no meld) tenpai and (turns_left 5, one meld) not tenpai. `uniform-rate` scores fold
    /// 0's units by fold 1's pooled 1/2 and fold 1's by fold 0's 1/2: p = 0.5 four times,
    /// log-loss ln 2 = 0.69315, Brier 0.25. `table-turns-left`: fold 0's units (10, 0) read
    /// fold 1's cell (10, 0) = 1; fold 1's (10, 0) reads fold 0's (10, 0) = 1/2; fold 1's
    /// (5, 1) has no cell in fold 0 nor open_melds 1: the pooled 1/2, one fallback. p = 1, 1,
    /// 0.5, 0.5 for y = 1, 0, 1, 0: Brier (0 + 1 + 0.25 + 0.25) / 4 = 0.375. A fifth discard,
    /// in riichi (not a §17 unit), is not scored: fold 0's pooled rate would be 2/3 with it.
    #[test]
    fn tenpai_tables_fall_back_to_the_pooled_rate() {
        let d = tempfile::tempdir().unwrap();
        let z = [0i32; 5];
        write_frame(
            d.path(),
            "discard_units",
            df!(
                "fold" => [0i32, 0, 1, 1, 0],
                "turns_left" => [10i32, 10, 10, 5, 10],
                "turn" => [3i32, 3, 3, 8, 3],
                "open_melds" => [0i32, 0, 0, 1, 0],
                "ankan" => z,
                "tedashi" => z,
                "after_riichi_ako" => z,
                "honor_terminal_kinds" => z,
                "simple_kinds" => z,
                "tenpai" => [true, false, true, false, true],
                "in_riichi" => [false, false, false, false, true],
            )
            .unwrap(),
        );
        let s = tenpai(d.path(), &Engines::default()).unwrap();
        let u = &s[0].2;
        assert!((u.overall.log_loss / 4.0 - 2f64.ln()).abs() < 1e-12);
        assert!((u.overall.brier / 4.0 - 0.25).abs() < 1e-12);
        let t = &s[1].2;
        assert_eq!((s[1].1.as_str(), t.fallbacks), ("table-turns-left", 1));
        assert!((t.overall.brier / 4.0 - 0.375).abs() < 1e-12);
        assert!((t.overall.expected - 3.0).abs() < 1e-12);
    }

    /// A CSV row "5,1,1+,0.25" is the cell (5, 1, 1); a probability of 2 is refused.
    #[test]
    fn win_csv() {
        let (_d, p) = tmp(
            "w.csv",
            "turns_left,shanten,open_melds,probability\n5,1,1+,0.25\n5,1,0,0.5\n",
        );
        let t = read_win_csv(&p).unwrap();
        assert_eq!(t[&(5, 1, 1)], 0.25);
        assert_eq!(t[&(5, 1, 0)], 0.5);
        let (_d, p) = tmp(
            "x.csv",
            "turns_left,shanten,open_melds,probability\n5,1,0,2\n",
        );
        let e = format!("{:#}", read_win_csv(&p).unwrap_err());
        assert!(e.contains("x.csv:2"), "{e}");
    }
}
