//! `tiles_at_end`: per game, one row per tile type (1m..7z, then 0m, 0p, 0s) with where its
//! copies were at the end of the game's hands, summed over them, and how many of the game's
//! riichi declarations and dama wins waited on it (docs/definitions.md §12; the `winning-tiles`
//! report sums these rather than reading 34 digits of every `riichi` and `wins` row).

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::tile::{self, TYPES};

pub(super) const NAME: &str = "tiles_at_end";

#[derive(Default)]
pub(super) struct TilesAtEnd {
    game: Vec<u32>,
    /// Type indices (0..37).
    tile_type: Vec<u32>,
    hand: Vec<i32>,
    melds: Vec<i32>,
    river: Vec<i32>,
    /// Kita Norths (§24; 0 in a four-player game).
    kita: Vec<i32>,
    wall: Vec<i32>,
    in_hands: Vec<i32>,
    in_rivers: Vec<i32>,
    copies: Vec<i32>,
    riichi_waits: Vec<i32>,
    dama_waits: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<TilesAtEnd>::default()
}

impl GameFrame for TilesAtEnd {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 35 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let c = &g.obs.tiles_at_end;
        self.game.extend(std::iter::repeat_n(game, TYPES));
        self.tile_type.extend(0..TYPES as u32);
        self.hand.extend(c.hand.iter().map(|&n| n as i32));
        self.melds.extend(c.melds.iter().map(|&n| n as i32));
        self.river.extend(c.river.iter().map(|&n| n as i32));
        self.kita.extend(c.kita.iter().map(|&n| n as i32));
        self.wall.extend((0..TYPES).map(|t| c.wall(t) as i32));
        self.in_hands.extend(c.in_hands.iter().map(|&n| n as i32));
        self.in_rivers.extend(c.in_rivers.iter().map(|&n| n as i32));
        self.copies.extend((0..TYPES).map(|t| c.copies(t) as i32));
        // §12 winning tiles (a) and (b), per kind (the red types: 0).
        let mut riichi = [0i32; TYPES];
        for r in &g.obs.riichi {
            for (k, w) in r.waits.iter().enumerate() {
                riichi[k] += i32::from(w.is_some());
            }
        }
        let mut dama = [0i32; TYPES];
        for w in g.obs.wins.iter().filter(|w| !w.riichi) {
            for (k, x) in w.waits.iter().enumerate() {
                dama[k] += i32::from(x.is_some());
            }
        }
        self.riichi_waits.extend(riichi);
        self.dama_waits.extend(dama);
    }

    fn pending(&self) -> usize {
        self.tile_type.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let t = std::mem::take(self);
        let names: Vec<&str> = (0..TYPES).map(tile::type_name).collect();
        FrameChunk::default()
            .labels("game_id", ids, rebase(t.game, first))
            .labels("type", &names, t.tile_type)
            .plain_int("hand", t.hand)
            .plain_int("melds", t.melds)
            .plain_int("river", t.river)
            .plain_int("wall", t.wall)
            .plain_int("in_hands", t.in_hands)
            .plain_int("in_rivers", t.in_rivers)
            .plain_int("copies", t.copies)
            .plain_int("riichi_waits", t.riichi_waits)
            .plain_int("dama_waits", t.dama_waits)
            .plain_int("kita", t.kita)
    }
}
