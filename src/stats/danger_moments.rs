//! §15 danger at every moment (written on request, `--with danger-moments`): after the hand's
//! first riichi declaration (by R, neither kokushi nor furiten at the declaration), each of
//! the other seats O = R + d (d = 1, 2, 3; with three players d = 1, 2 and the seats mod 3,
//! §24) is scored at every moment it decides: each of
//! its draw records (rinshan draws included) and each of its chi, pon and daiminkan, once it
//! holds the tile. The built-in estimators (§4) score R's waits from O's view; each moment
//! adds its RMSE, cross-entropy and KLD to the game's sums per (d, turn, estimator), over the
//! kinds of the game (27 with three players: the views and the RMSE's mean are theirs).
//!
//! Invariants: a hand has at most one situation (a later declaration does not replace the
//! first, and a kokushi or furiten first declaration means none); no moment follows the first
//! discard, by any seat after the declaration, of one of R's wait kinds; a moment with a wait
//! whose combo weight is 0 for O is not counted; sums are integers ([`METRIC_UNIT`] per 1),
//! so they add up to the same total in any order.

use crate::danger::{combo_weight, metrics, weights, DangerView, Estimator};
use crate::mjlog::MeldKind;
use crate::replay::{HandState, Observer};
use crate::rules::Players;
use crate::tile::{self, KINDS};

/// Turns at and above this one share a row (`19+`).
pub(crate) const LAST_TURN: u8 = 19;
/// Units of a metric sum per 1: 2^32 (a moment's metric, at most 705, is under 2^42 units).
pub(crate) const METRIC_UNIT: f64 = 4_294_967_296.0;

/// One game's sums for one (observer offset d, turn, estimator).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MomentSums {
    pub(crate) moments: u32,
    /// RMSE, cross-entropy and KLD, each in [`METRIC_UNIT`]s.
    pub(crate) units: [i64; 3],
}

/// A game's row: d (1..3), turn (0..=[`LAST_TURN`]), estimator ([`Estimator::BUILTINS`]
/// position), and its sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MomentRow {
    pub(crate) observer: u8,
    pub(crate) turn: u8,
    pub(crate) estimator: u8,
    pub(crate) sums: MomentSums,
}

/// Tells a call that took a discard (a new chi, pon or daiminkan: a moment of §15 and §16) from
/// a kakan or an ankan, by each seat's meld count at its last call (reset every hand).
#[derive(Default)]
pub(crate) struct TakenCalls {
    melds: [usize; 4],
}

impl TakenCalls {
    pub(crate) fn reset(&mut self) {
        self.melds = [0; 4];
    }

    /// True when `seat`'s call just now added a chi, pon or daiminkan.
    pub(crate) fn took(&mut self, hand: &HandState, seat: usize) -> bool {
        let melds = &hand.seats[seat].melds;
        let new = melds.len() > self.melds[seat];
        self.melds[seat] = melds.len();
        new && melds
            .last()
            .is_some_and(|m| matches!(m.kind, MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan))
    }
}

/// One scored moment as the estimators see it (the `danger_moments` frame: a user's table is
/// scored from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MomentView {
    pub(crate) hand: u16,
    pub(crate) riichi_seat: u8,
    /// d = 1, 2, 3.
    pub(crate) observer: u8,
    /// The observer's discards so far (not capped).
    pub(crate) turn: u8,
    pub(crate) visible: [u8; KINDS],
    pub(crate) observer_holds: [u8; KINDS],
    pub(crate) genbutsu: [bool; KINDS],
    pub(crate) waits: [bool; KINDS],
}

const TURNS: usize = LAST_TURN as usize + 1;
const ESTIMATORS: usize = Estimator::BUILTINS.len();

/// The first declaration of the current hand, while it is followed.
struct Following {
    riichi_seat: usize,
    waits: [bool; KINDS],
    genbutsu: [bool; KINDS],
}

/// Scores §15 moments of one game.
pub(crate) struct DangerMomentObserver {
    /// Invariant: None when a hand starts; Some while the first declaration is followed and
    /// no wait has been discarded since.
    following: Option<Following>,
    /// The hand's first declaration has been seen (followed or not).
    declared: bool,
    calls: TakenCalls,
    sums: Box<[[[MomentSums; ESTIMATORS]; TURNS]; 3]>,
    /// Every scored moment, in order.
    pub(crate) views: Vec<MomentView>,
}

impl Default for DangerMomentObserver {
    fn default() -> Self {
        DangerMomentObserver {
            following: None,
            declared: false,
            calls: TakenCalls::default(),
            sums: Box::new([[[MomentSums::default(); ESTIMATORS]; TURNS]; 3]),
            views: Vec::new(),
        }
    }
}

/// The three metrics of weights `w` against `waits` in a game of `players`: RMSE (over its
/// kinds), cross-entropy and KLD (§15).
pub(crate) fn moment_metrics(
    w: &[f64; KINDS],
    waits: &[bool; KINDS],
    players: Players,
) -> [f64; 3] {
    [
        metrics::rmse_for(w, waits, players),
        metrics::cross_entropy(w, waits),
        metrics::kld(w, waits),
    ]
}

/// False for a moment §15 excludes: one of the waits has combo weight 0 for the observer.
fn scored(view: &DangerView, waits: &[bool; KINDS]) -> bool {
    !(0..KINDS).any(|k| waits[k] && combo_weight(view, k) == 0.0)
}

impl DangerMomentObserver {
    /// The game's rows, in (d, turn, estimator) order, of every key with a moment.
    pub(crate) fn rows(&self) -> Vec<MomentRow> {
        let mut out = Vec::new();
        for (d, turns) in self.sums.iter().enumerate() {
            for (turn, ests) in turns.iter().enumerate() {
                for (e, s) in ests.iter().enumerate() {
                    if s.moments > 0 {
                        out.push(MomentRow {
                            observer: d as u8 + 1,
                            turn: turn as u8,
                            estimator: e as u8,
                            sums: *s,
                        });
                    }
                }
            }
        }
        out
    }

    /// A moment of seat `o` (not R): scored unless a wait has combo weight 0 for O.
    fn moment(&mut self, hand: &HandState, o: usize) {
        let Some(f) = &self.following else { return };
        let seats = hand.players.seats();
        let d = (o + seats - f.riichi_seat) % seats;
        if d == 0 {
            return;
        }
        let view = DangerView::from_counts_for(
            &hand.visible,
            &hand.seats[o].kinds,
            &f.genbutsu,
            hand.players,
        );
        if !scored(&view, &f.waits) {
            return;
        }
        self.views.push(MomentView {
            hand: hand.index,
            riichi_seat: f.riichi_seat as u8,
            observer: d as u8,
            turn: hand.seats[o].turn,
            visible: hand.visible,
            observer_holds: hand.seats[o].kinds,
            genbutsu: f.genbutsu,
            waits: f.waits,
        });
        let turn = hand.seats[o].turn.min(LAST_TURN) as usize;
        for (e, est) in Estimator::BUILTINS.iter().enumerate() {
            let m = moment_metrics(&weights(est, &view), &f.waits, hand.players);
            let s = &mut self.sums[d - 1][turn][e];
            s.moments += 1;
            for (u, x) in s.units.iter_mut().zip(m) {
                *u += (x * METRIC_UNIT).round() as i64;
            }
        }
    }
}

impl Observer for DangerMomentObserver {
    fn hand_start(&mut self, _hand: &HandState) {
        self.following = None;
        self.declared = false;
        self.calls.reset();
    }

    fn after_draw(&mut self, hand: &HandState, seat: usize, _tile: u8) {
        self.moment(hand, seat);
    }

    fn after_discard(&mut self, hand: &HandState, seat: usize, t: u8, declaration: bool) {
        if let Some(f) = &mut self.following {
            let k = tile::kind(t);
            if f.waits[k] {
                // A wait discarded: the situation stops here.
                self.following = None;
            } else {
                f.genbutsu[k] = true;
            }
            return;
        }
        if !declaration || self.declared {
            return;
        }
        self.declared = true;
        let st = &hand.seats[seat];
        let waits = st
            .riichi_waits
            .unwrap_or_else(|| crate::hand::waits(&st.kinds, st.melds.len() as u8));
        let wait_kinds: [bool; KINDS] = std::array::from_fn(|k| waits.is_wait(k));
        let genbutsu = hand.river_kinds(seat);
        let furiten = (0..KINDS).any(|k| wait_kinds[k] && genbutsu[k]);
        if waits.kokushi_only || furiten || !wait_kinds.contains(&true) {
            return;
        }
        self.following = Some(Following {
            riichi_seat: seat,
            waits: wait_kinds,
            genbutsu,
        });
    }

    fn after_call(&mut self, hand: &HandState, seat: usize) {
        if self.calls.took(hand, seat) {
            self.moment(hand, seat);
        }
    }

    fn hand_end(&mut self, _hand: &HandState) {
        self.following = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The combo-zero exclusion, on hand-made views. R waits on West (29) and 1s (18).
    /// - Nothing seen: West's combo weight is pair 3 + triplet 3 (a = 4 − 1), 1s's the same plus
    ///   its right sequence part r(2s)·r(3s) = 16: scored.
    /// - Three Wests visible, O holding none: a = r − 1 = 0, so pair 0 and triplet 0: the
    ///   moment is not scored.
    /// - Two visible and O holding one: r = 1 and O holds a copy, so a = 1: pair 1, scored.
    /// - Three 1s visible and all four 2s: 1s has a = 0 (no pair, no triplet) and its one
    ///   sequence part, (2s, 3s), is r(2s)·r(3s) = 0: excluded; with one 2s left it is 1 · 4
    ///   = 4: scored.
    #[test]
    fn a_wait_without_combinations_excludes_the_moment() {
        let mut waits = [false; KINDS];
        waits[29] = true;
        waits[18] = true;
        let view = |visible: [u8; KINDS], holds: [u8; KINDS]| {
            DangerView::from_counts(&visible, &holds, &[false; KINDS])
        };
        assert!(scored(&view([0; KINDS], [0; KINDS]), &waits));
        let mut three = [0; KINDS];
        three[29] = 3;
        assert!(!scored(&view(three, [0; KINDS]), &waits));
        let mut two = [0; KINDS];
        two[29] = 2;
        let mut holds = [0; KINDS];
        holds[29] = 1;
        assert!(scored(&view(two, holds), &waits));
        let mut ones = [0; KINDS];
        ones[18] = 3;
        ones[19] = 4;
        assert!(!scored(&view(ones, [0; KINDS]), &waits));
        ones[19] = 3;
        assert!(scored(&view(ones, [0; KINDS]), &waits));
    }

    /// A moment's metrics are §4's RMSE and cross-entropy and §15's KLD of the same weights.
    #[test]
    fn moment_metrics_are_the_three_metrics() {
        let w = [1.0 / 34.0; KINDS];
        let mut waits = [false; KINDS];
        waits[0] = true;
        let m = moment_metrics(&w, &waits, Players::Four);
        assert_eq!(m[0], metrics::rmse(&w, &waits));
        assert_eq!(m[1], metrics::cross_entropy(&w, &waits));
        // One wait, v = 1, w = 1/34: KLD = ln 34.
        assert!((m[2] - 34f64.ln()).abs() < 1e-12);
    }
}
