//! `haifu ingest`: decode and replay logs into Parquet frames and a manifest.

use std::path::PathBuf;

use anyhow::{bail, Result};

use super::args::InputArgs;
use super::{print, Done};
use crate::ingest;

/// Decode and replay logs into Parquet frames and a manifest.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Output directory for the frames and manifest.json.
    #[arg(long, short, required_unless_present = "decode_only")]
    out: Option<PathBuf>,
    /// Only read, decompress and decode (the speed floor); writes nothing.
    #[arg(long)]
    decode_only: bool,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if args.decode_only {
        let d = ingest::decode_only(&args.input.inputs);
        print(&format!("{d}\n"))?;
        return Ok(Done::failed_if(d.failed > 0));
    }
    let Some(out) = &args.out else {
        bail!("--out DIR is required (unless --decode-only)");
    };
    let summary = ingest::ingest(&args.input.options(out))?;
    eprintln!("{summary}");
    Ok(Done::failed_if(summary.failed()))
}
