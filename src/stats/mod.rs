//! Statistics as observers of the replay (definitions: docs/definitions.md §1–§4, §7, §8,
//! §10–§14, §21).
//!
//! Each observer watches one game and collects its rows; the caller keeps them only when the
//! whole game replays. Observers know the replay state, never XML or frames.
//! [`observe_game`] is the one list of observers: adding a statistic is an observer file, its
//! rows' field in [`GameObservations`] and a line there.

pub(crate) mod by_turn;
pub(crate) mod calls;
pub(crate) mod choices;
pub(crate) mod danger_moments;
pub(crate) mod danger_situation;
pub mod decisions;
pub(crate) mod draw_rate;
pub(crate) mod hand_reading;
pub(crate) mod kita;
pub(crate) mod riichi;
pub(crate) mod riichi_response;
pub(crate) mod seats;
pub(crate) mod tables;
pub(crate) mod tenpai_draws;
pub(crate) mod tiles_at_end;
mod totals;
pub(crate) mod wait_danger;
pub(crate) mod walls;
pub(crate) mod wins;

pub(crate) use by_turn::{ByTurnObserver, TurnCounts};
pub(crate) use calls::{CallObserver, CallRow};
pub(crate) use choices::{Choice, ChoiceObserver};
pub(crate) use danger_moments::{DangerMomentObserver, MomentRow, MomentView};
pub(crate) use danger_situation::{DangerSituation, DangerSituationObserver};
pub(crate) use decisions::{Decision, DecisionObserver};
pub(crate) use draw_rate::DrawRateObserver;
pub use draw_rate::{DrawRateCells, DrawRecord};
pub(crate) use hand_reading::{HandReadingObserver, ReadingRow, ReadingViews};
pub(crate) use kita::{KitaObserver, KitaRow};
pub(crate) use riichi::{RiichiObserver, RiichiRow};
pub(crate) use riichi_response::{RiichiResponseObserver, RiichiResponseRow};
pub(crate) use seats::{SeatCounts, SeatObserver};
pub(crate) use tables::{DiscardUnit, TablesObserver, WinKind};
pub(crate) use tenpai_draws::{TenpaiDraw, TenpaiDrawObserver};
pub(crate) use tiles_at_end::{HandEnd, TilesAtEnd, TilesAtEndObserver};
pub use totals::RunTotals;
pub(crate) use wait_danger::{WaitDangerObserver, WaitDangerRow};
pub(crate) use walls::{WallObserver, WallRow};
pub(crate) use wins::{WinObserver, WinRow};

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
    /// §21 each seat's counts over the game (the `seats` frame).
    pub(crate) seats: [SeatCounts; 4],
    /// §24 every kita (three-player games; the `kita` frame).
    pub(crate) kita: Vec<KitaRow>,
    /// §7 decisions, when asked for ([`Observe::decisions`]); empty otherwise.
    pub(crate) decisions: Vec<Decision>,
    /// §23 every decision, when asked for ([`Observe::choices`]); empty otherwise.
    pub(crate) choices: Vec<Choice>,
    /// Each checked hand's wall, when asked for ([`Observe::walls`]); empty otherwise.
    pub(crate) walls: Vec<WallRow>,
    /// The §10–§14 rows below, when asked for ([`Observe::development`]); empty otherwise.
    /// §10 every AGARI record.
    pub(crate) wins: Vec<WinRow>,
    /// §13 every riichi declaration.
    pub(crate) riichi: Vec<RiichiRow>,
    /// §11 every call.
    pub(crate) calls: Vec<CallRow>,
    /// §11 counts by turn (indexed by turn).
    pub(crate) by_turn: Vec<TurnCounts>,
    /// §12 the tiles at each hand's end, summed over the game.
    pub(crate) tiles_at_end: TilesAtEnd,
    /// §14 each hand's end (one per hand, in order).
    pub(crate) hand_ends: Vec<HandEnd>,
    /// §15 sums per (observer offset, turn, estimator), when asked for
    /// ([`Observe::danger_moments`]); empty otherwise.
    pub(crate) danger_moments: Vec<MomentRow>,
    /// §15 every scored moment, when asked for; empty otherwise.
    pub(crate) danger_moment_views: Vec<MomentView>,
    /// §16 sums per (seat, turn, method), when asked for ([`Observe::hand_reading`]); empty
    /// otherwise.
    pub(crate) hand_reading: Vec<ReadingRow>,
    /// §16 every moment's view, when asked for; empty otherwise.
    pub(crate) hand_reading_views: ReadingViews,
    /// §17/§18 every discard, when asked for ([`Observe::tables`]); empty otherwise.
    pub(crate) discard_units: Vec<DiscardUnit>,
    /// §20 every AGARI record, when asked for ([`Observe::tables`]); empty otherwise.
    pub(crate) win_kinds: Vec<WinKind>,
}

/// Which optional statistics a replay records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observe {
    /// §7 decisions (the `decisions` frame, written on request: 3 M rows on 6,448 games).
    pub decisions: bool,
    /// Each hand's wall (the `walls` frame, written on request).
    pub walls: bool,
    /// The §10–§14 analyses (the `wins`, `win_yaku`, `riichi`, `calls`, `by_turn`,
    /// `tiles_at_end` and `hand_ends` frames, written on request): the shanten after every
    /// discard and the frames cost the run more than its speed budget allows (BENCHMARKS.md).
    pub development: bool,
    /// §15 danger at every moment after a riichi (the `danger_by_turn` frame, written on
    /// request): five estimators scored at every decision of three observers.
    pub danger_moments: bool,
    /// §16 hand reading (the `hand_reading` frame, written on request): four methods scored
    /// at every decision of every seat.
    pub hand_reading: bool,
    /// Every §16 moment's view as well (the `hand_reading_moments` frame, from which a user's
    /// method is scored); implies [`Observe::hand_reading`].
    pub hand_reading_moments: bool,
    /// §23 every decision with its legal actions (for a `choices` frame), and with them the
    /// replay's second proof (`illegal-action`): the legal sets at every moment cost the
    /// replay 2.3× its own time (`replay::legal`'s corpus test prints it), so on request.
    pub choices: bool,
    /// §17–§20, the tables engines load (the `discard_units`, `placement_units`
    /// and `win_kinds` frames, written on request).
    pub tables: bool,
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
    let mut all = Observers {
        riichi: RiichiResponseObserver::default(),
        waits: WaitDangerObserver::default(),
        danger: DangerSituationObserver::default(),
        draws: DrawRateObserver { draws },
        tenpai: TenpaiDrawObserver::default(),
        seats: SeatObserver::default(),
        kita: KitaObserver::default(),
        peer: observe.development.then(PeerObservers::default),
        decisions: observe.decisions.then(DecisionObserver::default),
        choices: observe.choices.then(ChoiceObserver::default),
        walls: observe.walls.then(WallObserver::default),
        moments: observe.danger_moments.then(DangerMomentObserver::default),
        reading: (observe.hand_reading || observe.hand_reading_moments)
            .then(|| HandReadingObserver::new(observe.hand_reading_moments)),
        tables: observe.tables.then(TablesObserver::new),
    };
    let facts = replay_game(log, &mut all)?;
    let Observers {
        riichi,
        waits,
        danger,
        tenpai,
        seats,
        kita,
        peer,
        decisions,
        choices,
        walls,
        moments,
        reading,
        tables,
        ..
    } = all;
    let PeerObservers {
        wins,
        declarations,
        calls,
        by_turn,
        tiles,
    } = peer.unwrap_or_default();
    let (discard_units, win_kinds) = tables.map_or_else(Default::default, |t| (t.discards, t.wins));
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
        seats: seats.seats,
        kita: kita.rows,
        decisions: decisions.map_or_else(Vec::new, |d| d.rows),
        choices: choices.map_or_else(Vec::new, |c| c.rows),
        walls: walls.map_or_else(Vec::new, |w| w.rows),
        wins: wins.rows,
        riichi: declarations.rows,
        calls: calls.rows,
        by_turn: by_turn.turns,
        tiles_at_end: tiles.tiles,
        hand_ends: tiles.ends,
        danger_moments: moments.as_ref().map_or_else(Vec::new, |m| m.rows()),
        danger_moment_views: moments.map_or_else(Vec::new, |m| m.views),
        hand_reading: reading.as_ref().map_or_else(Vec::new, |r| r.rows()),
        hand_reading_views: reading.map_or_else(ReadingViews::default, |r| r.views),
        discard_units,
        win_kinds,
    })
}

/// Replays `log` with no observer: the replay's proof alone, and the game's facts (what
/// `haifu convert` needs of a game; every row empty).
pub fn prove_game(log: &GameLog) -> Result<GameObservations, ReplayError> {
    struct Nothing;
    impl Observer for Nothing {}
    let facts = replay_game(log, &mut Nothing)?;
    Ok(GameObservations {
        facts,
        riichi_response: Vec::new(),
        wait_danger: Vec::new(),
        danger_situations: Vec::new(),
        danger_scores: Vec::new(),
        tenpai_draws: Vec::new(),
        seats: [SeatCounts::default(); 4],
        kita: Vec::new(),
        decisions: Vec::new(),
        choices: Vec::new(),
        walls: Vec::new(),
        wins: Vec::new(),
        riichi: Vec::new(),
        calls: Vec::new(),
        by_turn: Vec::new(),
        tiles_at_end: TilesAtEnd::default(),
        hand_ends: Vec::new(),
        danger_moments: Vec::new(),
        danger_moment_views: Vec::new(),
        hand_reading: Vec::new(),
        hand_reading_views: ReadingViews::default(),
        discard_units: Vec::new(),
        win_kinds: Vec::new(),
    })
}

/// Every observer of a run, called in this order at every step of the replay (a struct, not a
/// list of trait objects: the calls are static, and the steps an observer ignores cost
/// nothing).
struct Observers<'a> {
    riichi: RiichiResponseObserver,
    waits: WaitDangerObserver,
    danger: DangerSituationObserver,
    draws: DrawRateObserver<'a>,
    tenpai: TenpaiDrawObserver,
    seats: SeatObserver,
    kita: KitaObserver,
    peer: Option<PeerObservers>,
    decisions: Option<DecisionObserver>,
    /// §23: not in `each_observer!` (it watches decisions only, [`Observer::decision`]).
    choices: Option<ChoiceObserver>,
    walls: Option<WallObserver>,
    moments: Option<DangerMomentObserver>,
    reading: Option<HandReadingObserver>,
    tables: Option<TablesObserver>,
}

/// The observers of the §10–§14 analyses ([`Observe::development`]).
#[derive(Default)]
struct PeerObservers {
    wins: WinObserver,
    declarations: RiichiObserver,
    calls: CallObserver,
    by_turn: ByTurnObserver,
    tiles: TilesAtEndObserver,
}

/// Calls `$step` on every observer of an [`Observers`], in the order of its fields.
macro_rules! each_observer {
    ($all:expr, $step:ident($($arg:expr),*)) => {{
        let all = $all;
        all.riichi.$step($($arg),*);
        all.waits.$step($($arg),*);
        all.danger.$step($($arg),*);
        all.draws.$step($($arg),*);
        all.tenpai.$step($($arg),*);
        all.seats.$step($($arg),*);
        all.kita.$step($($arg),*);
        if let Some(p) = &mut all.peer {
            p.wins.$step($($arg),*);
            p.declarations.$step($($arg),*);
            p.calls.$step($($arg),*);
            p.by_turn.$step($($arg),*);
            p.tiles.$step($($arg),*);
        }
        if let Some(o) = &mut all.decisions {
            o.$step($($arg),*);
        }
        if let Some(o) = &mut all.walls {
            o.$step($($arg),*);
        }
        if let Some(o) = &mut all.moments {
            o.$step($($arg),*);
        }
        if let Some(o) = &mut all.reading {
            o.$step($($arg),*);
        }
        if let Some(o) = &mut all.tables {
            o.$step($($arg),*);
        }
    }};
}

impl Observer for Observers<'_> {
    fn hand_start(&mut self, hand: &HandState) {
        each_observer!(self, hand_start(hand));
    }
    fn before_draw(&mut self, hand: &HandState, seat: usize, tile: u8) {
        each_observer!(self, before_draw(hand, seat, tile));
    }
    fn after_draw(&mut self, hand: &HandState, seat: usize, tile: u8) {
        each_observer!(self, after_draw(hand, seat, tile));
    }
    fn before_discard(&mut self, hand: &HandState, seat: usize, tile: u8) {
        each_observer!(self, before_discard(hand, seat, tile));
    }
    fn after_discard(&mut self, hand: &HandState, seat: usize, tile: u8, declaration: bool) {
        each_observer!(self, after_discard(hand, seat, tile, declaration));
    }
    fn after_call(&mut self, hand: &HandState, seat: usize) {
        each_observer!(self, after_call(hand, seat));
    }
    fn after_kita(&mut self, hand: &HandState, seat: usize) {
        each_observer!(self, after_kita(hand, seat));
    }
    fn hand_end(&mut self, hand: &HandState) {
        each_observer!(self, hand_end(hand));
    }
    fn wants_decisions(&self) -> bool {
        self.choices.is_some()
    }
    fn decision(&mut self, hand: &HandState, d: &crate::replay::Decision) {
        if let Some(o) = &mut self.choices {
            o.decision(hand, d);
        }
    }
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
