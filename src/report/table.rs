//! Which table's games a report reads (docs/definitions.md §24): no report pools three- and
//! four-player games. A frames directory may hold both (a corpus of both rooms); every
//! report, parameter file and scoring then reads one table's games, `--players 3|4`, by
//! default four players when the frames hold a four-player game, else three.
//!
//! Invariant: over frames that hold one table's games only (every directory written before
//! version 5 among them) a [`Table`] filters nothing, so its reports are those of version 4
//! byte for byte; over mixed frames every per-game frame is restricted to the table's game
//! ids and every run-wide frame (`draw_rate`, `danger_calibration`, `danger_eval_summary`) to
//! its rows of that table (their `players` column).

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use polars::prelude::*;

use super::collect;
use crate::frames::dataset;
use crate::rules::Players;

/// One table's games of a frames directory.
#[derive(Clone, Debug)]
pub struct Table {
    pub players: Players,
    /// The table's game ids, when the frames hold the other table's games too.
    ids: Option<Series>,
}

impl Table {
    /// The table of the frames in `dir`: `players` when given (an error when the frames hold
    /// no game of it), else four players when they hold a four-player game, else three.
    pub fn select(dir: &Path, players: Option<Players>) -> Result<Table> {
        let present = Table::present(dir)?;
        let players = match players {
            Some(p) if !present.is_empty() && !present.contains(&p) => bail!(
                "{} holds no {}-player game (its games are {}-player): drop --players or ingest \
                 such games",
                dir.display(),
                p.seats(),
                present[0].seats()
            ),
            Some(p) => p,
            None => present.first().copied().unwrap_or(Players::Four),
        };
        Table::of(dir, players, &present)
    }

    /// The tables whose games the frames in `dir` hold, four players first (four players for
    /// frames written before version 5, which have no `players` column).
    pub fn present(dir: &Path) -> Result<Vec<Players>> {
        let games = dataset::scan(dir, "games")?;
        let has_column = games
            .clone()
            .collect_schema()
            .map_err(|e| anyhow!("cannot read the games of {}: {e}", dir.display()))?
            .contains("players");
        if !has_column {
            return Ok(vec![Players::Four]);
        }
        let counts = collect(games.group_by([col("players")]).agg([len().alias("n")]))?;
        let column = counts.column("players")?.cast(&DataType::Int64)?;
        let mut p: Vec<Players> = column
            .i64()?
            .iter()
            .flatten()
            .filter_map(|n| Players::of_count(n as usize))
            .collect();
        p.sort_by_key(|p| std::cmp::Reverse(p.seats()));
        Ok(p)
    }

    /// The table of `players` of the frames in `dir`, whose games are of the tables `present`
    /// ([`Table::present`]): a table with no game there selects none.
    pub fn of(dir: &Path, players: Players, present: &[Players]) -> Result<Table> {
        let alone = present.is_empty() || present == [players];
        let ids = if alone {
            None
        } else {
            let selected = collect(
                dataset::scan(dir, "games")?
                    .filter(col("players").eq(lit(players.seats() as i32)))
                    .select([col("game_id")]),
            )?;
            Some(selected.column("game_id")?.as_materialized_series().clone())
        };
        Ok(Table { players, ids })
    }

    /// A table of every game of a directory of four-player games (the frames of a test, of
    /// an older haifu).
    pub fn four() -> Table {
        Table {
            players: Players::Four,
            ids: None,
        }
    }

    /// True when the frames hold games of another table (filters are needed).
    pub fn mixed(&self) -> bool {
        self.ids.is_some()
    }

    /// The table's game ids, when the frames hold the other table's games too.
    pub(crate) fn ids(&self) -> Option<&Series> {
        self.ids.as_ref()
    }

    /// The filter that keeps the table's rows of a per-game frame, when one is needed.
    pub(crate) fn keeps(&self) -> Option<Expr> {
        self.ids
            .as_ref()
            .map(|ids| col("game_id").is_in(lit(ids.clone()).implode(false), false))
    }

    /// The filter that keeps the table's rows of a run-wide frame (its `players` column),
    /// when one is needed.
    pub(crate) fn keeps_pooled(&self) -> Option<Expr> {
        self.mixed()
            .then(|| col("players").eq(lit(self.players.seats() as i32)))
    }

    /// The condition a `--where` slice adds over the `games` table, when one is needed.
    pub(crate) fn condition(&self) -> Option<String> {
        self.mixed()
            .then(|| format!("players = {}", self.players.seats()))
    }

    /// The line a report over mixed frames prints above itself.
    pub fn header(&self) -> Option<String> {
        self.mixed().then(|| {
            format!(
                "== {}-player games only (the frames hold both tables; --players 3|4 picks one)",
                self.players.seats()
            )
        })
    }
}
