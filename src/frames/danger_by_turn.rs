//! `danger_by_turn` (§15, written on request, `--with danger-moments`): one row per game,
//! observer offset, turn and built-in estimator with at least one moment: `observer` (d = 1,
//! 2, 3: the seat d after the riichi seat), `turn` (the observer's discards so far at the
//! moment, 0..18, and 19 for 19 and more), `estimator`, `moments`, and the game's sums of each
//! metric (`rmse`, `cross_entropy`, `kld`) as exact integers in units of 2^-32, split in two
//! columns so that SQL sums them without overflow: the sum is `m_hi` · 2^24 + `m_lo`
//! (`m_lo` in 0 ..2^24). A metric's mean over rows is
//! `(SUM(m_hi) * 16777216.0 + SUM(m_lo)) / 4294967296.0 / SUM(moments)` (the bundled
//! `danger-by-turn` report), the same in any row order.

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::danger::EstimatorName;

pub(super) const NAME: &str = "danger_by_turn";

/// Bits of a metric sum kept in its `_lo` column.
const LO_BITS: u32 = 24;

#[derive(Default)]
struct DangerByTurn {
    game: Vec<u32>,
    observer: Vec<i32>,
    turn: Vec<i32>,
    estimator: Vec<u32>,
    moments: Vec<i32>,
    /// Per metric (rmse, cross_entropy, kld): the hi and lo parts.
    hi: [Vec<i64>; 3],
    lo: [Vec<i64>; 3],
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<DangerByTurn>::default()
}

/// `units` as (hi, lo): units = hi · 2^24 + lo, 0 ≤ lo < 2^24.
pub(crate) fn split(units: i64) -> (i64, i64) {
    (units >> LO_BITS, units & ((1 << LO_BITS) - 1))
}

impl GameFrame for DangerByTurn {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 70 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 17
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for r in &g.obs.danger_moments {
            self.game.push(game);
            self.observer.push(i32::from(r.observer));
            self.turn.push(i32::from(r.turn));
            self.estimator.push(u32::from(r.estimator));
            self.moments.push(r.sums.moments as i32);
            for m in 0..3 {
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
        let names: Vec<&str> = EstimatorName::BUILTINS.iter().map(|e| e.as_str()).collect();
        let [h0, h1, h2] = f.hi;
        let [l0, l1, l2] = f.lo;
        FrameChunk::default()
            .labels("game_id", ids, rebase(f.game, first))
            .plain_int("observer", f.observer)
            .plain_int("turn", f.turn)
            .labels("estimator", &names, f.estimator)
            .plain_int("moments", f.moments)
            .plain_int64("rmse_hi", h0)
            .plain_int64("rmse_lo", l0)
            .plain_int64("cross_entropy_hi", h1)
            .plain_int64("cross_entropy_lo", l1)
            .plain_int64("kld_hi", h2)
            .plain_int64("kld_lo", l2)
    }
}

#[cfg(test)]
mod tests {
    use super::split;

    /// hi · 2^24 + lo gives the units back, lo within 0..2^24, negative sums included.
    #[test]
    fn split_is_exact() {
        for units in [
            0i64,
            1,
            (1 << 24) - 1,
            1 << 24,
            12_345_678_901_234,
            -1,
            -(1 << 30) - 5,
        ] {
            let (hi, lo) = split(units);
            assert!((0..1 << 24).contains(&lo), "{units}");
            assert_eq!(hi * (1 << 24) + lo, units);
        }
    }
}
