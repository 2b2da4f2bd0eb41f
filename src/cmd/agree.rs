//! `haifu agree`: discard engines scored against the Phoenix players' choices (§7).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};

use super::args::{parse_engine_cmd, SliceArgs};
use super::{print, Done};
use crate::agree::Builtin;
use crate::report::agree::{self, EngineSpec, Options};
use crate::report::engine::EngineCommand;
use crate::report::{self, Format};
use crate::runtime::rate_timing;

/// Score discard engines against the players' decisions (docs/definitions.md §7).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Built-in engines: player (the player's own choice: agreement 1, a check), \
tsumogiri (the drawn kind; after a call the lowest legal kind), min-shanten (the legal kinds whose \
discard gives the lowest shanten), max-ukeire (among those, the most ukeire). Without any engine \
option the four built-ins are scored.

External engines (--engine-cmd): the command is started once with `sh -c`; haifu writes one JSON \
object per unforced decision to its standard input, one per line, and reads one answer line per \
decision from its standard output, in any order: {\"id\": N, \"discard\": \"5p\"} or {\"id\": N, \
\"discard\": [\"5p\", \"6p\"]} (a set of equally good kinds; agreement is 1/size when the player's \
kind is in it). The objects' fields are in docs/decisions.md. haifu sends the next batch of decisions \
(8,192 rows) before it waits for the answers to the one before and closes the engine's input \
after the last, so an engine may hold answers back (to batch them, or one late) as long as it \
holds fewer than 8,192; --engine-timeout applies while an answer is owed. A command that exits \
early, writes a line that is not an answer, answers an id twice or not at all ends the run with \
exit 2 and no report. See examples/max_ukeire_engine.rs.

Answer files (--answers): CSV with the header game_id,hand,seat,turn,discard (several kinds \
separated by |).

The frames must come from `haifu ingest --with decisions` (or `haifu run --with decisions`)."
)]
pub(crate) struct Args {
    /// Directory written by `haifu ingest --with decisions --out` or `haifu run --with decisions --out`.
    #[arg(long)]
    frames: PathBuf,
    /// A built-in engine (player, tsumogiri, min-shanten, max-ukeire); repeat for several.
    #[arg(long = "engine", value_name = "NAME", value_parser = parse_builtin)]
    engines: Vec<Builtin>,
    /// An external engine command speaking the JSON-lines protocol, `NAME=CMD` to name it in
    /// the report (else it is `cmd:CMD`); repeat for several.
    #[arg(long = "engine-cmd", value_name = "[NAME=]CMD", value_parser = parse_engine_cmd)]
    commands: Vec<EngineCommand>,
    /// A CSV file of answers standing in for an engine; repeat for several.
    #[arg(long = "answers", value_name = "FILE")]
    answers: Vec<PathBuf>,
    /// Seconds an external engine may take for an answer (after its previous one).
    #[arg(long = "engine-timeout", value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// Score only the first N unforced decisions (those sent to the engines) in frame order
    /// (after --where), e.g. for a slow engine; the forced ones among them are counted too.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    #[command(flatten)]
    slice: SliceArgs,
}

fn parse_builtin(s: &str) -> Result<Builtin, String> {
    Builtin::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
        format!(
            "unknown engine `{s}`; the built-in engines are: {}",
            names.join(", ")
        )
    })
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--engine-timeout must be a positive number of seconds");
    }
    let mut engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|&b| EngineSpec::Builtin(b))
        .collect();
    engines.extend(args.commands.iter().map(|c| EngineSpec::Command(c.clone())));
    engines.extend(args.answers.iter().map(|p| EngineSpec::Answers(p.clone())));
    if engines.is_empty() {
        engines = Builtin::ALL
            .iter()
            .map(|&b| EngineSpec::Builtin(b))
            .collect();
    }
    let slice = args.slice.select(&args.frames)?;
    let t0 = std::time::Instant::now();
    let outcome = agree::run(&Options {
        frames: args.frames.clone(),
        engines,
        timeout: Duration::from_secs_f64(args.timeout),
        limit: args.limit,
        slice,
    })?;
    let decisions = outcome.totals.decisions;
    rate_timing("agree", decisions, "decisions", t0);
    let text = match args.format {
        Format::Table => agree::render_table(&outcome),
        other => report::render(&agree::report_frame(&outcome)?, other, None)?,
    };
    print(&text)?;
    Ok(Done::Ok)
}
