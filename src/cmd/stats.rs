//! `haifu stats`: a bundled report over the frames, or (`--list`) every report with its
//! section and the `--with` group that writes its frames.

use std::path::PathBuf;

use anyhow::{bail, Result};
use polars::prelude::{Column, DataFrame};

use super::args::PrintArgs;
use super::{print, Done};
use crate::report::{self, Report, REPORTS};

/// Print a bundled report over ingested frames (`--list`: every report).
#[derive(Debug, clap::Args)]
#[command(after_help = report_help())]
pub(crate) struct Args {
    /// Report name (see below, or --list).
    #[arg(required_unless_present = "list")]
    report: Option<String>,
    /// List every report: its section of docs/definitions.md, the `--with` group that writes
    /// its frames (or every run), and what it shows.
    #[arg(long, conflicts_with = "report")]
    list: bool,
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long, required_unless_present = "list")]
    frames: Option<PathBuf>,
    #[command(flatten)]
    print: PrintArgs,
    /// Report `players` only: the names with at least N games (default 1).
    #[arg(long, value_name = "N")]
    min_games: Option<u64>,
}

fn report_help() -> String {
    format!(
        "Reports (definitions: docs/definitions.md; SQL: queries/; with their --with group: \
         haifu stats --list):\n{}",
        report::catalogue()
    )
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if args.list {
        print(&report::render(&list()?, args.print.format, None)?)?;
        return Ok(Done::Ok);
    }
    let (Some(name), Some(dir)) = (&args.report, &args.frames) else {
        bail!("a report name and --frames DIR are required (or --list)");
    };
    let Some(rep) = report::find(name) else {
        let names: Vec<&str> = REPORTS.iter().map(|r| r.name).collect();
        bail!(
            "unknown report `{name}`; the reports are: {} (haifu stats --list)",
            names.join(", ")
        );
    };
    if args.min_games.is_some() && rep.name != "players" {
        bail!(
            "--min-games applies to report `players` only, not `{}`",
            rep.name
        );
    }
    if let Some(frame) = rep.missing_frame(dir) {
        bail!(
            "report `{}` reads the `{frame}` frame, which {} lacks: ingest with {}",
            rep.name,
            dir.display(),
            crate::frames::flag_of(frame)
        );
    }
    let what = format!("report `{}`", rep.name);
    super::query::print_sql(
        dir,
        &args.print,
        rep.sql,
        rep.filter,
        &what,
        true,
        args.min_games,
    )?;
    Ok(Done::Ok)
}

/// Every bundled report: name, section, the group that writes its frames, what it shows.
fn list() -> Result<DataFrame> {
    let col = |name: &str, f: &dyn Fn(&Report) -> String| {
        let values: Vec<String> = REPORTS.iter().map(f).collect();
        Column::new(name.into(), values)
    };
    Ok(DataFrame::new(
        REPORTS.len(),
        vec![
            col("report", &|r| r.name.to_string()),
            col("section", &|r| r.section().to_string()),
            col("with", &|r| {
                r.group().map_or("every run", |g| g.name()).to_string()
            }),
            col("shows", &|r| r.shows().to_string()),
        ],
    )?)
}
