//! `hands`: one row per hand (docs/definitions.md §6).

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::mjlog::{self, lacks};

pub(super) const NAME: &str = "hands";

#[derive(Default)]
pub(super) struct Hands {
    game: Vec<u32>,
    /// The game's room, so that per-room figures need no join with `games`.
    room: Vec<&'static str>,
    hand: Vec<i32>,
    round: Vec<i32>,
    honba: Vec<i32>,
    kyotaku: Vec<i32>,
    dealer: Vec<i32>,
    start: [Vec<i32>; 4],
    /// Null for a draw whose type the format does not record (mjlog::lacks::DRAW_KIND) and the
    /// replay could not tell from the state at the draw.
    end: Vec<Option<String>>,
    deltas: [Vec<i32>; 4],
    declarations: Vec<i32>,
    callers: Vec<i32>,
    wins: Vec<i32>,
    /// Null where the format records no points (mjlog::lacks::WIN_VALUE).
    win_value: Vec<Option<i32>>,
    draws: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Hands>::default()
}

impl GameFrame for Hands {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 100 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let f = &g.obs.facts;
        for (i, h) in f.hands.iter().enumerate() {
            self.game.push(game);
            self.room.push(f.room);
            self.hand.push(i as i32);
            self.round.push(h.round as i32);
            self.honba.push(h.honba as i32);
            self.kyotaku.push(h.kyotaku as i32);
            self.dealer.push(h.dealer as i32);
            for s in 0..4 {
                self.start[s].push(h.start[s]);
            }
            // A draw the log does not name is named by the replay from the state at the draw
            // (`HandState::draw_name`), unless no type fits.
            let known = f.lacks & lacks::DRAW_KIND == 0 || h.end != mjlog::UNNAMED_ABORTIVE;
            self.end.push(known.then(|| h.end.clone()));
            for s in 0..4 {
                self.deltas[s].push(h.deltas[s]);
            }
            self.declarations.push(h.declarations as i32);
            self.callers.push(h.callers as i32);
            self.wins.push(h.wins as i32);
            self.win_value
                .push((f.lacks & lacks::WIN_VALUE == 0).then_some(h.win_value));
            self.draws.push(h.draws as i32);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let h = std::mem::take(self);
        let [d0, d1, d2, d3] = h.deltas;
        let [s0, s1, s2, s3] = h.start;
        FrameChunk::default()
            .labels("game_id", ids, rebase(h.game, first))
            .strings("room", h.room.iter().map(|&r| Some(r)))
            .int("hand", h.hand)
            .int("round", h.round)
            .int("honba", h.honba)
            .int("kyotaku", h.kyotaku)
            .int("dealer", h.dealer)
            .strings("end", h.end.iter().map(|e| e.as_deref()))
            .int("delta_0", d0)
            .int("delta_1", d1)
            .int("delta_2", d2)
            .int("delta_3", d3)
            .int("declarations", h.declarations)
            .int("callers", h.callers)
            .int("wins", h.wins)
            .maybe_int("win_value", h.win_value, false)
            .int("draws", h.draws)
            .int("start_0", s0)
            .int("start_1", s1)
            .int("start_2", s2)
            .int("start_3", s3)
    }
}
