//! The tests of `haifu compare`: the difference B − A of one measure between two corpora,
//! its 95% interval, a two-sided p-value, and Holm's correction over a table's rows.
//!
//! - A **share** is s1 successes of n units (a proportion). Interval: Newcombe's hybrid score
//!   interval for a difference of proportions (Newcombe 1998, method 10), built from each
//!   side's 95% Wilson interval with z = 1.96, the z of every Wilson interval the reports
//!   print. p-value: the two-proportion z test with the pooled proportion.
//! - A **mean** is n values with sum s1 and sum of squares s2. Interval and p-value: Welch's
//!   t (unequal variances, Welch–Satterthwaite degrees of freedom), sample variances with n − 1.
//!
//! Invariants: no test (None) unless both sides have a value and the measure is testable (a
//! share with 0 ≤ s1 ≤ n, a mean with n ≥ 2 on both sides); a difference with zero standard
//! error has p = 1 when it is 0 and p = 0 otherwise, its interval the point itself; Holm's
//! adjusted p-values are monotone in the raw ones and never above 1.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// The z of the reports' 95% intervals.
pub(crate) const Z: f64 = 1.96;
/// The family-wise error rate of a table: a row is significant when its Holm-adjusted p-value
/// is below it.
pub(crate) const ALPHA: f64 = 0.05;

/// A row is significant when its Holm-adjusted p-value is below [`ALPHA`] (at exactly 0.05, it
/// is not).
pub(crate) fn significant(p_adjusted: f64) -> bool {
    p_adjusted < ALPHA
}

/// What a measure is, and so which test compares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Share,
    Mean,
}

impl Kind {
    pub(crate) fn parse(s: &str) -> Option<Kind> {
        match s {
            "share" => Some(Kind::Share),
            "mean" => Some(Kind::Mean),
            _ => None,
        }
    }
}

/// One side's sums for a measure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Moments {
    pub(crate) kind: Kind,
    pub(crate) n: f64,
    pub(crate) s1: f64,
    /// Sum of squares (means only).
    pub(crate) s2: f64,
}

impl Moments {
    /// The measure's value: s1 / n; None without units.
    pub(crate) fn value(&self) -> Option<f64> {
        (self.n > 0.0).then(|| self.s1 / self.n)
    }

    /// The sample variance of a mean's values (n − 1 in the denominator).
    fn variance(&self) -> f64 {
        let v = (self.s2 - self.s1 * self.s1 / self.n) / (self.n - 1.0);
        v.max(0.0)
    }
}

/// B − A with its 95% interval and two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Difference {
    pub(crate) diff: f64,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) p: f64,
}

/// The test of B − A for one measure, when both sides can be tested.
pub(crate) fn difference(a: &Moments, b: &Moments) -> Option<Difference> {
    if a.kind != b.kind {
        return None;
    }
    match a.kind {
        Kind::Share => share_difference(a, b),
        Kind::Mean => mean_difference(a, b),
    }
}

/// The Wilson score interval of s1 / n at z = [`Z`].
pub(crate) fn wilson(s1: f64, n: f64) -> (f64, f64) {
    let p = s1 / n;
    let z2 = Z * Z;
    let centre = p + z2 / (2.0 * n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let den = 1.0 + z2 / n;
    ((centre - half) / den, (centre + half) / den)
}

fn is_share(m: &Moments) -> bool {
    m.n > 0.0 && m.s1 >= 0.0 && m.s1 <= m.n
}

fn share_difference(a: &Moments, b: &Moments) -> Option<Difference> {
    if !is_share(a) || !is_share(b) {
        return None;
    }
    let (pa, pb) = (a.s1 / a.n, b.s1 / b.n);
    let (la, ua) = wilson(a.s1, a.n);
    let (lb, ub) = wilson(b.s1, b.n);
    let diff = pb - pa;
    // Newcombe's method 10: B's distance to its lower bound with A's to its upper, and back.
    let lo = diff - ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt();
    let hi = diff + ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt();
    let pooled = (a.s1 + b.s1) / (a.n + b.n);
    let se = (pooled * (1.0 - pooled) * (1.0 / a.n + 1.0 / b.n)).sqrt();
    let p = if se > 0.0 {
        let normal = Normal::standard();
        2.0 * normal.cdf(-(diff / se).abs())
    } else {
        zero_se_p(diff)
    };
    Some(Difference { diff, lo, hi, p })
}

fn mean_difference(a: &Moments, b: &Moments) -> Option<Difference> {
    if a.n < 2.0 || b.n < 2.0 {
        return None;
    }
    let diff = b.s1 / b.n - a.s1 / a.n;
    let (va, vb) = (a.variance() / a.n, b.variance() / b.n);
    let se2 = va + vb;
    if se2 <= 0.0 {
        return Some(Difference {
            diff,
            lo: diff,
            hi: diff,
            p: zero_se_p(diff),
        });
    }
    let se = se2.sqrt();
    // Welch–Satterthwaite.
    let df = se2 * se2 / (va * va / (a.n - 1.0) + vb * vb / (b.n - 1.0));
    let t = StudentsT::new(0.0, 1.0, df).ok()?;
    let q = t.inverse_cdf(0.975);
    let p = 2.0 * t.cdf(-(diff / se).abs());
    Some(Difference {
        diff,
        lo: diff - q * se,
        hi: diff + q * se,
        p,
    })
}

/// A difference without spread: certain, so p is 1 for none and 0 for any.
fn zero_se_p(diff: f64) -> f64 {
    if diff == 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Holm's step-down adjustment of the p-values that are there (the family is the rows with a
/// test): with m of them in ascending order p(1) ≤ … ≤ p(m), p(i) becomes
/// min(1, max over j ≤ i of (m − j + 1) · p(j)). Ties keep the rows' order.
pub(crate) fn holm(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_some()).collect();
    order.sort_by(|&i, &j| p[i].unwrap().total_cmp(&p[j].unwrap()).then(i.cmp(&j)));
    let m = order.len();
    let mut out = vec![None; p.len()];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        let scaled = ((m - rank) as f64 * p[i].unwrap()).min(1.0);
        running = running.max(scaled);
        out[i] = Some(running);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(s1: f64, n: f64) -> Moments {
        Moments {
            kind: Kind::Share,
            n,
            s1,
            s2: 0.0,
        }
    }

    fn mean(values: &[f64]) -> Moments {
        Moments {
            kind: Kind::Mean,
            n: values.len() as f64,
            s1: values.iter().sum(),
            s2: values.iter().map(|v| v * v).sum(),
        }
    }

    fn close(x: f64, want: f64, tol: f64) {
        assert!((x - want).abs() < tol, "{x} vs {want}");
    }

    /// Newcombe (1998), Table II, example (a): 56/70 against 48/80. His difference is A − B
    /// = 0.2000 with method 10's interval 0.0524 to 0.3339; B − A is its mirror. (His z is
    /// 1.95996; ours, the reports' 1.96, moves the fourth decimal at most.) The pooled z test:
    /// p̂ = 104/150, se = √(p̂(1 − p̂)(1/70 + 1/80)) = 0.07547, z = 2.650, p = 0.00805.
    #[test]
    fn newcombe_example_a() {
        let d = difference(&share(56.0, 70.0), &share(48.0, 80.0)).unwrap();
        close(d.diff, -0.2, 1e-12);
        close(d.lo, -0.3339, 2e-4);
        close(d.hi, -0.0524, 2e-4);
        close(d.p, 0.00805, 2e-5);
    }

    /// Newcombe's example (d): 10/10 against 0/20, whose interval is 0.6791 to 1.0000 (A − B):
    /// Wilson bounds at 0 and 1 keep it inside [−1, 1].
    #[test]
    fn newcombe_example_boundaries() {
        let d = difference(&share(10.0, 10.0), &share(0.0, 20.0)).unwrap();
        close(d.diff, -1.0, 1e-12);
        close(d.lo, -1.0, 1e-9);
        close(d.hi, -0.6791, 2e-4);
        assert!(d.p < 1e-6);
    }

    /// Welch on two small samples worked by hand: A = {1, 2, 3, 4} (mean 2.5, s² = 5/3),
    /// B = {2, 4, 6} (mean 4, s² = 4). se² = 5/12 + 4/3 = 1.75, se = 1.3229; df =
    /// 1.75² / ((5/12)²/3 + (4/3)²/2) = 3.0625 / (0.05787 + 0.88889) = 3.2347; t = 1.5/1.3229
    /// = 1.1339; the t quantile t(0.975; 3.2347) = 3.0557 (by numerical integration of the t
    /// density, outside haifu), interval 1.5 ± 4.0423; p = 2·P(T > 1.1339) = 0.3338.
    #[test]
    fn welch_by_hand() {
        let d = difference(&mean(&[1.0, 2.0, 3.0, 4.0]), &mean(&[2.0, 4.0, 6.0])).unwrap();
        close(d.diff, 1.5, 1e-12);
        close(d.hi - d.diff, 4.0423, 1e-3);
        close(d.diff - d.lo, 4.0423, 1e-3);
        close(d.p, 0.3338, 1e-4);
    }

    #[test]
    fn untestable_rows_have_no_test() {
        // A side without units, a mean with one value, a share above 1, mixed kinds.
        assert!(difference(&share(0.0, 0.0), &share(1.0, 2.0)).is_none());
        assert!(difference(&mean(&[3.0]), &mean(&[1.0, 2.0])).is_none());
        assert!(difference(&share(3.0, 2.0), &share(1.0, 2.0)).is_none());
        assert!(difference(&share(1.0, 2.0), &mean(&[1.0, 2.0])).is_none());
        assert_eq!(share(0.0, 0.0).value(), None);
        assert_eq!(share(1.0, 4.0).value(), Some(0.25));
    }

    #[test]
    fn equal_sides_are_never_different() {
        let d = difference(&share(30.0, 100.0), &share(30.0, 100.0)).unwrap();
        assert_eq!((d.diff, d.p), (0.0, 1.0));
        assert!(d.lo < 0.0 && d.hi > 0.0);
        let d = difference(&share(0.0, 10.0), &share(0.0, 10.0)).unwrap();
        assert_eq!((d.diff, d.p), (0.0, 1.0));
        let d = difference(&mean(&[1.0, 2.0, 6.0]), &mean(&[1.0, 2.0, 6.0])).unwrap();
        assert_eq!((d.diff, d.p), (0.0, 1.0));
        // No spread at all: equal means are p 1, different ones p 0.
        let d = difference(&mean(&[4.0, 4.0]), &mean(&[4.0, 4.0, 4.0])).unwrap();
        assert_eq!((d.diff, d.lo, d.hi, d.p), (0.0, 0.0, 0.0, 1.0));
        let d = difference(&mean(&[4.0, 4.0]), &mean(&[5.0, 5.0])).unwrap();
        assert_eq!((d.diff, d.lo, d.hi, d.p), (1.0, 1.0, 1.0, 0.0));
    }

    /// Holm by hand: p = (0.01, none, 0.04, 0.03, 0.005) is m = 4 tests; ascending 0.005,
    /// 0.01, 0.03, 0.04 scale by 4, 3, 2, 1 to 0.02, 0.03, 0.06, 0.04, and the running maximum
    /// makes the last 0.06.
    #[test]
    fn holm_by_hand() {
        let adj = holm(&[Some(0.01), None, Some(0.04), Some(0.03), Some(0.005)]);
        let want = [Some(0.03), None, Some(0.06), Some(0.06), Some(0.02)];
        for (a, w) in adj.iter().zip(want) {
            match (a, w) {
                (Some(a), Some(w)) => close(*a, w, 1e-12),
                (a, w) => assert_eq!(*a, w),
            }
        }
        // Capped at 1.
        assert_eq!(holm(&[Some(0.6), Some(0.7)]), vec![Some(1.0), Some(1.0)]);
    }

    #[test]
    fn significant_is_strictly_below_five_percent() {
        assert!(significant(0.0499));
        assert!(!significant(0.05));
        assert!(!significant(0.2));
    }

    #[test]
    fn wilson_matches_the_reports_formula() {
        // riichi_response.sql's share_lo/hi for p = 0.3, n = 100: (p + 1.9208/n ∓ 1.96
        // √(p(1−p)/n + 0.9604/n²)) / (1 + 3.8416/n).
        let (lo, hi) = wilson(30.0, 100.0);
        let n: f64 = 100.0;
        let p: f64 = 0.3;
        let half = 1.96 * (p * (1.0 - p) / n + 0.9604 / (n * n)).sqrt();
        close(lo, (p + 1.9208 / n - half) / (1.0 + 3.8416 / n), 1e-12);
        close(hi, (p + 1.9208 / n + half) / (1.0 + 3.8416 / n), 1e-12);
    }
}
