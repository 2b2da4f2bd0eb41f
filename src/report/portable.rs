//! A report's SQL for another engine (`haifu query --print`): the statements that make every
//! table the report reads — the frames it names, restricted as `haifu stats` restricts them
//! (the table of `--players` in a directory that holds both, a `--where` slice, `--seat`), and
//! the tables haifu adds (`params`, `kinds`, `yaku_names`) — then the report's own SQL, which
//! is written in the dialect polars, DuckDB and Spark SQL share (docs/scale.md).
//!
//! Invariant: the printed report is the bundled SQL text unchanged but for a report's column
//! filter (the §1 splits share one query), which wraps it in one outer `SELECT`.

use std::fmt::Write;
use std::path::Path;

use anyhow::{bail, Result};

use super::{reads_table, Table, DANGER_TABLES};
use crate::frames::{dataset, is_per_game, FRAMES, ON_REQUEST_FRAMES};

/// The engine the printed SQL is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Dialect {
    /// DuckDB (`duckdb < report.sql`): views over `read_parquet`.
    Duckdb,
    /// Spark SQL (`spark-sql -f report.sql`, or `spark.sql` statement by statement): temporary
    /// views over `parquet.` paths.
    Spark,
}

/// What restricts the rows the tables hold.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scope<'a> {
    /// A §9 slice: a condition over `games`.
    pub(crate) slice: Option<&'a str>,
    /// `--seat`: the `riichi_response` units of one seat.
    pub(crate) seat: Option<u8>,
}

/// A SQL string literal.
pub(crate) fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The source of frame `name`'s rows in `dir` for `dialect`: its file, or the glob of its
/// parts, or both.
fn source(dir: &Path, name: &str, dialect: Dialect) -> Result<String> {
    let files = dataset::files(dir, name);
    let single = files.iter().any(|f| f.parent() == Some(dir));
    let parts = files.iter().any(|f| f.parent() != Some(dir));
    let mut paths = Vec::new();
    if single {
        paths.push(dir.join(format!("{name}.parquet")));
    }
    if parts {
        paths.push(dir.join(name).join("*.parquet"));
    }
    if paths.is_empty() {
        bail!("{} has no frame {name}", dir.display());
    }
    let one = |p: &Path| -> String {
        let p = p.display().to_string();
        match dialect {
            Dialect::Duckdb => format!("SELECT * FROM read_parquet({})", quoted(&p)),
            Dialect::Spark => format!("SELECT * FROM parquet.`{}`", p.replace('`', "``")),
        }
    };
    Ok(paths
        .iter()
        .map(|p| one(p))
        .collect::<Vec<_>>()
        .join(" UNION ALL "))
}

/// The statement that names `body` as view `name`.
fn view(name: &str, body: &str, dialect: Dialect) -> String {
    match dialect {
        Dialect::Duckdb => format!("CREATE OR REPLACE TEMP VIEW {name} AS {body};\n"),
        Dialect::Spark => format!("CREATE OR REPLACE TEMPORARY VIEW {name} AS {body};\n"),
    }
}

/// The rows of a table written out as `SELECT … UNION ALL SELECT …` (the one form of a
/// literal table both engines read the same way).
fn literal_rows(columns: &[&str], rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .zip(columns)
                .map(|(v, c)| format!("{v} AS {c}"))
                .collect();
            format!("SELECT {}", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n  UNION ALL ")
}

/// Table `kinds` as literal rows (the same rows haifu registers: `report::kinds_table`).
fn kinds_rows() -> String {
    use crate::tile::{kind_name, KINDS};
    let rows: Vec<Vec<String>> = (0..KINDS)
        .map(|k| {
            let name = kind_name(k);
            vec![
                quoted(name),
                (k + 1).to_string(),
                quoted(&name[1..]),
                (name.as_bytes()[0] - b'0').to_string(),
            ]
        })
        .collect();
    literal_rows(&["kind", "pos", "suit", "number"], &rows)
}

/// Table `yaku_names` as literal rows (`report::yaku_table`).
fn yaku_rows() -> String {
    let rows: Vec<Vec<String>> = crate::yaku::YAKU
        .iter()
        .enumerate()
        .map(|(i, y)| vec![i.to_string(), quoted(y.key), quoted(y.name)])
        .collect();
    literal_rows(&["id", "yaku", "name"], &rows)
}

/// The printed report: every table `sql` reads over the frames of `dir` for `dialect`, then
/// `sql` itself (with `filter`, the report's column filter, as an outer `SELECT`). `what` names
/// the report in the header and in a refusal.
pub(crate) fn print(
    dir: &Path,
    sql: &str,
    filter: Option<(&str, &str)>,
    table: &Table,
    scope: Scope<'_>,
    dialect: Dialect,
    what: &str,
) -> Result<String> {
    let sliced_danger = DANGER_TABLES.iter().any(|t| reads_table(sql, t));
    if scope.slice.is_some() && sliced_danger {
        bail!(
            "{what} reads the §4 scores, which a slice re-scores inside haifu: run it with \
             `haifu stats`, or print it without --where"
        );
    }
    if scope.slice.is_some() && reads_table(sql, "draw_rate") {
        bail!("{what} reads the pooled draw_rate frame, which --where cannot slice");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- {what} over the frames of {} ({}-player games{}), for {}.",
        dir.display(),
        table.players.seats(),
        scope
            .slice
            .map(|s| format!(" where {s}"))
            .unwrap_or_default(),
        match dialect {
            Dialect::Duckdb => "DuckDB",
            Dialect::Spark => "Spark SQL",
        }
    );
    out.push_str("-- The frames it reads, each a view of its Parquet file(s):\n");
    let players = table.players.seats();
    // The games a per-game frame keeps: those of the table, within the slice.
    let mut keep = Vec::new();
    if table.mixed() {
        keep.push(format!("players = {players}"));
    }
    if let Some(s) = scope.slice {
        keep.push(format!("({s})"));
    }
    let needs_hands = reads_table(sql, "params");
    for &name in FRAMES.iter().chain(&ON_REQUEST_FRAMES) {
        let read = reads_table(sql, name) || (needs_hands && name == "hands");
        if !read {
            continue;
        }
        if !dataset::exists(dir, name) {
            bail!(
                "{} has no frame {name}, which {what} reads (haifu stats --list says which \
                 --with writes it)",
                dir.display()
            );
        }
        let mut body = source(dir, name, dialect)?;
        let mut conds = Vec::new();
        if is_per_game(name) && !keep.is_empty() {
            conds.push(if name == "games" {
                keep.join(" AND ")
            } else {
                format!(
                    "game_id IN (SELECT game_id FROM ({}) AS g WHERE {})",
                    source(dir, "games", dialect)?,
                    keep.join(" AND ")
                )
            });
        } else if !is_per_game(name) && table.mixed() {
            conds.push(format!("players = {players}"));
        }
        if let (Some(s), "riichi_response") = (scope.seat, name) {
            conds.push(format!("seat = {s}"));
        }
        if !conds.is_empty() {
            body = format!("SELECT * FROM ({body}) AS f WHERE {}", conds.join(" AND "));
        }
        out.push_str(&view(name, &body, dialect));
    }
    if reads_table(sql, "params") {
        out.push_str("-- The run's parameters (haifu's table params):\n");
        let seats = if scope.seat.is_some() { 1 } else { players };
        out.push_str(&view(
            "params",
            &format!("SELECT COUNT(*) AS hands, {seats} AS seats, {players} AS players FROM hands"),
            dialect,
        ));
    }
    if reads_table(sql, "kinds") {
        out.push_str("-- The 34 kinds (haifu's table kinds):\n");
        out.push_str(&view("kinds", &kinds_rows(), dialect));
    }
    if reads_table(sql, "yaku_names") {
        out.push_str("-- The yaku table (haifu's table yaku_names):\n");
        out.push_str(&view("yaku_names", &yaku_rows(), dialect));
    }
    if super::players::wants_interval(sql) {
        out.push_str(
            "-- haifu adds the stable dan's bootstrap interval to this report's rows after the \
             SQL (docs/players.md).\n",
        );
    }
    out.push_str("-- The report:\n");
    let body = sql
        .lines()
        .filter(|l| l.trim() != super::KEEP_ROW_ORDER)
        .collect::<Vec<_>>()
        .join("\n");
    let body = body.trim_end().trim_end_matches(';').to_string();
    match filter {
        Some((column, value)) => {
            let _ = writeln!(
                out,
                "SELECT * FROM (\n{body}\n) AS report WHERE {column} = {};",
                quoted(value)
            );
        }
        None => {
            let _ = writeln!(out, "{body};");
        }
    }
    Ok(out)
}
