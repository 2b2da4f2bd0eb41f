//! tenhou.net/6 JSON written from a decoded Tenhou game (the format: the parent module).
//!
//! Invariants: the takes and discards of a seat pair up one to one (a kan's discard slot is its
//! string or 0); the writer takes a game the replay has proved, so it checks nothing.

use std::fmt::Write as _;

use super::read::DAN;
use crate::formats::json_str;
use crate::mjlog::{go_type, lacks, Agari, Event, GameLog, Meld, MeldKind, Ryuukyoku};
use crate::rules::Players;
use crate::tile::{self, TileId, KINDS};
use crate::yaku;

/// The tenhou.net/6 number of a tile.
pub fn tile_code(id: TileId, red: bool) -> u8 {
    let t = tile::tile_type(id, red);
    if t >= KINDS {
        return 51 + (t - KINDS) as u8;
    }
    let (suit, n) = (t / 9, t % 9);
    if suit == 3 {
        41 + n as u8
    } else {
        (suit as u8 + 1) * 10 + n as u8 + 1
    }
}

/// Sort key of a code: its kind, a red five after the black ones.
fn key(code: u8) -> (u8, bool) {
    if code >= 51 {
        ((code - 50) * 10 + 5, true)
    } else {
        (code, false)
    }
}

fn sorted(mut codes: Vec<u8>) -> Vec<u8> {
    codes.sort_by_key(|&c| key(c));
    codes
}

/// One element of a take or discard list.
enum Item {
    Tile(u8),
    Text(String),
}

fn list<T>(out: &mut String, items: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, x);
    }
    out.push(']');
}

fn items(out: &mut String, v: &[Item]) {
    list(out, v, |out, x| match x {
        Item::Tile(c) => {
            let _ = write!(out, "{c}");
        }
        Item::Text(s) => json_str(out, s),
    });
}

fn codes(out: &mut String, v: &[u8]) {
    list(out, v, |out, c| {
        let _ = write!(out, "{c}");
    });
}

/// A number as JavaScript writes it (`-46`, `63.8`).
fn js_number(x: f64) -> String {
    format!("{x}")
}

/// The call string of `meld` (made by the seat, `red` the game's flag).
fn call_text(meld: &Meld, red: bool) -> String {
    let code = |id: TileId| tile_code(id, red);
    let others = |skip: TileId| -> Vec<u8> {
        sorted(
            meld.tiles()
                .iter()
                .filter(|&&t| t != skip)
                .map(|&t| code(t))
                .collect(),
        )
    };
    let placed = |marker: char, called: TileId, rest: Vec<u8>, extra: Option<u8>| -> String {
        // The marker sits where the tile's giver sits: left (3) first, across (2) after
        // one tile, right (1) last.
        let at = match meld.from_rel {
            3 => 0,
            2 => 1,
            _ => rest.len(),
        };
        let mut s = String::new();
        for (i, c) in rest.iter().enumerate() {
            if i == at {
                s.push(marker);
                if let Some(e) = extra {
                    let _ = write!(s, "{e}");
                }
                let _ = write!(s, "{}", code(called));
            }
            let _ = write!(s, "{c}");
        }
        if at == rest.len() {
            s.push(marker);
            if let Some(e) = extra {
                let _ = write!(s, "{e}");
            }
            let _ = write!(s, "{}", code(called));
        }
        s
    };
    match meld.kind {
        MeldKind::Chi => {
            let called = meld.called.expect("a called tile");
            let mut s = format!("c{}", code(called));
            for c in others(called) {
                let _ = write!(s, "{c}");
            }
            s
        }
        MeldKind::Pon => {
            let called = meld.called.expect("a called tile");
            placed('p', called, others(called), None)
        }
        MeldKind::Daiminkan => {
            let called = meld.called.expect("a called tile");
            placed('m', called, others(called), None)
        }
        MeldKind::Kakan => {
            let called = meld.called.expect("the pon's called tile");
            let added = meld.added.expect("an added tile");
            let rest = sorted(
                meld.tiles()
                    .iter()
                    .filter(|&&t| t != called && t != added)
                    .map(|&t| code(t))
                    .collect(),
            );
            placed('k', called, rest, Some(code(added)))
        }
        MeldKind::Ankan | MeldKind::Nukidora => {
            let all = sorted(meld.tiles().iter().map(|&t| code(t)).collect());
            let mut s = String::new();
            for (i, c) in all.iter().enumerate() {
                if i == 3 {
                    s.push('a');
                }
                let _ = write!(s, "{c}");
            }
            s
        }
    }
}

/// The points text of a win (`30符1飜1000点`, `満貫2000-4000点`, `30符3飜2000点∀`), `seats` at
/// the table: a tsumo's `ten` points are what its payers pay (with three players the absent
/// seat's share is not paid, so a non-dealer's are a third of them and the dealer's a half).
fn points_text(a: &Agari, dealer: u8, seats: i32) -> String {
    let [fu, points, limit] = a.ten;
    let han: i32 = a.yaku.iter().map(|&(_, h)| i32::from(h)).sum();
    let mut s = match limit {
        0 => format!("{fu}符{han}飜"),
        1 => "満貫".into(),
        2 => "跳満".into(),
        3 => "倍満".into(),
        4 => "三倍満".into(),
        _ => "役満".into(),
    };
    if a.who != a.from_who {
        let _ = write!(s, "{points}点");
    } else if a.who == dealer {
        let _ = write!(s, "{}点∀", points / (seats - 1));
    } else {
        let (ko, oya) = if limit > 0 {
            (points / seats, 2 * points / seats)
        } else {
            let base = fu * (1 << (han + 2));
            let up = |x: i32| (x + 99) / 100 * 100;
            (up(base), up(2 * base))
        };
        let _ = write!(s, "{ko}-{oya}点");
    }
    s
}

/// `["和了", deltas, [winner, from, liable, points, yaku…]]`'s last two elements for `a`.
fn win(out: &mut String, a: &Agari, dealer: u8, seats: usize) {
    let deltas: Vec<i32> = (0..4).map(|s| a.sc[2 * s + 1] * 100).collect();
    list(out, &deltas, |out, d| {
        let _ = write!(out, "{d}");
    });
    let _ = write!(
        out,
        ",[{},{},{},",
        a.who,
        a.from_who,
        a.pao_who.unwrap_or(a.who)
    );
    json_str(out, &points_text(a, dealer, seats as i32));
    for &(id, han) in &a.yaku {
        if han == 0 {
            continue;
        }
        out.push(',');
        json_str(out, &format!("{}({han}飜)", yaku::name(id)));
    }
    for &id in &a.yakuman {
        out.push(',');
        json_str(out, &format!("{}(役満)", yaku::name(id)));
    }
    out.push(']');
}

/// A draw's result, `seats` at the table.
fn draw(out: &mut String, r: &Ryuukyoku, seats: usize) {
    let deltas: Vec<i32> = (0..4).map(|s| r.sc[2 * s + 1] * 100).collect();
    let name = match r.kind.as_deref() {
        None => {
            let shown = r.hai.iter().filter(|h| h.is_some()).count();
            match shown {
                s if s == seats => Some("全員聴牌"),
                0 => Some("全員不聴"),
                _ => None,
            }
        }
        Some("yao9") => Some("九種九牌"),
        Some("reach4") => Some("四家立直"),
        Some("ron3") => Some("三家和了"),
        Some("kan4") => Some("四槓散了"),
        Some("kaze4") => Some("四風連打"),
        Some("nm") => {
            out.push_str("[\"流し満貫\",");
            codes_i32(out, &deltas);
            out.push(']');
            return;
        }
        Some(_) => None,
    };
    match name {
        Some(n) => {
            out.push('[');
            json_str(out, n);
            out.push(']');
        }
        None => {
            out.push_str("[\"流局\",");
            codes_i32(out, &deltas);
            out.push(']');
        }
    }
}

fn codes_i32(out: &mut String, v: &[i32]) {
    list(out, v, |out, d| {
        let _ = write!(out, "{d}");
    });
}

/// One hand being written.
struct Hand {
    head: [i32; 3],
    scores: [i32; 4],
    dora: Vec<u8>,
    ura: Vec<u8>,
    dealer: u8,
    start: [Vec<u8>; 4],
    takes: [Vec<Item>; 4],
    discards: [Vec<Item>; 4],
    drawn: [Option<TileId>; 4],
    riichi: [bool; 4],
    result: String,
}

impl Hand {
    fn write(&self, out: &mut String) {
        let _ = write!(
            out,
            "[[{},{},{}],",
            self.head[0], self.head[1], self.head[2]
        );
        codes_i32(out, &self.scores);
        out.push(',');
        codes(out, &self.dora);
        out.push(',');
        codes(out, &self.ura);
        for s in 0..4 {
            out.push(',');
            codes(out, &self.start[s]);
            out.push(',');
            items(out, &self.takes[s]);
            out.push(',');
            items(out, &self.discards[s]);
        }
        out.push(',');
        out.push_str(&self.result);
        out.push(']');
    }
}

/// The game as tenhou.net/6 JSON, `game_id` its `ref`.
pub fn write(log: &GameLog, game_id: &str, out: &mut String) {
    let go = log.go_type.unwrap_or(0);
    let red = go & go_type::NO_RED == 0;
    let players = Players::of_go_type(go);
    let mut hands: Vec<Hand> = Vec::new();
    let mut lobby = None;
    // (what, hand, seat, step) of each disconnection and return; the hand's draws, discards
    // and calls so far.
    let mut connection: Vec<(u8, usize, u8, u32)> = Vec::new();
    let mut step = 0u32;
    let mut owari: Option<Vec<f64>> = None;
    for e in &log.events {
        match e {
            Event::Go { lobby: l, .. } => lobby = *l,
            Event::Bye { who } if !hands.is_empty() => {
                connection.push((0, hands.len() - 1, *who, step));
            }
            Event::Un(un) if !hands.is_empty() => {
                if let Some(who) = un.names.iter().position(Option::is_some) {
                    connection.push((1, hands.len() - 1, who as u8, step));
                }
            }
            Event::Init(init) => {
                step = 0;
                hands.push(Hand {
                    head: [
                        i32::from(init.round),
                        i32::from(init.honba),
                        i32::from(init.kyotaku),
                    ],
                    scores: init.ten.map(|t| t * 100),
                    dora: vec![tile_code(init.dora_indicator, red)],
                    ura: Vec::new(),
                    dealer: init.oya,
                    start: init
                        .hai
                        .clone()
                        .map(|h| sorted(h.iter().map(|&t| tile_code(t, red)).collect())),
                    takes: Default::default(),
                    discards: Default::default(),
                    drawn: [None; 4],
                    riichi: [false; 4],
                    result: String::new(),
                })
            }
            _ => {
                let Some(h) = hands.last_mut() else { continue };
                if matches!(
                    e,
                    Event::Draw { .. }
                        | Event::Discard { .. }
                        | Event::Call { .. }
                        | Event::Kita { .. }
                ) {
                    step += 1;
                }
                match e {
                    Event::Draw { seat, tile } => {
                        let s = usize::from(*seat);
                        h.drawn[s] = Some(*tile);
                        h.takes[s].push(Item::Tile(tile_code(*tile, red)));
                    }
                    Event::Reach { who, step: 1, .. } => h.riichi[usize::from(*who)] = true,
                    Event::Discard { seat, tile } => {
                        let s = usize::from(*seat);
                        let code = if h.drawn[s].take() == Some(*tile) {
                            60
                        } else {
                            tile_code(*tile, red)
                        };
                        h.discards[s].push(if std::mem::take(&mut h.riichi[s]) {
                            Item::Text(format!("r{code}"))
                        } else {
                            Item::Tile(code)
                        });
                    }
                    Event::Call { who, meld, .. } => {
                        let s = usize::from(*who);
                        h.drawn[s] = None;
                        let text = call_text(meld, red);
                        match meld.kind {
                            MeldKind::Chi | MeldKind::Pon => h.takes[s].push(Item::Text(text)),
                            MeldKind::Daiminkan => {
                                h.takes[s].push(Item::Text(text));
                                h.discards[s].push(Item::Tile(0));
                            }
                            _ => h.discards[s].push(Item::Text(text)),
                        }
                    }
                    // A kita: `f44` in the seat's discards (its replacement draw follows in
                    // its takes).
                    Event::Kita { who, .. } => {
                        let s = usize::from(*who);
                        h.drawn[s] = None;
                        h.discards[s].push(Item::Text("f44".into()));
                    }
                    Event::Dora { tile } => h.dora.push(tile_code(*tile, red)),
                    Event::Agari(a) => {
                        if h.ura.is_empty() {
                            h.ura = a.ura_hai.iter().map(|&t| tile_code(t, red)).collect();
                        }
                        if h.result.is_empty() {
                            h.result.push_str("[\"和了\",");
                        } else {
                            h.result.pop();
                            h.result.push(',');
                        }
                        win(&mut h.result, a, h.dealer, players.seats());
                        h.result.push(']');
                        if a.owari.is_some() {
                            owari.clone_from(&a.owari);
                        }
                    }
                    Event::Ryuukyoku(r) => {
                        draw(&mut h.result, r, players.seats());
                        if r.owari.is_some() {
                            owari.clone_from(&r.owari);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out.push_str("{\"ver\":2.3,\"ref\":");
    json_str(out, game_id);
    out.push_str(",\"log\":[");
    for (i, h) in hands.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        h.write(out);
    }
    out.push(']');
    if !connection.is_empty() {
        out.push_str(",\"connection\":");
        list(out, &connection, |out, &(what, hand, who, step)| {
            let _ = write!(
                out,
                "{{\"what\":{what},\"log\":{hand},\"who\":{who},\"step\":{step}}}"
            );
        });
    }
    let room = match go & 0xA0 {
        0xA0 => "鳳",
        0x20 => "特",
        0x80 => "上",
        _ => "般",
    };
    // A game not from a Tenhou room keeps its own rule text, or names its room: never a
    // Tenhou room's name made up from its rules.
    let own = log.origin.lacks(lacks::RULES).then(|| {
        log.origin
            .rules_text
            .clone()
            .unwrap_or_else(|| log.origin.room.unwrap_or("other").to_string())
    });
    let disp = own.unwrap_or_else(|| {
        format!(
            "{}{room}{}{}{}{}",
            if players == Players::Three { "三" } else { "" },
            if go & go_type::HANCHAN != 0 {
                "南"
            } else {
                "東"
            },
            if go & 0x04 == 0 { "喰" } else { "" },
            if red { "赤" } else { "" },
            if go & go_type::FAST != 0 { "速" } else { "" },
        )
    });
    let aka = i32::from(red);
    let _ = write!(
        out,
        ",\"ratingc\":\"PF{}\",\"rule\":{{\"disp\":",
        players.seats()
    );
    json_str(out, &disp);
    let _ = write!(
        out,
        ",\"aka53\":{aka},\"aka52\":{aka},\"aka51\":{aka}}},\"lobby\":{}",
        lobby.unwrap_or(0)
    );
    let (dan, rate) = log.player_ranks();
    out.push_str(",\"dan\":");
    let dan: Vec<&str> = dan
        .unwrap_or([0; 4])
        .iter()
        .map(|&d| DAN.get(d as usize).copied().unwrap_or(""))
        .collect();
    list(out, &dan, |out, d| json_str(out, d));
    out.push_str(",\"rate\":");
    list(out, &rate.unwrap_or([0.0; 4]), |out, r| {
        out.push_str(&js_number(*r));
    });
    let sx: Vec<String> = log
        .events
        .iter()
        .find_map(|e| match e {
            Event::Un(un) => un.sx.clone(),
            _ => None,
        })
        .map_or_else(|| vec![String::new(); 4], |s| s.to_vec());
    out.push_str(",\"sx\":");
    list(out, &sx, |out, s| json_str(out, s));
    out.push_str(",\"sc\":");
    let sc: Vec<String> = owari
        .unwrap_or_default()
        .chunks(2)
        .flat_map(|c| {
            [
                js_number(c[0] * 100.0),
                c.get(1).map_or_else(|| "0".into(), |&u| js_number(u)),
            ]
        })
        .collect();
    list(out, &sc, |out, s| out.push_str(s));
    out.push_str(",\"name\":");
    list(out, &log.player_names(), |out, n| json_str(out, n));
    out.push('}');
}
