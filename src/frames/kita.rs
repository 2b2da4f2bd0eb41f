//! `kita`: one row per kita of a three-player game (docs/definitions.md §24): the seat, its
//! turn, the live wall left before the replacement draw, and whether a ron robbed the North.

use super::{rebase, FrameChunk, GameFrame, GameRows};

pub(super) const NAME: &str = "kita";

#[derive(Default)]
pub(super) struct Kita {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    live_left: Vec<i32>,
    robbed: Vec<bool>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Kita>::default()
}

impl GameFrame for Kita {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 25 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for k in &g.obs.kita {
            self.game.push(game);
            self.hand.push(i32::from(k.hand));
            self.seat.push(i32::from(k.seat));
            self.turn.push(i32::from(k.turn));
            self.live_left.push(i32::from(k.live_left));
            self.robbed.push(k.robbed);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let k = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(k.game, first))
            .int("hand", k.hand)
            .int("seat", k.seat)
            .int("turn", k.turn)
            .int("live_left", k.live_left)
            .boolean("robbed", &k.robbed)
    }
}
