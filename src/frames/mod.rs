//! The Parquet frames of statistics.md §6: column builders filled game by game, turned into
//! [`FrameChunk`]s a row group at a time ([`ROW_GROUP_ROWS`]), and written as row groups of one
//! Parquet file each.

mod chunk;
mod writer;

pub use chunk::FrameChunk;
pub use writer::{write_atomically, FrameWriter};

use polars::prelude::*;

use crate::danger::{Category, Scores};
use crate::danger_eval::{EvalKey, EvalRows};
use crate::hand::WaitShape;
use crate::mjlog::room_of;
use crate::replay::GameFacts;
use crate::stats::draw_rate::{cell_key, DrawRateCells, DrawRecord};
use crate::stats::{DangerSituation, RiichiResponseRow, WaitDangerRow};
use crate::tile::{self, KINDS};

/// Everything one game contributes to the frames.
#[derive(Debug)]
pub struct GameRows {
    pub game_id: String,
    pub source: String,
    pub facts: GameFacts,
    pub riichi_response: Vec<RiichiResponseRow>,
    pub wait_danger: Vec<WaitDangerRow>,
    pub danger_situations: Vec<DangerSituation>,
    /// Scores of the built-in estimators, one entry per situation not excluded, in order.
    pub danger_scores: Vec<[Scores; 5]>,
    /// The game's draw records when its draw-rate units are left to the merger (a log id
    /// another input also has); empty otherwise.
    pub draws: Vec<DrawRecord>,
}

impl GameRows {
    /// The rows of a game that replayed whole, as [`crate::stats::observe_game`] gave them.
    pub fn new(game_id: String, source: String, o: crate::stats::GameObservations) -> Self {
        GameRows {
            game_id,
            source,
            facts: o.facts,
            riichi_response: o.riichi_response,
            wait_danger: o.wait_danger,
            danger_situations: o.danger_situations,
            danger_scores: o.danger_scores,
            draws: Vec::new(),
        }
    }
}

/// Every frame an ingest writes (each `<name>.parquet` next to `manifest.json`).
pub const FRAMES: [&str; 9] = [
    "games",
    "hands",
    "riichi_response",
    "wait_danger",
    "draw_rate",
    "danger_situations",
    "danger_eval",
    "danger_calibration",
    "danger_eval_summary",
];

/// Names of the per-game frames, in the order they are written.
pub const GAME_FRAMES: [&str; 6] = [
    "games",
    "hands",
    "riichi_response",
    "wait_danger",
    "danger_situations",
    "danger_eval",
];

#[derive(Default)]
struct GamesColumns {
    game_id: Vec<String>,
    go_type: Vec<i32>,
    room: Vec<&'static str>,
    hanchan: Vec<bool>,
    red: Vec<bool>,
    hands: Vec<i32>,
    source: Vec<String>,
    names: [Vec<String>; 4],
    scores: [Vec<i32>; 4],
    places: [Vec<i32>; 4],
}

#[derive(Default)]
struct HandsColumns {
    game_id: Vec<u32>,
    /// The game's room, so that per-room figures need no join with `games`.
    room: Vec<&'static str>,
    hand: Vec<i32>,
    round: Vec<i32>,
    honba: Vec<i32>,
    kyotaku: Vec<i32>,
    dealer: Vec<i32>,
    end: Vec<String>,
    deltas: [Vec<i32>; 4],
    declarations: Vec<i32>,
    callers: Vec<i32>,
    wins: Vec<i32>,
    win_value: Vec<i32>,
    draws: Vec<i32>,
}

#[derive(Default)]
struct RiichiResponseColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    riichi_seat: Vec<i32>,
    outcome: Vec<&'static str>,
    income: Vec<i32>,
    shanten: Vec<i32>,
    seat_is_dealer: Vec<bool>,
    riichi_is_dealer: Vec<bool>,
    riichi_turn: Vec<i32>,
}

#[derive(Default)]
struct WaitDangerColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    /// Kind index (0..34).
    kind: Vec<u32>,
    /// [`Category::index`].
    category: Vec<u32>,
    is_wait: Vec<bool>,
    /// Index into [`WAIT_SHAPES`]; `WAIT_SHAPES.len()` for a kind that is not a wait.
    wait_shape: Vec<u32>,
}

#[derive(Default)]
struct DangerSituationColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    observer_seat: Vec<i32>,
    moment: Vec<&'static str>,
    riichi_turn: Vec<i32>,
    riichi_is_dealer: Vec<bool>,
    excluded: Vec<Option<&'static str>>,
    /// [`kind_digits`] of each per-kind array.
    visible: Vec<[u8; KINDS]>,
    observer_holds: Vec<[u8; KINDS]>,
    genbutsu: Vec<[u8; KINDS]>,
    waits: Vec<[u8; KINDS]>,
}

/// The wait shapes in discriminant order (`shape as u32` indexes this).
const WAIT_SHAPES: [WaitShape; 5] = [
    WaitShape::Tanki,
    WaitShape::Shanpon,
    WaitShape::Kanchan,
    WaitShape::Penchan,
    WaitShape::Ryanmen,
];

/// A per-kind array as 34 digits in kind order (1m..9m, 1p..9p, 1s..9s, 1z..7z); a value
/// above 9 is written as 9.
pub fn kind_digits<T: Copy + Into<u32>>(a: &[T; KINDS]) -> [u8; KINDS] {
    a.map(|v| b'0' + v.into().min(9) as u8)
}

/// [`kind_digits`] rows as text.
fn digits(rows: &[[u8; KINDS]]) -> Vec<&str> {
    rows.iter()
        .map(|d| std::str::from_utf8(d).expect("ASCII digits"))
        .collect()
}

/// Inverse of [`kind_digits`] (as text); None unless `s` is 34 decimal digits.
pub fn parse_kind_digits(s: &str) -> Option<[u8; KINDS]> {
    let b = s.as_bytes();
    if b.len() != KINDS || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(std::array::from_fn(|k| b[k] - b'0'))
}

/// The fewest rows a per-game frame's row group holds (except its last), in
/// [`GAME_FRAMES`] order: a frame's pending rows are written once they reach this, so the
/// number of row groups, and the footer metadata a Parquet writer keeps for each until the
/// file is finished (about 2 KB per column), grows with the rows written, not with the
/// batches merged. Each is chosen so that a frame's pending rows take a few MiB of builders.
pub const ROW_GROUP_ROWS: [usize; GAME_FRAMES.len()] = [
    1 << 13, // games: about 350 bytes a row (names, source path)
    1 << 15, // hands: about 100 bytes a row
    1 << 16, // riichi_response: about 45 bytes a row
    1 << 18, // wait_danger: about 20 bytes a row
    1 << 15, // danger_situations: about 190 bytes a row (four 34-digit strings)
    1 << 17, // danger_eval: about 75 bytes a row
];

/// Column builders for the per-game frames, holding each frame's rows until they fill a
/// row group ([`ROW_GROUP_ROWS`]).
///
/// Invariant: every pending row of a labelled frame refers to its game by sequence number
/// (games pushed so far), and `ids[n - ids_base]` is game n's id for every game a pending
/// row refers to, i.e. for every n ≥ `first[f]` of each frame f with pending rows.
pub struct PendingFrames {
    /// [`ROW_GROUP_ROWS`] (other values in tests).
    row_group_rows: [usize; GAME_FRAMES.len()],
    /// Game ids from sequence number `ids_base` on.
    ids: std::collections::VecDeque<String>,
    ids_base: u32,
    /// Sequence number of the next game pushed.
    next_game: u32,
    /// Per frame ([`GAME_FRAMES`] order), the sequence number of the first game its pending
    /// rows may refer to.
    first: [u32; GAME_FRAMES.len()],
    games: GamesColumns,
    hands: HandsColumns,
    riichi: RiichiResponseColumns,
    waits: WaitDangerColumns,
    situations: DangerSituationColumns,
    /// Built-in estimator rows of `danger_eval` (`phoenix-table` is added once the run is
    /// complete).
    eval: EvalRows,
}

impl Default for PendingFrames {
    fn default() -> Self {
        PendingFrames::with_row_group_rows(ROW_GROUP_ROWS)
    }
}

impl PendingFrames {
    /// Builders that write frame f's rows once they reach `rows[f]` rows.
    pub fn with_row_group_rows(rows: [usize; GAME_FRAMES.len()]) -> Self {
        PendingFrames {
            row_group_rows: rows,
            ids: Default::default(),
            ids_base: 0,
            next_game: 0,
            first: Default::default(),
            games: Default::default(),
            hands: Default::default(),
            riichi: Default::default(),
            waits: Default::default(),
            situations: Default::default(),
            eval: Default::default(),
        }
    }

    /// Appends one replayed game.
    pub fn push(&mut self, g: &GameRows) {
        let f = &g.facts;
        let gi = self.next_game;
        self.next_game += 1;
        self.ids.push_back(g.game_id.clone());
        let gc = &mut self.games;
        gc.game_id.push(g.game_id.clone());
        gc.go_type.push(f.go_type as i32);
        gc.room.push(room_of(f.go_type));
        gc.hanchan
            .push(f.go_type & crate::mjlog::go_type::HANCHAN != 0);
        gc.red.push(f.red);
        gc.hands.push(f.hands.len() as i32);
        gc.source.push(g.source.clone());
        for s in 0..4 {
            gc.names[s].push(f.names[s].clone());
            gc.scores[s].push(f.final_scores[s]);
            gc.places[s].push(f.places[s] as i32);
        }
        let hc = &mut self.hands;
        for (i, h) in f.hands.iter().enumerate() {
            hc.game_id.push(gi);
            hc.room.push(room_of(f.go_type));
            hc.hand.push(i as i32);
            hc.round.push(h.round as i32);
            hc.honba.push(h.honba as i32);
            hc.kyotaku.push(h.kyotaku as i32);
            hc.dealer.push(h.dealer as i32);
            hc.end.push(h.end.clone());
            for s in 0..4 {
                hc.deltas[s].push(h.deltas[s]);
            }
            hc.declarations.push(h.declarations as i32);
            hc.callers.push(h.callers as i32);
            hc.wins.push(h.wins as i32);
            hc.win_value.push(h.win_value);
            hc.draws.push(h.draws as i32);
        }
        let rc = &mut self.riichi;
        for r in &g.riichi_response {
            rc.game_id.push(gi);
            rc.hand.push(r.hand as i32);
            rc.seat.push(r.seat as i32);
            rc.riichi_seat.push(r.riichi_seat as i32);
            rc.outcome.push(r.outcome.name());
            rc.income.push(r.income);
            rc.shanten.push(r.shanten as i32);
            rc.seat_is_dealer.push(r.seat_is_dealer);
            rc.riichi_is_dealer.push(r.riichi_is_dealer);
            rc.riichi_turn.push(r.riichi_turn as i32);
        }
        let wc = &mut self.waits;
        for w in &g.wait_danger {
            for k in 0..KINDS {
                wc.game_id.push(gi);
                wc.hand.push(w.hand as i32);
                wc.riichi_seat.push(w.riichi_seat as i32);
                wc.kind.push(k as u32);
                wc.category.push(w.category[k].index() as u32);
                wc.is_wait.push(w.shape[k].is_some());
                wc.wait_shape
                    .push(w.shape[k].map_or(WAIT_SHAPES.len() as u32, |s| s as u32));
            }
        }
        let included = g.danger_situations.iter().filter(|d| d.excluded.is_none());
        for (d, scores) in included.zip(&g.danger_scores) {
            let key = EvalKey::of(gi, d);
            for (e, s) in scores.iter().enumerate() {
                self.eval.push(&key, e as u8, s);
            }
        }
        let sc = &mut self.situations;
        for d in &g.danger_situations {
            sc.game_id.push(gi);
            sc.hand.push(d.hand as i32);
            sc.riichi_seat.push(d.riichi_seat as i32);
            sc.observer_seat.push((d.riichi_seat as i32 + 1) % 4);
            sc.moment.push(d.moment.name());
            sc.riichi_turn.push(d.riichi_turn as i32);
            sc.riichi_is_dealer.push(d.riichi_is_dealer);
            sc.excluded.push(d.excluded);
            sc.visible.push(kind_digits(&d.visible));
            sc.observer_holds.push(kind_digits(&d.observer_holds));
            sc.genbutsu.push(kind_digits(&d.genbutsu));
            sc.waits.push(kind_digits(&d.waits));
        }
    }

    /// Pending rows of each frame, in [`GAME_FRAMES`] order.
    fn pending(&self) -> [usize; GAME_FRAMES.len()] {
        [
            self.games.game_id.len(),
            self.hands.hand.len(),
            self.riichi.hand.len(),
            self.waits.hand.len(),
            self.situations.hand.len(),
            self.eval.len(),
        ]
    }

    /// The frames whose pending rows fill a row group (see [`ROW_GROUP_ROWS`]), or, with `all`,
    /// every frame with pending rows, as (index into [`GAME_FRAMES`], chunk); their builders
    /// are left empty.
    pub fn take_ready(&mut self, all: bool) -> Vec<(usize, FrameChunk)> {
        let pending = self.pending();
        let ready: Vec<usize> = (0..GAME_FRAMES.len())
            .filter(|&f| pending[f] > 0 && (all || pending[f] >= self.row_group_rows[f]))
            .collect();
        let chunks = ready.iter().map(|&f| (f, self.take_frame(f))).collect();
        // A frame without pending rows refers to no game before the next one; the ids no
        // pending row refers to are dropped.
        let pending = self.pending();
        for (first, rows) in self.first.iter_mut().zip(pending) {
            if rows == 0 {
                *first = self.next_game;
            }
        }
        let oldest = self.first.iter().copied().min().unwrap_or(self.next_game);
        self.ids.drain(..(oldest - self.ids_base) as usize);
        self.ids_base = oldest;
        chunks
    }

    /// Frame `f`'s pending rows as a chunk (its builder is left empty); its rows' game codes
    /// become indices into the ids of the games from `first[f]` on.
    fn take_frame(&mut self, f: usize) -> FrameChunk {
        let first = self.first[f];
        self.first[f] = self.next_game;
        let ids: Vec<&str> = self
            .ids
            .range((first - self.ids_base) as usize..)
            .map(String::as_str)
            .collect();
        let rebase = |mut codes: Vec<u32>| {
            codes.iter_mut().for_each(|c| *c -= first);
            codes
        };
        match f {
            0 => {
                let g = std::mem::take(&mut self.games);
                let [n0, n1, n2, n3] = g.names;
                let [s0, s1, s2, s3] = g.scores;
                let [p0, p1, p2, p3] = g.places;
                FrameChunk::default()
                    .unique_text("game_id", &g.game_id)
                    .int("go_type", g.go_type)
                    .strings("room", g.room.iter().map(|&r| Some(r)))
                    .boolean("hanchan", &g.hanchan)
                    .boolean("red", &g.red)
                    .int("hands", g.hands)
                    .unique_text("source", &g.source)
                    .text("name_0", &n0)
                    .text("name_1", &n1)
                    .text("name_2", &n2)
                    .text("name_3", &n3)
                    .int("score_0", s0)
                    .int("score_1", s1)
                    .int("score_2", s2)
                    .int("score_3", s3)
                    .int("place_0", p0)
                    .int("place_1", p1)
                    .int("place_2", p2)
                    .int("place_3", p3)
            }
            1 => {
                let h = std::mem::take(&mut self.hands);
                let [d0, d1, d2, d3] = h.deltas;
                FrameChunk::default()
                    .labels("game_id", &ids, rebase(h.game_id))
                    .strings("room", h.room.iter().map(|&r| Some(r)))
                    .int("hand", h.hand)
                    .int("round", h.round)
                    .int("honba", h.honba)
                    .int("kyotaku", h.kyotaku)
                    .int("dealer", h.dealer)
                    .strings("end", h.end.iter().map(|e| Some(e.as_str())))
                    .int("delta_0", d0)
                    .int("delta_1", d1)
                    .int("delta_2", d2)
                    .int("delta_3", d3)
                    .int("declarations", h.declarations)
                    .int("callers", h.callers)
                    .int("wins", h.wins)
                    .int("win_value", h.win_value)
                    .int("draws", h.draws)
            }
            2 => {
                let r = std::mem::take(&mut self.riichi);
                FrameChunk::default()
                    .labels("game_id", &ids, rebase(r.game_id))
                    .int("hand", r.hand)
                    .int("seat", r.seat)
                    .int("riichi_seat", r.riichi_seat)
                    .strings("outcome", r.outcome.iter().map(|&o| Some(o)))
                    .int("income", r.income)
                    .int("shanten", r.shanten)
                    .boolean("seat_is_dealer", &r.seat_is_dealer)
                    .boolean("riichi_is_dealer", &r.riichi_is_dealer)
                    .int("riichi_turn", r.riichi_turn)
            }
            3 => {
                let w = std::mem::take(&mut self.waits);
                let kind_names: Vec<&str> = (0..KINDS).map(tile::kind_name).collect();
                let mut category_names = [""; Category::ALL.len()];
                for c in Category::ALL {
                    category_names[c.index()] = c.name();
                }
                let shape_names = WAIT_SHAPES.map(WaitShape::name);
                FrameChunk::default()
                    .labels("game_id", &ids, rebase(w.game_id))
                    .int("hand", w.hand)
                    .int("riichi_seat", w.riichi_seat)
                    .labels("kind", &kind_names, w.kind)
                    .labels("category", &category_names, w.category)
                    .boolean("is_wait", &w.is_wait)
                    .labels("wait_shape", &shape_names, w.wait_shape)
            }
            4 => {
                let d = std::mem::take(&mut self.situations);
                FrameChunk::default()
                    .labels("game_id", &ids, rebase(d.game_id))
                    .int("hand", d.hand)
                    .int("riichi_seat", d.riichi_seat)
                    .int("observer_seat", d.observer_seat)
                    .strings("moment", d.moment.iter().map(|&m| Some(m)))
                    .int("riichi_turn", d.riichi_turn)
                    .boolean("riichi_is_dealer", &d.riichi_is_dealer)
                    .strings("excluded", d.excluded.iter().copied())
                    .text("visible", &digits(&d.visible))
                    .text("observer_holds", &digits(&d.observer_holds))
                    .text("genbutsu", &digits(&d.genbutsu))
                    .text("waits", &digits(&d.waits))
            }
            _ => self
                .eval
                .take_chunk(&ids, first, &crate::danger_eval::DEFAULT_ESTIMATORS),
        }
    }

    /// Every frame's chunk without rows (each frame's schema), in [`GAME_FRAMES`] order.
    pub fn empty_chunks() -> Vec<FrameChunk> {
        let mut empty = PendingFrames::default();
        (0..GAME_FRAMES.len())
            .map(|f| empty.take_frame(f))
            .collect()
    }
}

/// The `draw_rate` frame from run-wide cell counts (cells with no units are left out).
pub fn draw_rate_frame(cells: &DrawRateCells) -> PolarsResult<DataFrame> {
    let mut tile_type = Vec::new();
    let mut tile_class = Vec::new();
    let mut held = Vec::new();
    let mut visible = Vec::new();
    let mut turn = Vec::new();
    let mut units = Vec::new();
    let mut hits = Vec::new();
    let mut naive = Vec::new();
    for (c, counts) in cells.nonzero() {
        let (t, h, v, tu) = cell_key(c);
        tile_type.push(tile::type_name(t));
        tile_class.push(tile::type_class(t));
        held.push(h as i32);
        visible.push(v as i32);
        turn.push(tu as i32);
        units.push(counts.units as i64);
        hits.push(counts.hits as i64);
        naive.push(counts.naive_hits);
    }
    DataFrame::new_infer_height(vec![
        Column::new("tile_type".into(), tile_type),
        Column::new("tile_class".into(), tile_class),
        Column::new("held".into(), held),
        Column::new("visible".into(), visible),
        Column::new("turn".into(), turn),
        Column::new("units".into(), units),
        Column::new("hits".into(), hits),
        Column::new("naive_hits".into(), naive),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of every fixture game, each game given twice under two ids (so that row
    /// groups span games with and without rows in a frame).
    fn fixture_rows() -> Vec<GameRows> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect();
        paths.sort();
        let mut rows = Vec::new();
        for copy in 0..2 {
            for p in &paths {
                let bytes = std::fs::read(p).unwrap();
                let mut log = crate::mjlog::GameLog::default();
                crate::mjlog::decode::decode_into(&bytes, &mut log).unwrap();
                let Ok(o) = crate::stats::observe_game(&log, &mut Vec::new()) else {
                    continue;
                };
                let id = format!("{copy}/{}", p.display());
                rows.push(GameRows::new(id, p.display().to_string(), o));
            }
        }
        rows
    }

    /// Rows held across pushes and written a row group at a time read back as the same frames
    /// as one chunk per frame: each row keeps its own game id, whichever games the row
    /// group spans; every row group but a frame's last has at least its minimum of rows.
    #[test]
    fn row_groups_span_games_and_keep_each_rows_game_id() {
        let games = fixture_rows();
        assert!(games.len() >= 8, "the fixtures replay");
        let mut whole = PendingFrames::with_row_group_rows([usize::MAX; GAME_FRAMES.len()]);
        for g in &games {
            whole.push(g);
        }
        let whole = whole.take_ready(true);
        assert_eq!(whole.len(), GAME_FRAMES.len(), "every frame has rows");
        let minimum = [3, 7, 5, 100, 4, 9];
        let mut grouped = PendingFrames::with_row_group_rows(minimum);
        let mut chunks: Vec<Vec<FrameChunk>> = vec![Vec::new(); GAME_FRAMES.len()];
        for g in &games {
            grouped.push(g);
            for (f, c) in grouped.take_ready(false) {
                assert!(
                    c.height() >= minimum[f],
                    "{} row group too small",
                    GAME_FRAMES[f]
                );
                chunks[f].push(c);
            }
        }
        for (f, c) in grouped.take_ready(true) {
            chunks[f].push(c);
        }
        assert!(grouped.take_ready(true).is_empty(), "nothing left pending");
        for (f, one) in whole {
            assert!(
                chunks[f].len() > 1,
                "{} spans several row groups",
                GAME_FRAMES[f]
            );
            let mut parts = chunks[f]
                .iter()
                .map(|c| c.clone().into_dataframe().unwrap());
            let mut got = parts.next().unwrap();
            for p in parts {
                got.vstack_mut(&p).unwrap();
            }
            let want = one.into_dataframe().unwrap();
            assert!(got.equals_missing(&want), "{} differs", GAME_FRAMES[f]);
        }
    }

    /// Codes index the label lists: `shape as u32` and `moment as u32`.
    #[test]
    fn label_codes_match_label_order() {
        for (i, s) in WAIT_SHAPES.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        for (i, m) in crate::stats::Moment::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i);
        }
    }
}
