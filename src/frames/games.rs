//! `games`: one row per game (docs/definitions.md §6).

use super::{FrameChunk, GameFrame, GameRows};
use crate::input::date_of;
use crate::mjlog::{go_type, lacks};
use crate::stats::fold_of;

pub(super) const NAME: &str = "games";

#[derive(Default)]
pub(super) struct Games {
    game_id: Vec<String>,
    /// The format the game was read from.
    format: Vec<&'static str>,
    /// Null where the format does not record the rules (mjlog::lacks::RULES).
    go_type: Vec<Option<i32>>,
    room: Vec<&'static str>,
    hanchan: Vec<Option<bool>>,
    red: Vec<bool>,
    /// 3 or 4 (§24).
    players: Vec<i32>,
    hands: Vec<i32>,
    source: Vec<String>,
    /// Null for the absent fourth seat of a three-player game.
    names: [Vec<Option<String>>; 4],
    /// The `owari` scores, or, where the format does not record them
    /// (mjlog::lacks::FINAL_SCORES), those the replay ends with, the sticks left on the table
    /// to the first place (0 for the fourth seat of a three-player game).
    scores: [Vec<Option<i32>>; 4],
    places: [Vec<i32>; 4],
    /// `YYYY-MM-DD` from the log id (§9).
    date: Vec<Option<String>>,
    dan: [Vec<Option<i32>>; 4],
    rate: [Vec<Option<f64>>; 4],
    /// §8: (sum of the bytes of the game id) mod 2.
    fold: Vec<i32>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Games>::default()
}

impl GameFrame for Games {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 350 bytes a row (names, source path).
    fn row_group_rows(&self) -> usize {
        1 << 13
    }

    fn push(&mut self, _game: u32, g: &GameRows) {
        let f = &g.obs.facts;
        let rules = f.lacks & lacks::RULES == 0;
        self.game_id.push(g.game_id.clone());
        self.format.push(f.format.name());
        self.go_type.push(rules.then_some(f.go_type as i32));
        self.room.push(f.room);
        self.hanchan
            .push(rules.then_some(f.go_type & go_type::HANCHAN != 0));
        self.red.push(f.red);
        self.players.push(f.players.seats() as i32);
        self.hands.push(f.hands.len() as i32);
        self.source.push(g.source.clone());
        for s in 0..4 {
            let plays = s < f.players.seats();
            self.names[s].push(plays.then(|| f.names[s].clone()));
            self.scores[s].push(Some(f.final_scores[s]));
            self.places[s].push(f.places[s] as i32);
            self.dan[s].push(f.dan.map(|d| d[s]).filter(|_| plays));
            self.rate[s].push(f.rate.map(|r| r[s]).filter(|_| plays));
        }
        self.date.push(date_of(&g.game_id));
        self.fold.push(i32::from(fold_of(&g.game_id)));
    }

    fn pending(&self) -> usize {
        self.game_id.len()
    }

    fn take(&mut self, _ids: &[&str], _first: u32) -> FrameChunk {
        let g = std::mem::take(self);
        let [n0, n1, n2, n3] = g.names;
        let [s0, s1, s2, s3] = g.scores;
        let [p0, p1, p2, p3] = g.places;
        let [d0, d1, d2, d3] = g.dan;
        let [r0, r1, r2, r3] = g.rate;
        FrameChunk::default()
            .unique_text("game_id", &g.game_id)
            .maybe_int("go_type", g.go_type, false)
            .strings("room", g.room.iter().map(|&r| Some(r)))
            .maybe_boolean("hanchan", &g.hanchan)
            .boolean("red", &g.red)
            .int("hands", g.hands)
            .unique_text("source", &g.source)
            .maybe_text("name_0", &n0)
            .maybe_text("name_1", &n1)
            .maybe_text("name_2", &n2)
            .maybe_text("name_3", &n3)
            .maybe_int("score_0", s0, false)
            .maybe_int("score_1", s1, false)
            .maybe_int("score_2", s2, false)
            .maybe_int("score_3", s3, false)
            .int("place_0", p0)
            .int("place_1", p1)
            .int("place_2", p2)
            .int("place_3", p3)
            .opt_text("date", &g.date)
            .opt_int("dan_0", d0)
            .opt_int("dan_1", d1)
            .opt_int("dan_2", d2)
            .opt_int("dan_3", d3)
            .opt_float("rate_0", r0)
            .opt_float("rate_1", r1)
            .opt_float("rate_2", r2)
            .opt_float("rate_3", r3)
            .int("fold", g.fold)
            .strings("format", g.format.iter().map(|&f| Some(f)))
            .int("players", g.players)
    }
}
