//! `haifu convert`: games written in another log format, each proved by the replay first.

use std::path::PathBuf;

use anyhow::Result;

use super::args::parse_date;
use super::Done;
use crate::ingest::{self, ConvertTo, DateRange, IngestOptions, RoomFilter};

/// Write logs in another format (mjai, tenhou.net/6), every game proved by the replay first
///
/// Each input game that decodes and replays (the replay proves it against the log's own
/// records, as ingest does) is written as OUT/<log id>.json.gz (mjai) or OUT/<log id>.json
/// (tenhou.net/6); the others are listed in OUT/manifest.json with their reason, as by `haifu
/// ingest`, and never written.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "mjai: Mortal's dialect, one event per line, gzip'd as Mortal reads it: \
start_game, start_kyoku (with kyotaku), tsumo, dahai (tsumogiri), chi/pon/daiminkan/kakan/ankan, \
dora, reach, reach_accepted (with deltas and scores), hora (with each winner's own ura_markers), \
ryukyoku, end_kyoku, end_game.

tenhou6: the JSON of Tenhou's own viewer and export (mjlog2json), equal to Tenhou's export byte for \
byte on the games tested (docs/formats.md)."
)]
pub(crate) struct Args {
    /// Log files, directories (walked recursively) or log databases, as for `haifu ingest`.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The format to write.
    #[arg(long, value_enum)]
    to: Format,
    /// Output directory: one file per game and manifest.json.
    #[arg(long, short)]
    out: PathBuf,
    /// Keep only games of this room (default: every room).
    #[arg(long, value_enum, default_value = "any")]
    room: RoomFilter,
    /// Keep only games dated on or after DATE (YYYY-MM-DD, from the log id).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    since: Option<String>,
    /// Keep only games dated on or before DATE (YYYY-MM-DD, from the log id).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    until: Option<String>,
    /// Exit 2 and write nothing if any file fails.
    #[arg(long)]
    strict: bool,
    /// Never show a progress bar.
    #[arg(long)]
    quiet: bool,
}

/// A format `haifu convert` writes.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Format {
    /// mjai JSON lines (Mortal's dialect), gzip'd.
    Mjai,
    /// tenhou.net/6 JSON, as Tenhou exports it.
    Tenhou6,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let summary = ingest::ingest(&IngestOptions {
        inputs: args.inputs.clone(),
        out: args.out.clone(),
        room: args.room,
        dates: DateRange {
            since: args.since.clone(),
            until: args.until.clone(),
        },
        strict: args.strict,
        progress: !args.quiet,
        observe: Default::default(),
        tsumo_validation: false,
        convert: Some(match args.to {
            Format::Mjai => ConvertTo::Mjai,
            Format::Tenhou6 => ConvertTo::Tenhou6,
        }),
        append: false,
        shard: None,
    })?;
    eprintln!("{summary}");
    Ok(Done::failed_if(summary.failed()))
}
