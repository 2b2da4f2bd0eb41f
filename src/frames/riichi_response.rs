//! `riichi_response`: one row per §1 unit (docs/definitions.md §1, §6).

use super::{rebase, FrameChunk, GameFrame, GameRows};

pub(super) const NAME: &str = "riichi_response";

#[derive(Default)]
pub(super) struct RiichiResponse {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    riichi_seat: Vec<i32>,
    outcome: Vec<&'static str>,
    income: Vec<i32>,
    shanten: Vec<i32>,
    seat_is_dealer: Vec<bool>,
    riichi_is_dealer: Vec<bool>,
    riichi_turn: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<RiichiResponse>::default()
}

impl GameFrame for RiichiResponse {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 45 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for r in &g.obs.riichi_response {
            self.game.push(game);
            self.hand.push(r.hand as i32);
            self.seat.push(r.seat as i32);
            self.riichi_seat.push(r.riichi_seat as i32);
            self.outcome.push(r.outcome.name());
            self.income.push(r.income);
            self.shanten.push(r.shanten as i32);
            self.seat_is_dealer.push(r.seat_is_dealer);
            self.riichi_is_dealer.push(r.riichi_is_dealer);
            self.riichi_turn.push(r.riichi_turn as i32);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let r = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(r.game, first))
            .int("hand", r.hand)
            .int("seat", r.seat)
            .int("riichi_seat", r.riichi_seat)
            .strings("outcome", r.outcome.iter().map(|&o| Some(o)))
            .int("income", r.income)
            .int("shanten", r.shanten)
            .boolean("seat_is_dealer", &r.seat_is_dealer)
            .boolean("riichi_is_dealer", &r.riichi_is_dealer)
            .int("riichi_turn", r.riichi_turn)
    }
}
