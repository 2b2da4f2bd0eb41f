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
    /// Decode and replay logs into Parquet frames and a manifest.
    Ingest(IngestArgs),
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// Log files or directories (walked recursively). gzip or plain mjlog XML, recognised by
    /// content.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output directory for the frames and manifest.json.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Keep only games of this room.
    #[arg(long, value_enum, default_value = "phoenix")]
    pub room: RoomFilter,
    /// Exit 2 and write nothing if any file fails.
    #[arg(long)]
    pub strict: bool,
    /// Only read, decompress and decode (the speed floor); writes nothing.
    #[arg(long)]
    pub decode_only: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ingest(args) => crate::cmd::ingest::run(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("haifu: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
