//! The §17–§20 frames (`--with tables`): `discard_units` (§18: one row per discard; the §17
//! units, discards that are neither a riichi declaration nor made after the discarder's
//! declaration, are its rows with `in_riichi` false), `placement_units` (§19: one row per hand
//! of a hanchan with `owari`, of four players or three) and `win_kinds` (§20: one row per AGARI record).

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::mjlog::{go_type, lacks};
use crate::rules::Players;
use crate::stats::{fold_of, DiscardUnit};
use crate::tile;

pub(super) const DISCARDS: &str = "discard_units";
pub(super) const PLACEMENT: &str = "placement_units";
pub(super) const WIN_KINDS: &str = "win_kinds";

/// akochan's permutation number `i` (0..24) as the seats from first to last (§19): start from
/// (0, 1, 2, 3); for m = 0, 1, 2 move the element at position m + ⌊(i mod (4 − m)!) / (3 − m)!⌋
/// to position m, shifting those between one place right.
pub fn akochan_order(i: usize) -> [u8; 4] {
    const FACT: [usize; 5] = [1, 1, 2, 6, 24];
    let mut v = [0u8, 1, 2, 3];
    for m in 0..3 {
        let j = m + (i % FACT[4 - m]) / FACT[3 - m];
        v[m..=j].rotate_right(1);
    }
    v
}

/// The number of the permutation `order` (seats from first to last) in akochan's numbering.
pub fn order_number(order: [u8; 4]) -> u8 {
    (0..24)
        .find(|&i| akochan_order(i) == order)
        .expect("a permutation of the four seats") as u8
}

/// The final order of a game: seats from first to last, from their places (1..=4).
fn order_of(places: [u8; 4]) -> [u8; 4] {
    let mut order = [0u8; 4];
    for (s, &p) in places.iter().enumerate() {
        order[(p - 1) as usize] = s as u8;
    }
    order
}

/// The six final orders of a three-player game (§24), seats from first to last, in their
/// numbering: lexicographic order of the seat lists.
pub(crate) const THREE_PLAYER_ORDERS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The number of a three-player game's final order (§24, [`THREE_PLAYER_ORDERS`]), from the
/// places (1..=3; the fourth seat's 0).
pub(super) fn order_number_three(places: [u8; 4]) -> u8 {
    let mut order = [0u8; 3];
    for (s, &p) in places.iter().enumerate().take(3) {
        order[usize::from(p.clamp(1, 3)) - 1] = s as u8;
    }
    THREE_PLAYER_ORDERS
        .iter()
        .position(|o| *o == order)
        .expect("a permutation of the three seats") as u8
}

/// The seats from first to last of order number `i` of a game of `players` (akochan's
/// numbering, or §24's), and how many there are (4 or 3).
pub(crate) fn order_seats(players: Players, i: usize) -> ([u8; 4], usize) {
    match players {
        Players::Four => (akochan_order(i), 4),
        Players::Three => {
            let [a, b, c] = THREE_PLAYER_ORDERS[i];
            ([a, b, c, 3], 3)
        }
    }
}

/// §17 and §18: one row per discard (every §18 unit), with the columns of both; the §17
/// units are its rows with `in_riichi` false. One frame rather than one per section: the two
/// share their keys and most columns, and the §17 units are nine in ten of the discards, so
/// two frames wrote most cells twice.
#[derive(Default)]
pub(super) struct Discards {
    game: Vec<u32>,
    fold: Vec<i32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    live_left: Vec<i32>,
    turns_left: Vec<i32>,
    turn: Vec<i32>,
    open_melds: Vec<i32>,
    ankan: Vec<i32>,
    tedashi: Vec<i32>,
    after_riichi: Vec<i32>,
    after_riichi_ako: Vec<i32>,
    riichi_others: Vec<i32>,
    honor_terminal_kinds: Vec<i32>,
    simple_kinds: Vec<i32>,
    dealer: Vec<bool>,
    shanten: Vec<i32>,
    in_riichi: Vec<bool>,
    won: Vec<bool>,
    won_within_2: Vec<bool>,
    exhaustive: Vec<bool>,
    tenpai_at_end: Vec<bool>,
}

pub(super) fn new_discards() -> Box<dyn GameFrame> {
    Box::<Discards>::default()
}

/// More rows than one game gives (about 480 discards a game on the Phoenix corpus): a row group
/// is taken once it holds `row_group_rows`, so it ends within a game of it.
const ROWS_PAST_A_ROW_GROUP: usize = 4096;

impl Discards {
    /// Room in every column for a row group of `rows` and a game's rows past it, when no row
    /// is pending (a capacity, never a value: `make mutants` leaves it out).
    fn reserve_row_group(&mut self, rows: usize) {
        if !self.hand.is_empty() {
            return;
        }
        let n = rows + ROWS_PAST_A_ROW_GROUP;
        for v in [
            &mut self.fold,
            &mut self.hand,
            &mut self.seat,
            &mut self.live_left,
            &mut self.turns_left,
            &mut self.turn,
            &mut self.open_melds,
            &mut self.ankan,
            &mut self.tedashi,
            &mut self.after_riichi,
            &mut self.after_riichi_ako,
            &mut self.riichi_others,
            &mut self.honor_terminal_kinds,
            &mut self.simple_kinds,
            &mut self.shanten,
        ] {
            v.reserve(n);
        }
        for v in [
            &mut self.dealer,
            &mut self.in_riichi,
            &mut self.won,
            &mut self.won_within_2,
            &mut self.exhaustive,
            &mut self.tenpai_at_end,
        ] {
            v.reserve(n);
        }
        self.game.reserve(n);
    }
}

impl GameFrame for Discards {
    fn name(&self) -> &'static str {
        DISCARDS
    }

    /// About 90 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        // A row group's columns at once, rather than grown and copied a doubling at a time.
        self.reserve_row_group(self.row_group_rows());
        let units = &g.obs.discard_units;
        let n = units.len();
        let fold = i32::from(fold_of(&g.game_id));
        self.game.resize(self.game.len() + n, game);
        self.fold.resize(self.fold.len() + n, fold);
        // A column at a time over the game's units (a few kilobytes, in cache): each extend
        // knows its length, so it checks the room once rather than once a row.
        let int = |col: &mut Vec<i32>, f: fn(&DiscardUnit) -> i32| col.extend(units.iter().map(f));
        let flag =
            |col: &mut Vec<bool>, f: fn(&DiscardUnit) -> bool| col.extend(units.iter().map(f));
        int(&mut self.hand, |u| i32::from(u.hand));
        int(&mut self.seat, |u| i32::from(u.seat));
        int(&mut self.live_left, |u| i32::from(u.live_left));
        int(&mut self.turns_left, |u| i32::from(u.turns_left));
        int(&mut self.turn, |u| i32::from(u.turn));
        int(&mut self.open_melds, |u| i32::from(u.open_melds));
        int(&mut self.ankan, |u| i32::from(u.ankan));
        int(&mut self.tedashi, |u| i32::from(u.tedashi));
        int(&mut self.after_riichi, |u| i32::from(u.after_riichi));
        int(&mut self.after_riichi_ako, |u| {
            i32::from(u.after_riichi_ako)
        });
        int(&mut self.riichi_others, |u| i32::from(u.riichi_others));
        int(&mut self.honor_terminal_kinds, |u| {
            i32::from(u.honor_terminal_kinds)
        });
        int(&mut self.simple_kinds, |u| i32::from(u.simple_kinds));
        flag(&mut self.dealer, |u| u.dealer);
        int(&mut self.shanten, |u| i32::from(u.shanten));
        flag(&mut self.in_riichi, |u| u.in_riichi);
        flag(&mut self.won, |u| u.won);
        flag(&mut self.won_within_2, |u| u.won_within_2);
        flag(&mut self.exhaustive, |u| u.exhaustive);
        flag(&mut self.tenpai_at_end, |u| u.tenpai_at_end);
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let d = std::mem::take(self);
        let tenpai: Vec<bool> = d.shanten.iter().map(|&s| s == 0).collect();
        FrameChunk::default()
            .labels("game_id", ids, rebase(d.game, first))
            .plain_int("hand", d.hand)
            .plain_int("seat", d.seat)
            .plain_int("fold", d.fold)
            .plain_int("live_left", d.live_left)
            .plain_int("turns_left", d.turns_left)
            .plain_int("turn", d.turn)
            .plain_int("open_melds", d.open_melds)
            .plain_int("ankan", d.ankan)
            .plain_int("tedashi", d.tedashi)
            .plain_int("after_riichi", d.after_riichi)
            .plain_int("after_riichi_ako", d.after_riichi_ako)
            .plain_int("riichi_others", d.riichi_others)
            .plain_int("honor_terminal_kinds", d.honor_terminal_kinds)
            .plain_int("simple_kinds", d.simple_kinds)
            .boolean("dealer", &d.dealer)
            .plain_int("shanten", d.shanten)
            .boolean("tenpai", &tenpai)
            .boolean("in_riichi", &d.in_riichi)
            .boolean("won", &d.won)
            .boolean("won_within_2", &d.won_within_2)
            .boolean("exhaustive", &d.exhaustive)
            .boolean("tenpai_at_end", &d.tenpai_at_end)
    }
}

/// §19: one row per hand of a hanchan whose final scores are known (§24: of three players, the
/// order is one of 6 and the fourth seat's score and place are 0).
#[derive(Default)]
pub(super) struct Placement {
    game: Vec<u32>,
    fold: Vec<i32>,
    hand: Vec<i32>,
    kyoku: Vec<i32>,
    honba: Vec<i32>,
    kyotaku: Vec<i32>,
    scores: [Vec<i32>; 4],
    order: Vec<i32>,
    rank: [Vec<i32>; 4],
}

pub(super) fn new_placement() -> Box<dyn GameFrame> {
    Box::<Placement>::default()
}

impl GameFrame for Placement {
    fn name(&self) -> &'static str {
        PLACEMENT
    }

    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let f = &g.obs.facts;
        let known = f.lacks & (lacks::RULES | lacks::FINAL_SCORES) == 0;
        if !known || f.go_type & go_type::HANCHAN == 0 {
            return;
        }
        let fold = i32::from(fold_of(&g.game_id));
        let order = i32::from(match f.players {
            Players::Four => order_number(order_of(f.places)),
            Players::Three => order_number_three(f.places),
        });
        for (i, h) in f.hands.iter().enumerate() {
            self.game.push(game);
            self.fold.push(fold);
            self.hand.push(i as i32);
            self.kyoku.push(i32::from(h.round));
            self.honba.push(i32::from(h.honba));
            self.kyotaku.push(i32::from(h.kyotaku));
            for s in 0..4 {
                self.scores[s].push(h.start[s]);
                self.rank[s].push(i32::from(f.places[s]));
            }
            self.order.push(order);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let p = std::mem::take(self);
        let [s0, s1, s2, s3] = p.scores;
        let [r0, r1, r2, r3] = p.rank;
        FrameChunk::default()
            .labels("game_id", ids, rebase(p.game, first))
            .plain_int("hand", p.hand)
            .plain_int("fold", p.fold)
            .plain_int("kyoku", p.kyoku)
            .plain_int("honba", p.honba)
            .plain_int("kyotaku", p.kyotaku)
            .plain_int("s0", s0)
            .plain_int("s1", s1)
            .plain_int("s2", s2)
            .plain_int("s3", s3)
            .plain_int("order", p.order)
            .plain_int("rank_0", r0)
            .plain_int("rank_1", r1)
            .plain_int("rank_2", r2)
            .plain_int("rank_3", r3)
    }
}

/// §20: one row per AGARI record.
#[derive(Default)]
pub(super) struct WinKinds {
    game: Vec<u32>,
    fold: Vec<i32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    dealer: Vec<bool>,
    state: Vec<&'static str>,
    tile: Vec<&'static str>,
    class: Vec<&'static str>,
    ron: Vec<bool>,
    points: Vec<i32>,
    limit: Vec<i32>,
}

pub(super) fn new_win_kinds() -> Box<dyn GameFrame> {
    Box::<WinKinds>::default()
}

impl GameFrame for WinKinds {
    fn name(&self) -> &'static str {
        WIN_KINDS
    }

    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let fold = i32::from(fold_of(&g.game_id));
        for w in &g.obs.win_kinds {
            self.game.push(game);
            self.fold.push(fold);
            self.hand.push(i32::from(w.hand));
            self.seat.push(i32::from(w.seat));
            self.dealer.push(w.dealer);
            self.state.push(w.state);
            self.tile.push(tile::kind_name(w.tile as usize));
            self.class
                .push(crate::stats::tables::kind_class(w.tile as usize));
            self.ron.push(w.ron);
            self.points.push(w.points);
            self.limit.push(w.limit);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let w = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(w.game, first))
            .plain_int("hand", w.hand)
            .plain_int("seat", w.seat)
            .plain_int("fold", w.fold)
            .boolean("dealer", &w.dealer)
            .strings("state", w.state.iter().map(|&k| Some(k)))
            .strings("tile", w.tile.iter().map(|&k| Some(k)))
            .strings("class", w.class.iter().map(|&k| Some(k)))
            .boolean("ron", &w.ron)
            .plain_int("points", w.points)
            .plain_int("limit", w.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// akochan's 24 permutations as its numbering lists them (`rank_prob`: i = 6a + 2b + c,
    /// the first seat the a-th of (0, 1, 2, 3), the second the b-th of those left, the third
    /// the c-th of those left), each found back from its order.
    #[test]
    fn akochan_permutations() {
        let want: [[u8; 4]; 24] = [
            [0, 1, 2, 3],
            [0, 1, 3, 2],
            [0, 2, 1, 3],
            [0, 2, 3, 1],
            [0, 3, 1, 2],
            [0, 3, 2, 1],
            [1, 0, 2, 3],
            [1, 0, 3, 2],
            [1, 2, 0, 3],
            [1, 2, 3, 0],
            [1, 3, 0, 2],
            [1, 3, 2, 0],
            [2, 0, 1, 3],
            [2, 0, 3, 1],
            [2, 1, 0, 3],
            [2, 1, 3, 0],
            [2, 3, 0, 1],
            [2, 3, 1, 0],
            [3, 0, 1, 2],
            [3, 0, 2, 1],
            [3, 1, 0, 2],
            [3, 1, 2, 0],
            [3, 2, 0, 1],
            [3, 2, 1, 0],
        ];
        for (i, w) in want.iter().enumerate() {
            assert_eq!(akochan_order(i), *w, "permutation {i}");
            assert_eq!(order_number(*w) as usize, i);
        }
        assert_eq!(order_of([2, 1, 4, 3]), [1, 0, 3, 2]);
    }
}

/// §24's numbering of the six three-player orders, each from its places.
#[cfg(test)]
#[test]
fn three_player_orders_are_numbered_lexicographically() {
    // Seat lists first to last, and the places that give them.
    let orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for (n, order) in orders.iter().enumerate() {
        let mut places = [0u8; 4];
        for (place, &seat) in order.iter().enumerate() {
            places[seat] = place as u8 + 1;
        }
        assert_eq!(order_number_three(places), n as u8, "{order:?}");
    }
}
