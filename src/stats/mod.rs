//! Statistics as observers of the replay (definitions: statistics.md §1–§4, §7, §8).
//!
//! Each observer watches one game and collects its rows; the caller keeps them only when the
//! whole game replays. Observers know the replay state, never XML or frames.
//! [`observe_game`] is the one list of observers: adding a statistic is an observer file, its
//! rows' field in [`GameObservations`] and a line there.

pub(crate) mod danger_situation;
pub mod decisions;
pub(crate) mod draw_rate;
pub(crate) mod riichi_response;
pub(crate) mod tenpai_draws;
mod totals;
pub(crate) mod wait_danger;
pub(crate) mod walls;

pub(crate) use danger_situation::{DangerSituation, DangerSituationObserver};
pub(crate) use decisions::{Decision, DecisionObserver};
pub(crate) use draw_rate::DrawRateObserver;
pub use draw_rate::{DrawRateCells, DrawRecord};
pub(crate) use riichi_response::{RiichiResponseObserver, RiichiResponseRow};
pub(crate) use tenpai_draws::{TenpaiDraw, TenpaiDrawObserver};
pub use totals::RunTotals;
pub(crate) use wait_danger::{WaitDangerObserver, WaitDangerRow};
pub(crate) use walls::{WallObserver, WallRow};

use crate::danger::{score_builtins, Scores};
use crate::mjlog::GameLog;
use crate::replay::{replay_game, GameFacts, HandState, Observer, ReplayError};

/// Every statistic's rows of one game that replayed whole.
pub struct GameObservations {
    pub(crate) facts: GameFacts,
    pub(crate) riichi_response: Vec<RiichiResponseRow>,
    pub(crate) wait_danger: Vec<WaitDangerRow>,
    pub(crate) danger_situations: Vec<DangerSituation>,
    /// Scores of the built-in estimators, one entry per situation not excluded, in order.
    pub(crate) danger_scores: Vec<[Scores; 5]>,
    pub(crate) tenpai_draws: Vec<TenpaiDraw>,
    /// §7 decisions, when asked for ([`Observe::decisions`]); empty otherwise.
    pub(crate) decisions: Vec<Decision>,
    /// Each checked hand's wall, when asked for ([`Observe::walls`]); empty otherwise.
    pub(crate) walls: Vec<WallRow>,
}

/// Which optional statistics a replay records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observe {
    /// §7 decisions (the `decisions` frame, written on request: 3 M rows on 6,448 games).
    pub decisions: bool,
    /// Each hand's wall (the `walls` frame, written on request).
    pub walls: bool,
}

/// Replays `log` with every observer attached and scores its §4 situations with the built-in
/// estimators: what a run records of one game. The game's draw records are appended to
/// `draws` (the caller clears it, and counts them only when this returns `Ok`).
pub fn observe_game(
    log: &GameLog,
    draws: &mut Vec<DrawRecord>,
) -> Result<GameObservations, ReplayError> {
    observe_game_with(log, draws, Observe::default())
}

/// [`observe_game`] with the optional statistics of `observe` as well.
pub fn observe_game_with(
    log: &GameLog,
    draws: &mut Vec<DrawRecord>,
    observe: Observe,
) -> Result<GameObservations, ReplayError> {
    let mut riichi = RiichiResponseObserver::default();
    let mut waits = WaitDangerObserver::default();
    let mut danger = DangerSituationObserver::default();
    let mut draws = DrawRateObserver { draws };
    let mut tenpai = TenpaiDrawObserver::default();
    let mut decisions = DecisionObserver::default();
    let mut walls = WallObserver::default();
    let mut observers: Vec<&mut dyn Observer> = vec![
        &mut riichi,
        &mut waits,
        &mut danger,
        &mut draws,
        &mut tenpai,
    ];
    if observe.decisions {
        observers.push(&mut decisions);
    }
    if observe.walls {
        observers.push(&mut walls);
    }
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
        tenpai_draws: tenpai.rows,
        decisions: decisions.rows,
        walls: walls.rows,
    })
}

/// The fold of a game (§8): the sum of the bytes of its `game_id`, mod 2. Parameters fitted
/// on one fold are scored on the other.
pub fn fold_of(game_id: &str) -> u8 {
    (game_id.bytes().map(u32::from).sum::<u32>() % 2) as u8
}

/// Hand income (局収支) of `seat` over the hand's terminal records (§0): the sum of its
/// deltas minus 1000 if its own riichi was established.
pub(crate) fn hand_income(hand: &HandState, seat: usize) -> i32 {
    let deltas: i32 = hand.terminals.iter().map(|t| t.deltas[seat]).sum();
    deltas - riichi_stick(hand, seat)
}

/// 1000 when `seat`'s riichi was established this hand (its stick stays on the table), else 0.
pub(crate) fn riichi_stick(hand: &HandState, seat: usize) -> i32 {
    match hand.seats[seat].riichi {
        crate::replay::RiichiState::Established { .. } => 1000,
        _ => 0,
    }
}
