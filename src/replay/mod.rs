//! Hand replay: a state machine fed by decoded events, checked at every step against the
//! log's own records and, when the log carries a shuffle seed in a known form, against the
//! wall it makes ([`crate::wall`]): every dealt tile, draw and indicator (`wall-mismatch`).
//! Under Tenhou's rules every win is scored from the replay's own state ([`crate::score`])
//! and must be the AGARI's yaku, fu and points (`win-score-mismatch`) as far as the format
//! records them, and every payment the rules' (`score-mismatch`): `proofs.rs` says which
//! proofs run on which logs.
//!
//! - `state.rs`: [`HandState`], the full public and private state of one hand (concealed
//!   hands by tile id, melds, rivers, dora indicators, riichi, wall, scores, turns), plain data.
//! - `apply.rs`: [`HandState::deal`] and the one function that changes it,
//!   [`HandState::apply`], which advances it by one event or says which [`Check`] the event
//!   fails and why.
//! - `view.rs`: read-only views (concealed ids, river kinds, held and visible counts per type,
//!   what a seat cannot see).
//! - `game.rs`: [`replay_game`] drives a whole game through hand states and tells
//!   [`Observer`]s what happened; a game replays whole or fails with a [`ReplayError`]. It
//!   builds each hand's wall from the game's seed (or says why it has none: `GameFacts::wall`).

mod apply;
mod game;
pub(crate) mod legal;
mod proofs;
mod state;
mod view;

pub(crate) use game::{replay_game, GameFacts};
pub(crate) use legal::Decision;
pub(crate) use state::{HandState, Loc, RiichiState, TerminalKind};

use std::fmt;

/// The checks a replay makes; a failing one names the failure (`replay: [hand N: ]check:
/// detail` in the manifest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    DuplicateTile,
    HandSize,
    OutOfTurn,
    NotInHand,
    BadCall,
    BadRiichi,
    BadInit,
    AgariMismatch,
    BadAgari,
    BadRyuukyoku,
    StickMismatch,
    ScoreMismatch,
    ShownHandMismatch,
    WallExhausted,
    Truncated,
    AfterEnd,
    AfterOwari,
    NoInit,
    NoHands,
    BadOwari,
    NoGo,
    /// A three-player game breaks its table's rules: a fourth seat that acts or is dealt
    /// tiles, a 2m–8m tile, a chi, an abortive draw three players cannot have; or a kita in a
    /// four-player game.
    ThreePlayer,
    /// A dealt tile, a draw, an indicator or the dice is not the wall's (from the log's seed).
    WallMismatch,
    /// A win's yaku, fu or points, scored from the replay's state, are not the AGARI's.
    WinScoreMismatch,
    /// A seat took an action that is not in its legal set (§23), computed just before it.
    IllegalAction,
    /// A kita (三麻 北抜き) that the rules do not allow: not a North, not after a draw, from
    /// an empty wall, in riichi of a North not just drawn (§24).
    BadKita,
}

impl Check {
    /// The check's name as written in the manifest.
    pub fn as_str(self) -> &'static str {
        match self {
            Check::DuplicateTile => "duplicate-tile",
            Check::HandSize => "hand-size",
            Check::OutOfTurn => "out-of-turn",
            Check::NotInHand => "not-in-hand",
            Check::BadCall => "bad-call",
            Check::BadRiichi => "bad-riichi",
            Check::BadInit => "bad-init",
            Check::AgariMismatch => "agari-mismatch",
            Check::BadAgari => "bad-agari",
            Check::BadRyuukyoku => "bad-ryuukyoku",
            Check::StickMismatch => "stick-mismatch",
            Check::ScoreMismatch => "score-mismatch",
            Check::ShownHandMismatch => "shown-hand-mismatch",
            Check::WallExhausted => "wall-exhausted",
            Check::Truncated => "truncated",
            Check::AfterEnd => "after-end",
            Check::AfterOwari => "after-owari",
            Check::NoInit => "no-init",
            Check::NoHands => "no-hands",
            Check::BadOwari => "bad-owari",
            Check::NoGo => "no-go",
            Check::ThreePlayer => "three-player",
            Check::WallMismatch => "wall-mismatch",
            Check::WinScoreMismatch => "win-score-mismatch",
            Check::IllegalAction => "illegal-action",
            Check::BadKita => "bad-kita",
        }
    }
}

/// Why a hand (or a game) failed to replay: the check that failed and what exactly
/// disagreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 0-based hand index, `None` for game-level problems.
    pub hand: Option<usize>,
    pub check: Check,
    pub detail: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hand {
            Some(h) => write!(f, "hand {h}: {}: {}", self.check.as_str(), self.detail),
            None => write!(f, "{}: {}", self.check.as_str(), self.detail),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A statistic watching a replay. Every method sees the state at the named moment; rows an
/// observer emits for a game must be discarded by its owner when the game fails to replay.
pub(crate) trait Observer {
    /// Before the replay looks at `log.events[index]` (every event, in order).
    fn event(&mut self, _index: usize) {}
    /// After the INIT has been applied (hands dealt, first dora indicator shown).
    fn hand_start(&mut self, _hand: &HandState) {}
    /// Just before `tile` joins `seat`'s hand.
    fn before_draw(&mut self, _hand: &HandState, _seat: usize, _tile: u8) {}
    /// Just after `tile` joined `seat`'s hand.
    fn after_draw(&mut self, _hand: &HandState, _seat: usize, _tile: u8) {}
    /// Just before `seat` discards `tile` (the seat still holds it).
    fn before_discard(&mut self, _hand: &HandState, _seat: usize, _tile: u8) {}
    /// Just after `seat` discarded `tile`; `declaration` when it is a riichi declaration.
    fn after_discard(&mut self, _hand: &HandState, _seat: usize, _tile: u8, _declaration: bool) {}
    /// Just after a chi, pon or kan by `seat` (its meld is the last of `hand.seats[seat].melds`
    /// or, for a kakan, replaces its pon).
    fn after_call(&mut self, _hand: &HandState, _seat: usize) {}
    /// Just after a kita by `seat` (three-player games: the North is the last of
    /// `hand.seats[seat].kita`; the replacement draw comes next, unless a ron takes the North).
    fn after_kita(&mut self, _hand: &HandState, _seat: usize) {}
    /// After the hand's last terminal record (all of `hand.terminals` are known).
    fn hand_end(&mut self, _hand: &HandState) {}
    /// True when the observer wants every decision (§23): the replay then computes every
    /// seat's legal actions at every moment and refuses a game where a seat took an action
    /// outside them (`illegal-action`), in every format (the `legal` proof, `proofs.rs`).
    fn wants_decisions(&self) -> bool {
        false
    }
    /// A decision closed (its taken action known, or unobserved), in event order: `hand` is
    /// the state just before the event that closed it (or at the hand's end).
    fn decision(&mut self, _hand: &HandState, _d: &Decision) {}
}
