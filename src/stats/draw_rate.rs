//! §3 Draw rate by held and visible copies: every draw contributes each tile type once.
//!
//! The observer records one compact [`DrawRecord`] per draw; a game's records are committed
//! into a dense [`DrawRateCells`] accumulator only once the game has replayed whole (and, for a
//! log id that occurs twice in a run, only for the copy that lands). Counts are integers, the
//! naive expected hits included (fixed point, [`NAIVE_ONE`] per expected hit), so sums do not
//! depend on the order in which games or accumulators are added.

use std::ops::AddAssign;

use crate::replay::{HandState, Observer};
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
            units: vec![[0; 2]; FOLDS * CELLS],
            hits: vec![0; FOLDS * CELLS],
            plain_fives: vec![0; FOLDS * CELLS],
        }
    }
}

impl DrawRateCells {
    /// Adds the units of every draw of one game of fold `fold` (0 or 1).
    pub fn commit(&mut self, draws: &[DrawRecord], fold: u8) {
        let fold_base = usize::from(fold & 1) * CELLS;
        for d in draws {
            let base = fold_base + cell(0, 0, 0, d.turn as usize);
            let add = [1, RECIPROCAL[d.unseen as usize]];
            let types = if d.red { TYPES } else { KINDS };
            // One row of state slots per type: a masked state indexes it unchecked.
            let (rows, _) = self.units[base..base + TYPES * STATE_SLOTS].as_chunks_mut();
            let rows: &mut [[[u64; 2]; STATE_SLOTS]] = rows;
            for (row, &s) in rows.iter_mut().zip(&d.state[..types]) {
                let cell = &mut row[s as usize & (STATE_SLOTS - 1)];
                cell[0] += add[0];
                cell[1] += add[1];
            }
            let offset = |t: usize| base + t * STATE_SLOTS + d.state[t] as usize;
            self.hits[offset(d.drawn_type as usize)] += 1;
            if !d.red {
                for t in FIVES {
                    // u(t) is 4 − seen here, one more than max(3 − seen, 0) unless seen = 4.
                    if SEEN[d.state[t] as usize & (STATE_SLOTS - 1)] < 4 {
                        self.plain_fives[offset(t)] += add[1];
                    }
                }
            }
        }
    }

    /// The counts of every (cell, fold) with at least one unit, in cell order, fold 0 before
    /// fold 1.
    pub(crate) fn nonzero(&self) -> impl Iterator<Item = (usize, u8, CellCounts)> + '_ {
        (0..CELLS)
            .flat_map(|c| (0..FOLDS).map(move |f| (c, f)))
            .filter(|&(c, f)| self.units[f * CELLS + c][0] > 0)
            .map(|(c, f)| {
                let i = f * CELLS + c;
                let [units, per_unseen] = self.units[i];
                let naive = unseen_copies_red(c) * per_unseen + self.plain_fives[i];
                (
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
    }
}
