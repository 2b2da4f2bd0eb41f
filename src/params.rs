//! The §3 draw-rate parameter file an engine loads (schema documented in README.md).
//!
//! Invariant: the file carries raw counts (`units`, `hits`, `naive_hits`) next to every rate,
//! so an engine can pool or smooth; summed over the `all` class of `by_held_visible`, `hits`
//! equals the number of draw records replayed and `units` 37 (34 without red fives) times that.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use polars::prelude::DataFrame;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::frames::write_atomically;
use crate::manifest::{Corpus, Totals, DEFINITIONS_VERSION};
use crate::report::{self, rows_json, to_csv};

/// Format name and version of the parameter file.
pub const FORMAT: &str = "haifu.tsumo-rate";
pub const FORMAT_VERSION: u32 = 1;

/// The tsumo-rate parameter file (JSON value) and the same numbers as CSV.
pub fn tsumo_rate(frames: &Path) -> Result<(Value, String)> {
    let manifest_path = frames.join("manifest.json");
    let head: ManifestHead = serde_json::from_str(
        &std::fs::read_to_string(&manifest_path)
            .with_context(|| format!("cannot read {}", manifest_path.display()))?,
    )
    .with_context(|| format!("{} is not a haifu manifest", manifest_path.display()))?;
    let mut ctx = report::context(frames, None)?;
    let by_hv = report::run_bundled(&mut ctx, "draw-rate")?;
    let by_thv = report::run_bundled(&mut ctx, "draw-rate-by-turn")?;
    tsumo_rate_from(&head.totals, &head.corpus, &by_hv, &by_thv)
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
    by_hv: &DataFrame,
    by_thv: &DataFrame,
) -> Result<(Value, String)> {
    let value = json!({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "definitions_version": DEFINITIONS_VERSION,
        "haifu_version": env!("CARGO_PKG_VERSION"),
        "definition": "statistics.md §3: per draw record and tile type (37 with red fives apart), \
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
    let mut csv = String::new();
    csv.push_str("# by_held_visible\n");
    csv.push_str(&to_csv(by_hv)?);
    csv.push_str("# by_turn_held_visible\n");
    csv.push_str(&to_csv(by_thv)?);
    Ok((value, csv))
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
