//! `haifu compare`: the same reports on two corpora (two frame directories, two slices of
//! one, or both), side by side, with the differences that are real.
//!
//! Each comparable report has SQL in `queries/compare/` that gives, per row of the report and
//! per measure (from the report's own rows where they hold the sums: [`over_report`]), the sums
//! a test needs ([`stat::Moments`]): key columns (the report's own, such
//! as `outcome` or `turn`), then `measure`, `stat` (`share` or `mean`), `n`, `s1`, `s2`. The
//! same SQL runs on both sides; rows are matched on their keys and measure, A's rows in A's
//! order and then the rows only B has, in B's order, the measures of one key kept together
//! (a row one side lacks is shown with that side's value null, never dropped). [`stat`] tests each row; Holm's correction runs over the
//! rows of one report's table.
//!
//! Invariants: a side's numbers are those the report itself prints for the same frames and
//! slice (tested); a corpus compared with itself has every difference 0 and no significant
//! row; the output's row order depends only on the frames.

pub(crate) mod stat;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::*;
use polars::sql::SQLContext;
use serde_json::{json, Value};

use crate::frames::dataset;
use crate::report::{self, Slice};
use stat::{Kind, Moments};

/// A report `haifu compare` can compare: its name (as `haifu stats` knows it), the SQL of its
/// moments (the first part is the report; a later part adds measures that need a frame
/// written on request, and is left out, with a note, when a side lacks it) and the report's
/// row filter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Comparison {
    pub(crate) report: &'static str,
    parts: &'static [&'static str],
    filter: Option<(&'static str, &'static str)>,
    /// Whether a three-player side may face a four-player one (§24): true where the units and
    /// the rows mean the same thing under both tables' rules (a rate per player-hand, a share
    /// of wins or of hands, the outcome of a seat facing a riichi); false where they differ
    /// (places 1..3 against 1..4, 27 kinds against 34, the 25 wait categories, a name's
    /// profile of one table, the starting hands by turn).
    across_tables: bool,
}

const SPLITS: &str = include_str!("../../queries/compare/riichi_response_splits.sql");

/// Every comparable report, in the order `haifu compare` prints them by default.
pub(crate) const COMPARISONS: &[Comparison] = &[
    Comparison {
        report: "summary",
        parts: &[
            include_str!("../../queries/compare/summary.sql"),
            include_str!("../../queries/compare/summary_win_value.sql"),
        ],
        filter: None,
        across_tables: true,
    },
    Comparison {
        report: "placement",
        parts: &[include_str!("../../queries/compare/placement.sql")],
        filter: None,
        across_tables: false,
    },
    Comparison {
        report: "players",
        parts: &[include_str!("../../queries/compare/players.sql")],
        filter: None,
        across_tables: false,
    },
    Comparison {
        report: "riichi-response",
        parts: &[include_str!("../../queries/compare/riichi_response.sql")],
        filter: None,
        across_tables: true,
    },
    Comparison {
        report: "riichi-response-by-shanten",
        parts: &[SPLITS],
        filter: Some(("split", "shanten")),
        across_tables: true,
    },
    Comparison {
        report: "riichi-response-by-seat-dealer",
        parts: &[SPLITS],
        filter: Some(("split", "seat_dealer")),
        across_tables: true,
    },
    Comparison {
        report: "riichi-response-by-riichi-dealer",
        parts: &[SPLITS],
        filter: Some(("split", "riichi_dealer")),
        across_tables: true,
    },
    Comparison {
        report: "riichi-response-by-riichi-turn",
        parts: &[SPLITS],
        filter: Some(("split", "riichi_turn")),
        across_tables: true,
    },
    Comparison {
        report: "yaku",
        parts: &[include_str!("../../queries/compare/yaku.sql")],
        filter: None,
        across_tables: true,
    },
    Comparison {
        report: "draw-reasons",
        parts: &[include_str!("../../queries/compare/draw_reasons.sql")],
        filter: None,
        across_tables: true,
    },
    Comparison {
        report: "winning-tiles",
        parts: &[include_str!("../../queries/compare/winning_tiles.sql")],
        filter: None,
        across_tables: false,
    },
    Comparison {
        report: "double-riichi",
        parts: &[include_str!("../../queries/compare/double_riichi.sql")],
        filter: None,
        across_tables: true,
    },
    Comparison {
        report: "by-turn",
        parts: &[include_str!("../../queries/compare/by_turn.sql")],
        filter: None,
        across_tables: false,
    },
    Comparison {
        report: "wait-danger",
        parts: &[include_str!("../../queries/compare/wait_danger.sql")],
        filter: None,
        across_tables: false,
    },
];

/// The SQL of a part of `report`'s moments as one text: a part that reads the table `report`
/// (the rows of the report itself, unpivoted into moments) under the report's own SQL as a
/// `WITH`, so that the report's query is written once (docs/compare.md). [`run_part`] runs it
/// so; the text says which frames it reads, and is what DuckDB and Spark run.
pub(crate) fn over_report(report: &str, part: &str) -> String {
    match report::find(report) {
        Some(r) if report::reads_table(part, "report") => format!(
            "WITH report AS (\n{}\n)\n{part}",
            r.sql.trim_end().trim_end_matches(';')
        ),
        _ => part.to_string(),
    }
}

/// Runs `part` of comparison `c` in `ctx`: a part that reads the table `report` gets the
/// report's own rows as that table, for this run only (polars' SQL would keep a nested `WITH`'s
/// tables in the context, where a later report's names could meet them).
fn run_part(ctx: &mut SQLContext, c: &Comparison, part: &str) -> Result<DataFrame> {
    let Some(r) = report::find(c.report).filter(|_| report::reads_table(part, "report")) else {
        return report::run(ctx, part, c.filter);
    };
    let rows = report::execute(ctx, r.sql).map_err(|e| anyhow::anyhow!("SQL error: {e}"))?;
    ctx.register("report", rows);
    let df = report::run(ctx, part, c.filter);
    ctx.unregister("report");
    df
}

/// Looks a comparable report up by name.
pub(crate) fn find(name: &str) -> Option<&'static Comparison> {
    COMPARISONS.iter().find(|c| c.report == name)
}

/// One side of a comparison: a frames directory, optionally sliced.
pub(crate) struct Side {
    pub(crate) name: String,
    pub(crate) frames: PathBuf,
    slice: Option<Slice>,
    ctx: SQLContext,
    pub(crate) games: u64,
    pub(crate) hands: u64,
    /// Whose seats `players` compares: a name, or every name but it (`rest`); all when `None`.
    pub(crate) player: Option<(String, bool)>,
    /// The side's table (§24): three or four players.
    pub(crate) players: crate::rules::Players,
}

/// Every seat of the `seats` frame with the name that held it and its game's hanchan flag
/// (table `player_seats` of `haifu compare players`).
/// The seats of the games in `games` (every game, or a condition on `games`) with each seat's
/// name and the game's hanchan flag.
fn player_seats(games: &str) -> String {
    format!(
        "SELECT CASE s.seat WHEN 0 THEN g.name_0 WHEN 1 THEN g.name_1 \
         WHEN 2 THEN g.name_2 ELSE g.name_3 END AS name, g.hanchan, s.* \
         FROM seats s JOIN (SELECT * FROM games{games}) g ON s.game_id = g.game_id"
    )
}

impl Side {
    /// The frames in `frames`, restricted to the games `expr` selects when given.
    pub(crate) fn open(
        name: &str,
        frames: &Path,
        expr: Option<&str>,
        players: Option<crate::rules::Players>,
    ) -> Result<Side> {
        let table = report::Table::select(frames, players)?;
        let slice = expr.map(|e| Slice::select(frames, e, &table)).transpose()?;
        let mut ctx = report::context_over(frames, None, slice.as_ref(), &table)?;
        let count = |ctx: &mut SQLContext, sql: &str, name: &str| -> Result<u64> {
            Ok(first_u64(&report::run(ctx, sql, None)?, name))
        };
        let games = count(&mut ctx, "SELECT COUNT(*) AS games FROM games", "games")?;
        let hands = count(&mut ctx, "SELECT hands FROM params", "hands")?;
        let (games, hands) = match &slice {
            Some(s) => (s.games, s.hands),
            None => (games, hands),
        };
        let mut side = Side {
            name: name.to_string(),
            frames: frames.to_path_buf(),
            slice,
            ctx,
            games,
            hands,
            player: None,
            players: table.players,
        };
        side.pick_player(None)?;
        Ok(side)
    }

    /// Restricts the side's `players` comparison to the seats of one name (`rest`: of every
    /// other name), or lets it read every seat (`None`). Frames without a `seats` frame (an
    /// older haifu's) have no `player_seats` table.
    pub(crate) fn pick_player(&mut self, player: Option<(&str, bool)>) -> Result<()> {
        let seats = match &self.slice {
            Some(s) => s.table_dir(&self.frames, "seats"),
            None => Some(self.frames.as_path()),
        };
        if !seats.is_some_and(|d| dataset::exists(d, "seats")) {
            return Ok(());
        }
        // Every seat needs no name (compare/players.sql reads none): `seats` itself, without
        // the join to `games`, which would hold an entry per game. One name's seats join only
        // the games it played; the rest of the names join every game.
        let sql = match player {
            None => "SELECT * FROM seats".to_string(),
            Some((name, false)) => {
                let n = report::portable::quoted(name);
                player_seats(&format!(
                    " WHERE name_0 = {n} OR name_1 = {n} OR name_2 = {n} OR name_3 = {n}"
                ))
            }
            Some((_, true)) => player_seats(""),
        };
        let mut lf =
            report::execute(&mut self.ctx, &sql).map_err(|e| anyhow::anyhow!("SQL error: {e}"))?;
        if let Some((name, rest)) = player {
            let same = col("name").eq(lit(name.to_string()));
            lf = lf.filter(if rest { same.not() } else { same });
        }
        self.ctx.register("player_seats", lf);
        self.player = player.map(|(n, r)| (n.to_string(), r));
        Ok(())
    }

    /// The side as JSON: name, frames, where (or null), games, hands.
    /// With a name picked for `players`, also `player` (the name) and `rest`.
    pub(crate) fn json(&self) -> Value {
        let mut v = json!({
            "name": self.name,
            "frames": self.frames.display().to_string(),
            "where": self.slice.as_ref().map(|s| s.expr.clone()),
            "games": self.games,
            "hands": self.hands,
        });
        if let Some((player, rest)) = &self.player {
            v["player"] = json!(player);
            v["rest"] = json!(rest);
        }
        v
    }

    /// True when the side has the `player_seats` table (its frames have `seats`).
    fn has_player_seats(&self) -> bool {
        self.ctx.get_tables().iter().any(|t| t == "player_seats")
    }

    /// One line for a person.
    pub(crate) fn describe(&self) -> String {
        let mut s = format!("{} = {}", self.name, self.frames.display());
        if let Some(sl) = &self.slice {
            s.push_str(&format!(" --where {:?}", sl.expr));
        }
        match &self.player {
            Some((n, false)) => s.push_str(&format!(" (players: {n:?})")),
            Some((n, true)) => s.push_str(&format!(" (players: every name but {n:?})")),
            None => {}
        }
        format!("{s}: {} games, {} hands", self.games, self.hands)
    }

    /// The frame `name` this side lacks, if it lacks one `sql` reads.
    fn lacks(&self, sql: &str) -> Option<&'static str> {
        crate::frames::ON_REQUEST_FRAMES
            .iter()
            .copied()
            .find(|t| report::reads_table(sql, t) && !dataset::exists(&self.frames, t))
    }
}

fn first_u64(df: &DataFrame, name: &str) -> u64 {
    df.column(name)
        .ok()
        .and_then(|c| c.get(0).ok())
        .and_then(|v| v.extract::<u64>())
        .unwrap_or(0)
}

/// One report compared: its rows (columns `report`, the report's keys, `measure`, `stat`,
/// `n_a`, `n_b`, `a`, `b`, `diff`, `diff_lo`, `diff_hi`, `p`, `p_adjusted`, `significant`).
pub(crate) struct Table {
    pub(crate) report: &'static str,
    pub(crate) rows: DataFrame,
    /// How many key columns follow `report`.
    pub(crate) keys: usize,
}

/// What a comparison gave: a table per report it could compare, and notes on what it left out.
pub(crate) struct Compared {
    pub(crate) tables: Vec<Table>,
    pub(crate) notes: Vec<String>,
}

/// Compares `reports` on sides `a` and `b`. A report (or a part of one) that reads a frame a
/// side lacks is left out with a note; `strict` makes a whole report left out an error (the
/// user named it). A three-player side facing a four-player one compares only the reports
/// whose units mean the same under both rules ([`Comparison::across_tables`]), the others
/// refused (named) or left out with a note.
pub(crate) fn compare(
    a: &mut Side,
    b: &mut Side,
    reports: &[&Comparison],
    strict: bool,
) -> Result<Compared> {
    let mut tables = Vec::new();
    let mut notes = Vec::new();
    let across = a.players != b.players;
    let sides = |a: &Side, b: &Side| {
        format!(
            "{} holds {}-player games and {} {}-player games",
            a.name,
            a.players.seats(),
            b.name,
            b.players.seats()
        )
    };
    if across {
        let refused: Vec<&str> = reports
            .iter()
            .filter(|c| !c.across_tables)
            .map(|c| c.report)
            .collect();
        if strict && !refused.is_empty() {
            bail!(
                "report `{}` cannot compare a three-player corpus with a four-player one: its \
                 units differ between the tables (§24; {}); compare two corpora of one table, \
                 or one of the reports whose units are the same (docs/compare.md)",
                refused.join("`, `"),
                sides(a, b)
            );
        }
        if !refused.is_empty() {
            notes.push(format!(
                "{}: left out: their units differ between three and four players ({})",
                refused.join(", "),
                sides(a, b)
            ));
        }
    }
    for c in reports.iter().filter(|c| !across || c.across_tables) {
        let mut sides: [Vec<DataFrame>; 2] = [Vec::new(), Vec::new()];
        // (side, frame, directory) of each part a side cannot run.
        let mut missing = Vec::new();
        if c.report == "players" {
            if let Some(side) = [&*a, &*b].into_iter().find(|s| !s.has_player_seats()) {
                let why = format!(
                    "{} ({}) has no `seats` frame (frames of an older haifu: ingest again)",
                    side.name,
                    side.frames.display()
                );
                if strict {
                    bail!("report `players` cannot be compared: {why}");
                }
                notes.push(format!("players: left out: {why}"));
                continue;
            }
        }
        for part in c.parts {
            // The frames a part reads include its report's when it reads the report's rows.
            let reads = over_report(c.report, part);
            if let Some(m) = [&*a, &*b].iter().find_map(|s| {
                s.lacks(&reads)
                    .map(|f| (s.name.clone(), f, s.frames.clone()))
            }) {
                missing.push(m);
                continue;
            }
            for (out, side) in sides.iter_mut().zip([&mut *a, &mut *b]) {
                let df = run_part(&mut side.ctx, c, part)
                    .with_context(|| format!("comparing `{}` on {}", c.report, side.name))?;
                out.push(df);
            }
        }
        let whole = sides[0].is_empty();
        if whole && strict {
            let (side, frame, dir) = &missing[0];
            bail!(
                "report `{}` reads the `{frame}` frame, which {side} ({}) lacks: ingest with {}",
                c.report,
                dir.display(),
                crate::frames::flag_of(frame)
            );
        }
        let what = if whole {
            "left out"
        } else {
            "its measures that read"
        };
        notes.extend(missing.iter().map(|(side, frame, _)| {
            let lacks = format!(
                "{side} lacks the `{frame}` frame (ingest with {})",
                crate::frames::flag_of(frame)
            );
            if whole {
                format!("{}: {what}: {lacks}", c.report)
            } else {
                format!("{}: {what} `{frame}` left out: {lacks}", c.report)
            }
        }));
        if whole {
            continue;
        }
        let [da, db] = sides.map(stack);
        tables.push(pair(c.report, &da?, &db?)?);
    }
    Ok(Compared { tables, notes })
}

/// `haifu compare review`: two bots' reviews (`haifu review --out` directories, each with its
/// `reviews` frame) side by side: the match rate per kind of decision and group
/// (queries/compare/review.sql), the difference B − A with its interval and Holm's test.
pub(crate) fn reviews(a: &Path, b: &Path) -> Result<Table> {
    const SQL: &str = include_str!("../../queries/compare/review.sql");
    let side = |dir: &Path| -> Result<DataFrame> {
        if !dataset::exists(dir, "reviews") {
            bail!(
                "{} has no reviews frame: give the --out directory of `haifu review`",
                dir.display()
            );
        }
        let mut ctx = SQLContext::new();
        ctx.register("reviews", dataset::scan(dir, "reviews")?);
        report::run(&mut ctx, SQL, None)
    };
    pair("review", &side(a)?, &side(b)?)
}

/// The parts of one side's moments as one frame (`n` as Int64 in each: a part's count may
/// come out of its SQL as another integer type, by engine and by what it multiplies).
fn stack(parts: Vec<DataFrame>) -> Result<DataFrame> {
    let int64 = |mut df: DataFrame| -> Result<DataFrame> {
        if let Ok(n) = df.column("n") {
            let n = n.cast(&DataType::Int64)?;
            df.with_column(n)?;
        }
        Ok(df)
    };
    let mut it = parts.into_iter();
    let mut df = int64(it.next().context("no moments")?)?;
    for p in it {
        df.vstack_mut(&int64(p)?)?;
    }
    Ok(df)
}

/// The key columns of a moments frame: every column before `measure`.
fn key_names(df: &DataFrame) -> Result<Vec<String>> {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let at = names
        .iter()
        .position(|n| n == "measure")
        .context("moments without a `measure` column")?;
    Ok(names[..at].to_vec())
}

/// A row's identity: its keys and measure, as text.
fn row_keys(df: &DataFrame, keys: &[String]) -> Result<Vec<String>> {
    let mut with_measure = keys.to_vec();
    with_measure.push("measure".into());
    group_keys(df, &with_measure)
}

/// The values of columns `keys` of every row, as text.
fn group_keys(df: &DataFrame, keys: &[String]) -> Result<Vec<String>> {
    let mut cols: Vec<&Column> = Vec::new();
    for k in keys {
        cols.push(df.column(k)?);
    }
    (0..df.height())
        .map(|i| {
            let mut s = String::new();
            for c in &cols {
                s.push_str(&c.get(i)?.to_string());
                s.push('\u{1f}');
            }
            Ok(s)
        })
        .collect()
}

/// The moments of every row of a side.
fn moments(df: &DataFrame) -> Result<Vec<Option<Moments>>> {
    let kind = df.column("stat")?.str()?.clone();
    let n = df.column("n")?.cast(&DataType::Float64)?;
    let s1 = df.column("s1")?.cast(&DataType::Float64)?;
    let s2 = df.column("s2")?.cast(&DataType::Float64)?;
    let (n, s1, s2) = (n.f64()?, s1.f64()?, s2.f64()?);
    Ok((0..df.height())
        .map(|i| {
            Some(Moments {
                kind: Kind::parse(kind.get(i)?)?,
                n: n.get(i).unwrap_or(0.0),
                s1: s1.get(i).unwrap_or(0.0),
                s2: s2.get(i).unwrap_or(0.0),
            })
        })
        .collect())
}

/// Both sides' rows matched and tested.
fn pair(report: &'static str, da: &DataFrame, db: &DataFrame) -> Result<Table> {
    let keys = key_names(da)?;
    if key_names(db)? != keys {
        bail!("comparing `{report}`: the two sides' moments have different key columns");
    }
    let (ka, kb) = (row_keys(da, &keys)?, row_keys(db, &keys)?);
    let (ma, mb) = (moments(da)?, moments(db)?);
    let index_b: std::collections::HashMap<&str, usize> = kb
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let in_a: std::collections::HashSet<&str> = ka.iter().map(String::as_str).collect();
    // (row of A, row of B) of every output row: A's order, then the rows only B has.
    let mut rows: Vec<(Option<usize>, Option<usize>)> = ka
        .iter()
        .enumerate()
        .map(|(i, k)| (Some(i), index_b.get(k.as_str()).copied()))
        .collect();
    rows.extend(
        kb.iter()
            .enumerate()
            .filter(|(_, k)| !in_a.contains(k.as_str()))
            .map(|(j, _)| (None, Some(j))),
    );
    // A row's measures together (a later part's measures join their keys' rows): stable, by
    // where its keys first appear.
    let (ga, gb) = (group_keys(da, &keys)?, group_keys(db, &keys)?);
    let group = |&(i, j): &(Option<usize>, Option<usize>)| match (i, j) {
        (Some(i), _) => ga[i].clone(),
        (None, Some(j)) => gb[j].clone(),
        (None, None) => unreachable!("every row is on a side"),
    };
    let mut first_seen: std::collections::HashMap<String, usize> = Default::default();
    for (at, r) in rows.iter().enumerate() {
        first_seen.entry(group(r)).or_insert(at);
    }
    rows.sort_by_key(|r| first_seen[&group(r)]);
    // Keys and measure, taken from whichever side has the row (their types kept).
    let take: Vec<IdxSize> = rows
        .iter()
        .map(|&(i, j)| match (i, j) {
            (Some(i), _) => i as IdxSize,
            (None, Some(j)) => (da.height() + j) as IdxSize,
            (None, None) => unreachable!("every row is on a side"),
        })
        .collect();
    let mut label_names = keys.clone();
    label_names.push("measure".into());
    label_names.push("stat".into());
    let labels_a = da.select(label_names.iter().map(String::as_str))?;
    let labels_b = db.select(label_names.iter().map(String::as_str))?;
    let mut labels = labels_a.vstack(&labels_b).map_err(|e| {
        anyhow::anyhow!("comparing `{report}`: the two sides' key columns differ in type: {e}")
    })?;
    labels = labels.take(&IdxCa::from_vec("idx".into(), take))?;
    let side = |m: &[Option<Moments>], r: Option<usize>| r.and_then(|r| m[r]);
    let mut cols: [Vec<Option<f64>>; 7] = Default::default();
    let (mut n_a, mut n_b) = (Vec::new(), Vec::new());
    for &(i, j) in &rows {
        let (a, b) = (side(&ma, i), side(&mb, j));
        n_a.push(a.map(|m| m.n as i64));
        n_b.push(b.map(|m| m.n as i64));
        let d = match (a, b) {
            (Some(a), Some(b)) => stat::difference(&a, &b),
            _ => None,
        };
        let diff = match (a.and_then(|m| m.value()), b.and_then(|m| m.value())) {
            (Some(x), Some(y)) => Some(y - x),
            _ => None,
        };
        let values = [
            a.and_then(|m| m.value()),
            b.and_then(|m| m.value()),
            d.map(|d| d.diff).or(diff),
            d.map(|d| d.lo),
            d.map(|d| d.hi),
            d.map(|d| d.p),
        ];
        for (c, v) in cols.iter_mut().zip(values) {
            c.push(v);
        }
    }
    let adjusted = stat::holm(&cols[5]);
    cols[6] = adjusted;
    let significant: Vec<Option<bool>> = cols[6].iter().map(|p| p.map(stat::significant)).collect();
    let height = rows.len();
    let mut out: Vec<Column> = vec![Column::new("report".into(), vec![report; height])];
    out.extend(labels.columns().iter().cloned());
    out.push(Column::new("n_a".into(), n_a));
    out.push(Column::new("n_b".into(), n_b));
    let names = ["a", "b", "diff", "diff_lo", "diff_hi", "p", "p_adjusted"];
    for (name, c) in names.iter().zip(cols) {
        out.push(Column::new((*name).into(), c));
    }
    out.push(Column::new("significant".into(), significant));
    Ok(Table {
        report,
        rows: DataFrame::new_infer_height(out)?,
        keys: keys.len(),
    })
}
