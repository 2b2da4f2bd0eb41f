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
use crate::mjlog::{go_type, lacks, Format, GameLog, MeldKind, Un};
use crate::tile;

/// Live-wall tiles of a four-player hand (136 less 14 in the dead wall, less 52 dealt).
const LIVE_WALL: u32 = 70;

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

/// The usual line read fast: a flat object of known keys whose strings hold no escape, every
/// value of its field's type. `None` for anything else (an unknown key with an object value,
/// an escape, a duplicate key, a number out of range, …), which serde then reads, so that
/// both give the same event or serde the error.
fn scan_line(text: &str) -> Option<Ev<'_>> {
    // The text is UTF-8 (the whole file was validated once): each string is a slice between
    // ASCII quotes.
    let line = text.as_bytes();
    let mut sc = Scan {
        s: text,
        b: line,
        i: 0,
    };
    let mut e = Ev::default();
    let mut seen = 0u32;
    sc.ws();
    sc.eat(b'{')?;
    sc.ws();
    if sc.peek()? == b'}' {
        return None; // no type: serde's error
    }
    loop {
        sc.ws();
        let key = sc.string()?;
        sc.ws();
        sc.eat(b':')?;
        sc.ws();
        let bit = |k: u32| 1u32 << k;
        let field = match key {
            "type" => 0,
            "actor" => 1,
            "target" => 2,
            "pai" => 3,
            "consumed" => 4,
            "tsumogiri" => 5,
            "deltas" => 6,
            "scores" => 7,
            "tehais" => 8,
            "dora_marker" => 9,
            "ura_markers" | "uradora_markers" => 10,
            "bakaze" => 11,
            "kyoku" => 12,
            "honba" => 13,
            "kyotaku" => 14,
            "oya" => 15,
            "names" => 16,
            "kyoku_first" => 17,
            "aka_flag" => 18,
            _ => 31,
        };
        if field != 31 {
            if seen & bit(field) != 0 {
                return None;
            }
            seen |= bit(field);
        }
        match field {
            0 => e.kind = Cow::Borrowed(sc.string()?),
            1 => e.actor = sc.opt(|s| s.small())?,
            2 => e.target = sc.opt(|s| s.small())?,
            3 => e.pai = sc.opt(|s| s.string().map(Cow::Borrowed))?,
            4 => e.consumed = sc.opt(|s| s.list(|s| s.string().map(Cow::Borrowed)))?,
            5 => e.tsumogiri = sc.opt(Scan::boolean)?,
            6 => e.deltas = sc.opt(|s| s.list(Scan::int))?,
            7 => e.scores = sc.opt(|s| s.list(Scan::int))?,
            8 => e.tehais = sc.opt(|s| s.list(|s| s.list(|s| s.string().map(Cow::Borrowed))))?,
            9 => e.dora_marker = sc.opt(|s| s.string().map(Cow::Borrowed))?,
            10 => e.ura_markers = sc.opt(|s| s.list(|s| s.string().map(Cow::Borrowed)))?,
            11 => e.bakaze = sc.opt(|s| s.string().map(Cow::Borrowed))?,
            12 => e.kyoku = sc.opt(|s| s.small())?,
            13 => e.honba = sc.opt(|s| s.small())?,
            14 => e.kyotaku = sc.opt(|s| s.small())?,
            15 => e.oya = sc.opt(|s| s.small())?,
            16 => e.names = sc.opt(|s| s.list(|s| s.string().map(Cow::Borrowed)))?,
            17 => e.kyoku_first = sc.opt(|s| s.small())?,
            18 => e.aka_flag = sc.opt(Scan::boolean)?,
            _ => sc.skip_simple()?,
        }
        sc.ws();
        match sc.next()? {
            b',' => continue,
            b'}' => break,
            _ => return None,
        }
    }
    sc.ws();
    (seen & 1 != 0 && sc.i == line.len()).then_some(e)
}

/// A cursor over one line for [`scan_line`]; every method returns `None` on anything it does
/// not read.
struct Scan<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// A string without escapes or control characters.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let len = memchr::memchr2(b'"', b'\\', &self.b[start..])?;
        let s = &self.b[start..start + len];
        if s.iter().any(|&c| c < 0x20) {
            return None;
        }
        self.i = start + len;
        self.eat(b'"')?;
        self.s.get(start..start + len)
    }

    fn int(&mut self) -> Option<i64> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let digits = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        // JSON has no leading zeros; a fraction or exponent is not an integer.
        let leading_zero = digits > 1 && self.b[self.i] == b'0';
        if digits == 0
            || digits > 15
            || leading_zero
            || matches!(self.b.get(self.i + digits), Some(b'.' | b'e' | b'E'))
        {
            return None;
        }
        let value = self.b[self.i..self.i + digits]
            .iter()
            .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
        self.i += digits;
        Some(if negative { -value } else { value })
    }

    fn small(&mut self) -> Option<u8> {
        u8::try_from(self.int()?).ok()
    }

    fn boolean(&mut self) -> Option<bool> {
        for (word, v) in [(&b"true"[..], true), (b"false", false)] {
            if self.b[self.i..].starts_with(word) {
                self.i += word.len();
                return Some(v);
            }
        }
        None
    }

    /// `null` as `None`, else the value.
    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.b[self.i..].starts_with(b"null") {
            self.i += 4;
            return Some(None);
        }
        f(self).map(Some)
    }

    fn list<T>(&mut self, mut f: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(out);
        }
        loop {
            self.ws();
            out.push(f(self)?);
            self.ws();
            match self.next()? {
                b',' => continue,
                b']' => return Some(out),
                _ => return None,
            }
        }
    }

    /// An unknown key's value: a string, a number, a boolean, null, or a list of those.
    fn skip_simple(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'[' => self.list(|s| s.skip_simple()).map(drop),
            b't' | b'f' => self.boolean().map(drop),
            b'n' => self
                .opt(|_| None::<()>)
                .and_then(|o| o.is_none().then_some(())),
            _ => self.int().map(drop),
        }
    }
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
    let b = name.as_bytes();
    if let [h] = b {
        if let Some(i) = b"ESWNPFC".iter().position(|c| c == h) {
            return Ok(27 + i as Tile);
        }
    }
    let suit = |c: u8| match c {
        b'm' => Some(0),
        b'p' => Some(1),
        b's' => Some(2),
        _ => None,
    };
    let t = match b {
        [n @ b'1'..=b'9', s] => suit(*s).map(|s| s * 9 + (n - b'1')),
        [b'5', s, b'r'] => suit(*s).map(|s| 34 + s),
        _ => None,
    };
    t.ok_or_else(|| format!("tile {name:?}"))
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

fn four(v: Option<&Vec<i64>>, what: &str) -> Result<[i32; 4], BuildError> {
    let a = v.ok_or_else(|| format!("no {what}"))?;
    if a.len() != 4 {
        return Err(format!("{what} has {} values, not 4", a.len()));
    }
    let mut out = [0; 4];
    for (o, &x) in out.iter_mut().zip(a) {
        *o = i32::try_from(x).map_err(|_| format!("{what} holds {x}"))?;
    }
    Ok(out)
}

/// Whether exhaustive-draw payments are tenpai payments (else a nagashi mangan's).
fn tenpai_payments(deltas: &[i32; 4]) -> bool {
    let tenpai = deltas.iter().filter(|&&d| d > 0).count();
    let want = match tenpai {
        0 => return deltas.iter().all(|&d| d == 0),
        1 => (3000, -1000),
        2 => (1500, -1500),
        3 => (1000, -3000),
        _ => return false,
    };
    deltas.iter().all(|&d| d == want.0 || d == want.1)
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
                if tehais.len() != 4 {
                    return Err("tehais is not four hands".into());
                }
                let mut hands: [Vec<Tile>; 4] = Default::default();
                for (h, t) in hands.iter_mut().zip(tehais) {
                    *h = tiles_of(t)?;
                    if h.len() != 13 {
                        return Err(format!("a tehai of {} tiles", h.len()));
                    }
                }
                let scores = four(e.scores.as_ref(), "scores")?;
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
            "tsumo" => {
                self.b.draw(seat(e.actor, "actor")?, pai(e)?)?;
                self.tsumos += 1;
            }
            "dahai" => {
                let tsumogiri = e.tsumogiri.unwrap_or(false);
                self.b
                    .discard(seat(e.actor, "actor")?, Some(pai(e)?), tsumogiri)?;
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
                let deltas = four(Some(deltas), "deltas")?;
                self.terminal(e, deltas)?;
            }
            "end_game" => {
                let scores = e
                    .scores
                    .as_ref()
                    .map(|s| four(Some(s), "scores"))
                    .transpose()?;
                self.settle(scores)?;
            }
            "start_game" | "end_kyoku" | "none" => {}
            other => return Err(format!("event type {other:?}")),
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
            let exhausted = self.tsumos >= LIVE_WALL;
            let kind = match (exhausted, tenpai_payments(&deltas)) {
                (true, true) => None,
                (true, false) => Some("nm"),
                (false, _) => Some("abortive"),
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
    line_events(first).is_ok_and(|es| !es.is_empty())
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
    // The file validated as UTF-8 once, for the fast scanner; a file that is not is read by
    // serde alone, which names the line.
    let text = std::str::from_utf8(bytes).ok();
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
        Some((n, &bytes[start..end], text.and_then(|t| t.get(start..end))))
    })
    .filter(|(_, l, _)| l.iter().any(|b| !b.is_ascii_whitespace()))
    .peekable();
    // The game's start: names, length and red fives.
    let start = match lines.peek() {
        Some(&(n, line, _)) => line_events(line)
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
    if let Some(names) = start.names.as_ref().filter(|n| n.len() == 4) {
        for (s, n) in names.iter().enumerate() {
            un.names[s] = Some(n.to_string());
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
        r.event(e).map_err(|err| {
            let at = if *kyoku > 0 {
                format!("line {n} (kyoku {kyoku}): {err}")
            } else {
                format!("line {n}: {err}")
            };
            Failure::new(Reason::Mjai, at)
        })
    }
    for (n, line, text) in lines {
        if line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            let events: Vec<Ev<'_>> =
                serde_json::from_slice(line).map_err(|e| parse_error(line, n, e))?;
            for e in &events {
                apply(&mut r, &mut kyoku, n, e)?;
            }
        } else {
            let e: Ev<'_> = match text.and_then(scan_line) {
                Some(e) => e,
                None => serde_json::from_slice(line).map_err(|e| parse_error(line, n, e))?,
            };
            apply(&mut r, &mut kyoku, n, &e)?;
        }
    }
    let end = |e: String| Failure::new(Reason::Mjai, e);
    r.settle(None).map_err(end)?;
    r.b.finish(None).map_err(end)?;
    log.origin.lacks |= lacks::RULES
        | lacks::FINAL_SCORES
        | lacks::WIN_VALUE
        | lacks::DRAW_KIND
        | lacks::WIN_HAND
        | lacks::PAO;
    Ok(())
}

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
    fn the_scanner_agrees_with_serde() {
        let mut lines: Vec<String> = TENHOU.lines().map(str::to_string).collect();
        lines.extend(
            [
                r#"{"type":"dahai","actor":1,"pai":"5mr","tsumogiri":false}"#,
                r#" { "type" : "hora" , "actor":2,"target":0,"deltas":[-8000, 8000,0,0],"ura_markers":[] } "#,
                r#"{"type":"reach_accepted","actor":3,"deltas":[0,0,0,-1000],"scores":[25000,25000,25000,24000]}"#,
                r#"{"type":"start_game","names":["a\"b","c","d","e"],"id":1}"#,
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
        assert_eq!(scanned, 6 + 4, "{lines:#?}");
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
        assert!(tenpai_payments(&[3000, -1000, -1000, -1000]));
        assert!(tenpai_payments(&[1500, -1500, 1500, -1500]));
        assert!(tenpai_payments(&[-3000, 1000, 1000, 1000]));
        assert!(tenpai_payments(&[0; 4]));
        assert!(!tenpai_payments(&[8000, -4000, -2000, -2000]));
        assert!(!tenpai_payments(&[12000, -4000, -4000, -4000]));
    }
}
