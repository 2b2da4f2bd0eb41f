//! The ingest pipeline: inputs → decoded games → replay with observers → frames + manifest.
//!
//! Stages, each in its own file:
//! - `units.rs`: the inputs as units of work in sorted path order (files sniffed for log
//!   databases a batch ahead; a database's rows a page at a time, in log-id order);
//! - `worker.rs`: a unit → read, decompress, decode, filter (room, date), replay with every
//!   observer → a [`FileResult`];
//! - `dedup.rs`: the log ids landed so far (a later copy of a landed game is skipped);
//! - `merge.rs`: results accounted for in file order, rows added to the frames and to the run
//!   totals (`totals.rs`), then the run-wide frames, the `phoenix-table` tail and the manifest;
//! - `decode_only.rs`: the speed floor.
//!
//! Runtime concerns (the interrupt flag, timings, progress, returning freed memory) are
//! [`crate::runtime`]'s.
//!
//! Files are processed in sorted order, in batches, each batch in parallel; results are merged
//! in file order, so the output bytes do not depend on thread count or argument order. Memory
//! is one batch of games, each frame's rows until they fill a row group and the run-wide
//! draw-rate cells, plus what grows with the inputs: the sorted input listing (a path each),
//! a hash of the log id and the path of every landed game and a Parquet footer entry per row
//! group. The manifest's entries go to disk as they come.

mod append;
mod decode_only;
mod dedup;
mod join;
mod merge;
mod run_totals;
mod shard;
mod units;
mod worker;

pub(crate) use decode_only::decode_only;
pub(crate) use join::merge_dirs;
pub use shard::Shard;

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::frames::{FrameWriter, GameRows};
use crate::input;
use crate::manifest::{FileEntry, Manifest, Status};
use crate::reason::Failure;
use crate::runtime::{
    interrupted, progress_bar, return_freed_memory, timing, Interrupted, TRIM_EVERY,
};
use crate::stats::Observe;
use merge::Merger;
use units::{sniff, Units};
use worker::{Filters, Workers};

/// Files per parallel batch: large enough to keep both cores busy, small enough to bound memory.
pub const BATCH_FILES: usize = 512;

/// Which rooms to keep. A Tenhou room keeps that room's Tenhou games and every game from
/// elsewhere (rooms `mahjongsoul`, `engine`, `other`): a folder of self-play logs ingests
/// under the default. Naming one of those rooms keeps only its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RoomFilter {
    Phoenix,
    Tokujou,
    Joukyuu,
    Ippan,
    /// Mahjong Soul games (tenhou.net/6 exports).
    Mahjongsoul,
    /// Games of an engine or a client other than Tenhou's (mjai, majiang).
    Engine,
    /// tenhou.net/6 games whose rules name no room haifu knows.
    Other,
    Any,
}

impl RoomFilter {
    pub fn name(self) -> &'static str {
        match self {
            RoomFilter::Phoenix => "phoenix",
            RoomFilter::Tokujou => "tokujou",
            RoomFilter::Joukyuu => "joukyuu",
            RoomFilter::Ippan => "ippan",
            RoomFilter::Mahjongsoul => "mahjongsoul",
            RoomFilter::Engine => "engine",
            RoomFilter::Other => "other",
            RoomFilter::Any => "any",
        }
    }

    fn is_tenhou(name: &str) -> bool {
        matches!(name, "phoenix" | "tokujou" | "joukyuu" | "ippan")
    }

    fn keeps(self, room: &str) -> bool {
        self == RoomFilter::Any
            || self.name() == room
            || (Self::is_tenhou(self.name()) && !Self::is_tenhou(room))
    }
}

/// The games' dates a run keeps (`--since`, `--until`, both inclusive, `YYYY-MM-DD`), decided
/// from the log id before anything is read. With a bound given, a game whose id carries no
/// date is skipped too (it cannot be shown to be inside).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DateRange {
    pub since: Option<String>,
    pub until: Option<String>,
}

impl DateRange {
    fn keeps(&self, game_id: &str) -> bool {
        if self.since.is_none() && self.until.is_none() {
            return true;
        }
        let Some(date) = input::date_of(game_id) else {
            return false;
        };
        self.since.as_deref().is_none_or(|s| date.as_str() >= s)
            && self.until.as_deref().is_none_or(|u| date.as_str() <= u)
    }

    /// Why `game_id` is outside the range.
    fn describe(&self, game_id: &str) -> String {
        let range = format!(
            "--since {} --until {}",
            self.since.as_deref().unwrap_or("-"),
            self.until.as_deref().unwrap_or("-")
        );
        match input::date_of(game_id) {
            Some(d) => format!("{d} is outside {range}"),
            None => format!("the log id gives no date ({range})"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct IngestOptions {
    pub inputs: Vec<PathBuf>,
    pub out: PathBuf,
    pub room: RoomFilter,
    /// Games dated outside are skipped with reason `date`.
    pub dates: DateRange,
    /// Any failed file aborts the run before anything is written.
    pub strict: bool,
    /// Show a progress bar (when stderr is a terminal).
    pub progress: bool,
    /// The analyses recorded and written on request (`--with NAME`, [`crate::groups`]).
    pub observe: Observe,
    /// Also score the §8 tsumo-rate models ([`IngestSummary::tsumo_validation`]), on the core
    /// the end of the ingest leaves idle (`haifu run` asks for it).
    pub tsumo_validation: bool,
    /// Write every game that replays as this format (`<game id>.json.gz` in `out`, with the
    /// manifest) instead of the frames (`haifu convert`).
    pub convert: Option<ConvertTo>,
    /// Add the games to the frames already in `out` (`--append`; a plain ingest when `out`
    /// has none yet).
    pub append: bool,
    /// Take only this shard's inputs (`--shard K/N`).
    pub shard: Option<Shard>,
}

/// A format `haifu convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTo {
    /// mjai JSON lines, gzip'd ([`crate::formats::mjai`]).
    Mjai,
    /// tenhou.net/6 JSON ([`crate::formats::tenhou6`]).
    Tenhou6,
}

impl ConvertTo {
    /// The converted file's name for game `game_id` (a `/` or `\` of a `<directory>/<file>`
    /// id as `_`).
    pub fn file_name(self, game_id: &str) -> String {
        let stem = game_id.replace(['/', '\\'], "_");
        match self {
            ConvertTo::Mjai => format!("{stem}.json.gz"),
            ConvertTo::Tenhou6 => format!("{stem}.json"),
        }
    }
}

/// What a run did. Its [`fmt::Display`] is the end-of-run report for a person: the first
/// failures, the totals, the count of every reason, where the output went.
#[derive(Debug)]
pub struct IngestSummary {
    pub manifest: Manifest,
    /// Frames and manifest were written (false for a `--strict` run that found failures).
    pub written: bool,
    pub seconds: f64,
    pub out: PathBuf,
    /// The §8 report (`report::tsumo`), when asked for and written.
    pub tsumo_validation: Option<polars::prelude::DataFrame>,
    /// Converted games were written instead of frames (`haifu convert`).
    pub converted: bool,
    /// The games the directory holds after an append (`--append` into frames).
    pub appended_to: Option<u64>,
}

impl IngestSummary {
    /// True when some input failed (the CLI then exits 2).
    pub fn failed(&self) -> bool {
        self.manifest.totals.failed > 0
    }
}

impl fmt::Display for IngestSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.manifest;
        let t = &m.totals;
        for e in m.first_failures() {
            let reason = e
                .reason
                .as_ref()
                .map(Failure::to_string)
                .unwrap_or_default();
            writeln!(f, "failed: {}: {reason}", e.path)?;
        }
        let unlisted = t.failed - m.first_failures().len() as u64;
        if unlisted > 0 {
            writeln!(
                f,
                "… and {unlisted} more failed inputs: every one is in manifest.json"
            )?;
        }
        writeln!(
            f,
            "{} files: {} ok, {} skipped, {} failed; {} games, {} hands in {:.2} s",
            t.files, t.ok, t.skipped, t.failed, t.games, t.hands, self.seconds
        )?;
        for (reason, n) in &m.failures_by_reason {
            writeln!(f, "  failed {n}: {reason}")?;
        }
        for (reason, n) in &m.skips_by_reason {
            writeln!(f, "  skipped {n}: {reason}")?;
        }
        if let (true, Some(games)) = (self.written, self.appended_to) {
            write!(
                f,
                "appended to the frames in {} (now {games} games)",
                self.out.display()
            )
        } else if self.written && self.converted {
            write!(f, "games and manifest written to {}", self.out.display())
        } else if self.written {
            write!(f, "frames and manifest written to {}", self.out.display())
        } else {
            write!(f, "--strict: failures found, nothing written")
        }
    }
}

/// The result of one unit.
pub(crate) enum Outcome {
    Ok(Box<GameRows>),
    /// Not processed: an earlier input with the same log id has already landed.
    Duplicate {
        game_id: String,
    },
    Skipped {
        game_id: String,
        reason: Failure,
    },
    Failed {
        game_id: Option<String>,
        reason: Failure,
    },
    /// Another shard's input (`--shard`): counted, not listed.
    OtherShard,
}

/// One unit's result, named as the manifest names it.
pub(crate) struct FileResult {
    /// The file path, or `<db path>#<log id>` for a database row.
    name: String,
    outcome: Outcome,
    unknown_tags: Vec<(String, u32)>,
}

impl FileResult {
    /// A result decided without decoding anything.
    fn decided(name: String, outcome: Outcome) -> FileResult {
        FileResult {
            name,
            outcome,
            unknown_tags: Vec::new(),
        }
    }
}

/// Runs the whole ingest (with [`IngestOptions::append`] into a directory that has frames,
/// an append: [`append`]).
///
/// Batches are replayed in parallel while a merger thread accounts for and writes the
/// previous batch, so writing overlaps replay; results are merged in file order.
pub fn ingest(opts: &IngestOptions) -> Result<IngestSummary> {
    if opts.append && opts.convert.is_none() && opts.out.join("manifest.json").exists() {
        return append::append(opts);
    }
    ingest_into(opts, Prior::default())
}

/// What a run starts from: nothing, or for the new games of an append the directory's.
#[derive(Default)]
pub(crate) struct Prior {
    /// The games already landed (log ids and contents, with their inputs).
    landed: dedup::LandedIds,
    /// The run-wide `phoenix-table` is left to the join (an append's new games).
    no_phoenix: bool,
}

/// [`ingest`] into `opts.out` from `prior`.
fn ingest_into(opts: &IngestOptions, prior: Prior) -> Result<IngestSummary> {
    let start = Instant::now();
    let (files, listing_errors) = input::collect_files(&opts.inputs);
    timing("listing", start.elapsed());
    let writer = FrameWriter::new(&opts.out)
        .with_context(|| format!("cannot create output directory {}", opts.out.display()))?;
    let mut manifest = Manifest::new(opts.room.name(), &opts.out)
        .with_context(|| format!("cannot write in {}", opts.out.display()))?;
    manifest.shard = opts.shard.map(|s| s.to_string());
    for e in listing_errors {
        let name = e.path.display().to_string();
        if opts.shard.is_some_and(|s| !s.takes(&name)) {
            manifest.totals.other_shards += 1;
            continue;
        }
        manifest.push(FileEntry {
            path: name,
            status: Status::Failed,
            reason: Some(e.reason),
            game_id: None,
            games: 0,
            hands: 0,
            wall: None,
            wall_reason: None,
            proofs: None,
            content: None,
        })?;
    }
    let progress = progress_bar(opts.progress, files.len() as u64);
    let observe = opts.observe;
    let after_landed = !prior.landed.is_empty();
    let mut merger = Merger::new(
        manifest,
        writer,
        progress,
        start,
        observe,
        opts.convert,
        prior.landed,
    );
    merger.score_phoenix = !prior.no_phoenix;
    let merger_progress = merger.progress.clone();
    let landed = Arc::clone(&merger.landed);
    let workers = Workers::new();
    let failed = AtomicBool::new(merger.manifest.totals.failed > 0);
    let filters = Filters {
        room: opts.room,
        dates: &opts.dates,
        observe,
        convert: opts.convert,
        shard: opts.shard,
    };
    let merged: Result<Merger> = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Vec<FileResult>>(1);
        let failed = &failed;
        let merge_thread = std::thread::Builder::new().name("haifu-merge".into());
        let handle = merge_thread.spawn_scoped(scope, move || -> Result<Merger> {
            let mut busy = std::time::Duration::ZERO;
            for results in rx {
                let t0 = Instant::now();
                if results
                    .iter()
                    .any(|r| matches!(r.outcome, Outcome::Failed { .. }))
                {
                    failed.store(true, Ordering::Relaxed);
                }
                if let Err(e) = merger.merge(results) {
                    merger.writer.abandon();
                    return Err(e);
                }
                busy += t0.elapsed();
            }
            timing("merge (busy)", busy);
            Ok(merger)
        });
        let mut replaying = std::time::Duration::ZERO;
        let mut units = Units::new(files, merger_progress, after_landed);
        for batches in 1.. {
            if (opts.strict && failed.load(Ordering::Relaxed)) || interrupted() {
                break;
            }
            let batch = units.next_batch(BATCH_FILES);
            if batch.is_empty() {
                break;
            }
            let t0 = Instant::now();
            // The next batch's files are sniffed alongside this one's replay.
            let ahead = units.unsniffed(BATCH_FILES);
            let (results, is_db): (Vec<FileResult>, _) = rayon::join(
                || {
                    batch
                        .into_par_iter()
                        .flat_map_iter(|u| workers.with(|w| w.process(u, filters, &landed)))
                        .collect()
                },
                || sniff(&ahead),
            );
            units.add_sniffed(ahead, is_db);
            replaying += t0.elapsed();
            if tx.send(results).is_err() {
                break; // the merger stopped on an error; join reports it
            }
            if batches % TRIM_EVERY == 0 {
                return_freed_memory();
            }
        }
        timing("replay (parallel)", replaying);
        drop(tx);
        handle
            .context("cannot start the merger thread")?
            .join()
            .expect("merger thread panicked")
    });
    let mut merger = merged?;
    let worker_cells = workers.into_cells();
    if let Some(pb) = merger.progress.take() {
        pb.finish_and_clear();
    }
    if interrupted() {
        merger.writer.abandon();
        return Err(Interrupted.into());
    }
    let summary = |merger: Merger, written, tsumo_validation| IngestSummary {
        manifest: merger.manifest,
        written,
        seconds: start.elapsed().as_secs_f64(),
        out: opts.out.clone(),
        tsumo_validation,
        converted: opts.convert.is_some(),
        appended_to: None,
    };
    if opts.strict && failed.load(Ordering::Relaxed) {
        // A strict run stops after the first batch with a failure and writes nothing.
        merger.writer.abandon();
        return Ok(summary(merger, false, None));
    }
    let t0 = Instant::now();
    let finished = merger.finish(opts.tsumo_validation, worker_cells);
    timing("finish", t0.elapsed());
    timing("total", start.elapsed());
    match finished {
        Ok(validation) => Ok(summary(merger, true, validation)),
        Err(e) => {
            merger.writer.abandon();
            Err(e)
        }
    }
}
