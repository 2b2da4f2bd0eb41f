//! Never a silent zero: when a report, `haifu agree` or `haifu review` finds no unit in the
//! frames it was given, it says why and the command exits 3 ([`NothingToReport`];
//! docs/inputs.md's exit table). The reasons, in the order they are looked for: the frames
//! hold no game; the slice (`--where`, `--players`) selects none; a frame the report reads
//! has no row for the selected games because their format does not record it
//! ([`crate::formats::UNFILLED`]) or because an older haifu wrote it; else the games simply
//! have none of the report's units.

use std::fmt;
use std::path::Path;

use anyhow::Result;
use polars::prelude::*;
use polars::sql::SQLContext;

use super::slice::{reads_table, Slice};
use crate::formats::{Filled, UNFILLED};
use crate::manifest::ManifestDocument;

/// A command ran through but found nothing to report; the message says why (exit 3).
#[derive(Debug)]
pub(crate) struct NothingToReport(pub(crate) String);

impl fmt::Display for NothingToReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "nothing to report: {}", self.0)
    }
}

impl std::error::Error for NothingToReport {}

fn count(ctx: &mut SQLContext, sql: &str) -> Result<i64> {
    let df = super::execute(ctx, sql)?.collect()?;
    Ok(df
        .column("n")?
        .cast(&DataType::Int64)?
        .i64()?
        .get(0)
        .unwrap_or(0))
}

/// `n games` (`1 game`).
fn games(n: i64) -> String {
    if n == 1 {
        "1 game".into()
    } else {
        format!("{n} games")
    }
}

/// Why no game is selected, when none is: the frames hold none, or the slice selects none of
/// those of its table. `ctx` is the command's context (its table and slice).
pub(crate) fn no_games(ctx: &mut SQLContext, slice: Option<&Slice>) -> Result<Option<String>> {
    if count(ctx, "SELECT COUNT(*) AS n FROM games")? > 0 {
        return Ok(None);
    }
    Ok(Some(match slice {
        Some(s) => format!(
            "--where \"{}\" selects none of the {}-player games",
            s.expr,
            s.players.seats()
        ),
        None => "the frames hold no game (manifest.json says what became of each input)".into(),
    }))
}

/// Why `what` (a report's query `sql` over `ctx`) gave no row although the context holds
/// games: the first frame it reads that has no row for them, and why it has none.
pub(crate) fn no_rows(ctx: &mut SQLContext, dir: &Path, sql: &str, what: &str) -> Result<String> {
    let n = count(ctx, "SELECT COUNT(*) AS n FROM games")?;
    let mut tables = ctx.get_tables();
    tables.sort();
    for t in tables.iter().filter(|t| reads_table(sql, t)) {
        if *t == "games" || count(ctx, &format!("SELECT COUNT(*) AS n FROM {t}"))? > 0 {
            continue;
        }
        return Ok(match why_empty(ctx, dir, t)? {
            Some(why) => format!(
                "{what} reads `{t}`, which has no row for the {}: {why}",
                games(n)
            ),
            None => format!("{what} reads `{t}`, which has no row for the {}", games(n)),
        });
    }
    Ok(format!(
        "none of the {} has a unit of {what} (its query selects no row of them)",
        games(n)
    ))
}

/// Frames whose units only some games have, and which (docs/frames.md).
const SCOPES: [(&str, &str); 1] = [(
    "placement_units",
    "§19's units are the hands of hanchan games whose log records the final scores (owari)",
)];

/// Why frame `t` is empty for the context's games, when a reason is known: every game's
/// format records none of its rows, or an older haifu built it (the decisions of logs other
/// than mjlog).
fn why_empty(ctx: &mut SQLContext, dir: &Path, t: &str) -> Result<Option<String>> {
    let df = super::execute(
        ctx,
        "SELECT format, COUNT(*) AS n FROM games GROUP BY format ORDER BY format",
    )?
    .collect()?;
    let formats: Vec<(String, i64)> = df
        .column("format")?
        .str()?
        .iter()
        .zip(df.column("n")?.cast(&DataType::Int64)?.i64()?.iter())
        .filter_map(|(f, n)| Some((f?.to_string(), n?)))
        .collect();
    let never = |f: &str| {
        UNFILLED.iter().any(|(format, frame, column, filled)| {
            format.name() == f && *frame == t && *column == "*" && *filled == Filled::Never
        })
    };
    if !formats.is_empty() && formats.iter().all(|(f, _)| never(f)) {
        let list: Vec<String> = formats
            .iter()
            .map(|(f, n)| format!("{} read from {f}", games(*n)))
            .collect();
        return Ok(Some(format!(
            "{}, which records none (docs/formats.md)",
            list.join(", ")
        )));
    }
    if let Some((_, scope)) = SCOPES.iter().find(|(frame, _)| *frame == t) {
        return Ok(Some((*scope).into()));
    }
    if t == "choices" {
        // Before haifu recorded the `legal` proof, the decisions were built from mjlog only.
        if let Ok(m) = ManifestDocument::read(&dir.join("manifest.json")) {
            if !m.totals.games_by_proof.contains_key("legal") {
                return Ok(Some(format!(
                    "haifu {} wrote these frames, which built the §23 decisions only from mjlog \
                     logs under Tenhou's standard rules; ingest again with --with choices",
                    m.haifu_version
                )));
            }
        }
    }
    Ok(None)
}

/// Why `what` (`haifu agree`, `haifu review`) scored no decision of the frames in `dir`, the
/// games of `table` and `slice` it was given: no game selected, `--limit 0`, `frame` (the
/// decisions it reads, when it reads a frame) empty for them, else none observed.
pub(crate) fn no_decisions(
    dir: &Path,
    table: &super::Table,
    slice: Option<&Slice>,
    limit: Option<u64>,
    frame: Option<&str>,
    what: &str,
) -> Result<String> {
    let mut ctx = super::context_over(dir, None, slice, table)?;
    if let Some(why) = no_games(&mut ctx, slice)? {
        return Ok(why);
    }
    if limit == Some(0) {
        return Ok(format!("--limit 0 leaves {what} no decision to score"));
    }
    let n = count(&mut ctx, "SELECT COUNT(*) AS n FROM games")?;
    if let Some(t) = frame {
        if count(&mut ctx, &format!("SELECT COUNT(*) AS n FROM {t}"))? == 0 {
            let why = why_empty(&mut ctx, dir, t)?;
            return Ok(format!(
                "`{t}` has no row for the {}{}",
                games(n),
                why.map_or(String::new(), |w| format!(": {w}"))
            ));
        }
    }
    Ok(format!(
        "the {} have no decision {what} scores (every one was forced or unobserved)",
        games(n)
    ))
}
