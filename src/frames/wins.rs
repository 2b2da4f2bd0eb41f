//! `wins`: one row per AGARI record (docs/definitions.md §6 v3, §10), and `win_yaku`: one row per
//! entry of its `yaku` and `yakuman` (the `yaku` report counts them in SQL).

use super::{digits, intern, rebase, refs, shape_digits, FrameChunk, GameFrame, GameRows};
use crate::mjlog::lacks;
use crate::tile;
use crate::tile::KINDS;
use crate::yaku;

pub(super) const NAME: &str = "wins";
pub(super) const YAKU_NAME: &str = "win_yaku";

#[derive(Default)]
pub(super) struct Wins {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    discarder: Vec<Option<i32>>,
    pao: Vec<Option<i32>>,
    fu: Vec<Option<i32>>,
    points: Vec<Option<i32>>,
    limit: Vec<Option<i32>>,
    han: Vec<Option<i32>>,
    yakuman: Vec<Option<i32>>,
    dora: Vec<Option<i32>>,
    ura_dora: Vec<Option<i32>>,
    aka_dora: Vec<Option<i32>>,
    yaku: Vec<Option<String>>,
    tile: Vec<&'static str>,
    tile_red: Vec<bool>,
    turn: Vec<i32>,
    riichi: Vec<bool>,
    closed: Vec<bool>,
    waits: Vec<[u8; KINDS]>,
    wait_shape: Vec<Option<&'static str>>,
    sticks: Vec<i32>,
    /// The winner's kitas (§24).
    kita: Vec<i32>,
    entries: Vec<Option<i32>>,
}

pub(super) fn new() -> Box<dyn GameFrame> {
    Box::<Wins>::default()
}

impl GameFrame for Wins {
    fn name(&self) -> &'static str {
        NAME
    }

    /// About 120 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 15
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        let f = &g.obs.facts;
        // What the format does not record is null (mjlog::lacks).
        let value = f.lacks & lacks::WIN_VALUE == 0;
        let some_fu = f.lacks & lacks::SOME_FU != 0;
        for w in &g.obs.wins {
            self.game.push(game);
            self.hand.push(i32::from(w.hand));
            self.seat.push(i32::from(w.seat));
            self.discarder.push(w.discarder.map(i32::from));
            self.pao.push(w.pao.map(i32::from));
            let [fu, points, limit] = w.ten;
            self.fu.push((value && !(some_fu && fu == 0)).then_some(fu));
            self.points.push(value.then_some(points));
            self.limit.push(value.then_some(limit));
            self.han.push(w.han().filter(|_| value));
            self.yakuman.push(value.then_some(w.yakuman.len() as i32));
            self.dora.push(value.then(|| w.han_of(yaku::DORA)));
            self.ura_dora.push(value.then(|| w.han_of(yaku::URA_DORA)));
            self.aka_dora.push(value.then(|| w.han_of(yaku::AKA_DORA)));
            let mut text = String::with_capacity(16 * (w.yaku.len() + w.yakuman.len()));
            let han = w.yaku.iter().map(|&(id, han)| (id, Some(han)));
            for (i, (id, han)) in han
                .chain(w.yakuman.iter().map(|&id| (id, None)))
                .enumerate()
            {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(&yaku::key(id));
                match han {
                    Some(h) => {
                        text.push(':');
                        text.push_str(&h.to_string());
                    }
                    None => text.push_str(":Y"),
                }
            }
            self.yaku.push(value.then_some(text));
            self.tile.push(tile::kind_name(w.tile as usize));
            self.tile_red.push(w.tile_red);
            self.turn.push(i32::from(w.turn));
            self.riichi.push(w.riichi);
            self.closed.push(w.closed);
            self.waits.push(shape_digits(&w.waits));
            self.wait_shape.push(w.wait_shape().map(|s| s.name()));
            self.sticks.push(i32::from(w.sticks));
            self.kita.push(i32::from(w.kita));
            self.entries
                .push(value.then_some((w.yaku.len() + w.yakuman.len()) as i32));
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let w = std::mem::take(self);
        FrameChunk::default()
            .labels("game_id", ids, rebase(w.game, first))
            .plain_int("hand", w.hand)
            .plain_int("seat", w.seat)
            .opt_int("discarder", w.discarder)
            .opt_int("pao", w.pao)
            .maybe_int("fu", w.fu, true)
            .maybe_int("points", w.points, true)
            .maybe_int("limit", w.limit, true)
            .opt_int("han", w.han)
            .maybe_int("yakuman", w.yakuman, true)
            .maybe_int("dora", w.dora, true)
            .maybe_int("ura_dora", w.ura_dora, true)
            .maybe_int("aka_dora", w.aka_dora, true)
            .maybe_text("yaku", &w.yaku)
            .strings("tile", w.tile.iter().map(|&t| Some(t)))
            .boolean("tile_red", &w.tile_red)
            .plain_int("turn", w.turn)
            .boolean("riichi", &w.riichi)
            .boolean("closed", &w.closed)
            .text("waits", &digits(&w.waits))
            .strings("wait_shape", w.wait_shape.iter().copied())
            .plain_int("sticks", w.sticks)
            .maybe_int("entries", w.entries, true)
            .plain_int("kita", w.kita)
    }
}

/// `win_yaku`: one row per entry of a win's `yaku` (with its han) and `yakuman` (han null), one
/// row per (win, id).
#[derive(Default)]
pub(super) struct WinYaku {
    game: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    id: Vec<u8>,
    han: Vec<Option<i32>>,
    yakuman: Vec<bool>,
    count: Vec<i32>,
}

pub(super) fn new_yaku() -> Box<dyn GameFrame> {
    Box::<WinYaku>::default()
}

impl WinYaku {
    /// Adds the entries of win `w` of game number `game`.
    fn win(&mut self, game: u32, w: &crate::stats::WinRow) {
        let start = self.id.len();
        for &(id, han) in &w.yaku {
            self.entry(game, w, start, id, Some(han));
        }
        for &id in &w.yakuman {
            self.entry(game, w, start, id, None);
        }
    }

    /// Adds an entry of win `w`, whose rows start at row `start`. Invariant: one row per
    /// (win, id), so that a report counts the wins with a yaku without grouping by win: an id
    /// the win already has (never in a Tenhou log) adds its count and han to that row.
    fn entry(
        &mut self,
        game: u32,
        w: &crate::stats::WinRow,
        start: usize,
        id: u8,
        han: Option<u8>,
    ) {
        let count = han.map_or(1, |h| yaku::count(id, h)) as i32;
        if let Some(i) = (start..self.id.len()).find(|&i| self.id[i] == id) {
            self.count[i] += count;
            if let (Some(a), Some(h)) = (self.han[i].as_mut(), han) {
                *a += i32::from(h);
            }
            return;
        }
        self.game.push(game);
        self.hand.push(i32::from(w.hand));
        self.seat.push(i32::from(w.seat));
        self.id.push(id);
        self.han.push(han.map(i32::from));
        self.yakuman.push(han.is_none());
        self.count.push(count);
    }
}

impl GameFrame for WinYaku {
    fn name(&self) -> &'static str {
        YAKU_NAME
    }

    /// About 40 bytes a row.
    fn row_group_rows(&self) -> usize {
        1 << 16
    }

    fn push(&mut self, game: u32, g: &GameRows) {
        if g.obs.facts.lacks & lacks::WIN_VALUE != 0 {
            return;
        }
        for w in &g.obs.wins {
            self.win(game, w);
        }
    }

    fn pending(&self) -> usize {
        self.hand.len()
    }

    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk {
        let y = std::mem::take(self);
        let (keys, codes) = intern(&y.id, |id| yaku::key(id).into_owned());
        let keys = refs(&keys);
        FrameChunk::default()
            .labels("game_id", ids, rebase(y.game, first))
            .plain_int("hand", y.hand)
            .plain_int("seat", y.seat)
            .plain_int("id", y.id.iter().map(|&i| i32::from(i)).collect())
            .labels("yaku", &keys, codes)
            .opt_int("han", y.han)
            .boolean("yakuman", &y.yakuman)
            .plain_int("count", y.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(seat: u8, yaku: Vec<(u8, u8)>, yakuman: Vec<u8>) -> crate::stats::WinRow {
        crate::stats::WinRow {
            hand: 3,
            seat,
            discarder: None,
            pao: None,
            ten: [30, 8000, 1],
            yaku,
            yakuman,
            tile: 0,
            tile_red: false,
            turn: 9,
            riichi: true,
            closed: true,
            waits: [None; KINDS],
            sticks: 0,
            kita: 0,
        }
    }

    /// `win_yaku` holds one row per (win, id): an id a win lists again adds its §10 count and
    /// its han to the win's first row of that id; another win's rows are its own.
    /// Worked by hand: win 1 lists riichi (id 1, 1 han), dora (52, 2 han: count 2), haku (18),
    /// dora again (52, 1 han): rows riichi, dora (han 3, count 3), haku. Win 2 lists dora (52,
    /// 1 han), haku twice and the yakuman daisangen (39) twice: rows dora (count 1), haku (han 2,
    /// count 2), daisangen (han null, count 2).
    #[test]
    fn a_repeated_yaku_id_adds_to_its_row() {
        let mut y = WinYaku::default();
        y.win(0, &win(1, vec![(1, 1), (52, 2), (18, 1), (52, 1)], vec![]));
        y.win(0, &win(2, vec![(52, 1), (18, 1), (18, 1)], vec![39, 39]));
        assert_eq!(y.id, [1, 52, 18, 52, 18, 39]);
        assert_eq!(y.seat, [1, 1, 1, 2, 2, 2]);
        assert_eq!(y.count, [1, 3, 1, 1, 2, 2]);
        assert_eq!(y.han, [Some(1), Some(3), Some(1), Some(1), Some(2), None]);
        assert_eq!(y.yakuman, [false, false, false, false, false, true]);
    }
}
