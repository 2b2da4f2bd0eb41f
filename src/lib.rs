//! haifu: Tenhou Phoenix-table logs → exact replays → columnar statistics for mahjong-AI
//! authors.
//!
//! Layers, each knowing only the ones above it:
//! - [`tile`]: tile ids, kinds and types.
//! - [`mjlog`]: the XML format → decoded [`mjlog::Event`]s (knows nothing of statistics).
//! - [`hand`]: hand algorithms (complete hands, waits and shapes, shanten).
//! - [`replay`]: the hand state machine fed by events, checked against the log's records.
//! - [`danger`]: suji categories, danger estimators and their metrics.
//! - [`stats`]: observers of the replay that emit rows (knows nothing of XML).
//! - [`frames`], [`manifest`], [`ingest`]: Parquet frames and the run that writes them.
//! - [`report`]: SQL reports over the frames.
//! - [`cli`] and [`cmd`]: the command line.

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod cmd;
pub mod danger;
#[cfg(feature = "cli")]
pub mod danger_eval;
#[cfg(feature = "cli")]
pub mod frames;
pub mod hand;
#[cfg(feature = "cli")]
pub mod ingest;
pub mod input;
#[cfg(feature = "cli")]
pub mod logdb;
#[cfg(feature = "cli")]
pub mod manifest;
pub mod mjlog;
#[cfg(feature = "cli")]
pub mod params;
pub mod replay;
#[cfg(feature = "cli")]
pub mod report;
pub mod stats;
pub mod tile;
