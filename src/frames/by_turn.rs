//! `by_turn`: per game, one row per turn with a shanten unit, a declaration or a win
//! (docs/definitions.md §11; the `by-turn` report sums them over the games of a run or a slice).

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::stats::by_turn::MAX_SHANTEN;

pub(super) const NAME: &str = "by_turn";

#[derive(Default)]
pub(super) struct ByTurn {
    game: Vec<u32>,
    turn: Vec<i32>,
    units: Vec<i32>,
    shanten: [Vec<i32>; MAX_SHANTEN + 1],
    declarations: Vec<i32>,
    wins: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<ByTurn>::default()
}

impl GameFrame for ByTurn {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 45 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for (turn, c) in g.obs.by_turn.iter().enumerate() {
            if c.units() == 0 && c.declarations == 0 && c.wins == 0 {
                continue;
            }
            self.game.push(game);
            self.turn.push(turn as i32);
            self.units.push(c.units() as i32);
            for (col, &n) in self.shanten.iter_mut().zip(&c.shanten) {
                col.push(n as i32);
            }
            self.declarations.push(c.declarations as i32);
            self.wins.push(c.wins as i32);
        }
    }

    fn pending(&self) -> usize {
        self.turn.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let b = std::mem::take(self);
        let mut chunk = FrameChunk::default()
            .labels("game_id", ids, rebase(b.game, first))
            .plain_int("turn", b.turn)
            .plain_int("units", b.units);
        for (s, col) in b.shanten.into_iter().enumerate() {
            chunk = chunk.plain_int(&format!("shanten_{s}"), col);
        }
        chunk
            .plain_int("declarations", b.declarations)
            .plain_int("wins", b.wins)
    }
}
