//! What a run adds up over its landed games besides their rows: §2 counts per category (for
//! the in-sample `phoenix-table` estimator) and the built-in estimators' §4 totals. Both are
//! integers, so totals add in any order to the same values.

use std::ops::AddAssign;

use super::GameObservations;
use crate::danger::{self, Category, CategoryTable, Estimator, EvalTotals};
use crate::rules::Players;
use crate::tile::KINDS;

/// (units, waits) per §2 category, [`Category::index`] order.
pub(crate) type CategoryCounts = [(u64, u64); Category::ALL.len()];

/// The totals of the games added so far.
#[derive(Default)]
pub struct RunTotals {
    /// Games added.
    pub(crate) games: u64,
    pub(crate) categories: CategoryCounts,
    /// The built-in estimators' calibration counts and metric sums.
    pub eval: EvalTotals,
}

impl RunTotals {
    /// `phoenix-table`: each category's §2 total rate over the games added (all of them
    /// games of `players`: a run keeps one total per table).
    pub fn phoenix_table(&self, players: Players) -> CategoryTable {
        danger::phoenix_table(&self.categories, players)
    }
}

impl AddAssign<&GameObservations> for RunTotals {
    /// Adds one landed game.
    fn add_assign(&mut self, g: &GameObservations) {
        self.games += 1;
        for w in &g.wait_danger {
            for k in (0..KINDS).filter(|&k| w.kinds >> k & 1 == 1) {
                let c = &mut self.categories[w.category[k].index()];
                c.0 += 1;
                c.1 += w.shape[k].is_some() as u64;
            }
        }
        let included = g.danger_situations.iter().filter(|d| d.excluded.is_none());
        for (d, scores) in included.zip(&g.danger_scores) {
            let key = d.eval_key(0);
            for (e, (s, est)) in scores.iter().zip(&Estimator::BUILTINS).enumerate() {
                self.eval.add(&key, e, est.name(), s);
            }
        }
    }
}
