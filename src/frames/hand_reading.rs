//! `hand_reading` (§16, written on request, `--with hand-reading`): one row per game, seat V,
//! turn and built-in method with at least one moment: `seat` (V, 0..3), `turn` (V's discards
//! so far at the moment, 0..18, and 19 for 19 and more), `method` (`uniform`, `combo`,
//! `statistical`, `statistical-combo`), `moments`, and the game's sums of `rmse` and
//! `cross_entropy` as exact integers in units of 2^-32 split as `danger_by_turn`'s are
//! (`m_hi` · 2^24 + `m_lo`), so SQL sums them exactly in any order.

use super::danger_by_turn::split;
use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::stats::hand_reading::METHODS;

pub(super) const NAME: &str = "hand_reading";

#[derive(Default)]
struct HandReading {
    game: Vec<u32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    method: Vec<u32>,
    moments: Vec<i32>,
    /// Per metric (rmse, cross_entropy): the hi and lo parts.
    hi: [Vec<i64>; 2],
    lo: [Vec<i64>; 2],
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<HandReading>::default()
}

impl GameFrame for HandReading {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 50 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 17
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for r in &g.obs.hand_reading {
            self.game.push(game);
            self.seat.push(i32::from(r.seat));
            self.turn.push(i32::from(r.turn));
            self.method.push(u32::from(r.method));
            self.moments.push(r.sums.moments as i32);
            for m in 0..2 {
                let (hi, lo) = split(r.sums.units[m]);
                self.hi[m].push(hi);
                self.lo[m].push(lo);
            }
        }
    }

    fn pending(&self) -> usize {
        self.game.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let f = std::mem::take(self);
        let [h0, h1] = f.hi;
        let [l0, l1] = f.lo;
        FrameChunk::default()
            .labels("game_id", ids, rebase(f.game, first))
            .plain_int("seat", f.seat)
            .plain_int("turn", f.turn)
            .labels("method", &METHODS, f.method)
            .plain_int("moments", f.moments)
            .plain_int64("rmse_hi", h0)
            .plain_int64("rmse_lo", l0)
            .plain_int64("cross_entropy_hi", h1)
            .plain_int64("cross_entropy_lo", l1)
    }
}
