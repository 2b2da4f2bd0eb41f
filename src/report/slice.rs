//! Slices (docs/definitions.md §9): a boolean polars-SQL expression over the `games` columns that
//! restricts every per-game table a report reads to the games it selects.
//!
//! Invariants: a sliced context registers each per-game frame filtered to the selected game
//! ids (a streaming filter: the frame is still read a slice at a time, and only the selected
//! ids are held); `draw_rate`, pooled over the whole ingest, is not registered, and a query
//! that names it is refused before it runs; the §4 run-wide frames (`danger_eval`'s
//! `phoenix-table` rows, `danger_calibration`, `danger_eval_summary`) depend on the whole
//! corpus, so under a slice they are scored afresh on the selected games (the in-sample
//! `phoenix-table` fitted on the slice) into a scratch directory that lives as long as the
//! slice.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use polars::prelude::*;
use polars::sql::SQLContext;
use serde_json::{json, Value};

use super::{collect, danger, Table};
use crate::danger::{CategoryTable, EstimatorName};
use crate::frames::{dataset, FrameWriter};
use crate::rules::Players;

/// The §4 frames scored on a slice, and the directory that holds them.
struct Scratch {
    dir: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The games a `--where` expression selects.
pub struct Slice {
    /// The expression as the user gave it.
    pub expr: String,
    /// The table whose games it selects among (§24).
    pub players: Players,
    /// Games and hands selected.
    pub games: u64,
    pub hands: u64,
    ids: Series,
    scratch: Option<Scratch>,
}

/// Frames that hold run-wide totals rather than rows of games.
const POOLED: &str = "draw_rate";
/// The §4 frames a slice scores afresh.
pub(crate) const DANGER_TABLES: [&str; 3] =
    ["danger_eval", "danger_calibration", "danger_eval_summary"];

/// Whether `sql` names the column `column` (a word; `prefix*` any word starting so).
pub(crate) fn names_column(sql: &str, column: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let sql = sql.to_ascii_lowercase();
    sql.split(|c: char| !word(c))
        .any(|w| match column.strip_suffix('*') {
            Some(prefix) => w.starts_with(prefix),
            None => w == column,
        })
}

/// True when `sql` reads `table`: the name as a whole word (in any case) right after `FROM` or
/// `JOIN`, or in a comma-separated list of tables after one (`FROM a x, b AS y, table`). A
/// column or alias of that name is not a read, nor a name in a select list (`SELECT hands,
/// wins FROM hands`).
pub(crate) fn reads_table(sql: &str, table: &str) -> bool {
    // Most (query, table) pairs do not name the table at all: say so without lowercasing and
    // tokenising the query (`haifu --help` and every command's start ask of every report).
    let named = sql
        .as_bytes()
        .windows(table.len().max(1))
        .any(|w| w.eq_ignore_ascii_case(table.as_bytes()));
    if !named {
        return false;
    }
    let sql = sql.to_ascii_lowercase();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // Words (with the dots of qualified names) and every other character, spaces dropped.
    let mut tokens: Vec<&str> = Vec::new();
    let mut rest = sql.as_str();
    while let Some(c) = rest.chars().next() {
        let len = if word(c) {
            rest.find(|c: char| !word(c) && c != '.')
                .unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        if !c.is_whitespace() {
            tokens.push(&rest[..len]);
        }
        rest = &rest[len..];
    }
    let is_word = |t: &str| t.starts_with(|c: char| word(c));
    (0..tokens.len()).filter(|&i| tokens[i] == table).any(|i| {
        let mut j = i;
        loop {
            let Some(prev) = j.checked_sub(1) else {
                return false;
            };
            match tokens[prev] {
                "from" | "join" => return true,
                "," => {
                    // Back over the previous table of the list: `name`, `name alias` or
                    // `name AS alias`.
                    let mut k = prev;
                    let mut words = 0;
                    while k > 0 && is_word(tokens[k - 1]) && words < 3 {
                        k -= 1;
                        words += 1;
                        if matches!(tokens[k], "from" | "join") {
                            return words > 1;
                        }
                    }
                    if k == prev || !(k > 0 && tokens[k - 1] == ",") {
                        return false;
                    }
                    j = k;
                }
                _ => return false,
            }
        }
    })
}

/// An error unless `sql` (report `what`) can run on a slice: `draw_rate` cannot.
pub(crate) fn refuse_pooled(sql: &str, what: &str) -> Result<()> {
    if reads_table(sql, POOLED) {
        bail!(
            "{what} reads the draw_rate frame, which is pooled over the whole ingest and cannot \
             be restricted with --where: ingest the slice itself instead (haifu ingest/run with \
             --since/--until and --room, or only the files you want)"
        );
    }
    Ok(())
}

impl Slice {
    /// The games of `table` in the frames in `dir` for which `expr` holds. An expression that
    /// does not parse, or names a column `games` does not have, is an error that says so.
    pub fn select(dir: &Path, expr: &str, table: &Table) -> Result<Slice> {
        let scan = |name: &str| dataset::scan(dir, name);
        let mut ctx = SQLContext::new();
        ctx.register("games", scan("games")?);
        let query = match table.condition() {
            Some(c) => format!("SELECT game_id FROM games WHERE ({expr}) AND {c}"),
            None => format!("SELECT game_id FROM games WHERE {expr}"),
        };
        // polars appends the plan it could not resolve; the first paragraph says what is wrong.
        let bad = |e: &dyn std::fmt::Display| {
            let e = e.to_string();
            let what = e.split("\n\n").next().unwrap_or(&e).trim_end();
            anyhow!("--where {expr:?} is not a usable condition over the games table: {what}")
        };
        // polars may panic on SQL it cannot plan: a bad expression is a usage error, not a crash.
        let selected = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::execute(&mut ctx, &query)
                .map_err(|e| bad(&e))
                .and_then(|lf| collect(lf).map_err(|e| bad(&e)))
        }))
        .map_err(|p| {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            bad(&msg)
        })??;
        let ids = selected.column("game_id")?.as_materialized_series().clone();
        let keep = col("game_id").is_in(lit(ids.clone()).implode(false), false);
        let hands = collect(scan("hands")?.filter(keep).select([len().alias("n")]))?
            .column("n")?
            .get(0)?
            .extract::<u64>()
            .unwrap_or(0);
        Ok(Slice {
            expr: expr.to_string(),
            players: table.players,
            games: ids.len() as u64,
            hands,
            ids,
            scratch: None,
        })
    }

    /// The selected games' ids.
    pub(crate) fn ids(&self) -> &Series {
        &self.ids
    }

    /// The selected games' log ids as a set.
    pub(crate) fn id_set(&self) -> Result<HashSet<String>> {
        Ok(self
            .ids
            .str()?
            .iter()
            .flatten()
            .map(str::to_string)
            .collect())
    }

    /// The filter that keeps the rows of the selected games in a per-game table.
    pub(crate) fn keeps(&self) -> Expr {
        col("game_id").is_in(lit(self.ids.clone()).implode(false), false)
    }

    /// Scores `estimators` (`table` from `user_table`) on the selected games' §4 situations,
    /// `phoenix-table` fitted on the slice's own §2 units, into a scratch directory whose
    /// frames replace the run-wide ones in a sliced context.
    pub(crate) fn score_danger(
        &mut self,
        frames: &Path,
        estimators: &[EstimatorName],
        user_table: Option<&CategoryTable>,
    ) -> Result<()> {
        let dir = std::env::temp_dir().join(format!(
            "haifu-slice-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let scratch = Scratch { dir };
        let resolved = danger::resolve_on(
            estimators,
            frames,
            user_table,
            Some(&self.ids),
            self.players,
        )?;
        let situations = dataset::require(frames, "danger_situations")?;
        let mut writer = FrameWriter::new(&scratch.dir)?;
        let among = danger::Among {
            keep: Some(&self.ids),
            players: self.players,
            only: false,
        };
        let written = danger::write_scores(&mut writer, &situations, &resolved, among);
        if written.is_err() {
            writer.abandon();
        }
        written?;
        self.scratch = Some(scratch);
        Ok(())
    }

    /// The directory table `name` is read from under this slice: the scratch frames for the
    /// §4 tables once scored (`None` before), else `frames`.
    pub(crate) fn table_dir<'a>(&'a self, frames: &'a Path, name: &str) -> Option<&'a Path> {
        if DANGER_TABLES.contains(&name) {
            return self.scratch.as_ref().map(|s| s.dir.as_path());
        }
        Some(frames)
    }

    /// One line for a person, above a report.
    pub fn header(&self) -> String {
        if self.games == 0 {
            format!(
                "== slice --where {:?}: selects no games; every count below is 0",
                self.expr
            )
        } else {
            format!(
                "== slice --where {:?}: {} games, {} hands",
                self.expr, self.games, self.hands
            )
        }
    }

    /// The slice as JSON (stored with a report's rows).
    pub fn json(&self) -> Value {
        json!({"where": self.expr, "games": self.games, "hands": self.hands})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_matched_as_words() {
        assert!(reads_table("SELECT * FROM draw_rate", "draw_rate"));
        assert!(reads_table("select x from DRAW_RATE d", "draw_rate"));
        assert!(reads_table("FROM draw_rate\n", "draw_rate"));
        assert!(!reads_table("SELECT draw_rate_x FROM t", "draw_rate"));
        assert!(!reads_table("SELECT my_draw_rate FROM t", "draw_rate"));
        assert!(!reads_table("SELECT * FROM hands", "draw_rate"));
        assert!(reads_table(
            "SELECT * FROM hands h JOIN draw_rate d ON 1",
            "draw_rate"
        ));
        assert!(reads_table("SELECT * FROM hands, draw_rate", "draw_rate"));
        assert!(reads_table(
            "SELECT * FROM hands h, games AS g, draw_rate",
            "draw_rate"
        ));
        // A select list naming a column like a table is not a read (summary's `wins`).
        assert!(!reads_table("SELECT room, hands, wins FROM hands", "wins"));
        assert!(!reads_table("SELECT SUM(x) AS n, wins FROM hands", "wins"));
        assert!(!reads_table("SELECT wins, x FROM hands", "wins"));
        // The summary report names a column draw_rate: not a read.
        assert!(!reads_table(
            "SELECT x / y AS draw_rate FROM hands",
            "draw_rate"
        ));
        for r in crate::report::REPORTS {
            let reads = reads_table(r.sql, "draw_rate");
            assert_eq!(reads, r.name.starts_with("draw-rate"), "{}", r.name);
        }
    }
}
