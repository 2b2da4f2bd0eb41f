//! `run_totals.json`: what a run adds up over its games besides their rows (§2 counts per
//! category, the built-in estimators' §4 totals), per table, so that an append or a merge
//! builds the run-wide frames (`phoenix-table`, `danger_calibration`, `danger_eval_summary`)
//! of all the games without replaying the ones already in the directory.
//!
//! Invariant: the file holds the totals of exactly the games of the directory's frames
//! (written with them, renamed into place before the manifest); `phoenix-table`'s own §4
//! totals are not in it (they depend on the whole run, and are recomputed).

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::merge::TABLES;
use crate::stats::RunTotals;

/// The file's name in a frames directory.
pub(crate) const FILE: &str = "run_totals.json";

const FORMAT: &str = "haifu.run-totals";
const FORMAT_VERSION: u64 = 1;

/// Writes `totals` (one per table of [`TABLES`]).
pub(crate) fn write(w: &mut impl Write, totals: &[RunTotals; 2]) -> std::io::Result<()> {
    let tables: Vec<serde_json::Value> = TABLES
        .iter()
        .zip(totals)
        .map(|(p, t)| {
            let mut v = t.to_json();
            v["players"] = serde_json::json!(p.seats());
            v
        })
        .collect();
    let doc = serde_json::json!({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tables": tables,
    });
    serde_json::to_writer(&mut *w, &doc)?;
    w.write_all(b"\n")
}

/// The totals of the frames directory `dir`.
pub(crate) fn read(dir: &Path) -> Result<[RunTotals; 2]> {
    let path = dir.join(FILE);
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{} has no {FILE} (it was written by a haifu before appends and merges): ingest its \
             logs again with this haifu, then append to or merge that directory",
            dir.display()
        ),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let bad = || format!("{} is not a run-totals file haifu wrote", path.display());
    let doc: serde_json::Value = serde_json::from_slice(&text).with_context(bad)?;
    if doc["format"] != FORMAT || doc["format_version"] != FORMAT_VERSION {
        bail!("{}", bad());
    }
    let mut out: [RunTotals; 2] = Default::default();
    let tables = doc["tables"].as_array().with_context(bad)?;
    if tables.len() != TABLES.len() {
        bail!("{}", bad());
    }
    for ((slot, p), t) in out.iter_mut().zip(TABLES).zip(tables) {
        if t["players"] != p.seats() {
            bail!("{}", bad());
        }
        *slot = RunTotals::from_json(t).with_context(bad)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The totals of a fixture game read back as written; a file of another format or format
    /// version, or a missing one, is refused saying what it is.
    #[test]
    fn totals_read_back_and_others_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read("fixtures/2099010100gm-00a9-0000-0000f001.xml").unwrap();
        let log = crate::mjlog::decode(&text).unwrap();
        let obs = crate::stats::observe_game(&log, &mut Vec::new()).unwrap();
        let mut totals: [RunTotals; 2] = Default::default();
        totals[0] += &obs;
        let mut bytes = Vec::new();
        write(&mut bytes, &totals).unwrap();
        std::fs::write(dir.path().join(FILE), &bytes).unwrap();
        let back = read(dir.path()).unwrap();
        for (a, b) in totals.iter().zip(&back) {
            assert_eq!(a.to_json(), b.to_json());
        }
        assert_eq!(back[0].games, 1);
        let text = String::from_utf8(bytes).unwrap();
        for (from, to) in [
            ("\"haifu.run-totals\"", "\"other\""),
            ("\"format_version\":1", "\"format_version\":2"),
            ("\"players\":4", "\"players\":3"),
        ] {
            assert!(text.contains(from), "{from}");
            std::fs::write(dir.path().join(FILE), text.replace(from, to)).unwrap();
            let e = read(dir.path()).err().expect("refused").to_string();
            assert!(e.contains("is not a run-totals file haifu wrote"), "{e}");
        }
        std::fs::remove_file(dir.path().join(FILE)).unwrap();
        let e = read(dir.path()).err().expect("refused").to_string();
        assert!(e.contains("has no run_totals.json"), "{e}");
    }
}
