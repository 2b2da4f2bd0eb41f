//! Reports: the bundled SQL in `queries/` (or a user's) run with polars SQL over the frames
//! on the streaming engine, and rendered as an aligned terminal table, CSV or JSON.
//!
//! - this file: [`REPORTS`] (the one list of bundled reports), the SQL context over a frames
//!   directory, running a query;
//! - `render.rs`: a frame as a table, CSV or JSON;
//! - `all.rs`: every report of a run written into `reports/`;
//! - `danger.rs`: §4 scoring over the `danger_situations` frame and its tables.

pub(crate) mod agree;
pub(crate) mod agree_every;
mod all;
pub mod danger;
pub(crate) mod danger_by_turn;
pub(crate) mod empty;
pub(crate) mod engine;
pub(crate) mod hand_reading;
mod players;
pub(crate) mod portable;
mod protocol;
pub(crate) mod render;
pub(crate) mod slice;
mod table;
pub(crate) mod tsumo;

pub use all::write_all;
pub(crate) use players::min_games;
pub use players::{stable_dan, stable_dan_interval, RESAMPLES};
pub(crate) use render::{
    render, rows_json, sliced_json, starred_table, to_csv, to_json, to_table, Format,
};
pub use slice::Slice;
pub(crate) use slice::{reads_table, refuse_pooled, DANGER_TABLES};
pub use table::Table;

use std::path::Path;

use anyhow::Result;
use polars::prelude::*;
use polars::sql::SQLContext;

use crate::frames::dataset;
use crate::groups::Group;

/// A bundled report: a name on the command line, what it shows, its SQL, and an optional
/// filter on one of its columns (the §1 splits share one query).
#[derive(Clone, Copy, Debug)]
pub struct Report {
    pub name: &'static str,
    pub about: &'static str,
    pub sql: &'static str,
    pub filter: Option<(&'static str, &'static str)>,
}

impl Report {
    /// True for a report of a frame an ingest writes only on request
    /// ([`crate::frames::ON_REQUEST_FRAMES`]): `haifu run` writes it only when that frame is there.
    pub fn on_request(&self) -> bool {
        crate::frames::ON_REQUEST_FRAMES
            .iter()
            .any(|t| reads_table(self.sql, t))
    }

    /// True when every frame the report reads that an ingest writes only on request is in
    /// `dir` (always, for a report of the default frames).
    pub fn has_frames(&self, dir: &Path) -> bool {
        self.missing_frame(dir).is_none()
    }

    /// The first on-request frame the report reads that `dir` lacks.
    pub(crate) fn missing_frame(&self, dir: &Path) -> Option<&'static str> {
        crate::frames::ON_REQUEST_FRAMES
            .iter()
            .copied()
            .filter(|t| reads_table(self.sql, t))
            .find(|t| !dataset::exists(dir, t))
    }

    /// The `--with` group that writes the frames it reads, `None` when every run does.
    pub fn group(&self) -> Option<Group> {
        crate::frames::ON_REQUEST_FRAMES
            .iter()
            .find(|t| reads_table(self.sql, t))
            .and_then(|t| Group::writing(t))
    }

    /// Its section of docs/definitions.md ("§1"), the first word of [`Report::about`].
    pub fn section(&self) -> &'static str {
        self.about.split_once(' ').map_or("", |(s, _)| s)
    }

    /// What it shows: [`Report::about`] after the section.
    pub fn shows(&self) -> &'static str {
        self.about
            .split_once(' ')
            .map_or(self.about, |(_, rest)| rest)
    }
}

const RIICHI_SPLITS: &str = include_str!("../../queries/riichi_response_splits.sql");

/// Every bundled report, in the order `haifu run` writes them.
pub const REPORTS: &[Report] = &[
    Report {
        name: "summary",
        about: "§5 games, hands, win/deal-in/riichi/call/draw rates, average win, per room",
        sql: include_str!("../../queries/summary.sql"),
        filter: None,
    },
    Report {
        name: "placement",
        about: "§5 placement rates and average placement per seat",
        sql: include_str!("../../queries/placement.sql"),
        filter: None,
    },
    Report {
        name: "players",
        about: "§21 player profiles: places, stable dan, score, rates and averages per name",
        sql: players::SQL,
        filter: None,
    },
    Report {
        name: "riichi-response",
        about: "§1 outcome after facing the first riichi: shares and mean income",
        sql: include_str!("../../queries/riichi_response.sql"),
        filter: None,
    },
    Report {
        name: "riichi-response-by-shanten",
        about: "§1 split by the seat's shanten at the declaration (0, 1, 2, 3+)",
        sql: RIICHI_SPLITS,
        filter: Some(("split", "shanten")),
    },
    Report {
        name: "riichi-response-by-seat-dealer",
        about: "§1 split by whether the seat is dealer",
        sql: RIICHI_SPLITS,
        filter: Some(("split", "seat_dealer")),
    },
    Report {
        name: "riichi-response-by-riichi-dealer",
        about: "§1 split by whether the riichi seat is dealer",
        sql: RIICHI_SPLITS,
        filter: Some(("split", "riichi_dealer")),
    },
    Report {
        name: "riichi-response-by-riichi-turn",
        about: "§1 split by the riichi seat's turn at declaration (1-6, 7-12, 13+)",
        sql: RIICHI_SPLITS,
        filter: Some(("split", "riichi_turn")),
    },
    Report {
        name: "decisions",
        about: "§7 the players' discard decisions by after, turn and riichi",
        sql: include_str!("../../queries/decisions.sql"),
        filter: None,
    },
    Report {
        name: "choices",
        about: "§23 every decision by kind and turn: the actions taken and their shares",
        sql: include_str!("../../queries/choices.sql"),
        filter: None,
    },
    Report {
        name: "riichi-or-dama",
        about: "§23 riichi decisions: the declared share by wait shape, winning tiles and turn",
        sql: include_str!("../../queries/riichi_or_dama.sql"),
        filter: None,
    },
    Report {
        name: "call-or-pass",
        about: "§23 chi, pon and daiminkan decisions: the called share by shanten before and after",
        sql: include_str!("../../queries/call_or_pass.sql"),
        filter: None,
    },
    Report {
        name: "summary-by-year",
        about: "§5 summary per calendar year of the games' dates (§9)",
        sql: include_str!("../../queries/summary_by_year.sql"),
        filter: None,
    },
    Report {
        name: "riichi-response-by-year",
        about: "§1 outcome shares and mean income per calendar year (§9)",
        sql: include_str!("../../queries/riichi_response_by_year.sql"),
        filter: None,
    },
    Report {
        name: "wait-danger",
        about: "§2 wait rate by suji category and wait shape, both genbutsu conventions",
        sql: include_str!("../../queries/wait_danger.sql"),
        filter: None,
    },
    Report {
        name: "draw-rate",
        about: "§3 draw rate by (held, visible), pooled and per tile class, with the naive rate",
        sql: include_str!("../../queries/draw_rate.sql"),
        filter: None,
    },
    Report {
        name: "draw-rate-by-turn",
        about: "§3 draw rate by (turn, held, visible), pooled and per tile class",
        sql: include_str!("../../queries/draw_rate_by_turn.sql"),
        filter: None,
    },
    Report {
        name: "danger-eval",
        about: "§4 danger estimators scored per moment",
        sql: include_str!("../../queries/danger_eval.sql"),
        filter: None,
    },
    Report {
        name: "danger-eval-by-situation",
        about: "§4 metrics by the riichi's turn and dealer-ness",
        sql: include_str!("../../queries/danger_eval_by_situation.sql"),
        filter: None,
    },
    Report {
        name: "danger-calibration",
        about: "§4 calibration bins per estimator",
        sql: include_str!("../../queries/danger_calibration.sql"),
        filter: None,
    },
    Report {
        name: "danger-by-turn",
        about: "§15 danger estimators scored at every moment after a riichi, by observer and turn",
        sql: include_str!("../../queries/danger_by_turn.sql"),
        filter: None,
    },
    Report {
        name: "hand-reading",
        about: "§16 hand-reading methods scored at every decision, by seat and turn",
        sql: include_str!("../../queries/hand_reading.sql"),
        filter: None,
    },
    Report {
        name: "yaku",
        about: "§10 yaku of the wins: counts (dora as tiles), shares of wins, mean points and han",
        sql: include_str!("../../queries/yaku.sql"),
        filter: None,
    },
    Report {
        name: "draw-reasons",
        about: "§10 drawn hands by reason: shares of draws and of hands",
        sql: include_str!("../../queries/draw_reasons.sql"),
        filter: None,
    },
    Report {
        name: "by-turn",
        about: "§11 shanten split, declarations and wins by turn",
        sql: include_str!("../../queries/by_turn.sql"),
        filter: None,
    },
    Report {
        name: "calls-by-turn",
        about: "§11 chi, pon and daiminkan by turn and open melds, mean shanten at the call",
        sql: include_str!("../../queries/calls_by_turn.sql"),
        filter: None,
    },
    Report {
        name: "tiles-at-end",
        about: "§12 where each type's copies are at a hand's end; hands against rivers",
        sql: include_str!("../../queries/tiles_at_end.sql"),
        filter: None,
    },
    Report {
        name: "winning-tiles",
        about: "§12 per kind: share of declarations and of dama wins waiting on it",
        sql: include_str!("../../queries/winning_tiles.sql"),
        filter: None,
    },
    Report {
        name: "riichi-tile",
        about: "§13 suji traps; waits by the declaration and first suited tile",
        sql: include_str!("../../queries/riichi_tile.sql"),
        filter: None,
    },
    Report {
        name: "double-riichi",
        about: "§13 double riichi by wait shape (good: 6+ outs): win rate and points",
        sql: include_str!("../../queries/double_riichi.sql"),
        filter: None,
    },
    Report {
        name: "records",
        about: "§14 records (maxima) and where they happened",
        sql: include_str!("../../queries/records.sql"),
        filter: None,
    },
    Report {
        name: "tenpai-rate",
        about: "§17 opponent tenpai by turns left or turn, open melds and riichi by others",
        sql: include_str!("../../queries/tenpai_rate.sql"),
        filter: None,
    },
    Report {
        name: "win-rate",
        about: "§18 win chance by turns left, shanten, open melds and riichi; tenpai at the end",
        sql: include_str!("../../queries/win_rate.sql"),
        filter: None,
    },
    Report {
        name: "final-placement",
        about: "§19 final place shares by kyoku, seat, place and gaps at the hand's start",
        sql: include_str!("../../queries/final_placement.sql"),
        filter: None,
    },
    Report {
        name: "ron-share",
        about: "§20 ron share of the wins by the winner's state and the winning kind's class",
        sql: include_str!("../../queries/ron_share.sql"),
        filter: None,
    },
    Report {
        name: "win-values",
        about: "§20 win points by dealer and state: counts, mean, mangan share",
        sql: include_str!("../../queries/win_values.sql"),
        filter: None,
    },
];

/// Looks a report up by name.
pub fn find(name: &str) -> Option<&'static Report> {
    REPORTS.iter().find(|r| r.name == name)
}

/// The bundled reports, one a line with what each shows and, for a report of frames written
/// on request, the `--with` group that writes them (for `--help`).
pub(crate) fn catalogue() -> String {
    let width = REPORTS.iter().map(|r| r.name.len()).max().unwrap_or(0);
    REPORTS
        .iter()
        .map(|r| match r.group() {
            None => format!("  {:width$}  {}\n", r.name, r.about),
            Some(g) => format!("  {:width$}  {} (--with {})\n", r.name, r.about, g.name()),
        })
        .collect()
}

/// True when `sql` reads one of the §4 run-wide frames (scored afresh under a slice).
pub(crate) fn reads_danger(sql: &str) -> bool {
    DANGER_TABLES.iter().any(|t| reads_table(sql, t))
}

/// Runs bundled report `name` in `ctx`.
/// A note for a report whose SQL reads frame columns that some of the run's games do not
/// fill (`formats::UNFILLED`): how many games of which format, and what they lack. `None`
/// when every game fills what the report reads.
pub(crate) fn lacking_note(ctx: &mut SQLContext, sql: &str) -> Result<Option<String>> {
    use crate::formats::UNFILLED;
    let read: Vec<_> = UNFILLED
        .iter()
        .filter(|(_, frame, column, _)| {
            reads_table(sql, frame) && (*column == "*" || slice::names_column(sql, column))
        })
        .collect();
    if read.is_empty() {
        return Ok(None);
    }
    let counts = run(
        ctx,
        "SELECT format, count(*) AS n FROM games GROUP BY format",
        None,
    )?;
    let formats = counts.column("format")?.str()?.clone();
    let n = counts.column("n")?.cast(&DataType::Int64)?;
    let n = n.i64()?.clone();
    let mut notes = Vec::new();
    for (f, n) in formats.iter().zip(n.iter()) {
        let (Some(f), Some(n)) = (f, n) else { continue };
        let cols: Vec<String> = read
            .iter()
            .filter(|(format, ..)| format.name() == f)
            .map(|(_, frame, column, filled)| {
                let what = match filled {
                    crate::formats::Filled::Never => String::new(),
                    crate::formats::Filled::Partly(rows) => format!(" ({rows})"),
                };
                match *column {
                    "*" => format!("{frame} rows"),
                    c => format!("{frame}.{c}{what}"),
                }
            })
            .collect();
        if !cols.is_empty() && n > 0 {
            notes.push(format!(
                "{n} games read from {f} record no {}: null in their rows",
                cols.join(", ")
            ));
        }
    }
    Ok((!notes.is_empty()).then(|| format!("note: {}", notes.join("; "))))
}

pub(crate) fn run_bundled(ctx: &mut SQLContext, name: &str) -> Result<DataFrame> {
    let r = find(name).expect("a bundled report");
    run(ctx, r.sql, r.filter)
}

/// Frames every output directory has had since the first version; the others are registered
/// when present (frames written by an older haifu lack the newer ones).
const REQUIRED_TABLES: [&str; 6] = [
    "games",
    "hands",
    "riichi_response",
    "wait_danger",
    "draw_rate",
    "danger_situations",
];

/// A SQL context over the frames in `dir` (the games of its default table, [`Table::select`]).
/// `seat` restricts `riichi_response` to one seat S (and `params.seats` to 1). Table `params`
/// has one row: `hands`, `seats`, `players` (3 or 4).
pub fn context(dir: &Path, seat: Option<u8>) -> Result<SQLContext> {
    context_over(dir, seat, None, &Table::select(dir, None)?)
}

/// [`context`] over one table's games (§24), restricted to a slice of them, when given (the
/// slice selected within the table): every per-game frame filtered to the selected games,
/// `draw_rate` left out, the §4 frames those scored on the slice ([`Slice::score_danger`])
/// when it has them, else left out; `params.hands` counts the slice's hands. Without a slice,
/// over frames that hold both tables, every frame is restricted to the table's games or rows.
pub fn context_over(
    dir: &Path,
    seat: Option<u8>,
    slice: Option<&Slice>,
    table: &Table,
) -> Result<SQLContext> {
    Ok(SQLContext::new_from_table_map(tables_over(
        dir, seat, slice, table,
    )?))
}

/// The tables of [`context_over`], by name. Queries planned at once each get their own context
/// made from these (`SQLContext::new_from_table_map`): a context's clone shares its tables with
/// the original, and polars adds a query's aliased subqueries to them ([`execute`]).
pub(crate) fn tables_over(
    dir: &Path,
    seat: Option<u8>,
    slice: Option<&Slice>,
    table: &Table,
) -> Result<PlHashMap<String, LazyFrame>> {
    let mut tables = PlHashMap::new();
    // Every frame is a table; the newer ones may be missing from older output.
    for &t in crate::frames::FRAMES
        .iter()
        .chain(&crate::frames::ON_REQUEST_FRAMES)
    {
        let from = match slice {
            Some(_) if t == "draw_rate" => continue,
            Some(s) => match s.table_dir(dir, t) {
                Some(d) => d,
                None => continue,
            },
            None => dir,
        };
        if !dataset::exists(from, t) && !REQUIRED_TABLES.contains(&t) {
            continue;
        }
        // An error naming the directory and the frame when a required one is missing.
        let mut lf = dataset::scan(from, t)?;
        if t == "riichi_response" {
            if let Some(s) = seat {
                lf = lf.filter(col("seat").eq(lit(s as i32)));
            }
        }
        if let Some(s) = slice {
            if crate::frames::is_per_game(t) && !DANGER_TABLES.contains(&t) {
                lf = lf.filter(s.keeps());
            }
        } else if crate::frames::is_per_game(t) {
            if let Some(keep) = table.keeps() {
                lf = lf.filter(keep);
            }
        } else if let Some(keep) = table.keeps_pooled() {
            lf = lf.filter(keep);
        }
        tables.insert(t.to_string(), lf);
    }
    let mut ctx = SQLContext::new_from_table_map(tables.clone());
    let hands = execute(&mut ctx, "SELECT COUNT(*) AS hands FROM hands")
        .map_err(anyhow::Error::from)
        .and_then(collect)?
        .column("hands")?
        .get(0)?
        .extract::<i64>()
        .unwrap_or(0);
    let players = table.players.seats() as i64;
    let params = df!(
        "hands" => [hands],
        "seats" => [if seat.is_some() { 1i64 } else { players }],
        "players" => [players],
    )?;
    tables.insert("params".to_string(), params.lazy());
    tables.insert("kinds".to_string(), kinds_table()?.lazy());
    tables.insert("yaku_names".to_string(), yaku_table()?.lazy());
    Ok(tables)
}

/// Table `kinds`: the 34 kinds in order, `kind` (`1m`..`7z`), `pos` (1..34, the position of
/// the kind in a 34-digit column), `suit` (`m`, `p`, `s`, `z`) and `number` (1..9; 1..7 for
/// the honours).
fn kinds_table() -> PolarsResult<DataFrame> {
    use crate::tile::{kind_name, KINDS};
    let kinds: Vec<&str> = (0..KINDS).map(kind_name).collect();
    let pos: Vec<i32> = (1..=KINDS as i32).collect();
    let suit: Vec<&str> = kinds.iter().map(|k| &k[1..]).collect();
    let number: Vec<i32> = kinds
        .iter()
        .map(|k| i32::from(k.as_bytes()[0] - b'0'))
        .collect();
    df!("kind" => kinds, "pos" => pos, "suit" => suit, "number" => number)
}

/// Table `yaku_names`: the §10 yaku table ([`crate::yaku::YAKU`]): `id`, `yaku` (the key),
/// `name`.
fn yaku_table() -> PolarsResult<DataFrame> {
    let y = &crate::yaku::YAKU;
    let id: Vec<i32> = (0..y.len() as i32).collect();
    let key: Vec<&str> = y.iter().map(|y| y.key).collect();
    let name: Vec<&str> = y.iter().map(|y| y.name).collect();
    df!("id" => id, "yaku" => key, "name" => name)
}

/// Plans one SQL statement in `ctx`, leaving `ctx`'s tables as they were. polars (0.55) keeps
/// every aliased subquery (`FROM (SELECT …) b`) in the context as a table named by its alias,
/// and a table there hides a later query's `WITH b AS (…)` of the same name: one report's
/// aliases would change the next report's answer (`records`' `b` once broke `draw-rate`'s).
/// The plan holds the frames themselves, not their names, so dropping the new names after
/// planning changes nothing of this query. Invariant: every query of a shared context is
/// planned through this function.
pub(crate) fn execute(ctx: &mut SQLContext, sql: &str) -> PolarsResult<LazyFrame> {
    let before = ctx.get_tables();
    let planned = ctx.execute(sql);
    for name in ctx.get_tables() {
        if !before.contains(&name) {
            ctx.unregister(&name);
        }
    }
    planned
}

/// Runs `sql` in `ctx`, applying a report filter when given.
pub fn run(ctx: &mut SQLContext, sql: &str, filter: Option<(&str, &str)>) -> Result<DataFrame> {
    let mut lf = execute(ctx, sql).map_err(|e| anyhow::anyhow!("SQL error: {e}"))?;
    if let Some((column, value)) = filter {
        lf = lf.filter(col(column).eq(lit(value)));
    }
    let df = if keeps_row_order(sql) {
        lf.collect()?
    } else {
        collect(lf)?
    };
    // §21: the stable dan's bootstrap interval, which SQL cannot draw.
    if players::wants_interval(sql) {
        return players::finish(df);
    }
    Ok(df)
}

/// The line a query starts with when its answer depends on the frames' row order (`FIRST` of
/// the rows that tie, in frame order): polars' streaming engine runs a filter or a join over
/// several morsels at once and does not keep that order, so such a query runs on the in-memory
/// engine (its memory is then that of the frames it reads: the `records` report reads the
/// per-hand and per-win frames, not the per-discard ones).
pub(crate) const KEEP_ROW_ORDER: &str = "-- haifu: keep row order";

/// True when `sql` asks for the frames' row order ([`KEEP_ROW_ORDER`] as its first line).
fn keeps_row_order(sql: &str) -> bool {
    sql.lines()
        .next()
        .is_some_and(|l| l.trim() == KEEP_ROW_ORDER)
}

/// Runs a query on polars' streaming engine, which reads the frames a slice at a time: a
/// report's memory is that of its groups, not of the frame it scans (with the default
/// in-memory engine, the `wait_danger` report alone held about 17 bytes per row, 10 GB for
/// 2.5 million games). A plan the streaming engine does not implement yet (it panics with
/// `not yet implemented`, as polars' own automatic streaming expects) runs on the in-memory
/// engine instead: a user's SQL still gets its answer.
pub fn collect(lf: LazyFrame) -> Result<DataFrame> {
    let streaming = lf.clone();
    let run = std::panic::AssertUnwindSafe(|| streaming.collect_with_engine(Engine::Streaming));
    match std::panic::catch_unwind(run) {
        // One query, so one result (several come only from a plan with several sinks).
        Ok(result) => Ok(result?.unwrap_single()),
        Err(panic) if is_unimplemented(panic.as_ref()) => Ok(lf.collect()?),
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// True for the panic of a `todo!()`.
fn is_unimplemented(panic: &(dyn std::any::Any + Send)) -> bool {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str));
    message.is_some_and(|m| m.starts_with("not yet implemented"))
}

#[cfg(test)]
mod tests {
    use polars::prelude::*;
    use polars::sql::SQLContext;

    /// A query's aliased subquery is gone when the next query runs: that query's own `WITH b`
    /// is what it reads (polars alone would hand it the first query's `b`, with its columns).
    #[test]
    fn an_aliased_subquery_does_not_outlive_its_query() {
        let mut ctx = SQLContext::new();
        ctx.register("t", df!("v" => [1i64, 2, 3]).unwrap().lazy());
        let first = super::run(
            &mut ctx,
            "SELECT MAX(b.v) AS v FROM (SELECT v FROM t) b",
            None,
        );
        assert_eq!(
            first.unwrap().column("v").unwrap().get(0).unwrap(),
            AnyValue::Int64(3)
        );
        let second = "WITH b AS (SELECT v * 10 AS w FROM t) SELECT SUM(w) AS w FROM b";
        let second = super::run(&mut ctx, second, None).unwrap();
        // 10 + 20 + 30.
        assert_eq!(
            second.column("w").unwrap().get(0).unwrap(),
            AnyValue::Int64(60)
        );
        assert_eq!(ctx.get_tables(), vec!["t".to_string()]);
    }

    /// Only a `todo!()` sends a query back to the in-memory engine; other panics go on.
    #[test]
    fn only_unimplemented_panics_fall_back() {
        let todo = std::panic::catch_unwind(|| todo!("streaming sort by list")).unwrap_err();
        assert!(super::is_unimplemented(todo.as_ref()));
        let bare = std::panic::catch_unwind(|| todo!()).unwrap_err();
        assert!(super::is_unimplemented(bare.as_ref()));
        let other = std::panic::catch_unwind(|| panic!("index out of bounds")).unwrap_err();
        assert!(!super::is_unimplemented(other.as_ref()));
    }
}
