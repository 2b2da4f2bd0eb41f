//! `haifu review`: any mjai bot driven over a corpus, every §23 decision of every reviewed seat
//! scored against what the player did (docs/review.md).
//!
//! The games are those of a frames directory, read again from the logs its manifest names
//! ([`crate::again`]), a §9 slice or an even sample of them when asked. Each (game,
//! seat) is a job: `--jobs` worker threads each take the next job, start the bot for the seat
//! (or reuse the one that served its last game of that seat, `--reuse`), and run a
//! [`session::review`]. The main thread collects the results, shows progress, and writes the
//! frames `reviews` (one row per decision) and `review_failures` (one row per failed (game,
//! seat)) into `--out` as it goes, so that an interrupted review resumes (`--resume` skips the
//! (game, seat) pairs already in the frame): `reviews` in parts (`reviews/part-NNNNN.parquet`,
//! [`crate::frames::dataset`]), one written whenever [`PART_ROWS`] rows are pending, every
//! minute and at the end; `review_failures` whole each time (a row per failed pair: few).
//!
//! Invariants: the frames hold the pairs in job order (game order, then seat), whatever the
//! number of workers; a failed pair contributes no decision; memory holds at most
//! [`PART_ROWS`] decisions and a (game, seat) key per pair, however large the corpus; the
//! report is computed from the `reviews` frame alone, a part at a time, so a resumed review
//! reports the same as an uninterrupted one.

pub(crate) mod bot;
pub(crate) mod session;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use polars::prelude::*;

use crate::again::{self, Landed, Reader};
use crate::frames::dataset;
use crate::mjlog::GameLog;
use crate::replay::legal::DecisionKind;
use crate::report::slice::Slice;
use bot::Bot;
use session::{Failed, Reviewed, Style};

/// What `haifu review` runs.
pub(crate) struct Options {
    pub(crate) frames: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) cmd: String,
    pub(crate) name: String,
    pub(crate) seats: Vec<u8>,
    pub(crate) jobs: usize,
    pub(crate) limit_games: Option<usize>,
    pub(crate) timeout: Duration,
    pub(crate) slice: Option<Slice>,
    pub(crate) style: Style,
    pub(crate) reuse: bool,
    pub(crate) resume: bool,
    pub(crate) progress: bool,
}

/// One (game, seat) reviewed.
struct Done {
    job: usize,
    result: Result<Vec<Reviewed>, Failed>,
}

/// The frames as they are written: the decisions not yet in a part of `reviews`, and every
/// failure (rewritten whole with each part).
struct Output {
    dir: PathBuf,
    next_part: usize,
    pending: Vec<ReviewRow>,
    failures: Vec<FailureRow>,
}

impl Output {
    /// Writes the pending decisions as the next part of `reviews`, then `review_failures`.
    fn flush(&mut self) -> Result<()> {
        if !self.pending.is_empty() {
            let mut df = reviews_frame(&self.pending)?;
            dataset::write_part(&self.dir, REVIEWS, self.next_part, &mut df)?;
            self.next_part += 1;
            self.pending.clear();
        }
        write_failures(&self.dir, &self.failures)
    }

    /// The last [`Output::flush`]; a review without a decision still has its `reviews` frame
    /// (a part without rows), so that its columns can be read.
    fn finish(&mut self) -> Result<()> {
        self.flush()?;
        if !dataset::exists(&self.dir, REVIEWS) {
            dataset::write_part(&self.dir, REVIEWS, 0, &mut reviews_frame(&[])?)?;
        }
        Ok(())
    }
}

/// The frame of the decisions.
const REVIEWS: &str = "reviews";
/// The frame of the failed pairs.
const FAILURES: &str = "review_failures";

/// Decisions held before they are written as a part of `reviews` (about 30 MB of rows).
const PART_ROWS: usize = 1 << 16;

/// A row of the `reviews` frame (a game's id and the engine's name are shared by its rows).
#[derive(Clone, Debug)]
pub(crate) struct ReviewRow {
    pub(crate) game_id: Arc<str>,
    pub(crate) seat: u8,
    pub(crate) bot: Arc<str>,
    pub(crate) r: Reviewed,
}

/// A row of the `review_failures` frame.
#[derive(Clone, Debug)]
pub(crate) struct FailureRow {
    pub(crate) game_id: String,
    pub(crate) seat: u8,
    pub(crate) bot: String,
    pub(crate) reason: String,
    pub(crate) detail: String,
    pub(crate) event: String,
}

/// The outcome of a review: pairs reviewed now and before (resumed), and failures.
pub(crate) struct Summary {
    pub(crate) pairs: usize,
    pub(crate) resumed: usize,
    pub(crate) failed: usize,
    pub(crate) decisions: u64,
}

/// Time between two checkpoints of the frames (each writes them whole: a checkpoint per so
/// many pairs made a fast bot's review of a whole corpus quadratic).
const CHECKPOINT: Duration = Duration::from_secs(60);

/// `k` of `n` indices spread evenly (all when `k ≥ n`).
pub(crate) fn even_sample(n: usize, k: usize) -> Vec<usize> {
    if k >= n {
        return (0..n).collect();
    }
    (0..k).map(|i| i * n / k).collect()
}

/// Runs the review of `opts`, writes its frames, and returns its summary.
pub(crate) fn run(opts: &Options) -> Result<Summary> {
    let all = again::games(
        &opts.frames,
        opts.slice.as_ref().map(Slice::id_set).transpose()?.as_ref(),
    )?;
    let games: Vec<Landed> = match opts.limit_games {
        Some(k) => even_sample(all.len(), k)
            .into_iter()
            .map(|i| all[i].clone())
            .collect(),
        None => all,
    };
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("cannot create {}", opts.out.display()))?;
    let mut done_before: HashSet<(String, u8)> = HashSet::new();
    let mut failures = Vec::new();
    let mut decisions_before = 0;
    if opts.resume {
        failures = read_failures(&opts.out)?;
        for_each_row(&opts.out, |r| {
            decisions_before += 1;
            done_before.insert((r.game_id.to_string(), r.seat));
        })?;
    } else {
        // A new review replaces an earlier one in `--out`.
        dataset::remove(&opts.out, REVIEWS)?;
        dataset::remove(&opts.out, FAILURES)?;
    }
    let mut out = Output {
        next_part: dataset::next_part(&opts.out, REVIEWS),
        dir: opts.out.clone(),
        pending: Vec::new(),
        failures,
    };
    let jobs: Vec<(usize, u8)> = games
        .iter()
        .enumerate()
        .flat_map(|(g, game)| {
            opts.seats
                .iter()
                .filter(|&&s| !done_before.contains(&(game.game_id.clone(), s)))
                .map(move |&s| (g, s))
        })
        .collect();
    // Failed pairs of this run's games are tried again; the others' failures are kept.
    let retried: HashSet<(&str, u8)> = jobs
        .iter()
        .map(|&(g, s)| (games[g].game_id.as_str(), s))
        .collect();
    out.failures
        .retain(|f| !retried.contains(&(f.game_id.as_str(), f.seat)));
    drop(retried);
    let resumed = opts
        .seats
        .len()
        .saturating_mul(games.len())
        .saturating_sub(jobs.len());
    let progress = crate::runtime::progress_bar(opts.progress, jobs.len() as u64);
    if let Some(p) = &progress {
        p.set_message(format!("(game, seat) pairs of {}", opts.name));
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Done>();
    let mut failed = 0;
    let mut pending: BTreeMap<usize, Done> = BTreeMap::new();
    let mut written_upto = 0;
    let mut last_checkpoint = std::time::Instant::now();
    let mut since_checkpoint = 0;
    let mut decisions_now = 0u64;
    let engine: Arc<str> = Arc::from(opts.name.as_str());
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..opts.jobs.max(1) {
            let tx = tx.clone();
            let (jobs, games, next) = (&jobs, &games, &next);
            scope.spawn(move || worker(opts, jobs, games, next, tx));
        }
        drop(tx);
        for done in rx {
            pending.insert(done.job, done);
            // Results are added in job order.
            while let Some(d) = pending.remove(&written_upto) {
                let (g, seat) = jobs[d.job];
                let game_id = &games[g].game_id;
                match d.result {
                    Ok(rows) => {
                        let id: Arc<str> = Arc::from(game_id.as_str());
                        decisions_now += rows.len() as u64;
                        out.pending.extend(rows.into_iter().map(|r| ReviewRow {
                            game_id: id.clone(),
                            seat,
                            bot: engine.clone(),
                            r,
                        }))
                    }
                    Err(f) => {
                        failed += 1;
                        eprintln!(
                            "haifu: review: game {game_id} seat {seat}: the bot failed ({}): {}{}",
                            f.fault.reason,
                            f.fault.detail,
                            if f.event.is_empty() {
                                String::new()
                            } else {
                                format!("; it was answering {}", f.event)
                            }
                        );
                        out.failures.push(FailureRow {
                            game_id: game_id.clone(),
                            seat,
                            bot: opts.name.clone(),
                            reason: f.fault.reason.to_string(),
                            detail: f.fault.detail,
                            event: f.event,
                        });
                    }
                }
                written_upto += 1;
                since_checkpoint += 1;
                if let Some(p) = &progress {
                    p.inc(1);
                }
            }
            if out.pending.len() >= PART_ROWS
                || (since_checkpoint > 0 && last_checkpoint.elapsed() >= CHECKPOINT)
            {
                since_checkpoint = 0;
                out.flush()?;
                last_checkpoint = std::time::Instant::now();
            }
        }
        Ok(())
    })?;
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    out.finish()?;
    if crate::runtime::interrupted() {
        return Err(crate::runtime::InterruptedKept(format!(
            "{} (game, seat) pairs reviewed are in {} ({} of them before this run); \
             --resume goes on from there",
            written_upto + resumed,
            opts.out.display(),
            resumed
        ))
        .into());
    }
    Ok(Summary {
        pairs: written_upto,
        resumed,
        failed,
        decisions: decisions_before + decisions_now,
    })
}

/// A worker thread: takes jobs until none is left (or the run is interrupted).
fn worker(
    opts: &Options,
    jobs: &[(usize, u8)],
    games: &[Landed],
    next: &AtomicUsize,
    tx: mpsc::Sender<Done>,
) {
    let mut reader = Reader::default();
    let mut log = GameLog::default();
    // A bot per seat kept between games (`--reuse`).
    let mut kept: [Option<Bot>; 4] = Default::default();
    loop {
        if crate::runtime::interrupted() {
            return;
        }
        let job = next.fetch_add(1, Ordering::SeqCst);
        let Some(&(g, seat)) = jobs.get(job) else {
            break;
        };
        let result = (|| -> Result<Vec<Reviewed>, Failed> {
            reader.read(&games[g], &mut log).map_err(|e| Failed {
                fault: bot::BotFault::new("read", format!("{e:#}")),
                event: String::new(),
            })?;
            let slot = &mut kept[usize::from(seat)];
            let mut bot = match slot.take() {
                Some(b) => b,
                None => Bot::start(&opts.cmd, seat, opts.timeout).map_err(|fault| Failed {
                    fault,
                    event: String::new(),
                })?,
            };
            let r = session::review(&log, seat, &mut bot, opts.style);
            if opts.reuse && r.is_ok() {
                *slot = Some(bot);
            } else if r.is_ok() {
                bot.finish();
            }
            r
        })();
        if tx.send(Done { job, result }).is_err() {
            return;
        }
    }
    for b in kept.into_iter().flatten() {
        b.finish();
    }
}

/// The `reviews` frame of `r`.
fn reviews_frame(r: &[ReviewRow]) -> Result<DataFrame> {
    Ok(DataFrame::new_infer_height(vec![
        Column::new(
            "game_id".into(),
            r.iter().map(|x| &*x.game_id).collect::<Vec<_>>(),
        ),
        Column::new(
            "hand".into(),
            r.iter().map(|x| i32::from(x.r.hand)).collect::<Vec<_>>(),
        ),
        Column::new(
            "seat".into(),
            r.iter().map(|x| i32::from(x.seat)).collect::<Vec<_>>(),
        ),
        Column::new(
            "turn".into(),
            r.iter().map(|x| i32::from(x.r.turn)).collect::<Vec<_>>(),
        ),
        Column::new(
            "riichi_opponents".into(),
            r.iter()
                .map(|x| i32::from(x.r.riichi_opponents))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "kind".into(),
            r.iter().map(|x| x.r.kind.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "legal".into(),
            r.iter().map(|x| x.r.legal.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "taken".into(),
            r.iter().map(|x| x.r.taken.to_string()).collect::<Vec<_>>(),
        ),
        Column::new(
            "bot".into(),
            r.iter().map(|x| x.r.bot.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "match".into(),
            r.iter().map(|x| x.r.matched).collect::<Vec<_>>(),
        ),
        Column::new(
            "invalid".into(),
            r.iter().map(|x| x.r.invalid).collect::<Vec<_>>(),
        ),
        Column::new(
            "meta".into(),
            r.iter().map(|x| x.r.meta.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "engine".into(),
            r.iter().map(|x| &*x.bot).collect::<Vec<_>>(),
        ),
    ])?)
}

/// Writes the `review_failures` frame whole into `dir` (through a temporary file renamed into
/// place).
fn write_failures(dir: &Path, fl: &[FailureRow]) -> Result<()> {
    let mut failures = DataFrame::new_infer_height(vec![
        Column::new(
            "game_id".into(),
            fl.iter().map(|x| x.game_id.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "seat".into(),
            fl.iter().map(|x| i32::from(x.seat)).collect::<Vec<_>>(),
        ),
        Column::new(
            "engine".into(),
            fl.iter().map(|x| x.bot.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "reason".into(),
            fl.iter().map(|x| x.reason.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "detail".into(),
            fl.iter().map(|x| x.detail.as_str()).collect::<Vec<_>>(),
        ),
        Column::new(
            "event".into(),
            fl.iter().map(|x| x.event.as_str()).collect::<Vec<_>>(),
        ),
    ])?;
    let path = dir.join(format!("{FAILURES}.parquet"));
    let tmp = dir.join(format!(".{FAILURES}.parquet.tmp"));
    let file =
        std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    ParquetWriter::new(file)
        .with_compression(ParquetCompression::Lz4Raw)
        .finish(&mut failures)?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Calls `f` on every row of the `reviews` frame in `dir`, in order, a file at a time (none
/// when there is no frame).
fn for_each_row(dir: &Path, mut f: impl FnMut(&ReviewRow)) -> Result<()> {
    for path in dataset::files(dir, REVIEWS) {
        let df = ParquetReader::new(
            std::fs::File::open(&path)
                .with_context(|| format!("cannot read {}", path.display()))?,
        )
        .finish()?;
        rows_of_file(&df, &path, &mut f)?;
    }
    Ok(())
}

/// Calls `f` on each row of one file of the `reviews` frame, `df`, read from `path`.
fn rows_of_file(df: &DataFrame, path: &Path, f: &mut impl FnMut(&ReviewRow)) -> Result<()> {
    let text = |c: &str| -> Result<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
    let int = |c: &str| -> Result<Int32Chunked> { Ok(df.column(c)?.i32()?.clone()) };
    let boolean = |c: &str| -> Result<BooleanChunked> { Ok(df.column(c)?.bool()?.clone()) };
    let (game, kind, legal, taken, botc, meta, engine) = (
        text("game_id")?,
        text("kind")?,
        text("legal")?,
        text("taken")?,
        text("bot")?,
        text("meta")?,
        text("engine")?,
    );
    let (hand, seat, turn, opp) = (
        int("hand")?,
        int("seat")?,
        int("turn")?,
        int("riichi_opponents")?,
    );
    let (matched, invalid) = (boolean("match")?, boolean("invalid")?);
    for i in 0..df.height() {
        let bad = || format!("{} row {i} is not a review row", path.display());
        let k = kind.get(i).unwrap_or_default();
        let kind = DecisionKind::ALL
            .into_iter()
            .find(|x| x.as_str() == k)
            .with_context(bad)?;
        let taken = crate::agree::every::parse_action(taken.get(i).unwrap_or_default())
            .map_err(|e| anyhow::anyhow!("{}: {e}", bad()))?;
        let legal = legal.get(i).unwrap_or_default().to_string();
        f(&ReviewRow {
            game_id: Arc::from(game.get(i).unwrap_or_default()),
            seat: seat.get(i).unwrap_or(0) as u8,
            bot: Arc::from(engine.get(i).unwrap_or_default()),
            r: Reviewed {
                hand: hand.get(i).unwrap_or(0) as u16,
                turn: turn.get(i).unwrap_or(0) as u8,
                riichi_opponents: opp.get(i).unwrap_or(0) as u8,
                kind,
                legal,
                taken,
                bot: botc.get(i).map(str::to_string),
                matched: matched.get(i).unwrap_or(false),
                invalid: invalid.get(i).unwrap_or(false),
                meta: meta.get(i).map(str::to_string),
            },
        });
    }
    Ok(())
}

/// The `review_failures` frame of an earlier review in `dir` (empty when there is none).
fn read_failures(dir: &Path) -> Result<Vec<FailureRow>> {
    let mut failures = Vec::new();
    let fpath = dir.join(format!("{FAILURES}.parquet"));
    if fpath.exists() {
        let df = ParquetReader::new(std::fs::File::open(&fpath)?).finish()?;
        let text = |c: &str| -> Result<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
        let seat = df.column("seat")?.i32()?.clone();
        let (game, engine, reason, detail, event) = (
            text("game_id")?,
            text("engine")?,
            text("reason")?,
            text("detail")?,
            text("event")?,
        );
        let s = |c: &StringChunked, i: usize| c.get(i).unwrap_or_default().to_string();
        for i in 0..df.height() {
            failures.push(FailureRow {
                game_id: s(&game, i),
                seat: seat.get(i).unwrap_or(0) as u8,
                bot: s(&engine, i),
                reason: s(&reason, i),
                detail: s(&detail, i),
                event: s(&event, i),
            });
        }
    }
    Ok(failures)
}

/// The report's groups within a kind: (section, value), `all` first.
const GROUPS: [(&str, &str); 6] = [
    ("all", "all"),
    ("turn", "1-6"),
    ("turn", "7-12"),
    ("turn", "13+"),
    ("riichi_opponents", "0"),
    ("riichi_opponents", "1+"),
];

/// Counts of one cell of the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cell {
    decisions: u64,
    matches: u64,
    invalid: u64,
    unanswered: u64,
}

/// The report of the `reviews` frame in `dir` (read a file at a time), by kind of decision
/// ([`KindCells`]) or with `by_game` by (game, seat) ([`ByGame`]), and the decisions it
/// counts.
pub(crate) fn report(dir: &Path, by_game: bool) -> Result<(DataFrame, u64)> {
    let (mut kinds, mut games, mut n) = (KindCells::default(), ByGame::default(), 0u64);
    for_each_row(dir, |row| {
        n += 1;
        if by_game {
            games.add(row);
        } else {
            kinds.add(row);
        }
    })?;
    let df = if by_game {
        games.frame()
    } else {
        kinds.frame()
    }?;
    Ok((df, n))
}

/// The report by kind: per kind of decision (and every kind, `all`) and group, the decisions,
/// the matches, the match rate with its 95% Wilson interval, invalid and unanswered answers.
struct KindCells {
    /// Per kind (`all` first, then [`DecisionKind::ALL`]) and group ([`GROUPS`]).
    cells: Vec<[Cell; GROUPS.len()]>,
}

impl Default for KindCells {
    fn default() -> Self {
        KindCells {
            cells: vec![[Cell::default(); GROUPS.len()]; 1 + DecisionKind::ALL.len()],
        }
    }
}

impl KindCells {
    fn add(&mut self, row: &ReviewRow) {
        let cells = &mut self.cells;
        let r = &row.r;
        let k = 1 + DecisionKind::ALL
            .iter()
            .position(|&x| x == r.kind)
            .expect("listed");
        let turn = match r.turn + 1 {
            ..=6 => 1,
            7..=12 => 2,
            _ => 3,
        };
        for kk in [0, k] {
            for g in [0, turn, 4 + usize::from(r.riichi_opponents > 0)] {
                let c = &mut cells[kk][g];
                c.decisions += 1;
                c.matches += u64::from(r.matched);
                c.invalid += u64::from(r.invalid);
                c.unanswered += u64::from(r.bot.is_none());
            }
        }
    }

    fn frame(&self) -> Result<DataFrame> {
        let kinds: Vec<&str> = std::iter::once("all")
            .chain(DecisionKind::ALL.iter().map(|k| k.as_str()))
            .collect();
        let cells = &self.cells;
        let (mut kind, mut section, mut value) = (Vec::new(), Vec::new(), Vec::new());
        let (mut decisions, mut matches, mut rate, mut lo, mut hi, mut invalid, mut unanswered) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        for (k, name) in kinds.iter().enumerate() {
            if cells[k][0].decisions == 0 {
                continue;
            }
            for (g, &(s, v)) in GROUPS.iter().enumerate() {
                let c = cells[k][g];
                if c.decisions == 0 {
                    continue;
                }
                let (l, h) = crate::report::agree::wilson(c.matches as f64, c.decisions as f64);
                kind.push(*name);
                section.push(s);
                value.push(v);
                decisions.push(c.decisions as i64);
                matches.push(c.matches as i64);
                rate.push(c.matches as f64 / c.decisions as f64);
                lo.push(l);
                hi.push(h);
                invalid.push(c.invalid as i64);
                unanswered.push(c.unanswered as i64);
            }
        }
        Ok(DataFrame::new_infer_height(vec![
            Column::new("kind".into(), kind),
            Column::new("section".into(), section),
            Column::new("value".into(), value),
            Column::new("decisions".into(), decisions),
            Column::new("matches".into(), matches),
            Column::new("match_rate".into(), rate),
            Column::new("match_lo".into(), lo),
            Column::new("match_hi".into(), hi),
            Column::new("invalid".into(), invalid),
            Column::new("unanswered".into(), unanswered),
        ])?)
    }
}

/// The report by game: per (game, seat), decisions, matches and match rate, in job order.
#[derive(Default)]
struct ByGame {
    keys: Vec<(String, u8)>,
    counts: Vec<(i64, i64)>,
}

impl ByGame {
    fn add(&mut self, row: &ReviewRow) {
        let (keys, counts) = (&mut self.keys, &mut self.counts);
        if keys
            .last()
            .is_none_or(|(g, s)| **g != *row.game_id || *s != row.seat)
        {
            keys.push((row.game_id.to_string(), row.seat));
            counts.push((0, 0));
        }
        let c = counts.last_mut().expect("pushed");
        c.0 += 1;
        c.1 += i64::from(row.r.matched);
    }

    fn frame(&self) -> Result<DataFrame> {
        let (keys, counts) = (&self.keys, &self.counts);
        Ok(DataFrame::new_infer_height(vec![
            Column::new(
                "game_id".into(),
                keys.iter().map(|k| k.0.as_str()).collect::<Vec<_>>(),
            ),
            Column::new(
                "seat".into(),
                keys.iter().map(|k| i32::from(k.1)).collect::<Vec<_>>(),
            ),
            Column::new(
                "decisions".into(),
                counts.iter().map(|c| c.0).collect::<Vec<_>>(),
            ),
            Column::new(
                "matches".into(),
                counts.iter().map(|c| c.1).collect::<Vec<_>>(),
            ),
            Column::new(
                "match_rate".into(),
                counts
                    .iter()
                    .map(|c| c.1 as f64 / c.0 as f64)
                    .collect::<Vec<_>>(),
            ),
        ])?)
    }
}
