//! haifu: Tenhou Phoenix-table logs → exact replays → columnar statistics for mahjong-AI
//! authors.
//!
//! The core (no polars; what the fuzz targets link, `--no-default-features`), each layer using
//! only those above it:
//! - [`tile`]: tile ids, the 34 kinds and 37 types; [`reason`]: why an input failed;
//!   [`rules`]: the table's rules as one value, four players or three (seats, tiles, kinds,
//!   draws, payments);
//! - [`mjlog`]: the XML format → decoded [`mjlog::Event`]s (knows nothing of statistics);
//!   [`input`]: finding, reading and naming logs;
//! - [`hand`]: hand algorithms (complete hands, waits and shapes, shanten);
//! - [`danger`]: suji categories, danger estimators, their metrics and exact totals;
//! - [`wall`]: Tenhou's wall rebuilt from a log's shuffle seed (where every dealt tile, draw
//!   and indicator must be);
//! - [`score`]: the score of a win (yaku, fu, points) exactly as Tenhou writes it;
//! - [`replay`]: the hand state machine fed by events, checked against the log's records and
//!   its wall;
//! - [`stats`]: observers of the replay that emit rows (knows nothing of XML or frames);
//!   [`groups`]: the analyses recorded only on request (`--with NAME`), the one list of them.
//!
//! The columnar layer (feature `cli`):
//! - `frames`: one file per Parquet frame, the pending rows, the writer;
//! - [`ingest`]: the parallel, deterministic pipeline (units, workers, dedup, merge, totals);
//!   [`manifest`], `logdb` (log databases);
//! - [`report`]: the bundled SQL reports and their rendering, §4 scoring over the frames;
//!   [`params`]: the parameter file;
//! - [`cli`] and `cmd`: the command line, one module per command; `runtime`: the interrupt
//!   flag, timings, progress and returning freed memory.

// Built as the core alone, what only the columnar layer reads (frame columns, the input
// listing) is unused; dead code is reported by the full build.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

#[cfg(feature = "cli")]
mod again;
pub mod agree;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
mod cmd;
#[cfg(feature = "cli")]
mod compare;
pub mod danger;
#[cfg(feature = "cli")]
mod engine_tables;
mod exact;
pub mod formats;
#[cfg(feature = "cli")]
pub mod frames;
pub mod groups;
pub mod hand;
#[cfg(feature = "cli")]
pub mod ingest;
pub mod input;
#[cfg(feature = "cli")]
mod logdb;
#[cfg(feature = "cli")]
pub mod manifest;
pub mod mjlog;
pub mod param_file;
#[cfg(feature = "cli")]
pub mod params;
pub mod reason;
pub mod replay;
#[cfg(feature = "cli")]
pub mod report;
#[cfg(feature = "cli")]
mod review;
pub mod rules;
#[cfg(feature = "cli")]
mod runtime;
pub mod score;
#[cfg(feature = "cli")]
mod softmax;
pub mod stats;
pub mod tile;
pub mod wall;
pub mod yaku;
