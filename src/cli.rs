//! The command line: the commands, dispatch, and the one exit-code policy.
//!
//! Exit status: 0 when a command ran through (every input ok or skipped; also `--help`), 2 when
//! it finished but some inputs failed (or, for `haifu agree`, an external engine broke the
//! protocol), 1 on a usage error (an argument clap or a value parser
//! refuses, before any work starts) or an I/O error, 3 when a report, `haifu agree` or
//! `haifu review` found no unit in the frames it was given (the message says why:
//! [`NothingToReport`]), 130 when interrupted (Ctrl-C). A closed
//! standard output (`haifu stats … | head`) ends the run quietly with 0, as ripgrep does.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::cmd::{self, Done};
use crate::report::empty::NothingToReport;
use crate::report::engine::EngineError;
use crate::runtime::{bound_memory, stop_on_interrupt, Interrupted, InterruptedKept};

/// Tenhou Phoenix-table logs → columnar statistics for riichi-mahjong AI authors.
///
/// Typical use: `haifu run LOGS/ --out out/` ingests every log under LOGS/ into Parquet
/// frames and writes every report to out/reports/.
#[derive(Debug, Parser)]
#[command(name = "haifu", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Run(cmd::run::Args),
    Ingest(cmd::ingest::Args),
    Merge(cmd::merge::Args),
    Stats(cmd::stats::Args),
    Query(cmd::query::Args),
    Params(cmd::params::Args),
    DangerEval(cmd::danger_eval::Args),
    Agree(cmd::agree::Args),
    Compare(cmd::compare::Args),
    HandReading(cmd::hand_reading::Args),
    Review(cmd::review::Args),
    Convert(cmd::convert::Args),
}

/// Parses the command line, runs the command and turns how it ended into the exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with 0; a refused argument to stderr with 1.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // The commands that read a frames directory of any size; an ingest (and `haifu run`,
    // whose peak is its ingest's) keeps glibc's and polars' defaults, which cost it less CPU.
    if matches!(
        cli.command,
        Command::Stats(_)
            | Command::Query(_)
            | Command::Params(_)
            | Command::DangerEval(_)
            | Command::Agree(_)
            | Command::Compare(_)
            | Command::HandReading(_)
    ) {
        bound_memory();
    }
    stop_on_interrupt();
    let result = match &cli.command {
        Command::Run(args) => cmd::run::run(args),
        Command::Ingest(args) => cmd::ingest::run(args),
        Command::Merge(args) => cmd::merge::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Query(args) => cmd::query::run(args),
        Command::Params(args) => cmd::params::run(args),
        Command::DangerEval(args) => cmd::danger_eval::run(args),
        Command::Agree(args) => cmd::agree::run(args),
        Command::Compare(args) => cmd::compare::run(args),
        Command::HandReading(args) => cmd::hand_reading::run(args),
        Command::Review(args) => cmd::review::run(args),
        Command::Convert(args) => cmd::convert::run(args),
    };
    exit_code(result)
}

/// The one exit-code policy (module docs).
fn exit_code(result: anyhow::Result<Done>) -> ExitCode {
    match result {
        Ok(Done::Ok) => ExitCode::SUCCESS,
        Ok(Done::InputsFailed) => ExitCode::from(2),
        Err(e) if e.is::<Interrupted>() || e.is::<InterruptedKept>() => {
            eprintln!("haifu: {e}");
            ExitCode::from(130)
        }
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.is::<NothingToReport>() => {
            eprintln!("haifu: {e}");
            ExitCode::from(3)
        }
        Err(e) if e.is::<EngineError>() => {
            eprintln!("haifu: error: {e:#}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("haifu: error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// True when the error comes from writing to a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
