//! `haifu query`: a user's SQL over the frames.

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::args::ReportArgs;
use super::{print, Done};
use crate::danger::EstimatorName;
use crate::frames::{FRAMES, ON_REQUEST_FRAMES};
use crate::report;

/// Run your own SQL (polars dialect) over the frames.
#[derive(Debug, clap::Args)]
#[command(after_help = tables_help())]
pub(crate) struct Args {
    /// A SQL file (polars SQL dialect).
    sql: PathBuf,
    #[command(flatten)]
    over: ReportArgs,
}

fn tables_help() -> String {
    format!(
        "Tables: {}, {} (ingest --decisions, --walls, --peer), and params (one row: hands, seats). \
         Columns: README.md, \"What a run writes\".",
        FRAMES.join(", "),
        ON_REQUEST_FRAMES.join(", ")
    )
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let sql = std::fs::read_to_string(&args.sql)
        .with_context(|| format!("cannot read {}", args.sql.display()))?;
    let dir = &args.over.frames;
    let mut slice = args.over.slice.select(dir)?;
    if let Some(s) = &mut slice {
        report::refuse_pooled(&sql, &format!("{}", args.sql.display()))?;
        if report::reads_danger(&sql) {
            s.score_danger(dir, &EstimatorName::DEFAULT, None)?;
        }
    }
    let mut ctx = report::context_over(dir, args.over.seat, slice.as_ref())?;
    let df = report::run(&mut ctx, &sql, None)?;
    if let (report::Format::Csv, Some(s)) = (args.over.format, &slice) {
        eprintln!("{}", s.header());
    }
    print(&report::render(&df, args.over.format, slice.as_ref())?)?;
    Ok(Done::Ok)
}
