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

use crate::danger::{score_builtins, Scores};
use crate::mjlog::GameLog;
use crate::replay::{replay_game, GameFacts, HandState, Observer, ReplayError};

/// Every statistic's rows of one game that replayed whole.
pub struct GameObservations {
    pub facts: GameFacts,
    pub riichi_response: Vec<RiichiResponseRow>,
    pub wait_danger: Vec<WaitDangerRow>,
    pub danger_situations: Vec<DangerSituation>,
    /// Scores of the built-in estimators, one entry per situation not excluded, in order.
    pub danger_scores: Vec<[Scores; 5]>,
}

/// Replays `log` with every observer attached and scores its §4 situations with the built-in
/// estimators: what a run records of one game. The game's draw records are appended to
/// `draws` (the caller clears it, and counts them only when this returns `Ok`).
pub fn observe_game(
    log: &GameLog,
    draws: &mut Vec<draw_rate::DrawRecord>,
) -> Result<GameObservations, ReplayError> {
    let mut riichi = RiichiResponseObserver::default();
    let mut waits = WaitDangerObserver::default();
    let mut danger = DangerSituationObserver::default();
    let mut draws = DrawRateObserver { draws };
    let mut observers: [&mut dyn Observer; 4] = [&mut riichi, &mut waits, &mut danger, &mut draws];
    let facts = replay_game(log, &mut observers)?;
    let danger_scores = danger
        .rows
        .iter()
        .filter(|s| s.excluded.is_none())
        .map(|s| score_builtins(&s.view(), &s.waits))
        .collect();
    Ok(GameObservations {
        facts,
        riichi_response: riichi.rows,
        wait_danger: waits.rows,
        danger_situations: danger.rows,
        danger_scores,
    })
}

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
