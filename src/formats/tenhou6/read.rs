//! tenhou.net/6 JSON → the decoded events of one game (through [`Builder`]).
//!
//! The format keeps each seat's takes and discards as separate lists, so the order of play is
//! rebuilt: the dealer takes first; after each discard, a seat whose next take is a call of
//! that tile from that seat takes it (a pon or kan before a chi), else the next seat draws; a
//! kan's replacement draw follows the kan; the hand ends when the seat due to act has nothing
//! left. A kan's new dora indicator is shown as Tenhou's mjlog shows it: at once for a
//! concealed kan, after the replacement draw for the others (before the seat's next discard,
//! kan or kita). A riichi's stick is laid after its discard unless that discard is won on.
//!
//! A three-player game (`rule.disp` `三…`, three names, or an empty fourth seat) keeps four
//! seat slots, the fourth empty; a kita is `f44` in the seat's discards, followed by its
//! replacement draw in its takes unless another seat wins on the North (§24). A call's
//! marker sits where its giver sits by the seats' offsets modulo 4, as Tenhou writes it, or
//! at the table of three ([`gives`]); a tsumo's points are what its payers pay.
//!
//! What the format does not record ([`lacks`]): the fu of limit hands, the hands shown at a
//! draw, the winner's hand (rebuilt), the seed; Mahjong Soul and other non-Tenhou exports also
//! Tenhou's rules (room `mahjongsoul` or `other`), and yaku under names Tenhou does not use.
//! Ura dora of 0 han, which Tenhou's export leaves out, are restored for a riichi win, as the
//! mjlog records them.

use serde_json::Value;

use crate::formats::build::{BuildError, Builder, Tile};
use crate::mjlog::{go_type, lacks, Format, GameLog, MeldKind, Un};
use crate::rules::{self, Players};
use crate::tile::{self, KINDS};
use crate::yaku;

/// Tenhou's dan names by `dan` index.
pub(crate) const DAN: [&str; 21] = [
    "新人", "９級", "８級", "７級", "６級", "５級", "４級", "３級", "２級", "１級", "初段", "二段",
    "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
];

/// The tile type of a tenhou.net/6 tile number.
fn tile_of(code: i64) -> Result<Tile, BuildError> {
    let t = match code {
        11..=19 | 21..=29 | 31..=39 => (code / 10 - 1) * 9 + code % 10 - 1,
        41..=47 => 27 + code - 41,
        51..=53 => KINDS as i64 + code - 51,
        _ => return Err(format!("tile number {code}")),
    };
    Ok(t as Tile)
}

fn int(v: &Value, what: &str) -> Result<i64, BuildError> {
    v.as_i64()
        .or_else(|| v.as_f64().filter(|x| x.fract() == 0.0).map(|x| x as i64))
        .ok_or_else(|| format!("{what} is not an integer: {v}"))
}

fn array<'v>(v: &'v Value, what: &str) -> Result<&'v Vec<Value>, BuildError> {
    v.as_array()
        .ok_or_else(|| format!("{what} is not an array"))
}

fn four_ints(v: &Value, what: &str) -> Result<[i32; 4], BuildError> {
    let a = array(v, what)?;
    if a.len() != 4 {
        return Err(format!("{what} has {} values, not 4", a.len()));
    }
    let mut out = [0; 4];
    for (o, x) in out.iter_mut().zip(a) {
        *o = i32::try_from(int(x, what)?).map_err(|_| format!("{what} out of range"))?;
    }
    Ok(out)
}

/// What a Tenhou room's name (`rule.disp`, `鳳南喰赤`) says: its GO type, or that it is
/// not a Tenhou room.
pub(crate) struct Rules {
    pub(crate) go: u32,
    pub(crate) tenhou: bool,
    pub(crate) three: bool,
}

fn rules(top: &Value) -> Rules {
    let rule = &top["rule"];
    let disp = rule["disp"].as_str().unwrap_or("");
    let aka_fields = ["aka", "aka51", "aka52", "aka53"]
        .iter()
        .filter_map(|k| rule[*k].as_i64())
        .collect::<Vec<_>>();
    let red = if aka_fields.is_empty() {
        disp.contains('赤')
    } else {
        aka_fields.iter().any(|&a| a > 0)
    };
    rules_of_disp(disp, red)
}

/// The rules a room name says, `red` whether the game has red fives.
pub(crate) fn rules_of_disp(disp: &str, red: bool) -> Rules {
    let three = disp.starts_with('三') || disp.contains("三人") || disp.starts_with("3");
    let body = disp.trim_start_matches('三');
    let room = body.chars().next();
    let tenhou = matches!(room, Some('般' | '上' | '特' | '鳳'));
    let mut go = match room {
        Some('鳳') => 0xA0,
        Some('特') => 0x20,
        Some('上') => 0x80,
        _ => 0,
    };
    if body.contains('南') || disp.contains("South") {
        go |= go_type::HANCHAN;
    }
    if tenhou && !body.contains('喰') {
        go |= 0x04;
    }
    if !red {
        go |= go_type::NO_RED;
    }
    if body.contains('速') {
        go |= go_type::FAST;
    }
    if three {
        go |= go_type::THREE_PLAYER;
    }
    Rules { go, tenhou, three }
}

/// A win's yaku as the mjlog has them: (Tenhou id, han) entries and yakuman ids.
type YakuList = (Vec<(u8, u8)>, Vec<u8>);

/// The yaku list of a win, or `None` when a name is not one Tenhou writes.
fn yaku_of(texts: &[Value]) -> Option<YakuList> {
    let (mut list, mut yakuman) = (Vec::new(), Vec::new());
    for t in texts {
        let t = t.as_str()?;
        let (name, rest) = t.split_once('(')?;
        let id = yaku::YAKU.iter().position(|y| y.name == name)? as u8;
        let rest = rest.strip_suffix(')')?;
        if rest == "役満" {
            yakuman.push(id);
        } else {
            let han: u8 = rest.strip_suffix('飜')?.parse().ok()?;
            list.push((id, han));
        }
    }
    Some((list, yakuman))
}

/// AGARI `ten` (fu, points, limit) from `30符1飜1000点`, `満貫2000-4000点`, `30符3飜2000点∀`,
/// `players` at the table: a tsumo's points are what the payers pay (with three players, the
/// absent seat's share is not paid: `満貫2000-4000点` is 6000).
fn ten_of(text: &str, tsumo: bool, players: Players) -> Result<[i32; 3], BuildError> {
    let payers = players.seats() as i32 - 1;
    let bad = || format!("points text {text:?}");
    let body = text.strip_suffix('∀').unwrap_or(text);
    let all = body.len() != text.len();
    let body = body.strip_suffix('点').ok_or_else(bad)?;
    let digits_at = body.find(|c: char| c.is_ascii_digit()).ok_or_else(bad)?;
    let (fu, limit, amounts) = if let Some((head, rest)) = body.split_once('符') {
        let fu: i32 = head.parse().map_err(|_| bad())?;
        let (_, amounts) = rest.split_once('飜').ok_or_else(bad)?;
        (fu, 0, amounts)
    } else {
        let limit = match &body[..digits_at] {
            "満貫" => 1,
            "跳満" => 2,
            "倍満" => 3,
            "三倍満" => 4,
            "役満" | "数え役満" => 5,
            _ => return Err(bad()),
        };
        (0, limit, &body[digits_at..])
    };
    let nums: Vec<i32> = amounts
        .split('-')
        .map(|x| x.parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let points = match (nums.as_slice(), tsumo, all) {
        ([p], false, false) => *p,
        ([p], true, true) => payers * p,
        ([ko, oya], true, false) => (payers - 1) * ko + oya,
        _ => return Err(bad()),
    };
    Ok([fu, points, limit])
}

/// One item of a take or discard list.
enum Item<'v> {
    Tile(i64),
    Text(&'v str),
}

fn item(v: &Value) -> Result<Item<'_>, BuildError> {
    match v {
        Value::String(s) => Ok(Item::Text(s)),
        _ => Ok(Item::Tile(int(v, "a take or discard")?)),
    }
}

/// A call string taken apart: its marker letter, the marker's place among the tiles, the
/// tiles in order (the marker's first: the called, or for `k` the added then the called).
struct Call {
    marker: char,
    at: usize,
    tiles: Vec<Tile>,
}

fn call_of(text: &str) -> Result<Call, BuildError> {
    let bad = || format!("call {text:?}");
    let mut marker = None;
    let mut tiles = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() {
            if marker.is_some() {
                return Err(bad());
            }
            marker = Some((b[i] as char, tiles.len()));
            i += 1;
            continue;
        }
        let code = text.get(i..i + 2).ok_or_else(bad)?;
        tiles.push(tile_of(code.parse().map_err(|_| bad())?)?);
        i += 2;
    }
    let (marker, at) = marker.ok_or_else(bad)?;
    Ok(Call { marker, at, tiles })
}

/// The seat a call's tile came from, by the marker's place (first: the left seat; second:
/// across; last: the right seat).
fn from_seat(who: u8, call: &Call) -> Result<u8, BuildError> {
    let slots = match call.marker {
        'k' => call.tiles.len() - 1,
        _ => call.tiles.len(),
    };
    let rel = match call.at {
        0 => 3,
        1 => 2,
        a if a + 1 == slots => 1,
        _ => return Err("a call marker out of place".into()),
    };
    Ok((who + rel) % 4)
}

/// Whether seat `discarder` may have given `who` the tile of `call` (a pon or daiminkan) by
/// its marker's place. With three players the place is that of the seats' offsets modulo 4,
/// as Tenhou's export writes it (seat 0's call from seat 2 is marked across), or that of the
/// table of three (the seat before is the left one, the seat after the right one), as some
/// other exports write it.
fn gives(who: u8, call: &Call, discarder: u8, seats: u8) -> bool {
    let Ok(from) = from_seat(who, call) else {
        return false;
    };
    if from == discarder {
        return true;
    }
    seats == 3
        && match (from + 4 - who) % 4 {
            1 => discarder == (who + 1) % 3,
            3 => discarder == (who + 2) % 3,
            _ => false,
        }
}

/// One hand's take and discard lists.
struct Lists<'v> {
    /// Seats at the table (a three-player game's fourth lists are empty).
    seats: u8,
    takes: [&'v [Value]; 4],
    discards: [&'v [Value]; 4],
}

/// Where each seat is in its lists, and the tile each seat last drew.
#[derive(Clone)]
struct Walk {
    tp: [usize; 4],
    dp: [usize; 4],
    drawn: [Option<Tile>; 4],
}

/// Which list an item of the order of play comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    Takes,
    Discards,
}

/// The tile type of a discard item (`60` the tile just drawn; `r` a riichi declaration).
fn discard_tile(v: &Value, drawn: Option<Tile>) -> Option<Tile> {
    let code = match v {
        Value::String(t) => t.strip_prefix('r')?.parse().ok()?,
        _ => v.as_i64()?,
    };
    match code {
        60 => drawn,
        c => tile_of(c).ok(),
    }
}

impl Lists<'_> {
    fn over(&self, w: &Walk) -> bool {
        (0..4).all(|s| w.tp[s] == self.takes[s].len() && w.dp[s] == self.discards[s].len())
    }

    /// `seat` draws its next take (a number), then acts.
    fn draw_then_act(&self, w: &mut Walk, seat: u8, seq: &mut Vec<(u8, List)>) -> bool {
        let s = usize::from(seat);
        let Some(Value::Number(n)) = self.takes[s].get(w.tp[s]) else {
            return false;
        };
        w.drawn[s] = n.as_i64().and_then(|c| tile_of(c).ok());
        w.tp[s] += 1;
        seq.push((seat, List::Takes));
        self.act(w, seat, seq)
    }

    /// `seat`'s next discard item: a discard (then the other seats' calls, or the next
    /// seat's draw), a kan (then its replacement draw), or nothing left (the hand ended).
    fn act(&self, w: &mut Walk, seat: u8, seq: &mut Vec<(u8, List)>) -> bool {
        let s = usize::from(seat);
        let Some(v) = self.discards[s].get(w.dp[s]) else {
            return self.over(w);
        };
        if let Value::String(t) = v {
            if !t.starts_with('r') {
                // A concealed or added kan, or a kita (`f44`): a replacement draw follows,
                // unless the added tile or the North is won on (the hand ends).
                w.dp[s] += 1;
                seq.push((seat, List::Discards));
                if w.tp[s] == self.takes[s].len() {
                    return self.over(w);
                }
                return self.draw_then_act(w, seat, seq);
            }
        }
        let Some(t) = discard_tile(v, w.drawn[s]) else {
            return false;
        };
        w.dp[s] += 1;
        w.drawn[s] = None;
        seq.push((seat, List::Discards));
        self.after_discard(w, seat, t, seq)
    }

    /// After `seat` discards `t`: each seat that may call it (a pon or kan first), tried in
    /// turn; then no call.
    fn after_discard(&self, w: &mut Walk, seat: u8, t: Tile, seq: &mut Vec<(u8, List)>) -> bool {
        let mut callers: Vec<(u8, bool)> = Vec::new();
        for d in 1..self.seats {
            let c = (seat + d) % self.seats;
            let Some(Value::String(text)) = self.takes[usize::from(c)].get(w.tp[usize::from(c)])
            else {
                continue;
            };
            let Ok(call) = call_of(text) else { continue };
            if call.tiles.get(call.at) != Some(&t) {
                continue;
            }
            match call.marker {
                'c' if d == 1 => callers.push((c, false)),
                'p' | 'm' if gives(c, &call, seat, self.seats) => callers.push((c, true)),
                _ => {}
            }
        }
        callers.sort_by_key(|&(_, pon)| !pon);
        for (c, _) in callers {
            let (saved, len) = (w.clone(), seq.len());
            let cs = usize::from(c);
            let kan = matches!(&self.takes[cs][w.tp[cs]], Value::String(t) if t.contains('m'));
            w.tp[cs] += 1;
            seq.push((c, List::Takes));
            let ok = if kan {
                // The daiminkan's slot in the discards holds a 0; the replacement draw follows.
                // When that draw wins, the hand ends before any discard, and the lists may
                // hold no 0 for the kan: the seat's discards end there.
                match self.discards[cs].get(w.dp[cs]) {
                    Some(v) if v.as_i64() == Some(0) => {
                        w.dp[cs] += 1;
                        seq.push((c, List::Discards));
                        self.draw_then_act(w, c, seq)
                    }
                    None => self.draw_then_act(w, c, seq),
                    Some(_) => false,
                }
            } else {
                self.act(w, c, seq)
            };
            if ok {
                return true;
            }
            *w = saved;
            seq.truncate(len);
        }
        if self.over(w) {
            return true;
        }
        self.draw_then_act(w, (seat + 1) % self.seats, seq)
    }
}

/// The order of play of a hand: each item of the lists, in the order it happened. A call
/// that the lists allow at more than one discard is tried at the first, and at a later one
/// when the first leaves the lists inconsistent.
fn order(lists: &Lists, dealer: u8) -> Result<Vec<(u8, List)>, BuildError> {
    let mut w = Walk {
        tp: [0; 4],
        dp: [0; 4],
        drawn: [None; 4],
    };
    let mut seq = Vec::new();
    if lists.draw_then_act(&mut w, dealer, &mut seq) {
        Ok(seq)
    } else {
        Err("no order of play uses every take and discard".into())
    }
}

/// Reads one tenhou.net/6 game into `log`.
pub(crate) fn read(top: &Value, log: &mut GameLog) -> Result<(), BuildError> {
    let hands = array(&top["log"], "log")?;
    let r = rules(top);
    let names: Vec<String> = top["name"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|n| n.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    // Tenhou keeps four seat slots for a three-player game: the fourth empty, its score 0.
    let empty_fourth = hands
        .first()
        .and_then(|h| h.get(13))
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty);
    let go = if r.three || names.len() == 3 || empty_fourth {
        r.go | go_type::THREE_PLAYER
    } else {
        r.go
    };
    let mut lacks = lacks::SOME_FU | lacks::WIN_HAND | lacks::SHOWN_HANDS;
    let mut rules_text = None;
    let room = if r.tenhou {
        None
    } else {
        lacks |= lacks::RULES;
        let disp = top["rule"]["disp"].as_str().unwrap_or("");
        rules_text = (!disp.is_empty()).then(|| disp.to_string());
        Some(
            if disp.contains("の間") || disp.contains("Room") || top["ver"].is_string() {
                "mahjongsoul"
            } else if disp == "engine" {
                // An engine's game `haifu convert` wrote, which had no rule text of its own.
                "engine"
            } else {
                "other"
            },
        )
    };
    let dan: Option<[i32; 4]> = top["dan"].as_array().and_then(|a| {
        let v: Vec<i32> = a
            .iter()
            .filter_map(|d| d.as_str().and_then(|d| DAN.iter().position(|&x| x == d)))
            .map(|i| i as i32)
            .collect();
        (r.tenhou && v.len() == 4).then(|| [v[0], v[1], v[2], v[3]])
    });
    let rate: Option<[f64; 4]> = top["rate"].as_array().and_then(|a| {
        let v: Vec<f64> = a.iter().filter_map(Value::as_f64).collect();
        (r.tenhou && v.len() == 4).then(|| [v[0], v[1], v[2], v[3]])
    });
    let sx = top["sx"].as_array().and_then(|a| {
        let v: Vec<String> = a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect();
        <[String; 4]>::try_from(v).ok()
    });
    let mut un = Un {
        names: Default::default(),
        dan,
        rate,
        sx,
    };
    for (s, n) in names.iter().take(4).enumerate() {
        un.names[s] = Some(n.clone());
    }
    let owari = match top["sc"].as_array() {
        Some(sc) if sc.len() == 8 => Some(
            sc.iter()
                .enumerate()
                .map(|(i, v)| {
                    let x = v.as_f64().ok_or("sc holds a value that is not a number")?;
                    Ok(if i % 2 == 0 { x / 100.0 } else { x })
                })
                .collect::<Result<Vec<f64>, String>>()?,
        ),
        _ => {
            lacks |= lacks::FINAL_SCORES;
            None
        }
    };
    let game_id = top["ref"].as_str().and_then(crate::input::find_log_id);
    log.origin.format = Format::Tenhou6;
    log.origin.room = room;
    log.origin.game_id = game_id;
    log.origin.rules_text = rules_text;
    let mut b = Builder::new(log, go, un);
    let mut yaku_lacking = false;
    for (i, h) in hands.iter().enumerate() {
        hand(&mut b, h, r.tenhou, &mut yaku_lacking).map_err(|e| format!("log[{i}]: {e}"))?;
    }
    b.finish(owari)?;
    if yaku_lacking {
        log.origin.lacks |= lacks::WIN_VALUE;
    }
    log.origin.lacks |= lacks;
    Ok(())
}

fn hand(
    b: &mut Builder,
    h: &Value,
    tenhou: bool,
    yaku_lacking: &mut bool,
) -> Result<(), BuildError> {
    let h = array(h, "a hand")?;
    if h.len() < 17 {
        return Err(format!("{} elements, not 17", h.len()));
    }
    let head = array(&h[0], "the hand's head")?;
    if head.len() < 3 {
        return Err("the hand's head has fewer than 3 values".into());
    }
    let small = |v: &Value, what: &str| -> Result<u8, BuildError> {
        u8::try_from(int(v, what)?).map_err(|_| format!("{what} out of range"))
    };
    let round = small(&head[0], "the round")?;
    let honba = small(&head[1], "honba")?;
    let kyotaku = small(&head[2], "the riichi sticks")?;
    let scores = four_ints(&h[1], "the scores")?;
    let tiles = |v: &Value, what: &str| -> Result<Vec<Tile>, BuildError> {
        array(v, what)?
            .iter()
            .map(|x| tile_of(int(x, what)?))
            .collect()
    };
    let dora = tiles(&h[2], "the dora indicators")?;
    let ura = tiles(&h[3], "the ura indicators")?;
    let mut start: [Vec<Tile>; 4] = Default::default();
    for (s, hai) in start.iter_mut().enumerate() {
        *hai = tiles(&h[4 + 3 * s], "a starting hand")?;
    }
    let first = *dora.first().ok_or("no dora indicator")?;
    let oya = round % 4;
    b.start_hand(round, honba, kyotaku, scores, oya, &start, first)?;
    let lists = Lists {
        seats: b.players().seats() as u8,
        takes: [0, 1, 2, 3].map(|s| h[5 + 3 * s].as_array().map_or(&[][..], Vec::as_slice)),
        discards: [0, 1, 2, 3].map(|s| h[6 + 3 * s].as_array().map_or(&[][..], Vec::as_slice)),
    };
    let result = array(&h[16], "the result")?;
    let name = result
        .first()
        .and_then(Value::as_str)
        .ok_or("the result has no name")?;
    // The seat whose discard was won on (its riichi, if that discard declared one, lays no
    // stick).
    let ron_from: Option<u8> = (name == "和了")
        .then(|| {
            result.get(2).and_then(|info| {
                let who = info.get(0)?.as_i64()?;
                let from = info.get(1)?.as_i64()?;
                (who != from).then_some(from as u8)
            })
        })
        .flatten();
    let seq = order(&lists, oya)?;
    let mut riichi = [false; 4];
    let (mut tp, mut dp) = ([0usize; 4], [0usize; 4]);
    // Kans whose new indicator is still to show: Tenhou's mjlog shows a daiminkan's or added
    // kan's before the seat's next discard or after its next kan, a concealed kan's at once.
    let mut pending = 0;
    let show = |b: &mut Builder, n: &mut usize| -> Result<(), BuildError> {
        for _ in 0..std::mem::take(n) {
            if let Some(&t) = dora.get(b.dora_count()) {
                b.dora(t)?;
            }
        }
        Ok(())
    };
    let mut last_discarder = oya;
    for (i, &(seat, list)) in seq.iter().enumerate() {
        let s = usize::from(seat);
        if list == List::Takes {
            let v = &lists.takes[s][tp[s]];
            tp[s] += 1;
            match item(v)? {
                Item::Tile(code) => b.draw(seat, tile_of(code)?)?,
                Item::Text(text) => {
                    let call = call_of(text)?;
                    let kind = match call.marker {
                        'c' => MeldKind::Chi,
                        'p' => MeldKind::Pon,
                        _ => MeldKind::Daiminkan,
                    };
                    let mut rest = call.tiles.clone();
                    rest.remove(call.at);
                    b.call(seat, kind, last_discarder, call.tiles[call.at], &rest)?;
                    if kind == MeldKind::Daiminkan {
                        show(b, &mut pending)?;
                        pending = 1;
                    }
                }
            }
            continue;
        }
        let v = &lists.discards[s][dp[s]];
        dp[s] += 1;
        // A discard: whether it declares riichi, and its tile number (60: the tile just drawn).
        let (declares, code) = match item(v)? {
            Item::Tile(0) => continue, // a daiminkan's slot
            Item::Tile(code) => (false, code),
            Item::Text(text) if text.starts_with('r') => (
                true,
                text[1..].parse().map_err(|_| format!("discard {text:?}"))?,
            ),
            Item::Text(text) => {
                let call = call_of(text)?;
                match call.marker {
                    'a' => {
                        b.ankan(seat, tile::type_kind(usize::from(call.tiles[0])))?;
                        // An earlier kan's indicator, then this one's.
                        pending += 1;
                        show(b, &mut pending)?;
                    }
                    'k' => {
                        b.kakan(seat, call.tiles[call.at])?;
                        last_discarder = seat;
                        show(b, &mut pending)?;
                        pending = 1;
                    }
                    'f' if call.tiles == [rules::NORTH as Tile] && text.len() == 3 => {
                        b.kita(seat)?;
                        last_discarder = seat;
                        // A daiminkan's or added kan's indicator shows at the kita, before
                        // its replacement draw (as the mjlog has it).
                        show(b, &mut pending)?;
                    }
                    _ => return Err(format!("seat {seat} discards call {text:?}")),
                }
                continue;
            }
        };
        show(b, &mut pending)?;
        if declares {
            b.reach(seat);
            riichi[s] = true;
        }
        b.discard(
            seat,
            (code != 60).then(|| tile_of(code)).transpose()?,
            code == 60,
        )?;
        last_discarder = seat;
        // A riichi discard won on (or by three: an abortive draw) lays no stick.
        let won_on = i + 1 == seq.len() && (ron_from == Some(seat) || name == "三家和了");
        if declares && !won_on {
            b.reach_accepted(seat);
        }
    }
    show(b, &mut pending)?;
    match name {
        "和了" => {
            let mut i = 1;
            while i + 1 < result.len() {
                let deltas = four_ints(&result[i], "a win's deltas")?;
                let info = array(&result[i + 1], "a win")?;
                if info.len() < 4 {
                    return Err("a win has fewer than 4 fields".into());
                }
                let who = u8::try_from(int(&info[0], "the winner")?)
                    .ok()
                    .filter(|&s| s < 4)
                    .ok_or("winner out of range")?;
                let from = u8::try_from(int(&info[1], "the discarder")?)
                    .ok()
                    .filter(|&s| s < 4)
                    .ok_or("discarder out of range")?;
                let pao = u8::try_from(int(&info[2], "the liable seat")?)
                    .ok()
                    .filter(|&s| s < 4)
                    .ok_or("liable seat out of range")?;
                let text = info[3].as_str().ok_or("the points are not a string")?;
                let ten = ten_of(text, who == from, b.players())?;
                let riichi = riichi[usize::from(who)];
                let (mut list, yakuman) = match yaku_of(&info[4..]) {
                    Some(y) => y,
                    None if tenhou => {
                        return Err(format!("a yaku Tenhou does not name: {:?}", &info[4..]))
                    }
                    None => {
                        *yaku_lacking = true;
                        (Vec::new(), Vec::new())
                    }
                };
                if riichi
                    && yakuman.is_empty()
                    && !*yaku_lacking
                    && !list.iter().any(|&(id, _)| id == yaku::URA_DORA)
                {
                    list.push((yaku::URA_DORA, 0));
                }
                b.win(
                    who,
                    from,
                    deltas,
                    ten,
                    list,
                    yakuman,
                    &ura,
                    riichi,
                    (pao != who).then_some(pao),
                )?;
                i += 2;
            }
            if !b.hand_over() {
                return Err("和了 without a win".into());
            }
        }
        _ => {
            let kind = match name {
                "流局" | "全員聴牌" | "全員不聴" => None,
                "流し満貫" => Some("nm"),
                "九種九牌" => Some("yao9"),
                "四家立直" => Some("reach4"),
                "三家和了" => Some("ron3"),
                "四槓散了" => Some("kan4"),
                "四風連打" => Some("kaze4"),
                _ => return Err(format!("result {name:?}")),
            };
            let deltas = match result.get(1) {
                Some(d) => four_ints(d, "the draw's deltas")?,
                None => [0; 4],
            };
            b.ryuukyoku(kind, deltas, [false; 4])?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points text of each kind of win, with the totals the mjlog's `ten` carries.
    #[test]
    fn points_texts() {
        let four = Players::Four;
        assert_eq!(ten_of("30符1飜1000点", false, four).unwrap(), [30, 1000, 0]);
        assert_eq!(
            ten_of("20符3飜700-1300点", true, four).unwrap(),
            [20, 2700, 0]
        );
        assert_eq!(
            ten_of("30符4飜3900点∀", true, four).unwrap(),
            [30, 11700, 0]
        );
        assert_eq!(
            ten_of("跳満3000-6000点", true, four).unwrap(),
            [0, 12000, 2]
        );
        assert_eq!(ten_of("役満32000点", false, four).unwrap(), [0, 32000, 5]);
        assert!(ten_of("30符1飜1000", false, four).is_err());
        assert!(ten_of("1000-2000点", false, four).is_err());
        // Three players: the absent seat's share is not paid (Tenhou's own export of
        // 2021010217gm-00b9-0000-3eb2e915, whose mjlog has `ten` 2000, 7800 and 6000).
        let three = Players::Three;
        assert_eq!(
            ten_of("30符2飜500-1000点", true, three).unwrap(),
            [30, 1500, 0]
        );
        assert_eq!(
            ten_of("30符4飜3900点∀", true, three).unwrap(),
            [30, 7800, 0]
        );
        assert_eq!(
            ten_of("満貫2000-4000点", true, three).unwrap(),
            [0, 6000, 1]
        );
        assert_eq!(ten_of("満貫12000点", false, three).unwrap(), [0, 12000, 1]);
    }

    /// A pon the lists allow at two discards of the same tile: Tenhou's viewer excerpt
    /// `confusing_nakis_2`. Seat 1 discards 4z twice; seat 0's pon of it must be of the
    /// second, since seat 1 pons seat 3's 1p in between (its second take), which the first
    /// choice leaves no room for. Worked by hand: 0 draws 1s and discards it (60); 1 draws 9p,
    /// discards 4z; 2 draws 1z, discards it; 3 draws 1p, discards it; 1 pons it (2: across),
    /// discards 4z; 0 pons that (from the right) and discards 1m; 1 draws 9p, …
    #[test]
    fn a_call_at_the_later_of_two_discards() {
        let v: Value = serde_json::from_str(
            r#"[[31, "4646p46", "4545p45", "18p1818"], [60, 11, 41, 17],
                [29, "21p2121", 29, "2222p22", 43, "23p2323"], [46, 46, 45, 45, 60, 29],
                [41, 22, 35, 47], [60, 60, 18, "r18"],
                [21, 23], [60, 60]]"#,
        )
        .unwrap();
        let l = |i: usize| v[i].as_array().unwrap().as_slice();
        let lists = Lists {
            seats: 4,
            takes: [l(0), l(2), l(4), l(6)],
            discards: [l(1), l(3), l(5), l(7)],
        };
        let seq = order(&lists, 0).unwrap();
        use List::{Discards as D, Takes as T};
        assert_eq!(
            seq[..14],
            [
                (0, T),
                (0, D),
                (1, T),
                (1, D),
                (2, T),
                (2, D),
                (3, T),
                (3, D),
                (1, T),
                (1, D),
                (0, T),
                (0, D),
                (1, T),
                (1, D),
            ]
        );
        // Every take and discard is placed once: 16 takes, 16 discards.
        assert_eq!(seq.len(), 32);
        // Lists no order explains are refused.
        let bad = Lists {
            seats: 4,
            takes: [l(0), l(4), l(2), l(6)],
            discards: [l(1), l(3), l(5), l(7)],
        };
        assert!(order(&bad, 0).is_err());
    }

    /// A daiminkan whose replacement draw wins: the lists as Tenhou may write them, with no 0
    /// for the kan in the caller's discards since no discard follows. Worked by hand: 0 draws
    /// 1s and discards 6z; 1 draws 6z and discards 1p; 2 daiminkans that 1p (its take
    /// `m21212121`, the marker first: from the left, seat 1), draws its replacement 5m, and the
    /// hand ends (a win). With the 0 the order is the same but for the 0's slot.
    #[test]
    fn a_daiminkan_whose_replacement_draw_wins() {
        for kan_slot in [false, true] {
            let discards2 = if kan_slot { "[0]" } else { "[]" };
            let v: Value = serde_json::from_str(&format!(
                r#"[[31], [46], [46], [21], ["m21212121", 15], {discards2}, [], []]"#
            ))
            .unwrap();
            let l = |i: usize| v[i].as_array().unwrap().as_slice();
            let lists = Lists {
                seats: 4,
                takes: [l(0), l(2), l(4), l(6)],
                discards: [l(1), l(3), l(5), l(7)],
            };
            let seq = order(&lists, 0).unwrap();
            use List::{Discards as D, Takes as T};
            let mut want = vec![(0, T), (0, D), (1, T), (1, D), (2, T)];
            if kan_slot {
                want.push((2, D));
            }
            want.push((2, T));
            assert_eq!(seq, want, "with the 0: {kan_slot}");
        }
        // A kan with some other item where its 0 should be is no order of play.
        let v: Value =
            serde_json::from_str(r#"[[31], [46], [46], [21], ["m21212121", 15], [17], [], []]"#)
                .unwrap();
        let l = |i: usize| v[i].as_array().unwrap().as_slice();
        let lists = Lists {
            seats: 4,
            takes: [l(0), l(2), l(4), l(6)],
            discards: [l(1), l(3), l(5), l(7)],
        };
        assert!(order(&lists, 0).is_err());
    }

    /// A three-player hand worked by hand (§24): the dealer, seat 0, holds 123p 456p 789p 11s
    /// 9s and a North. It draws 1s, sets the North aside (`f44`: the kita, not of the tile
    /// drawn), draws its replacement 9s and wins: 123p 456p 789p 111s 99s, menzen tsumo,
    /// rinshan kaihou, ittsu and the kita's dora, 5 han, a dealer's mangan, 4000 from each of
    /// the two others (tsumo loss: `満貫4000点∀` is 8000). The fourth seat's lists are empty,
    /// its score 0. Ids: the 1s drawn is copy 2 (74), the North copy 0 (120), the 9s drawn
    /// copy 1 (105).
    pub(crate) const SANMA: &str = r#"{"name":["a","b","c",""],
        "rule":{"disp":"三鳳南喰赤","aka53":1,"aka52":1,"aka51":1},
        "log":[[[0,0,0],[35000,35000,35000,0],[45],[],
        [21,22,23,24,25,26,27,28,29,31,31,39,44],[31,39],["f44"],
        [11,11,11,19,19,19,41,41,41,42,42,42,43],[],[],
        [32,32,32,33,33,33,34,34,34,36,36,36,37],[],[],
        [],[],[],
        ["和了",[8000,-4000,-4000,0],[0,0,0,"満貫4000点∀","門前清自摸和(1飜)","嶺上開花(1飜)","一気通貫(2飜)","ドラ(1飜)"]]]]}"#;

    #[test]
    fn a_three_player_hand_with_a_kita() {
        let mut log = GameLog::default();
        crate::formats::decode_into(SANMA.as_bytes(), &mut log).unwrap();
        assert_eq!(
            log.go_type,
            Some(0xA0 | go_type::HANCHAN | go_type::THREE_PLAYER)
        );
        crate::formats::build::check_sanma_hand(&log);
        // Tenhou's `ten`: what the payers pay.
        let Some(crate::mjlog::Event::Agari(a)) = log
            .events
            .iter()
            .find(|e| matches!(e, crate::mjlog::Event::Agari(_)))
        else {
            panic!("a win")
        };
        assert_eq!(a.ten, [0, 8000, 1]);
        // A tile no three-player game has is refused.
        let two_man = SANMA.replacen("[21,22,23", "[12,22,23", 1);
        let err = crate::formats::decode_into(two_man.as_bytes(), &mut log).unwrap_err();
        assert!(
            err.detail.contains("a 2m in a three-player game"),
            "{err:?}"
        );
    }

    /// A call's marker in a three-player game: Tenhou's place (offsets modulo 4: seat 0's pon
    /// from seat 2 is marked across) or the table of three's (seat 2 is seat 0's left).
    #[test]
    fn three_player_call_markers() {
        let across = call_of("42p4242").unwrap();
        assert!(gives(0, &across, 2, 3) && !gives(0, &across, 1, 3));
        let left = call_of("p424242").unwrap();
        assert!(gives(0, &left, 2, 3) && !gives(0, &left, 2, 4));
        assert!(gives(1, &left, 0, 3) && gives(1, &left, 0, 4));
        let right = call_of("4242p42").unwrap();
        assert!(gives(2, &right, 0, 3) && !gives(2, &right, 1, 3));
    }

    #[test]
    fn calls_and_their_seats() {
        let c = call_of("p121212").unwrap();
        assert_eq!((c.marker, c.at, from_seat(0, &c).unwrap()), ('p', 0, 3));
        let c = call_of("1212p12").unwrap();
        assert_eq!(from_seat(0, &c).unwrap(), 1);
        let c = call_of("12p1212").unwrap();
        assert_eq!(from_seat(1, &c).unwrap(), 3);
        let c = call_of("121212m12").unwrap();
        assert_eq!(from_seat(2, &c).unwrap(), 3);
        // An added kan: `k`, the added tile (a red 5p), then the pon's called tile.
        let c = call_of("1515k5215").unwrap();
        assert_eq!((c.at, c.tiles[c.at], from_seat(0, &c).unwrap()), (2, 35, 1));
        assert_eq!(call_of("c275153").unwrap().tiles, vec![15, 34, 36]);
        assert!(call_of("p1212").is_ok() && call_of("pp121212").is_err());
        assert_eq!(crate::formats::build::tile_text(tile_of(53).unwrap()), "0s");
    }
}
