//! `tenpai_draws`: one row per §8 tenpai draw (docs/definitions.md §6, §8).
//!
//! The held and visible counts the models need are given per wait type in one string,
//! `wait_types`: `type:held:visible` for each type of the wait kinds, space-separated, in type
//! order with the red fives last (`2p:0:1 5p:1:2 0p:0:1`: in a game with red fives a five is
//! two types, the black `5p` of 3 copies and the red `0p` of 1). Every text column is written
//! as a dictionary of the distinct values of its row group, built from integer keys, so no row
//! builds a string.

use super::{intern, rebase, refs, FrameChunk, GameFrame, GameRows};
use crate::stats::fold_of;
use crate::tile::{self, KINDS, TYPES};

pub(super) const NAME: &str = "tenpai_draws";

#[derive(Default)]
struct TenpaiDraws {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    fold: Vec<i32>,
    in_riichi: Vec<bool>,
    draws_since_riichi: Vec<Option<i32>>,
    /// Wait kinds, bit k = kind k.
    waits: Vec<u64>,
    outs: Vec<i32>,
    unseen: Vec<i32>,
    /// Kind index of the drawn tile.
    drawn: Vec<u32>,
    hit: Vec<bool>,
    rinshan: Vec<bool>,
    /// Wait types (bit t = type t), and their held and visible copies, 3 bits per type.
    wait_types: Vec<(u64, u64, u64)>,
    /// 3 or 4: the game's table (§24).
    players: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<TenpaiDraws>::default()
}

/// `type:held:visible` of each type in `types`, space-separated (held and visible 3 bits
/// each, in type order).
fn wait_types_label((types, held, visible): (u64, u64, u64)) -> String {
    let mut out = String::new();
    for (i, t) in (0..TYPES).filter(|&t| types >> t & 1 == 1).enumerate() {
        let (h, v) = (held >> (3 * i) & 7, visible >> (3 * i) & 7);
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{}:{h}:{v}", tile::type_name(t)));
    }
    out
}

impl GameFrame for TenpaiDraws {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 60 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 17
    }

    /// Each column extended at once over the game's rows (a reserve and a copy loop, rather
    /// than fourteen pushes a row).
    fn push(&mut self, game: u32, g: &GameRows) {
        let fold = i32::from(fold_of(&g.game_id));
        let rows = &g.obs.tenpai_draws;
        self.game.extend(std::iter::repeat_n(game, rows.len()));
        self.hand.extend(rows.iter().map(|d| i32::from(d.hand)));
        self.seat.extend(rows.iter().map(|d| i32::from(d.seat)));
        self.turn.extend(rows.iter().map(|d| i32::from(d.turn)));
        self.fold.extend(std::iter::repeat_n(fold, rows.len()));
        self.in_riichi.extend(rows.iter().map(|d| d.in_riichi));
        self.draws_since_riichi.extend(
            rows.iter()
                .map(|d| d.in_riichi.then_some(i32::from(d.draws_since_riichi))),
        );
        self.waits.extend(rows.iter().map(|d| d.waits));
        self.outs.extend(rows.iter().map(|d| i32::from(d.outs)));
        self.unseen.extend(rows.iter().map(|d| i32::from(d.unseen)));
        self.drawn.extend(rows.iter().map(|d| u32::from(d.drawn)));
        self.hit.extend(rows.iter().map(|d| d.hit));
        self.rinshan.extend(rows.iter().map(|d| d.rinshan));
        self.wait_types
            .extend(rows.iter().map(|d| (d.types, d.held, d.visible)));
        let players = g.obs.facts.players.seats() as i32;
        self.players
            .extend(std::iter::repeat_n(players, rows.len()));
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let d = std::mem::take(self);
        let kind_names: Vec<&str> = (0..KINDS).map(tile::kind_name).collect();
        let (waits, wait_codes) = intern(&d.waits, |m| {
            (0..KINDS)
                .map(|k| if m >> k & 1 == 1 { '1' } else { '0' })
                .collect()
        });
        let (wait_types, wait_type_codes) = intern(&d.wait_types, wait_types_label);
        FrameChunk::default()
            .labels("game_id", ids, rebase(d.game, first))
            .int("hand", d.hand)
            .int("seat", d.seat)
            .int("turn", d.turn)
            .int("fold", d.fold)
            .boolean("in_riichi", &d.in_riichi)
            .opt_int("draws_since_riichi", d.draws_since_riichi)
            .labels("waits", &refs(&waits), wait_codes)
            .int("outs", d.outs)
            .int("unseen", d.unseen)
            .labels("drawn", &kind_names, d.drawn)
            .boolean("hit", &d.hit)
            .boolean("rinshan", &d.rinshan)
            .labels("wait_types", &refs(&wait_types), wait_type_codes)
            .int("players", d.players)
    }
}
