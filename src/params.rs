//! The §3 draw-rate parameter file an engine loads (schema documented in docs/draw-rates.md).
//!
//! Invariant: the file carries raw counts (`units`, `hits`, `naive_hits`) next to every rate,
//! so an engine can pool or smooth; summed over the `all` class of `by_held_visible`, `hits`
//! equals the number of draw records replayed and `units` 37 (34 without red fives) times that.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use polars::prelude::*;
use polars::sql::SQLContext;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::frames::{dataset, write_atomically};
use crate::manifest::{Corpus, Totals, DEFINITIONS_VERSION};
use crate::report::{self, rows_json, to_csv, Table};
use crate::rules::Players;
use crate::softmax;

pub use crate::param_file::{FORMAT, FORMAT_VERSION};

/// Which games a parameter file is fitted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// Every game ingested.
    All,
    /// The games of one fold (§8), 0 or 1.
    One(u8),
}

impl Fold {
    /// Whether a unit of fold `f` is among the games fitted on.
    pub(crate) fn includes(self, f: i32) -> bool {
        match self {
            Fold::All => true,
            Fold::One(x) => i32::from(x) == f,
        }
    }

    /// The file's `fold` field: `"all"` or the fold's number.
    fn json(self) -> Value {
        match self {
            Fold::All => json!("all"),
            Fold::One(f) => json!(f),
        }
    }
}

/// The tsumo-rate parameter file (JSON value) and the same numbers as CSV, fitted on `fold`
/// of `table`'s games (§24: a three-player file is fitted on three-player games alone).
pub fn tsumo_rate(frames: &Path, fold: Fold, table: &Table) -> Result<(Value, String)> {
    let (mut ctx, totals, corpus) = fold_context(frames, fold, table)?;
    let by_hv = report::run_bundled(&mut ctx, "draw-rate")?;
    let by_thv = report::run_bundled(&mut ctx, "draw-rate-by-turn")?;
    tsumo_rate_from(&totals, &corpus, fold, &by_hv, &by_thv, table.players)
}

/// The games, hands, draws, dates and rooms of fold `fold`'s games, from the `games` frame and
/// (already restricted to the fold) `draw_rate` in `ctx`: each draw record is one hit.
/// A SQL context over the frames in `frames` for a parameter file fitted on `fold` of
/// `table`'s games (the pooled `draw_rate` restricted to them), and the totals and corpus of
/// the games it is fitted on: the manifest's for every game of frames of one table, else
/// recounted from the games fitted on.
fn fold_context(frames: &Path, fold: Fold, table: &Table) -> Result<(SQLContext, Totals, Corpus)> {
    let manifest_path = frames.join("manifest.json");
    let head: ManifestHead = serde_json::from_str(
        &std::fs::read_to_string(&manifest_path)
            .with_context(|| format!("cannot read {}", manifest_path.display()))?,
    )
    .with_context(|| format!("{} is not a haifu manifest", manifest_path.display()))?;
    let mut ctx = report::context_over(frames, None, None, table)?;
    let (totals, corpus) = match fold {
        Fold::All if !table.mixed() => (head.totals, head.corpus),
        Fold::All => fold_corpus(&mut ctx, None)?,
        Fold::One(f) => {
            let mut draws =
                dataset::scan(frames, "draw_rate")?.filter(col("fold").eq(lit(i32::from(f))));
            if let Some(keep) = table.keeps_pooled() {
                draws = draws.filter(keep);
            }
            ctx.register("draw_rate", draws);
            fold_corpus(&mut ctx, Some(f))?
        }
    };
    Ok((ctx, totals, corpus))
}

/// The totals and corpus of the games of `ctx` (of fold `fold`, when given).
fn fold_corpus(ctx: &mut SQLContext, fold: Option<u8>) -> Result<(Totals, Corpus)> {
    let condition = fold.map_or("TRUE".to_string(), |f| format!("fold = {f}"));
    let games = report::collect(report::execute(
        ctx,
        &format!(
            "SELECT room, COUNT(*) AS games, SUM(hands) AS hands, MIN(date) AS first_date, \
         MAX(date) AS last_date FROM games WHERE {condition} GROUP BY room ORDER BY room"
        ),
    )?)?;
    let draws = report::collect(report::execute(
        ctx,
        "SELECT COALESCE(SUM(hits), 0) AS draws FROM draw_rate",
    )?)?;
    let int = |df: &DataFrame, c: &str, i: usize| -> Result<u64> {
        Ok(df.column(c)?.get(i)?.extract::<u64>().unwrap_or(0))
    };
    let text = |df: &DataFrame, c: &str, i: usize| -> Result<Option<String>> {
        Ok(df.column(c)?.str()?.get(i).map(str::to_string))
    };
    let mut totals = Totals::default();
    let mut corpus = Corpus {
        draws: int(&draws, "draws", 0)?,
        ..Corpus::default()
    };
    for i in 0..games.height() {
        let (g, h) = (int(&games, "games", i)?, int(&games, "hands", i)?);
        totals.games += g;
        totals.hands += h;
        if let Some(room) = text(&games, "room", i)? {
            corpus.rooms.insert(room, g);
        }
        let first = text(&games, "first_date", i)?;
        let last = text(&games, "last_date", i)?;
        corpus.first_date = [corpus.first_date.take(), first]
            .into_iter()
            .flatten()
            .min();
        corpus.last_date = [corpus.last_date.take(), last].into_iter().flatten().max();
    }
    Ok((totals, corpus))
}

/// The parts of `manifest.json` a parameter file describes its corpus with (the per-file
/// entries, one per input, are skipped rather than read).
#[derive(Deserialize)]
struct ManifestHead {
    totals: Totals,
    corpus: Corpus,
}

/// [`tsumo_rate`] from the `draw-rate` and `draw-rate-by-turn` reports already run, and the
/// run's totals and corpus description.
pub(crate) fn tsumo_rate_from(
    totals: &Totals,
    corpus: &Corpus,
    fold: Fold,
    by_hv: &DataFrame,
    by_thv: &DataFrame,
    players: Players,
) -> Result<(Value, String)> {
    let mut value = json!({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "definitions_version": DEFINITIONS_VERSION,
        "haifu_version": env!("CARGO_PKG_VERSION"),
        "fold": fold.json(),
        "definition": "docs/definitions.md §3: per draw record and tile type (37 with red fives apart), \
            held = copies in the drawer's concealed hand, visible = publicly visible copies, \
            turn = drawer's discards + 1; rate = hits / units; naive_rate = Σ u(t)/U / units",
        "corpus": {
            "games": totals.games,
            "hands": totals.hands,
            "draws": corpus.draws,
            "first_date": corpus.first_date,
            "last_date": corpus.last_date,
            "rooms": corpus.rooms,
        },
        "classes": ["all", "honor", "terminal", "28", "3to7", "red5"],
        "by_held_visible": rows_json(by_hv),
        "by_turn_held_visible": rows_json(by_thv),
    });
    // A three-player file says so (a four-player one is written as before version 5).
    if players == Players::Three {
        value["players"] = json!(3);
        value["definition"] = json!(
            "docs/definitions.md §3 and §24: per draw record of a three-player game and tile \
             type (29 with red 5p and 5s apart: no 2m-8m), held = copies in the drawer's \
             concealed hand, visible = publicly visible copies (kita Norths included), turn = \
             drawer's discards + 1; rate = hits / units; naive_rate = Σ u(t)/U / units, U out \
             of 108 tiles"
        );
    }
    let mut csv = String::new();
    csv.push_str("# by_held_visible\n");
    csv.push_str(&to_csv(by_hv)?);
    csv.push_str("# by_turn_held_visible\n");
    csv.push_str(&to_csv(by_thv)?);
    Ok((value, csv))
}

/// The §17 and §18 parameter files (`--with tables` frames): raw counts per fold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitTable {
    /// §17 `tenpai_rate.json`.
    TenpaiRate,
    /// §18 `win_rate.json`.
    WinRate,
    /// §19 `placement.json` (its counts; [`placement`] adds the softmax).
    Placement,
}

impl UnitTable {
    fn frame(self) -> &'static str {
        match self {
            UnitTable::TenpaiRate | UnitTable::WinRate => "discard_units",
            UnitTable::Placement => "placement_units",
        }
    }

    fn format(self) -> &'static str {
        match self {
            UnitTable::TenpaiRate => "haifu.tenpai-rate",
            UnitTable::WinRate => "haifu.win-rate",
            UnitTable::Placement => "haifu.placement",
        }
    }

    /// The file's tables: name and SQL over the frame (`{fold}` the fold's condition; the §17
    /// units are the discards not in riichi).
    fn tables(self) -> Vec<(&'static str, &'static str)> {
        match self {
            UnitTable::TenpaiRate => vec![
                (
                    "by_turns_left",
                    "SELECT fold, turns_left, open_melds,                      CASE WHEN riichi_others = 0 THEN '0' ELSE '1+' END AS riichi_others,                      CAST(COUNT(*) AS BIGINT) AS units,                      CAST(SUM(CASE WHEN tenpai THEN 1 ELSE 0 END) AS BIGINT) AS tenpai                      FROM discard_units WHERE NOT in_riichi AND {fold} GROUP BY 1, 2, 3, 4                      ORDER BY fold, turns_left DESC, open_melds, riichi_others",
                ),
                (
                    "by_turn",
                    "SELECT fold, CASE WHEN turn >= 19 THEN 19 ELSE turn END AS turn, open_melds,                      CASE WHEN riichi_others = 0 THEN '0' ELSE '1+' END AS riichi_others,                      CAST(COUNT(*) AS BIGINT) AS units,                      CAST(SUM(CASE WHEN tenpai THEN 1 ELSE 0 END) AS BIGINT) AS tenpai                      FROM discard_units WHERE NOT in_riichi AND {fold} GROUP BY 1, 2, 3, 4                      ORDER BY fold, turn, open_melds, riichi_others",
                ),
            ],
            UnitTable::WinRate => vec![(
                "by_turns_left_shanten",
                "SELECT fold, turns_left, shanten,                  CASE WHEN open_melds = 0 THEN '0' ELSE '1+' END AS open_melds, in_riichi,                  CAST(COUNT(*) AS BIGINT) AS units,                  CAST(SUM(CASE WHEN won THEN 1 ELSE 0 END) AS BIGINT) AS won,                  CAST(SUM(CASE WHEN won_within_2 THEN 1 ELSE 0 END) AS BIGINT) AS won_within_2,                  CAST(SUM(CASE WHEN exhaustive THEN 1 ELSE 0 END) AS BIGINT) AS exhaustive_units,                  CAST(SUM(CASE WHEN tenpai_at_end THEN 1 ELSE 0 END) AS BIGINT) AS tenpai_at_end                  FROM discard_units WHERE {fold} GROUP BY 1, 2, 3, 4, 5                  ORDER BY fold, in_riichi, open_melds, turns_left DESC, shanten",
            )],
            UnitTable::Placement => vec![(
                "by_kyoku_order",
                "SELECT fold, kyoku, \"order\", CAST(COUNT(*) AS BIGINT) AS hands \
                 FROM placement_units WHERE {fold} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            )],
        }
    }

    fn definition(self, players: Players) -> &'static str {
        match (self, players) {
            (UnitTable::TenpaiRate, Players::Four) => {
                "docs/definitions.md §17: per discard that is not a riichi declaration and not \
                 after the discarder's own; tenpai = shanten 0 just after it; turns_left = \
                 floor((70 - draw records so far) / 4); turn 19 stands for 19 and later; \
                 riichi_others = other seats that have declared (0 or 1+); counts per fold"
            }
            (UnitTable::TenpaiRate, Players::Three) => {
                "docs/definitions.md §17, §24 (three players): per discard that is not a riichi \
                 declaration and not after the discarder's own; tenpai = shanten 0 (three-player \
                 shanten) just after it; turns_left = floor((55 - draw records so far, kita \
                 replacement draws included) / 3); open_melds = pon and daiminkan; turn 19 \
                 stands for 19 and later; riichi_others = other seats that have declared (0 or \
                 1+); counts per fold"
            }
            (UnitTable::WinRate, Players::Four) => {
                "docs/definitions.md §18: per discard; won = the discarder wins the hand; \
                 won_within_2 = by tsumo on its next or second-next draw or by ron having drawn \
                 at most once since; exhaustive_units, tenpai_at_end over the hands that end in \
                 an exhaustive draw; counts per fold"
            }
            (UnitTable::WinRate, Players::Three) => {
                "docs/definitions.md §18, §24 (three players): per discard; turns_left = \
                 floor((55 - draw records so far) / 3); won = the discarder wins the hand; \
                 won_within_2 = by tsumo on its next or second-next draw (kita replacement \
                 draws count) or by ron having drawn at most once since; exhaustive_units, \
                 tenpai_at_end over the hands that end in an exhaustive draw; counts per fold"
            }
            (UnitTable::Placement, Players::Four) => {
                "docs/definitions.md §19: per hand of a four-player hanchan with owari; order = \
                 the game's final order as akochan's permutation number (0 = seats 0,1,2,3 from \
                 first to last, 1 = 0,1,3,2, ... 23 = 3,2,1,0); hands per fold, kyoku and order; \
                 softmax per kyoku: x = (1, (s0-s1)/1e4, (s0-s2)/1e4, (s0-s3)/1e4), \
                 P(order i) = exp(w_i.x) / sum_j exp(w_j.x), maximum likelihood with an L2 \
                 penalty of 1e-4 |w|^2 per unit; weights[4i + j] = order i, feature j"
            }
            (UnitTable::Placement, Players::Three) => {
                "docs/definitions.md §19, §24 (three players): per hand of a three-player \
                 hanchan with owari (kyoku 0-2 East, 4-6 South, 8-10 West); order = the game's \
                 final order numbered in lexicographic order of the seat lists (0 = seats 0,1,2 \
                 from first to last, 1 = 0,2,1, 2 = 1,0,2, 3 = 1,2,0, 4 = 2,0,1, 5 = 2,1,0); \
                 hands per fold, kyoku and order; softmax per kyoku: x = (1, (s0-s1)/1e4, \
                 (s0-s2)/1e4), P(order i) = exp(w_i.x) / sum_j exp(w_j.x), maximum likelihood \
                 with an L2 penalty of 1e-4 |w|^2 per unit; weights[3i + j] = order i, feature j"
            }
        }
    }
}

/// The §17, §18 or §19 parameter file (JSON value) and the same numbers as CSV: the raw
/// counts of the units of `games`' games (§24: of one table), or of one fold's, per fold.
pub fn unit_table(
    frames: &Path,
    table: UnitTable,
    fold: Fold,
    games: &Table,
) -> Result<(Value, String)> {
    dataset::require(frames, table.frame())?;
    let (mut ctx, totals, corpus) = fold_context(frames, fold, games)?;
    let condition = match fold {
        Fold::All => "TRUE".to_string(),
        Fold::One(f) => format!("fold = {f}"),
    };
    let mut value = json!({
        "format": table.format(),
        "format_version": 1,
        "definitions_version": DEFINITIONS_VERSION,
        "haifu_version": env!("CARGO_PKG_VERSION"),
        "fold": fold.json(),
        "definition": table.definition(games.players),
        "corpus": {
            "games": totals.games,
            "hands": totals.hands,
            "first_date": corpus.first_date,
            "last_date": corpus.last_date,
            "rooms": corpus.rooms,
        },
    });
    if games.players == Players::Three {
        value["players"] = json!(3);
    }
    let mut csv = String::new();
    for (name, sql) in table.tables() {
        let df = report::collect(report::execute(
            &mut ctx,
            &sql.replace("{fold}", &condition),
        )?)?;
        value[name] = rows_json(&df);
        csv.push_str(&format!("# {name}\n"));
        csv.push_str(&to_csv(&df)?);
    }
    Ok((value, csv))
}

/// The §19 parameter file (JSON value) and the same numbers as CSV, and the softmax fitted
/// per kyoku 0..12 on the selected games of `games`' table: the weights of each (96, or 18
/// with three players; 0 for a kyoku without a hand: the uniform distribution).
pub fn placement(
    frames: &Path,
    fold: Fold,
    games: &Table,
) -> Result<(Value, String, Vec<Vec<f64>>)> {
    let (mut value, mut csv) = unit_table(frames, UnitTable::Placement, fold, games)?;
    let shape = softmax::Shape::of(games.players);
    let units = crate::engine_tables::placement_units(frames, games.keeps().as_ref())?;
    // Each kyoku's units: how many, and the model fitted on them (one kyoku's held at a time).
    let mut by_kyoku = [0usize; softmax::KYOKUS];
    let fits = (0..softmax::KYOKUS)
        .map(|k| {
            let inputs = crate::engine_tables::fit_inputs(shape, &units, |u| {
                fold.includes(u.fold) && u.kyoku() == k
            });
            by_kyoku[k] = inputs.len();
            softmax::fit(shape, &inputs)
        })
        .collect::<Result<Vec<_>>>()?;
    let four = games.players == Players::Four;
    let features = ["1", "(s0-s1)/1e4", "(s0-s2)/1e4", "(s0-s3)/1e4"];
    value["softmax"] = json!({
        "features": features[..shape.features],
        "penalty_per_unit": softmax::PENALTY,
        "layout": if four {
            "weights[4i + j]: order i (akochan's permutation number), feature j"
        } else {
            "weights[3i + j]: order i (§24's lexicographic number), feature j"
        },
        "by_kyoku": fits.iter().enumerate().map(|(k, w)| {
            let mut fit = json!({"kyoku": k, "units": by_kyoku[k]});
            // §24: akochan's text layout is not written for three players.
            if four {
                fit["akochan_file"] = json!(softmax::akochan_file(k));
            }
            fit["weights"] = json!(w);
            fit
        }).collect::<Vec<_>>(),
    });
    csv.push_str("# softmax\nkyoku,units,order,w_1,w_s01,w_s02");
    csv.push_str(if four { ",w_s03\n" } else { "\n" });
    for (k, w) in fits.iter().enumerate() {
        for i in 0..shape.classes {
            let r = &w[shape.features * i..shape.features * (i + 1)];
            csv.push_str(&format!("{k},{},{i}", by_kyoku[k]));
            for x in r {
                csv.push_str(&format!(",{x}"));
            }
            csv.push('\n');
        }
    }
    Ok((value, csv, fits))
}

/// Writes the softmax weights of [`placement`] in akochan's layout into `dir` (the directory
/// of the JSON file): `para{k}_9000.txt` for k = 0..8 and `para{k}_nn.txt` for 8..12, one
/// weight per line; returns the paths.
pub(crate) fn write_akochan(dir: &Path, fits: &[Vec<f64>]) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for (k, w) in fits.iter().enumerate() {
        let path = dir.join(softmax::akochan_file(k));
        write_atomically(&path, softmax::akochan_text(w).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        paths.push(path);
    }
    Ok(paths)
}

/// Writes a parameter file: the JSON at `json` and the same numbers as CSV next to it (the
/// same path with extension `.csv`), each atomically; returns the CSV's path.
pub(crate) fn write(json: &Path, value: &Value, csv: &str) -> Result<PathBuf> {
    write_atomically(
        json,
        (serde_json::to_string_pretty(value)? + "\n").as_bytes(),
    )
    .with_context(|| format!("cannot write {}", json.display()))?;
    let csv_path = json.with_extension("csv");
    write_atomically(&csv_path, csv.as_bytes())
        .with_context(|| format!("cannot write {}", csv_path.display()))?;
    Ok(csv_path)
}
