//! §3 Draw rate by held and visible copies: every draw contributes each tile type once.

use crate::replay::{HandState, Observer};
use crate::tile::{self, IDS, KINDS, TYPES};

/// Turns are stored 0..TURN_LIMIT; a player's turn + 1 cannot reach it (70 live-wall draws
/// and 4 replacement draws shared by four players).
pub const TURN_LIMIT: usize = 64;
/// Held and visible counts are 0..=4.
const COUNTS: usize = 5;
/// Number of (type, held, visible, turn) cells.
pub const CELLS: usize = TYPES * COUNTS * COUNTS * TURN_LIMIT;

/// The cell of (type, held, visible, turn).
#[inline]
pub fn cell(t: usize, held: u8, visible: u8, turn: usize) -> usize {
    ((t * COUNTS + held as usize) * COUNTS + visible as usize) * TURN_LIMIT + turn
}

/// (type, held, visible, turn) of a cell.
pub fn cell_key(c: usize) -> (usize, u8, u8, usize) {
    let turn = c % TURN_LIMIT;
    let rest = c / TURN_LIMIT;
    let visible = (rest % COUNTS) as u8;
    let rest = rest / COUNTS;
    (rest / COUNTS, (rest % COUNTS) as u8, visible, turn)
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

    /// The touched cells, ascending, and resets them.
    pub fn take(&mut self) -> Vec<(u32, CellCounts)> {
        self.touched.sort_unstable();
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

impl Observer for DrawRateObserver<'_> {
    fn before_draw(&mut self, hand: &HandState, seat: usize, drawn: u8) {
        let turn = hand.seats[seat].turn as usize + 1;
        debug_assert!(turn < TURN_LIMIT);
        let turn = turn.min(TURN_LIMIT - 1);
        let unseen = IDS as u16 - hand.seats[seat].hand_len as u16 - hand.visible_total;
        let unseen = unseen.max(1) as f64;
        let drawn_type = tile::tile_type(drawn, hand.red);
        let types = if hand.red { TYPES } else { KINDS };
        for t in 0..types {
            let held = hand.held_of_type(seat, t);
            let visible = hand.visible_of_type(t);
            let u = tile::copies_of_type(t, hand.red).saturating_sub(held + visible);
            self.cells.bump(
                cell(t, held, visible, turn),
                t == drawn_type,
                u as f64 / unseen,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_round_trip() {
        let c = cell(36, 1, 0, 17);
        assert_eq!(cell_key(c), (36, 1, 0, 17));
        assert!(cell(TYPES - 1, 4, 4, TURN_LIMIT - 1) < CELLS);
    }
}
