//! §1 Riichi response: how a hand ends for a seat that faces another seat's first riichi.

use crate::replay::{HandState, Observer, TerminalKind};

use super::{hand_income, riichi_stick};

/// Outcome class of a §1 unit, decided in this order: draw, win, tsumo by another, deal-in,
/// ron between others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outcome {
    Win,
    DealIn,
    TsumoOther,
    RonOther,
    Draw,
}

impl Outcome {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::DealIn => "deal_in",
            Outcome::TsumoOther => "tsumo_other",
            Outcome::RonOther => "ron_other",
            Outcome::Draw => "draw",
        }
    }
}

/// One §1 unit: (hand, seat) facing `riichi_seat`'s declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RiichiResponseRow {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    pub(crate) riichi_seat: u8,
    pub(crate) outcome: Outcome,
    /// Points, per the outcome's income rule.
    pub(crate) income: i32,
    /// Shanten of `seat`'s concealed hand at the declaration (0 = tenpai).
    pub(crate) shanten: i8,
    pub(crate) seat_is_dealer: bool,
    pub(crate) riichi_is_dealer: bool,
    /// The riichi seat's turn, counting the declaration discard.
    pub(crate) riichi_turn: u8,
}

/// Collects §1 units of one game.
#[derive(Default)]
pub(crate) struct RiichiResponseObserver {
    /// Units of the current hand, outcome still unknown (filled at hand end, which drains it:
    /// so it is empty when a hand starts; a hand that fails ends its game, observers and all).
    pending: Vec<RiichiResponseRow>,
    pub(crate) rows: Vec<RiichiResponseRow>,
}

impl Observer for RiichiResponseObserver {
    fn after_discard(&mut self, hand: &HandState, seat: usize, _tile: u8, declaration: bool) {
        if !declaration {
            return;
        }
        for s in 0..hand.players.seats() {
            let st = &hand.seats[s];
            if s == seat
                || st.riichi.has_declared()
                || self.pending.iter().any(|u| u.seat as usize == s)
            {
                continue;
            }
            self.pending.push(RiichiResponseRow {
                hand: hand.index,
                seat: s as u8,
                riichi_seat: seat as u8,
                outcome: Outcome::Draw,
                income: 0,
                shanten: hand.shanten(s),
                seat_is_dealer: s as u8 == hand.dealer,
                riichi_is_dealer: seat as u8 == hand.dealer,
                riichi_turn: hand.seats[seat].turn,
            });
        }
    }

    fn hand_end(&mut self, hand: &HandState) {
        for mut u in self.pending.drain(..) {
            let s = u.seat as usize;
            let (outcome, income) = outcome_of(hand, s);
            u.outcome = outcome;
            u.income = income;
            self.rows.push(u);
        }
    }
}

/// The §1 outcome class and income of `seat` for a finished hand.
pub(crate) fn outcome_of(hand: &HandState, seat: usize) -> (Outcome, i32) {
    let t = &hand.terminals;
    if t.iter().any(|r| matches!(r.kind, TerminalKind::Draw(_))) {
        return (Outcome::Draw, hand_income(hand, seat));
    }
    if let Some(win) = t.iter().take(2).find(|r| r.who as usize == seat) {
        return (Outcome::Win, win.deltas[seat] - riichi_stick(hand, seat));
    }
    let first = &t[0];
    let outcome = match first.kind {
        TerminalKind::Tsumo => Outcome::TsumoOther,
        _ if first.from as usize == seat => Outcome::DealIn,
        _ => Outcome::RonOther,
    };
    (outcome, hand_income(hand, seat))
}
