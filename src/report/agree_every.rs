//! `haifu agree --every-decision`: engines scored against the players at every §23 decision
//! (docs/definitions.md §23), not only discards: win or not, riichi or dama, call or pass,
//! kan or not, kyuushu or play on, and the discard.
//!
//! The decisions are the replay's own, so the games are read again from the logs the frames
//! came from ([`crate::again`]), in the manifest's order, and replayed a chunk at a
//! time in parallel; every decision closes with the built-in engines' answers and (for
//! external engines) its request object. Requests are numbered and sent in that order, a
//! batch ahead of the answers awaited (as §7's `agree`); tallies are exact integers added in
//! order, so the report is the same on any number of threads. Unobserved decisions are
//! counted per kind, never sent nor scored.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use polars::prelude::*;
use rayon::prelude::*;

use super::agree::wilson;
use super::engine::{ActionSet, EngineCommand, EveryAnswers, External};
use super::slice::Slice;
use crate::again::{self, Landed, Reader};
use crate::agree::every::{
    every_groups_of, kind_index, EveryBuiltin, EveryObserver, EveryOptions, EveryTotals, Item,
    EVERY_GROUPS,
};
use crate::agree::Tally;
use crate::mjlog::{go_type, GameLog};
use crate::replay::legal::{Action, DecisionKind};

/// An engine to score over every decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EverySpec {
    Builtin(EveryBuiltin),
    Command(EngineCommand),
    Answers(PathBuf),
}

/// What `haifu agree --every-decision` scores, and over which games.
pub(crate) struct Options {
    pub(crate) frames: PathBuf,
    pub(crate) engines: Vec<EverySpec>,
    pub(crate) timeout: Duration,
    /// Score only the first N observed decisions (the ones sent to engines).
    pub(crate) limit: Option<u64>,
    pub(crate) slice: Option<Slice>,
}

/// The engines' names in report order, the totals, and the games read.
pub(crate) struct Outcome {
    pub(crate) names: Vec<String>,
    pub(crate) totals: EveryTotals,
    pub(crate) games: usize,
}

/// Games replayed at a time (in parallel, results kept in order).
const CHUNK: usize = 64;
/// Decisions per batch sent to the external engines.
const BATCH: usize = 8192;

/// One decision sent, awaiting the engines' answers.
struct Sent {
    game: usize,
    item: Item,
}

/// Scores every engine of `opts` over the decisions of the frames' games.
pub(crate) fn run(opts: &Options) -> Result<Outcome> {
    let games = again::games(
        &opts.frames,
        opts.slice.as_ref().map(Slice::id_set).transpose()?.as_ref(),
    )?;
    let mut names = Vec::new();
    let mut builtins = Vec::new();
    let mut externals: Vec<External<ActionSet>> = Vec::new();
    let mut files = Vec::new();
    for e in &ordered(opts.engines.clone()) {
        match e {
            EverySpec::Builtin(b) => {
                builtins.push(*b);
                names.push(b.name().to_string());
            }
            EverySpec::Command(c) => {
                externals.push(External::start(&c.cmd, opts.timeout, "decision")?);
                names.push(c.name.clone());
            }
            EverySpec::Answers(p) => {
                let a = EveryAnswers::read(p)?;
                names.push(a.name.clone());
                files.push(a);
            }
        }
    }
    let requests = !externals.is_empty();
    let mut totals = EveryTotals::new(opts.engines.len());
    let mut batch: Vec<Sent> = Vec::new();
    let mut waiting: Option<Vec<Sent>> = None;
    let mut sent = 0u64;
    let mut next_id = 0u64;
    let mut line = String::with_capacity(4096);
    'chunks: for (c, chunk) in games.chunks(CHUNK).enumerate() {
        let replayed: Vec<Result<Vec<Item>>> = chunk
            .par_iter()
            .map_init(
                || (Reader::default(), GameLog::default()),
                |(reader, log), game| decisions_of(reader, log, game, &builtins, requests),
            )
            .collect();
        for (g, items) in replayed.into_iter().enumerate() {
            for item in items? {
                if item.taken.is_none() {
                    totals.add_unobserved(item.kind);
                    continue;
                }
                if opts.limit.is_some_and(|l| sent >= l) {
                    break 'chunks;
                }
                sent += 1;
                if let Some(r) = &item.request {
                    line.clear();
                    let _ = write!(line, "{{\"id\":{next_id},{r}");
                    for e in &mut externals {
                        assert_eq!(e.next_id(), next_id, "decision ids in step");
                        e.send(&line);
                    }
                    next_id += 1;
                }
                batch.push(Sent {
                    game: c * CHUNK + g,
                    item,
                });
                if batch.len() == BATCH {
                    let full = std::mem::take(&mut batch);
                    if let Some(before) = waiting.replace(full) {
                        score(&before, &games, &mut externals, &mut files, &mut totals)?;
                    }
                }
            }
        }
    }
    for e in &mut externals {
        e.close_input();
    }
    if let Some(before) = waiting.take() {
        score(&before, &games, &mut externals, &mut files, &mut totals)?;
    }
    score(&batch, &games, &mut externals, &mut files, &mut totals)?;
    for e in externals {
        e.finish()?;
    }
    Ok(Outcome {
        names,
        totals,
        games: games.len(),
    })
}

/// The decisions of one game, replayed again with the built-ins (and requests when asked).
fn decisions_of(
    reader: &mut Reader,
    log: &mut GameLog,
    game: &Landed,
    builtins: &[EveryBuiltin],
    requests: bool,
) -> Result<Vec<Item>> {
    reader.read(game, log)?;
    let hanchan = log.go_type.is_some_and(|go| go & go_type::HANCHAN != 0);
    let mut obs = EveryObserver::new(EveryOptions {
        builtins: builtins.to_vec(),
        requests,
        game_id: game.game_id.clone(),
        hanchan,
    });
    crate::replay::replay_game(log, &mut obs).with_context(|| {
        format!(
            "{} (game {}) replayed at ingest but not now",
            game.name, game.game_id
        )
    })?;
    Ok(obs.items)
}

/// Collects the external engines' answers to `sent` and adds every engine's answers to
/// `totals`, in order.
fn score(
    sent: &[Sent],
    games: &[Landed],
    externals: &mut [External<ActionSet>],
    files: &mut [EveryAnswers],
    totals: &mut EveryTotals,
) -> Result<()> {
    let describe = |i: usize| {
        let s = &sent[i];
        format!(
            "game {} hand {} seat {} seq {} kind {}",
            games[s.game].game_id,
            s.item.hand,
            s.item.seat,
            s.item.seq,
            s.item.kind.as_str()
        )
    };
    let external: Vec<Vec<ActionSet>> = externals
        .iter_mut()
        .map(|e| e.collect(sent.len(), describe))
        .collect::<Result<_>>()?;
    let mut answers: Vec<Vec<Action>> = Vec::new();
    for (i, s) in sent.iter().enumerate() {
        let item = &s.item;
        let taken = item.taken.expect("only observed decisions are sent");
        answers.clear();
        answers.extend(item.answers.iter().cloned());
        answers.extend(external.iter().map(|a| a[i].0.clone()));
        for f in files.iter_mut() {
            answers.push(f.answer(
                &games[s.game].game_id,
                item.hand,
                item.seat,
                item.seq,
                item.kind.as_str(),
            )?);
        }
        let groups = every_groups_of(item.turn, item.riichi_opponents);
        totals.add(item.kind, &groups, &item.legal, taken, &answers);
    }
    Ok(())
}

/// The engines in the order the report lists them: built-ins first (as the observer answers
/// them), then commands, then files — the order `totals.engines` holds them.
fn ordered(engines: Vec<EverySpec>) -> Vec<EverySpec> {
    let (mut b, mut c, mut f) = (Vec::new(), Vec::new(), Vec::new());
    for e in engines {
        match e {
            EverySpec::Builtin(_) => b.push(e),
            EverySpec::Command(_) => c.push(e),
            EverySpec::Answers(_) => f.push(e),
        }
    }
    b.extend(c);
    b.extend(f);
    b
}

/// The kinds with decisions, in [`DecisionKind::ALL`]'s order.
fn kinds_present(t: &EveryTotals) -> Vec<DecisionKind> {
    DecisionKind::ALL
        .into_iter()
        .filter(|&k| t.observed[kind_index(k)] + t.unobserved[kind_index(k)] > 0)
        .collect()
}

/// The engines starred best in a cell: among those other than `player` (whose 1 is a check),
/// when two or more are compared, the ones with the highest mean agreement.
fn best_of(o: &Outcome, k: usize, g: usize) -> Vec<bool> {
    let scored: Vec<usize> = (0..o.names.len())
        .filter(|&e| o.names[e] != "player")
        .collect();
    let best = scored
        .iter()
        .map(|&e| o.totals.engines[e][k][g].mean())
        .filter(|x| !x.is_nan())
        .fold(f64::NEG_INFINITY, f64::max);
    (0..o.names.len())
        .map(|e| {
            scored.len() > 1 && scored.contains(&e) && o.totals.engines[e][k][g].mean() == best
        })
        .collect()
}

/// The report as one long frame: per kind of decision and group (section, value), a row per
/// engine: decisions, agreement (mean), its 95% Wilson interval, invalid answers, best
/// (starred in the table); and each kind's unobserved decisions.
pub(crate) fn report_frame(o: &Outcome) -> Result<DataFrame> {
    let (mut kinds, mut sections, mut values, mut engines) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut decisions, mut agreement) = (Vec::new(), Vec::new());
    let (mut lo, mut hi, mut invalid, mut best, mut unobserved) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let t = &o.totals;
    for kind in kinds_present(t) {
        let k = kind_index(kind);
        for (g, &(s, v)) in EVERY_GROUPS.iter().enumerate() {
            let stars = best_of(o, k, g);
            for (e, name) in o.names.iter().enumerate() {
                let tally: &Tally = &t.engines[e][k][g];
                let (l, h) = wilson(tally.sum(), tally.decisions as f64);
                kinds.push(kind.as_str());
                sections.push(s);
                values.push(v);
                engines.push(name.clone());
                decisions.push(tally.decisions as i64);
                agreement.push(tally.mean());
                lo.push(l);
                hi.push(h);
                invalid.push(tally.invalid as i64);
                best.push(stars[e]);
                unobserved.push(if g == 0 { t.unobserved[k] as i64 } else { 0 });
            }
        }
    }
    Ok(DataFrame::new_infer_height(vec![
        Column::new("kind".into(), kinds),
        Column::new("section".into(), sections),
        Column::new("value".into(), values),
        Column::new("engine".into(), engines),
        Column::new("decisions".into(), decisions),
        Column::new("agreement".into(), agreement),
        Column::new("agreement_lo".into(), lo),
        Column::new("agreement_hi".into(), hi),
        Column::new("invalid".into(), invalid),
        Column::new("best".into(), best),
        Column::new("unobserved".into(), unobserved),
    ])?)
}

/// The report for a person: the counts per kind, then one table per kind of decision, its
/// groups in rows, the best agreement of each group starred.
pub(crate) fn render_table(o: &Outcome) -> String {
    let t = &o.totals;
    let mut out = format!(
        "== agreement at every decision (docs/definitions.md §23): {} games, {} decisions scored, {} unobserved\n\n{:<10} {:>10} {:>10}\n",
        o.games,
        t.decisions(),
        t.unobserved.iter().sum::<u64>(),
        "kind",
        "scored",
        "unobserved"
    );
    let kinds = kinds_present(t);
    for &kind in &kinds {
        let k = kind_index(kind);
        let _ = writeln!(
            out,
            "{:<10} {:>10} {:>10}",
            kind.as_str(),
            t.observed[k],
            t.unobserved[k]
        );
    }
    for kind in kinds {
        let k = kind_index(kind);
        if t.observed[k] == 0 {
            continue;
        }
        let _ = write!(
            out,
            "\n== {}\n{:<22} {:<32} {:>9} {:>9} {:>19} {:>8}\n",
            kind.as_str(),
            "group",
            "engine",
            "decisions",
            "agreement",
            "95% interval",
            "invalid"
        );
        for (g, &(s, v)) in EVERY_GROUPS.iter().enumerate() {
            let stars = best_of(o, k, g);
            let group = if s == "all" {
                "all".to_string()
            } else {
                format!("{s} {v}")
            };
            for (e, name) in o.names.iter().enumerate() {
                let tally = &t.engines[e][k][g];
                if tally.decisions == 0 {
                    continue;
                }
                let (l, h) = wilson(tally.sum(), tally.decisions as f64);
                let _ = writeln!(
                    out,
                    "{group:<22} {name:<32} {:>9} {:>8.5}{} [{l:.5}, {h:.5}] {:>8}",
                    tally.decisions,
                    tally.mean(),
                    if stars[e] { "*" } else { " " },
                    tally.invalid
                );
            }
        }
    }
    out
}
