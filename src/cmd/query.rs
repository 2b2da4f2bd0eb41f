//! `haifu query`: a user's SQL over the frames.

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::args::ReportArgs;
use super::{print, Done};
use crate::frames::FRAMES;
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
        "Tables: {}, and params (one row: hands, seats). Columns: README.md, \"What a run writes\".",
        FRAMES.join(", ")
    )
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let sql = std::fs::read_to_string(&args.sql)
        .with_context(|| format!("cannot read {}", args.sql.display()))?;
    let mut ctx = report::context(&args.over.frames, args.over.seat)?;
    let df = report::run(&mut ctx, &sql, None)?;
    print(&report::render(&df, args.over.format)?)?;
    Ok(Done::Ok)
}
