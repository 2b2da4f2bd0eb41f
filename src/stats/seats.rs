//! §21 player profiles: per seat of a game, the counts and sums the profile's metrics need
//! (the `seats` frame). Counted once per hand, at its end, from the hand's final state: no
//! work per draw or discard.

use super::riichi_stick;
use crate::replay::{HandState, Observer, RiichiState, TerminalKind};

/// One seat's §21 counts over a game. `*2` fields are sums of squares (for the tests of
/// `haifu compare`); "points" are `sc` deltas in points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SeatCounts {
    /// INITs the seat played.
    pub(crate) hands: i32,
    /// Hands ending in a RYUUKYOKU of any kind.
    pub(crate) draws: i32,
    pub(crate) dealer_hands: i32,
    /// Hands as dealer that the seat won.
    pub(crate) dealer_wins: i32,
    /// AGARI records with the seat as winner; the sum (and squares) of the seat's delta in
    /// that record less 1,000 when its own riichi was established; the sum (and squares) of
    /// its discards so far at the win.
    pub(crate) wins: i32,
    pub(crate) win_points: i64,
    pub(crate) win_points2: i64,
    pub(crate) win_turns: i32,
    pub(crate) win_turns2: i32,
    /// Wins with the seat's riichi established (the same count is the §21 riichi wins per
    /// declaration), with their points as above.
    pub(crate) riichi_wins: i32,
    pub(crate) riichi_win_points: i64,
    pub(crate) riichi_win_points2: i64,
    /// Wins of hands with a chi, pon or daiminkan (such a hand cannot riichi: these are the
    /// §21 open wins and the wins after a call), with their points.
    pub(crate) call_wins: i32,
    pub(crate) call_win_points: i64,
    pub(crate) call_win_points2: i64,
    /// Hands in which the seat was the discarder of an AGARI (a double ron once); the sum
    /// (and squares) of its deltas over the hand's AGARI records; the sum (and squares) of its
    /// discards so far (the tile dealt in included; a robbed kan adds none).
    pub(crate) deal_ins: i32,
    pub(crate) deal_in_points: i64,
    pub(crate) deal_in_points2: i64,
    pub(crate) deal_in_turns: i32,
    pub(crate) deal_in_turns2: i32,
    /// Riichi declarations (§0, one dealt in on its own tile included); the sum (and
    /// squares) of the declarer's discards before the declaration tile.
    pub(crate) declarations: i32,
    pub(crate) declaration_turns: i32,
    pub(crate) declaration_turns2: i32,
    /// Declarations after which the declarer dealt in (later, or on the declaration tile).
    pub(crate) riichi_deal_ins: i32,
    /// Declarations made after another seat's declaration in the hand.
    pub(crate) chases: i32,
    /// Hands with at least one chi, pon or daiminkan by the seat, and those it dealt in.
    pub(crate) call_hands: i32,
    pub(crate) call_deal_ins: i32,
}

/// Counts every seat's hands as they end.
#[derive(Default)]
pub(crate) struct SeatObserver {
    pub(crate) seats: [SeatCounts; 4],
}

impl Observer for SeatObserver {
    fn hand_end(&mut self, hand: &HandState) {
        let drawn = hand
            .terminals
            .iter()
            .any(|t| matches!(t.kind, TerminalKind::Draw(_)));
        let players = hand.players.seats();
        for (s, c) in self.seats.iter_mut().enumerate().take(players) {
            let seat = &hand.seats[s];
            c.hands += 1;
            c.draws += i32::from(drawn);
            let dealer = usize::from(hand.dealer) == s;
            c.dealer_hands += i32::from(dealer);
            let established = matches!(seat.riichi, RiichiState::Established { .. });
            let turn = i32::from(seat.turn);
            let won = hand
                .terminals
                .iter()
                .find(|t| !matches!(t.kind, TerminalKind::Draw(_)) && usize::from(t.who) == s);
            if let Some(t) = won {
                let points = i64::from(t.deltas[s] - riichi_stick(hand, s));
                c.wins += 1;
                c.win_points += points;
                c.win_points2 += points * points;
                c.win_turns += turn;
                c.win_turns2 += turn * turn;
                c.dealer_wins += i32::from(dealer);
                if established {
                    c.riichi_wins += 1;
                    c.riichi_win_points += points;
                    c.riichi_win_points2 += points * points;
                }
                if seat.called {
                    c.call_wins += 1;
                    c.call_win_points += points;
                    c.call_win_points2 += points * points;
                }
            }
            let dealt_in = hand
                .terminals
                .iter()
                .any(|t| t.kind == TerminalKind::Ron && usize::from(t.from) == s);
            if dealt_in {
                let points: i64 = hand
                    .terminals
                    .iter()
                    .filter(|t| !matches!(t.kind, TerminalKind::Draw(_)))
                    .map(|t| i64::from(t.deltas[s]))
                    .sum();
                c.deal_ins += 1;
                c.deal_in_points += points;
                c.deal_in_points2 += points * points;
                c.deal_in_turns += turn;
                c.deal_in_turns2 += turn * turn;
            }
            if let RiichiState::Declared { river_index }
            | RiichiState::Established { river_index } = seat.riichi
            {
                let before = i32::from(river_index);
                c.declarations += 1;
                c.declaration_turns += before;
                c.declaration_turns2 += before * before;
                c.riichi_deal_ins += i32::from(dealt_in);
                c.chases += i32::from(hand.first_declaration != Some(s as u8));
            }
            if seat.called {
                c.call_hands += 1;
                c.call_deal_ins += i32::from(dealt_in);
            }
        }
    }
}
