//! Command-line interface: argument definitions and dispatch to [`crate::cmd`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::ingest::RoomFilter;

/// Tenhou Phoenix-table logs → columnar statistics for riichi-mahjong AI authors.
///
/// Typical use: `haifu run LOGS/ --out out/` ingests every log under LOGS/ into Parquet
/// frames and writes every report to out/reports/.
#[derive(Debug, Parser)]
#[command(name = "haifu", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Ingest logs, then write every report and the parameter file (the main job).
    Run(RunArgs),
    /// Decode and replay logs into Parquet frames and a manifest.
    Ingest(IngestArgs),
    /// Print a bundled report over ingested frames.
    #[command(after_help = REPORT_HELP)]
    Stats(StatsArgs),
    /// Run your own SQL over the frames (tables: games, hands, riichi_response,
    /// wait_danger, draw_rate, params).
    Query(QueryArgs),
    /// Write a parameter file for an engine.
    Params(ParamsArgs),
    /// Score danger estimators against the riichi hands' real waits (§4).
    DangerEval(DangerEvalArgs),
}

const REPORT_HELP: &str = "Reports: summary, placement, players, riichi-response, \
riichi-response-by-shanten, riichi-response-by-seat-dealer, riichi-response-by-riichi-dealer, \
riichi-response-by-riichi-turn, wait-danger, draw-rate, draw-rate-by-turn, danger-eval, \
danger-eval-by-situation, danger-calibration (the last three after `haifu danger-eval`). Definitions: \
statistics.md; SQL: queries/.";

/// Output format of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns with 95% intervals, for a person.
    Table,
    Csv,
    /// An array of row objects.
    Json,
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output directory: frames, manifest.json and reports/.
    #[arg(long, short)]
    pub out: PathBuf,
}

/// What to read and how, shared by `run` and `ingest`.
#[derive(Debug, clap::Args)]
pub struct InputArgs {
    /// Log files, directories (walked recursively) or log databases (houou-logs,
    /// phoenix-logs). gzip, bzip2 or plain mjlog XML, recognised by content.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Keep only games of this room.
    #[arg(long, value_enum, default_value = "phoenix")]
    pub room: RoomFilter,
    /// Exit 2 and write nothing if any file fails.
    #[arg(long)]
    pub strict: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl InputArgs {
    /// The ingest options for output directory `out`.
    pub fn options(&self, out: &std::path::Path) -> crate::ingest::IngestOptions {
        crate::ingest::IngestOptions {
            inputs: self.inputs.clone(),
            out: out.to_path_buf(),
            room: self.room,
            strict: self.strict,
            progress: !self.quiet,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Report name (see below).
    pub report: String,
    #[command(flatten)]
    pub over: FramesArgs,
}

#[derive(Debug, clap::Args)]
pub struct QueryArgs {
    /// A SQL file (polars SQL dialect).
    pub sql: PathBuf,
    #[command(flatten)]
    pub over: FramesArgs,
}

/// Which frames a report runs over and how it is printed, shared by `stats` and `query`.
#[derive(Debug, clap::Args)]
pub struct FramesArgs {
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long)]
    pub frames: PathBuf,
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Restrict riichi_response units to seat N (0..3; the classic table uses seat 0).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
    pub seat: Option<u8>,
}

#[derive(Debug, clap::Args)]
pub struct DangerEvalArgs {
    /// Directory written by `haifu ingest --out` or `haifu run --out`; danger_eval.parquet,
    /// danger_calibration.parquet and danger_eval_summary.parquet are written into it.
    #[arg(long)]
    pub frames: PathBuf,
    /// Your danger table: a CSV `category,weight` with all 19 categories of statistics.md §6
    /// (scored as estimator `table`).
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Comma-separated estimators (default: none, combo, dennou-old, dennou, dennou-new,
    /// phoenix-table, and table when --table is given).
    #[arg(long)]
    pub estimators: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ParamsArgs {
    /// Which parameter file: only `tsumo-rate` (draw rate by held and visible copies, §3).
    #[arg(value_parser = ["tsumo-rate"])]
    pub kind: String,
    #[arg(long)]
    pub frames: PathBuf,
    /// Output JSON path; the same numbers go to the same path with extension .csv.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output directory for the frames and manifest.json.
    #[arg(long, short, required_unless_present = "decode_only")]
    pub out: Option<PathBuf>,
    /// Only read, decompress and decode (the speed floor); writes nothing.
    #[arg(long)]
    pub decode_only: bool,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    crate::ingest::stop_on_interrupt();
    let result = match cli.command {
        Command::Run(args) => crate::cmd::run::run(&args),
        Command::Ingest(args) => crate::cmd::ingest::run(&args),
        Command::Stats(args) => crate::cmd::stats::run_stats(&args),
        Command::Query(args) => crate::cmd::stats::run_query(&args),
        Command::Params(args) => crate::cmd::params::run(&args),
        Command::DangerEval(args) => crate::cmd::danger_eval::run(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.is::<crate::ingest::Interrupted>() => {
            eprintln!("haifu: {e}");
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("haifu: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
