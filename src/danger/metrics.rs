//! Scoring metrics of docs/definitions.md §4 for one situation: normalised weights
//! `w` over the 34 kinds against the riichi seat's wait set.
//!
//! Every function expects a non-empty wait set (the §4 exclusions guarantee
//! it); for an empty one it returns NaN rather than a number that could be
//! mistaken for a score. Averaging over situations is the caller's job.

use crate::rules::Players;
use crate::tile::KINDS;

/// Floor applied to each logarithm's argument in [`cross_entropy`]:
/// ln x is evaluated as ln(max(x, `CE_FLOOR`)), so one term contributes at most
/// −ln(1e-9) ≈ 20.723 and a wait with w = 0 (or a non-wait with w = 1) gives
/// a large but finite loss. Arguments ≥ 1e-9 are unaffected.
pub const CE_FLOOR: f64 = 1e-9;

fn wait_count(waits: &[bool; KINDS]) -> usize {
    waits.iter().filter(|&&b| b).count()
}

/// sqrt(mean over the 34 kinds of (v(k) − w(k))²), v(k) = 1/|waits| for a wait, else 0.
/// NaN if `waits` is empty.
pub fn rmse(w: &[f64; KINDS], waits: &[bool; KINDS]) -> f64 {
    rmse_over(w, waits, 34.0)
}

/// [`rmse`] with the mean over `count` kinds.
fn rmse_over(w: &[f64; KINDS], waits: &[bool; KINDS], count: f64) -> f64 {
    let n = wait_count(waits);
    if n == 0 {
        return f64::NAN;
    }
    let v_wait = 1.0 / n as f64;
    let sum: f64 = (0..KINDS)
        .map(|k| {
            let v = if waits[k] { v_wait } else { 0.0 };
            (v - w[k]).powi(2)
        })
        .sum();
    (sum / count).sqrt()
}

/// [`rmse`] over the kinds of a game of `players` (§24): with three players the mean is over
/// its 27 kinds (the absent 2m–8m have weight 0 and are no wait, so only the divisor
/// changes).
pub fn rmse_for(w: &[f64; KINDS], waits: &[bool; KINDS], players: Players) -> f64 {
    rmse_over(w, waits, players.kind_count() as f64)
}

/// Mean over waits p of −Σ_k [k = p ? ln w(k) : ln(1 − w(k))], the sum running
/// over all 34 kinds (other waits included, as non-p terms), each logarithm's
/// argument floored at [`CE_FLOOR`]. NaN if `waits` is empty.
///
/// Σ_k ln(1 − w(k)) is taken as the logarithm of the product of the floored factors: at most
/// one weight exceeds ½ (they sum to 1), so the product stays above 1e-9 · ¼ and cannot
/// underflow; a wait p then needs only ln w(p) and its own ln(1 − w(p)).
pub fn cross_entropy(w: &[f64; KINDS], waits: &[bool; KINDS]) -> f64 {
    let n = wait_count(waits);
    if n == 0 {
        return f64::NAN;
    }
    let miss_total = w.iter().map(|&x| miss(x)).product::<f64>().ln();
    let sum: f64 = (0..KINDS)
        .filter(|&p| waits[p])
        .map(|p| -(ln_floored(w[p]) + (miss_total - miss(w[p]).ln())))
        .sum();
    sum / n as f64
}

/// KLD of the weights from the true wait distribution (§15): Σ over waits p of v·ln(v / w(p)),
/// v = 1/|waits|, w(p) floored at [`CE_FLOOR`]. NaN if `waits` is empty.
pub fn kld(w: &[f64; KINDS], waits: &[bool; KINDS]) -> f64 {
    let n = wait_count(waits);
    if n == 0 {
        return f64::NAN;
    }
    let v = 1.0 / n as f64;
    (0..KINDS)
        .filter(|&p| waits[p])
        .map(|p| v * (v / w[p].max(CE_FLOOR)).ln())
        .sum()
}

/// 1 − w, floored at [`CE_FLOOR`] (the argument of a non-wait's logarithm).
fn miss(x: f64) -> f64 {
    (1.0 - x).max(CE_FLOOR)
}

fn ln_floored(x: f64) -> f64 {
    x.max(CE_FLOOR).ln()
}

/// Over the pairs (wait kind, non-wait kind) among the 34 kinds, the share in
/// which the wait's weight is larger; exactly equal weights count ½.
/// NaN if there is no wait or no non-wait.
pub fn auc(w: &[f64; KINDS], waits: &[bool; KINDS]) -> f64 {
    let mut score = 0.0;
    let mut pairs = 0u32;
    for p in (0..KINDS).filter(|&p| waits[p]) {
        for q in (0..KINDS).filter(|&q| !waits[q]) {
            pairs += 1;
            if w[p] > w[q] {
                score += 1.0;
            } else if w[p] == w[q] {
                score += 0.5;
            }
        }
    }
    if pairs == 0 {
        f64::NAN
    } else {
        score / f64::from(pairs)
    }
}

/// Mean over the 34 kinds of (w(k) − [k is a wait])². NaN if `waits` is empty.
pub fn brier(w: &[f64; KINDS], waits: &[bool; KINDS]) -> f64 {
    if wait_count(waits) == 0 {
        return f64::NAN;
    }
    let sum: f64 = (0..KINDS)
        .map(|k| (w[k] - if waits[k] { 1.0 } else { 0.0 }).powi(2))
        .sum();
    sum / 34.0
}

/// Every §4 metric of one situation under one estimator, and its calibration counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scores {
    pub rmse: f64,
    pub cross_entropy: f64,
    pub auc: f64,
    pub brier: f64,
    /// (kinds, waits among them) per calibration bin of 34·w(k).
    pub bins: [(u32, u32); CALIBRATION_BINS],
}

/// [`rmse`], [`cross_entropy`], [`auc`], [`brier`] and the calibration counts of weights `w`
/// against `waits`, in one pass over the kinds (each metric equal to its own function's).
pub fn scores(w: &[f64; KINDS], waits: &[bool; KINDS]) -> Scores {
    let [s] = scores_each(&[*w], waits);
    s
}

/// [`scores`] of several weight vectors against the same waits, each equal bit for bit to its
/// own [`scores`]: every vector's sums and product are taken over the kinds in the same order,
/// but side by side, so that their dependent chains of additions and multiplications (34
/// long, one vector's after another's) overlap in the processor instead of waiting on each
/// other.
pub fn scores_each<const N: usize>(ws: &[[f64; KINDS]; N], waits: &[bool; KINDS]) -> [Scores; N] {
    scores_over(ws, waits, 0..KINDS, KINDS)
}

/// [`scores_each`] over the kinds of a game of `players` (§24): with three players the 27
/// kinds it has: RMSE and Brier average over 27, AUC's pairs are among the 27, the
/// calibration bins are of 27·w(k) and count the 27 (the weights of the absent 2m–8m are
/// 0, so the cross-entropy is the same either way).
pub fn scores_each_for<const N: usize>(
    ws: &[[f64; KINDS]; N],
    waits: &[bool; KINDS],
    players: Players,
) -> [Scores; N] {
    match players {
        Players::Four => scores_each(ws, waits),
        Players::Three => scores_over(ws, waits, players.kinds(), players.kind_count()),
    }
}

/// The scores over `kinds` (`count` of them); the four-player case is the range 0..34,
/// inlined into [`scores_each`] so that its loops and its scale are constants there.
#[inline(always)]
fn scores_over<const N: usize>(
    ws: &[[f64; KINDS]; N],
    waits: &[bool; KINDS],
    kinds: impl Iterator<Item = usize> + Clone,
    count: usize,
) -> [Scores; N] {
    let scale = count as f64;
    let n = wait_count(waits);
    let mut bins = [[(0u32, 0u32); CALIBRATION_BINS]; N];
    if n == 0 {
        for (b, w) in bins.iter_mut().zip(ws) {
            for k in kinds.clone() {
                b[bin_on(w[k], scale)].0 += 1;
            }
        }
        return bins.map(|bins| Scores {
            rmse: f64::NAN,
            cross_entropy: f64::NAN,
            auc: f64::NAN,
            brier: f64::NAN,
            bins,
        });
    }
    let v_wait = 1.0 / n as f64;
    let (mut sq_rmse, mut sq_brier, mut miss_product) = ([0.0; N], [0.0; N], [1.0; N]);
    for k in kinds.clone() {
        let hit = waits[k];
        let v = if hit { v_wait } else { 0.0 };
        let target = if hit { 1.0 } else { 0.0 };
        for e in 0..N {
            let x = ws[e][k];
            let b = &mut bins[e][bin_on(x, scale)];
            b.0 += 1;
            b.1 += hit as u32;
            sq_rmse[e] += (v - x).powi(2);
            sq_brier[e] += (x - target).powi(2);
            miss_product[e] *= miss(x);
        }
    }
    let pairs = (n * (count - n)) as u32;
    std::array::from_fn(|e| {
        let w = &ws[e];
        let miss_total = miss_product[e].ln();
        // AUC counts: wait beats non-wait (2 points) or ties (1 point), over 2·pairs.
        let (mut ce, mut auc_points) = (0.0, 0u32);
        for p in kinds.clone().filter(|&p| waits[p]) {
            ce += -(ln_floored(w[p]) + (miss_total - miss(w[p]).ln()));
            for q in kinds.clone() {
                let counts = !waits[q] as u32;
                auc_points += counts * (2 * (w[p] > w[q]) as u32 + (w[p] == w[q]) as u32);
            }
        }
        Scores {
            rmse: (sq_rmse[e] / scale).sqrt(),
            cross_entropy: ce / n as f64,
            auc: if pairs == 0 {
                f64::NAN
            } else {
                f64::from(auc_points) / 2.0 / f64::from(pairs)
            },
            brier: sq_brier[e] / scale,
            bins: bins[e],
        }
    })
}

/// Number of calibration bins of 34·w(k).
pub const CALIBRATION_BINS: usize = 9;

/// Lower edges of bins 2..=8 on the 34·w scale; bin 0 is exactly 0, bin 1 is (0, 0.25).
const CALIBRATION_EDGES: [f64; 7] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0];

/// Relative tolerance when comparing 34·w with a bin edge: a value within
/// 1e-9 (relative) below an edge counts as on the edge, so a weight that is
/// mathematically on an edge (e.g. 1/34 → 34·w = 1) lands in the upper bin
/// despite rounding in the normalisation.
const CALIBRATION_EDGE_TOLERANCE: f64 = 1e-9;

/// The edges lowered by the tolerance: x ≥ threshold means x is on or above the edge.
const CALIBRATION_THRESHOLDS: [f64; 7] = {
    let mut t = CALIBRATION_EDGES;
    let mut i = 0;
    while i < t.len() {
        t[i] *= 1.0 - CALIBRATION_EDGE_TOLERANCE;
        i += 1;
    }
    t
};

const CALIBRATION_LABELS: [&str; CALIBRATION_BINS] = [
    "0",
    "(0,0.25)",
    "[0.25,0.5)",
    "[0.5,0.75)",
    "[0.75,1)",
    "[1,1.5)",
    "[1.5,2)",
    "[2,3)",
    "[3,inf)",
];

/// Calibration bin (0..9) of a normalised weight `w_k`, by x = 34·w_k:
/// 0: x = 0, 1: (0, 0.25), 2: [0.25, 0.5), 3: [0.5, 0.75), 4: [0.75, 1),
/// 5: [1, 1.5), 6: [1.5, 2), 7: [2, 3), 8: [3, ∞).
/// Edges are compared with a relative tolerance of 1e-9 (see the source);
/// x ≤ 0 and NaN go to bin 0.
pub fn calibration_bin(w_k: f64) -> usize {
    bin_on(w_k, 34.0)
}

/// [`calibration_bin`] of `w_k` on the `scale`·w scale (34, or 27 with three players: the
/// weight of a uniform estimator is 1 on either).
#[inline]
fn bin_on(w_k: f64, scale: f64) -> usize {
    let x = scale * w_k;
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    1 + CALIBRATION_THRESHOLDS
        .iter()
        .map(|&t| (x >= t) as usize)
        .sum::<usize>()
}

/// Label of bin `i` in interval notation on the 34·w scale (`"0"`, `"(0,0.25)"`,
/// `"[0.25,0.5)"`, …, `"[3,inf)"`); `""` for `i >= CALIBRATION_BINS`.
pub fn calibration_bin_label(i: usize) -> &'static str {
    CALIBRATION_LABELS.get(i).copied().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-12
    }

    /// Weights on kinds 0, 1, 2 (1m, 2m, 3m), 0 elsewhere.
    fn w3(a: f64, b: f64, c: f64) -> [f64; KINDS] {
        let mut w = [0.0; KINDS];
        w[0] = a;
        w[1] = b;
        w[2] = c;
        w
    }

    fn waits(kinds: &[usize]) -> [bool; KINDS] {
        let mut s = [false; KINDS];
        for &k in kinds {
            s[k] = true;
        }
        s
    }

    // Example A: w = (0.5, 0.25, 0.25, 0, …), wait {1m}.
    // Example B: w = (0.4, 0.4, 0.2, 0, …), waits {2m, 3m}.

    #[test]
    fn rmse_examples() {
        // A: v(1m) = 1. Squared errors 0.5² + 0.25² + 0.25² = 0.375 → sqrt(0.375/34).
        let a = rmse(&w3(0.5, 0.25, 0.25), &waits(&[0]));
        assert!(close(a, (0.375f64 / 34.0).sqrt()));
        assert!((a - 0.105_021).abs() < 1e-6);
        // B: v = ½ on 2m, 3m. 0.4² + 0.1² + 0.3² = 0.26 → sqrt(0.26/34) ≈ 0.087447.
        let b = rmse(&w3(0.4, 0.4, 0.2), &waits(&[1, 2]));
        assert!(close(b, (0.26f64 / 34.0).sqrt()));
        assert!((b - 0.087_447).abs() < 1e-6);
        // Perfect prediction scores 0.
        assert_eq!(rmse(&w3(0.0, 0.5, 0.5), &waits(&[1, 2])), 0.0);
        assert!(rmse(&w3(1.0, 0.0, 0.0), &[false; KINDS]).is_nan());
    }

    #[test]
    fn cross_entropy_examples() {
        // A: p = 1m: −(ln 0.5 + ln 0.75 + ln 0.75 + 31·ln 1) = 0.693147 + 2·0.287682 = 1.268511.
        let a = cross_entropy(&w3(0.5, 0.25, 0.25), &waits(&[0]));
        assert!(close(a, -(0.5f64.ln() + 2.0 * 0.75f64.ln())));
        assert!((a - 1.268_511).abs() < 1e-6);
        // B: p = 2m: −(ln(1−0.4) [1m] + ln 0.4 + ln(1−0.2) [3m]) = 0.510826 + 0.916291 + 0.223144
        //          = 1.650260;
        //    p = 3m: −(ln 0.6 [1m] + ln 0.6 [2m, the other wait] + ln 0.2) = 1.021651 + 1.609438
        //          = 2.631089;
        //    mean = 2.140675.
        let b = cross_entropy(&w3(0.4, 0.4, 0.2), &waits(&[1, 2]));
        let expect =
            (-(0.6f64.ln() + 0.4f64.ln() + 0.8f64.ln()) - (2.0 * 0.6f64.ln() + 0.2f64.ln())) / 2.0;
        assert!(close(b, expect));
        assert!((b - 2.140_675).abs() < 1e-6);
        // Floor: all weight on 1m, wait 2m. Terms: −ln(max(0, 1e-9)) [2m]
        // − ln(max(1 − 1, 1e-9)) [1m] − 32·ln 1 = 2·(−ln 1e-9) ≈ 41.4465.
        let c = cross_entropy(&w3(1.0, 0.0, 0.0), &waits(&[1]));
        assert!(c.is_finite());
        assert!(close(c, -2.0 * CE_FLOOR.ln()));
        assert!((c - 41.446_531).abs() < 1e-5);
        assert!(cross_entropy(&w3(1.0, 0.0, 0.0), &[false; KINDS]).is_nan());
    }

    #[test]
    fn auc_examples() {
        // A: 1m (0.5) beats all 33 non-waits → 1.
        assert_eq!(auc(&w3(0.5, 0.25, 0.25), &waits(&[0])), 1.0);
        // B: 2 waits × 32 non-waits = 64 pairs.
        //    2m (0.4): tie with 1m (0.4) → ½, beats 31 zeros → 31.5;
        //    3m (0.2): loses to 1m → 0, beats 31 zeros → 31.
        //    (31.5 + 31) / 64 = 62.5 / 64 = 0.9765625.
        assert_eq!(auc(&w3(0.4, 0.4, 0.2), &waits(&[1, 2])), 0.9765625);
        // Uniform weights: every pair a tie → ½.
        assert_eq!(auc(&[1.0 / 34.0; KINDS], &waits(&[5, 9])), 0.5);
        // Wait 4m (w 0): loses to 1m, 2m, 3m, ties with the 30 other zeros → 15/33.
        assert_eq!(auc(&w3(0.4, 0.4, 0.2), &waits(&[3])), 15.0 / 33.0);
        assert!(auc(&[0.0; KINDS], &[false; KINDS]).is_nan());
        assert!(auc(&[0.0; KINDS], &[true; KINDS]).is_nan());
    }

    #[test]
    fn brier_examples() {
        // A: (0.5−1)² + 0.25² + 0.25² = 0.375 → 0.375/34 ≈ 0.0110294.
        let a = brier(&w3(0.5, 0.25, 0.25), &waits(&[0]));
        assert!(close(a, 0.375 / 34.0));
        // B: 0.4² + (0.4−1)² + (0.2−1)² = 0.16 + 0.36 + 0.64 = 1.16 → 1.16/34 ≈ 0.0341176.
        let b = brier(&w3(0.4, 0.4, 0.2), &waits(&[1, 2]));
        assert!(close(b, 1.16 / 34.0));
        assert!((b - 0.034_117_6).abs() < 1e-7);
        assert!(brier(&w3(1.0, 0.0, 0.0), &[false; KINDS]).is_nan());
    }

    #[test]
    fn calibration_bins() {
        // Exactly 0 → bin 0; any positive weight below 0.25/34 → bin 1.
        assert_eq!(calibration_bin(0.0), 0);
        assert_eq!(calibration_bin(1e-300), 1);
        assert_eq!(calibration_bin(0.2 / 34.0), 1);
        // 34·w = 0.25 → [0.25, 0.5), bin 2; just below → bin 1.
        assert_eq!(calibration_bin(0.25 / 34.0), 2);
        assert_eq!(calibration_bin(0.2499 / 34.0), 1);
        assert_eq!(calibration_bin(0.5 / 34.0), 3);
        assert_eq!(calibration_bin(0.75 / 34.0), 4);
        // 34·w = 1 → [1, 1.5), bin 5; 0.999 → bin 4. 1/34 from a uniform normalisation
        // and 2/68 land on the edge's upper side.
        assert_eq!(calibration_bin(1.0 / 34.0), 5);
        assert_eq!(calibration_bin(2.0 / 68.0), 5);
        assert_eq!(calibration_bin(0.999 / 34.0), 4);
        assert_eq!(calibration_bin(1.5 / 34.0), 6);
        assert_eq!(calibration_bin(2.0 / 34.0), 7);
        // 34·w = 3 → [3, ∞), bin 8; 2.999 → bin 7; w = 1 → bin 8.
        assert_eq!(calibration_bin(3.0 / 34.0), 8);
        assert_eq!(calibration_bin(2.999 / 34.0), 7);
        assert_eq!(calibration_bin(1.0), 8);
        // 34 raw weights of 1/3 normalised as in `weights`: mathematically 34·w = 1, but the
        // floating-point sum makes 34·w = 0.9999999999999998; the edge tolerance puts it in
        // bin 5 as the real-number definition does.
        let raw = [1.0 / 3.0; KINDS];
        let sum: f64 = raw.iter().sum();
        let w = raw[0] / sum;
        assert!(34.0 * w < 1.0);
        assert_eq!(calibration_bin(w), 5);
        // Out of domain: negative and NaN → 0.
        assert_eq!(calibration_bin(-0.1), 0);
        assert_eq!(calibration_bin(f64::NAN), 0);
        // Normalised weights that are mathematically 1/34·x for edge x.
        for n in 1..=34u32 {
            let w = 1.0 / f64::from(n); // 34·w = 34/n
            let x = 34.0 / f64::from(n);
            let expect = 1 + CALIBRATION_EDGES.iter().filter(|&&e| x >= e).count();
            assert_eq!(calibration_bin(w), expect, "n = {n}");
        }
    }

    /// A linear congruential generator's numbers in [0, 1), from `seed`.
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / (1u64 << 31) as f64
        }
    }

    /// `scores` computes every metric in one pass; each must equal its own function's value
    /// exactly, and the bins must count every kind once.
    #[test]
    fn scores_match_the_single_metrics() {
        let mut next = uniform(12345u64);
        for case in 0..200 {
            let mut raw: [f64; KINDS] = std::array::from_fn(|_| next());
            // Some zeros and ties, as genbutsu and category tables give.
            for k in (case % 5..34).step_by(5) {
                raw[k] = if case % 2 == 0 { 0.0 } else { raw[0] };
            }
            let sum: f64 = raw.iter().sum();
            let w = raw.map(|x| x / sum);
            let waits: [bool; KINDS] = std::array::from_fn(|k| (k * 7 + case) % 11 == 0);
            let s = scores(&w, &waits);
            assert_eq!(s.rmse.to_bits(), rmse(&w, &waits).to_bits());
            assert_eq!(s.brier.to_bits(), brier(&w, &waits).to_bits());
            assert_eq!(s.auc.to_bits(), auc(&w, &waits).to_bits());
            assert_eq!(
                s.cross_entropy.to_bits(),
                cross_entropy(&w, &waits).to_bits()
            );
            let mut bins = [(0u32, 0u32); CALIBRATION_BINS];
            for k in 0..KINDS {
                bins[calibration_bin(w[k])].0 += 1;
                bins[calibration_bin(w[k])].1 += waits[k] as u32;
            }
            assert_eq!(s.bins, bins);
        }
        let none = scores(&[1.0 / 34.0; KINDS], &[false; KINDS]);
        assert!(none.rmse.is_nan() && none.auc.is_nan());
        assert_eq!(none.bins[5], (34, 0));
    }

    /// Five weight vectors scored side by side give each vector's own metrics, bit for bit
    /// (the built-in estimators are scored so): random weights with zeros and ties, waits of
    /// every count from none to eight (none: every metric NaN, the bins still counted).
    #[test]
    fn scores_each_is_scores_of_each() {
        let mut next = uniform(99u64);
        for case in 0..300 {
            let ws: [[f64; KINDS]; 5] = std::array::from_fn(|e| {
                let mut raw: [f64; KINDS] = std::array::from_fn(|_| next());
                for k in ((case + e) % 7..34).step_by(7) {
                    raw[k] = if e % 2 == 0 { 0.0 } else { raw[1] };
                }
                let sum: f64 = raw.iter().sum();
                raw.map(|x| x / sum)
            });
            let waits: [bool; KINDS] = std::array::from_fn(|k| {
                k < case % 9 && (k * 5 + case) % 3 != 0 || k == 33 && case % 9 == 8
            });
            let each = scores_each(&ws, &waits);
            for (e, w) in ws.iter().enumerate() {
                let s = &each[e];
                let got = [s.rmse, s.cross_entropy, s.auc, s.brier].map(f64::to_bits);
                let want = [
                    rmse(w, &waits),
                    cross_entropy(w, &waits),
                    auc(w, &waits),
                    brier(w, &waits),
                ]
                .map(f64::to_bits);
                assert_eq!(got, want, "case {case} vector {e}");
                let mut bins = [(0u32, 0u32); CALIBRATION_BINS];
                for k in 0..KINDS {
                    bins[calibration_bin(w[k])].0 += 1;
                    bins[calibration_bin(w[k])].1 += waits[k] as u32;
                }
                assert_eq!(s.bins, bins, "case {case} vector {e}");
            }
        }
    }

    /// KLD by hand: waits {1m, 2m} (v = 1/2 each) against w(1m) = 1/4, w(2m) = 1/8 and the
    /// rest spread: ½·ln(½ / ¼) + ½·ln(½ / ⅛) = ½·ln 2 + ½·ln 4 = 1.5·ln 2 = 1.039721. A wait
    /// of weight 0 counts at the floor: v·ln(v / 1e-9). Exact weights give 0.
    #[test]
    fn kld_by_hand() {
        let mut w = [0.625 / 32.0; KINDS];
        w[0] = 0.25;
        w[1] = 0.125;
        let mut waits = [false; KINDS];
        waits[0] = true;
        waits[1] = true;
        assert!((kld(&w, &waits) - 1.5 * 2f64.ln()).abs() < 1e-12);
        let mut zero = w;
        zero[1] = 0.0;
        let want = 0.5 * 2f64.ln() + 0.5 * (0.5 / CE_FLOOR).ln();
        assert!((kld(&zero, &waits) - want).abs() < 1e-9);
        let mut exact = [0.0; KINDS];
        exact[0] = 0.5;
        exact[1] = 0.5;
        assert_eq!(kld(&exact, &waits), 0.0);
        assert!(kld(&w, &[false; KINDS]).is_nan());
    }

    #[test]
    fn calibration_labels() {
        assert_eq!(calibration_bin_label(0), "0");
        assert_eq!(calibration_bin_label(1), "(0,0.25)");
        assert_eq!(calibration_bin_label(5), "[1,1.5)");
        assert_eq!(calibration_bin_label(8), "[3,inf)");
        assert_eq!(calibration_bin_label(CALIBRATION_BINS), "");
        for i in 0..CALIBRATION_BINS {
            assert!(!calibration_bin_label(i).is_empty());
        }
    }

    /// Three players (§24): the metrics run over the game's 27 kinds. The `none` estimator of
    /// a three-player view gives 1/27 to each kind but 2m–8m (0); against one wait: RMSE² =
    /// ((1 − 1/27)² + 26/27²)/27, Brier the same, AUC ½ (every pair tied), every kind in bin
    /// [1, 1.5) of 27·w; the four-player scoring of the same weights differs (34 kinds).
    #[test]
    fn three_player_scores_run_over_27_kinds() {
        use crate::danger::{weights, DangerView, Estimator};
        let view =
            DangerView::from_counts_for(&[0; KINDS], &[0; KINDS], &[false; KINDS], Players::Three);
        let w = weights(&Estimator::None, &view);
        for (k, &x) in w.iter().enumerate() {
            let want = if (1..8).contains(&k) { 0.0 } else { 1.0 / 27.0 };
            assert!((x - want).abs() < 1e-15, "kind {k}: {x}");
        }
        let mut waits = [false; KINDS];
        waits[0] = true;
        let [s] = scores_each_for(&[w], &waits, Players::Three);
        let sq = ((1.0 - 1.0 / 27.0f64).powi(2) + 26.0 / 729.0) / 27.0;
        assert!(close(s.rmse, sq.sqrt()), "{}", s.rmse);
        assert!(close(s.brier, sq), "{}", s.brier);
        assert_eq!(s.auc, 0.5);
        assert_eq!(s.bins[5], (27, 1));
        assert_eq!(s.bins.iter().map(|b| b.0).sum::<u32>(), 27);
        let [four] = scores_each_for(&[w], &waits, Players::Four);
        assert_eq!(four, scores(&w, &waits));
        assert_eq!(four.bins.iter().map(|b| b.0).sum::<u32>(), 34);
        assert!(
            four.auc > 0.5,
            "the seven absent kinds count as non-waits with four players"
        );
        // A 2m–8m kind has no remaining copy in a three-player view.
        assert_eq!(view.remaining[3], 0);
        assert_eq!(view.remaining[0], 4);
        // §15's RMSE is the same mean over the 27 kinds: √(702/729/27) = 0.188852; over 34,
        // √(702/729/34) = 0.168292.
        assert!(close(
            rmse_for(&w, &waits, Players::Three),
            (702.0 / 729.0 / 27.0f64).sqrt()
        ));
        assert!((rmse_for(&w, &waits, Players::Three) - 0.188852).abs() < 1e-6);
        assert_eq!(rmse_for(&w, &waits, Players::Four), rmse(&w, &waits));
        assert!((rmse(&w, &waits) - 0.168292).abs() < 1e-6);
    }
}
