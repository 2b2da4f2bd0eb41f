//! `wait_danger`: one row per §2 unit, (qualifying declaration, kind) (statistics.md §2, §6).

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::danger::Category;
use crate::hand::WaitShape;
use crate::tile::{self, KINDS};

pub(super) const NAME: &str = "wait_danger";

#[derive(Default)]
pub(super) struct WaitDanger {
    game: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    /// Kind index (0..34).
    kind: Vec<u32>,
    /// [`Category::index`].
    category: Vec<u32>,
    is_wait: Vec<bool>,
    /// `shape as u32` ([`WaitShape::ALL`] order); `WaitShape::ALL.len()` for a kind that is
    /// not a wait (null).
    wait_shape: Vec<u32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<WaitDanger>::default()
}

impl GameFrame for WaitDanger {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 20 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 18
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for w in &g.obs.wait_danger {
            for k in 0..KINDS {
                self.game.push(game);
                self.hand.push(w.hand as i32);
                self.riichi_seat.push(w.riichi_seat as i32);
                self.kind.push(k as u32);
                self.category.push(w.category[k].index() as u32);
                self.is_wait.push(w.shape[k].is_some());
                self.wait_shape
                    .push(w.shape[k].map_or(WaitShape::ALL.len() as u32, |s| s as u32));
            }
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let w = std::mem::take(self);
        let kind_names: Vec<&str> = (0..KINDS).map(tile::kind_name).collect();
        let mut category_names = [""; Category::ALL.len()];
        for c in Category::ALL {
            category_names[c.index()] = c.name();
        }
        let shape_names = WaitShape::ALL.map(WaitShape::name);
        FrameChunk::default()
            .labels("game_id", ids, rebase(w.game, first))
            .int("hand", w.hand)
            .int("riichi_seat", w.riichi_seat)
            .labels("kind", &kind_names, w.kind)
            .labels("category", &category_names, w.category)
            .boolean("is_wait", &w.is_wait)
            .labels("wait_shape", &shape_names, w.wait_shape)
    }
}
