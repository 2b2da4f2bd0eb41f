//! `haifu params tsumo-rate`: the §3 parameter file an engine loads.

use std::path::PathBuf;

use anyhow::Result;

use super::Done;
use crate::params;

/// Write a parameter file for an engine.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Which parameter file: only `tsumo-rate` (draw rate by held and visible copies, §3).
    #[arg(value_parser = ["tsumo-rate"])]
    kind: String,
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long)]
    frames: PathBuf,
    /// Output JSON path; the same numbers go to the same path with extension .csv.
    #[arg(long)]
    out: PathBuf,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let (value, csv) = params::tsumo_rate(&args.frames)?;
    let csv_path = params::write(&args.out, &value, &csv)?;
    eprintln!("wrote {} and {}", args.out.display(), csv_path.display());
    Ok(Done::Ok)
}
