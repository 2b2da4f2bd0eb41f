//! `danger_eval`: one row per (§4 situation, moment, estimator) with the situation's metrics.
//! Every producer of the frame (the ingest for the built-in estimators, the `phoenix-table`
//! tail, `haifu danger-eval`) builds it with [`EvalRows`], so its schema is defined once.

use super::{rebase, FrameChunk, GameFrame, GameRows};
use crate::danger::{EstimatorName, EvalKey, Moment, Scores};

pub(super) const NAME: &str = "danger_eval";

/// Rows of the `danger_eval` frame, column by column.
#[derive(Default)]
pub(crate) struct EvalRows {
    game: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    /// `moment as u32` ([`Moment::ALL`] order).
    moment: Vec<u32>,
    /// Index into the names given to [`EvalRows::take_chunk`].
    estimator: Vec<u32>,
    rmse: Vec<f64>,
    cross_entropy: Vec<f64>,
    auc: Vec<f64>,
    brier: Vec<f64>,
    n_waits: Vec<i32>,
    riichi_turn: Vec<i32>,
    riichi_is_dealer: Vec<bool>,
}

impl EvalRows {
    pub(crate) fn push(&mut self, key: &EvalKey, estimator: u8, s: &Scores) {
        self.game.push(key.game);
        self.hand.push(key.hand);
        self.riichi_seat.push(key.riichi_seat);
        self.moment.push(key.moment as u32);
        self.estimator.push(u32::from(estimator));
        self.rmse.push(s.rmse);
        self.cross_entropy.push(s.cross_entropy);
        self.auc.push(s.auc);
        self.brier.push(s.brier);
        self.n_waits.push(key.n_waits);
        self.riichi_turn.push(key.riichi_turn);
        self.riichi_is_dealer.push(key.riichi_is_dealer);
    }

    /// Room in every column for a row group of `rows` and a game's rows past it, when no row
    /// is pending (a capacity, never a value: `make mutants` leaves it out).
    fn reserve_row_group(&mut self, rows: usize) {
        if self.len() == 0 {
            self.reserve(rows + ROWS_PAST_A_ROW_GROUP);
        }
    }

    /// Room for `n` more rows in every column.
    fn reserve(&mut self, n: usize) {
        self.game.reserve(n);
        self.hand.reserve(n);
        self.riichi_seat.reserve(n);
        self.moment.reserve(n);
        self.estimator.reserve(n);
        self.rmse.reserve(n);
        self.cross_entropy.reserve(n);
        self.auc.reserve(n);
        self.brier.reserve(n);
        self.n_waits.reserve(n);
        self.riichi_turn.reserve(n);
        self.riichi_is_dealer.reserve(n);
    }

    /// Rows pushed since the last [`EvalRows::take_chunk`].
    pub(crate) fn len(&self) -> usize {
        self.game.len()
    }

    /// The rows as a frame chunk (the builder is left empty); `game_ids[key.game - first]`
    /// is each row's game id, `estimators[i]` the name of estimator index i.
    pub(crate) fn take_chunk(
        &mut self,
        game_ids: &[&str],
        first: u32,
        estimators: &[&str],
    ) -> FrameChunk {
        let r = std::mem::take(self);
        let moments = Moment::ALL.map(Moment::name);
        FrameChunk::default()
            .labels("game_id", game_ids, rebase(r.game, first))
            .int("hand", r.hand)
            .int("riichi_seat", r.riichi_seat)
            .labels("moment", &moments, r.moment)
            .labels("estimator", estimators, r.estimator)
            .float("rmse", r.rmse)
            .float("cross_entropy", r.cross_entropy)
            .float("auc", r.auc)
            .float("brier", r.brier)
            .int("n_waits", r.n_waits)
            .int("riichi_turn", r.riichi_turn)
            .boolean("riichi_is_dealer", &r.riichi_is_dealer)
    }
}

/// More rows than one game gives (a game's situations × moments × built-in estimators):
/// a row group is taken once it holds `row_group_rows`, so it ends within a game of it.
const ROWS_PAST_A_ROW_GROUP: usize = 4096;

/// The built-in estimators' rows, scored game by game in the workers (`phoenix-table` rows
/// are appended once the run is complete).
#[derive(Default)]
struct DangerEval(EvalRows);

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<DangerEval>::default()
}

impl GameFrame for DangerEval {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 75 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 17
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        // A row group's columns at once, rather than grown and copied a doubling at a time:
        // the merger pushes about 380,000 rows a run.
        self.0.reserve_row_group(self.row_group_rows());
        let included = g
            .obs
            .danger_situations
            .iter()
            .filter(|d| d.excluded.is_none());
        for (d, scores) in included.zip(&g.obs.danger_scores) {
            let key = d.eval_key(game);
            for (e, s) in scores.iter().enumerate() {
                self.0.push(&key, e as u8, s);
            }
        }
    }

    fn pending(&self) -> usize {
        self.0.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let names = EstimatorName::DEFAULT.map(EstimatorName::as_str);
        self.0.take_chunk(ids, first, &names)
    }
}
