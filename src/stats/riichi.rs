//! §13 (and §12 a) riichi declarations: every declaration discard with its tile, its waits
//! and their shapes, whether it was the hand's first, a double riichi (§13 c), §2-qualifying,
//! established, and whether the declarer won, for the `riichi` frame.

use crate::hand::WaitShape;
use crate::replay::{HandState, Observer, RiichiState};
use crate::tile::{self, KINDS};

/// One riichi declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RiichiRow {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The declarer's discards so far, the declaration included.
    pub(crate) turn: u8,
    /// The declaration tile's kind, and whether it was a red five.
    pub(crate) tile: u8,
    pub(crate) tile_red: bool,
    /// The declaration tile was the tile just drawn.
    pub(crate) tsumogiri: bool,
    /// The hand's first declaration.
    pub(crate) first: bool,
    /// `REACH step="2"` written for it.
    pub(crate) established: bool,
    /// §13 (c): on the declarer's first discard, with no call of any kind before it.
    pub(crate) double: bool,
    /// §2: neither furiten at the declaration nor tenpai only for thirteen orphans.
    pub(crate) qualifying: bool,
    /// The waits (§0) right after the declaration, with their shapes.
    pub(crate) waits: [Option<WaitShape>; KINDS],
    /// Σ over the waits of 4 − the declarer's own concealed copies.
    pub(crate) outs_own: u8,
    /// The kind of the declarer's first suited discard of the hand (the declaration tile
    /// itself when none came before); `None` when neither is suited.
    pub(crate) first_suited: Option<u8>,
    /// The declarer won this hand, and the points (`ten[1]`) of that win.
    pub(crate) won: bool,
    pub(crate) points: Option<i32>,
}

/// Collects the declarations of one game.
#[derive(Default)]
pub(crate) struct RiichiObserver {
    /// A chi, pon or kan of any kind has happened in this hand.
    called: bool,
    /// Per seat, whether its discard being made is the tile it just drew.
    tsumogiri: [bool; 4],
    /// Per seat, the kind of its first suited discard of the hand.
    first_suited: [Option<u8>; 4],
    /// Rows of this hand's declarations, finished at its end.
    pending: Vec<RiichiRow>,
    pub(crate) rows: Vec<RiichiRow>,
}

impl Observer for RiichiObserver {
    fn hand_start(&mut self, _hand: &HandState) {
        self.called = false;
        self.first_suited = [None; 4];
    }

    fn before_discard(&mut self, hand: &HandState, seat: usize, tile: u8) {
        self.tsumogiri[seat] = hand.seats[seat].drawn == Some(tile);
    }

    fn after_discard(&mut self, hand: &HandState, seat: usize, t: u8, declaration: bool) {
        let kind = tile::kind(t);
        if self.first_suited[seat].is_none() && !tile::is_honor(kind) {
            self.first_suited[seat] = Some(kind as u8);
        }
        if !declaration {
            return;
        }
        let st = &hand.seats[seat];
        let waits = st
            .riichi_waits
            .unwrap_or_else(|| crate::hand::waits(&st.kinds, st.melds.len() as u8));
        let river = hand.river_kinds(seat);
        let furiten = waits.kinds().any(|k| river[k]);
        self.pending.push(RiichiRow {
            hand: hand.index,
            seat: seat as u8,
            turn: st.turn,
            tile: kind as u8,
            tile_red: tile::is_red(t, hand.red),
            tsumogiri: self.tsumogiri[seat],
            first: hand.first_declaration == Some(seat as u8),
            established: false,
            double: st.turn == 1 && !self.called,
            qualifying: !furiten && !waits.kokushi_only,
            waits: waits.shapes,
            outs_own: waits.kinds().map(|k| 4 - st.kinds[k].min(4)).sum(),
            first_suited: self.first_suited[seat],
            won: false,
            points: None,
        });
    }

    fn after_call(&mut self, _hand: &HandState, _seat: usize) {
        self.called = true;
    }

    fn hand_end(&mut self, hand: &HandState) {
        for mut r in self.pending.drain(..) {
            let s = r.seat as usize;
            r.established = matches!(hand.seats[s].riichi, RiichiState::Established { .. });
            let win = hand
                .terminals
                .iter()
                .find(|t| t.win.is_some() && t.who == r.seat);
            r.won = win.is_some();
            r.points = win.map(|t| t.value);
            self.rows.push(r);
        }
    }
}
