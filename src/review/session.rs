//! One (game, seat) reviewed: the game sent to a bot as mjai events from the seat's view, the
//! bot's answer taken at each of the seat's §23 decisions and compared with what the player
//! did, then the game goes on as the player played it (as mjai-reviewer does).
//!
//! The decisions are the replay's own ([`crate::replay::Decision`], observed ones only: an
//! unobserved choice has no player's action to compare), each with the log event that closes
//! it; the bot is asked for it just before that event's lines are sent. How a bot answers
//! depends on its [`Style`]:
//! - `each` (Mortal's review mode, mjai-reviewer): one answer line per event line;
//! - `actionable` (akochan's pipe mode): an answer, a JSON array of one or two events, after
//!   the seat's own `tsumo` and after every other seat's `dahai` or `kakan`; a call or riichi
//!   comes with the discard that follows it (the bot is not asked again);
//! - `array` (mjai.app): the events since its last answer sent as one JSON array when it has
//!   a decision, one answer object back.
//!
//! Invariants: a bot's answer is used for one decision at most; the event after a call or
//! riichi the bot did not make itself is never scored with the rest of its answer (a mismatch
//! drops the rest); an answer the seat could not take (not legal there) is counted `invalid`
//! and the review goes on; a bot that exits, hangs or writes a line that is not mjai fails the
//! whole (game, seat), which then counts no decision.

use std::collections::VecDeque;

use serde_json::Value;

use super::bot::{shorten, Bot, BotFault};
use crate::formats::mjai::Writer;
use crate::mjlog::GameLog;
use crate::replay::legal::{Action, DecisionKind};
use crate::replay::{Decision, HandState, Observer};
use crate::tile;

/// When a bot answers (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Style {
    /// One answer line per event line (Mortal's review mode, mjai-reviewer).
    Each,
    /// An answer array after its own draw and every other seat's discard or kakan (akochan).
    Actionable,
    /// The events batched as one array where it may act, one answer back (mjai.app).
    Array,
}

/// One decision of the reviewed seat, with the bot's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reviewed {
    pub(crate) hand: u16,
    pub(crate) turn: u8,
    pub(crate) riichi_opponents: u8,
    pub(crate) kind: DecisionKind,
    /// The legal actions as text (the `choices` frame's form).
    pub(crate) legal: String,
    pub(crate) taken: Action,
    /// The bot's action as text (its mjai `type` when it names no action); `None` when the
    /// bot gave no answer for this decision (the discard after a call it did not make).
    pub(crate) bot: Option<String>,
    pub(crate) matched: bool,
    /// The bot answered an action the seat could not take there.
    pub(crate) invalid: bool,
    /// The answer's `meta` object as JSON text, when it sent one.
    pub(crate) meta: Option<String>,
}

/// Why a (game, seat) failed: the fault and the event line the bot was answering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failed {
    pub(crate) fault: BotFault,
    pub(crate) event: String,
}

/// The seat's observed decisions and the index of the log event that closes each.
struct SeatDecisions {
    seat: u8,
    current: usize,
    items: Vec<(usize, Decision, u8)>,
}

impl Observer for SeatDecisions {
    fn event(&mut self, index: usize) {
        self.current = index;
    }

    fn wants_decisions(&self) -> bool {
        true
    }

    fn decision(&mut self, hand: &HandState, d: &Decision) {
        if d.seat == self.seat && d.taken.is_some() {
            let s = usize::from(d.seat);
            let opponents = (0..4)
                .filter(|&o| o != s && hand.seats[o].riichi.has_declared())
                .count() as u8;
            self.items.push((self.current, d.clone(), opponents));
        }
    }
}

/// The decisions of `seat` in `log` (observed ones), each with the index of the log event that
/// closes it; `Err` when the game does not replay.
pub(crate) fn decisions_of(
    log: &GameLog,
    seat: u8,
) -> Result<Vec<(usize, Decision, u8)>, crate::replay::ReplayError> {
    let mut obs = SeatDecisions {
        seat,
        current: 0,
        items: Vec::new(),
    };
    crate::replay::replay_game(log, &mut obs)?;
    Ok(obs.items)
}

/// The mjai lines of `log` as `seat` sees it, grouped by the log event that writes them:
/// `[0]` is `start_game`, `[j + 1]` event j's, the last `end_kyoku`/`end_game`.
pub(crate) fn view_lines(log: &GameLog, seat: u8) -> Vec<String> {
    let mut out = String::new();
    let mut w = Writer::new(log, Some(seat), &mut out);
    let mut groups = vec![std::mem::take(&mut out)];
    for e in &log.events {
        w.event(e, &mut out);
        groups.push(std::mem::take(&mut out));
    }
    w.finish(&mut out);
    groups.push(out);
    groups
}

/// Reviews `seat` of `log` with `bot` (started for that seat, or reused after an earlier
/// game's `end_game`).
pub(crate) fn review(
    log: &GameLog,
    seat: u8,
    bot: &mut Bot,
    style: Style,
) -> Result<Vec<Reviewed>, Failed> {
    let decisions = decisions_of(log, seat).map_err(|e| Failed {
        fault: BotFault::new("replay", format!("the game does not replay: {e}")),
        event: String::new(),
    })?;
    let groups = view_lines(log, seat);
    let mut s = Session {
        bot,
        style,
        seat,
        queue: VecDeque::new(),
        batch: Vec::new(),
        last: String::new(),
    };
    let mut rows = Vec::with_capacity(decisions.len());
    let mut next = decisions.into_iter().peekable();
    for (g, lines) in groups.iter().enumerate() {
        // Group g > 0 holds event g − 1's lines: the decisions that event closes come first.
        while let Some((_, d, opponents)) = next.next_if(|(close, _, _)| g > 0 && *close == g - 1) {
            if style == Style::Array {
                s.flush()?;
            }
            rows.push(s.score(&d, opponents));
        }
        for line in lines.lines() {
            s.emit(line)?;
        }
    }
    // The events after the last decision (the game's end), answered like any other array
    // (a bot that serves the next game too must not have an answer left unread).
    if style == Style::Array && !s.batch.is_empty() {
        s.flush()?;
    }
    Ok(rows)
}

struct Session<'a> {
    bot: &'a mut Bot,
    style: Style,
    seat: u8,
    /// The bot's last answer's events not yet used.
    queue: VecDeque<Value>,
    /// Lines not yet sent (`array`).
    batch: Vec<String>,
    /// The last line sent (what the bot was answering, for a failure).
    last: String,
}

impl Session<'_> {
    fn fail(&self, fault: BotFault) -> Failed {
        Failed {
            fault,
            event: self.last.clone(),
        }
    }

    /// Sends (or batches) one event line, and reads the answer where the style answers.
    fn emit(&mut self, line: &str) -> Result<(), Failed> {
        match self.style {
            Style::Array => {
                self.batch.push(line.to_string());
                return Ok(());
            }
            Style::Each => {}
            Style::Actionable => {
                if !asks(line, self.seat, false) {
                    self.last = line.to_string();
                    self.bot.send(line);
                    return Ok(());
                }
            }
        }
        self.last = line.to_string();
        self.bot.send(line);
        let keep = self.style == Style::Actionable || asks(line, self.seat, true);
        let before = std::mem::take(&mut self.queue);
        self.answer()?;
        // An `each` bot answers every line; only the answer to a line that asks the seat
        // something is its decision (a `dora` shown after a replacement draw asks nothing:
        // the answer to the draw stands).
        if !keep {
            self.queue = before;
        }
        Ok(())
    }

    /// Sends the batched lines as one array and reads the answer (`array`).
    fn flush(&mut self) -> Result<(), Failed> {
        let batch = format!("[{}]", self.batch.join(","));
        self.batch.clear();
        self.last = shorten(&batch);
        self.bot.send(&batch);
        self.answer()
    }

    /// Reads one answer: an event object or an array of them.
    fn answer(&mut self) -> Result<(), Failed> {
        let v = self.bot.read().map_err(|f| self.fail(f))?;
        let events = match v {
            Value::Array(items) => items,
            v => vec![v],
        };
        if let Some(bad) = events
            .iter()
            .find(|e| e.get("type").and_then(Value::as_str).is_none())
        {
            let fault = BotFault::new(
                "not-mjai",
                format!("answered with no event type: {}", shorten(&bad.to_string())),
            );
            return Err(self.fail(fault));
        }
        self.queue = events.into();
        Ok(())
    }

    /// The bot's answer to decision `d`, compared with the player's action.
    fn score(&mut self, d: &Decision, riichi_opponents: u8) -> Reviewed {
        let taken = d.taken.expect("only observed decisions are reviewed");
        let answer = self.queue.pop_front();
        let meta = answer
            .as_ref()
            .and_then(|a| a.get("meta"))
            .map(Value::to_string);
        // Another seat's tile offers `pass`; the seat's own turn never does.
        let own_turn = !d.legal.contains(Action::Pass);
        let (bot, action) = match &answer {
            None => (None, None),
            Some(a) => {
                let action = action_of(a, self.seat, own_turn);
                let text = action.map_or_else(
                    || a["type"].as_str().unwrap_or_default().to_string(),
                    |x| x.to_string(),
                );
                (Some(text), action)
            }
        };
        let matched = action == Some(taken);
        if !matched {
            // The rest of an answer belongs to a call or riichi the player did not make.
            self.queue.clear();
        }
        Reviewed {
            hand: d.hand,
            turn: d.turn,
            riichi_opponents,
            kind: d.kind,
            legal: d.legal.text(),
            taken,
            invalid: answer.is_some() && !action.is_some_and(|a| d.legal.contains(a)),
            bot,
            matched,
            meta,
        }
    }
}

/// True when `line` asks `seat` for a decision. For an `actionable` bot (`own_calls` false):
/// its own `tsumo`, another seat's `dahai`, `kakan` or `nukidora` (a three-player kita, which
/// a ron may take, §24). For an `each` bot (`own_calls` true), also its own `chi`, `pon` or
/// `reach` (the discard that follows) and another seat's `ankan`.
fn asks(line: &str, seat: u8, own_calls: bool) -> bool {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(rename = "type", borrow)]
        kind: &'a str,
        actor: Option<u8>,
    }
    let Ok(h) = serde_json::from_str::<Head>(line) else {
        return false;
    };
    match (h.kind, h.actor) {
        ("tsumo", Some(a)) => a == seat,
        ("chi" | "pon" | "reach", Some(a)) => own_calls && a == seat,
        ("dahai" | "kakan" | "nukidora" | "kita", Some(a)) => a != seat,
        ("ankan", Some(a)) => own_calls && a != seat,
        _ => false,
    }
}

/// The kind of an mjai tile name (`5mr` is 5m).
fn kind_of(v: &Value) -> Option<u8> {
    let name = v.as_str()?;
    let k = match name {
        "E" => 27,
        "S" => 28,
        "W" => 29,
        "N" => 30,
        "P" => 31,
        "F" => 32,
        "C" => 33,
        _ => tile::parse_kind(name.trim_end_matches('r'))?,
    };
    Some(k as u8)
}

/// The type (37 types: red fives apart) of an mjai tile name.
fn type_of(v: &Value) -> Option<u8> {
    let name = v.as_str()?;
    let k = kind_of(v)?;
    Some(if name.ends_with('r') {
        (tile::KINDS + usize::from(k) / 9) as u8
    } else {
        k
    })
}

/// The §23 action an mjai answer event names for `seat` (`own_turn`: after its draw or call,
/// where `none` is no action); `None` for an event that names none.
pub(crate) fn action_of(v: &Value, seat: u8, own_turn: bool) -> Option<Action> {
    let kind = v["type"].as_str()?;
    let actor = v.get("actor").and_then(Value::as_u64);
    if actor.is_some_and(|a| a != u64::from(seat)) {
        return None;
    }
    Some(match kind {
        "none" if !own_turn => Action::Pass,
        "dahai" => Action::Discard(kind_of(&v["pai"])?),
        "reach" => Action::Riichi,
        "hora" if own_turn => Action::Tsumo,
        "hora" => Action::Ron,
        "pon" => Action::Pon,
        "daiminkan" => Action::Daiminkan,
        "chi" => {
            let c = v["consumed"].as_array()?;
            let (a, b) = (type_of(c.first()?)?, type_of(c.get(1)?)?);
            if tile::type_kind(a.into()) <= tile::type_kind(b.into()) {
                Action::Chi(a, b)
            } else {
                Action::Chi(b, a)
            }
        }
        "ankan" => Action::Ankan(kind_of(v["consumed"].as_array()?.first()?)?),
        "kakan" => Action::Kakan(kind_of(&v["pai"])?),
        "ryukyoku" => Action::Kyuushu,
        // The three-player dialect's kita (RiEnv spells it `kita`), §24.
        "nukidora" | "kita" if own_turn => Action::Kita,
        _ => return None,
    })
}
