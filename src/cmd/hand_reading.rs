//! `haifu hand-reading`: the §16 hand-reading methods scored over ingested frames.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use polars::prelude::IntoLazy;
use polars::sql::SQLContext;

use super::args::{parse_engine_cmd, SliceArgs};
use super::{print, Done};
use crate::report::engine::EngineCommand;
use crate::report::hand_reading::{self as scoring, Options};
use crate::report::{self, Format};
use crate::runtime::rate_timing;

/// Score hand-reading methods over ingested frames (docs/definitions.md §16)
///
/// At every draw and call of every seat, how well each method's density over the 34 kinds
/// matches the tiles the other three seats hold; per seat (and pooled) and turn, the lowest
/// RMSE and cross-entropy of each turn starred. Needs frames ingested with --with hand-reading
/// (--with hand-reading-moments for --engine-cmd and --limit).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Built-in methods: uniform (推定なし: the unseen copies), combo (コンボ理論), statistical (統計的推定), statistical-combo (統計コンボ); docs/definitions.md §16 defines each.

A user's method (--engine-cmd CMD, repeatable) is a command started once with `sh -c`: haifu writes one JSON object per moment to its standard input, one per line, with what seat V sees (id, game_id, hand, seat, round, honba, kyotaku, dealer, scores, dora_indicators, turn, after, tiles: V's concealed tiles, melds and rivers: every seat's, as in `haifu agree`; a three-player game's also \"players\": 3 and every seat's \"kitas\", its kita Norths), and reads one answer line per moment from its standard output, in any order: {\"id\": N, \"weights\": [w_1m, …, w_7z]}, 34 finite numbers ≥ 0, not all 0 (haifu normalises them). Batching engines are served as in `haifu agree` (the next 8,192 moments are sent before haifu waits for the answers before them, and the input is closed after the last). A command that exits early, writes a line that is not an answer, answers an id twice or not at all ends the run with exit 2 and no report. With --engine-cmd or --limit, every method is scored over the same moments, from frame hand_reading_moments; without, the built-ins' sums are read from frame hand_reading (equal on the same moments). See examples/hand_reading_engine.rs."
)]
pub(crate) struct Args {
    /// Directory written by `haifu ingest --with hand-reading` or `haifu run --with hand-reading`.
    #[arg(long)]
    frames: PathBuf,
    /// A user's method: a command speaking the JSON-lines protocol, `NAME=CMD` to name it in
    /// the report (else it is `cmd:CMD`); repeat for several.
    #[arg(long = "engine-cmd", value_name = "[NAME=]CMD", value_parser = parse_engine_cmd)]
    commands: Vec<EngineCommand>,
    /// Seconds a command may take for an answer (after its previous one).
    #[arg(long = "engine-timeout", value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// Score only the first N moments in frame order (after --where), e.g. for a slow engine.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    #[command(flatten)]
    slice: SliceArgs,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--engine-timeout must be a positive number of seconds");
    }
    let per_moment = !args.commands.is_empty() || args.limit.is_some();
    let frame = if per_moment {
        "hand_reading_moments"
    } else {
        "hand_reading"
    };
    crate::frames::dataset::require(&args.frames, frame)?;
    let rep = report::find("hand-reading").expect("a bundled report");
    let table = args.slice.table(&args.frames)?;
    let slice = args.slice.games(&args.frames)?;
    let df = if per_moment {
        let t0 = std::time::Instant::now();
        let (sums, moments) = scoring::run(&Options {
            frames: args.frames.clone(),
            commands: args.commands.clone(),
            timeout: Duration::from_secs_f64(args.timeout),
            limit: args.limit,
            slice: slice.as_ref(),
            players: table.players,
        })?;
        rate_timing("hand-reading", moments, "moments", t0);
        let mut ctx = SQLContext::new();
        ctx.register("hand_reading", sums.lazy());
        report::run(&mut ctx, rep.sql, None)?
    } else {
        let mut ctx = report::context_over(&args.frames, None, slice.as_ref(), &table)?;
        report::run(&mut ctx, rep.sql, None)?
    };
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
