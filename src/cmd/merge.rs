//! `haifu merge`: join frames directories (the shards of one ingest, or any directories of
//! distinct games) into one.

use std::path::PathBuf;

use anyhow::Result;

use super::Done;
use crate::ingest;

/// Join frames directories (e.g. the `--shard K/N` ingests of N machines) into one that every
/// command reads. Directories that share a game, or differ in definitions version, --room or
/// --with groups, are refused. The inputs are left as they are (their files are linked, or
/// copied across file systems); the `phoenix-table` rows, `danger_calibration` and
/// `danger_eval_summary` are built again over all the games (docs/scale.md).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The frames directories to join, in order.
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// The joined directory (created; when it already holds frames, the inputs are added
    /// after its games).
    #[arg(long, short)]
    out: PathBuf,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let games = ingest::merge_dirs(&args.out, &args.dirs)?;
    eprintln!(
        "merged {} directories into {} ({games} games)",
        args.dirs.len(),
        args.out.display()
    );
    Ok(Done::Ok)
}
