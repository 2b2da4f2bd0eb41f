//! `walls`: one row per hand checked against its wall (written on request, `--with walls`).
//!
//! `tiles` is the 136 tiles in the order they are taken, two characters each (`1m`..`7z`, a
//! red five `0m`/`0p`/`0s` in a game with red fives): the 52 dealt (`dealer`'s first four,
//! the next seat's four, …, three times round, then one each), the 70 of the live wall, then
//! the dead wall: the four replacement draws, and the five dora indicators each followed by its
//! ura. Tile i (0-based) is `SUBSTR(tiles, 2 * i + 1, 2)`; `ids` is the same order as Tenhou
//! tile ids, three digits each (`SUBSTR(ids, 3 * i + 1, 3)`). Dora indicator k (0-based) is
//! tile `126 + 2k` and its ura `127 + 2k`; the hand's next live draw would have been tile
//! `52 + live_draws`, and its live wall ended at tile `121 - rinshan_draws` (haitei).

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::tile::{self, TileId};
use crate::wall::{Layout, TILES};

pub(super) const NAME: &str = "walls";

#[derive(Default)]
struct Walls {
    game: Vec<u32>,
    hand: Vec<i32>,
    dice_1: Vec<i32>,
    dice_2: Vec<i32>,
    old: Vec<u32>,
    tiles: Vec<String>,
    ids: Vec<String>,
    live_draws: Vec<i32>,
    rinshan_draws: Vec<i32>,
    indicators: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Walls>::default()
}

/// The `tiles` text of a wall.
pub(crate) fn tiles_text(order: &[TileId; TILES], red: bool) -> String {
    let mut s = String::with_capacity(2 * TILES);
    for &t in order {
        if tile::is_red(t, red) {
            s.push('0');
            s.push(tile::kind_name(tile::kind(t)).as_bytes()[1] as char);
        } else {
            s.push_str(tile::kind_name(tile::kind(t)));
        }
    }
    s
}

/// The `ids` text of a wall: three digits a tile.
fn ids_text(order: &[TileId; TILES]) -> String {
    let mut s = String::with_capacity(3 * TILES);
    for &t in order {
        s.push((b'0' + t / 100) as char);
        s.push((b'0' + t / 10 % 10) as char);
        s.push((b'0' + t % 10) as char);
    }
    s
}

impl GameFrame for Walls {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 700 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 14
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for w in &g.obs.walls {
            self.game.push(game);
            self.hand.push(i32::from(w.hand));
            self.dice_1.push(i32::from(w.dice[0]));
            self.dice_2.push(i32::from(w.dice[1]));
            self.old.push(u32::from(w.layout == Layout::Old));
            self.tiles.push(tiles_text(&w.tiles, w.red));
            self.ids.push(ids_text(&w.tiles));
            self.live_draws.push(i32::from(w.live_draws));
            self.rinshan_draws.push(i32::from(w.rinshan_draws));
            self.indicators.push(i32::from(w.indicators));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let w = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(w.game, first))
            .int("hand", w.hand)
            .int("dice_1", w.dice_1)
            .int("dice_2", w.dice_2)
            .labels("dead_wall", &["current", "old"], w.old)
            .unique_text("tiles", &w.tiles)
            .unique_text("ids", &w.ids)
            .int("live_draws", w.live_draws)
            .int("rinshan_draws", w.rinshan_draws)
            .int("indicators", w.indicators)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_and_ids_text() {
        let mut order = [0u8; TILES];
        for (i, t) in order.iter_mut().enumerate() {
            *t = (TILES - 1 - i) as u8;
        }
        let text = tiles_text(&order, true);
        assert_eq!(text.len(), 272);
        // 135 is the fourth chun, 16 the red 5m; without red fives it is a 5m.
        assert_eq!(&text[..2], "7z");
        let at16 = 2 * (TILES - 1 - 16);
        assert_eq!(&text[at16..at16 + 2], "0m");
        assert_eq!(&tiles_text(&order, false)[at16..at16 + 2], "5m");
        let ids = ids_text(&order);
        assert_eq!(&ids[..9], "135134133");
        assert_eq!(&ids[ids.len() - 6..], "001000");
    }
}
