//! §2 Wait shape by suji category: for every qualifying riichi declaration, each of the 34
//! kinds with its category and whether (and how) it is a wait.

use crate::danger::{categories, Category};
use crate::hand::{self, WaitShape};
use crate::replay::{HandState, Observer};
use crate::tile::KINDS;

/// One qualifying declaration; it expands to 34 frame rows, one per kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WaitDangerRow {
    pub(crate) hand: u16,
    pub(crate) riichi_seat: u8,
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
            category: categories(&river, &hand.visible),
            shape: waits.shapes,
        });
    }
}
