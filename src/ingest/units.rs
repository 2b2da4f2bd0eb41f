//! The run's inputs as units of work, in sorted path order: files (sniffed for log databases
//! a batch ahead), and each log database's rows in log-id order, read a page at a time.

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::{FileResult, Outcome};
use crate::input::game_id_for;
use crate::logdb::LogDb;
use crate::reason::{Failure, Reason};

/// One unit of work: a file, a row of a log database, or an input already decided (a
/// database that cannot be opened, a row the downloader never fetched).
///
/// `shared` is set when an earlier input of the run may hold the same log id, so this copy
/// lands only if every earlier one failed (see the merger): such a game's draw-rate records
/// go to the merger instead of straight into the worker's accumulator, and it is not
/// processed at all once an earlier copy has landed.
pub(super) enum Unit {
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

impl Unit {
    /// The manifest name of the unit and whether an earlier input may share its log id.
    pub(super) fn name_and_shared(&self) -> (String, bool) {
        match self {
            Unit::File { path, shared } => (path.display().to_string(), *shared),
            Unit::Row { name, shared, .. } => (name.clone(), *shared),
            Unit::Decided(_) => (String::new(), false),
        }
    }

    /// The unit's log id as the run names its game.
    pub(super) fn game_id(&self) -> String {
        match self {
            Unit::File { path, .. } => game_id_for(path),
            Unit::Row { log_id, .. } => log_id.clone(),
            Unit::Decided(_) => String::new(),
        }
    }
}

/// The run's inputs as batches of units.
pub(super) struct Units {
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
    db: Option<(PathBuf, LogDb, Option<String>)>,
    progress: Option<ProgressBar>,
}

impl Units {
    /// A path is marked as repeated when the 64-bit hash of its log id was seen before: a
    /// collision between two different ids only makes the later one check the landed ids
    /// (and find nothing), so it costs nothing in correctness, and no id is kept per path.
    /// With `after_landed` (games landed before the run: an append), every input may repeat
    /// one of them.
    pub(super) fn new(
        files: Vec<PathBuf>,
        progress: Option<ProgressBar>,
        after_landed: bool,
    ) -> Self {
        use std::hash::{Hash, Hasher};
        let rows_shared = files.len() > 1 || after_landed;
        let mut seen: HashSet<u64> = HashSet::with_capacity(files.len());
        let mut inputs: Vec<(PathBuf, bool)> = files
            .into_iter()
            .map(|p| {
                let mut h = std::hash::DefaultHasher::new();
                game_id_for(&p).hash(&mut h);
                let repeated = !seen.insert(h.finish()) || after_landed;
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
    pub(super) fn unsniffed(&mut self, n: usize) -> Vec<(PathBuf, bool)> {
        let mut taken = self.inputs.split_off(self.inputs.len().saturating_sub(n));
        taken.reverse();
        if self.inputs.len() < self.inputs.capacity() / 2 {
            self.inputs.shrink_to_fit();
        }
        taken
    }

    pub(super) fn add_sniffed(&mut self, inputs: Vec<(PathBuf, bool)>, is_db: Vec<bool>) {
        let sniffed = inputs.into_iter().zip(is_db).map(|((p, r), db)| (p, r, db));
        self.sniffed.extend(sniffed);
    }

    /// The next batch of at most `n` units; empty when the inputs are exhausted.
    pub(super) fn next_batch(&mut self, n: usize) -> Vec<Unit> {
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
                        batch.push(Unit::Decided(FileResult::decided(
                            path.display().to_string(),
                            Outcome::Failed {
                                game_id: None,
                                reason: Failure::new(Reason::UnreadableDatabase, e),
                            },
                        )));
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
                        Err(reason) => Unit::Decided(FileResult::decided(
                            name,
                            Outcome::Skipped {
                                game_id: r.log_id,
                                reason,
                            },
                        )),
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
            match LogDb::open(&path) {
                Ok(db) => {
                    if let Some(pb) = &self.progress {
                        // The database stands for its rows, not one input.
                        pb.inc_length(db.row_count().saturating_sub(1));
                    }
                    self.db = Some((path, db, None))
                }
                Err(reason) => batch.push(Unit::Decided(FileResult::decided(
                    path.display().to_string(),
                    Outcome::Failed {
                        game_id: None,
                        reason,
                    },
                ))),
            }
        }
        batch
    }
}

/// Whether each input is a log database (by its first bytes), in parallel.
pub(super) fn sniff(inputs: &[(PathBuf, bool)]) -> Vec<bool> {
    inputs
        .par_iter()
        .map(|(p, _)| crate::logdb::is_sqlite(p))
        .collect()
}
