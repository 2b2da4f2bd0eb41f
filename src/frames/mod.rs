//! The Parquet frames of statistics.md §6: column builders filled game by game, turned into
//! [`FrameChunk`]s a batch at a time, and written as row groups of one Parquet file each.

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

/// Column builders for the per-game frames of one batch of games.
#[derive(Default)]
pub struct FrameBatch {
    /// Game ids of the batch; other frames' rows refer to them by index.
    ids: Vec<String>,
    games: GamesColumns,
    hands: HandsColumns,
    riichi: RiichiResponseColumns,
    waits: WaitDangerColumns,
    situations: DangerSituationColumns,
    /// Built-in estimator rows of `danger_eval` (`phoenix-table` is added once the run is
    /// complete).
    eval: EvalRows,
}

impl FrameBatch {
    /// Appends one replayed game.
    pub fn push(&mut self, g: &GameRows) {
        let f = &g.facts;
        let gi = self.ids.len() as u32;
        self.ids.push(g.game_id.clone());
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

    /// True when no game was pushed since the last `take`.
    pub fn is_empty(&self) -> bool {
        self.games.game_id.is_empty()
    }

    /// The batch as chunks in [`GAME_FRAMES`] order; the builders are left empty.
    pub fn take(&mut self) -> Vec<FrameChunk> {
        // Rows of the other frames refer to their game by index into the batch's ids.
        let ids = std::mem::take(&mut self.ids);
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let g = std::mem::take(&mut self.games);
        let h = std::mem::take(&mut self.hands);
        let r = std::mem::take(&mut self.riichi);
        let w = std::mem::take(&mut self.waits);
        let d = std::mem::take(&mut self.situations);
        let [n0, n1, n2, n3] = g.names;
        let [s0, s1, s2, s3] = g.scores;
        let [p0, p1, p2, p3] = g.places;
        let games = FrameChunk::default()
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
            .int("place_3", p3);
        let [d0, d1, d2, d3] = h.deltas;
        let hands = FrameChunk::default()
            .labels("game_id", &ids, h.game_id)
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
            .int("draws", h.draws);
        let riichi = FrameChunk::default()
            .labels("game_id", &ids, r.game_id)
            .int("hand", r.hand)
            .int("seat", r.seat)
            .int("riichi_seat", r.riichi_seat)
            .strings("outcome", r.outcome.iter().map(|&o| Some(o)))
            .int("income", r.income)
            .int("shanten", r.shanten)
            .boolean("seat_is_dealer", &r.seat_is_dealer)
            .boolean("riichi_is_dealer", &r.riichi_is_dealer)
            .int("riichi_turn", r.riichi_turn);
        let kind_names: Vec<&str> = (0..KINDS).map(tile::kind_name).collect();
        let mut category_names = [""; Category::ALL.len()];
        for c in Category::ALL {
            category_names[c.index()] = c.name();
        }
        let shape_names = WAIT_SHAPES.map(WaitShape::name);
        let waits = FrameChunk::default()
            .labels("game_id", &ids, w.game_id)
            .int("hand", w.hand)
            .int("riichi_seat", w.riichi_seat)
            .labels("kind", &kind_names, w.kind)
            .labels("category", &category_names, w.category)
            .boolean("is_wait", &w.is_wait)
            .labels("wait_shape", &shape_names, w.wait_shape);
        let situations = FrameChunk::default()
            .labels("game_id", &ids, d.game_id)
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
            .text("waits", &digits(&d.waits));
        let eval = self
            .eval
            .take_chunk(&ids, &crate::danger_eval::DEFAULT_ESTIMATORS);
        vec![games, hands, riichi, waits, situations, eval]
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
