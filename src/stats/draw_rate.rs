//! §3 Draw rate by held and visible copies: every draw contributes each tile type once.

use crate::replay::{HandState, Loc, Observer};
use crate::tile::{self, IDS, KINDS, TYPES};

/// Turns are stored 0..TURN_LIMIT; a player's turn + 1 cannot reach it (70 live-wall draws
/// and 4 replacement draws shared by four players).
pub const TURN_LIMIT: usize = 64;
/// Held and visible counts are 0..=4.
const COUNTS: usize = 5;
/// Number of (type, held, visible, turn) cells.
pub const CELLS: usize = TYPES * COUNTS * COUNTS * TURN_LIMIT;

/// The cell of (type, held, visible, turn). Turn is the outermost index, so the 37 types of
/// one draw touch a small, cache-resident block.
#[inline]
pub fn cell(t: usize, held: u8, visible: u8, turn: usize) -> usize {
    ((turn * TYPES + t) * COUNTS + held as usize) * COUNTS + visible as usize
}

/// (type, held, visible, turn) of a cell.
pub fn cell_key(c: usize) -> (usize, u8, u8, usize) {
    let visible = (c % COUNTS) as u8;
    let rest = c / COUNTS;
    let held = (rest % COUNTS) as u8;
    let rest = rest / COUNTS;
    (rest % TYPES, held, visible, rest / TYPES)
}

/// Counts of one cell. `naive_hits` is Σ u(t)/U over its units (§3: u(t) unseen copies of the
/// type, U all tiles the drawer cannot see).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CellCounts {
    pub units: u64,
    pub hits: u64,
    pub naive_hits: f64,
}

/// Dense per-cell counts with a list of touched cells, reused across games so that a game
/// costs only the cells it touches.
pub struct DrawRateCells {
    counts: Vec<CellCounts>,
    touched: Vec<u32>,
}

impl Default for DrawRateCells {
    fn default() -> Self {
        DrawRateCells {
            counts: vec![CellCounts::default(); CELLS],
            touched: Vec::new(),
        }
    }
}

impl DrawRateCells {
    #[inline]
    fn bump(&mut self, c: usize, hit: bool, naive: f64) {
        let e = &mut self.counts[c];
        if e.units == 0 {
            self.touched.push(c as u32);
        }
        e.units += 1;
        e.hits += hit as u64;
        e.naive_hits += naive;
    }

    /// The touched cells (in no particular order: each cell appears once) and resets them.
    pub fn take(&mut self) -> Vec<(u32, CellCounts)> {
        let out = self
            .touched
            .iter()
            .map(|&c| (c, std::mem::take(&mut self.counts[c as usize])))
            .collect();
        self.touched.clear();
        out
    }

    /// Forgets the touched cells (a game that failed to replay).
    pub fn discard(&mut self) {
        for &c in &self.touched {
            self.counts[c as usize] = CellCounts::default();
        }
        self.touched.clear();
    }
}

/// Adds every draw's units to borrowed cells.
pub struct DrawRateObserver<'a> {
    pub cells: &'a mut DrawRateCells,
}

/// Copies of each type in a game with red fives (black fives have 3) and without.
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
const COPIES_PLAIN: [u8; TYPES] = [4u8; TYPES];

impl Observer for DrawRateObserver<'_> {
    fn before_draw(&mut self, hand: &HandState, seat: usize, drawn: u8) {
        let turn = hand.seats[seat].turn as usize + 1;
        debug_assert!(turn < TURN_LIMIT);
        let turn = turn.min(TURN_LIMIT - 1);
        let unseen = IDS as u16 - hand.seats[seat].hand_len as u16 - hand.visible_total;
        let per_unseen = 1.0 / unseen.max(1) as f64;
        let drawn_type = tile::tile_type(drawn, hand.red);
        // Held and visible copies per type, red fives split off their kind.
        let mut held = [0u8; TYPES];
        let mut visible = [0u8; TYPES];
        held[..KINDS].copy_from_slice(&hand.seats[seat].kinds);
        visible[..KINDS].copy_from_slice(&hand.visible);
        let (types, copies) = if hand.red {
            for suit in 0..3 {
                let five = 4 + 9 * suit;
                let red_held =
                    (hand.loc[tile::RED_IDS[suit] as usize] == Loc::Hand(seat as u8)) as u8;
                held[KINDS + suit] = red_held;
                held[five] -= red_held;
                visible[KINDS + suit] = hand.visible_red[suit];
                visible[five] -= hand.visible_red[suit];
            }
            (TYPES, &COPIES_RED)
        } else {
            (KINDS, &COPIES_PLAIN)
        };
        let base = cell(0, 0, 0, turn);
        for t in 0..types {
            let (h, v) = (held[t], visible[t]);
            let u = copies[t].saturating_sub(h + v);
            self.cells.bump(
                base + (t * COUNTS + h as usize) * COUNTS + v as usize,
                t == drawn_type,
                u as f64 * per_unseen,
            );
        }
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
        for (t, &c) in COPIES_PLAIN.iter().enumerate().take(KINDS) {
            assert_eq!(c, tile::copies_of_type(t, false));
        }
    }

    #[test]
    fn cell_round_trip() {
        let c = cell(36, 1, 0, 17);
        assert_eq!(cell_key(c), (36, 1, 0, 17));
        assert!(cell(TYPES - 1, 4, 4, TURN_LIMIT - 1) < CELLS);
    }
}
