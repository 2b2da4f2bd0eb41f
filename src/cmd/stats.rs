//! `haifu stats` and `haifu query`: a bundled report or a user's SQL over the frames.

use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::cli::{Format, QueryArgs, StatsArgs};
use crate::report::{self, REPORTS};

pub fn run_stats(args: &StatsArgs) -> Result<u8> {
    let Some(rep) = report::find(&args.report) else {
        let names: Vec<&str> = REPORTS.iter().map(|r| r.name).collect();
        bail!(
            "unknown report `{}`; the reports are: {}",
            args.report,
            names.join(", ")
        );
    };
    let mut ctx = report::context(&args.over.frames, args.over.seat)?;
    let df = report::run(&mut ctx, rep.sql, rep.filter)?;
    print!("{}", render(&df, args.over.format)?);
    Ok(0)
}

pub fn run_query(args: &QueryArgs) -> Result<u8> {
    let sql = std::fs::read_to_string(&args.sql)
        .with_context(|| format!("cannot read {}", args.sql.display()))?;
    let mut ctx = report::context(&args.over.frames, args.over.seat)?;
    let df = report::run(&mut ctx, &sql, None)?;
    print!("{}", render(&df, args.over.format)?);
    Ok(0)
}

/// The frame in the requested format.
pub fn render(df: &polars::prelude::DataFrame, format: Format) -> Result<String> {
    Ok(match format {
        Format::Table => report::to_table(df),
        Format::Csv => report::to_csv(df)?,
        Format::Json => report::to_json(df) + "\n",
    })
}

/// Runs every bundled report over `frames` and writes `<name>.csv` and `<name>.json` into
/// `dir`; returns the reports' frames by name, in [`REPORTS`] order.
///
/// Reports that share a query (the §1 splits) run it once; distinct queries run in parallel.
pub fn write_all_reports(
    frames: &Path,
    dir: &Path,
) -> Result<Vec<(&'static str, polars::prelude::DataFrame)>> {
    use polars::prelude::*;
    use rayon::prelude::*;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let ctx = report::context(frames, None)?;
    let mut queries: Vec<&'static str> = Vec::new();
    for rep in REPORTS {
        if !queries.contains(&rep.sql) {
            queries.push(rep.sql);
        }
    }
    let results: Vec<Result<DataFrame>> = queries
        .par_iter()
        .map(|sql| {
            let t0 = std::time::Instant::now();
            let df = report::run(&mut ctx.clone(), sql, None);
            let first = REPORTS.iter().find(|r| r.sql == *sql).expect("listed");
            crate::ingest::timing(&format!("  report {}", first.name), t0.elapsed());
            df.with_context(|| format!("report {}", first.name))
        })
        .collect();
    let results: Vec<DataFrame> = results.into_iter().collect::<Result<_>>()?;
    REPORTS
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
            crate::frames::write_atomically(
                &dir.join(format!("{}.csv", rep.name)),
                report::to_csv(&df)?.as_bytes(),
            )?;
            crate::frames::write_atomically(
                &dir.join(format!("{}.json", rep.name)),
                (report::to_json(&df) + "\n").as_bytes(),
            )?;
            Ok((rep.name, df))
        })
        .collect()
}
