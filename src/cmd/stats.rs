//! `haifu stats`: a bundled report over the frames.

use anyhow::{bail, Result};

use super::args::ReportArgs;
use super::{print, Done};
use crate::report::{self, REPORTS};

/// Print a bundled report over ingested frames.
#[derive(Debug, clap::Args)]
#[command(after_help = report_help())]
pub(crate) struct Args {
    /// Report name (see below).
    report: String,
    #[command(flatten)]
    over: ReportArgs,
}

fn report_help() -> String {
    format!(
        "Reports (definitions: statistics.md; SQL: queries/):\n{}",
        report::catalogue()
    )
}

pub(crate) fn run(args: &Args) -> Result<Done> {
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
    print(&report::render(&df, args.over.format)?)?;
    Ok(Done::Ok)
}
