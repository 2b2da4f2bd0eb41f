//! Riichi danger: the suji categories of docs/definitions.md §2, the danger estimators of §4, the
//! metrics that score them and the run's exact totals of those metrics.
//!
//! Pure functions over per-kind arrays indexed by tile kind 0..34 ([`crate::tile::KINDS`]); in
//! a three-player game the seven kinds it lacks (2m–8m) weigh 0 and no metric counts them.
//! Nothing here reads logs or frames: the caller supplies rivers, visible counts, the
//! observer's hand and the wait set.
//!
//! - [`mod@category`]: [`Category`] (19 categories, §6 names; 25 with three players, §24) and
//!   [`category()`]/[`categories`].
//! - [`estimator`]: [`DangerView`], [`EstimatorName`] (the one list of estimator names),
//!   [`Estimator`], [`CategoryTable`], [`raw_weights`], [`weights`] (all-zero raw weights give
//!   all-zero weights), [`combo_weight`].
//! - [`metrics`]: [`rmse`], [`cross_entropy`] (log arguments floored at [`CE_FLOOR`] = 1e-9),
//!   [`auc`], [`brier`], [`calibration_bin`].
//! - `totals`: the run's calibration counts and exact metric sums per moment and estimator.

pub mod category;
pub mod estimator;
pub mod metrics;
mod totals;

pub use category::{categories, categories_for, category, category_for, Category};
pub use estimator::{
    combo_weight, raw_weight, raw_weights, weights, CategoryTable, DangerView, Estimator,
    EstimatorName, TableError,
};
pub use metrics::{
    auc, brier, calibration_bin, calibration_bin_label, cross_entropy, kld, rmse, rmse_for, scores,
    scores_each, scores_each_for, Scores, CALIBRATION_BINS, CE_FLOOR,
};
pub(crate) use totals::EvalKey;
pub use totals::{CalibrationRow, EvalTotals, SummaryRow};

use crate::rules::Players;
use crate::tile::KINDS;

/// The two §4 moments (`moment as usize` indexes [`Moment::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Moment {
    /// Right after the declaration discard.
    Declaration,
    /// Right after the hand's last draw record, when it comes after the declaration.
    LastDraw,
}

impl Moment {
    pub const ALL: [Moment; 2] = [Moment::Declaration, Moment::LastDraw];

    pub fn name(self) -> &'static str {
        match self {
            Moment::Declaration => "declaration",
            Moment::LastDraw => "last_draw",
        }
    }

    /// The moment named `s` (as [`Moment::name`] gives it).
    pub fn from_name(s: &str) -> Option<Moment> {
        Moment::ALL.into_iter().find(|m| m.name() == s)
    }
}

/// [`scores`] of every built-in estimator ([`Estimator::BUILTINS`] order) on one situation:
/// O's view and R's waits (over the kinds of the view's game).
pub(crate) fn score_builtins(view: &DangerView, waits: &[bool; KINDS]) -> [Scores; 5] {
    let ws = std::array::from_fn(|i| weights(&Estimator::BUILTINS[i], view));
    scores_each_for(&ws, waits, view.players)
}

/// `phoenix-table`: each category's §2 total rate (wait units / units) from (units, waits) per
/// category ([`Category::index`] order) of the games of `players`; a category with no units
/// gets weight 0.
pub(crate) fn phoenix_table(
    counts: &[(u64, u64); Category::ALL.len()],
    players: Players,
) -> CategoryTable {
    let pairs: Vec<(Category, f64)> = Category::of(players)
        .iter()
        .map(|&c| {
            let (units, waits) = counts[c.index()];
            let rate = if units == 0 {
                0.0
            } else {
                waits as f64 / units as f64
            };
            (c, rate)
        })
        .collect();
    CategoryTable::from_pairs(&pairs)
        .expect("every category once, rates finite and in 0..=1")
        .with_name(EstimatorName::PhoenixTable.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `phoenix-table`'s weight of a category is its §2 rate, waits / units, and 0 without
    /// units. Counts by hand: category i has 10·(i + 1) units and i waits (the first none).
    #[test]
    fn phoenix_table_weights_are_the_categories_wait_rates() {
        let mut counts = [(0u64, 0u64); Category::ALL.len()];
        for (i, c) in counts.iter_mut().enumerate().skip(1) {
            *c = (10 * (i as u64 + 1), i as u64);
        }
        let table = phoenix_table(&counts, Players::Three);
        assert!(table.covers(Players::Three));
        assert!(!phoenix_table(&counts, Players::Four).covers(Players::Three));
        assert_eq!(table.name(), "phoenix-table");
        for &c in &Category::ALL {
            let i = c.index();
            let want = if i == 0 {
                0.0
            } else {
                i as f64 / (10.0 * (i as f64 + 1.0))
            };
            assert_eq!(table.weight(c), want, "{c:?}");
        }
    }
}
