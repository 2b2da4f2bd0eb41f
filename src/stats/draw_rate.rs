//! §3 Draw rate by held and visible copies: every draw contributes each tile type of its game
//! once (37 types, or 29 in a three-player game with red fives: §24).
//!
//! The observer records one compact [`DrawRecord`] per draw; a game's records are committed
//! into a dense [`DrawRateCells`] accumulator only once the game has replayed whole (and, for a
//! log id that occurs twice in a run, only for the copy that lands). Counts are integers, the
//! naive expected hits included (fixed point, [`NAIVE_ONE`] per expected hit), so sums do not
//! depend on the order in which games or accumulators are added.

use std::ops::AddAssign;

use crate::replay::{HandState, Observer};
use crate::rules::Players;
use crate::tile::{self, FIVES, IDS, KINDS, TYPES};

/// Turns are stored 0..TURN_LIMIT; a player's turn + 1 cannot reach it (70 live-wall draws
/// and 4 replacement draws shared by four players).
pub(crate) const TURN_LIMIT: usize = 64;
/// Held and visible counts are 0..=4.
const COUNTS: usize = 5;
/// (held, visible) pairs.
const STATES: usize = COUNTS * COUNTS;
/// Cells per (type, turn): the states padded to a power of two, so that a state masked by
/// `STATE_SLOTS − 1` indexes a type's row without a bounds check (the padding stays zero).
const STATE_SLOTS: usize = 32;
const _: () = assert!(STATES <= STATE_SLOTS && STATE_SLOTS.is_power_of_two());
/// Number of (type, state slot, turn) cells.
pub(crate) const CELLS: usize = TYPES * STATE_SLOTS * TURN_LIMIT;
/// The two folds of §8 (a game's fold is [`super::fold_of`] its id).
const FOLDS: usize = 2;
/// The two tables, four players and three, counted apart (no report pools them, §24).
const TABLES: usize = 2;

/// The types of a three-player game with red fives: its 27 kinds (no 2m–8m), then the red
/// 5p and 5s; without red fives, the first 27.
const SANMA_TYPES: [usize; 29] = {
    let mut t = [0usize; 29];
    let mut n = 0;
    let mut k = 0;
    while k < KINDS {
        if k == 0 || k >= 8 {
            t[n] = k;
            n += 1;
        }
        k += 1;
    }
    t[27] = 35;
    t[28] = 36;
    t
};

/// The index of a table in the accumulator (four players 0, three 1).
fn table_of(players: Players) -> usize {
    match players {
        Players::Four => 0,
        Players::Three => 1,
    }
}

/// One expected hit in the fixed-point naive sums: a unit adds u(t) · round(2^32 / U), so the
/// rounding error is below 2^-31 per unit (4e-10), and sums are exact integers.
pub(crate) const NAIVE_ONE: u64 = 1 << 32;

/// round(2^32 / U) for U = 0..=136 (U = 0 cannot occur with a unit whose u(t) > 0; it maps to 0).
const RECIPROCAL: [u64; IDS + 1] = {
    let mut r = [0u64; IDS + 1];
    let mut u = 1;
    while u <= IDS {
        r[u] = (NAIVE_ONE + u as u64 / 2) / u as u64;
        u += 1;
    }
    r
};

/// The cell of (type, held, visible, turn). Turn is the outermost index, so the 37 types of
/// one draw touch a small, cache-resident block.
#[inline]
pub(crate) fn cell(t: usize, held: u8, visible: u8, turn: usize) -> usize {
    (turn * TYPES + t) * STATE_SLOTS + held as usize * COUNTS + visible as usize
}

/// (type, held, visible, turn) of a cell.
pub(crate) fn cell_key(c: usize) -> (usize, u8, u8, usize) {
    let state = c % STATE_SLOTS;
    let (held, visible) = ((state / COUNTS) as u8, (state % COUNTS) as u8);
    let rest = c / STATE_SLOTS;
    (rest % TYPES, held, visible, rest / TYPES)
}

/// Counts of one cell. `naive_hits` is Σ u(t)/U over its units (§3: u(t) unseen copies of the
/// type, U all tiles the drawer cannot see).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct CellCounts {
    pub(crate) units: u64,
    pub(crate) hits: u64,
    pub(crate) naive_hits: f64,
}

/// One draw record, as §3 needs it: the drawer's turn, the tiles it cannot see, the drawn
/// type, and (held, visible) of every type (41 bytes; a game has about 470).
#[derive(Clone, Copy, Debug)]
pub struct DrawRecord {
    /// Turn index (turn + 1, at most TURN_LIMIT − 1).
    turn: u8,
    /// U: 136 − the drawer's concealed tiles − publicly visible tiles.
    unseen: u8,
    drawn_type: u8,
    /// Whether the game has red fives (37 types) or not (34).
    red: bool,
    /// A three-player game: 29 types (27 without red fives), counted in a table of their own.
    three: bool,
    /// held · 5 + visible per type, just before the drawn tile joins the hand.
    state: [u8; TYPES],
}

/// Copies of each type in a game with red fives (black fives have 3; red types 1).
const COPIES_RED: [u8; TYPES] = {
    let mut c = [4u8; TYPES];
    c[4] = 3;
    c[13] = 3;
    c[22] = 3;
    c[34] = 1;
    c[35] = 1;
    c[36] = 1;
    c
};
/// held + visible of each (held, visible) state.
const SEEN: [u8; STATE_SLOTS] = {
    let mut s = [0u8; STATE_SLOTS];
    let mut i = 0;
    while i < STATES {
        s[i] = (i / COUNTS + i % COUNTS) as u8;
        i += 1;
    }
    s
};

/// u(t) of a cell in a game with red fives: copies − held − visible, at least 0.
fn unseen_copies_red(c: usize) -> u64 {
    let (t, h, v, _) = cell_key(c);
    COPIES_RED[t].saturating_sub(h + v) as u64
}

/// Run-wide (or one worker's) counts per cell and fold (§8: the games of each fold apart), dense:
/// fold f's cells are `f · CELLS ..`.
///
/// Every unit of a cell has the same u(t) except black fives in games without red fives
/// (one more copy), so the naive sum is kept as Σ 1/U per cell (times u(t) on output) plus a
/// correction for those fives.
pub struct DrawRateCells {
    /// (units, Σ round(2^32 / U)) per cell, side by side so that a unit is one 16-byte add.
    units: Vec<[u64; 2]>,
    hits: Vec<u64>,
    /// Σ round(2^32 / U) of black-five units in games without red fives whose fourth copy is
    /// unseen (their u(t) is one more than a red game's).
    plain_fives: Vec<u64>,
}

impl Default for DrawRateCells {
    fn default() -> Self {
        DrawRateCells {
            units: vec![[0; 2]; TABLES * FOLDS * CELLS],
            hits: vec![0; TABLES * FOLDS * CELLS],
            plain_fives: vec![0; TABLES * FOLDS * CELLS],
        }
    }
}

impl DrawRateCells {
    /// Adds the units of every draw of one game of fold `fold` (0 or 1).
    pub fn commit(&mut self, draws: &[DrawRecord], fold: u8) {
        let fold_base = usize::from(fold & 1) * CELLS;
        for d in draws {
            let table = if d.three {
                table_of(Players::Three)
            } else {
                table_of(Players::Four)
            };
            let base = table * FOLDS * CELLS + fold_base + cell(0, 0, 0, d.turn as usize);
            let add = [1, RECIPROCAL[d.unseen as usize]];
            // One row of state slots per type: a masked state indexes it unchecked.
            let (rows, _) = self.units[base..base + TYPES * STATE_SLOTS].as_chunks_mut();
            let rows: &mut [[[u64; 2]; STATE_SLOTS]] = rows;
            if d.three {
                let types = if d.red {
                    &SANMA_TYPES[..]
                } else {
                    &SANMA_TYPES[..27]
                };
                for &t in types {
                    let cell = &mut rows[t][d.state[t] as usize & (STATE_SLOTS - 1)];
                    cell[0] += add[0];
                    cell[1] += add[1];
                }
            } else {
                let types = if d.red { TYPES } else { KINDS };
                for (row, &s) in rows.iter_mut().zip(&d.state[..types]) {
                    let cell = &mut row[s as usize & (STATE_SLOTS - 1)];
                    cell[0] += add[0];
                    cell[1] += add[1];
                }
            }
            let offset = |t: usize| base + t * STATE_SLOTS + d.state[t] as usize;
            self.hits[offset(d.drawn_type as usize)] += 1;
            if !d.red {
                // A three-player game has no 5m.
                for t in FIVES.into_iter().skip(usize::from(d.three)) {
                    // u(t) is 4 − seen here, one more than max(3 − seen, 0) unless seen = 4.
                    if SEEN[d.state[t] as usize & (STATE_SLOTS - 1)] < 4 {
                        self.plain_fives[offset(t)] += add[1];
                    }
                }
            }
        }
    }

    /// The counts of every (table, cell, fold) with at least one unit: the four-player
    /// table's first, in cell order, fold 0 before fold 1, then the three-player table's.
    pub(crate) fn nonzero(&self) -> impl Iterator<Item = (Players, usize, u8, CellCounts)> + '_ {
        [Players::Four, Players::Three]
            .into_iter()
            .flat_map(|p| (0..CELLS).map(move |c| (p, c)))
            .flat_map(|(p, c)| (0..FOLDS).map(move |f| (p, c, f)))
            .filter(|&(p, c, f)| self.units[(table_of(p) * FOLDS + f) * CELLS + c][0] > 0)
            .map(|(p, c, f)| {
                let i = (table_of(p) * FOLDS + f) * CELLS + c;
                let [units, per_unseen] = self.units[i];
                let naive = unseen_copies_red(c) * per_unseen + self.plain_fives[i];
                (
                    p,
                    c,
                    f as u8,
                    CellCounts {
                        units,
                        hits: self.hits[i],
                        naive_hits: naive as f64 / NAIVE_ONE as f64,
                    },
                )
            })
    }
}

impl AddAssign<&DrawRateCells> for DrawRateCells {
    /// Adds another accumulator's counts.
    fn add_assign(&mut self, other: &DrawRateCells) {
        for (x, y) in self.units.iter_mut().zip(&other.units) {
            x[0] += y[0];
            x[1] += y[1];
        }
        for (x, y) in self.hits.iter_mut().zip(&other.hits) {
            *x += y;
        }
        for (x, y) in self.plain_fives.iter_mut().zip(&other.plain_fives) {
            *x += y;
        }
    }
}

/// Records every draw of one game into a borrowed buffer (cleared by its owner per game).
pub(crate) struct DrawRateObserver<'a> {
    pub(crate) draws: &'a mut Vec<DrawRecord>,
}

impl Observer for DrawRateObserver<'_> {
    fn before_draw(&mut self, hand: &HandState, seat: usize, drawn: u8) {
        let turn = hand.seats[seat].turn as usize + 1;
        debug_assert!(turn < TURN_LIMIT);
        let turn = turn.min(TURN_LIMIT - 1);
        let state: [u8; TYPES] = hand.with_type_counts(seat, |held, visible| {
            // A plain loop over the arrays: the compiler makes it a few vector operations.
            let mut state = [0u8; TYPES];
            for ((s, &h), &v) in state.iter_mut().zip(held).zip(visible) {
                *s = h.min(4) * COUNTS as u8 + v.min(4);
            }
            state
        });
        self.draws.push(DrawRecord {
            turn: turn as u8,
            unseen: hand.unseen_by(seat),
            drawn_type: tile::tile_type(drawn, hand.red) as u8,
            red: hand.red,
            three: hand.players == Players::Three,
            state,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_tables_match_tile_rules() {
        for (t, &c) in COPIES_RED.iter().enumerate() {
            assert_eq!(c, tile::copies_of_type(t, true));
        }
        for (t, &red) in COPIES_RED.iter().enumerate().take(KINDS) {
            let plain = tile::copies_of_type(t, false);
            assert_eq!(plain, red + FIVES.contains(&t) as u8, "type {t}");
        }
    }

    #[test]
    fn cell_round_trip() {
        let c = cell(36, 1, 0, 17);
        assert_eq!(cell_key(c), (36, 1, 0, 17));
        assert!(cell(TYPES - 1, 4, 4, TURN_LIMIT - 1) < CELLS);
        // Every (type, held, visible, turn) has a cell of its own, and the key inverts it.
        let mut seen = vec![false; CELLS];
        for turn in 0..TURN_LIMIT {
            for t in 0..TYPES {
                for held in 0..COUNTS as u8 {
                    for visible in 0..COUNTS as u8 {
                        let c = cell(t, held, visible, turn);
                        assert_eq!(cell_key(c), (t, held, visible, turn));
                        assert!(!std::mem::replace(&mut seen[c], true), "cell {c} twice");
                    }
                }
            }
        }
    }

    /// A draw record with every type at state 0 (held 0, visible 0) but `seen.0`, at state
    /// `seen.1` (held · 5 + visible).
    fn record(turn: u8, unseen: u8, drawn_type: u8, red: bool, seen: (usize, u8)) -> DrawRecord {
        let mut state = [0u8; TYPES];
        state[seen.0] = seen.1;
        DrawRecord {
            turn,
            unseen,
            drawn_type,
            red,
            three: false,
            state,
        }
    }

    /// Two draws committed by hand, one to each fold.
    /// - Fold 1, a game with red fives, U = 100, turn index 3, drawn type 5 (6m); every type
    ///   unseen (held 0, visible 0) but 1m, held 1 and visible 2. 37 cells of fold 1, one per
    ///   type: 1m's u(t) = 4 − 1 − 2 = 1 (naive 1/100), 6m's 4 (4/100, and the hit), the red
    ///   5m's 1 (1/100), the black 5m's 3 (3/100).
    /// - Fold 0, a game without red fives, U = 50, turn index 7, drawn 1z; 5p visible once:
    ///   34 cells of fold 0; 5p's u(t) is 4 − 1 = 3 (3/50: the red slot's 2, plus the plain
    ///   five's one more copy), 5m's 4 (4/50).
    #[test]
    fn commit_keeps_the_folds_apart() {
        let red = record(3, 100, 5, true, (0, COUNTS as u8 + 2));
        let plain = record(7, 50, 27, false, (13, 1));
        let mut cells = DrawRateCells::default();
        cells.commit(&[red], 1);
        cells.commit(&[plain], 0);
        let rows: Vec<(Players, usize, u8, CellCounts)> = cells.nonzero().collect();
        assert!(rows.iter().all(|r| r.0 == Players::Four));
        let fold = |f: u8| rows.iter().filter(move |r| r.2 == f);
        assert_eq!((fold(0).count(), fold(1).count()), (34, 37));
        let get = |f: u8, key: (usize, u8, u8, usize)| {
            let r = fold(f).find(|r| cell_key(r.1) == key).expect("a cell");
            (r.3.units, r.3.hits, r.3.naive_hits)
        };
        let close = |(u, h, n): (u64, u64, f64), want: (u64, u64, f64)| {
            assert_eq!((u, h), (want.0, want.1));
            assert!((n - want.2).abs() < 1e-9, "{n} vs {}", want.2);
        };
        close(get(1, (0, 1, 2, 3)), (1, 0, 0.01));
        close(get(1, (5, 0, 0, 3)), (1, 1, 0.04));
        close(get(1, (34, 0, 0, 3)), (1, 0, 0.01));
        close(get(1, (4, 0, 0, 3)), (1, 0, 0.03));
        close(get(0, (13, 0, 1, 7)), (1, 0, 0.06));
        close(get(0, (4, 0, 0, 7)), (1, 0, 0.08));
        close(get(0, (27, 0, 0, 7)), (1, 1, 0.08));
        let hits: u64 = rows.iter().map(|r| r.3.hits).sum();
        assert_eq!(hits, 2);
    }

    /// A three-player draw (§24) counts its game's types only, in a table of its own: with
    /// red fives 29 (no 2m–8m, no red 5m), without them 27; the four-player table stays empty.
    /// Red game, U = 80, drawn 1m (type 0): 1m unseen 4 → naive 4/80; 5p black (held 0,
    /// visible 0) 3/80; red 5p 1/80. Plain game, U = 60, drawn 9m: 5p's u(t) = 4 → 4/60 (3
    /// in the red slot plus the plain five's copy), and no 5m cell.
    #[test]
    fn three_player_draws_count_their_types_apart() {
        let mut red = record(2, 80, 0, true, (0, 0));
        red.three = true;
        let mut plain = record(4, 60, 8, false, (0, 0));
        plain.three = true;
        let mut cells = DrawRateCells::default();
        cells.commit(&[red], 0);
        cells.commit(&[plain], 1);
        let rows: Vec<_> = cells.nonzero().collect();
        assert!(rows.iter().all(|r| r.0 == Players::Three));
        let fold = |f: u8| rows.iter().filter(move |r| r.2 == f);
        assert_eq!((fold(0).count(), fold(1).count()), (29, 27));
        let types: Vec<usize> = fold(0).map(|r| cell_key(r.1).0).collect();
        assert!(types
            .iter()
            .all(|&t| t == 0 || (8..34).contains(&t) || t >= 35));
        let get = |f: u8, t: usize| {
            let r = fold(f).find(|r| cell_key(r.1).0 == t).expect("a cell");
            (r.3.units, r.3.hits, r.3.naive_hits)
        };
        let close = |(u, h, n): (u64, u64, f64), want: (u64, u64, f64)| {
            assert_eq!((u, h), (want.0, want.1));
            assert!((n - want.2).abs() < 1e-9, "{n} vs {}", want.2);
        };
        close(get(0, 0), (1, 1, 4.0 / 80.0));
        close(get(0, 13), (1, 0, 3.0 / 80.0));
        close(get(0, 35), (1, 0, 1.0 / 80.0));
        close(get(1, 13), (1, 0, 4.0 / 60.0));
        close(get(1, 8), (1, 1, 4.0 / 60.0));
        assert!(fold(1).all(|r| cell_key(r.1).0 != 4));
    }

    /// Adding an accumulator is committing its draws: each holds games of both folds, with
    /// and without red fives, against all of them committed to one. (The ingest adds
    /// accumulators twice over, the workers' into a total and that into the merger's, so a
    /// subtraction there would cancel out and only this test sees it.)
    #[test]
    fn add_assign_is_committing_together() {
        let (a, b, c) = (
            record(3, 100, 5, true, (0, 7)),
            record(7, 50, 13, false, (13, 1)),
            record(3, 90, 5, true, (0, 7)),
        );
        let mut one = DrawRateCells::default();
        one.commit(&[a], 1);
        one.commit(&[b], 1);
        let mut other = DrawRateCells::default();
        other.commit(&[c, b], 0);
        other.commit(&[a], 1);
        one += &other;
        let mut all = DrawRateCells::default();
        all.commit(&[a, a, b], 1);
        all.commit(&[c, b], 0);
        let rows = |x: &DrawRateCells| x.nonzero().collect::<Vec<_>>();
        assert_eq!(rows(&one), rows(&all));
        assert_eq!(one.plain_fives, all.plain_fives);
        let units: u64 = rows(&one).iter().map(|r| r.3.units).sum();
        assert_eq!(units, 37 + 37 + 34 + 37 + 34);
    }

    /// round(2^32 / U): U = 7 gives 613,566,756.57… → 613,566,757; U = 3 gives
    /// 1,431,655,765.33… → 1,431,655,765; U = 2 exactly 2^31.
    #[test]
    fn reciprocals_are_rounded() {
        assert_eq!(RECIPROCAL[0], 0);
        assert_eq!(RECIPROCAL[2], 1 << 31);
        assert_eq!(RECIPROCAL[3], 1_431_655_765);
        assert_eq!(RECIPROCAL[7], 613_566_757);
        for (u, &r) in RECIPROCAL.iter().enumerate().skip(1) {
            let exact = NAIVE_ONE as f64 / u as f64;
            assert_eq!(r, exact.round() as u64, "U = {u}");
        }
    }

    /// SEEN of the state held · 5 + visible is held + visible (the padding slots 0).
    #[test]
    fn seen_is_held_plus_visible() {
        for held in 0..COUNTS {
            for visible in 0..COUNTS {
                assert_eq!(usize::from(SEEN[held * COUNTS + visible]), held + visible);
            }
        }
        assert!(SEEN[STATES..].iter().all(|&s| s == 0));
    }
}
