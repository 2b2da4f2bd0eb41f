//! `seats`: one row per (game, seat), the §21 counts of the seat over the game (every run
//! writes it; the `players` report and `haifu compare players` read it with the names in
//! `games`). Integer columns only, written plain; `*2` columns are sums of squares.

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::stats::SeatCounts;

pub(super) const NAME: &str = "seats";

#[derive(Default)]
pub(super) struct Seats {
    game: Vec<u32>,
    seat: Vec<i32>,
    /// Null when the game has no `owari` (its format records no final scores).
    place: Vec<Option<i32>>,
    score: Vec<Option<i32>>,
    counts: Vec<SeatCounts>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Seats>::default()
}

impl GameFrame for Seats {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 150 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    /// A row per seat of the game (three in a three-player game).
    fn push(&mut self, game: u32, g: &GameRows) {
        let f = &g.obs.facts;
        for (s, c) in g.obs.seats.iter().enumerate().take(f.players.seats()) {
            self.game.push(game);
            self.seat.push(s as i32);
            self.place.push(Some(i32::from(f.places[s])));
            self.score.push(Some(f.final_scores[s]));
            self.counts.push(*c);
        }
    }

    fn pending(&self) -> usize {
        self.seat.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let t = std::mem::take(self);
        let c = &t.counts;
        let int = |f: fn(&SeatCounts) -> i32| c.iter().map(f).collect::<Vec<i32>>();
        let long = |f: fn(&SeatCounts) -> i64| c.iter().map(f).collect::<Vec<i64>>();
        FrameChunk::default()
            .labels("game_id", ids, rebase(t.game, first))
            .plain_int("seat", t.seat)
            .maybe_int("place", t.place, true)
            .maybe_int("score", t.score, true)
            .plain_int("hands", int(|c| c.hands))
            .plain_int("draws", int(|c| c.draws))
            .plain_int("dealer_hands", int(|c| c.dealer_hands))
            .plain_int("dealer_wins", int(|c| c.dealer_wins))
            .plain_int("wins", int(|c| c.wins))
            .plain_int64("win_points", long(|c| c.win_points))
            .plain_int64("win_points2", long(|c| c.win_points2))
            .plain_int("win_turns", int(|c| c.win_turns))
            .plain_int("win_turns2", int(|c| c.win_turns2))
            .plain_int("riichi_wins", int(|c| c.riichi_wins))
            .plain_int64("riichi_win_points", long(|c| c.riichi_win_points))
            .plain_int64("riichi_win_points2", long(|c| c.riichi_win_points2))
            .plain_int("call_wins", int(|c| c.call_wins))
            .plain_int64("call_win_points", long(|c| c.call_win_points))
            .plain_int64("call_win_points2", long(|c| c.call_win_points2))
            .plain_int("deal_ins", int(|c| c.deal_ins))
            .plain_int64("deal_in_points", long(|c| c.deal_in_points))
            .plain_int64("deal_in_points2", long(|c| c.deal_in_points2))
            .plain_int("deal_in_turns", int(|c| c.deal_in_turns))
            .plain_int("deal_in_turns2", int(|c| c.deal_in_turns2))
            .plain_int("declarations", int(|c| c.declarations))
            .plain_int("declaration_turns", int(|c| c.declaration_turns))
            .plain_int("declaration_turns2", int(|c| c.declaration_turns2))
            .plain_int("riichi_deal_ins", int(|c| c.riichi_deal_ins))
            .plain_int("chases", int(|c| c.chases))
            .plain_int("call_hands", int(|c| c.call_hands))
            .plain_int("call_deal_ins", int(|c| c.call_deal_ins))
    }
}
