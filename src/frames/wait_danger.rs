//! `wait_danger`: one row per §2 unit, (qualifying declaration, kind) (docs/definitions.md §2, §6;
//! a three-player declaration has a row per each of its game's 27 kinds, §24).

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

    /// A row per kind of the game a unit (34, or 27 in a three-player game), each column
    /// extended at once (a reserve and a copy loop, rather than seven pushes a row).
    fn push(&mut self, game: u32, g: &GameRows) {
        use std::iter::repeat_n;
        let rows: usize = g
            .obs
            .wait_danger
            .iter()
            .map(|w| w.kinds.count_ones() as usize)
            .sum();
        self.game.extend(repeat_n(game, rows));
        for w in &g.obs.wait_danger {
            let n = w.kinds.count_ones() as usize;
            self.hand.extend(repeat_n(w.hand as i32, n));
            self.riichi_seat.extend(repeat_n(w.riichi_seat as i32, n));
            if n == KINDS {
                self.kind.extend(0..KINDS as u32);
                self.category
                    .extend(w.category.iter().map(|c| c.index() as u32));
                self.is_wait.extend(w.shape.iter().map(Option::is_some));
                self.wait_shape.extend(
                    w.shape
                        .iter()
                        .map(|s| s.map_or(WaitShape::ALL.len() as u32, |s| s as u32)),
                );
                continue;
            }
            for k in (0..KINDS).filter(|&k| w.kinds >> k & 1 == 1) {
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
        // The 19 four-player names, or all 25 when a three-player game's unit is here (a
        // four-player corpus writes the dictionary it always has).
        let sanma = w.category.iter().any(|&c| c as usize >= 19);
        let categories = &Category::ALL[..if sanma { Category::ALL.len() } else { 19 }];
        let category_names: Vec<&str> = categories.iter().map(|c| c.name()).collect();
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
