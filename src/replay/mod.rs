//! Hand replay: a state machine fed by decoded events, checked at every step against the
//! log's own records.
//!
//! [`HandState`] holds the full public and private state of one hand (concealed hands by tile
//! id, melds, rivers, dora indicators, riichi, wall, scores, turns); its methods, one per
//! kind of event ([`HandState::draw`], [`HandState::discard`], [`HandState::call`],
//! [`HandState::dora`], [`HandState::agari`], [`HandState::ryuukyoku`]), advance it by one event
//! or say why the event contradicts the state. [`game::replay_game`]
//! drives a whole game through it and tells [`Observer`]s what happened.

pub mod game;
mod state;

pub use game::{replay_game, GameFacts, HandFacts};
pub use state::{HandState, Loc, RiichiState, RiverTile, SeatState, Terminal, TerminalKind};

use std::fmt;

/// Why a hand (or a game) failed to replay. `reason` is a stable short name used to count
/// failures; `detail` says what exactly disagreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 0-based hand index, `None` for game-level problems.
    pub hand: Option<usize>,
    pub reason: &'static str,
    pub detail: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hand {
            Some(h) => write!(f, "hand {h}: {}: {}", self.reason, self.detail),
            None => write!(f, "{}: {}", self.reason, self.detail),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A statistic watching a replay. Every method sees the state at the named moment; rows an
/// observer emits for a game must be discarded by its owner when the game fails to replay.
pub trait Observer {
    /// After the INIT has been applied (hands dealt, first dora indicator shown).
    fn hand_start(&mut self, _hand: &HandState) {}
    /// Just before `tile` joins `seat`'s hand.
    fn before_draw(&mut self, _hand: &HandState, _seat: usize, _tile: u8) {}
    /// Just after `tile` joined `seat`'s hand.
    fn after_draw(&mut self, _hand: &HandState, _seat: usize, _tile: u8) {}
    /// Just after `seat` discarded `tile`; `declaration` when it is a riichi declaration.
    fn after_discard(&mut self, _hand: &HandState, _seat: usize, _tile: u8, _declaration: bool) {}
    /// After the hand's last terminal record (all of `hand.terminals` are known).
    fn hand_end(&mut self, _hand: &HandState) {}
}
