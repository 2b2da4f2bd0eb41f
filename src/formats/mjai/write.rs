//! mjai JSON lines (Mortal's dialect), written from a decoded Tenhou game: one event per
//! line, as Mortal's libriichi reads them.
//!
//! Events: `start_game` (names, `kyoku_first`: 0, or 4 for an East-only game, `aka_flag`), then per hand `start_kyoku`
//! (`bakaze`, `dora_marker`, `kyoku` 1..4, `honba`, `kyotaku`, `oya`, `scores`, `tehais`),
//! `tsumo`, `dahai` (`tsumogiri`), `chi`/`pon`/`daiminkan` (`target`, `pai`, `consumed`),
//! `kakan` (`pai`, `consumed`), `ankan` (`consumed`), `dora`, `reach`, `reach_accepted` (with
//! `deltas` and `scores`, the fourth riichi of a four-riichi draw included), `hora` (`target`,
//! `deltas`, `ura_markers`: each winner of a double ron its own, as its AGARI record has
//! them), `ryukyoku` (`deltas`), `end_kyoku`; `end_game` last. Tiles: `1m`..`9s`, `E S W N P
//! F C`, `5mr 5pr 5sr` for red fives. Every event follows the log's order; the writer takes
//! a game the replay has proved (`haifu convert` writes no other), so it checks nothing.
//!
//! [`Writer`] writes the same lines one log event at a time, and can write them as one seat
//! sees the game (`haifu review` drives a bot with that view).
//!
//! Invariants: scores are points (the log's hundreds × 100); deltas are each record's `sc`
//! (honba and riichi sticks included, as Tenhou pays them); `tehais` and `consumed` list
//! tiles by ascending tile id (kind order, a red five first of its kind).

use std::fmt::Write as _;

use crate::formats::json_str;
use crate::mjlog::{go_type, Event, GameLog, MeldKind};
use crate::rules::Players;
use crate::tile::{self, TileId};

const WINDS: [&str; 4] = ["E", "S", "W", "N"];

/// The mjai name of tile `id` (`5mr` for a red five in a game with red fives).
pub fn tile_name(id: TileId, red: bool) -> &'static str {
    const NAMES: [&str; 37] = [
        "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p",
        "7p", "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N",
        "P", "F", "C", "5mr", "5pr", "5sr",
    ];
    NAMES[tile::tile_type(id, red)]
}

fn tiles(out: &mut String, ids: impl IntoIterator<Item = TileId>, red: bool) {
    out.push('[');
    for (i, id) in ids.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(tile_name(id, red));
        out.push('"');
    }
    out.push(']');
}

fn ints(out: &mut String, v: &[i32]) {
    out.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

/// The game as mjai JSON lines (each ending with a newline).
pub fn write(log: &GameLog, out: &mut String) {
    let mut w = Writer::new(log, None, out);
    for e in &log.events {
        w.event(e, out);
    }
    w.finish(out);
}

/// Writes a game's mjai lines one log event at a time, as every seat sees it or (`view`) as one
/// seat does: the other seats' dealt tiles and draws masked as `?`, and `start_game` naming
/// the seat (`id`), as a bot playing that seat is told the game.
pub(crate) struct Writer {
    red: bool,
    /// Seats at the table: a three-player game writes three names, scores, hands and deltas.
    seats: usize,
    view: Option<u8>,
    /// The scores within a hand (a reach_accepted's; each hand starts from its INIT's).
    scores: [i32; 4],
    /// The tile each seat has just drawn (a dahai of it is tsumogiri).
    drawn: [Option<TileId>; 4],
    in_hand: bool,
}

impl Writer {
    /// Starts the game: writes `start_game`.
    pub(crate) fn new(log: &GameLog, view: Option<u8>, out: &mut String) -> Writer {
        let red = log.go_type.is_some_and(|g| g & go_type::NO_RED == 0);
        let seats = Players::of_go_type(log.go_type.unwrap_or(0)).seats();
        out.push_str("{\"type\":\"start_game\",");
        if let Some(seat) = view {
            let _ = write!(out, "\"id\":{seat},");
        }
        out.push_str("\"names\":[");
        for (i, name) in log.player_names().iter().take(seats).enumerate() {
            if i > 0 {
                out.push(',');
            }
            json_str(out, name);
        }
        // An East-only game starts at kyoku 4, as the converters Mortal is trained with write it
        // (the game's last hand is then South 4's place).
        let east_only = log.go_type.is_some_and(|g| g & go_type::HANCHAN == 0);
        let kyoku_first = if east_only { 4 } else { 0 };
        let _ = writeln!(out, "],\"kyoku_first\":{kyoku_first},\"aka_flag\":{red}}}");
        Writer {
            red,
            seats,
            view,
            scores: [0; 4],
            drawn: [None; 4],
            in_hand: false,
        }
    }

    /// True when `seat`'s hidden tiles are shown (every seat's without a view).
    fn sees(&self, seat: usize) -> bool {
        self.view.is_none_or(|v| usize::from(v) == seat)
    }

    /// Writes the lines of one log event (none for records mjai has no event for).
    pub(crate) fn event(&mut self, e: &Event, out: &mut String) {
        let red = self.red;
        match e {
            Event::Init(init) => {
                if self.in_hand {
                    out.push_str("{\"type\":\"end_kyoku\"}\n");
                }
                self.in_hand = true;
                self.drawn = [None; 4];
                self.scores = init.ten.map(|t| t * 100);
                let _ = write!(
                    out,
                    "{{\"type\":\"start_kyoku\",\"bakaze\":\"{}\",\"dora_marker\":\"{}\",\"kyoku\":{},\"honba\":{},\"kyotaku\":{},\"oya\":{},\"scores\":",
                    WINDS[usize::from(init.round / 4) % 4],
                    tile_name(init.dora_indicator, red),
                    init.round % 4 + 1,
                    init.honba,
                    init.kyotaku,
                    init.oya
                );
                ints(out, &self.scores[..self.seats]);
                out.push_str(",\"tehais\":[");
                for (s, hai) in init.hai.iter().take(self.seats).enumerate() {
                    if s > 0 {
                        out.push(',');
                    }
                    if self.sees(s) {
                        let mut ids = hai.clone();
                        ids.sort_unstable();
                        tiles(out, ids, red);
                    } else {
                        out.push('[');
                        for i in 0..hai.len() {
                            out.push_str(if i > 0 { ",\"?\"" } else { "\"?\"" });
                        }
                        out.push(']');
                    }
                }
                out.push_str("]}\n");
            }
            Event::Draw { seat, tile } => {
                self.drawn[usize::from(*seat)] = Some(*tile);
                let pai = if self.sees(usize::from(*seat)) {
                    tile_name(*tile, red)
                } else {
                    "?"
                };
                let _ = writeln!(
                    out,
                    "{{\"type\":\"tsumo\",\"actor\":{seat},\"pai\":\"{pai}\"}}"
                );
            }
            Event::Discard { seat, tile } => {
                let tsumogiri = self.drawn[usize::from(*seat)].take() == Some(*tile);
                let _ = writeln!(
                    out,
                    "{{\"type\":\"dahai\",\"actor\":{seat},\"pai\":\"{}\",\"tsumogiri\":{tsumogiri}}}",
                    tile_name(*tile, red)
                );
            }
            Event::Call { who, meld, .. } => {
                self.drawn[usize::from(*who)] = None;
                let target = (u32::from(*who) + u32::from(meld.from_rel)) % 4;
                let others = |skip: Option<TileId>| -> Vec<TileId> {
                    meld.tiles()
                        .iter()
                        .copied()
                        .filter(|&t| Some(t) != skip)
                        .collect()
                };
                match meld.kind {
                    MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                        let called = meld.called.expect("a called tile");
                        let _ = write!(
                            out,
                            "{{\"type\":\"{}\",\"actor\":{who},\"target\":{target},\"pai\":\"{}\",\"consumed\":",
                            meld.kind.name(),
                            tile_name(called, red)
                        );
                        tiles(out, others(Some(called)), red);
                    }
                    MeldKind::Kakan => {
                        let added = meld.added.expect("an added tile");
                        let _ = write!(
                            out,
                            "{{\"type\":\"kakan\",\"actor\":{who},\"pai\":\"{}\",\"consumed\":",
                            tile_name(added, red)
                        );
                        tiles(out, others(Some(added)), red);
                    }
                    MeldKind::Ankan | MeldKind::Nukidora => {
                        let _ = write!(out, "{{\"type\":\"ankan\",\"actor\":{who},\"consumed\":");
                        tiles(out, others(None), red);
                    }
                }
                out.push_str("}\n");
            }
            Event::Reach { who, step, ten } => {
                let who = usize::from(*who);
                if *step == 1 {
                    let _ = writeln!(out, "{{\"type\":\"reach\",\"actor\":{who}}}");
                } else {
                    let mut deltas = [0; 4];
                    deltas[who] = -1000;
                    self.scores[who] -= 1000;
                    if let Some(ten) = ten {
                        self.scores = ten.map(|t| t * 100);
                    }
                    let _ = write!(
                        out,
                        "{{\"type\":\"reach_accepted\",\"actor\":{who},\"deltas\":"
                    );
                    ints(out, &deltas[..self.seats]);
                    out.push_str(",\"scores\":");
                    ints(out, &self.scores[..self.seats]);
                    out.push_str("}\n");
                }
            }
            // A kita: the three-player Mortal forks' `nukidora` (its replacement draw is the
            // next `tsumo`).
            Event::Kita { who, tile } => {
                self.drawn[usize::from(*who)] = None;
                let _ = writeln!(
                    out,
                    "{{\"type\":\"nukidora\",\"actor\":{who},\"pai\":\"{}\"}}",
                    tile_name(*tile, red)
                );
            }
            Event::Dora { tile } => {
                let _ = writeln!(
                    out,
                    "{{\"type\":\"dora\",\"dora_marker\":\"{}\"}}",
                    tile_name(*tile, red)
                );
            }
            Event::Agari(a) => {
                let deltas: [i32; 4] = std::array::from_fn(|s| a.sc[2 * s + 1] * 100);
                let _ = write!(
                    out,
                    "{{\"type\":\"hora\",\"actor\":{},\"target\":{},\"deltas\":",
                    a.who, a.from_who
                );
                ints(out, &deltas[..self.seats]);
                out.push_str(",\"ura_markers\":");
                tiles(out, a.ura_hai.iter().copied(), red);
                out.push_str("}\n");
            }
            Event::Ryuukyoku(r) => {
                let deltas: [i32; 4] = std::array::from_fn(|s| r.sc[2 * s + 1] * 100);
                out.push_str("{\"type\":\"ryukyoku\",\"deltas\":");
                ints(out, &deltas[..self.seats]);
                out.push_str("}\n");
            }
            _ => {}
        }
    }

    /// Ends the game: the last `end_kyoku` and `end_game`.
    pub(crate) fn finish(&mut self, out: &mut String) {
        if self.in_hand {
            out.push_str("{\"type\":\"end_kyoku\"}\n");
            self.in_hand = false;
        }
        out.push_str("{\"type\":\"end_game\"}\n");
    }
}
