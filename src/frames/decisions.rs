//! `decisions`: one row per §7 discard decision (docs/definitions.md §6, §7), written on request
//! (`haifu ingest --with decisions`; `haifu agree` reads it).
//!
//! Per-kind columns (`concealed`, `legal`) are 34-digit strings in kind order, as in
//! `danger_situations`. `red` is three digits (red 5m, 5p, 5s held). `melds` is the deciding
//! seat's melds at the decision, `kind:tiles:from` space-separated (`pon:0p5p5p:2
//! chi:3m4m5m:3`; `from` the seat called from, its own for an ankan); `dora` the indicators
//! shown so far, space-separated; `kitas` every seat's kita Norths at the decision, four
//! digits (three-player games, §24; `0000` in a four-player game). Rivers are the frame's own rows (module docs of
//! `stats::decisions`).

use super::{digits, intern, kitas_label, rebase, refs, FrameChunk, GameFrame, GameRows};
use crate::stats::decisions::{indicators_label, melds_label};
use crate::tile::{self, KINDS};

pub(super) const NAME: &str = "decisions";

#[derive(Default)]
struct Decisions {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    /// 0 = draw, 1 = call.
    after: Vec<u32>,
    concealed: Vec<[u8; KINDS]>,
    red: Vec<u32>,
    /// Kind of the drawn tile, or `KINDS` (null) after a call.
    drawn: Vec<u32>,
    drawn_red: Vec<bool>,
    discard: Vec<u32>,
    discard_red: Vec<bool>,
    tsumogiri: Vec<bool>,
    riichi: Vec<bool>,
    in_riichi: Vec<bool>,
    riichi_opponents: Vec<i32>,
    legal: Vec<[u8; KINDS]>,
    forced: Vec<bool>,
    called: Vec<bool>,
    melds: Vec<u64>,
    dora: Vec<u64>,
    /// Every seat's kita count, a byte each.
    kitas: Vec<u32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Decisions>::default()
}

/// Kind of a type (a red five is a five).
fn kind_of(t: u8) -> u32 {
    tile::type_kind(usize::from(t)) as u32
}

/// The `red` column's text of red-five bits `r` (bit s: suit s): three digits, 5m 5p 5s.
fn red_label(r: u32) -> String {
    (0..3)
        .map(|s| if r >> s & 1 == 1 { '1' } else { '0' })
        .collect()
}

impl GameFrame for Decisions {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 110 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 17
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        for d in &g.obs.decisions {
            self.game.push(game);
            self.hand.push(i32::from(d.hand));
            self.seat.push(i32::from(d.seat));
            self.turn.push(i32::from(d.turn));
            self.after.push(u32::from(d.after_call));
            self.concealed.push(d.concealed.map(|c| b'0' + c.min(9)));
            self.red.push(u32::from(d.red));
            self.drawn.push(d.drawn.map_or(KINDS as u32, kind_of));
            self.drawn_red
                .push(d.drawn.is_some_and(|t| usize::from(t) >= KINDS));
            self.discard.push(kind_of(d.discard));
            self.discard_red.push(usize::from(d.discard) >= KINDS);
            self.tsumogiri.push(d.tsumogiri);
            self.riichi.push(d.riichi);
            self.in_riichi.push(d.in_riichi);
            self.riichi_opponents.push(i32::from(d.riichi_opponents));
            self.legal
                .push(std::array::from_fn(|k| b'0' + (d.legal >> k & 1) as u8));
            self.forced.push(d.forced());
            self.called.push(d.called);
            self.melds.push(d.melds);
            self.dora.push(d.indicators);
            self.kitas.push(u32::from_le_bytes(d.kitas));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let d = std::mem::take(self);
        let kinds: Vec<&str> = (0..KINDS).map(tile::kind_name).collect();
        let reds: Vec<String> = (0..8).map(red_label).collect();
        let (melds, meld_codes) = intern(&d.melds, melds_label);
        let (dora, dora_codes) = intern(&d.dora, indicators_label);
        let (kitas, kita_codes) = intern(&d.kitas, kitas_label);
        FrameChunk::default()
            .labels("game_id", ids, rebase(d.game, first))
            .int("hand", d.hand)
            .int("seat", d.seat)
            .int("turn", d.turn)
            .labels("after", &["draw", "call"], d.after)
            .text("concealed", &digits(&d.concealed))
            .labels("red", &refs(&reds), d.red)
            .labels("drawn", &kinds, d.drawn)
            .boolean("drawn_red", &d.drawn_red)
            .labels("discard", &kinds, d.discard)
            .boolean("discard_red", &d.discard_red)
            .boolean("tsumogiri", &d.tsumogiri)
            .boolean("riichi", &d.riichi)
            .boolean("in_riichi", &d.in_riichi)
            .int("riichi_opponents", d.riichi_opponents)
            .text("legal", &digits(&d.legal))
            .boolean("forced", &d.forced)
            .boolean("called", &d.called)
            .labels("melds", &refs(&melds), meld_codes)
            .labels("dora", &refs(&dora), dora_codes)
            .labels("kitas", &refs(&kitas), kita_codes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_digits_are_5m_5p_5s() {
        let labels: Vec<String> = (0..8).map(red_label).collect();
        assert_eq!(
            labels,
            ["000", "100", "010", "110", "001", "101", "011", "111"]
        );
    }
}
