//! `haifu stats`: a bundled report over the frames.

use anyhow::{bail, Result};

use super::args::ReportArgs;
use super::{print, Done};
use crate::danger::EstimatorName;
use crate::report::{self, REPORTS};

/// Print a bundled report over ingested frames.
#[derive(Debug, clap::Args)]
#[command(after_help = report_help())]
pub(crate) struct Args {
    /// Report name (see below).
    report: String,
    #[command(flatten)]
    over: ReportArgs,
    /// Report `players` only: the names with at least N games (default 1).
    #[arg(long, value_name = "N")]
    min_games: Option<u64>,
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
    if args.min_games.is_some() && rep.name != "players" {
        bail!(
            "--min-games applies to report `players` only, not `{}`",
            rep.name
        );
    }
    let dir = &args.over.frames;
    for &frame in &crate::frames::ON_REQUEST_FRAMES {
        if report::reads_table(rep.sql, frame) && !dir.join(format!("{frame}.parquet")).exists() {
            let flag = crate::frames::flag_of(frame);
            bail!(
                "report `{}` reads the `{frame}` frame, which {} lacks: ingest with {flag}",
                rep.name,
                dir.display()
            );
        }
    }
    let mut slice = args.over.slice.select(dir)?;
    if let Some(s) = &mut slice {
        report::refuse_pooled(rep.sql, &format!("report `{}`", rep.name))?;
        if report::reads_danger(rep.sql) {
            s.score_danger(dir, &EstimatorName::DEFAULT, None)?;
        }
    }
    let mut ctx = report::context_over(dir, args.over.seat, slice.as_ref())?;
    let mut df = report::run(&mut ctx, rep.sql, rep.filter)?;
    if let Some(n) = args.min_games {
        df = report::min_games(df, n)?;
    }
    // Games whose format does not record what the report reads (on standard error, so that
    // CSV and JSON stay clean).
    if let Some(note) = report::lacking_note(&mut ctx, rep.sql)? {
        eprintln!("{note}");
    }
    if let (report::Format::Csv, Some(s)) = (args.over.format, &slice) {
        eprintln!("{}", s.header());
    }
    print(&report::render(&df, args.over.format, slice.as_ref())?)?;
    Ok(Done::Ok)
}
