//! The ingest pipeline: files → decoded games → replay with observers → frames + manifest.
//!
//! Files are processed in sorted order, in batches, each batch in parallel; results are merged
//! in file order, so the output bytes do not depend on thread count or argument order. Memory
//! is one batch of games, each frame's rows until they fill a row group and the run-wide
//! draw-rate cells, plus what grows with the inputs: the sorted input listing (a path each),
//! a hash of the log id and the path of every landed game ([`LandedIds`]) and a Parquet
//! footer entry per row group. The manifest's entries go to disk as they come ([`Manifest`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::danger::{Category, Estimator};
use crate::danger_eval::{self, EvalKey, EvalTotals};
use crate::frames::{self, FrameWriter, GameRows, PendingFrames, GAME_FRAMES};
use crate::input;
use crate::manifest::{FileEntry, Manifest, Status};
use crate::mjlog::{self, decode::decode_into, go_type, GameLog};
use crate::stats::draw_rate::DrawRecord;
use crate::stats::{self, DrawRateCells};
use crate::tile::KINDS;

/// Set when the user asks the run to stop (Ctrl-C; see [`stop_on_interrupt`]). A run that
/// sees it removes its temporary files and leaves the previous output as it was.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C (SIGINT/SIGTERM) request a clean stop instead of killing the process
/// mid-write. Call once, from the binary.
pub fn stop_on_interrupt() {
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
}

/// The error an interrupted run returns.
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted: nothing was written; the previous output is as it was"
        )
    }
}

impl std::error::Error for Interrupted {}

/// Files per parallel batch: large enough to keep both cores busy, small enough to bound memory.
pub const BATCH_FILES: usize = 512;

/// Which rooms to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RoomFilter {
    Phoenix,
    Tokujou,
    Joukyuu,
    Ippan,
    Any,
}

impl RoomFilter {
    pub fn name(self) -> &'static str {
        match self {
            RoomFilter::Phoenix => "phoenix",
            RoomFilter::Tokujou => "tokujou",
            RoomFilter::Joukyuu => "joukyuu",
            RoomFilter::Ippan => "ippan",
            RoomFilter::Any => "any",
        }
    }

    fn keeps(self, room: &str) -> bool {
        self == RoomFilter::Any || self.name() == room
    }
}

#[derive(Clone, Debug)]
pub struct IngestOptions {
    pub inputs: Vec<PathBuf>,
    pub out: PathBuf,
    pub room: RoomFilter,
    /// Any failed file aborts the run before anything is written.
    pub strict: bool,
    /// Show a progress bar (when stderr is a terminal).
    pub progress: bool,
}

/// What a run did.
#[derive(Debug)]
pub struct IngestSummary {
    pub manifest: Manifest,
    /// Frames and manifest were written (false for a `--strict` run that found failures).
    pub written: bool,
    pub seconds: f64,
}

impl IngestSummary {
    /// Exit status per the CLI contract: 0 when every file is ok or skipped, 2 otherwise.
    pub fn exit_code(&self) -> u8 {
        if self.manifest.totals.failed > 0 {
            2
        } else {
            0
        }
    }
}

/// The result of one file.
pub(crate) enum Outcome {
    Ok(Box<GameRows>),
    /// Not processed: an earlier input with the same log id has already landed.
    Duplicate {
        game_id: String,
    },
    Skipped {
        game_id: String,
        reason: String,
    },
    Failed {
        game_id: Option<String>,
        reason: String,
    },
}

struct FileResult {
    /// The file path, or `<db path>#<log id>` for a database row.
    name: String,
    outcome: Outcome,
    unknown_tags: Vec<(String, u32)>,
}

/// One unit of work: a file, a row of a log database, or an input already decided (a
/// database that cannot be opened, a row the downloader never fetched).
///
/// `shared` is set when an earlier input of the run may hold the same log id, so this copy
/// lands only if every earlier one failed (see [`Merger::account`]): such a game's draw-rate
/// records go to the merger instead of straight into the worker's accumulator, and it is
/// not processed at all once an earlier copy has landed.
enum Unit {
    File {
        path: PathBuf,
        shared: bool,
    },
    Row {
        name: String,
        log_id: String,
        blob: Vec<u8>,
        shared: bool,
    },
    Decided(FileResult),
}

/// The run's inputs as batches of units, in sorted path order, each database's rows in
/// log-id order; a database is read a page at a time.
struct Units {
    /// Each path not yet taken, and whether an earlier path (in run order) may have its log
    /// id (as [`game_id_for`] gives it; see [`Units::new`]), in reverse run order: inputs are
    /// taken from the end, and the list shrinks as they are (its memory is not kept for the
    /// whole run).
    inputs: Vec<(PathBuf, bool)>,
    /// The next inputs, taken from `inputs` and each already known to be a log database or
    /// not (files are sniffed a batch at a time, in parallel).
    sniffed: VecDeque<(PathBuf, bool, bool)>,
    /// A database row may share its id with another input (the run has more than one path).
    rows_shared: bool,
    /// A database was opened: a later file may repeat one of its rows' ids.
    after_db: bool,
    db: Option<(PathBuf, crate::logdb::LogDb, Option<String>)>,
    progress: Option<ProgressBar>,
}

impl Units {
    /// A path is marked as repeated when the 64-bit hash of its log id was seen before: a
    /// collision between two different ids only makes the later one check [`Landed`] (and
    /// find nothing), so it costs nothing in correctness, and no id is kept per path.
    fn new(files: Vec<PathBuf>, progress: Option<ProgressBar>) -> Self {
        use std::hash::{Hash, Hasher};
        let rows_shared = files.len() > 1;
        let mut seen: HashSet<u64> = HashSet::with_capacity(files.len());
        let mut inputs: Vec<(PathBuf, bool)> = files
            .into_iter()
            .map(|p| {
                let mut h = std::hash::DefaultHasher::new();
                game_id_for(&p).hash(&mut h);
                let repeated = !seen.insert(h.finish());
                (p, repeated)
            })
            .collect();
        inputs.reverse();
        Units {
            inputs,
            sniffed: VecDeque::new(),
            rows_shared,
            after_db: false,
            db: None,
            progress,
        }
    }

    /// Takes the next `n` inputs out of line, to be sniffed (by [`sniff`], while a batch is
    /// replayed) and given back to [`Units::add_sniffed`] before the next batch is made.
    fn unsniffed(&mut self, n: usize) -> Vec<(PathBuf, bool)> {
        let mut taken = self.inputs.split_off(self.inputs.len().saturating_sub(n));
        taken.reverse();
        if self.inputs.len() < self.inputs.capacity() / 2 {
            self.inputs.shrink_to_fit();
        }
        taken
    }

    fn add_sniffed(&mut self, inputs: Vec<(PathBuf, bool)>, is_db: Vec<bool>) {
        let sniffed = inputs.into_iter().zip(is_db).map(|((p, r), db)| (p, r, db));
        self.sniffed.extend(sniffed);
    }

    /// The next batch of at most `n` units; empty when the inputs are exhausted.
    fn next_batch(&mut self, n: usize) -> Vec<Unit> {
        let mut batch = Vec::with_capacity(n);
        while batch.len() < n {
            if let Some((path, db, last)) = &mut self.db {
                let page = db.page(last.as_deref(), n - batch.len());
                let rows = match page {
                    Ok(rows) if !rows.is_empty() => rows,
                    Ok(_) => {
                        self.db = None;
                        continue;
                    }
                    Err(e) => {
                        batch.push(Unit::Decided(FileResult {
                            name: path.display().to_string(),
                            outcome: Outcome::Failed {
                                game_id: None,
                                reason: format!("unreadable database: {e}"),
                            },
                            unknown_tags: Vec::new(),
                        }));
                        self.db = None;
                        continue;
                    }
                };
                *last = rows.last().map(|r| r.log_id.clone());
                for r in rows {
                    let name = format!("{}#{}", path.display(), r.log_id);
                    batch.push(match r.content {
                        Ok(blob) => Unit::Row {
                            name,
                            log_id: r.log_id,
                            blob,
                            shared: self.rows_shared,
                        },
                        Err(reason) => Unit::Decided(FileResult {
                            name,
                            outcome: Outcome::Skipped {
                                game_id: r.log_id,
                                reason,
                            },
                            unknown_tags: Vec::new(),
                        }),
                    });
                }
                continue;
            }
            if self.sniffed.is_empty() {
                let next = self.unsniffed(n - batch.len());
                let is_db = sniff(&next);
                self.add_sniffed(next, is_db);
            }
            let Some((path, repeated, is_db)) = self.sniffed.pop_front() else {
                break;
            };
            if !is_db {
                let shared = repeated || self.after_db;
                batch.push(Unit::File { path, shared });
                continue;
            }
            self.after_db = true;
            match crate::logdb::LogDb::open(&path) {
                Ok(db) => {
                    if let Some(pb) = &self.progress {
                        // The database stands for its rows, not one input.
                        pb.inc_length(db.row_count().saturating_sub(1));
                    }
                    self.db = Some((path, db, None))
                }
                Err(e) => batch.push(Unit::Decided(FileResult {
                    name: path.display().to_string(),
                    outcome: Outcome::Failed {
                        game_id: None,
                        reason: e,
                    },
                    unknown_tags: Vec::new(),
                })),
            }
        }
        batch
    }
}

/// Whether each input is a log database (by its first bytes), in parallel.
fn sniff(inputs: &[(PathBuf, bool)]) -> Vec<bool> {
    inputs
        .par_iter()
        .map(|(p, _)| crate::logdb::is_sqlite(p))
        .collect()
}

/// Reusable buffers of one worker thread, and its share of the run-wide draw-rate counts.
struct Worker {
    raw: Vec<u8>,
    inflated: Vec<u8>,
    log: GameLog,
    /// The current game's draw records.
    draws: Vec<DrawRecord>,
    /// Draw-rate counts of the games this worker replayed whose log id no other input has.
    cells: DrawRateCells,
}

impl Worker {
    fn new() -> Self {
        Worker {
            raw: Vec::new(),
            inflated: Vec::new(),
            log: GameLog::default(),
            draws: Vec::new(),
            cells: DrawRateCells::default(),
        }
    }

    /// Processes one unit. A panic while processing it (a bug: no input should cause one)
    /// fails that unit with reason `internal-error` instead of taking the run down.
    fn process(&mut self, unit: Unit, room: RoomFilter, landed: &Landed) -> FileResult {
        let (name, shared) = match &unit {
            Unit::File { path, shared, .. } => (path.display().to_string(), *shared),
            Unit::Row { name, shared, .. } => (name.clone(), *shared),
            Unit::Decided(_) => (String::new(), false),
        };
        if shared {
            let game_id = match &unit {
                Unit::File { path, .. } => game_id_for(path),
                Unit::Row { log_id, .. } => log_id.clone(),
                Unit::Decided(_) => String::new(),
            };
            if landed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(&game_id)
            {
                return FileResult {
                    name,
                    outcome: Outcome::Duplicate { game_id },
                    unknown_tags: Vec::new(),
                };
            }
        }
        self.draws.clear();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match unit {
            Unit::File { path, .. } => Ok(self.outcome(&path, room)),
            Unit::Row {
                name, log_id, blob, ..
            } => Ok(self.row_outcome(&name, &log_id, &blob, room)),
            Unit::Decided(r) => Err(r),
        }));
        let outcome = match outcome {
            Ok(Ok(Outcome::Ok(mut rows))) => {
                // The game replayed whole: its draws count, here, or (when an earlier input
                // may hold the same game) in the merger if this copy lands.
                if shared {
                    rows.draws = std::mem::take(&mut self.draws);
                } else {
                    self.cells.commit(&self.draws);
                }
                Outcome::Ok(rows)
            }
            Ok(Ok(o)) => o,
            Ok(Err(decided)) => return decided,
            Err(panic) => {
                // The worker's buffers may be mid-update: start them afresh. The draw-rate
                // counts only ever hold whole games, so they are kept.
                let cells = std::mem::take(&mut self.cells);
                *self = Worker::new();
                self.cells = cells;
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Outcome::Failed {
                    game_id: None,
                    reason: format!("internal-error: haifu panicked on this input: {msg}"),
                }
            }
        };
        FileResult {
            name,
            outcome,
            unknown_tags: std::mem::take(&mut self.log.unknown_tags),
        }
    }

    /// A database row: gzip, bzip2 or plain XML by content.
    fn row_outcome(&mut self, name: &str, log_id: &str, blob: &[u8], room: RoomFilter) -> Outcome {
        self.log.unknown_tags.clear();
        let bytes: &[u8] = if crate::logdb::is_bzip2(blob) {
            if let Err(e) = crate::logdb::bunzip2(blob, &mut self.inflated, input::MAX_LOG_BYTES) {
                return Outcome::Failed {
                    game_id: Some(log_id.to_string()),
                    reason: format!("corrupt-bzip2: {e}"),
                };
            }
            &self.inflated
        } else {
            match input::decompress(blob, &mut self.inflated) {
                Ok(b) => b,
                Err(e) => {
                    return Outcome::Failed {
                        game_id: Some(log_id.to_string()),
                        reason: format!("{}: {}", e.reason, e.detail),
                    }
                }
            }
        };
        process_document(bytes, log_id, name, room, &mut self.log, &mut self.draws)
    }

    fn outcome(&mut self, path: &Path, room: RoomFilter) -> Outcome {
        self.log.unknown_tags.clear();
        let bytes = match input::read_log(path, &mut self.raw, &mut self.inflated) {
            Ok(b) => b,
            Err(e) => {
                return Outcome::Failed {
                    game_id: None,
                    reason: format!("{}: {}", e.reason, e.detail),
                }
            }
        };
        process_document(
            bytes,
            &game_id_for(path),
            &path.display().to_string(),
            room,
            &mut self.log,
            &mut self.draws,
        )
    }
}

/// The frame `game_id` of a file: its Tenhou log id, or `<parent>/<stem>` when the name has none.
pub fn game_id_for(path: &Path) -> String {
    if let Some(id) = path
        .file_name()
        .and_then(|n| input::find_log_id(&n.to_string_lossy()))
    {
        return id;
    }
    let stem = input::game_id_from_path(path);
    match path.parent().and_then(Path::file_name) {
        Some(p) => format!("{}/{stem}", p.to_string_lossy()),
        None => stem,
    }
}

/// Decodes and replays one document with every observer. Shared by files and database rows.
/// The game's draw records are left in `draws` (meaningful only when the game replayed).
pub(crate) fn process_document(
    bytes: &[u8],
    game_id: &str,
    source: &str,
    room: RoomFilter,
    log: &mut GameLog,
    draws: &mut Vec<DrawRecord>,
) -> Outcome {
    let failed = |reason: String| Outcome::Failed {
        game_id: Some(game_id.to_string()),
        reason,
    };
    if let Err(e) = decode_into(bytes, log) {
        return failed(e.to_string());
    }
    let Some(go) = log.go_type else {
        return failed("no-go: the log has no GO tag".into());
    };
    if go & go_type::THREE_PLAYER != 0 {
        return Outcome::Skipped {
            game_id: game_id.to_string(),
            reason: format!("three-player: GO type {go}"),
        };
    }
    if go > 0xFF {
        return Outcome::Skipped {
            game_id: game_id.to_string(),
            reason: format!("unknown-rules: GO type {go} (0x{go:x}) is a rule set other than Tenhou's standard four-player rules"),
        };
    }
    let game_room = mjlog::room_of(go);
    if !room.keeps(game_room) {
        return Outcome::Skipped {
            game_id: game_id.to_string(),
            reason: format!("room: {game_room} (filter {})", room.name()),
        };
    }
    match stats::observe_game(log, draws) {
        Ok(o) => Outcome::Ok(Box::new(GameRows::new(
            game_id.to_string(),
            source.to_string(),
            o,
        ))),
        Err(e) => failed(format!("replay: {e}")),
    }
}

/// The log ids of the games landed so far, and the input that landed each.
///
/// An id is kept as a 128-bit hash (two SipHash values), so an entry takes about 40 bytes
/// plus its path's bytes in one arena, instead of two strings: two different ids of a run
/// share a key with probability about n²/2¹²⁹ (1e-26 for 2.5 million games).
#[derive(Default)]
struct LandedIds {
    /// Key of each landed id → its ordinal (index into `ends`).
    ordinal: HashMap<(u64, u64), u32>,
    /// The landing inputs' paths, one after another; path i ends at `ends[i]`.
    paths: String,
    ends: Vec<usize>,
}

impl LandedIds {
    fn key(id: &str) -> (u64, u64) {
        use std::hash::{Hash, Hasher};
        let mut a = std::hash::DefaultHasher::new();
        id.hash(&mut a);
        let mut b = std::hash::DefaultHasher::new();
        (0x9e37_79b9_7f4a_7c15_u64, id).hash(&mut b);
        (a.finish(), b.finish())
    }

    fn contains(&self, id: &str) -> bool {
        self.ordinal.contains_key(&Self::key(id))
    }

    /// The path that landed `id`, if it landed.
    fn path(&self, id: &str) -> Option<&str> {
        let i = *self.ordinal.get(&Self::key(id))? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.paths[start..self.ends[i]])
    }

    /// Records that `path` landed `id` (which has not landed yet).
    fn insert(&mut self, id: &str, path: &str) {
        let i = u32::try_from(self.ends.len()).expect("fewer than 2^32 landed games");
        self.paths.push_str(path);
        self.ends.push(self.paths.len());
        self.ordinal.insert(Self::key(id), i);
    }
}

/// [`LandedIds`], shared by the merger (which adds to it) and the workers (which skip a later
/// copy of a landed game).
type Landed = Mutex<LandedIds>;

/// What the merging side of a run accumulates, in file order.
struct Merger {
    manifest: Manifest,
    writer: FrameWriter,
    /// Rows of the per-game frames not yet written (a row group at a time).
    frames: PendingFrames,
    /// Draw-rate counts of landed games whose log id another input also has; the workers'
    /// counts are added at the end.
    cells: DrawRateCells,
    /// §2 (units, waits) per category of landed games, for the `phoenix-table` estimator.
    category_counts: [(u64, u64); Category::ALL.len()],
    /// §4 calibration counts and metric sums of landed games.
    totals: EvalTotals,
    /// Landed log ids and the path that landed them (workers read it to skip later copies).
    landed: Arc<Landed>,
    games_done: u64,
    progress: Option<ProgressBar>,
    start: Instant,
}

impl Merger {
    /// Accounts for one batch of results (in file order) and writes its rows.
    fn merge(&mut self, results: Vec<FileResult>) -> Result<()> {
        let files = results.len() as u64;
        for r in results {
            let entry = self.account(r);
            self.manifest.push(entry)?;
        }
        self.write_frames(false)?;
        if let Some(pb) = &self.progress {
            pb.inc(files);
            let secs = self.start.elapsed().as_secs_f64().max(1e-9);
            pb.set_message(format!(
                "{} games, {:.0} games/s",
                self.games_done,
                self.games_done as f64 / secs
            ));
        }
        Ok(())
    }

    fn account(&mut self, r: FileResult) -> FileEntry {
        let path = r.name;
        let landed_as = |id: &str| -> Option<String> {
            self.landed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .path(id)
                .map(str::to_string)
        };
        // A later copy of a landed game: skipped, whether or not a worker processed it first
        // (and its unknown tags, the same game's, are not counted again).
        let duplicate_of = match &r.outcome {
            Outcome::Ok(rows) => landed_as(&rows.game_id),
            Outcome::Duplicate { game_id } => Some(
                landed_as(game_id).expect("a copy is skipped only after an earlier one landed"),
            ),
            _ => None,
        };
        if duplicate_of.is_none() {
            for (tag, n) in r.unknown_tags {
                *self.manifest.unknown_tags.entry(tag).or_default() += n as u64;
            }
        }
        let entry = |status, reason, game_id| FileEntry {
            path: path.clone(),
            status,
            reason,
            game_id,
            games: 0,
            hands: 0,
        };
        if let Some(first) = duplicate_of {
            let game_id = match r.outcome {
                Outcome::Ok(rows) => rows.game_id,
                Outcome::Duplicate { game_id } => game_id,
                _ => unreachable!("only landed-or-duplicate outcomes have a first copy"),
            };
            return entry(
                Status::Skipped,
                Some(format!("duplicate: same game as {first}")),
                Some(game_id),
            );
        }
        match r.outcome {
            Outcome::Ok(rows) => {
                self.landed
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(&rows.game_id, &path);
                self.frames.push(&rows);
                self.cells.commit(&rows.draws);
                for w in &rows.wait_danger {
                    for k in 0..KINDS {
                        let c = &mut self.category_counts[w.category[k].index()];
                        c.0 += 1;
                        c.1 += w.shape[k].is_some() as u64;
                    }
                }
                let included = rows
                    .danger_situations
                    .iter()
                    .filter(|d| d.excluded.is_none());
                for (d, scores) in included.zip(&rows.danger_scores) {
                    let key = EvalKey::of(0, d);
                    for (e, (s, est)) in scores.iter().zip(&Estimator::BUILTINS).enumerate() {
                        self.totals.add(&key, e, est.name(), s);
                    }
                }
                let draws: u64 = rows.facts.hands.iter().map(|h| h.draws as u64).sum();
                self.manifest
                    .note_game(&rows.game_id, mjlog::room_of(rows.facts.go_type), draws);
                self.games_done += 1;
                FileEntry {
                    games: 1,
                    hands: rows.facts.hands.len() as u32,
                    ..entry(Status::Ok, None, Some(rows.game_id.clone()))
                }
            }
            Outcome::Skipped { game_id, reason } => {
                entry(Status::Skipped, Some(reason), Some(game_id))
            }
            Outcome::Failed { game_id, reason } => entry(Status::Failed, Some(reason), game_id),
            Outcome::Duplicate { .. } => unreachable!("handled above"),
        }
    }

    /// Writes the per-game frames' pending rows that fill a row group, or with `all` every
    /// pending row.
    fn write_frames(&mut self, all: bool) -> Result<()> {
        for (f, chunk) in self.frames.take_ready(all) {
            self.writer.write_chunk(GAME_FRAMES[f], &chunk)?;
        }
        Ok(())
    }

    /// Writes the run-wide frames and the manifest, then renames everything into place.
    fn finish(&mut self) -> Result<()> {
        self.write_frames(true)?;
        // Frames with no rows still get a file with their schema.
        let empty = PendingFrames::empty_chunks();
        for (name, chunk) in GAME_FRAMES.iter().zip(empty) {
            if !self.writer.has_rows(name) {
                self.writer.write_chunk(name, &chunk)?;
            }
        }
        self.writer
            .write("draw_rate", &frames::draw_rate_frame(&self.cells)?)?;
        let t0 = Instant::now();
        // `phoenix-table` needs the whole run's §2 rates: score it over the finished
        // situations file and append its rows to the built-in estimators' ones.
        self.writer.finish_frame("danger_situations")?;
        let phoenix = danger_eval::phoenix_table_from_counts(&self.category_counts)?;
        let t1 = Instant::now();
        let writer = &mut self.writer;
        let (totals, _) = danger_eval::evaluate_file(
            &writer.temp_path("danger_situations.parquet"),
            &[Estimator::Table(phoenix)],
            Estimator::BUILTINS.len(),
            danger_eval::SITUATION_ROWS,
            |eval| Ok(writer.write_chunk("danger_eval", eval)?),
        )?;
        timing("  read, evaluate, write", t1.elapsed());
        let t1 = Instant::now();
        self.totals.merge(totals);
        self.writer
            .write("danger_calibration", &self.totals.calibration_frame()?)?;
        self.writer
            .write("danger_eval_summary", &self.totals.summary_frame()?)?;
        timing("  write", t1.elapsed());
        let t1 = Instant::now();
        self.writer.finish()?;
        timing("  finish", t1.elapsed());
        timing("phoenix-table scoring", t0.elapsed());
        // Last chance to stop before anything is renamed into place.
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Err(Interrupted.into());
        }
        self.writer
            .write_file("manifest.json", |w| self.manifest.write_json(w))?;
        self.writer.commit("manifest.json")?;
        Ok(())
    }
}

/// One reusable [`Worker`] per thread of the rayon pool running this ingest, so buffers and
/// the dense draw-rate cells are allocated once per thread, not once per parallel split.
struct Workers(Vec<Mutex<Worker>>);

impl Workers {
    fn new() -> Self {
        // The last one serves a caller outside the pool.
        Workers(
            (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(Worker::new()))
                .collect(),
        )
    }

    /// The draw-rate counts of every worker, summed (integers: the sum is order-independent).
    fn into_cells(self) -> DrawRateCells {
        let mut total = DrawRateCells::default();
        for w in self.0 {
            total.add(&w.into_inner().unwrap_or_else(|e| e.into_inner()).cells);
        }
        total
    }

    fn with<R>(&self, f: impl FnOnce(&mut Worker) -> R) -> R {
        let last = self.0.len() - 1;
        let i = rayon::current_thread_index().map_or(last, |i| i.min(last));
        let mut w = self.0[i].lock().unwrap_or_else(|e| e.into_inner());
        f(&mut w)
    }
}

/// Runs the whole ingest.
///
/// Batches are replayed in parallel while a merger thread accounts for and writes the
/// previous batch, so writing overlaps replay; results are merged in file order.
pub fn ingest(opts: &IngestOptions) -> Result<IngestSummary> {
    let start = Instant::now();
    let (files, listing_errors) = input::collect_files(&opts.inputs);
    timing("listing", start.elapsed());
    let writer = FrameWriter::new(&opts.out)
        .with_context(|| format!("cannot create output directory {}", opts.out.display()))?;
    let mut manifest = Manifest::new(opts.room.name(), &opts.out)
        .with_context(|| format!("cannot write in {}", opts.out.display()))?;
    for e in &listing_errors {
        manifest.push(FileEntry {
            path: e.path.display().to_string(),
            status: Status::Failed,
            reason: Some(e.reason.clone()),
            game_id: None,
            games: 0,
            hands: 0,
        })?;
    }
    let mut merger = Merger {
        manifest,
        writer,
        frames: PendingFrames::default(),
        cells: DrawRateCells::default(),
        category_counts: Default::default(),
        totals: EvalTotals::default(),
        landed: Arc::new(Landed::default()),
        games_done: 0,
        progress: progress_bar(opts.progress, files.len() as u64),
        start,
    };
    let merger_progress = merger.progress.clone();
    let landed = Arc::clone(&merger.landed);
    let workers = Workers::new();
    let failed = AtomicBool::new(merger.manifest.totals.failed > 0);
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
        let mut units = Units::new(files, merger_progress);
        for batches in 1.. {
            if (opts.strict && failed.load(Ordering::Relaxed)) || INTERRUPTED.load(Ordering::SeqCst)
            {
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
                        .map(|u| workers.with(|w| w.process(u, opts.room, &landed)))
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
    merger.cells.add(&workers.into_cells());
    if let Some(pb) = merger.progress.take() {
        pb.finish_and_clear();
    }
    if INTERRUPTED.load(Ordering::SeqCst) {
        merger.writer.abandon();
        return Err(Interrupted.into());
    }
    if opts.strict && failed.load(Ordering::Relaxed) {
        // A strict run stops after the first batch with a failure and writes nothing.
        merger.writer.abandon();
        return Ok(IngestSummary {
            manifest: merger.manifest,
            written: false,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    let t0 = Instant::now();
    let finished = merger.finish();
    timing("finish", t0.elapsed());
    timing("total", start.elapsed());
    if let Err(e) = finished {
        merger.writer.abandon();
        return Err(e);
    }
    Ok(IngestSummary {
        manifest: merger.manifest,
        written: true,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Hands the memory freed so far back to the system (glibc's `malloc_trim`; elsewhere nothing).
///
/// glibc keeps freed memory in the arena of the thread that allocated it, where other threads
/// do not reuse it: the input listing's paths (about 90 bytes each, allocated by the main
/// thread and freed as their inputs are merged) stayed resident for the whole ingest, 240 MB
/// at 2.58 M inputs; the ingest's own memory stayed resident through the reports, where the
/// peak of a run over 8 copies of its input was 1.3-1.4x the peak over one (BENCHMARKS.md). A
/// call costs a walk of the free lists, so the ingest makes one every [`TRIM_EVERY`] batches.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Batches between two [`return_freed_memory`] calls during an ingest (32 k inputs).
const TRIM_EVERY: usize = 64;

/// With `HAIFU_TIMINGS=1`, prints how long a phase took to stderr (for `make bench`).
pub fn timing(phase: &str, d: std::time::Duration) {
    if std::env::var_os("HAIFU_TIMINGS").is_some() {
        eprintln!("timing: {phase}: {:.3} s", d.as_secs_f64());
    }
}

fn progress_bar(wanted: bool, files: u64) -> Option<ProgressBar> {
    if !wanted || !std::io::stderr().is_terminal() {
        return None;
    }
    // A database input grows the length by its rows when it is opened.
    let pb = ProgressBar::new(files);
    pb.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} inputs  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    Some(pb)
}

/// `--decode-only`: read, decompress and decode every file with the same reader and
/// parallelism, and nothing else. Returns (files, games decoded, events, failures).
pub fn decode_only(inputs: &[PathBuf]) -> (u64, u64, u64, u64) {
    let (files, errors) = input::collect_files(inputs);
    let mut totals = (
        files.len() as u64 + errors.len() as u64,
        0,
        0,
        errors.len() as u64,
    );
    for chunk in files.chunks(BATCH_FILES) {
        let per: Vec<Option<u64>> = chunk
            .par_iter()
            .map_init(
                || (Vec::new(), Vec::new(), GameLog::default()),
                |(raw, inflated, log), p| {
                    let bytes = input::read_log(p, raw, inflated).ok()?;
                    decode_into(bytes, log).ok()?;
                    Some(log.events.len() as u64)
                },
            )
            .collect();
        for r in per {
            match r {
                Some(ev) => {
                    totals.1 += 1;
                    totals.2 += ev;
                }
                None => totals.3 += 1,
            }
        }
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each landed id gives back the path that landed it; other ids are not landed.
    #[test]
    fn landed_ids_give_back_their_paths() {
        let mut landed = LandedIds::default();
        let ids = ["2024041200gm-00a9-0000-0123abcd", "x/y", ""];
        let paths = ["/logs/a.mjlog", "", "/db.sqlite#"];
        for (id, path) in ids.iter().zip(paths) {
            assert!(!landed.contains(id));
            landed.insert(id, path);
        }
        for (id, path) in ids.iter().zip(paths) {
            assert!(landed.contains(id));
            assert_eq!(landed.path(id), Some(path));
        }
        assert!(!landed.contains("2024041200gm-00a9-0000-0123abce"));
        assert_eq!(landed.path("x/z"), None);
    }
}
