//! `haifu hand-reading`: the §16 hand-reading methods scored over ingested frames.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::args::SliceArgs;
use super::{print, Done};
use crate::report::{self, Format};

/// Score the built-in hand-reading methods over ingested frames (statistics.md §16)
///
/// At every draw and call of every seat, how well each method's density over the 34 kinds
/// matches the tiles the other three seats hold; per seat (and pooled) and turn, the lowest
/// RMSE and cross-entropy of each turn starred. Needs frames ingested with --hand-reading.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Directory written by `haifu ingest --hand-reading` or `haifu run --hand-reading`.
    #[arg(long)]
    frames: PathBuf,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    #[command(flatten)]
    slice: SliceArgs,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let frame = "hand_reading";
    if !args.frames.join(format!("{frame}.parquet")).exists() {
        bail!(
            "{} has no {frame} frame: ingest with --hand-reading",
            args.frames.display()
        );
    }
    let rep = report::find("hand-reading").expect("a bundled report");
    let slice = args.slice.select(&args.frames)?;
    let mut ctx = report::context_over(&args.frames, None, slice.as_ref())?;
    let df = report::run(&mut ctx, rep.sql, None)?;
    let text = match args.format {
        Format::Table => {
            let table = report::starred_table(
                &df,
                &["seat", "turn", "method", "moments"],
                &["rmse", "cross_entropy"],
            )?;
            match &slice {
                Some(s) => format!("{}\n{table}", s.header()),
                None => table,
            }
        }
        other => {
            if let (Format::Csv, Some(s)) = (other, &slice) {
                eprintln!("{}", s.header());
            }
            report::render(&df, other, slice.as_ref())?
        }
    };
    print(&text)?;
    Ok(Done::Ok)
}
