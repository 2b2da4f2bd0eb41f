//! §10 wins: every AGARI record with what the log says of it (fu, points, yaku) and what the
//! replay knows of the winner's hand (its waits before the winning tile, its turn, riichi,
//! closed), for the `wins` and `win_yaku` frames and the §12 (b) and §14 reports.

use crate::hand::{self, WaitShape};
use crate::replay::{HandState, Observer, RiichiState, TerminalKind};
use crate::tile::{self, KINDS};

/// One AGARI record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WinRow {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The seat that dealt in; `None` for a tsumo.
    pub(crate) discarder: Option<u8>,
    pub(crate) pao: Option<u8>,
    /// AGARI `ten`: fu, points, limit.
    pub(crate) ten: [i32; 3],
    /// (Tenhou id, han) in the log's order.
    pub(crate) yaku: Vec<(u8, u8)>,
    pub(crate) yakuman: Vec<u8>,
    /// The winning kind, and whether the tile was a red five.
    pub(crate) tile: u8,
    pub(crate) tile_red: bool,
    /// The winner's discards so far.
    pub(crate) turn: u8,
    /// The winner declared riichi in this hand.
    pub(crate) riichi: bool,
    /// No chi, pon, daiminkan or kakan by the winner.
    pub(crate) closed: bool,
    /// The waits (§0) of the winner's hand before the winning tile, with their shapes.
    pub(crate) waits: [Option<WaitShape>; KINDS],
    /// Riichi sticks on the table at the win (§14): the hand's starting sticks plus the
    /// declarations established before it.
    pub(crate) sticks: u8,
    /// The winner's kitas (§24; 0 in a four-player game).
    pub(crate) kita: u8,
}

/// Collects the wins of one game.
#[derive(Default)]
pub(crate) struct WinObserver {
    /// Sticks on the table when the hand started.
    start_sticks: u8,
    pub(crate) rows: Vec<WinRow>,
}

impl Observer for WinObserver {
    fn hand_start(&mut self, hand: &HandState) {
        self.start_sticks = hand.kyotaku;
    }

    fn hand_end(&mut self, hand: &HandState) {
        let established = hand
            .seats
            .iter()
            .filter(|s| matches!(s.riichi, RiichiState::Established { .. }))
            .count() as u8;
        for t in &hand.terminals {
            let Some(win) = &t.win else { continue };
            let st = &hand.seats[t.who as usize];
            let kind = tile::kind(win.machi);
            // A tsumo winner holds its winning tile; a ron winner's stays where it was.
            let mut before = st.kinds;
            if t.kind == TerminalKind::Tsumo {
                before[kind] -= 1;
            }
            self.rows.push(WinRow {
                hand: hand.index,
                seat: t.who,
                discarder: (t.kind == TerminalKind::Ron).then_some(t.from),
                pao: win.pao,
                ten: win.ten,
                yaku: win.yaku.clone(),
                yakuman: win.yakuman.clone(),
                tile: kind as u8,
                tile_red: tile::is_red(win.machi, hand.red),
                turn: st.turn,
                riichi: st.riichi.has_declared(),
                closed: st.is_closed(),
                waits: hand::waits(&before, st.melds.len() as u8).shapes,
                sticks: self.start_sticks + established,
                kita: st.kita.len() as u8,
            });
        }
    }
}

impl WinRow {
    /// The §0 shape of the winning kind (the replay checked that it is a wait).
    pub(crate) fn wait_shape(&self) -> Option<WaitShape> {
        self.waits[self.tile as usize]
    }

    /// Σ of the yaku han; `None` for a yakuman win.
    pub(crate) fn han(&self) -> Option<i32> {
        self.yakuman
            .is_empty()
            .then(|| self.yaku.iter().map(|&(_, h)| i32::from(h)).sum())
    }

    /// The han of the entries with Tenhou id `id`.
    pub(crate) fn han_of(&self, id: u8) -> i32 {
        self.yaku
            .iter()
            .filter(|&&(y, _)| y == id)
            .map(|&(_, h)| i32::from(h))
            .sum()
    }
}
