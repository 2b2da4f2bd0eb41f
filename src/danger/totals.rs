//! §4 run totals, exact: calibration counts per bin and metric sums per riichi slice, for
//! every (moment, estimator). Everything is an integer, so totals add in any order and give
//! the same bits (the `danger_calibration` and `danger_eval_summary` frames).

use std::collections::BTreeMap;
use std::ops::AddAssign;

use super::{Moment, Scores, CALIBRATION_BINS};
use crate::exact::ExactSum;

/// What identifies one scored (situation, moment) in the `danger_eval` frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EvalKey {
    /// The game's sequence number in the run (or index into the caller's list of ids).
    pub(crate) game: u32,
    pub(crate) hand: i32,
    pub(crate) riichi_seat: i32,
    pub(crate) moment: Moment,
    pub(crate) riichi_turn: i32,
    pub(crate) riichi_is_dealer: bool,
    pub(crate) n_waits: i32,
}

/// (kinds, waits) per calibration bin.
type BinCounts = [(u64, u64); CALIBRATION_BINS];

/// What the whole run's scores add up to, per moment and estimator: (kinds, waits) per
/// calibration bin and exact sums of every metric per riichi turn bucket and dealer-ness.
/// Everything is an integer, so the order in which situations are added does not matter.
#[derive(Clone, Default)]
pub struct EvalTotals {
    /// Keyed by (moment, estimator position in report order).
    groups: BTreeMap<(&'static str, usize), EstimatorTotals>,
}

/// [`EvalTotals`] of one moment and estimator.
#[derive(Clone)]
struct EstimatorTotals {
    name: String,
    bins: BinCounts,
    /// Per [`SLICES`] entry: situations and the sums of rmse, cross-entropy, AUC and Brier.
    sums: [MetricSums; SLICES.len()],
}

/// Situations and exact metric sums: each value is counted in units of 2^-70 (exactly, for
/// every value from 2^-18 up; smaller ones to the nearest unit), so sums are exact integers
/// whatever the order; a NaN makes its sum NaN.
#[derive(Clone, Copy, Default)]
struct MetricSums {
    situations: u64,
    units: [ExactSum; 4],
    nan: [bool; 4],
}

impl MetricSums {
    fn add(&mut self, s: &Scores) {
        self.situations += 1;
        for (i, x) in [s.rmse, s.cross_entropy, s.auc, s.brier]
            .into_iter()
            .enumerate()
        {
            self.nan[i] |= x.is_nan();
            // The metrics lie in 0..705 (cross-entropy: at most 34 terms of −ln 1e-9 each).
            self.units[i].add(x);
        }
    }

    fn merge(&mut self, other: &MetricSums) {
        self.situations += other.situations;
        for i in 0..4 {
            self.units[i] += other.units[i];
            self.nan[i] |= other.nan[i];
        }
    }

    /// Mean of each metric (NaN with no situation).
    fn means(&self) -> [f64; 4] {
        std::array::from_fn(|i| {
            if self.nan[i] {
                f64::NAN
            } else {
                self.units[i].value() / self.situations as f64
            }
        })
    }
}

/// The (riichi turn, riichi seat) slices of `danger_eval_summary`, as the labels it writes:
/// turn at declaration 1-6, 7-12 or 13+, and whether the riichi seat is dealer.
const SLICES: [(&str, &str); 6] = [
    ("1-6", "dealer"),
    ("1-6", "non-dealer"),
    ("7-12", "dealer"),
    ("7-12", "non-dealer"),
    ("13+", "dealer"),
    ("13+", "non-dealer"),
];

/// Index into [`SLICES`] of a riichi declared at `riichi_turn` by a dealer or not.
fn slice_of(riichi_turn: i32, riichi_is_dealer: bool) -> usize {
    let bucket = match riichi_turn {
        ..=6 => 0,
        7..=12 => 1,
        _ => 2,
    };
    2 * bucket + usize::from(!riichi_is_dealer)
}

impl EvalTotals {
    /// Adds one situation's scores under the estimator `name` at `position` in report order.
    pub(crate) fn add(&mut self, key: &EvalKey, position: usize, name: &str, s: &Scores) {
        let group = self
            .groups
            .entry((key.moment.name(), position))
            .or_insert_with(|| EstimatorTotals {
                name: name.to_string(),
                bins: [(0, 0); CALIBRATION_BINS],
                sums: Default::default(),
            });
        for (a, b) in group.bins.iter_mut().zip(&s.bins) {
            a.0 += u64::from(b.0);
            a.1 += u64::from(b.1);
        }
        group.sums[slice_of(key.riichi_turn, key.riichi_is_dealer)].add(s);
    }

    /// The rows of the `danger_eval_summary` frame: per moment and estimator (report order),
    /// one row over all situations (`riichi_turn` and `riichi_seat` = `all`), then one per
    /// slice that has situations; `situations` and the exact mean of every metric.
    pub fn summary_rows(&self) -> Vec<SummaryRow<'_>> {
        let mut rows = Vec::new();
        for ((m, _), g) in &self.groups {
            let mut all = MetricSums::default();
            for s in &g.sums {
                all.merge(s);
            }
            let slices = g.sums.iter().zip(SLICES).filter(|(s, _)| s.situations > 0);
            for (sums, (t, r)) in std::iter::once((&all, ("all", "all"))).chain(slices) {
                rows.push(SummaryRow {
                    moment: m,
                    estimator: g.name.as_str(),
                    riichi_turn: t,
                    riichi_seat: r,
                    situations: sums.situations,
                    means: sums.means(),
                });
            }
        }
        rows
    }

    /// The rows of the `danger_calibration` frame: one per (moment, estimator, bin), moments
    /// by name, estimators in report order.
    pub fn calibration_rows(&self) -> Vec<CalibrationRow<'_>> {
        let mut rows = Vec::new();
        for ((m, _), g) in &self.groups {
            for (bin, &(pairs, waits)) in g.bins.iter().enumerate() {
                rows.push(CalibrationRow {
                    moment: m,
                    estimator: g.name.as_str(),
                    bin,
                    pairs,
                    waits,
                });
            }
        }
        rows
    }
}

impl AddAssign for EvalTotals {
    /// Adds every count and sum of `other`.
    fn add_assign(&mut self, other: EvalTotals) {
        for (key, theirs) in other.groups {
            let Some(ours) = self.groups.get_mut(&key) else {
                self.groups.insert(key, theirs);
                continue;
            };
            for (a, b) in ours.bins.iter_mut().zip(&theirs.bins) {
                a.0 += b.0;
                a.1 += b.1;
            }
            for (a, b) in ours.sums.iter_mut().zip(&theirs.sums) {
                a.merge(b);
            }
        }
    }
}

impl EvalTotals {
    /// Every count and sum as JSON (what `run_totals.json` keeps, so that an append or a
    /// merge adds the totals of games it does not replay): one object per (moment, estimator)
    /// with its position, name, bins as `[kinds, waits]` pairs and per slice the situations,
    /// the four sums in units of 2^-70 as decimal strings (an `i128` is wider than a JSON
    /// number is read by most tools) and the NaN flags.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let groups: Vec<serde_json::Value> = self
            .groups
            .iter()
            .map(|((moment, position), g)| {
                let sums: Vec<serde_json::Value> = g
                    .sums
                    .iter()
                    .map(|s| {
                        json!({
                            "situations": s.situations,
                            "units": s.units.map(|u| u.units().to_string()),
                            "nan": s.nan,
                        })
                    })
                    .collect();
                json!({
                    "moment": moment,
                    "position": position,
                    "name": g.name,
                    "bins": g.bins.map(|(k, w)| [k, w]),
                    "sums": sums,
                })
            })
            .collect();
        serde_json::Value::Array(groups)
    }

    /// The totals [`EvalTotals::to_json`] wrote; `None` when `v` is not of that form.
    pub(crate) fn from_json(v: &serde_json::Value) -> Option<EvalTotals> {
        let mut totals = EvalTotals::default();
        for g in v.as_array()? {
            let moment = Moment::from_name(g.get("moment")?.as_str()?)?.name();
            let position = usize::try_from(g.get("position")?.as_u64()?).ok()?;
            let name = g.get("name")?.as_str()?.to_string();
            let bins_json = g.get("bins")?.as_array()?;
            if bins_json.len() != CALIBRATION_BINS {
                return None;
            }
            let mut bins: BinCounts = [(0, 0); CALIBRATION_BINS];
            for (b, j) in bins.iter_mut().zip(bins_json) {
                *b = (j.get(0)?.as_u64()?, j.get(1)?.as_u64()?);
            }
            let sums_json = g.get("sums")?.as_array()?;
            if sums_json.len() != SLICES.len() {
                return None;
            }
            let mut sums = [MetricSums::default(); SLICES.len()];
            for (s, j) in sums.iter_mut().zip(sums_json) {
                s.situations = j.get("situations")?.as_u64()?;
                let units = j.get("units")?.as_array()?;
                let nan = j.get("nan")?.as_array()?;
                if units.len() != 4 || nan.len() != 4 {
                    return None;
                }
                for i in 0..4 {
                    s.units[i] = ExactSum::from_units(units[i].as_str()?.parse().ok()?);
                    s.nan[i] = nan[i].as_bool()?;
                }
            }
            let group = EstimatorTotals { name, bins, sums };
            if totals.groups.insert((moment, position), group).is_some() {
                return None;
            }
        }
        Some(totals)
    }
}

/// One row of `danger_eval_summary`.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow<'a> {
    pub moment: &'static str,
    pub estimator: &'a str,
    /// `all`, `1-6`, `7-12` or `13+`.
    pub riichi_turn: &'static str,
    /// `all`, `dealer` or `non-dealer`.
    pub riichi_seat: &'static str,
    pub situations: u64,
    /// Mean RMSE, cross-entropy, AUC and Brier.
    pub means: [f64; 4],
}

/// One row of `danger_calibration`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalibrationRow<'a> {
    pub moment: &'static str,
    pub estimator: &'a str,
    pub bin: usize,
    pub pairs: u64,
    pub waits: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(moment: Moment, riichi_turn: i32, riichi_is_dealer: bool) -> EvalKey {
        EvalKey {
            game: 0,
            hand: 0,
            riichi_seat: 0,
            moment,
            riichi_turn,
            riichi_is_dealer,
            n_waits: 1,
        }
    }

    fn scores(rmse: f64) -> Scores {
        Scores {
            rmse,
            cross_entropy: 10.0 * rmse,
            auc: 0.5,
            brier: 0.0,
            bins: [(0, 0); CALIBRATION_BINS],
        }
    }

    #[test]
    fn summary_means_are_exact_and_order_free() {
        // 0.1 + 0.2 + 0.3 in floats is 0.6000000000000001 one way and 0.6 the other; the
        // exact sum of the three gives one mean either way, 0.2 to the last bit or so, and a
        // slice of one row gives back its value exactly.
        // Slices: turn 6 → 1-6, turns 7 and 12 → 7-12 (dealer, non-dealer), turn 13 → 13+.
        let rows = [
            (key(Moment::Declaration, 6, true), 0.1),
            (key(Moment::Declaration, 7, true), 0.2),
            (key(Moment::Declaration, 12, false), 0.3),
            (key(Moment::Declaration, 13, false), f64::NAN),
        ];
        let mut forward = EvalTotals::default();
        let mut backward = EvalTotals::default();
        for (k, x) in &rows[..3] {
            forward.add(k, 0, "combo", &scores(*x));
        }
        for (k, x) in rows[..3].iter().rev() {
            backward.add(k, 0, "combo", &scores(*x));
        }
        let f = forward.summary_rows();
        let same_bits = |a: &[SummaryRow], b: &[SummaryRow]| {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| {
                    (
                        x.moment,
                        x.estimator,
                        x.riichi_turn,
                        x.riichi_seat,
                        x.situations,
                    ) == (
                        y.moment,
                        y.estimator,
                        y.riichi_turn,
                        y.riichi_seat,
                        y.situations,
                    ) && x.means.map(f64::to_bits) == y.means.map(f64::to_bits)
                })
        };
        assert!(same_bits(&f, &backward.summary_rows()));
        // One `all` row, then the three slices with situations, in slice order.
        let labels: Vec<(&str, &str)> = f.iter().map(|r| (r.riichi_turn, r.riichi_seat)).collect();
        assert_eq!(
            labels,
            [
                ("all", "all"),
                ("1-6", "dealer"),
                ("7-12", "dealer"),
                ("7-12", "non-dealer")
            ]
        );
        let rmse: Vec<f64> = f.iter().map(|r| r.means[0]).collect();
        assert!((rmse[0] - 0.2).abs() <= f64::EPSILON * 0.2, "{}", rmse[0]);
        assert_eq!([rmse[1], rmse[2], rmse[3]], [0.1, 0.2, 0.3]);
        assert!(f.iter().all(|r| r.means[2] == 0.5));
        let n: Vec<u64> = f.iter().map(|r| r.situations).collect();
        assert_eq!(n, [3, 1, 1, 1]);
        // Adding two halves gives the totals of the whole; a NaN makes its means NaN.
        let mut half = EvalTotals::default();
        half.add(&rows[0].0, 0, "combo", &scores(rows[0].1));
        let mut rest = EvalTotals::default();
        for (k, x) in &rows[1..3] {
            rest.add(k, 0, "combo", &scores(*x));
        }
        half += rest;
        assert!(same_bits(&f, &half.summary_rows()));
        forward.add(&rows[3].0, 0, "combo", &scores(rows[3].1));
        let g = forward.summary_rows();
        assert!(g[0].means[0].is_nan());
        assert_eq!(g.last().unwrap().riichi_turn, "13+");
        assert!(g.last().unwrap().means[0].is_nan());
        assert_eq!(g[1].means[0], 0.1);
    }

    #[test]
    fn calibration_rows_add_bins() {
        let mut s = scores(0.1);
        s.bins[0] = (30, 0);
        s.bins[8] = (4, 1);
        let mut t = EvalTotals::default();
        t.add(&key(Moment::LastDraw, 3, false), 1, "dennou", &s);
        t.add(&key(Moment::LastDraw, 9, true), 1, "dennou", &s);
        let rows = t.calibration_rows();
        assert_eq!(rows.len(), CALIBRATION_BINS);
        assert_eq!((rows[0].pairs, rows[0].waits), (60, 0));
        assert_eq!((rows[8].pairs, rows[8].waits), (8, 2));
        assert!(rows
            .iter()
            .all(|r| r.moment == "last_draw" && r.estimator == "dennou"));
    }
}
