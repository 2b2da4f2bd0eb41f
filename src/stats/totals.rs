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
#[derive(Clone, Default)]
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

impl AddAssign<RunTotals> for RunTotals {
    /// Adds the totals of other games (an append's, a merged directory's).
    fn add_assign(&mut self, other: RunTotals) {
        self.games += other.games;
        for (a, b) in self.categories.iter_mut().zip(other.categories) {
            a.0 += b.0;
            a.1 += b.1;
        }
        self.eval += other.eval;
    }
}

impl RunTotals {
    /// The totals as JSON (one table's entry of `run_totals.json`): games, the §2 `[units,
    /// waits]` per category in [`Category::ALL`](crate::danger::Category::ALL) order, and
    /// the built-in estimators' §4 totals.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "categories": self.categories.map(|(u, w)| [u, w]),
            "eval": self.eval.to_json(),
        })
    }

    /// The totals [`RunTotals::to_json`] wrote; `None` when `v` is not of that form.
    pub(crate) fn from_json(v: &serde_json::Value) -> Option<RunTotals> {
        let cats = v.get("categories")?.as_array()?;
        let mut categories: CategoryCounts = Default::default();
        if cats.len() != categories.len() {
            return None;
        }
        for (c, j) in categories.iter_mut().zip(cats) {
            *c = (j.get(0)?.as_u64()?, j.get(1)?.as_u64()?);
        }
        Some(RunTotals {
            games: v.get("games")?.as_u64()?,
            categories,
            eval: EvalTotals::from_json(v.get("eval")?)?,
        })
    }
}
