//! `haifu agree`: engines scored against the Phoenix players' choices: discards (§7), or every
//! decision (§23, `--every-decision`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};

use super::args::{parse_engine_cmd, SliceArgs};
use super::{print, Done};
use crate::agree::every::EveryBuiltin;
use crate::agree::Builtin;
use crate::report::agree::{self, EngineSpec, Options};
use crate::report::agree_every::{self, EverySpec};
use crate::report::engine::EngineCommand;
use crate::report::{self, Format};
use crate::runtime::rate_timing;

/// Score engines against the players' decisions: discards (docs/definitions.md §7), or every
/// decision with --every-decision (§23: win, riichi, call, kan, kyuushu and discard).
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

The frames must come from `haifu ingest --with decisions` (or `haifu run --with decisions`).

Three-player games (--players 3, §24): the built-ins use the three-player shanten and count the \
kita Norths as visible; a request adds \"players\": 3, every seat's \"kitas\" and the \
three-player rules.

Every decision (--every-decision, §23): the games of the frames directory are read again from the \
logs its manifest.json names (run from the directory the ingest ran in) and replayed; any frames \
directory will do. Built-in engines: player, always (take the win, declare riichi or kyuushu, call, \
kan and kita whenever legal), never (pass, stay dama, never kan or kita), min-shanten (win; riichi \
when legal; a call or kan only when it lowers the shanten; a kita when losing the North costs no \
shanten); a decision none of their rules settles (a discard) they answer with the lowest-shanten \
discards. Without any engine option the four are scored. An external engine gets one object per \
observed decision with `kind`, `legal` (the actions as text: tsumo, riichi, ankan:<kind>, \
kakan:<kind>, kita, kyuushu, ron, pon, daiminkan, chi:<tile><tile>, pass, discard:<kind>) and the \
whole table (docs/decisions.md), and answers {\"id\": N, \"action\": \"pon\"} \
or {\"id\": N, \"action\": [\"discard:5p\", \"discard:6p\"]}. Answer files: CSV \
game_id,hand,seat,seq,kind,action (several actions separated by |). See \
examples/every_decision_engine.rs."
)]
pub(crate) struct Args {
    /// Directory written by `haifu ingest --with decisions --out` or `haifu run --with decisions --out`.
    #[arg(long)]
    frames: PathBuf,
    /// A built-in engine (player, tsumogiri, min-shanten, max-ukeire; with --every-decision
    /// player, always, never, min-shanten); repeat for several.
    #[arg(long = "engine", value_name = "NAME")]
    engines: Vec<String>,
    /// Score every decision (§23: win, riichi, call, kan, kyuushu, discard), replaying the
    /// games again from the logs the frames' manifest names, instead of §7's discards.
    #[arg(long)]
    every_decision: bool,
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
    /// With --every-decision: the first N observed decisions, in the manifest's game order.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    #[command(flatten)]
    slice: SliceArgs,
}

fn parse_builtin(s: &str) -> Result<Builtin> {
    Builtin::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
        anyhow::anyhow!(
            "unknown engine `{s}`; the built-in engines are: {} (with --every-decision: {})",
            names.join(", "),
            every_names().join(", ")
        )
    })
}

fn every_names() -> Vec<&'static str> {
    EveryBuiltin::ALL.iter().map(|b| b.name()).collect()
}

fn parse_every_builtin(s: &str) -> Result<EveryBuiltin> {
    EveryBuiltin::from_name(s).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown engine `{s}` for --every-decision; its built-in engines are: {}",
            every_names().join(", ")
        )
    })
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--engine-timeout must be a positive number of seconds");
    }
    if args.every_decision {
        return run_every(args);
    }
    let mut engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|b| parse_builtin(b).map(EngineSpec::Builtin))
        .collect::<Result<_>>()?;
    engines.extend(args.commands.iter().map(|c| EngineSpec::Command(c.clone())));
    engines.extend(args.answers.iter().map(|p| EngineSpec::Answers(p.clone())));
    if engines.is_empty() {
        engines = Builtin::ALL
            .iter()
            .map(|&b| EngineSpec::Builtin(b))
            .collect();
    }
    let slice = args.slice.games(&args.frames)?;
    let players = args.slice.table(&args.frames)?.players;
    let t0 = std::time::Instant::now();
    let outcome = agree::run(&Options {
        frames: args.frames.clone(),
        engines,
        timeout: Duration::from_secs_f64(args.timeout),
        limit: args.limit,
        slice,
        players,
    })?;
    let decisions = outcome.totals.decisions;
    rate_timing("agree", decisions, "decisions", t0);
    let text = match args.format {
        Format::Table => agree::render_table(&outcome),
        other => report::render(&agree::report_frame(&outcome)?, other, None)?,
    };
    print(&text)?;
    if decisions == 0 {
        nothing(args, Some(crate::frames::DECISIONS), "agree")?;
    }
    Ok(Done::Ok)
}

/// Fails with why no decision was scored (exit 3).
fn nothing(args: &Args, frame: Option<&str>, what: &str) -> Result<()> {
    let (table, slice) = args.slice.select(&args.frames)?;
    let why = report::empty::no_decisions(
        &args.frames,
        &table,
        slice.as_ref(),
        args.limit,
        frame,
        what,
    )?;
    Err(report::empty::NothingToReport(why).into())
}

/// `--every-decision`: §23's agreement over every kind of decision.
fn run_every(args: &Args) -> Result<Done> {
    let mut engines: Vec<EverySpec> = args
        .engines
        .iter()
        .map(|b| parse_every_builtin(b).map(EverySpec::Builtin))
        .collect::<Result<_>>()?;
    engines.extend(args.commands.iter().map(|c| EverySpec::Command(c.clone())));
    engines.extend(args.answers.iter().map(|p| EverySpec::Answers(p.clone())));
    if engines.is_empty() {
        engines = EveryBuiltin::ALL
            .iter()
            .map(|&b| EverySpec::Builtin(b))
            .collect();
    }
    let slice = args.slice.games(&args.frames)?;
    let t0 = std::time::Instant::now();
    let outcome = agree_every::run(&agree_every::Options {
        frames: args.frames.clone(),
        engines,
        timeout: Duration::from_secs_f64(args.timeout),
        limit: args.limit,
        slice,
    })?;
    rate_timing(
        "agree --every-decision",
        outcome.totals.decisions(),
        "decisions",
        t0,
    );
    let text = match args.format {
        Format::Table => agree_every::render_table(&outcome),
        other => report::render(&agree_every::report_frame(&outcome)?, other, None)?,
    };
    print(&text)?;
    if outcome.totals.decisions() == 0 {
        nothing(args, None, "agree --every-decision")?;
    }
    Ok(Done::Ok)
}
