//! mjai JSON lines → the decoded events of one game (through [`Builder`]).
//!
//! Mortal's dialect (what Mortal-style arenas, mjai-reviewer's converter and RiichiEnv write)
//! is read whole: `start_game`, `start_kyoku` (`bakaze`, `kyoku`, `honba`, `kyotaku`, `oya`,
//! `scores`, `tehais`, `dora_marker`), `tsumo`, `dahai`, `chi`, `pon`, `daiminkan`, `kakan`,
//! `ankan`, `dora`, `reach`, `reach_accepted`, `hora` (`deltas`, `ura_markers`), `ryukyoku`
//! (`deltas`), `end_kyoku`, `end_game`. A line may hold an array of events (mjai.app's
//! protocol logs). A terminal record without `deltas` (akochan's dialect) takes them from the
//! next `start_kyoku`'s or `end_game`'s scores, when it is its hand's only one.
//!
//! Refused, with the line: a hidden tile `?` (one player's view), a `start_kyoku` without
//! `tehais` (the original mjai's per-player dialect), a line that is not JSON.
//!
//! What the format does not record ([`lacks`]): yaku, fu, han, points (Tenhou's `ten`); the
//! type of an abortive draw (a draw that leaves the live wall unexhausted), and all-tenpai
//! against all-noten; the rules beyond red fives and game length; dan, rate; final scores and
//! uma. An exhaustive draw whose payments are not tenpai payments is a nagashi mangan (`nm`).
//! Red fives: `aka_flag` where written, else whether any red five appears.

use std::borrow::Cow;

use serde::Deserialize;

use crate::formats::build::{BuildError, Builder, Tile};
use crate::formats::scan::{two_forms, Scan};
use crate::mjlog::{go_type, lacks, Format, GameLog, MeldKind, Un};
use crate::rules::{self, Players};
use crate::tile;

/// One mjai event: every field any event type has, borrowed from the line where it can be
/// (a string with escapes is copied); fields an event does not have are absent.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub(crate) struct Ev<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    actor: Option<u8>,
    target: Option<u8>,
    #[serde(borrow)]
    pai: Option<Cow<'a, str>>,
    #[serde(borrow)]
    consumed: Option<Vec<Cow<'a, str>>>,
    tsumogiri: Option<bool>,
    deltas: Option<Vec<i64>>,
    scores: Option<Vec<i64>>,
    #[serde(borrow)]
    tehais: Option<Vec<Vec<Cow<'a, str>>>>,
    #[serde(borrow)]
    dora_marker: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "uradora_markers")]
    ura_markers: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow)]
    bakaze: Option<Cow<'a, str>>,
    kyoku: Option<u8>,
    honba: Option<u8>,
    kyotaku: Option<u8>,
    oya: Option<u8>,
    #[serde(borrow)]
    names: Option<Vec<Cow<'a, str>>>,
    kyoku_first: Option<u8>,
    aka_flag: Option<bool>,
}

/// A draw or a discard, read by [`quick_line`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Quick {
    Tsumo(u8, Tile),
    Dahai(u8, Tile, bool),
}

/// Nine lines in ten, in the exact bytes Mortal, mjai-reviewer and `haifu convert` write them
/// (`{"type":"tsumo","actor":0,"pai":"4p"}`, `{"type":"dahai","actor":0,"pai":"W",
/// "tsumogiri":false}` without the space): the event without building an [`Ev`]. `None` for
/// any other line (another key order, spaces, a tile not named as mjai names them, a seat
/// beyond 3), which [`scan_line`] or serde then read, giving the same event or the error.
fn quick_line(line: &[u8]) -> Option<Quick> {
    let (tsumo, actor, rest) = two_forms(
        line,
        b"{\"type\":\"tsumo\",\"actor\":",
        b"{\"type\":\"dahai\",\"actor\":",
        b",\"pai\":\"",
    )?;
    if actor > 3 {
        return None;
    }
    let close = rest.iter().take(4).position(|&c| c == b'"')?;
    let tile = tile_of_bytes(&rest[..close])?;
    match (tsumo, &rest[close + 1..]) {
        (true, b"}") => Some(Quick::Tsumo(actor, tile)),
        (false, b",\"tsumogiri\":true}") => Some(Quick::Dahai(actor, tile, true)),
        (false, b",\"tsumogiri\":false}") => Some(Quick::Dahai(actor, tile, false)),
        _ => None,
    }
}

/// The usual line read fast: a flat object of known keys whose strings hold no escape, every
/// value of its field's type. `None` for anything else (an unknown key with an object value,
/// an escape, a duplicate key, a number out of range, …), which serde then reads, so that
/// both give the same event or serde the error.
fn scan_line(text: &str) -> Option<Ev<'_>> {
    /// A string borrowed from the line (a tile, a wind, a name).
    fn borrowed<'a>(s: &mut Scan<'a>) -> Option<Cow<'a, str>> {
        s.string().map(Cow::Borrowed)
    }
    let mut sc = Scan::new(text);
    let mut e = Ev::default();
    let seen = sc.object(|sc, key| {
        Some(match key {
            "type" => {
                e.kind = Cow::Borrowed(sc.string()?);
                0
            }
            "actor" => {
                e.actor = sc.opt(Scan::small)?;
                1
            }
            "target" => {
                e.target = sc.opt(Scan::small)?;
                2
            }
            "pai" => {
                e.pai = sc.opt(borrowed)?;
                3
            }
            "consumed" => {
                e.consumed = sc.opt(|s| s.list(borrowed))?;
                4
            }
            "tsumogiri" => {
                e.tsumogiri = sc.opt(Scan::boolean)?;
                5
            }
            "deltas" => {
                e.deltas = sc.opt(|s| s.list(Scan::int))?;
                6
            }
            "scores" => {
                e.scores = sc.opt(|s| s.list(Scan::int))?;
                7
            }
            "tehais" => {
                e.tehais = sc.opt(|s| s.list(|s| s.list(borrowed)))?;
                8
            }
            "dora_marker" => {
                e.dora_marker = sc.opt(borrowed)?;
                9
            }
            "ura_markers" | "uradora_markers" => {
                e.ura_markers = sc.opt(|s| s.list(borrowed))?;
                10
            }
            "bakaze" => {
                e.bakaze = sc.opt(borrowed)?;
                11
            }
            "kyoku" => {
                e.kyoku = sc.opt(Scan::small)?;
                12
            }
            "honba" => {
                e.honba = sc.opt(Scan::small)?;
                13
            }
            "kyotaku" => {
                e.kyotaku = sc.opt(Scan::small)?;
                14
            }
            "oya" => {
                e.oya = sc.opt(Scan::small)?;
                15
            }
            "names" => {
                e.names = sc.opt(|s| s.list(borrowed))?;
                16
            }
            "kyoku_first" => {
                e.kyoku_first = sc.opt(Scan::small)?;
                17
            }
            "aka_flag" => {
                e.aka_flag = sc.opt(Scan::boolean)?;
                18
            }
            _ => {
                sc.skip_simple()?;
                32
            }
        })
    })?;
    sc.ws();
    // No type: serde's error.
    (seen & 1 != 0 && sc.at_end()).then_some(e)
}

/// The events of a line: one, or an array of them (mjai.app's protocol logs).
fn line_events(line: &[u8]) -> serde_json::Result<Vec<Ev<'_>>> {
    match line.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'[') => serde_json::from_slice(line),
        _ => serde_json::from_slice(line).map(|e| vec![e]),
    }
}

/// The tile type of an mjai tile name.
fn tile_of(name: &str) -> Result<Tile, BuildError> {
    if name == "?" {
        return Err("a hidden tile \"?\" (a log of one player's view cannot be replayed)".into());
    }
    tile_of_bytes(name.as_bytes()).ok_or_else(|| format!("tile {name:?}"))
}

/// The tile type of an mjai tile name's bytes, `None` for anything else.
fn tile_of_bytes(name: &[u8]) -> Option<Tile> {
    let suit = |c: u8| match c {
        b'm' => Some(0),
        b'p' => Some(1),
        b's' => Some(2),
        _ => None,
    };
    match *name {
        [n @ b'1'..=b'9', s] => suit(s).map(|s| s * 9 + (n - b'1')),
        [b'E'] => Some(27),
        [b'S'] => Some(28),
        [b'W'] => Some(29),
        [b'N'] => Some(30),
        [b'P'] => Some(31),
        [b'F'] => Some(32),
        [b'C'] => Some(33),
        [b'5', s, b'r'] => suit(s).map(|s| 34 + s),
        _ => None,
    }
}

fn tiles_of(v: &[Cow<'_, str>]) -> Result<Vec<Tile>, BuildError> {
    v.iter().map(|t| tile_of(t)).collect()
}

fn need<T: Copy>(v: Option<T>, what: &str) -> Result<T, BuildError> {
    v.ok_or_else(|| format!("no {what}"))
}

fn seat(v: Option<u8>, what: &str) -> Result<u8, BuildError> {
    let s = need(v, what)?;
    if s < 4 {
        Ok(s)
    } else {
        Err(format!("{what} {s} is not a seat"))
    }
}

/// A value per seat: four, or (three players) three, the fourth seat's 0 then added.
fn per_seat(v: Option<&Vec<i64>>, what: &str, players: Players) -> Result<[i32; 4], BuildError> {
    let a = v.ok_or_else(|| format!("no {what}"))?;
    let n = players.seats();
    if a.len() != n && !(n == 3 && a.len() == 4 && a[3] == 0) {
        return Err(format!("{what} has {} values, not {n}", a.len()));
    }
    let mut out = [0; 4];
    for (o, &x) in out.iter_mut().zip(a) {
        *o = i32::try_from(x).map_err(|_| format!("{what} holds {x}"))?;
    }
    Ok(out)
}

/// Whether exhaustive-draw payments are tenpai payments (else a nagashi mangan's).
fn tenpai_payments(deltas: &[i32; 4], players: Players) -> bool {
    players.noten_deltas(deltas.map(|d| d > 0)) == *deltas
}

/// A terminal record waiting for its deltas (akochan's dialect).
struct Pending<'e> {
    line: usize,
    event: Ev<'e>,
}

/// One game being read.
struct Reader<'a, 'e> {
    b: Builder<'a>,
    riichi: [bool; 4],
    tsumos: u32,
    pending: Option<Pending<'e>>,
    terminals: u32,
    /// The line being read.
    line: usize,
}

impl<'e> Reader<'_, 'e> {
    fn event(&mut self, e: &Ev<'e>) -> Result<(), BuildError> {
        let kind = e.kind.as_ref();
        match kind {
            "start_kyoku" => {
                let Some(tehais) = &e.tehais else {
                    return Err(
                        "start_kyoku without tehais (the original mjai's per-player dialect)"
                            .into(),
                    );
                };
                // Three hands (the three-player dialect), or four with the fourth empty.
                let three = match tehais.len() {
                    3 => true,
                    4 => tehais[3].is_empty(),
                    _ => return Err("tehais is not four hands, nor three".into()),
                };
                if three {
                    self.b.three_player()?;
                } else if self.b.players() == Players::Three {
                    return Err("four hands dealt in a three-player game".into());
                }
                let mut hands: [Vec<Tile>; 4] = Default::default();
                for (h, t) in hands.iter_mut().zip(tehais) {
                    *h = tiles_of(t)?;
                }
                let players = self.b.players();
                let scores = per_seat(e.scores.as_ref(), "scores", players)?;
                self.settle(Some(scores))?;
                let wind = match e.bakaze.as_deref() {
                    Some("E") => 0,
                    Some("S") => 1,
                    Some("W") => 2,
                    Some("N") => 3,
                    b => return Err(format!("bakaze {b:?}")),
                };
                let kyoku = need(e.kyoku, "kyoku")?;
                if !(1..=4).contains(&kyoku) {
                    return Err(format!("kyoku {kyoku}"));
                }
                let oya = seat(e.oya, "oya")?;
                if oya != kyoku - 1 {
                    return Err(format!("kyoku {kyoku} with dealer seat {oya}"));
                }
                let marker = e.dora_marker.as_deref().ok_or("no dora_marker")?;
                self.b.start_hand(
                    wind * 4 + kyoku - 1,
                    need(e.honba, "honba")?,
                    need(e.kyotaku, "kyotaku")?,
                    scores,
                    oya,
                    &hands,
                    tile_of(marker)?,
                )?;
                self.riichi = [false; 4];
                self.tsumos = 0;
                self.terminals = 0;
            }
            "tsumo" => self.quick(Quick::Tsumo(seat(e.actor, "actor")?, pai(e)?))?,
            "dahai" => {
                let tsumogiri = e.tsumogiri.unwrap_or(false);
                self.quick(Quick::Dahai(seat(e.actor, "actor")?, pai(e)?, tsumogiri))?;
            }
            "chi" | "pon" | "daiminkan" => {
                let meld = match kind {
                    "chi" => MeldKind::Chi,
                    "pon" => MeldKind::Pon,
                    _ => MeldKind::Daiminkan,
                };
                let consumed = tiles_of(e.consumed.as_deref().ok_or("no consumed")?)?;
                self.b.call(
                    seat(e.actor, "actor")?,
                    meld,
                    seat(e.target, "target")?,
                    pai(e)?,
                    &consumed,
                )?;
            }
            "kakan" => self.b.kakan(seat(e.actor, "actor")?, pai(e)?)?,
            "ankan" => {
                let consumed = tiles_of(e.consumed.as_deref().ok_or("no consumed")?)?;
                let first = *consumed.first().ok_or("an ankan with nothing consumed")?;
                self.b
                    .ankan(seat(e.actor, "actor")?, tile::type_kind(usize::from(first)))?;
            }
            "dora" => self
                .b
                .dora(tile_of(e.dora_marker.as_deref().ok_or("no dora_marker")?)?)?,
            "reach" => {
                let who = seat(e.actor, "actor")?;
                self.b.reach(who);
                self.riichi[usize::from(who)] = true;
            }
            "reach_accepted" => self.b.reach_accepted(seat(e.actor, "actor")?),
            // A kita (三麻 北抜き): `nukidora` in the three-player Mortal forks' dialect, `kita`
            // in RiichiEnv's.
            "nukidora" | "kita" => {
                if let Some(t) = &e.pai {
                    if tile_of(t)? != rules::NORTH as Tile {
                        return Err(format!("{kind} of {t}, which is not N"));
                    }
                }
                self.b.kita(seat(e.actor, "actor")?)?;
            }
            "hora" | "ryukyoku" => {
                self.terminals += 1;
                let Some(deltas) = &e.deltas else {
                    if self.pending.is_some() || self.terminals > 1 {
                        return Err("a hand with two results without deltas".into());
                    }
                    self.pending = Some(Pending {
                        line: self.line,
                        event: e.clone(),
                    });
                    return Ok(());
                };
                let deltas = per_seat(Some(deltas), "deltas", self.b.players())?;
                self.terminal(e, deltas)?;
            }
            "end_game" => {
                let scores = e
                    .scores
                    .as_ref()
                    .map(|s| per_seat(Some(s), "scores", self.b.players()))
                    .transpose()?;
                self.settle(scores)?;
            }
            "start_game" | "end_kyoku" | "none" => {}
            other => return Err(format!("event type {other:?}")),
        }
        Ok(())
    }

    /// A draw or a discard.
    fn quick(&mut self, q: Quick) -> Result<(), BuildError> {
        match q {
            Quick::Tsumo(actor, tile) => {
                self.b.draw(actor, tile)?;
                self.tsumos += 1;
            }
            Quick::Dahai(actor, tile, tsumogiri) => self.b.discard(actor, Some(tile), tsumogiri)?,
        }
        Ok(())
    }

    /// A terminal record with its deltas.
    fn terminal(&mut self, e: &Ev<'_>, deltas: [i32; 4]) -> Result<(), BuildError> {
        let b = &mut self.b;
        if e.kind == "hora" {
            let who = seat(e.actor, "actor")?;
            let from = seat(e.target, "target")?;
            let ura = match &e.ura_markers {
                Some(u) => tiles_of(u)?,
                None => Vec::new(),
            };
            let riichi = self.riichi[usize::from(who)];
            b.win(
                who,
                from,
                deltas,
                [0; 3],
                Vec::new(),
                Vec::new(),
                &ura,
                riichi,
                None,
            )?;
            if e.pai.is_some() {
                let t = pai(e)?;
                let won = if who == from {
                    b.drawn(who)
                } else {
                    b.last_discard()
                };
                if won != Some(t) {
                    return Err(format!(
                        "hora on {}, which is not the tile won on",
                        tile::type_name(usize::from(t))
                    ));
                }
            }
        } else {
            // Draws a hand holds, replacement draws included (70, or 55 with three players).
            let exhausted = self.tsumos as usize >= b.players().draws();
            let kind = match (exhausted, tenpai_payments(&deltas, b.players())) {
                (true, true) => None,
                (true, false) => Some("nm"),
                (false, _) => Some(crate::mjlog::UNNAMED_ABORTIVE),
            };
            b.ryuukyoku(kind, deltas, [false; 4])?;
        }
        Ok(())
    }

    /// The pending terminal record, with deltas from the scores that follow it.
    fn settle(&mut self, scores: Option<[i32; 4]>) -> Result<(), BuildError> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let Some(after) = scores else {
            return Err(format!(
                "the result on line {} has no deltas, and no scores follow it",
                p.line
            ));
        };
        let before = self.b.scores();
        let deltas = [0, 1, 2, 3].map(|s| after[s] - before[s]);
        self.terminal(&p.event, deltas)
    }
}

fn pai(e: &Ev<'_>) -> Result<Tile, BuildError> {
    tile_of(e.pai.as_deref().ok_or("no pai")?)
}

/// Whether `bytes` look like mjai: the first line that is not blank holds an event (an
/// object, or an array of them, with a string `type`).
pub(crate) fn looks_like(bytes: &[u8]) -> bool {
    let Some(first) = bytes
        .split(|&b| b == b'\n')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
    else {
        return false;
    };
    // Every event has a key `type` (spelled so, or with an escape): a line with neither (a
    // whole paipu or tenhou.net/6 document on one line) is not parsed.
    let maybe = memchr::memmem::find(first, b"type").is_some()
        || memchr::memmem::find(first, b"\\u").is_some();
    maybe && line_events(first).is_ok_and(|es| !es.is_empty())
}

/// Reads an mjai game, one JSON value per line, into `log`: each line parsed and applied
/// in turn (no event is kept but a result waiting for its deltas).
pub(crate) fn read(bytes: &[u8], log: &mut GameLog) -> Result<(), crate::reason::Failure> {
    use crate::reason::{Failure, Reason};
    let parse_error = |line: &[u8], n: usize, e: serde_json::Error| {
        // Not an event: is it JSON at all?
        let reason = match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
            Ok(_) => Reason::Mjai,
            Err(_) => Reason::Json,
        };
        Failure::new(reason, format!("line {n}: {e}"))
    };
    let mut at = 0;
    let mut n = 0;
    let mut lines = std::iter::from_fn(|| {
        if at > bytes.len() {
            return None;
        }
        let start = at;
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |k| start + k);
        at = end + 1;
        n += 1;
        Some((n, &bytes[start..end]))
    })
    .filter(|(_, l)| l.iter().any(|b| !b.is_ascii_whitespace()))
    .peekable();
    // The game's start: names, length and red fives.
    let start = match lines.peek() {
        Some(&(n, line)) => line_events(line)
            .map_err(|e| parse_error(line, n, e))?
            .into_iter()
            .next()
            .filter(|e| e.kind == "start_game")
            .unwrap_or_default(),
        None => Ev::default(),
    };
    let red = match start.aka_flag {
        Some(r) => r,
        None => [&b"\"5mr\""[..], b"\"5pr\"", b"\"5sr\""]
            .iter()
            .any(|t| bytes.windows(t.len()).any(|w| w == *t)),
    };
    let mut go = 0x01;
    if start.kyoku_first != Some(4) {
        go |= go_type::HANCHAN;
    }
    if !red {
        go |= go_type::NO_RED;
    }
    let mut un = Un::default();
    // Three names: the three-player dialect.
    let names = start
        .names
        .as_ref()
        .filter(|n| n.len() == 4 || n.len() == 3);
    if let Some(names) = names {
        for (s, n) in names.iter().enumerate() {
            un.names[s] = Some(n.to_string());
        }
        if names.len() == 3 {
            un.names[3] = Some(String::new());
            go |= go_type::THREE_PLAYER;
        }
    }
    log.origin.format = Format::Mjai;
    log.origin.room = Some("engine");
    let mut r = Reader {
        b: Builder::new(log, go, un),
        riichi: [false; 4],
        tsumos: 0,
        pending: None,
        terminals: 0,
        line: 0,
    };
    let mut kyoku = 0;
    fn at_line(kyoku: u32, n: usize, err: BuildError) -> Failure {
        let at = if kyoku > 0 {
            format!("line {n} (kyoku {kyoku}): {err}")
        } else {
            format!("line {n}: {err}")
        };
        Failure::new(Reason::Mjai, at)
    }
    fn apply<'e>(
        r: &mut Reader<'_, 'e>,
        kyoku: &mut u32,
        n: usize,
        e: &Ev<'e>,
    ) -> Result<(), Failure> {
        if e.kind == "start_kyoku" {
            *kyoku += 1;
        }
        r.line = n;
        r.event(e).map_err(|err| at_line(*kyoku, n, err))
    }
    for (n, line) in lines {
        if let Some(q) = quick_line(line) {
            r.line = n;
            r.quick(q).map_err(|err| at_line(kyoku, n, err))?;
        } else if line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            let events: Vec<Ev<'_>> =
                serde_json::from_slice(line).map_err(|e| parse_error(line, n, e))?;
            for e in &events {
                apply(&mut r, &mut kyoku, n, e)?;
            }
        } else {
            // A line that is not UTF-8 is read by serde alone, which names it.
            let e: Ev<'_> = match std::str::from_utf8(line).ok().and_then(scan_line) {
                Some(e) => e,
                None => serde_json::from_slice(line).map_err(|e| parse_error(line, n, e))?,
            };
            apply(&mut r, &mut kyoku, n, &e)?;
        }
    }
    let end = |e: String| Failure::new(Reason::Mjai, e);
    r.settle(None).map_err(end)?;
    r.b.finish(None).map_err(end)?;
    log.origin.lacks |= LACKS;
    Ok(())
}

/// What an mjai log does not record (`GameLog::origin.lacks` of every game read from mjai).
pub(crate) const LACKS: u16 = lacks::RULES
    | lacks::FINAL_SCORES
    | lacks::WIN_VALUE
    | lacks::DRAW_KIND
    | lacks::WIN_HAND
    | lacks::PAO
    | lacks::SHOWN_HANDS;

#[cfg(test)]
mod tests {
    use super::*;

    /// One hand, worked by hand: the dealer (seat 0) holds 1-9m 1-3p 5p, draws the other
    /// 5p and wins at once (tenhou): +48000, the others -16000. In a red game the black fives
    /// are copies 1-3, so its 5m is id 17 (kind 4), its 5p id 53 and the drawn 5p id 54.
    const TENHOU: &str = r#"{"type":"start_game","names":["a","b","c","d"],"kyoku_first":0,"aka_flag":true}
{"type":"start_kyoku","bakaze":"E","dora_marker":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","2p","3p","5p"],["1s","2s","3s","4s","6s","7s","8s","9s","S","S","S","W","W"],["1m","2m","3m","4m","6m","7m","8m","9m","N","N","N","P","P"],["1p","2p","3p","4p","6p","7p","8p","9p","F","F","F","C","C"]]}
{"type":"tsumo","actor":0,"pai":"5p"}
{"type":"hora","actor":0,"target":0,"deltas":[48000,-16000,-16000,-16000],"ura_markers":[]}
{"type":"end_kyoku"}
{"type":"end_game"}
"#;

    fn agari(log: &GameLog) -> &crate::mjlog::Agari {
        log.events
            .iter()
            .find_map(|e| match e {
                crate::mjlog::Event::Agari(a) => Some(&**a),
                _ => None,
            })
            .expect("a win")
    }

    #[test]
    fn a_hand_by_hand() {
        let mut log = GameLog::default();
        crate::formats::decode_into(TENHOU.as_bytes(), &mut log).unwrap();
        assert_eq!(log.go_type, Some(0x01 | go_type::HANCHAN));
        assert_eq!(log.origin.format, Format::Mjai);
        assert_eq!(log.origin.room, Some("engine"));
        let init = log
            .events
            .iter()
            .find_map(|e| match e {
                crate::mjlog::Event::Init(i) => Some(&**i),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            init.hai[0],
            vec![0, 4, 8, 12, 17, 20, 24, 28, 32, 36, 40, 44, 53]
        );
        assert_eq!(init.dora_indicator, 108);
        let a = agari(&log);
        assert_eq!((a.who, a.from_who, a.machi), (0, 0, 54));
        assert_eq!(a.sc, [250, 480, 250, -160, 250, -160, 250, -160]);
        assert_eq!(a.hai.len(), 14);
        // The replay proves it.
        crate::stats::prove_game(&log).unwrap();
    }

    /// A `hora` that names its tile (the original dialect) is checked against the tile won
    /// on.
    #[test]
    fn a_win_names_its_tile() {
        let mut log = GameLog::default();
        let with = |pai: &str| {
            TENHOU.replace(
                r#""target":0,"deltas""#,
                &format!(r#""target":0,"pai":"{pai}","deltas""#),
            )
        };
        crate::formats::decode_into(with("5p").as_bytes(), &mut log).unwrap();
        let err = crate::formats::decode_into(with("6p").as_bytes(), &mut log).unwrap_err();
        assert!(
            err.detail
                .contains("hora on 6p, which is not the tile won on"),
            "{err:?}"
        );
    }

    /// akochan's dialect: no deltas on `hora`; they come from `end_game`'s scores.
    #[test]
    fn deltas_from_the_scores_that_follow() {
        let text = TENHOU
            .replace(
                r#","deltas":[48000,-16000,-16000,-16000],"ura_markers":[]"#,
                "",
            )
            .replace(
                r#"{"type":"end_game"}"#,
                r#"{"type":"end_game","scores":[73000,9000,9000,9000]}"#,
            );
        let mut log = GameLog::default();
        crate::formats::decode_into(text.as_bytes(), &mut log).unwrap();
        assert_eq!(agari(&log).sc, [250, 480, 250, -160, 250, -160, 250, -160]);
        let cut = text.replace(r#","scores":[73000,9000,9000,9000]"#, "");
        let err = crate::formats::decode_into(cut.as_bytes(), &mut log).unwrap_err();
        assert!(
            err.detail
                .contains("has no deltas, and no scores follow it"),
            "{err:?}"
        );
    }

    /// The fast scanner reads what serde reads, or leaves the line to serde: on every line of
    /// the hand above, and on lines with what it does not read.
    #[test]
    fn the_quick_lines_agree_with_the_scanner() {
        // The shapes read quickly, and what they are: seat, tile type (5mr is 34, E 27, 9s
        // 26), tsumogiri.
        let quick = [
            (
                r#"{"type":"tsumo","actor":0,"pai":"4p"}"#,
                Quick::Tsumo(0, 12),
            ),
            (
                r#"{"type":"dahai","actor":3,"pai":"5mr","tsumogiri":true}"#,
                Quick::Dahai(3, 34, true),
            ),
            (
                r#"{"type":"dahai","actor":2,"pai":"E","tsumogiri":false}"#,
                Quick::Dahai(2, 27, false),
            ),
            (
                r#"{"type":"tsumo","actor":1,"pai":"9s"}"#,
                Quick::Tsumo(1, 26),
            ),
        ];
        for (line, want) in quick {
            assert_eq!(quick_line(line.as_bytes()), Some(want), "{line}");
            let e = scan_line(line).expect(line);
            let scanned = match e.kind.as_ref() {
                "tsumo" => Quick::Tsumo(e.actor.unwrap(), pai(&e).unwrap()),
                _ => Quick::Dahai(e.actor.unwrap(), pai(&e).unwrap(), e.tsumogiri.unwrap()),
            };
            assert_eq!(scanned, want, "{line}");
        }
        // Anything else is left to the scanner (or serde): a space, another key order, a seat
        // beyond 3, a hidden or unknown tile, a missing or extra field, a trailing CR.
        for line in [
            r#"{"type":"tsumo", "actor":0,"pai":"4p"}"#,
            r#"{"type":"tsumo","pai":"4p","actor":0}"#,
            r#"{"type":"tsumo","actor":4,"pai":"4p"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"?"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"0m"}"#,
            r#"{"type":"dahai","actor":0,"pai":"4p"}"#,
            r#"{"type":"tsumo","actor":0,"pai":"4p","tsumogiri":true}"#,
            r#"{"type":"dahai","actor":0,"pai":"4p","tsumogiri":1}"#,
            "{\"type\":\"tsumo\",\"actor\":0,\"pai\":\"4p\"}\r",
            r#"{"type":"reach","actor":0}"#,
        ] {
            assert_eq!(quick_line(line.as_bytes()), None, "{line}");
        }
    }

    #[test]
    fn the_scanner_agrees_with_serde() {
        let mut lines: Vec<String> = TENHOU.lines().map(str::to_string).collect();
        lines.extend(
            [
                r#"{"type":"dahai","actor":1,"pai":"5mr","tsumogiri":false}"#,
                r#" { "type" : "hora" , "actor":2,"target":0,"deltas":[-8000, 8000,0,0],"ura_markers":[] } "#,
                r#"{"type":"reach_accepted","actor":3,"deltas":[0,0,0,-1000],"scores":[25000,25000,25000,24000]}"#,
                r#"{"type":"start_game","names":["a\"b","c","d","e"],"id":1}"#,
                r#"{"type":"start_game","names":["a b","c","d","e"]}"#,
                r#"{"type":"tsumo","actor":300,"pai":"1m"}"#,
                r#"{"type":"tsumo","actor":1,"actor":2,"pai":"1m"}"#,
                r#"{"type":"tsumo","actor":1.0,"pai":"1m"}"#,
                r#"{"type":"tsumo","actor":01,"pai":"1m"}"#,
                r#"{"type":"none","meta":{"x":1}}"#,
                r#"{"type":"none","extra":[1,"x",null,true]}"#,
                r#"{"actor":1}"#,
                r#"{"type":"dahai","actor":null,"pai":"E"} x"#,
            ]
            .map(str::to_string),
        );
        let mut scanned = 0;
        for l in &lines {
            let serde = serde_json::from_str::<Ev<'_>>(l).ok();
            match scan_line(l) {
                Some(e) => {
                    assert_eq!(Some(&e), serde.as_ref(), "{l}");
                    scanned += 1;
                }
                // Left to serde: an escape, a value out of range or of another type, a
                // duplicate key, an object value, no type, trailing text.
                None => assert!(
                    l.contains('\\') || serde.is_none() || l.contains("meta"),
                    "{l}"
                ),
            }
        }
        assert_eq!(scanned, 6 + 5, "{lines:#?}");
    }

    /// The three-player dialect (§24), the hand of tenhou.net/6's reader test worked by hand:
    /// three names, scores, hands and deltas; the dealer draws 1s, sets its North aside
    /// (`nukidora`; RiichiEnv spells it `kita`), draws its replacement 9s and wins (menzen
    /// tsumo, rinshan kaihou, ittsu, the kita's dora: a dealer's mangan, 4000 from each of the
    /// two others). mjai records no final scores: the replay's, 43000 31000 31000.
    const SANMA: &str = r#"{"type":"start_game","names":["a","b","c"],"kyoku_first":0,"aka_flag":true}
{"type":"start_kyoku","bakaze":"E","dora_marker":"P","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[35000,35000,35000],"tehais":[["1p","2p","3p","4p","5p","6p","7p","8p","9p","1s","1s","9s","N"],["1m","1m","1m","9m","9m","9m","E","E","E","S","S","S","W"],["2s","2s","2s","3s","3s","3s","4s","4s","4s","6s","6s","6s","7s"]]}
{"type":"tsumo","actor":0,"pai":"1s"}
{"type":"nukidora","actor":0,"pai":"N"}
{"type":"tsumo","actor":0,"pai":"9s"}
{"type":"hora","actor":0,"target":0,"deltas":[8000,-4000,-4000],"ura_markers":[]}
{"type":"end_kyoku"}
{"type":"end_game"}
"#;

    #[test]
    fn a_three_player_hand_with_a_kita() {
        for text in [SANMA.to_string(), SANMA.replace("nukidora", "kita")] {
            let mut log = GameLog::default();
            crate::formats::decode_into(text.as_bytes(), &mut log).unwrap();
            assert_eq!(
                log.go_type,
                Some(0x01 | go_type::HANCHAN | go_type::THREE_PLAYER)
            );
            let facts = crate::formats::build::check_sanma_hand(&log);
            assert_eq!(facts.final_scores, [43000, 31000, 31000, 0]);
            assert_eq!(facts.places, [1, 2, 3, 0]);
        }
        // A kita of another tile, and four scores with a fourth seat that plays, are refused.
        let mut log = GameLog::default();
        let bad = SANMA.replace(r#""actor":0,"pai":"N"}"#, r#""actor":0,"pai":"1s"}"#);
        let err = crate::formats::decode_into(bad.as_bytes(), &mut log).unwrap_err();
        assert!(
            err.detail.contains("nukidora of 1s, which is not N"),
            "{err:?}"
        );
        let bad = SANMA.replace("[35000,35000,35000]", "[35000,35000,35000,35000]");
        let err = crate::formats::decode_into(bad.as_bytes(), &mut log).unwrap_err();
        assert!(err.detail.contains("scores has 4 values, not 3"), "{err:?}");
    }

    #[test]
    fn tile_names() {
        let t = tile_of;
        assert_eq!(t("1m").unwrap(), 0);
        assert_eq!(t("9s").unwrap(), 26);
        assert_eq!(t("C").unwrap(), 33);
        assert_eq!(t("5pr").unwrap(), 35);
        assert!(t("?").unwrap_err().contains("one player's view"));
        assert!(t("0m").is_err() && t("5zr").is_err() && t("").is_err());
    }

    /// Tenpai payments of 1, 2, 3 and 0 or 4 tenpai seats; a nagashi mangan's are not.
    #[test]
    fn tenpai_payment_patterns() {
        let four = Players::Four;
        assert!(tenpai_payments(&[3000, -1000, -1000, -1000], four));
        assert!(tenpai_payments(&[1500, -1500, 1500, -1500], four));
        assert!(tenpai_payments(&[-3000, 1000, 1000, 1000], four));
        assert!(tenpai_payments(&[0; 4], four));
        assert!(!tenpai_payments(&[8000, -4000, -2000, -2000], four));
        assert!(!tenpai_payments(&[12000, -4000, -4000, -4000], four));
        // Three players: 2,000 in all; a nagashi mangan's are not.
        let three = Players::Three;
        assert!(tenpai_payments(&[2000, -1000, -1000, 0], three));
        assert!(tenpai_payments(&[1000, -2000, 1000, 0], three));
        assert!(tenpai_payments(&[0; 4], three));
        assert!(!tenpai_payments(&[3000, -1000, -1000, 0], three));
        assert!(!tenpai_payments(&[8000, -4000, -4000, 0], three));
    }
}
