//! §11 calls: every chi, pon, daiminkan, kakan and ankan with the caller's turn, its open
//! melds and the shanten of its concealed tiles just after the call, for the `calls` frame.

use crate::mjlog::{Meld, MeldKind};
use crate::replay::{HandState, Observer};

/// One call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CallRow {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    pub(crate) kind: MeldKind,
    /// The seat the called tile came from; the caller's own for a kakan and an ankan.
    pub(crate) from_seat: u8,
    /// The caller's discards so far (before the discard that follows the call).
    pub(crate) turn: u8,
    /// The meld's tile ids, ascending (a kakan's four).
    pub(crate) tiles: Vec<u8>,
    /// The caller's melds called from another seat, just after the call (an ankan is not).
    pub(crate) open_melds: u8,
    /// §11 shanten at the call: after a chi or pon the lowest over the hands one discard
    /// leaves (a complete hand counts 0), after a daiminkan its own; `None` for a kakan or an
    /// ankan.
    pub(crate) shanten: Option<i8>,
}

/// Collects the calls of one game.
#[derive(Default)]
pub(crate) struct CallObserver {
    /// Per seat, the kinds of its melds as last seen (a kakan turns a pon into a kakan in
    /// place).
    seen: [Vec<MeldKind>; 4],
    pub(crate) rows: Vec<CallRow>,
}

impl Observer for CallObserver {
    fn hand_start(&mut self, _hand: &HandState) {
        self.seen.iter_mut().for_each(Vec::clear);
    }

    fn after_call(&mut self, hand: &HandState, seat: usize) {
        let st = &hand.seats[seat];
        let seen = &mut self.seen[seat];
        let changed = if st.melds.len() > seen.len() {
            st.melds.len() - 1
        } else {
            // A kakan: the one meld that was a pon and is now a kan.
            (0..st.melds.len())
                .find(|&i| seen[i] != st.melds[i].kind)
                .expect("a call changes a meld")
        };
        *seen = st.melds.iter().map(|m| m.kind).collect();
        let meld: &Meld = &st.melds[changed];
        let shanten = match meld.kind {
            MeldKind::Chi | MeldKind::Pon => Some(hand.shanten(seat).max(0)),
            MeldKind::Daiminkan => Some(hand.shanten(seat)),
            _ => None,
        };
        let from_seat = match meld.kind {
            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => (seat as u8 + meld.from_rel) % 4,
            _ => seat as u8,
        };
        self.rows.push(CallRow {
            hand: hand.index,
            seat: seat as u8,
            kind: meld.kind,
            from_seat,
            turn: st.turn,
            tiles: meld.tiles().to_vec(),
            open_melds: st
                .melds
                .iter()
                .filter(|m| m.kind != MeldKind::Ankan)
                .count() as u8,
            shanten,
        });
    }
}
