//! `haifu agree`: discard engines scored against the players' decisions of the `decisions`
//! frame (docs/definitions.md §7).
//!
//! The frame is read a slice of rows at a time and in order; each hand's public state is
//! rebuilt from its rows ([`crate::agree::replay`]). Decisions go a batch at a time through
//! the analysis (lowest shanten, most ukeire: in parallel, in order), the built-in engines,
//! the external commands and the answer files; the tallies are exact integers added in frame
//! order, so the report is the same on any number of threads, and memory holds one slice.
//! Only unforced decisions are sent to engines (a forced one is not scored).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use polars::prelude::*;
use rayon::prelude::*;

use super::engine::{Answers, Discard, EngineCommand, External};
use super::protocol::{
    json_head, json_melds, json_rivers, json_tiles, GameRules, HandContext, HandsCursor,
};
use super::slice::Slice;
use crate::agree::replay::{Row, Table};
use crate::agree::{analyse, groups_of, Analysis, Builtin, Position, Tally, Totals, GROUPS};
use crate::frames::dataset::{self, Slices};
use crate::frames::{parse_kind_digits, parse_kitas, DECISIONS};
use crate::rules::Players;
use crate::stats::decisions::parse_melds;
use crate::tile::{self, KINDS};

/// An engine to score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EngineSpec {
    Builtin(Builtin),
    Command(EngineCommand),
    Answers(PathBuf),
}

/// What `haifu agree` scores, and over which decisions.
pub(crate) struct Options {
    pub(crate) frames: PathBuf,
    pub(crate) engines: Vec<EngineSpec>,
    pub(crate) timeout: Duration,
    pub(crate) limit: Option<u64>,
    pub(crate) slice: Option<Slice>,
    /// The table's rules (§24: the built-in engines' shanten and ukeire, the requests).
    pub(crate) players: Players,
}

/// Rows of the frame read at a time.
const SLICE_ROWS: usize = 1 << 16;
/// Decision rows per batch: the engines are sent one batch while haifu waits for the answers
/// to the one before, so at most two batches of decisions are in flight.
const BATCH: usize = 8192;

/// The engines' names in report order, and the totals.
pub(crate) struct Outcome {
    pub(crate) names: Vec<String>,
    pub(crate) totals: Totals,
}

/// Scores every engine of `opts` over the decisions.
pub(crate) fn run(opts: &Options) -> Result<Outcome> {
    let slices = Slices::new(dataset::require(&opts.frames, DECISIONS)?, SLICE_ROWS);
    let mut externals = Vec::new();
    let mut answers = Vec::new();
    let mut names = Vec::new();
    for e in &opts.engines {
        match e {
            EngineSpec::Builtin(b) => names.push(b.name().to_string()),
            EngineSpec::Command(c) => {
                externals.push(External::start(&c.cmd, opts.timeout, "decision")?);
                names.push(c.name.clone());
            }
            EngineSpec::Answers(p) => {
                let a = Answers::read(p)?;
                names.push(a.name.clone());
                answers.push(a);
            }
        }
    }
    let mut hands = (!externals.is_empty())
        .then(|| HandsCursor::open(&opts.frames))
        .transpose()?;
    let rules = (!externals.is_empty())
        .then(|| GameRules::read(&opts.frames))
        .transpose()?;
    let mut totals = Totals::new(opts.engines.len());
    let mut table = Table::of(opts.players);
    let mut taken = 0u64;
    let mut json = String::with_capacity(4096);
    // The batch sent whose answers are awaited: the engines are sent the next batch before
    // haifu waits for them, so that an engine holding answers back gets the input it waits
    // for (module docs of `engine`).
    let mut waiting: Option<Batch> = None;
    let mut next_id = 0u64;
    'slices: for df in slices {
        let mut df = df?;
        if let Some(s) = &opts.slice {
            df = df.lazy().filter(s.keeps()).collect()?;
        }
        let mut rows = parse_rows(&df)?.into_iter();
        loop {
            // The batch's decisions, the limit applied.
            let mut batch: Vec<Row> = rows.by_ref().take(BATCH).collect();
            if batch.is_empty() {
                break;
            }
            if let Some(l) = opts.limit {
                batch.truncate(rows_within(&batch, l - taken));
            }
            taken += batch.iter().filter(|r| !r.forced).count() as u64;
            // In order: each decision's position, with the hand's state rebuilt, and its JSON
            // object for the external engines.
            let mut items: Vec<Item> = Vec::with_capacity(batch.len());
            let mut forced = 0;
            for (r, row) in batch.iter().enumerate() {
                table.enter(row);
                let position = table.position(row);
                if !row.forced {
                    if let Some(h) = hands.as_mut() {
                        let ctx = h.find(&row.game_id, row.hand)?;
                        json.clear();
                        let rules = rules.as_ref().map_or("null", |r| r.of(&row.game_id));
                        write_json(&mut json, next_id, row, &table, &ctx, rules);
                        for e in &mut externals {
                            // The object's id is the one the engine is held to.
                            assert_eq!(e.next_id(), next_id, "decision ids in step");
                            e.send(&json);
                        }
                    }
                    items.push(Item {
                        id: next_id,
                        row: r,
                        position,
                    });
                    next_id += 1;
                } else {
                    forced += 1;
                }
                table.discard(row);
            }
            // The analysis runs while the engines think.
            let analyses: Vec<Analysis> = items.par_iter().map(|i| analyse(&i.position)).collect();
            let sent = Batch {
                rows: batch,
                items,
                analyses,
                forced,
            };
            if let Some(before) = waiting.replace(sent) {
                before.score(opts, &mut externals, &answers, &mut totals)?;
            }
            if opts.limit.is_some_and(|l| taken >= l) {
                break 'slices;
            }
        }
    }
    for e in &mut externals {
        e.close_input();
    }
    if let Some(last) = waiting.take() {
        last.score(opts, &mut externals, &answers, &mut totals)?;
    }
    for e in externals {
        e.finish()?;
    }
    Ok(Outcome { names, totals })
}

/// How many of `rows` to keep so that they hold at most `left` unforced decisions (the ones
/// sent to the engines, which `--limit` counts): up to the `left`-th unforced one.
fn rows_within(rows: &[Row], left: u64) -> usize {
    if left == 0 {
        return 0;
    }
    let mut unforced = 0;
    rows.iter()
        .position(|r| {
            unforced += u64::from(!r.forced);
            unforced == left
        })
        .map_or(rows.len(), |i| i + 1)
}

/// An unforced decision of a batch.
struct Item {
    id: u64,
    /// Its row in the batch.
    row: usize,
    position: Position,
}

/// A batch of decision rows, sent to the external engines.
struct Batch {
    rows: Vec<Row>,
    /// The unforced decisions, in order.
    items: Vec<Item>,
    /// Each item's analysis.
    analyses: Vec<Analysis>,
    /// Forced decisions (not scored).
    forced: usize,
}

impl Batch {
    /// Collects the external engines' answers to the batch and adds every engine's answers
    /// to `totals`, in row order.
    fn score(
        &self,
        opts: &Options,
        externals: &mut [External<Discard>],
        answers: &[Answers],
        totals: &mut Totals,
    ) -> Result<()> {
        let rows = &self.rows;
        let external_answers = externals
            .iter_mut()
            .map(|e| {
                e.collect(self.items.len(), |i| {
                    describe(self.items[i].id, &rows[self.items[i].row])
                })
            })
            .collect::<Result<Vec<Vec<Discard>>>>()?;
        for _ in 0..self.forced {
            totals.add_forced();
        }
        let mut answers_now = Vec::with_capacity(opts.engines.len());
        for (i, (item, analysis)) in self.items.iter().zip(&self.analyses).enumerate() {
            let row = &rows[item.row];
            let discard = row.discard_kind();
            answers_now.clear();
            let (mut x, mut a) = (0, 0);
            for e in &opts.engines {
                answers_now.push(match e {
                    EngineSpec::Builtin(b) => b.answer(&item.position, analysis, discard),
                    EngineSpec::Command(_) => {
                        x += 1;
                        external_answers[x - 1][i].0
                    }
                    EngineSpec::Answers(_) => {
                        a += 1;
                        answers[a - 1].answer(&row.game_id, row.hand, row.seat, row.turn)?
                    }
                });
            }
            let groups = groups_of(
                row.after_call,
                analysis.best_shanten,
                row.riichi_opponents,
                row.turn,
            );
            totals.add_unforced(&groups, discard, row.legal, analysis, &answers_now);
        }
        Ok(())
    }
}

/// A decision as an error names it.
fn describe(id: u64, row: &Row) -> String {
    format!(
        "{id}: game {} hand {} seat {} turn {}",
        row.game_id, row.hand, row.seat, row.turn
    )
}

/// The rows of one slice of the frame.
fn parse_rows(df: &DataFrame) -> Result<Vec<Row>> {
    let text = |c: &str| -> Result<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
    let int = |c: &str| -> Result<Int32Chunked> { Ok(df.column(c)?.i32()?.clone()) };
    let boolean = |c: &str| -> Result<BooleanChunked> { Ok(df.column(c)?.bool()?.clone()) };
    let (game_id, after, concealed, red, drawn) = (
        text("game_id")?,
        text("after")?,
        text("concealed")?,
        text("red")?,
        text("drawn")?,
    );
    let (discard, legal, melds, dora) = (
        text("discard")?,
        text("legal")?,
        text("melds")?,
        text("dora")?,
    );
    // Every seat's kitas (§24); frames written before version 5 have none.
    let kitas = match df.column("kitas") {
        Ok(c) => Some(c.str()?.clone()),
        Err(_) => None,
    };
    let (hand, seat, turn, opponents) = (
        int("hand")?,
        int("seat")?,
        int("turn")?,
        int("riichi_opponents")?,
    );
    let (drawn_red, discard_red, tsumogiri, riichi, in_riichi, forced, called) = (
        boolean("drawn_red")?,
        boolean("discard_red")?,
        boolean("tsumogiri")?,
        boolean("riichi")?,
        boolean("in_riichi")?,
        boolean("forced")?,
        boolean("called")?,
    );
    let mut rows = Vec::with_capacity(df.height());
    let type_of = |kind: usize, red: bool| if red { KINDS + kind / 9 } else { kind } as u8;
    for i in 0..df.height() {
        let bad = |what: &str| format!("decisions row {i}: malformed {what}");
        fn s(c: &StringChunked, i: usize) -> &str {
            c.get(i).unwrap_or_default()
        }
        let kind = |c: &StringChunked, what: &str| -> Result<usize> {
            tile::parse_kind(s(c, i)).with_context(|| bad(what))
        };
        let digits = |c: &StringChunked, what: &str| -> Result<[u8; KINDS]> {
            parse_kind_digits(s(c, i)).with_context(|| bad(what))
        };
        let b = |c: &BooleanChunked| c.get(i).unwrap_or(false);
        let legal_digits = digits(&legal, "legal")?;
        let red_bits = s(&red, i)
            .bytes()
            .enumerate()
            .fold(0u8, |m, (i, c)| m | u8::from(c == b'1') << i);
        rows.push(Row {
            game_id: s(&game_id, i).to_string(),
            hand: hand.get(i).unwrap_or(0) as u16,
            seat: seat.get(i).unwrap_or(0) as u8,
            turn: turn.get(i).unwrap_or(1) as u8,
            after_call: s(&after, i) == "call",
            concealed: digits(&concealed, "concealed")?,
            red: red_bits,
            drawn: match drawn.get(i) {
                Some(d) => Some(type_of(
                    tile::parse_kind(d).with_context(|| bad("drawn"))?,
                    b(&drawn_red),
                )),
                None => None,
            },
            discard: type_of(kind(&discard, "discard")?, b(&discard_red)),
            tsumogiri: b(&tsumogiri),
            riichi: b(&riichi),
            in_riichi: b(&in_riichi),
            riichi_opponents: opponents.get(i).unwrap_or(0) as u8,
            legal: legal_digits
                .iter()
                .enumerate()
                .fold(0, |m, (k, &d)| m | u64::from(d == 1) << k),
            forced: b(&forced),
            called: b(&called),
            melds: parse_melds(s(&melds, i)).with_context(|| bad("melds"))?,
            dora: s(&dora, i)
                .split(' ')
                .filter(|t| !t.is_empty())
                .map(|t| tile::parse_type(t).with_context(|| bad("dora")))
                .collect::<Result<_>>()?,
            kitas: match &kitas {
                Some(c) => parse_kitas(s(c, i)).with_context(|| bad("kitas"))?,
                None => [0; 4],
            },
        });
    }
    Ok(rows)
}

/// The concealed tiles' types of a row, in kind order (a red five before the black ones).
fn concealed_types(row: &Row) -> Vec<usize> {
    let mut v = Vec::with_capacity(14);
    for (k, &c) in row.concealed.iter().enumerate() {
        let red = tile::FIVES
            .iter()
            .position(|&f| f == k)
            .filter(|&s| row.red >> s & 1 == 1);
        for j in 0..c {
            v.push(match red {
                Some(s) if j == 0 => KINDS + s,
                _ => k,
            });
        }
    }
    v
}

/// The decision's object of the §7 protocol (one line, no newline).
fn write_json(out: &mut String, id: u64, row: &Row, table: &Table, ctx: &HandContext, rules: &str) {
    json_head(out, id, &row.game_id, row.hand, row.seat, ctx);
    json_tiles(out, row.dora.iter().copied());
    crate::agree::write_players(out, table.players, row.kitas);
    let _ = write!(
        out,
        ",\"turn\":{},\"after\":\"{}\",\"tiles\":",
        row.turn,
        if row.after_call { "call" } else { "draw" }
    );
    json_tiles(out, concealed_types(row));
    out.push_str(",\"drawn\":");
    match row.drawn {
        Some(t) => {
            out.push('"');
            out.push_str(tile::type_name(usize::from(t)));
            out.push('"');
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"melds\":");
    json_melds(out, &table.melds);
    out.push_str(",\"rivers\":");
    json_rivers(out, &table.rivers);
    let _ = write!(
        out,
        ",\"riichi\":[{},{},{},{}],\"in_riichi\":{},\"declares\":{},\"seq\":{},\"rules\":{rules},\"legal\":",
        table.riichi[0],
        table.riichi[1],
        table.riichi[2],
        table.riichi[3],
        row.in_riichi,
        row.riichi,
        table.discards
    );
    json_tiles(out, (0..KINDS).filter(|&k| row.legal >> k & 1 == 1));
    out.push('}');
}

/// The 95% Wilson interval of `k` successes in `n` trials (as the bundled SQL computes it).
pub(crate) fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let p = k / n;
    let centre = p + 1.9208 / n;
    let half = 1.96 * (p * (1.0 - p) / n + 0.9604 / (n * n)).sqrt();
    let d = 1.0 + 3.8416 / n;
    (
        ((centre - half) / d).max(0.0),
        ((centre + half) / d).min(1.0),
    )
}

/// The report as one long frame: per group (section, value) a row per engine (`engine`) and two
/// rows of the players' own efficiency (`players: lowest shanten`, `players: most ukeire`):
/// decisions (unforced), agreement (mean; for the players, the share), its 95% Wilson
/// interval, invalid answers.
pub(crate) fn report_frame(o: &Outcome) -> Result<DataFrame> {
    let mut section = Vec::new();
    let mut value = Vec::new();
    let mut engine = Vec::new();
    let mut decisions = Vec::new();
    let mut agreement = Vec::new();
    let mut lo = Vec::new();
    let mut hi = Vec::new();
    let mut invalid = Vec::new();
    let t = &o.totals;
    for (g, &(s, v)) in GROUPS.iter().enumerate() {
        let mut push = |name: &str, tally: Tally| {
            let (l, h) = wilson(tally.sum(), tally.decisions as f64);
            section.push(s.to_string());
            value.push(v.to_string());
            engine.push(name.to_string());
            decisions.push(tally.decisions as i64);
            agreement.push(tally.mean());
            lo.push(l);
            hi.push(h);
            invalid.push(tally.invalid as i64);
        };
        for (name, tallies) in o.names.iter().zip(&t.engines) {
            push(name, tallies[g]);
        }
        for (name, k) in [
            ("players: lowest shanten", t.player_min_shanten[g]),
            ("players: most ukeire", t.player_max_ukeire[g]),
        ] {
            push(
                name,
                Tally {
                    decisions: t.unforced[g],
                    units: u128::from(k) * crate::agree::AGREEMENT_UNIT,
                    invalid: 0,
                },
            );
        }
    }
    Ok(DataFrame::new_infer_height(vec![
        Column::new("section".into(), section),
        Column::new("value".into(), value),
        Column::new("engine".into(), engine),
        Column::new("decisions".into(), decisions),
        Column::new("agreement".into(), agreement),
        Column::new("agreement_lo".into(), lo),
        Column::new("agreement_hi".into(), hi),
        Column::new("invalid".into(), invalid),
    ])?)
}

/// The report for a person: the counts, then one table per section, the best agreement of each
/// group starred among the engines (not `player`, whose 1 is a check of the harness) when
/// several are compared.
pub(crate) fn render_table(o: &Outcome) -> String {
    let t = &o.totals;
    let unforced = t.unforced[0];
    let mut out = format!(
        "== discard agreement (docs/definitions.md §7): {} decisions, {} forced, {unforced} unforced\n",
        t.decisions, t.forced
    );
    let scored: Vec<usize> = (0..o.names.len())
        .filter(|&e| o.names[e] != "player")
        .collect();
    let mut section = "";
    for (g, &(s, v)) in GROUPS.iter().enumerate() {
        if s != section {
            section = s;
            let _ = write!(
                out,
                "\n== by {s}\n{:<8} {:<32} {:>9} {:>9} {:>19} {:>8}\n",
                "value", "engine", "decisions", "agreement", "95% interval", "invalid"
            );
        }
        let best = scored
            .iter()
            .map(|&e| t.engines[e][g].mean())
            .filter(|x| !x.is_nan())
            .fold(f64::NEG_INFINITY, f64::max);
        let mut line = |name: &str, tally: &Tally, star: bool| {
            let (l, h) = wilson(tally.sum(), tally.decisions as f64);
            let _ = writeln!(
                out,
                "{v:<8} {name:<32} {:>9} {:>8.5}{} [{l:.5}, {h:.5}] {:>8}",
                tally.decisions,
                tally.mean(),
                if star { "*" } else { " " },
                tally.invalid
            );
        };
        for (e, name) in o.names.iter().enumerate() {
            let tally = &t.engines[e][g];
            let star = scored.len() > 1 && scored.contains(&e) && tally.mean() == best;
            line(name, tally, star);
        }
        for (name, k) in [
            ("players: lowest shanten", t.player_min_shanten[g]),
            ("players: most ukeire", t.player_max_ukeire[g]),
        ] {
            let tally = Tally {
                decisions: t.unforced[g],
                units: u128::from(k) * crate::agree::AGREEMENT_UNIT,
                invalid: 0,
            };
            line(name, &tally, false);
        }
    }
    out
}
