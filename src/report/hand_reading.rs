//! §16 hand reading scored from the `hand_reading_moments` frame: the four built-in methods
//! and users' methods (external commands speaking the JSON-lines protocol: one object per
//! moment with what seat V sees, answered with 34 weights), over the same moments, so that
//! `--limit` and `--where` compare every method on equal ground.
//!
//! The frame is read a slice of rows at a time and in order; moments go to the commands a
//! batch at a time (the next batch is sent before the answers of the one before are awaited,
//! as in `haifu agree`). Each moment's metrics are rounded to 2^-32 and added as integers in
//! frame order, so the sums are the ones the `hand_reading` frame holds for the built-ins
//! (the observer rounds alike), whatever the thread count. Any engine failure is an
//! [`super::engine::EngineError`] and no report.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use polars::prelude::*;

use super::engine::{EngineCommand, External, Weights};
use super::protocol::{json_head, json_melds, json_rivers, json_tiles, HandsCursor};
use super::slice::Slice;
use crate::agree::replay::RiverTile;
use crate::frames::dataset::{self, Slices};
use crate::frames::{parse_kind_digits, parse_kitas, split, HAND_READING_MOMENTS};
use crate::rules::{Players, NORTH};
use crate::stats::danger_moments::LAST_TURN;
use crate::stats::decisions::{parse_melds, parse_types, MeldText};
use crate::stats::hand_reading::{reading_metrics_for, to_units, Logs, METHODS};
use crate::tile::{self, KINDS};

/// Rows of the frame read at a time.
const SLICE_ROWS: usize = 1 << 16;
/// Moments per batch sent to the commands.
const BATCH: usize = 8192;
const TURNS: usize = LAST_TURN as usize + 1;

/// What to score, and over which moments.
pub(crate) struct Options<'a> {
    pub(crate) frames: PathBuf,
    /// External commands, each a method of its name (`cmd:CMD` unless named).
    pub(crate) commands: Vec<EngineCommand>,
    pub(crate) timeout: Duration,
    /// Only the first N moments in frame order (after the slice).
    pub(crate) limit: Option<u64>,
    pub(crate) slice: Option<&'a Slice>,
    /// The table of the frames' games (§24: three players have 27 kinds and kita Norths).
    pub(crate) players: Players,
}

/// One moment of the frame.
#[derive(Clone, Debug)]
pub(crate) struct Moment {
    pub(crate) game_id: String,
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    pub(crate) turn: u8,
    pub(crate) after_call: bool,
    /// V's concealed tiles' types.
    pub(crate) tiles: Vec<usize>,
    pub(crate) melds: [Vec<MeldText>; 4],
    pub(crate) rivers: [Vec<RiverTile>; 4],
    /// Dora indicators' types.
    pub(crate) dora: Vec<usize>,
    /// s(k): the other concealed hands' copies.
    pub(crate) others: [u8; KINDS],
    /// Every seat's kita Norths (§24; frames written before they were kept have none).
    pub(crate) kitas: [u8; 4],
}

impl Moment {
    /// u(k) = 4 − (dora indicators + V's concealed copies + every meld tile + river tiles not
    /// called + kita Norths) (§16), 0 for the kinds a game of `players` lacks (2m–8m, §24).
    pub(crate) fn unseen(&self, players: Players) -> [u8; KINDS] {
        let mut seen = [0u8; KINDS];
        let kind = tile::type_kind;
        for &t in self.dora.iter().chain(&self.tiles) {
            seen[kind(t)] += 1;
        }
        for m in self.melds.iter().flatten() {
            for &t in &m.tiles {
                seen[kind(t)] += 1;
            }
        }
        for r in self.rivers.iter().flatten().filter(|r| !r.called) {
            seen[kind(usize::from(r.tile))] += 1;
        }
        seen[NORTH] += self.kitas.iter().sum::<u8>();
        std::array::from_fn(|k| {
            if players.has_kind(k) {
                4u8.saturating_sub(seen[k])
            } else {
                0
            }
        })
    }

    /// The moment's request object (one line, no newline).
    fn write_json(
        &self,
        out: &mut String,
        id: u64,
        ctx: &super::protocol::HandContext,
        players: Players,
    ) {
        json_head(out, id, &self.game_id, self.hand, self.seat, ctx);
        json_tiles(out, self.dora.iter().copied());
        crate::agree::write_players(out, players, self.kitas);
        let after = if self.after_call { "call" } else { "draw" };
        let _ = write!(
            out,
            ",\"turn\":{},\"after\":\"{after}\",\"tiles\":",
            self.turn
        );
        json_tiles(out, self.tiles.iter().copied());
        out.push_str(",\"melds\":");
        json_melds(out, &self.melds);
        out.push_str(",\"rivers\":");
        json_rivers(out, &self.rivers);
        out.push('}');
    }
}

/// A river as the frame writes it (`4zt1m5pr`: type names, each followed by its flags `t`
/// tsumogiri, `r` riichi, `c` called).
pub(crate) fn parse_river(s: &str) -> Option<Vec<RiverTile>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 2);
    let mut i = 0;
    while i < b.len() {
        let t = tile::parse_type(s.get(i..i + 2)?)?;
        i += 2;
        let mut r = RiverTile {
            tile: t as u8,
            tsumogiri: false,
            riichi: false,
            called: false,
            seq: None,
        };
        while let Some(&c) = b.get(i) {
            match c {
                b't' => r.tsumogiri = true,
                b'r' => r.riichi = true,
                b'c' => r.called = true,
                _ => break,
            }
            i += 1;
        }
        out.push(r);
    }
    Some(out)
}

/// Four seats' fields separated by `|`, each parsed by `parse`.
fn per_seat<T>(s: &str, parse: impl Fn(&str) -> Option<T>) -> Option<[T; 4]> {
    let mut parts = s.split('|');
    let out = [(); 4].map(|_| parts.next().and_then(&parse));
    if parts.next().is_some() {
        return None;
    }
    let [a, b, c, d] = out;
    Some([a?, b?, c?, d?])
}

/// The moments of one slice of the frame.
pub(crate) fn parse_moments(df: &DataFrame) -> Result<Vec<Moment>> {
    let text = |c: &str| -> Result<StringChunked> { Ok(df.column(c)?.str()?.clone()) };
    let int = |c: &str| -> Result<Int32Chunked> { Ok(df.column(c)?.i32()?.clone()) };
    let (game_id, after, tiles, melds, rivers, dora, others) = (
        text("game_id")?,
        text("after")?,
        text("tiles")?,
        text("melds")?,
        text("rivers")?,
        text("dora")?,
        text("others")?,
    );
    let (hand, seat, turn) = (int("hand")?, int("seat")?, int("turn")?);
    // Frames written before three-player views were kept have no `kitas`.
    let kitas = match df.column("kitas") {
        Ok(c) => Some(c.str()?.clone()),
        Err(_) => None,
    };
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let bad = |what: &str| format!("{HAND_READING_MOMENTS} row {i}: malformed {what}");
        fn s(c: &StringChunked, i: usize) -> &str {
            c.get(i).unwrap_or_default()
        }
        out.push(Moment {
            game_id: s(&game_id, i).to_string(),
            hand: hand.get(i).unwrap_or(0) as u16,
            seat: seat.get(i).unwrap_or(0) as u8,
            turn: turn.get(i).unwrap_or(0) as u8,
            after_call: s(&after, i) == "call",
            tiles: parse_types(s(&tiles, i)).with_context(|| bad("tiles"))?,
            melds: per_seat(s(&melds, i), parse_melds).with_context(|| bad("melds"))?,
            rivers: per_seat(s(&rivers, i), parse_river).with_context(|| bad("rivers"))?,
            dora: parse_types(s(&dora, i)).with_context(|| bad("dora"))?,
            others: parse_kind_digits(s(&others, i)).with_context(|| bad("others"))?,
            kitas: match &kitas {
                Some(c) => parse_kitas(s(c, i)).with_context(|| bad("kitas"))?,
                None => [0; 4],
            },
        });
    }
    Ok(out)
}

/// Per (seat, turn capped at [`LAST_TURN`], method): moments and the exact sums of RMSE and
/// cross-entropy in 2^-32 units.
type Sums = Vec<[[(u32, [i64; 2]); TURNS]; 4]>;

/// Scores the built-in methods and `opts.commands` over the moments; returns a frame shaped
/// as `hand_reading` (seat, turn, method, moments and the split sums, one row per key with a
/// moment), which the bundled `hand-reading` query reads, and the number of moments.
pub(crate) fn run(opts: &Options<'_>) -> Result<(DataFrame, u64)> {
    let slices = Slices::new(
        dataset::require(&opts.frames, HAND_READING_MOMENTS)?,
        SLICE_ROWS,
    );
    let mut externals: Vec<External<Weights>> = opts
        .commands
        .iter()
        .map(|c| External::start(&c.cmd, opts.timeout, "moment"))
        .collect::<Result<_>>()?;
    let mut hands = (!externals.is_empty())
        .then(|| HandsCursor::open(&opts.frames))
        .transpose()?;
    let methods: Vec<String> = METHODS
        .iter()
        .map(|m| m.to_string())
        .chain(opts.commands.iter().map(|c| c.name.clone()))
        .collect();
    let mut sums: Sums = vec![[[(0, [0; 2]); TURNS]; 4]; methods.len()];
    let logs = Logs::default();
    let mut json = String::with_capacity(8192);
    let mut waiting: Option<Vec<Moment>> = None;
    let (mut taken, mut next_id) = (0u64, 0u64);
    'slices: for df in slices {
        let mut df = df?;
        if let Some(s) = opts.slice {
            df = df.lazy().filter(s.keeps()).collect()?;
        }
        let mut moments = parse_moments(&df)?.into_iter();
        loop {
            let mut batch: Vec<Moment> = moments.by_ref().take(BATCH).collect();
            if let Some(l) = opts.limit {
                batch.truncate((l - taken).min(batch.len() as u64) as usize);
            }
            if batch.is_empty() {
                break;
            }
            taken += batch.len() as u64;
            for m in &batch {
                if let Some(h) = hands.as_mut() {
                    let ctx = h.find(&m.game_id, m.hand)?;
                    json.clear();
                    m.write_json(&mut json, next_id, &ctx, opts.players);
                    for e in &mut externals {
                        assert_eq!(e.next_id(), next_id, "moment ids in step");
                        e.send(&json);
                    }
                }
                next_id += 1;
            }
            // The built-ins while the engines think.
            for m in &batch {
                let scores = logs.all_metrics(&m.unseen(opts.players), &m.others, opts.players);
                for (b, x) in scores.iter().enumerate() {
                    add(&mut sums[b], m, *x);
                }
            }
            let first = next_id - batch.len() as u64;
            if let Some(before) = waiting.replace(batch) {
                score(
                    &before,
                    first - before.len() as u64,
                    &mut externals,
                    &mut sums,
                    opts.players,
                )?;
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
        score(
            &last,
            next_id - last.len() as u64,
            &mut externals,
            &mut sums,
            opts.players,
        )?;
    }
    for e in externals {
        e.finish()?;
    }
    Ok((sums_frame(&methods, &sums)?, taken))
}

/// Adds one moment's metrics to a method's sums.
fn add(sums: &mut [[(u32, [i64; 2]); TURNS]; 4], m: &Moment, x: [f64; 2]) {
    let cell = &mut sums[usize::from(m.seat)][usize::from(m.turn.min(LAST_TURN))];
    cell.0 += 1;
    for (unit, x) in cell.1.iter_mut().zip(x) {
        *unit += to_units(x);
    }
}

/// Collects every command's answers to `batch` (ids from `first`) and adds their metrics.
fn score(
    batch: &[Moment],
    first: u64,
    externals: &mut [External<Weights>],
    sums: &mut Sums,
    players: Players,
) -> Result<()> {
    for (e, method_sums) in externals.iter_mut().zip(&mut sums[METHODS.len()..]) {
        let answers = e.collect(batch.len(), |i| describe(first + i as u64, &batch[i]))?;
        for (m, w) in batch.iter().zip(answers) {
            let total: f64 = w.0.iter().sum();
            let g = w.0.map(|x| x / total);
            add(method_sums, m, reading_metrics_for(&g, &m.others, players));
        }
    }
    Ok(())
}

/// A moment as an error names it.
fn describe(id: u64, m: &Moment) -> String {
    format!(
        "{id}: game {} hand {} seat {} turn {}",
        m.game_id, m.hand, m.seat, m.turn
    )
}

/// The sums as rows shaped like the `hand_reading` frame's.
fn sums_frame(methods: &[String], sums: &Sums) -> Result<DataFrame> {
    let (mut seat, mut turn, mut method, mut moments) = (vec![], vec![], vec![], vec![]);
    let mut parts: [Vec<i64>; 4] = Default::default();
    for v in 0..4 {
        for t in 0..TURNS {
            for (name, s) in methods.iter().zip(sums) {
                let (n, units) = s[v][t];
                if n == 0 {
                    continue;
                }
                seat.push(v as i32);
                turn.push(t as i32);
                method.push(name.as_str());
                moments.push(n as i32);
                for (m, &u) in units.iter().enumerate() {
                    let (hi, lo) = split(u);
                    parts[2 * m].push(hi);
                    parts[2 * m + 1].push(lo);
                }
            }
        }
    }
    let [rh, rl, ch, cl] = parts;
    Ok(DataFrame::new_infer_height(vec![
        Column::new("seat".into(), seat),
        Column::new("turn".into(), turn),
        Column::new("method".into(), method),
        Column::new("moments".into(), moments),
        Column::new("rmse_hi".into(), rh),
        Column::new("rmse_lo".into(), rl),
        Column::new("cross_entropy_hi".into(), ch),
        Column::new("cross_entropy_lo".into(), cl),
    ])?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// u(k) by hand: V holds a North and 1m 1m; a dora indicator 1m; seat 1's river has a
    /// North not called and a 2m called (in seat 2's chi 2m 3m 4m, which counts it once, as a
    /// meld tile); seats 0 and 2 have a kita North each.
    /// - Four players (kitas 0): 4z = 4 − (1 held + 1 river) = 2; 1m = 4 − 3 = 1; 2m, 3m, 4m
    ///   = 3 each; 5m = 4.
    /// - Three players with the kitas: 4z = 4 − 1 − 1 − 2 = 0; 1m = 1; 2m–8m 0 (not in the
    ///   game); 9m = 4.
    #[test]
    fn unseen_counts_the_kitas_and_the_game_kinds() {
        let river = |tile: usize, called: bool| RiverTile {
            tile: tile as u8,
            tsumogiri: false,
            riichi: false,
            called,
            seq: None,
        };
        let chi = MeldText {
            kind: "chi",
            tiles: vec![1, 2, 3],
            from: 1,
        };
        let mut m = Moment {
            game_id: "g".into(),
            hand: 0,
            seat: 0,
            turn: 3,
            after_call: false,
            tiles: vec![0, 0, NORTH],
            melds: [vec![], vec![], vec![chi], vec![]],
            rivers: [
                vec![],
                vec![river(NORTH, false), river(1, true)],
                vec![],
                vec![],
            ],
            dora: vec![0],
            others: [0; KINDS],
            kitas: [0; 4],
        };
        let u = m.unseen(Players::Four);
        assert_eq!((u[NORTH], u[0], u[1], u[2], u[3], u[4]), (2, 1, 3, 3, 3, 4));
        m.kitas = [1, 0, 1, 0];
        let u = m.unseen(Players::Three);
        assert_eq!((u[NORTH], u[0], u[8]), (0, 1, 4));
        assert!(u[1..8].iter().all(|&c| c == 0));
        assert_eq!(u[9], 4);
    }
}
