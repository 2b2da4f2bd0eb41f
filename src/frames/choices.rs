//! `choices`: one row per §23 decision (docs/definitions.md §23; written on request, `--with
//! choices`): a seat at a moment with two or more legal actions, the actions (space-separated
//! text), the one taken (null when another seat's call or win kept it out of the log) and
//! whether it was observed; and what the reports split decisions by: the seat's shanten
//! before (and after a call or kan), and a riichi decision's wait.
//!
//! The taken actions repeat a great deal, so each row group holds each distinct one once, as a
//! dictionary of its text. The legal sets do not (2.7 million distinct in 3.8 million rows on
//! the Phoenix corpus): they are rendered straight into the column, with no hash of them.

use super::{intern, rebase, refs, FrameChunk, GameFrame, GameRows};
use crate::replay::legal::{Action, Actions};

pub(super) const NAME: &str = "choices";

#[derive(Default)]
pub(super) struct Choices {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    turn: Vec<i32>,
    kind: Vec<&'static str>,
    legal: Vec<Actions>,
    taken: Vec<Option<Action>>,
    observed: Vec<bool>,
    shanten: Vec<Option<i32>>,
    shanten_after: Vec<Option<i32>>,
    wait_shape: Vec<Option<&'static str>>,
    wait_count: Vec<Option<i32>>,
}

/// More rows than one game gives (about 600 decisions a game on the Phoenix corpus): a row group
/// is taken once it holds `row_group_rows`, so it ends within a game of it.
const ROWS_PAST_A_ROW_GROUP: usize = 8192;

impl Choices {
    /// Room in every column for a row group of `rows` and a game's rows past it, when no row
    /// is pending (a capacity, never a value: `make mutants` leaves it out).
    fn reserve_row_group(&mut self, rows: usize) {
        if !self.hand.is_empty() {
            return;
        }
        let n = rows + ROWS_PAST_A_ROW_GROUP;
        self.game.reserve(n);
        self.hand.reserve(n);
        self.seat.reserve(n);
        self.turn.reserve(n);
        self.kind.reserve(n);
        self.legal.reserve(n);
        self.taken.reserve(n);
        self.observed.reserve(n);
        self.shanten.reserve(n);
        self.shanten_after.reserve(n);
        self.wait_shape.reserve(n);
        self.wait_count.reserve(n);
    }
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Choices>::default()
}

impl GameFrame for Choices {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 30 bytes a row, most of them dictionary codes.
    fn row_group_rows(&self) -> usize {
        1 << 17
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        // A row group's columns at once, rather than grown and copied a doubling at a time.
        self.reserve_row_group(self.row_group_rows());
        for x in &g.obs.choices {
            let c = &x.d;
            self.game.push(game);
            self.hand.push(i32::from(c.hand));
            self.seat.push(i32::from(c.seat));
            self.turn.push(i32::from(c.turn));
            self.kind.push(x.kind_text());
            self.legal.push(c.legal);
            self.taken.push(c.taken);
            self.observed.push(c.observed());
            self.shanten.push(x.shanten.map(i32::from));
            self.shanten_after.push(x.shanten_after.map(i32::from));
            self.wait_shape.push(x.wait_shape.map(|w| w.name()));
            self.wait_count.push(x.wait_count.map(i32::from));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let c = std::mem::take(self);
        let (taken, mut taken_codes) =
            intern(&c.taken, |t| t.map_or_else(String::new, |a| a.to_string()));
        // An unobserved decision's action is null: the code past the dictionary's end.
        for (code, t) in taken_codes.iter_mut().zip(&c.taken) {
            if t.is_none() {
                *code = taken.len() as u32;
            }
        }
        FrameChunk::default()
            .labels("game_id", ids, rebase(c.game, first))
            .plain_int("hand", c.hand)
            .plain_int("seat", c.seat)
            .plain_int("turn", c.turn)
            .strings("kind", c.kind.iter().map(|&k| Some(k)))
            .rendered("legal", &c.legal, Actions::write_text)
            .labels("taken", &refs(&taken), taken_codes)
            .boolean("observed", &c.observed)
            .plain_opt_int("shanten", c.shanten)
            .plain_opt_int("shanten_after", c.shanten_after)
            .strings("wait_shape", c.wait_shape)
            .plain_opt_int("wait_count", c.wait_count)
    }
}
