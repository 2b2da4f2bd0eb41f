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
    /// Add the games to the frames already in --out instead of replacing them: new parts per
    /// frame, the manifest extended, a game already there (same log id or same content)
    /// skipped as `duplicate`. The definitions version, --room and --with groups must be the
    /// directory's. Without frames in --out, a plain ingest (docs/scale.md).
    #[arg(long, conflicts_with = "decode_only")]
    append: bool,
    /// Take only shard K of N of the inputs (K = 1..N): an input is its shard's by its log id
    /// (or, without one, by the SHA-512 of its content), the same on every machine, so N jobs
    /// each ingest a share and `haifu merge` joins their directories (docs/scale.md).
    #[arg(long, value_name = "K/N", conflicts_with = "decode_only")]
    shard: Option<ingest::Shard>,
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
    let options = ingest::IngestOptions {
        append: args.append,
        shard: args.shard,
        ..args.input.options(out)
    };
    let summary = ingest::ingest(&options)?;
    eprintln!("{summary}");
    Ok(Done::failed_if(summary.failed()))
}
