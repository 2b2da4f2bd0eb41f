//! §11 by turn: the shanten of every starting hand (turn 0) and of the discarder's hand after
//! every discard (at its turn, that discard included), the riichi declarations and the wins,
//! summed per turn over one game (the `by_turn` frame: one row per game and turn).
//!
//! The shanten runs after every discard (about 3.1 million on the Phoenix corpus): it is the
//! replay's [`HandState::shanten`], which keeps it until the hand changes (after a tsumogiri
//! the hand, and its shanten, are those before the draw; the §8 tenpai test before the next
//! draw reads the same value).

use crate::replay::{HandState, Observer, TerminalKind};

/// The highest shanten a 13-tile hand can have (seven pairs bounds it).
pub(crate) const MAX_SHANTEN: usize = 6;

/// One turn's counts in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TurnCounts {
    /// Shanten units by shanten 0..=6.
    pub(crate) shanten: [u32; MAX_SHANTEN + 1],
    /// Riichi declarations made on this turn's discard.
    pub(crate) declarations: u32,
    /// AGARI records whose winner had made this many discards.
    pub(crate) wins: u32,
}

impl TurnCounts {
    /// Shanten units.
    pub(crate) fn units(&self) -> u32 {
        self.shanten.iter().sum()
    }
}

/// Collects one game's counts by turn.
#[derive(Default)]
pub(crate) struct ByTurnObserver {
    /// Indexed by turn.
    pub(crate) turns: Vec<TurnCounts>,
}

impl ByTurnObserver {
    fn at(&mut self, turn: u8) -> &mut TurnCounts {
        let t = turn as usize;
        if self.turns.len() <= t {
            self.turns.resize(t + 1, TurnCounts::default());
        }
        &mut self.turns[t]
    }

    /// Counts the shanten of `seat`'s concealed hand at `turn`.
    fn unit(&mut self, hand: &HandState, seat: usize, turn: u8) {
        let shanten = hand.shanten(seat).clamp(0, MAX_SHANTEN as i8);
        self.at(turn).shanten[shanten as usize] += 1;
    }
}

impl Observer for ByTurnObserver {
    fn hand_start(&mut self, hand: &HandState) {
        for seat in 0..hand.players.seats() {
            self.unit(hand, seat, 0);
        }
    }

    fn after_discard(&mut self, hand: &HandState, seat: usize, _tile: u8, declaration: bool) {
        let turn = hand.seats[seat].turn;
        self.unit(hand, seat, turn);
        if declaration {
            self.at(turn).declarations += 1;
        }
    }

    fn hand_end(&mut self, hand: &HandState) {
        for t in &hand.terminals {
            if matches!(t.kind, TerminalKind::Tsumo | TerminalKind::Ron) {
                let turn = hand.seats[t.who as usize].turn;
                self.at(turn).wins += 1;
            }
        }
    }
}
