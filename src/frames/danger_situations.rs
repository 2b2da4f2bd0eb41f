//! `danger_situations`: one row per §4 (situation, moment), excluded ones included with their
//! reason (docs/definitions.md §4; columns in docs/frames.md).

use super::{digits, kind_digits, rebase, FrameChunk, GameFrame, GameRows};
use crate::tile::KINDS;

pub(super) const NAME: &str = "danger_situations";

#[derive(Default)]
pub(super) struct DangerSituations {
    game: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    observer_seat: Vec<i32>,
    moment: Vec<&'static str>,
    riichi_turn: Vec<i32>,
    riichi_is_dealer: Vec<bool>,
    excluded: Vec<Option<&'static str>>,
    /// [`kind_digits`] of each per-kind array.
    visible: Vec<[u8; KINDS]>,
    observer_holds: Vec<[u8; KINDS]>,
    genbutsu: Vec<[u8; KINDS]>,
    waits: Vec<[u8; KINDS]>,
    /// 3 or 4: the game's table (which kinds the situation's scores run over, §24).
    players: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<DangerSituations>::default()
}

impl GameFrame for DangerSituations {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 190 bytes a row (four 34-digit strings).
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for d in &g.obs.danger_situations {
            self.game.push(game);
            self.hand.push(d.hand as i32);
            self.riichi_seat.push(d.riichi_seat as i32);
            self.observer_seat
                .push(i32::from(d.players.next(d.riichi_seat)));
            self.moment.push(d.moment.name());
            self.riichi_turn.push(d.riichi_turn as i32);
            self.riichi_is_dealer.push(d.riichi_is_dealer);
            self.excluded.push(d.excluded);
            self.visible.push(kind_digits(&d.visible));
            self.observer_holds.push(kind_digits(&d.observer_holds));
            self.genbutsu.push(kind_digits(&d.genbutsu));
            self.waits.push(kind_digits(&d.waits));
            self.players.push(d.players.seats() as i32);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let d = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(d.game, first))
            .int("hand", d.hand)
            .int("riichi_seat", d.riichi_seat)
            .int("observer_seat", d.observer_seat)
            .strings("moment", d.moment.iter().map(|&m| Some(m)))
            .int("riichi_turn", d.riichi_turn)
            .boolean("riichi_is_dealer", &d.riichi_is_dealer)
            .strings("excluded", d.excluded.iter().copied())
            .text("visible", &digits(&d.visible))
            .text("observer_holds", &digits(&d.observer_holds))
            .text("genbutsu", &digits(&d.genbutsu))
            .text("waits", &digits(&d.waits))
            .int("players", d.players)
    }
}
