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
/// `dir`; returns the reports' frames by name.
pub fn write_all_reports(
    frames: &Path,
    dir: &Path,
) -> Result<Vec<(&'static str, polars::prelude::DataFrame)>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut ctx = report::context(frames, None)?;
    let mut out = Vec::new();
    for rep in REPORTS {
        let df = report::run(&mut ctx, rep.sql, rep.filter)
            .with_context(|| format!("report {}", rep.name))?;
        crate::frames::write_atomically(
            &dir.join(format!("{}.csv", rep.name)),
            report::to_csv(&df)?.as_bytes(),
        )?;
        crate::frames::write_atomically(
            &dir.join(format!("{}.json", rep.name)),
            (report::to_json(&df) + "\n").as_bytes(),
        )?;
        out.push((rep.name, df));
    }
    Ok(out)
}
