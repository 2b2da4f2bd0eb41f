//! §19's placement model: a softmax over the final orders of a game from the scores at a
//! hand's start, fitted per kyoku by maximum likelihood, and akochan's text layout of its
//! weights.
//!
//! Invariants: a model's shape comes from the table's rules ([`Shape::of`]): with four players
//! 24 orders (akochan's permutation numbers, [`crate::frames::akochan_order`]) × 4 features
//! x = (1, (s0 − s1)/10⁴, (s0 − s2)/10⁴, (s0 − s3)/10⁴), 96 weights, order i's at 4i..4i+4
//! (akochan's `rank_prob` layout); with three players (§24) 6 orders (numbered in
//! lexicographic order of the seat lists) × 3 features x = (1, (s0 − s1)/10⁴, (s0 − s2)/10⁴),
//! 18 weights, order i's at 3i..3i+3; s in seat order from the first dealer. Features and
//! probabilities are fixed arrays of the four-player size whose entries past the shape are 0.
//! The fit minimises the mean negative log-likelihood plus 10⁻⁴·|w|² (§19's penalty of
//! 10⁻⁴·|w|² per unit, divided by the units), which fixes the softmax's free shift; with no
//! unit the weights are 0 (the uniform distribution). The optimisation is liblbfgs's L-BFGS;
//! this module only states the objective and its gradient.

use anyhow::{bail, Context, Result};

use crate::rules::Players;

/// The 24 final orders of four players (the most a model has).
pub(crate) const CLASSES: usize = 24;
/// Features per order (the most a model has).
pub(crate) const FEATURES: usize = 4;
/// Weights of one kyoku's four-player model.
pub(crate) const WEIGHTS: usize = CLASSES * FEATURES;
/// The L2 penalty per unit (§19).
pub(crate) const PENALTY: f64 = 1e-4;

/// A placement model's orders and features, from the table's rules (§19, §24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The final orders: 24, or 6 with three players.
    pub(crate) classes: usize,
    /// Features per order: 4, or 3 with three players.
    pub(crate) features: usize,
}

impl Shape {
    /// The shape of a model of the games of `players`.
    pub(crate) fn of(players: Players) -> Shape {
        let seats = players.seats();
        Shape {
            classes: (1..=seats).product(),
            features: seats,
        }
    }

    /// The weights of one kyoku's model (96, or 18).
    pub(crate) fn weights(self) -> usize {
        self.classes * self.features
    }

    /// §19's features of the start scores `s` (seat order from the first dealer): 1, then
    /// (s0 − sj)/10⁴ for each other seat j of the table (0 past the shape).
    pub(crate) fn features(self, s: [i32; 4]) -> [f64; FEATURES] {
        let mut x = [0.0; FEATURES];
        x[0] = 1.0;
        for j in 1..self.features {
            x[j] = f64::from(s[0] - s[j]) / 1e4;
        }
        x
    }

    /// P(order i) for the shape's orders under weights `w` at features `x` (0 past them).
    pub(crate) fn probabilities(self, w: &[f64], x: &[f64; FEATURES]) -> [f64; CLASSES] {
        let f = self.features;
        let mut z = [0.0; CLASSES];
        for (i, zi) in z.iter_mut().enumerate().take(self.classes) {
            *zi = (0..f).map(|j| w[f * i + j] * x[j]).sum();
        }
        let max = z[..self.classes]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        for zi in &mut z[..self.classes] {
            *zi = (*zi - max).exp();
            total += *zi;
        }
        for zi in &mut z[..self.classes] {
            *zi /= total;
        }
        z
    }
}

/// The objective (mean negative log-likelihood + PENALTY·|w|²) at `w`, its gradient in `g`.
fn objective(shape: Shape, units: &[([f64; FEATURES], u8)], w: &[f64], g: &mut [f64]) -> f64 {
    let n = units.len() as f64;
    let f_ = shape.features;
    let mut f = 0.0;
    for (gi, wi) in g.iter_mut().zip(w) {
        *gi = 2.0 * PENALTY * wi;
        f += PENALTY * wi * wi;
    }
    for (x, order) in units {
        let p = shape.probabilities(w, x);
        f -= p[usize::from(*order)].max(1e-300).ln() / n;
        for (i, &pi) in p.iter().enumerate().take(shape.classes) {
            let r = (pi - f64::from(u8::from(i == usize::from(*order)))) / n;
            for j in 0..f_ {
                g[f_ * i + j] += r * x[j];
            }
        }
    }
    f
}

/// The maximum-likelihood weights (96, or 18) of the units (features, order number), by
/// liblbfgs's L-BFGS from w = 0.
pub(crate) fn fit(shape: Shape, units: &[([f64; FEATURES], u8)]) -> Result<Vec<f64>> {
    let mut w = vec![0.0; shape.weights()];
    if units.is_empty() {
        return Ok(w);
    }
    if let Some((_, o)) = units.iter().find(|(_, o)| usize::from(*o) >= shape.classes) {
        bail!(
            "order number {o} is not one of the {} orders",
            shape.classes
        );
    }
    let result = liblbfgs::lbfgs()
        .with_epsilon(1e-7)
        .with_max_iterations(2000)
        .minimize(
            &mut w,
            |w: &[f64], g: &mut [f64]| Ok(objective(shape, units, w, g)),
            |_| false,
        );
    // libLBFGS stops with an error when the line search cannot improve any more (at the
    // optimum, to rounding): the weights it leaves are the best found, so keep them when the
    // gradient is small.
    if let Err(e) = result {
        let mut g = vec![0.0; shape.weights()];
        objective(shape, units, &w, &mut g);
        let gnorm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
        if gnorm > 1e-4 || !w.iter().all(|x| x.is_finite()) {
            return Err(e).context("the softmax fit did not converge");
        }
    }
    Ok(w)
}

/// akochan's text layout of 96 weights: one per line, `%.16e` with a three-digit exponent
/// (`-8.5669497937202455e-001`), CRLF line ends, as akochan's own `para{k}_9000.txt`.
pub(crate) fn akochan_text(w: &[f64]) -> String {
    let mut out = String::new();
    for x in w {
        let s = format!("{x:.16e}");
        let (mantissa, exp) = s.split_once('e').expect("{:e} has an exponent");
        let e: i32 = exp.parse().expect("an integer exponent");
        let sign = if e < 0 { '-' } else { '+' };
        out.push_str(&format!("{mantissa}e{sign}{:03}\r\n", e.abs()));
    }
    out
}

/// akochan's file name for kyoku `k`'s weights: `para{k}_9000.txt`, `para{k}_nn.txt` for the
/// West rounds (k ≥ 8), as §22 reads them.
pub(crate) fn akochan_file(k: usize) -> String {
    if k >= 8 {
        format!("para{k}_nn.txt")
    } else {
        format!("para{k}_9000.txt")
    }
}

/// Rounds with a model: East 1 (0) to West 4 (11).
pub(crate) const KYOKUS: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;

    const FOUR: Shape = Shape {
        classes: CLASSES,
        features: FEATURES,
    };

    fn features(s: [i32; 4]) -> [f64; FEATURES] {
        FOUR.features(s)
    }

    fn probabilities(w: &[f64], x: &[f64; FEATURES]) -> [f64; CLASSES] {
        FOUR.probabilities(w, x)
    }

    fn fit(units: &[([f64; FEATURES], u8)]) -> Result<Vec<f64>> {
        super::fit(FOUR, units)
    }

    /// A small deterministic generator (splitmix64), so the synthetic units are the same on
    /// every run.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Units drawn from known weights (fixed seed) are fitted back to them: 60,000 units, scores
    /// spread ±30,000 around 25,000, the true weights within ±1.5. With that many units the
    /// estimate's standard error is about 0.03–0.1 per weight and the penalty's pull toward 0 is
    /// ~1e-4·w, so the fitted weights agree within 0.35 and, what matters, the probabilities
    /// within 0.02 everywhere on a grid of score differences.
    #[test]
    fn fit_recovers_known_weights() {
        let mut rng = Rng(47);
        let mut truth = vec![0.0; WEIGHTS];
        for w in &mut truth {
            *w = 3.0 * rng.next() - 1.5;
        }
        // The softmax is unchanged by adding one vector to every class's weights; the
        // penalised optimum picks the weights whose class mean is 0, so centre the truth.
        for j in 0..FEATURES {
            let mean: f64 = (0..CLASSES).map(|i| truth[FEATURES * i + j]).sum::<f64>() / 24.0;
            for i in 0..CLASSES {
                truth[FEATURES * i + j] -= mean;
            }
        }
        let units: Vec<([f64; FEATURES], u8)> = (0..60_000)
            .map(|_| {
                let s = [0; 4].map(|_| 25_000 + (60_000.0 * (rng.next() - 0.5)) as i32);
                let x = features(s);
                let p = probabilities(&truth, &x);
                let u = rng.next();
                let mut acc = 0.0;
                let order = p
                    .iter()
                    .position(|&pi| {
                        acc += pi;
                        u < acc
                    })
                    .unwrap_or(CLASSES - 1);
                (x, order as u8)
            })
            .collect();
        let w = fit(&units).unwrap();
        let worst = w
            .iter()
            .zip(&truth)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(worst < 0.35, "largest weight error {worst}");
        for d in [-3.0, -1.0, 0.0, 1.0, 3.0] {
            let x = [1.0, d, -d / 2.0, d / 3.0];
            let (p, q) = (probabilities(&w, &x), probabilities(&truth, &x));
            for i in 0..CLASSES {
                assert!(
                    (p[i] - q[i]).abs() < 0.02,
                    "order {i} at {d}: {} vs {}",
                    p[i],
                    q[i]
                );
            }
        }
    }

    /// With every unit's order the same, the fit puts almost all the mass on it but the penalty
    /// keeps the weights finite: order 5 at x = (1, 0, 0, 0) only; the optimum of
    /// −ln p5 + 1e-4·|w|² has p5 large (> 0.99) and weights of a few units, not infinite.
    #[test]
    fn penalty_keeps_a_separable_fit_finite() {
        let units = vec![([1.0, 0.0, 0.0, 0.0], 5u8); 100];
        let w = fit(&units).unwrap();
        let p = probabilities(&w, &[1.0, 0.0, 0.0, 0.0]);
        assert!(p[5] > 0.99 && p[5] < 1.0, "{}", p[5]);
        assert!(w.iter().all(|x| x.abs() < 20.0));
        // No unit: uniform.
        assert_eq!(fit(&[]).unwrap(), vec![0.0; WEIGHTS]);
    }

    /// Three players (§24): 6 orders × 3 features, 18 weights; the features of (30000, 20000,
    /// 25000, 0) are (1, 1.0, 0.5) and ignore the absent fourth seat's 0; the probabilities of
    /// weights 0 are 1/6 over the 6 orders and 0 past them; every unit's order 4 at x = (1,
    /// 0, 0) fits p4 > 0.99 with 18 finite weights; an order past 5 is refused.
    #[test]
    fn three_player_models_have_six_orders_and_three_features() {
        let three = Shape::of(Players::Three);
        assert_eq!((three.classes, three.features, three.weights()), (6, 3, 18));
        assert_eq!(Shape::of(Players::Four), FOUR);
        assert_eq!(
            three.features([30_000, 20_000, 25_000, 0]),
            [1.0, 1.0, 0.5, 0.0]
        );
        let p = three.probabilities(&[0.0; 18], &[1.0, 2.0, -1.0, 0.0]);
        assert!(p[..6].iter().all(|&q| (q - 1.0 / 6.0).abs() < 1e-15));
        assert!(p[6..].iter().all(|&q| q == 0.0));
        let units = vec![([1.0, 0.0, 0.0, 0.0], 4u8); 100];
        let w = super::fit(three, &units).unwrap();
        assert_eq!(w.len(), 18);
        let p = three.probabilities(&w, &[1.0, 0.0, 0.0, 0.0]);
        assert!(p[4] > 0.99 && p[4] < 1.0, "{}", p[4]);
        assert!((p[..6].iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(super::fit(three, &[([1.0, 0.0, 0.0, 0.0], 6)]).is_err());
    }

    /// Large scores stay finite: with order 0's z = 800 and the others 0 (exp(800) overflows a
    /// double), p0 is 1 and the others e^-800 (0), as the shift by the largest z gives; three
    /// players alike (order 5's z = 800).
    #[test]
    fn probabilities_survive_large_scores() {
        let mut w = vec![0.0; WEIGHTS];
        w[0] = 800.0;
        let p = probabilities(&w, &[1.0, 0.0, 0.0, 0.0]);
        assert_eq!((p[0], p[1]), (1.0, 0.0));
        let three = Shape::of(Players::Three);
        let mut w = vec![0.0; three.weights()];
        w[15] = 800.0;
        let p = three.probabilities(&w, &[1.0, 0.0, 0.0, 0.0]);
        assert_eq!((p[5], p[0]), (1.0, 0.0));
    }

    /// The features: s = (30000, 20000, 25000, 25000) gives (1, 1.0, 0.5, 0.5).
    #[test]
    fn features_are_differences_from_the_first_dealer_in_ten_thousands() {
        assert_eq!(
            features([30_000, 20_000, 25_000, 25_000]),
            [1.0, 1.0, 0.5, 0.5]
        );
    }

    /// akochan's own first line reads `-8.5669497937202455e-001`; 6.5880588502359361 prints as
    /// `6.5880588502359361e+000`, and 0 as `0.0000000000000000e+000`.
    #[test]
    fn akochan_text_matches_its_files() {
        let text = akochan_text(
            &["-8.5669497937202455e-001", "6.5880588502359361", "0"]
                .map(|t| t.parse::<f64>().unwrap()),
        );
        assert_eq!(
            text,
            "-8.5669497937202455e-001\r\n6.5880588502359361e+000\r\n0.0000000000000000e+000\r\n"
        );
        assert_eq!(akochan_file(7), "para7_9000.txt");
        assert_eq!(akochan_file(8), "para8_nn.txt");
    }
}
