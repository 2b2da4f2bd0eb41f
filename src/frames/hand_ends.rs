//! `hand_ends`: one row per hand, what §14's records read of its end: the longest river of
//! uncalled discards, its first seat and how many rivers are that long, and the melds on the
//! table (written with `--with development`).

use super::{rebase, FrameChunk, GameFrame, GameRows};

pub(super) const NAME: &str = "hand_ends";

#[derive(Default)]
pub(super) struct HandEnds {
    game: Vec<u32>,
    hand: Vec<i32>,
    longest_river: Vec<i32>,
    longest_river_seat: Vec<i32>,
    longest_rivers: Vec<i32>,
    melds: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<HandEnds>::default()
}

impl GameFrame for HandEnds {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 20 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for (i, e) in g.obs.hand_ends.iter().enumerate() {
            self.game.push(game);
            self.hand.push(i as i32);
            self.longest_river.push(i32::from(e.longest_river));
            self.longest_river_seat
                .push(i32::from(e.longest_river_seat));
            self.longest_rivers.push(i32::from(e.longest_rivers));
            self.melds.push(i32::from(e.melds));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let h = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(h.game, first))
            .plain_int("hand", h.hand)
            .plain_int("longest_river", h.longest_river)
            .plain_int("longest_river_seat", h.longest_river_seat)
            .plain_int("longest_rivers", h.longest_rivers)
            .plain_int("melds", h.melds)
    }
}
