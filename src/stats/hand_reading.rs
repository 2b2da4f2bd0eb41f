//! §16 hand reading (written on request, `--with hand-reading`): at every decision of every seat V
//! (each draw record, rinshan draws included, and each chi, pon and daiminkan, once V holds
//! the tile), how well each built-in method's density over the 34 kinds matches the tiles
//! the three other seats really hold. Each moment adds its RMSE and cross-entropy to the
//! game's sums per (V, turn, method).
//!
//! With `--with hand-reading-moments`, each moment's view is kept too (the `hand_reading_moments`
//! frame), so that a user's method is scored from the frames alone (`haifu hand-reading
//! --engine-cmd`).
//!
//! Invariants: the target s(k) is the copies of k in the other three concealed hands at the
//! moment (red fives as their kind), so S = Σ s(k) > 0 and every unseen count u(k) ≥ s(k):
//! each method's weights are never all zero; sums are integers
//! ([`super::danger_moments::METRIC_UNIT`] per 1), so they add up alike in any order.

use std::fmt::Write as _;

use super::danger_moments::{TakenCalls, LAST_TURN, METRIC_UNIT};
use super::decisions::{meld_kind_code, MELD_KINDS};
use crate::replay::{HandState, Observer};
use crate::rules::Players;
use crate::tile::{self, KINDS};

/// The built-in methods, in report order.
pub(crate) const METHODS: [&str; 4] = ["uniform", "combo", "statistical", "statistical-combo"];

/// One game's sums for one (seat, turn, method).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReadingSums {
    pub(crate) moments: u32,
    /// RMSE and cross-entropy in [`METRIC_UNIT`]s.
    pub(crate) units: [i64; 2],
}

/// A game's row: seat V, turn (0..=[`LAST_TURN`]), method ([`METHODS`] position), sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadingRow {
    pub(crate) seat: u8,
    pub(crate) turn: u8,
    pub(crate) method: u8,
    pub(crate) sums: ReadingSums,
}

const TURNS: usize = LAST_TURN as usize + 1;

/// [0, 0, 1, 3, 6][u]: the pair and triplet part of c(k) beyond u(k) itself.
const SETS: [f64; 5] = [0.0, 0.0, 1.0, 3.0, 6.0];

/// q(k) of `statistical`: by number, honours apart.
fn q(k: usize) -> f64 {
    if k >= 27 {
        return 0.23;
    }
    match k % 9 + 1 {
        1 | 9 => 0.33,
        2 | 8 => 0.54,
        3 | 7 => 0.67,
        4 | 6 => 0.71,
        _ => 0.74,
    }
}

/// c(k) of `combo` (§16) from the unseen counts.
fn c(u: &[u8; KINDS], k: usize) -> f64 {
    let base = f64::from(u[k]) + SETS[usize::from(u[k].min(4))];
    if k >= 27 {
        return base;
    }
    let n = (k % 9) as i32 + 1;
    let at = |m: i32| -> f64 {
        if (1..=9).contains(&m) {
            f64::from(u[k - (k % 9) + (m - 1) as usize])
        } else {
            0.0
        }
    };
    base + at(n - 2) * at(n - 1) + at(n - 1) * at(n + 1) + at(n + 1) * at(n + 2)
}

/// Method `m`'s density g over the 34 kinds from the unseen counts `u` (normalised; all zero
/// if every weight is): the definition, against which [`Logs::all_metrics`] is tested.
#[cfg(test)]
fn density(m: usize, u: &[u8; KINDS]) -> [f64; KINDS] {
    let w: [f64; KINDS] = std::array::from_fn(|k| {
        let uk = f64::from(u[k]);
        match m {
            0 => uk,
            1 => c(u, k) * uk,
            2 => q(k) * uk,
            _ => c(u, k) / 54.0 * q(k) * uk,
        }
    });
    let sum: f64 = w.iter().sum();
    if sum > 0.0 {
        w.map(|x| x / sum)
    } else {
        [0.0; KINDS]
    }
}

/// RMSE = √(mean over the kinds of (s(k) − S·g(k))²) and cross-entropy = −Σ over kinds with
/// s(k) > 0 of s(k)/S · ln g(k), g floored at 1e-9 (§16): the definition, against which
/// [`Logs::all_metrics`] is tested.
#[cfg(test)]
fn reading_metrics(g: &[f64; KINDS], s: &[u8; KINDS]) -> [f64; 2] {
    reading_metrics_for(g, s, Players::Four)
}

/// [`reading_metrics`] in a game of `players`: the RMSE's mean is over the kinds of the game
/// (27 with three players, §24; the absent 2m–8m have s = 0 and, from the unseen counts, g = 0).
/// A user's method is scored by it.
pub(crate) fn reading_metrics_for(g: &[f64; KINDS], s: &[u8; KINDS], players: Players) -> [f64; 2] {
    let total: f64 = s.iter().map(|&x| f64::from(x)).sum();
    let sq: f64 = (0..KINDS)
        .map(|k| (f64::from(s[k]) - total * g[k]).powi(2))
        .sum();
    let ce: f64 = (0..KINDS)
        .filter(|&k| s[k] > 0)
        .map(|k| -f64::from(s[k]) / total * g[k].max(crate::danger::CE_FLOOR).ln())
        .sum();
    [(sq / players.kind_count() as f64).sqrt(), ce]
}

/// What seat V sees at a moment, and what the other seats hold: a row of the
/// `hand_reading_moments` frame. Its text fields are in [`ReadingViews::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadingView {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// V's discards so far (not capped).
    pub(crate) turn: u8,
    /// The moment is a chi, pon or daiminkan (else a draw).
    pub(crate) after_call: bool,
    /// s(k): copies of each kind in the other concealed hands.
    pub(crate) others: [u8; KINDS],
    /// Every seat's kita Norths so far (§24; 0 in a four-player game).
    pub(crate) kitas: [u8; 4],
    /// Where its fields end in [`ReadingViews::text`]: tiles, melds, rivers, dora (each
    /// starts where the one before ends, the first where the previous view's last ends).
    ends: [u32; 4],
}

/// A game's moment views, their text in one buffer (no allocation per moment).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReadingViews {
    pub(crate) rows: Vec<ReadingView>,
    text: String,
}

impl ReadingViews {
    /// View `i`'s text fields: V's concealed tiles (type names in kind order, a red five
    /// before the black ones: `1m1m0p5p7z`); every seat's melds (seats 0..3 separated by `|`,
    /// each seat's melds as `decisions.melds` writes them: `pon:0p5p5p:2 chi:3m4m5m:3`); every
    /// seat's river (seats separated by `|`, each tile its type name followed by `t` when it
    /// was the tile just drawn, `r` when it declared riichi, `c` when another seat called it:
    /// `4zt1m5pr`); the dora indicators shown so far (type names).
    pub(crate) fn fields(&self, i: usize) -> [&str; 4] {
        let mut start = if i == 0 { 0 } else { self.rows[i - 1].ends[3] } as usize;
        self.rows[i].ends.map(|end| {
            let f = &self.text[start..end as usize];
            start = end as usize;
            f
        })
    }

    /// Records seat `v`'s view of `hand`.
    fn push(&mut self, hand: &HandState, v: usize, after_call: bool, others: [u8; KINDS]) {
        let red = hand.red;
        let t = &mut self.text;
        let st = &hand.seats[v];
        for (k, &n) in st.kinds.iter().enumerate() {
            let suit = tile::FIVES.iter().position(|&f| f == k);
            let red_held = suit.is_some_and(|s| red && hand.is_in_hand(tile::RED_IDS[s], v));
            for j in 0..n {
                t.push_str(tile::type_name(match suit {
                    Some(s) if red_held && j == 0 => KINDS + s,
                    _ => k,
                }));
            }
        }
        let mut ends = [0u32; 4];
        ends[0] = t.len() as u32;
        for (s, seat) in hand.seats.iter().enumerate() {
            if s > 0 {
                t.push('|');
            }
            for (i, m) in seat.melds.iter().enumerate() {
                if i > 0 {
                    t.push(' ');
                }
                t.push_str(MELD_KINDS[meld_kind_code(m.kind) as usize]);
                t.push(':');
                // (kind, black) of its tiles, a red five first among its kind's.
                let mut types = [(0usize, false); 4];
                let types = &mut types[..m.tiles().len()];
                for (slot, &id) in types.iter_mut().zip(m.tiles()) {
                    *slot = (tile::kind(id), !tile::is_red(id, red));
                }
                types.sort_unstable();
                for &(k, black) in types.iter() {
                    t.push_str(tile::type_name(if black {
                        k
                    } else {
                        KINDS + tile::FIVES.iter().position(|&f| f == k).expect("a five")
                    }));
                }
                let _ = write!(t, ":{}", (s + usize::from(m.from_rel)) % 4);
            }
        }
        ends[1] = t.len() as u32;
        for (s, seat) in hand.seats.iter().enumerate() {
            if s > 0 {
                t.push('|');
            }
            for r in &seat.river {
                t.push_str(tile::type_name(tile::tile_type(r.tile, red)));
                for (flag, c) in [(r.tsumogiri, 't'), (r.riichi, 'r'), (r.called, 'c')] {
                    if flag {
                        t.push(c);
                    }
                }
            }
        }
        ends[2] = t.len() as u32;
        for &id in &hand.indicators {
            t.push_str(tile::type_name(tile::tile_type(id, red)));
        }
        ends[3] = t.len() as u32;
        self.rows.push(ReadingView {
            hand: hand.index,
            seat: v as u8,
            turn: st.turn,
            after_call,
            others,
            kitas: std::array::from_fn(|s| hand.seats[s].kita.len() as u8),
            ends,
        });
    }
}

/// Scores §16 moments of one game.
pub(crate) struct HandReadingObserver {
    calls: TakenCalls,
    logs: Logs,
    sums: Box<[[[ReadingSums; METHODS.len()]; TURNS]; 4]>,
    /// Every moment's view, when asked for (`keep_views`).
    pub(crate) views: ReadingViews,
    keep_views: bool,
}

impl HandReadingObserver {
    /// An observer that also keeps every moment's view when `keep_views`.
    pub(crate) fn new(keep_views: bool) -> Self {
        HandReadingObserver {
            calls: TakenCalls::default(),
            logs: Logs::default(),
            sums: Box::new([[[ReadingSums::default(); METHODS.len()]; TURNS]; 4]),
            views: ReadingViews::default(),
            keep_views,
        }
    }
}

impl HandReadingObserver {
    /// The game's rows, in (seat, turn, method) order, of every key with a moment.
    pub(crate) fn rows(&self) -> Vec<ReadingRow> {
        let mut out = Vec::new();
        for (v, turns) in self.sums.iter().enumerate() {
            for (turn, methods) in turns.iter().enumerate() {
                for (m, s) in methods.iter().enumerate() {
                    if s.moments > 0 {
                        out.push(ReadingRow {
                            seat: v as u8,
                            turn: turn as u8,
                            method: m as u8,
                            sums: *s,
                        });
                    }
                }
            }
        }
        out
    }

    /// A moment of seat `v` (a draw, or a call when `after_call`). With three players (§24)
    /// the kinds the game lacks (2m–8m) have no unseen copy, and the kita Norths are seen.
    fn moment(&mut self, hand: &HandState, v: usize, after_call: bool) {
        let holds = &hand.seats[v].kinds;
        let players = hand.players;
        let u: [u8; KINDS] = std::array::from_fn(|k| {
            if players.has_kind(k) {
                4u8.saturating_sub(hand.visible[k] + holds[k])
            } else {
                0
            }
        });
        let s: [u8; KINDS] = std::array::from_fn(|k| {
            (0..4)
                .filter(|&w| w != v)
                .map(|w| hand.seats[w].kinds[k])
                .sum()
        });
        let turn = hand.seats[v].turn.min(LAST_TURN) as usize;
        for (m, x) in self
            .logs
            .all_metrics(&u, &s, players)
            .into_iter()
            .enumerate()
        {
            let sums = &mut self.sums[v][turn][m];
            sums.moments += 1;
            for (unit, x) in sums.units.iter_mut().zip(x) {
                *unit += to_units(x);
            }
        }
        if self.keep_views {
            self.views.push(hand, v, after_call, s);
        }
    }
}

/// A moment's metric in [`METRIC_UNIT`]s (rounded), as every sum adds it.
pub(crate) fn to_units(x: f64) -> i64 {
    (x * METRIC_UNIT).round() as i64
}

/// Logarithms the four methods' weights are made of: of the small integers u(k) and c(k)
/// (c is at most 4 + 6 + 3 · 16 = 58), and of q(k).
pub(crate) struct Logs {
    int: [f64; 64],
    q: [f64; KINDS],
}

impl Default for Logs {
    fn default() -> Self {
        Logs {
            int: std::array::from_fn(|n| (n as f64).ln()),
            q: std::array::from_fn(|k| q(k).ln()),
        }
    }
}

impl Logs {
    /// [`reading_metrics`] of every method's [`density`] at once, equal to them up to rounding:
    /// a method's weight w(k) is a product of u(k), c(k) and q(k), so ln g(k) = ln w(k) −
    /// ln Σw takes its logarithm from the tables and one logarithm per method. Wherever
    /// s(k) > 0, u(k) ≥ s(k) > 0, so w(k) > 0 and g(k) is far above the 1e-9 floor.
    pub(crate) fn all_metrics(
        &self,
        u: &[u8; KINDS],
        s: &[u8; KINDS],
        players: Players,
    ) -> [[f64; 2]; 4] {
        let count = players.kind_count() as f64;
        let total: f64 = s.iter().map(|&x| f64::from(x)).sum();
        let cs: [f64; KINDS] = std::array::from_fn(|k| c(u, k));
        let mut w = [[0.0f64; KINDS]; 4];
        let mut ln_w = [[0.0f64; KINDS]; 4];
        for k in 0..KINDS {
            let (uk, ck, qk) = (f64::from(u[k]), cs[k], q(k));
            w[0][k] = uk;
            w[1][k] = ck * uk;
            w[2][k] = qk * uk;
            w[3][k] = ck * qk * uk;
            if s[k] > 0 {
                debug_assert!(u[k] >= s[k] && ck >= 1.0);
                let (lu, lc, lq) = (
                    self.int[usize::from(u[k])],
                    self.int[ck as usize],
                    self.q[k],
                );
                ln_w[0][k] = lu;
                ln_w[1][k] = lc + lu;
                ln_w[2][k] = lq + lu;
                ln_w[3][k] = lc + lq + lu;
            }
        }
        std::array::from_fn(|m| {
            let sum: f64 = w[m].iter().sum();
            let scale = total / sum;
            let sq: f64 = (0..KINDS)
                .map(|k| (f64::from(s[k]) - scale * w[m][k]).powi(2))
                .sum();
            let ce = sum.ln()
                - (0..KINDS)
                    .filter(|&k| s[k] > 0)
                    .map(|k| f64::from(s[k]) / total * ln_w[m][k])
                    .sum::<f64>();
            [(sq / count).sqrt(), ce]
        })
    }
}

impl Observer for HandReadingObserver {
    fn hand_start(&mut self, _hand: &HandState) {
        self.calls.reset();
    }

    fn after_draw(&mut self, hand: &HandState, seat: usize, _tile: u8) {
        self.moment(hand, seat, false);
    }

    fn after_call(&mut self, hand: &HandState, seat: usize) {
        if self.calls.took(hand, seat) {
            self.moment(hand, seat, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four densities by hand on a small position: only 1m (u = 4), 2m (u = 2), 3m
    /// (u = 1) and East (u = 3) unseen.
    /// - uniform: 4, 2, 1, 3 over 10.
    /// - c = u + [0, 0, 1, 3, 6][u] + the sequence products: 1m = 4 + 6 + u(2m)·u(3m) = 12;
    ///   2m = 2 + 1 + u(1m)·u(3m) + u(3m)·u(4m) = 3 + 4 + 0 = 7; 3m = 1 + 0 + u(1m)·u(2m) +
    ///   u(2m)·u(4m) + u(4m)·u(5m) = 1 + 8 = 9; East = 3 + 3 = 6. combo weights c·u: 48, 14, 9,
    ///   18 over 89.
    /// - statistical: 0.33·4, 0.54·2, 0.67·1, 0.23·3 = 1.32, 1.08, 0.67, 0.69 over 3.76.
    /// - statistical-combo: c/54·q·u, the 1/54 cancelling in the normalisation: 12·1.32,
    ///   7·1.08, 9·0.67, 6·0.69 = 15.84, 7.56, 6.03, 4.14 over 33.57.
    #[test]
    fn densities_by_hand() {
        let mut u = [0u8; KINDS];
        u[0] = 4;
        u[1] = 2;
        u[2] = 1;
        u[27] = 3;
        let check = |m: usize, want: [f64; 4]| {
            let g = density(m, &u);
            for (k, w) in [0, 1, 2, 27].into_iter().zip(want) {
                assert!(
                    (g[k] - w).abs() < 1e-12,
                    "{} {k}: {} vs {w}",
                    METHODS[m],
                    g[k]
                );
            }
            assert!((g.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        };
        check(0, [0.4, 0.2, 0.1, 0.3]);
        check(1, [48.0 / 89.0, 14.0 / 89.0, 9.0 / 89.0, 18.0 / 89.0]);
        check(2, [1.32 / 3.76, 1.08 / 3.76, 0.67 / 3.76, 0.69 / 3.76]);
        check(3, [15.84 / 33.57, 7.56 / 33.57, 6.03 / 33.57, 4.14 / 33.57]);
    }

    /// The observer's fast path equals the definition's [`density`] and [`reading_metrics`],
    /// on positions where the other seats hold some of every unseen count's kinds.
    #[test]
    fn all_metrics_equal_the_definitions() {
        let logs = Logs::default();
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for i in 0..1000 {
            // Every other position is a three-player one: no unseen 2m–8m (§24).
            let players = if i % 2 == 0 {
                Players::Four
            } else {
                Players::Three
            };
            let u: [u8; KINDS] = std::array::from_fn(|k| {
                let x = next(5) as u8;
                if players.has_kind(k) {
                    x
                } else {
                    0
                }
            });
            let s: [u8; KINDS] = std::array::from_fn(|k| next(u64::from(u[k]) + 1) as u8);
            if s.iter().all(|&x| x == 0) {
                continue;
            }
            let fast = logs.all_metrics(&u, &s, players);
            for (m, f) in fast.iter().enumerate() {
                let want = reading_metrics_for(&density(m, &u), &s, players);
                for i in 0..2 {
                    assert!((f[i] - want[i]).abs() < 1e-12 * want[i].max(1.0), "{m} {i}");
                }
            }
        }
    }

    /// The metrics by hand: s = 2 × 1m, 1 × East (S = 3) against g = (½ 1m, ½ East):
    /// RMSE = √(((2 − 1.5)² + (1 − 1.5)²) / 34) = √(0.5 / 34); cross-entropy = −(⅔ ln ½ +
    /// ⅓ ln ½) = ln 2. A kind held but given weight 0 counts at the floor.
    #[test]
    fn metrics_by_hand() {
        let mut s = [0u8; KINDS];
        s[0] = 2;
        s[27] = 1;
        let mut g = [0.0; KINDS];
        g[0] = 0.5;
        g[27] = 0.5;
        let [rmse, ce] = reading_metrics(&g, &s);
        assert!((rmse - (0.5f64 / 34.0).sqrt()).abs() < 1e-12);
        // Three players (§24): the mean over the game's 27 kinds, √(0.5 / 27); the same
        // cross-entropy.
        let [rmse3, ce3] = reading_metrics_for(&g, &s, Players::Three);
        assert!((rmse3 - (0.5f64 / 27.0).sqrt()).abs() < 1e-12);
        assert_eq!(ce3, ce);
        assert!((ce - 2f64.ln()).abs() < 1e-12);
        g[27] = 0.0;
        let [_, ce] = reading_metrics(&g, &s);
        let want = -(2.0 / 3.0) * 0.5f64.ln() - (1.0 / 3.0) * crate::danger::CE_FLOOR.ln();
        assert!((ce - want).abs() < 1e-9);
    }
}
