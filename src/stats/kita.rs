//! §24 kita (北抜き): a row per kita of a three-player game, with the seat's turn, the live
//! wall left and whether another seat robbed the North with a ron (the `kita` frame, which
//! every run writes; a four-player game has none).

use crate::replay::{HandState, Observer, TerminalKind};

/// One kita.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KitaRow {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The seat's discards so far in the hand (§0's turn).
    pub(crate) turn: u8,
    /// 55 − the hand's draw records so far, before the kita's replacement draw.
    pub(crate) live_left: u8,
    /// A ron on the North ended the hand.
    pub(crate) robbed: bool,
    /// The North's tile id (to know a ron on it).
    tile: u8,
}

/// Collects the kitas of one game.
#[derive(Default)]
pub(crate) struct KitaObserver {
    /// Kitas of the current hand (drained at its end).
    pending: Vec<KitaRow>,
    pub(crate) rows: Vec<KitaRow>,
}

impl Observer for KitaObserver {
    fn after_kita(&mut self, hand: &HandState, seat: usize) {
        let st = &hand.seats[seat];
        let tile = *st.kita.last().expect("a kita was just made");
        self.pending.push(KitaRow {
            hand: hand.index,
            seat: seat as u8,
            turn: st.turn,
            live_left: (hand.players.draws() as u16).saturating_sub(hand.draws) as u8,
            robbed: false,
            tile,
        });
    }

    fn hand_end(&mut self, hand: &HandState) {
        for mut k in self.pending.drain(..) {
            // A ron whose tile is the North set aside (a kita's North never reaches a river).
            k.robbed = hand.terminals.iter().any(|t| {
                t.kind == TerminalKind::Ron
                    && t.from == k.seat
                    && t.win.as_ref().is_some_and(|w| w.machi == k.tile)
            });
            self.rows.push(k);
        }
    }
}
