//! Every bundled report of a run, written as CSV and JSON into one directory.

use std::path::Path;

use anyhow::{Context, Result};
use polars::prelude::*;
use polars::sql::SQLContext;
use rayon::prelude::*;

use super::{run, sliced_json, tables_over, to_csv, to_json, Slice, Table, REPORTS};
use crate::frames::write_atomically;
use crate::runtime::timing;

/// Runs every bundled report over `frames` (restricted to `slice`, when given) and writes
/// `<name>.csv` and `<name>.json` into `dir`; returns the reports' frames by name, in
/// [`REPORTS`] order.
///
/// Reports that share a query (the §1 splits) run it once; distinct queries run in parallel.
/// Under a slice, the reports of the pooled `draw_rate` frame are not written, nor the reports
/// of a frame an ingest writes on request (`--with decisions`, `--with development`) that is not there (earlier
/// copies of them in `dir` are removed, so that no file there is out of step with the rest);
/// under a slice each JSON file holds `{"slice", "rows"}`.
pub fn write_all(
    frames: &Path,
    dir: &Path,
    slice: Option<&Slice>,
    table: &Table,
) -> Result<Vec<(&'static str, DataFrame)>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tables = tables_over(frames, None, slice, table)?;
    let reports: Vec<_> = REPORTS
        .iter()
        .filter(|r| slice.is_none() || super::refuse_pooled(r.sql, r.name).is_ok())
        .filter(|r| r.has_frames(frames))
        .collect();
    // A report not written this time leaves no earlier copy behind, out of step with the rest.
    for r in REPORTS
        .iter()
        .filter(|r| !reports.iter().any(|k| k.name == r.name))
    {
        for ext in ["csv", "json"] {
            let _ = std::fs::remove_file(dir.join(format!("{}.{ext}", r.name)));
        }
    }
    let mut queries: Vec<&'static str> = Vec::new();
    for rep in &reports {
        if !queries.contains(&rep.sql) {
            queries.push(rep.sql);
        }
    }
    let results: Vec<Result<DataFrame>> = queries
        .par_iter()
        .map(|sql| {
            let t0 = std::time::Instant::now();
            let df = run(
                &mut SQLContext::new_from_table_map(tables.clone()),
                sql,
                None,
            );
            let first = REPORTS.iter().find(|r| r.sql == *sql).expect("listed");
            timing(&format!("  report {}", first.name), t0.elapsed());
            df.with_context(|| format!("report {}", first.name))
        })
        .collect();
    let results: Vec<DataFrame> = results.into_iter().collect::<Result<_>>()?;
    reports
        .par_iter()
        .map(|rep| {
            let i = queries.iter().position(|q| *q == rep.sql).expect("listed");
            let df = match rep.filter {
                Some((column, value)) => results[i]
                    .clone()
                    .lazy()
                    .filter(col(column).eq(lit(value)))
                    .collect()?,
                None => results[i].clone(),
            };
            write_atomically(
                &dir.join(format!("{}.csv", rep.name)),
                to_csv(&df)?.as_bytes(),
            )?;
            let json = match slice {
                Some(s) => sliced_json(&df, s),
                None => to_json(&df),
            };
            write_atomically(
                &dir.join(format!("{}.json", rep.name)),
                (json + "\n").as_bytes(),
            )?;
            Ok((rep.name, df))
        })
        .collect()
}
