//! `hand_reading_moments` (§16, written with `hand_reading`, `--with hand-reading`): one row per
//! moment (docs/definitions.md §16), what seat V sees and what the other seats hold: game_id,
//! hand, seat (V), turn (V's discards so far, not capped), after (`draw` or `call`), tiles
//! (V's concealed tiles), melds and rivers (every seat's, seats separated by `|`), dora (the
//! indicators shown so far), others (34 digits: the copies of each kind in the other
//! concealed hands, the target s) and kitas (every seat's kita Norths so far, four digits as in
//! `decisions`; `0000` in a four-player game). The text encodings are
//! [`crate::stats::ReadingViews::fields`]'. A user's method is scored at every moment from it
//! (`haifu hand-reading --engine-cmd`).

use super::{digits, intern, kitas_label, rebase, refs, FrameChunk, GameFrame, GameRows};
use crate::tile::KINDS;

pub(super) const NAME: &str = "hand_reading_moments";

const AFTER: [&str; 2] = ["draw", "call"];

#[derive(Default)]
struct HandReadingMoments {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    after: Vec<u32>,
    /// Per text field (tiles, melds, rivers, dora): the rows' values one after the other, and
    /// where each ends (no allocation per row).
    text: [(String, Vec<u32>); 4],
    others: Vec<[u8; KINDS]>,
    /// Every seat's kita count, a byte each.
    kitas: Vec<u32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<HandReadingMoments>::default()
}

impl GameFrame for HandReadingMoments {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 200 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let views = &g.obs.hand_reading_views;
        for (i, v) in views.rows.iter().enumerate() {
            self.game.push(game);
            self.hand.push(i32::from(v.hand));
            self.seat.push(i32::from(v.seat));
            self.turn.push(i32::from(v.turn));
            self.after.push(u32::from(v.after_call));
            for ((buf, ends), f) in self.text.iter_mut().zip(views.fields(i)) {
                buf.push_str(f);
                ends.push(buf.len() as u32);
            }
            self.others.push(v.others.map(|c| b'0' + c));
            self.kitas.push(u32::from_le_bytes(v.kitas));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let d = std::mem::take(self);
        let [tiles, melds, rivers, dora] = d.text.each_ref().map(|(buf, ends)| {
            let mut start = 0;
            ends.iter()
                .map(|&end| {
                    let f = &buf[start..end as usize];
                    start = end as usize;
                    f
                })
                .collect::<Vec<&str>>()
        });
        let (kitas, kita_codes) = intern(&d.kitas, kitas_label);
        FrameChunk::default()
            .labels("game_id", ids, rebase(d.game, first))
            .plain_int("hand", d.hand)
            .plain_int("seat", d.seat)
            .plain_int("turn", d.turn)
            .labels("after", &AFTER, d.after)
            .unique_text("tiles", &tiles)
            .text("melds", &melds)
            .unique_text("rivers", &rivers)
            .text("dora", &dora)
            .unique_text("others", &digits(&d.others))
            .labels("kitas", &refs(&kitas), kita_codes)
    }
}
