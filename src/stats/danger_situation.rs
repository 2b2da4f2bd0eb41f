//! §4 danger-table validation, the observing half: for the first riichi declaration of each
//! hand, what observer O = (R + 1) mod 4 (mod 3 with three players, §24) knows at the two
//! moments, and R's waits.
//!
//! Scoring the estimators needs run-wide numbers (the phoenix-table rates) and a user's table,
//! so this observer only records situations; the built-in estimators are scored per game
//! ([`crate::danger::score_builtins`]) and the rest once the run is complete.

use crate::danger::{combo_weight, DangerView, EvalKey, Moment};
use crate::hand;
use crate::replay::{HandState, Observer};
use crate::rules::Players;
use crate::tile::{self, KINDS};

/// One (situation, moment): everything an estimator and the metrics need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DangerSituation {
    /// The game's table: its kinds, the observer seat.
    pub(crate) players: Players,
    pub(crate) hand: u16,
    pub(crate) riichi_seat: u8,
    pub(crate) moment: Moment,
    /// The riichi seat's turn at declaration, counting the declaration discard.
    pub(crate) riichi_turn: u8,
    pub(crate) riichi_is_dealer: bool,
    /// Why the situation is left out at this moment (§4 exclusions), or None.
    pub(crate) excluded: Option<&'static str>,
    /// Publicly visible copies per kind at the moment.
    pub(crate) visible: [u8; KINDS],
    /// Copies per kind in O's concealed hand at the moment.
    pub(crate) observer_holds: [u8; KINDS],
    /// R's river at declaration plus every tile discarded after it, up to the moment.
    pub(crate) genbutsu: [bool; KINDS],
    /// R's waits at declaration.
    pub(crate) waits: [bool; KINDS],
}

impl DangerSituation {
    /// The estimator input at this moment.
    pub(crate) fn view(&self) -> DangerView {
        DangerView::from_counts_for(
            &self.visible,
            &self.observer_holds,
            &self.genbutsu,
            self.players,
        )
    }

    /// The key of this situation's scores in game `game` (its sequence number in the run).
    pub(crate) fn eval_key(&self, game: u32) -> EvalKey {
        EvalKey {
            game,
            hand: i32::from(self.hand),
            riichi_seat: i32::from(self.riichi_seat),
            moment: self.moment,
            riichi_turn: i32::from(self.riichi_turn),
            riichi_is_dealer: self.riichi_is_dealer,
            n_waits: self.waits.iter().filter(|&&w| w).count() as i32,
        }
    }
}

/// The first declaration of the current hand, while it is being followed.
struct Following {
    riichi_seat: u8,
    riichi_turn: u8,
    riichi_is_dealer: bool,
    kokushi: bool,
    waits: [bool; KINDS],
    genbutsu: [bool; KINDS],
    /// (visible, O's hand, genbutsu) right after the latest draw since the declaration.
    last_draw: Option<([u8; KINDS], [u8; KINDS], [bool; KINDS])>,
}

/// Collects §4 situations of one game.
#[derive(Default)]
pub(crate) struct DangerSituationObserver {
    /// Invariant: None when a hand starts (`hand_end` clears it, and a hand that fails to
    /// replay ends its game and its observers with it).
    following: Option<Following>,
    pub(crate) rows: Vec<DangerSituation>,
}

impl DangerSituationObserver {
    fn emit(
        &mut self,
        players: Players,
        hand: u16,
        moment: Moment,
        visible: [u8; KINDS],
        observer_holds: [u8; KINDS],
        genbutsu: [bool; KINDS],
    ) {
        let f = self.following.as_ref().expect("following a declaration");
        let mut s = DangerSituation {
            players,
            hand,
            riichi_seat: f.riichi_seat,
            moment,
            riichi_turn: f.riichi_turn,
            riichi_is_dealer: f.riichi_is_dealer,
            excluded: None,
            visible,
            observer_holds,
            genbutsu,
            waits: f.waits,
        };
        s.excluded = exclusion(&s, f.kokushi);
        self.rows.push(s);
    }
}

/// §4 exclusions, checked at each moment: kokushi riichi, a wait already in the genbutsu
/// set, a wait whose combo weight is 0 for O.
fn exclusion(s: &DangerSituation, kokushi: bool) -> Option<&'static str> {
    if kokushi {
        return Some("kokushi");
    }
    if !s.waits.iter().any(|&w| w) {
        return Some("no-wait");
    }
    if (0..KINDS).any(|k| s.waits[k] && s.genbutsu[k]) {
        return Some("wait-in-genbutsu");
    }
    let view = s.view();
    if (0..KINDS).any(|k| s.waits[k] && combo_weight(&view, k) == 0.0) {
        return Some("wait-combo-zero");
    }
    None
}

impl Observer for DangerSituationObserver {
    fn after_draw(&mut self, hand: &HandState, _seat: usize, _tile: u8) {
        if let Some(f) = &mut self.following {
            let o = usize::from(hand.players.next(f.riichi_seat));
            f.last_draw = Some((hand.visible, hand.seats[o].kinds, f.genbutsu));
        }
    }

    fn after_discard(&mut self, hand: &HandState, seat: usize, t: u8, declaration: bool) {
        if let Some(f) = &mut self.following {
            f.genbutsu[tile::kind(t)] = true;
            return;
        }
        // Not yet following, so this is the hand's first declaration if it is one.
        if !declaration {
            return;
        }
        debug_assert_eq!(hand.first_declaration, Some(seat as u8));
        let st = &hand.seats[seat];
        let waits = st
            .riichi_waits
            .unwrap_or_else(|| hand::waits(&st.kinds, st.melds.len() as u8));
        self.following = Some(Following {
            riichi_seat: seat as u8,
            riichi_turn: st.turn,
            riichi_is_dealer: seat as u8 == hand.dealer,
            kokushi: waits.kokushi_only,
            waits: std::array::from_fn(|k| waits.is_wait(k)),
            genbutsu: hand.river_kinds(seat),
            last_draw: None,
        });
        let o = usize::from(hand.players.next(seat as u8));
        let genbutsu = hand.river_kinds(seat);
        self.emit(
            hand.players,
            hand.index,
            Moment::Declaration,
            hand.visible,
            hand.seats[o].kinds,
            genbutsu,
        );
    }

    fn hand_end(&mut self, hand: &HandState) {
        let snapshot = self.following.as_ref().and_then(|f| f.last_draw);
        if let Some((visible, holds, genbutsu)) = snapshot {
            self.emit(
                hand.players,
                hand.index,
                Moment::LastDraw,
                visible,
                holds,
                genbutsu,
            );
        }
        self.following = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A situation with R waiting on `waits` (kinds), nothing visible and O holding nothing.
    fn situation(waits: &[usize]) -> DangerSituation {
        let mut w = [false; KINDS];
        for &k in waits {
            w[k] = true;
        }
        DangerSituation {
            players: Players::Four,
            hand: 0,
            riichi_seat: 0,
            moment: Moment::Declaration,
            riichi_turn: 5,
            riichi_is_dealer: false,
            excluded: None,
            visible: [0; KINDS],
            observer_holds: [0; KINDS],
            genbutsu: [false; KINDS],
            waits: w,
        }
    }

    /// Each §4 exclusion, in the order they are checked (kinds: 1z = 27, 7z = 33).
    #[test]
    fn exclusions_in_order() {
        // A single wait on 1z, no copy seen: combo weight pair 3 + triplet 3 > 0 (a = 4 − 1).
        let plain = situation(&[27]);
        assert_eq!(exclusion(&plain, false), None);
        assert_eq!(exclusion(&plain, true), Some("kokushi"));
        assert_eq!(exclusion(&situation(&[]), false), Some("no-wait"));
        assert_eq!(exclusion(&situation(&[]), true), Some("kokushi"));
        let mut furiten = situation(&[27, 33]);
        furiten.genbutsu[33] = true;
        assert_eq!(exclusion(&furiten, false), Some("wait-in-genbutsu"));
        // All four 7z visible: no copy left for a pair or triplet, so combo weight 0.
        let mut karaten = situation(&[27, 33]);
        karaten.visible[33] = 4;
        assert_eq!(exclusion(&karaten, false), Some("wait-combo-zero"));
        // Genbutsu is checked before the combo weight.
        karaten.genbutsu[33] = true;
        assert_eq!(exclusion(&karaten, false), Some("wait-in-genbutsu"));
    }
}
