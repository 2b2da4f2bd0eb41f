//! §2 Wait shape by suji category: for every qualifying riichi declaration, each of the 34
//! kinds (27 in a three-player game, §24) with its category and whether (and how) it is a
//! wait.

use crate::danger::{categories_for, Category};
use crate::hand::{self, WaitShape};
use crate::replay::{HandState, Observer};
use crate::tile::KINDS;

/// One qualifying declaration; it expands to a frame row per kind of its game (34, or 27).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WaitDangerRow {
    pub(crate) hand: u16,
    pub(crate) riichi_seat: u8,
    /// The kinds of the game (bit k): its units.
    pub(crate) kinds: u64,
    pub(crate) category: [Category; KINDS],
    pub(crate) shape: [Option<WaitShape>; KINDS],
}

/// Collects §2 units of one game. A declaration whose only tenpai is kokushi, or with a wait
/// in its own river (furiten), is left out, as §2 says.
#[derive(Default)]
pub(crate) struct WaitDangerObserver {
    pub(crate) rows: Vec<WaitDangerRow>,
}

impl Observer for WaitDangerObserver {
    fn after_discard(&mut self, hand: &HandState, seat: usize, _tile: u8, declaration: bool) {
        if !declaration {
            return;
        }
        let st = &hand.seats[seat];
        let waits = st
            .riichi_waits
            .unwrap_or_else(|| hand::waits(&st.kinds, st.melds.len() as u8));
        if waits.kokushi_only {
            return;
        }
        let river = hand.river_kinds(seat);
        if waits.kinds().any(|k| river[k]) {
            return;
        }
        self.rows.push(WaitDangerRow {
            hand: hand.index,
            riichi_seat: seat as u8,
            kinds: hand.players.kinds().fold(0, |m, k| m | 1 << k),
            category: categories_for(&river, &hand.visible, hand.players),
            shape: waits.shapes,
        });
    }
}
