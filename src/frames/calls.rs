//! `calls`: one row per chi, pon, daiminkan, kakan and ankan (docs/definitions.md §6 v3, §11).

use super::{intern, rebase, refs, FrameChunk, GameFrame, GameRows};
use crate::tile;

pub(super) const NAME: &str = "calls";

#[derive(Default)]
pub(super) struct Calls {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    kind: Vec<&'static str>,
    from_seat: Vec<i32>,
    turn: Vec<i32>,
    /// The meld's tile types (0..37), 6 bits each, lowest first, and how many.
    tiles: Vec<u32>,
    open_melds: Vec<i32>,
    shanten: Vec<Option<i32>>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Calls>::default()
}

/// A meld's tile types in tile-id order, packed 6 bits each above a 3-bit count.
fn pack(ids: &[u8], red: bool) -> u32 {
    ids.iter()
        .enumerate()
        .fold(ids.len() as u32, |key, (i, &t)| {
            key | (tile::tile_type(t, red) as u32) << (3 + 6 * i)
        })
}

/// The tiles of a [`pack`]ed meld as type names, space-separated (`3m 4m 0m`).
fn tile_names(key: u32) -> String {
    let names: Vec<&str> = (0..(key & 7) as usize)
        .map(|i| tile::type_name((key >> (3 + 6 * i) & 63) as usize))
        .collect();
    names.join(" ")
}

impl GameFrame for Calls {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 50 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let red = g.obs.facts.red;
        for c in &g.obs.calls {
            self.game.push(game);
            self.hand.push(i32::from(c.hand));
            self.seat.push(i32::from(c.seat));
            self.kind.push(c.kind.name());
            self.from_seat.push(i32::from(c.from_seat));
            self.turn.push(i32::from(c.turn));
            self.tiles.push(pack(&c.tiles, red));
            self.open_melds.push(i32::from(c.open_melds));
            self.shanten.push(c.shanten.map(i32::from));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let c = std::mem::take(self);
        let (names, codes) = intern(&c.tiles, tile_names);
        let names = refs(&names);
        FrameChunk::default()
            .labels("game_id", ids, rebase(c.game, first))
            .plain_int("hand", c.hand)
            .plain_int("seat", c.seat)
            .strings("kind", c.kind.iter().map(|&k| Some(k)))
            .plain_int("from_seat", c.from_seat)
            .plain_int("turn", c.turn)
            .labels("tiles", &names, codes)
            .plain_int("open_melds", c.open_melds)
            .opt_int("shanten", c.shanten)
    }
}
