//! Statistics as observers of the replay (definitions: `docs` §1–§4 of statistics.md).
//!
//! Each observer watches one game and collects its rows; the caller keeps them only when the
//! whole game replays. Observers know the replay state, never XML.

pub mod danger_situation;
pub mod draw_rate;
pub mod riichi_response;
pub mod wait_danger;

pub use danger_situation::{DangerSituation, DangerSituationObserver, Moment};
pub use draw_rate::{DrawRateCells, DrawRateObserver};
pub use riichi_response::{Outcome, RiichiResponseObserver, RiichiResponseRow};
pub use wait_danger::{WaitDangerObserver, WaitDangerRow};

use crate::replay::HandState;

/// Hand income (局収支) of `seat` over the hand's terminal records (§0): the sum of its
/// deltas minus 1000 if its own riichi was established.
pub fn hand_income(hand: &HandState, seat: usize) -> i32 {
    let deltas: i32 = hand.terminals.iter().map(|t| t.deltas[seat]).sum();
    deltas - riichi_stick(hand, seat)
}

/// 1000 when `seat`'s riichi was established this hand (its stick stays on the table), else 0.
pub fn riichi_stick(hand: &HandState, seat: usize) -> i32 {
    match hand.seats[seat].riichi {
        crate::replay::RiichiState::Established { .. } => 1000,
        _ => 0,
    }
}
