//! The merging side of a run: results accounted for in file order, landed games' rows added
//! to the frames and the run totals, and at the end the run-wide frames, the `phoenix-table`
//! tail and the manifest, renamed into place together.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Result;
use indicatif::ProgressBar;
use polars::prelude::DataFrame;

use super::dedup::{Landed, LandedIds};
use super::{ConvertTo, FileResult, Outcome};
use crate::danger::{CategoryTable, Estimator};
use crate::frames::{self, FrameWriter, PendingFrames};
use crate::manifest::{FileEntry, Manifest, Status, WallStatus};
use crate::mjlog;
use crate::reason::{Failure, Reason};
use crate::report::danger::{evaluate_file_on, Among, SITUATION_ROWS};
use crate::report::tsumo;
use crate::rules::Players;
use crate::runtime::{check_interrupt, timing};
use crate::stats::{fold_of, DrawRateCells, Observe, RunTotals};

/// The tables whose run-wide figures a run keeps apart, in the order the run-wide frames
/// list them.
pub(super) const TABLES: [Players; 2] = [Players::Four, Players::Three];

/// The index of a table in [`TABLES`].
pub(super) fn table(players: Players) -> usize {
    match players {
        Players::Four => 0,
        Players::Three => 1,
    }
}

/// What the merging side of a run accumulates, in file order.
pub(super) struct Merger {
    pub(super) manifest: Manifest,
    pub(super) writer: FrameWriter,
    /// Rows of the per-game frames not yet written (a row group at a time).
    frames: PendingFrames,
    /// The optional statistics recorded (and their frames written).
    observe: Observe,
    /// Draw-rate counts of landed games whose log id another input also has; the workers'
    /// counts are added at the end.
    pub(super) cells: DrawRateCells,
    /// §2 counts per category and the built-in estimators' §4 totals of landed games, per
    /// table ([`TABLES`]: four players, three): no run-wide figure pools them (§24).
    totals: [RunTotals; 2],
    /// Landed log ids and the path that landed them (workers read it to skip later copies).
    pub(super) landed: Arc<Landed>,
    games_done: u64,
    pub(super) progress: Option<ProgressBar>,
    start: Instant,
    /// Landed games are written converted, and no frame (`haifu convert`).
    convert: Option<ConvertTo>,
    /// The first converted game that could not be written (ends the run).
    write_error: Option<String>,
    /// Score `phoenix-table` and write its rows as the run finishes (false for the games of
    /// an append, whose `phoenix-table` is scored over the whole directory when they join it).
    pub(super) score_phoenix: bool,
    /// Row groups after which a per-game frame goes on in a new part
    /// ([`frames::PART_ROW_GROUPS`]; `HAIFU_TEST_PART_ROW_GROUPS` for the tests).
    part_row_groups: usize,
}

impl Merger {
    pub(super) fn new(
        manifest: Manifest,
        writer: FrameWriter,
        progress: Option<ProgressBar>,
        start: Instant,
        observe: Observe,
        convert: Option<ConvertTo>,
        landed: LandedIds,
    ) -> Self {
        Merger {
            manifest,
            writer,
            frames: PendingFrames::new(observe),
            observe,
            cells: DrawRateCells::default(),
            totals: Default::default(),
            landed: Arc::new(Landed::new(landed)),
            games_done: 0,
            progress,
            start,
            convert,
            write_error: None,
            score_phoenix: true,
            part_row_groups: std::env::var("HAIFU_TEST_PART_ROW_GROUPS")
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .unwrap_or(frames::PART_ROW_GROUPS),
        }
    }

    /// Accounts for one batch of results (in file order) and writes its rows.
    pub(super) fn merge(&mut self, results: Vec<FileResult>) -> Result<()> {
        let files = results.len() as u64;
        for r in results {
            if matches!(r.outcome, Outcome::OtherShard) {
                self.manifest.totals.other_shards += 1;
                continue;
            }
            let entry = self.account(r);
            self.manifest.push(entry)?;
        }
        if let Some(e) = self.write_error.take() {
            anyhow::bail!(e);
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
        // A later copy of a landed game (same log id, or same content): skipped, whether or
        // not a worker processed it first (and its unknown tags, the same game's, are not
        // counted again).
        let duplicate_of = match &r.outcome {
            Outcome::Ok(rows) => {
                landed_as(&rows.game_id).or_else(|| rows.content.as_deref().and_then(landed_as))
            }
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
            wall: None,
            wall_reason: None,
            proofs: None,
            content: None,
        };
        if let Some(first) = duplicate_of {
            let game_id = match r.outcome {
                Outcome::Ok(rows) => rows.game_id,
                Outcome::Duplicate { game_id } => game_id,
                _ => unreachable!("only landed-or-duplicate outcomes have a first copy"),
            };
            return entry(
                Status::Skipped,
                Some(Failure::new(
                    Reason::Duplicate,
                    format!("same game as {first}"),
                )),
                Some(game_id),
            );
        }
        match r.outcome {
            Outcome::Ok(rows) => {
                {
                    let mut landed = self.landed.lock().unwrap_or_else(|e| e.into_inner());
                    landed.insert(&rows.game_id, &path);
                    if let Some(c) = &rows.content {
                        landed.insert(c, &path);
                    }
                }
                if let (Some(bytes), Some(to)) = (&rows.converted, self.convert) {
                    let name = to.file_name(&rows.game_id);
                    if let Err(e) = self
                        .writer
                        .write_file(&name, |w| std::io::Write::write_all(w, bytes))
                    {
                        self.write_error
                            .get_or_insert(format!("cannot write {name}: {e}"));
                    }
                } else {
                    self.frames.push(&rows);
                    self.cells.commit(&rows.draws, fold_of(&rows.game_id));
                    self.totals[table(rows.obs.facts.players)] += &rows.obs;
                }
                let facts = &rows.obs.facts;
                let draws: u64 = facts.hands.iter().map(|h| h.draws as u64).sum();
                self.manifest
                    .note_game(&rows.game_id, mjlog::room_of(facts.go_type), draws);
                let wall = &facts.wall;
                self.manifest
                    .note_wall(wall.hands, wall.draws, wall.indicators);
                let wins = facts.hands.iter().map(|h| u32::from(h.wins)).sum();
                let proved = facts.hands.iter().map(|h| u32::from(h.wins_proved)).sum();
                self.manifest.note_wins(wins, proved);
                self.games_done += 1;
                FileEntry {
                    games: 1,
                    hands: facts.hands.len() as u32,
                    wall: Some(if wall.unchecked.is_some() {
                        WallStatus::Unchecked
                    } else {
                        WallStatus::Checked
                    }),
                    wall_reason: wall.unchecked.clone(),
                    proofs: Some(facts.proofs.names().map(str::to_string).collect()),
                    content: rows.content.clone(),
                    ..entry(Status::Ok, None, Some(rows.game_id.clone()))
                }
            }
            Outcome::Skipped { game_id, reason } => {
                entry(Status::Skipped, Some(reason), Some(game_id))
            }
            Outcome::Failed { game_id, reason } => entry(Status::Failed, Some(reason), game_id),
            Outcome::Duplicate { .. } => unreachable!("handled above"),
            Outcome::OtherShard => unreachable!("not accounted for"),
        }
    }

    /// Writes the per-game frames' pending rows that fill a row group, or with `all` every
    /// pending row.
    /// A frame's file that reaches `part_row_groups` row groups is finished, and its next
    /// rows start a new part.
    fn write_frames(&mut self, all: bool) -> Result<()> {
        for (f, chunk) in self.frames.take_ready(all) {
            let name = self.frames.name(f);
            self.writer.write_chunk(name, &chunk)?;
            if frames::rolls(name) && self.writer.row_groups(name) >= self.part_row_groups {
                self.writer.roll(name)?;
            }
        }
        Ok(())
    }

    /// Writes the run-wide frames and the manifest, then renames everything into place; with
    /// `validate`, also scores the §8 tsumo-rate models over the finished `tenpai_draws` file
    /// while `phoenix-table` is scored (both read finished files). The two run side by side,
    /// each with the frames it reads: `phoenix-table` finishes `danger_situations` and
    /// `danger_eval`'s built-in rows before it reads the one and appends to the other; the
    /// §8 side adds the workers' draw-rate counts (`worker_cells`) into the run's, finishes
    /// `tenpai_draws`, and writes every other frame's last rows and `draw_rate`.
    pub(super) fn finish(
        &mut self,
        validate: bool,
        worker_cells: Vec<DrawRateCells>,
    ) -> Result<Option<DataFrame>> {
        if self.convert.is_some() {
            check_interrupt()?;
            self.writer
                .write_file("manifest.json", |w| self.manifest.write_json(w))?;
            self.writer.commit("manifest.json")?;
            return Ok(None);
        }
        let t0 = Instant::now();
        // A frame's pending rows, then a chunk without rows (it opens the frame's file with
        // its schema when the frame has no rows, and adds nothing to a file already open).
        // Each frame's file is written in order by one side alone, so the bytes do not depend
        // on timing.
        let scoring_side =
            |name: &str| [frames::DANGER_EVAL, frames::DANGER_SITUATIONS].contains(&name);
        let pending: Vec<(&str, frames::FrameChunk)> = self
            .frames
            .take_ready(true)
            .into_iter()
            .map(|(f, chunk)| (self.frames.name(f), chunk))
            .chain(PendingFrames::empty_chunks(self.observe))
            .collect();
        let (scoring, others): (Vec<_>, Vec<_>) = pending
            .into_iter()
            .partition(|(name, _)| scoring_side(name));
        let (validation_side, rest): (Vec<_>, Vec<_>) = others
            .into_iter()
            .partition(|(name, _)| *name == frames::TENPAI_DRAWS);
        // The tables the run has games of, each scored with its own `phoenix-table` (a
        // four-player run scores one, over the whole file, as before version 5).
        let mut present: Vec<Players> = TABLES
            .into_iter()
            .filter(|&p| self.totals[table(p)].games > 0)
            .collect();
        if present.is_empty() {
            present.push(Players::Four);
        }
        // What an append or a merge needs to build the run-wide frames again: the totals
        // before `phoenix-table`'s own are added.
        let run_totals = &self.totals;
        self.writer.write_file(super::run_totals::FILE, |w| {
            super::run_totals::write(w, run_totals)
        })?;
        let score_phoenix = self.score_phoenix;
        let mixed = present.len() > 1;
        let tables: Vec<(Players, CategoryTable)> = present
            .into_iter()
            .map(|p| (p, self.totals[table(p)].phoenix_table(p)))
            .collect();
        let writer = Mutex::new(&mut self.writer);
        let lock = || writer.lock().unwrap_or_else(|e| e.into_inner());
        let write = |name: &str, chunk: &frames::FrameChunk| -> Result<()> {
            Ok(lock().write_chunk(name, chunk)?)
        };
        let cells = &mut self.cells;
        let (scored, validation) = rayon::join(
            || {
                for (name, chunk) in &scoring {
                    write(name, chunk)?;
                }
                // `phoenix-table` needs the whole run's §2 rates: score it over the finished
                // situations file and append its rows to the built-in estimators' ones.
                lock().finish_frame(frames::DANGER_SITUATIONS)?;
                let situations = lock().temp_files(frames::DANGER_SITUATIONS);
                let t = Instant::now();
                let mut scored = Vec::new();
                for (players, phoenix) in tables.iter().filter(|_| score_phoenix) {
                    let among = Among {
                        keep: None,
                        players: *players,
                        only: mixed,
                    };
                    let (totals, _) = evaluate_file_on(
                        &situations,
                        &[Estimator::Table(phoenix.clone())],
                        Estimator::BUILTINS.len(),
                        SITUATION_ROWS,
                        among,
                        |eval| write(frames::DANGER_EVAL, eval),
                    )?;
                    scored.push((*players, totals));
                }
                timing("  phoenix-table side", t.elapsed());
                Ok::<_, anyhow::Error>(scored)
            },
            || -> Result<Option<DataFrame>> {
                let t = Instant::now();
                for c in &worker_cells {
                    *cells += c;
                }
                for (name, chunk) in &validation_side {
                    write(name, chunk)?;
                }
                let draw_rate = frames::draw_rate_frame(cells)?;
                let df = if validate {
                    lock().finish_frame(frames::TENPAI_DRAWS)?;
                    let tenpai_draws = lock().temp_files(frames::TENPAI_DRAWS);
                    // The default table's draws (the run scores the other's itself).
                    let only = mixed.then_some(tables[0].0);
                    Some(tsumo::report_from(&draw_rate, &tenpai_draws, None, only)?)
                } else {
                    None
                };
                timing("  tsumo validation", t.elapsed());
                for (name, chunk) in &rest {
                    write(name, chunk)?;
                }
                lock().write("draw_rate", &draw_rate)?;
                timing("  tsumo side", t.elapsed());
                Ok(df)
            },
        );
        let scored = scored?;
        let validation = validation?;
        timing("  read, evaluate, write", t0.elapsed());
        let t1 = Instant::now();
        for (players, totals) in scored {
            self.totals[table(players)].eval += totals;
        }
        let evals: Vec<(Players, &crate::danger::EvalTotals)> = tables
            .iter()
            .map(|(p, _)| (*p, &self.totals[table(*p)].eval))
            .collect();
        frames::write_danger_totals(&mut self.writer, &evals)?;
        timing("  write", t1.elapsed());
        let t1 = Instant::now();
        self.writer.finish()?;
        timing("  finish", t1.elapsed());
        timing("phoenix-table scoring", t0.elapsed());
        // Last chance to stop before anything is renamed into place.
        check_interrupt()?;
        self.writer
            .write_file("manifest.json", |w| self.manifest.write_json(w))?;
        self.writer.commit("manifest.json")?;
        Ok(validation)
    }
}
