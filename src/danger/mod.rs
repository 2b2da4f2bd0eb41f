//! Riichi danger: the suji categories of statistics.md §2, the danger
//! estimators of §4 and the metrics that score them.
//!
//! Pure functions over per-kind arrays indexed by tile kind 0..34
//! (0..=8 = 1m..9m, 9..=17 = 1p..9p, 18..=26 = 1s..9s, 27..=33 = 1z..7z).
//! Nothing here reads logs: the caller supplies rivers, visible counts, the
//! observer's hand and the wait set.
//!
//! - [`mod@category`]: [`Category`] (19 categories, §6 names) and [`category()`]/[`categories`].
//! - [`estimator`]: [`DangerView`], [`Estimator`], [`CategoryTable`],
//!   [`raw_weights`], [`weights`] (all-zero raw weights give all-zero weights),
//!   [`combo_weight`].
//! - [`metrics`]: [`rmse`], [`cross_entropy`] (log arguments floored at
//!   [`CE_FLOOR`] = 1e-9), [`auc`], [`brier`], [`calibration_bin`].

pub mod category;
pub mod estimator;
pub mod metrics;

pub use category::{categories, category, Category};
pub use estimator::{
    combo_weight, raw_weight, raw_weights, weights, CategoryTable, DangerView, Estimator,
    TableError,
};
pub use metrics::{
    auc, brier, calibration_bin, calibration_bin_label, cross_entropy, rmse, scores, Scores,
    CALIBRATION_BINS, CE_FLOOR,
};

/// [`scores`] of every built-in estimator ([`Estimator::BUILTINS`] order) on one situation:
/// O's view and R's waits.
pub fn score_builtins(view: &DangerView, waits: &[bool; 34]) -> [Scores; 5] {
    std::array::from_fn(|i| scores(&weights(&Estimator::BUILTINS[i], view), waits))
}
