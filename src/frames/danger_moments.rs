//! `danger_moments` (§15, written with `danger_by_turn`, `--with danger-moments`): one row per
//! scored moment (docs/definitions.md §15), what the estimators see: game_id, hand, riichi_seat,
//! observer (d = 1, 2, 3), turn (the observer's discards so far), and as in
//! `danger_situations` the 34-digit visible, observer_holds, genbutsu and waits. A user's
//! category table is scored at every moment from it (`haifu danger-eval --by-turn --table`).

use super::{digits, kind_digits, rebase, FrameChunk, GameFrame, GameRows};
use crate::tile::KINDS;

pub(super) const NAME: &str = "danger_moments";

#[derive(Default)]
struct DangerMoments {
    game: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    observer: Vec<i32>,
    turn: Vec<i32>,
    visible: Vec<[u8; KINDS]>,
    observer_holds: Vec<[u8; KINDS]>,
    genbutsu: Vec<[u8; KINDS]>,
    waits: Vec<[u8; KINDS]>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<DangerMoments>::default()
}

impl GameFrame for DangerMoments {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 160 bytes a row (four 34-digit strings).
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for m in &g.obs.danger_moment_views {
            self.game.push(game);
            self.hand.push(i32::from(m.hand));
            self.riichi_seat.push(i32::from(m.riichi_seat));
            self.observer.push(i32::from(m.observer));
            self.turn.push(i32::from(m.turn));
            self.visible.push(kind_digits(&m.visible));
            self.observer_holds.push(kind_digits(&m.observer_holds));
            self.genbutsu.push(kind_digits(&m.genbutsu));
            self.waits.push(kind_digits(&m.waits));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let d = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(d.game, first))
            .plain_int("hand", d.hand)
            .plain_int("riichi_seat", d.riichi_seat)
            .plain_int("observer", d.observer)
            .plain_int("turn", d.turn)
            .text("visible", &digits(&d.visible))
            .text("observer_holds", &digits(&d.observer_holds))
            .text("genbutsu", &digits(&d.genbutsu))
            .text("waits", &digits(&d.waits))
    }
}
