//! A worker: one unit of work in, one [`FileResult`] out — read, decompress, decode, filter by
//! room and date, and replay with every observer. Each rayon thread reuses one [`Worker`].

use std::path::Path;
use std::sync::Mutex;

use super::dedup::Landed;
use super::shard::{content_key, Shard};
use super::units::Unit;
use super::{ConvertTo, DateRange, FileResult, Outcome, RoomFilter};
use crate::formats::decode_into;
use crate::frames::GameRows;
use crate::input;
use crate::mjlog::{self, lacks, GameLog};
use crate::reason::{Failure, Reason};
use crate::stats::{self, DrawRateCells, DrawRecord, Observe};

/// What every unit of a run is filtered by.
#[derive(Clone, Copy, Debug)]
pub(super) struct Filters<'a> {
    pub(super) room: RoomFilter,
    pub(super) dates: &'a DateRange,
    /// The optional statistics recorded.
    pub(super) observe: Observe,
    pub(super) convert: Option<ConvertTo>,
    /// Only this shard's inputs are processed (`--shard`); the others are left.
    pub(super) shard: Option<Shard>,
}

/// Reusable buffers of one worker thread, and its share of the run-wide draw-rate counts.
pub(super) struct Worker {
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

    /// Processes one unit: one result, or one per game of a file that holds several (an
    /// array of majiang paipu, named `<path>#<k>`). A panic while processing it (a bug: no
    /// input should cause one) fails that unit with reason `internal-error` instead of taking
    /// the run down.
    pub(super) fn process(
        &mut self,
        unit: Unit,
        filters: Filters,
        landed: &Landed,
    ) -> Vec<FileResult> {
        let (name, shared) = unit.name_and_shared();
        let other_shard = |key: &str| filters.shard.is_some_and(|s| !s.takes(key));
        if let Unit::Decided(r) = unit {
            // An input that could not be read is its shard's by its name.
            if other_shard(&r.name) {
                return vec![FileResult::decided(r.name, Outcome::OtherShard)];
            }
            return vec![r];
        }
        let game_id = unit.game_id();
        // A unit named by a log id (a database row, a file whose name has one) is its shard's
        // by that id; any other by its content, once read.
        let named = matches!(unit, Unit::Row { .. }) || input::is_log_id(&game_id);
        if named && other_shard(&game_id) {
            return vec![FileResult::decided(name, Outcome::OtherShard)];
        }
        if let Some(r) = Self::decided(&name, &game_id, shared, filters, landed) {
            return vec![r];
        }
        let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match unit {
            Unit::File { path, .. } => {
                self.file(&path, &name, &game_id, named, shared, filters, landed)
            }
            Unit::Row {
                name, log_id, blob, ..
            } => {
                self.draws.clear();
                let outcome = self.row_outcome(&name, &log_id, &blob, filters);
                vec![self.result(name.clone(), outcome, shared)]
            }
            Unit::Decided(_) => unreachable!("returned above"),
        }));
        results.unwrap_or_else(|panic| {
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
            let outcome = Outcome::Failed {
                game_id: None,
                reason: Failure::new(
                    Reason::InternalError,
                    format!("haifu panicked on this input: {msg}"),
                ),
            };
            vec![FileResult::decided(name, outcome)]
        })
    }

    /// The result of a game decided before it is read: a copy of a game already landed, or
    /// one outside the run's dates.
    fn decided(
        name: &str,
        game_id: &str,
        shared: bool,
        filters: Filters,
        landed: &Landed,
    ) -> Option<FileResult> {
        let game_id = game_id.to_string();
        if shared
            && landed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(&game_id)
        {
            return Some(FileResult::decided(
                name.to_string(),
                Outcome::Duplicate { game_id },
            ));
        }
        if !filters.dates.keeps(&game_id) {
            let reason = Failure::new(Reason::Date, filters.dates.describe(&game_id));
            let outcome = Outcome::Skipped { game_id, reason };
            return Some(FileResult::decided(name.to_string(), outcome));
        }
        None
    }

    /// One game's result: a game that replayed whole has its draws counted, here, or (when an
    /// earlier input may hold the same game) in the merger if this copy lands.
    fn result(&mut self, name: String, outcome: Outcome, shared: bool) -> FileResult {
        let outcome = match outcome {
            Outcome::Ok(mut rows) => {
                // A game known by its content may be a copy of another input's.
                if shared || rows.content.is_some() {
                    rows.draws = std::mem::take(&mut self.draws);
                } else {
                    self.cells
                        .commit(&self.draws, stats::fold_of(&rows.game_id));
                }
                Outcome::Ok(rows)
            }
            o => o,
        };
        FileResult {
            name,
            outcome,
            unknown_tags: std::mem::take(&mut self.log.unknown_tags),
        }
    }

    /// A file: one game, or several (an array of majiang paipu). A file whose name has no
    /// log id (`named` false) is known by its content too, and is its shard's by it.
    #[allow(clippy::too_many_arguments)]
    fn file(
        &mut self,
        path: &Path,
        name: &str,
        game_id: &str,
        named: bool,
        shared: bool,
        filters: Filters,
        landed: &Landed,
    ) -> Vec<FileResult> {
        self.draws.clear();
        self.log.unknown_tags.clear();
        let other_shard = |key: &str| filters.shard.is_some_and(|s| !s.takes(key));
        let bytes = match input::read_log(path, &mut self.raw, &mut self.inflated) {
            Ok(b) => b,
            Err(reason) => {
                if !named && other_shard(name) {
                    return vec![FileResult::decided(name.to_string(), Outcome::OtherShard)];
                }
                let outcome = Outcome::Failed {
                    game_id: None,
                    reason,
                };
                return vec![FileResult::decided(name.to_string(), outcome)];
            }
        };
        let content = (!named).then(|| content_key(bytes));
        if content.as_deref().is_some_and(other_shard) {
            return vec![FileResult::decided(name.to_string(), Outcome::OtherShard)];
        }
        // An array of paipu borrows its own copy of the bytes (the worker's buffers are
        // reused by each game's replay).
        let owned;
        let paipu = if crate::formats::majiang::may_be_many(bytes) {
            owned = bytes.to_vec();
            crate::formats::majiang::many(&owned)
        } else {
            None
        };
        let Some(paipu) = paipu else {
            let source = path.display().to_string();
            let outcome = process_document(
                |log| decode_into(bytes, log),
                game_id,
                &source,
                content,
                filters,
                &mut self.log,
                &mut self.draws,
            );
            return vec![self.result(name.to_string(), outcome, shared)];
        };
        // Each paipu is a game of its own, named by its title's log id or its place; any of
        // them may repeat another input's game.
        let mut results = Vec::with_capacity(paipu.len());
        for (k, p) in paipu.iter().enumerate() {
            let name = format!("{name}#{k}");
            let titled = crate::formats::majiang::game_id(p);
            // A paipu without a log id is known by the array's content and its place in it.
            let content = match (&titled, &content) {
                (None, Some(c)) => Some(format!("{c}#{k}")),
                _ => None,
            };
            let id = titled.unwrap_or_else(|| format!("{game_id}#{k}"));
            if let Some(r) = Self::decided(&name, &id, true, filters, landed) {
                results.push(r);
                continue;
            }
            self.draws.clear();
            let outcome = process_document(
                |log| crate::formats::majiang::read_one(p, log),
                &id,
                &name,
                content,
                filters,
                &mut self.log,
                &mut self.draws,
            );
            results.push(self.result(name, outcome, true));
        }
        results
    }

    /// A database row: gzip, bzip2 or plain XML by content.
    fn row_outcome(&mut self, name: &str, log_id: &str, blob: &[u8], filters: Filters) -> Outcome {
        self.log.unknown_tags.clear();
        let failed = |reason| Outcome::Failed {
            game_id: Some(log_id.to_string()),
            reason,
        };
        let bytes: &[u8] = if crate::logdb::is_bzip2(blob) {
            if let Err(e) = crate::logdb::bunzip2(blob, &mut self.inflated, input::MAX_LOG_BYTES) {
                return failed(Failure::new(Reason::CorruptBzip2, e));
            }
            &self.inflated
        } else {
            match input::decompress(blob, &mut self.inflated) {
                Ok(b) => b,
                Err(e) => return failed(e),
            }
        };
        process_document(
            |log| decode_into(bytes, log),
            log_id,
            name,
            None,
            filters,
            &mut self.log,
            &mut self.draws,
        )
    }
}

/// Decodes and replays one document with every observer. Shared by files and database rows.
/// The game's draw records are left in `draws` (meaningful only when the game replayed).
/// `content` is what identifies the document's content when it is known by it.
fn process_document(
    decode: impl FnOnce(&mut GameLog) -> Result<(), Failure>,
    game_id: &str,
    source: &str,
    content: Option<String>,
    filters: Filters,
    log: &mut GameLog,
    draws: &mut Vec<DrawRecord>,
) -> Outcome {
    if let Err(reason) = decode(log) {
        if reason.reason.is_skip() {
            return Outcome::Skipped {
                game_id: game_id.to_string(),
                reason,
            };
        }
        return Outcome::Failed {
            game_id: Some(game_id.to_string()),
            reason,
        };
    }
    // The log's own id (a tenhou.net/6 `ref`) names the game; else its file does.
    let game_id = log
        .origin
        .game_id
        .clone()
        .unwrap_or_else(|| game_id.to_string());
    let game_id = game_id.as_str();
    crate::formats::rules_from_log_id(log, game_id);
    let failed = |reason: Failure| Outcome::Failed {
        game_id: Some(game_id.to_string()),
        reason,
    };
    let skipped = |reason: Reason, detail: String| Outcome::Skipped {
        game_id: game_id.to_string(),
        reason: Failure::new(reason, detail),
    };
    let Some(go) = log.go_type else {
        return failed(Failure::new(Reason::NoGo, "the log has no GO tag"));
    };
    if go > mjlog::go_type::STANDARD_MAX {
        return skipped(
            Reason::UnknownRules,
            format!("GO type {go} (0x{go:x}) is a rule set other than Tenhou's standard rules"),
        );
    }
    let game_room = log.origin.room.unwrap_or_else(|| mjlog::room_of(go));
    if !filters.room.keeps(game_room) {
        return skipped(
            Reason::Room,
            format!("{game_room} (filter {})", filters.room.name()),
        );
    }
    // tenhou.net/6 writes every win's yaku, fu and points and every draw's type.
    if filters.convert == Some(ConvertTo::Tenhou6)
        && log.origin.lacks(lacks::WIN_VALUE | lacks::DRAW_KIND)
    {
        return skipped(
            Reason::Unconvertible,
            format!(
                "read from {}, which records no yaku, fu or points (or no draw's type), which tenhou.net/6 writes for every hand",
                log.origin.format.name()
            ),
        );
    }
    // A conversion needs the replay's proof, not the statistics.
    let observed = if filters.convert.is_some() {
        stats::prove_game(log)
    } else {
        stats::observe_game_with(log, draws, filters.observe)
    };
    match observed {
        Ok(obs) => Outcome::Ok(Box::new(GameRows {
            game_id: game_id.to_string(),
            source: source.to_string(),
            content,
            obs,
            draws: Vec::new(),
            converted: filters.convert.map(|to| convert(log, game_id, to)),
        })),
        Err(e) => failed(Failure::new(Reason::Replay, e.to_string())),
    }
}

/// One reusable [`Worker`] per thread of the rayon pool running this ingest, so buffers and
/// the dense draw-rate cells are allocated once per thread, not once per parallel split.
pub(super) struct Workers(Vec<Mutex<Worker>>);

impl Workers {
    pub(super) fn new() -> Self {
        // The last one serves a caller outside the pool.
        Workers(
            (0..=rayon::current_num_threads())
                .map(|_| Mutex::new(Worker::new()))
                .collect(),
        )
    }

    /// Each worker's draw-rate counts, added into the run's by the side of the run's end that
    /// writes `draw_rate` (integers: the sum does not depend on the order).
    pub(super) fn into_cells(self) -> Vec<DrawRateCells> {
        self.0
            .into_iter()
            .map(|w| w.into_inner().unwrap_or_else(|e| e.into_inner()).cells)
            .collect()
    }

    pub(super) fn with<R>(&self, f: impl FnOnce(&mut Worker) -> R) -> R {
        let last = self.0.len() - 1;
        let i = rayon::current_thread_index().map_or(last, |i| i.min(last));
        let mut w = self.0[i].lock().unwrap_or_else(|e| e.into_inner());
        f(&mut w)
    }
}

/// The game written as `to` (mjai gzip'd, as Mortal reads it).
fn convert(log: &GameLog, game_id: &str, to: ConvertTo) -> Vec<u8> {
    use std::io::Write as _;
    let mut text = String::new();
    match to {
        ConvertTo::Mjai => {
            crate::formats::mjai::write(log, &mut text);
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(text.as_bytes()).expect("writing to memory");
            gz.finish().expect("writing to memory")
        }
        ConvertTo::Tenhou6 => {
            crate::formats::tenhou6::write(log, game_id, &mut text);
            text.into_bytes()
        }
    }
}
