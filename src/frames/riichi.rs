//! `riichi`: one row per riichi declaration (docs/definitions.md §6 v3, §12 a, §13).

use super::{digits, rebase, shape_digits, shape_letters, FrameChunk, GameFrame, GameRows};
use crate::tile;
use crate::tile::KINDS;

pub(super) const NAME: &str = "riichi";

#[derive(Default)]
pub(super) struct Riichi {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    tile: Vec<&'static str>,
    tile_red: Vec<bool>,
    tsumogiri: Vec<bool>,
    first: Vec<bool>,
    established: Vec<bool>,
    double: Vec<bool>,
    qualifying: Vec<bool>,
    waits: Vec<[u8; KINDS]>,
    wait_shapes: Vec<[u8; KINDS]>,
    outs_own: Vec<i32>,
    first_suited: Vec<Option<&'static str>>,
    won: Vec<bool>,
    points: Vec<Option<i32>>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Riichi>::default()
}

impl GameFrame for Riichi {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 110 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for r in &g.obs.riichi {
            self.game.push(game);
            self.hand.push(i32::from(r.hand));
            self.seat.push(i32::from(r.seat));
            self.turn.push(i32::from(r.turn));
            self.tile.push(tile::kind_name(r.tile as usize));
            self.tile_red.push(r.tile_red);
            self.tsumogiri.push(r.tsumogiri);
            self.first.push(r.first);
            self.established.push(r.established);
            self.double.push(r.double);
            self.qualifying.push(r.qualifying);
            self.waits.push(shape_digits(&r.waits));
            self.wait_shapes.push(shape_letters(&r.waits));
            self.outs_own.push(i32::from(r.outs_own));
            self.first_suited
                .push(r.first_suited.map(|k| tile::kind_name(k as usize)));
            self.won.push(r.won);
            // Null where the format records no points (mjlog::lacks::WIN_VALUE).
            let value = g.obs.facts.lacks & crate::mjlog::lacks::WIN_VALUE == 0;
            self.points.push(r.points.filter(|_| value));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let r = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(r.game, first))
            .plain_int("hand", r.hand)
            .plain_int("seat", r.seat)
            .plain_int("turn", r.turn)
            .strings("tile", r.tile.iter().map(|&t| Some(t)))
            .boolean("tile_red", &r.tile_red)
            .boolean("tsumogiri", &r.tsumogiri)
            .boolean("first", &r.first)
            .boolean("established", &r.established)
            .boolean("double", &r.double)
            .boolean("qualifying", &r.qualifying)
            .text("waits", &digits(&r.waits))
            .text("wait_shapes", &digits(&r.wait_shapes))
            .plain_int("outs_own", r.outs_own)
            .strings("first_suited", r.first_suited.iter().copied())
            .boolean("won", &r.won)
            .opt_int("points", r.points)
    }
}
