//! Log formats other than Tenhou's mjlog XML (`crate::mjlog`, whose events every format
//! decodes into). Each module knows its format and nothing of statistics.
//!
//! - [`decode_into`]: any supported document, recognised by its content;
//! - [`tenhou6`]: tenhou.net/6 JSON, read, and written from a decoded game (`haifu convert
//!   --to tenhou6`);
//! - [`mjai`]: mjai JSON lines, read, and written in Mortal's dialect (`--to mjai`; a
//!   three-player game in the three-player forks' dialect);
//! - [`majiang`]: kobalab's paipu JSON (電脳麻将), read;
//! - `build`: the events of a game rebuilt from a format that names tiles by type, which
//!   every reader drives;
//! - `scan`: a cursor over JSON text for the readers' fast paths, serde's equal where it reads.
//!
//! Invariant: a reader either fills the whole [`GameLog`] (events, GO type, [`Origin`]) or
//! fails with a reason naming where in the document. tenhou.net/6 and mjai read and write
//! three-player games (§24) in their three-player forms; a majiang paipu that looks
//! three-player is refused (the format has none).
//!
//! [`Origin`]: crate::mjlog::Origin

pub(crate) mod build;
pub mod majiang;
pub mod mjai;
pub(crate) mod scan;
pub mod tenhou6;

use std::fmt::Write as _;

use crate::mjlog::{self, GameLog};
use crate::reason::{Failure, Reason};

/// Decodes a whole document (already decompressed) of any supported format into `log`: mjlog
/// XML, tenhou.net/6 JSON, mjai JSON lines, or a majiang paipu.
pub fn decode_into(bytes: &[u8], log: &mut GameLog) -> Result<(), Failure> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match body.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') | Some(b'[') => decode_json(body, log),
        _ => mjlog::decode::decode_into(bytes, log),
    }
}

/// A game of another format whose id is a Tenhou log id (a tenhou.net/6 `ref`, a file named
/// by it) takes its rules from the id's type field, Tenhou's GO type, which names the room and
/// the rules exactly, when it agrees with the red fives the log has.
pub fn rules_from_log_id(log: &mut GameLog, game_id: &str) {
    use crate::mjlog::{go_type, lacks, Format};
    if log.origin.format == Format::Mjlog {
        return;
    }
    let (Some(go), Some(read)) = (crate::input::go_type_of(game_id), log.go_type) else {
        return;
    };
    let mask = go_type::NO_RED | go_type::THREE_PLAYER;
    if go & mask == read & mask && go <= go_type::STANDARD_MAX {
        log.go_type = Some(go);
        for e in &mut log.events {
            if let mjlog::Event::Go { go_type, .. } = e {
                *go_type = go;
            }
        }
        log.origin.room = None;
        log.origin.lacks &= !lacks::RULES;
    }
}

fn decode_json(bytes: &[u8], log: &mut GameLog) -> Result<(), Failure> {
    *log = GameLog {
        events: std::mem::take(&mut log.events),
        ..GameLog::default()
    };
    log.events.clear();
    // mjai: one event (or an array of them) per line; else one JSON value (tenhou.net/6, a
    // majiang paipu).
    if mjai::read::looks_like(bytes) {
        return mjai::read::read(bytes, log);
    }
    if majiang::read::looks_like(bytes) {
        return match majiang::parse(bytes)?.as_slice() {
            [one] => majiang::read::read(one, log).map_err(|e| Failure::new(Reason::Majiang, e)),
            many => Err(Failure::new(
                Reason::Majiang,
                format!(
                    "an array of {} paipu, which ingest reads as one input each",
                    many.len()
                ),
            )),
        };
    }
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| Failure::new(Reason::Json, format!("line {}: {e}", e.line())))?;
    if value.get("haifu_version").is_some() && value.get("files").is_some() {
        return Err(Failure::new(
            Reason::HaifuOutput,
            "a manifest haifu wrote (the list of a run's or a conversion's inputs), not a log",
        ));
    }
    match &value {
        v if v.get("log").is_some() => {
            tenhou6::read::read(v, log).map_err(|e| Failure::new(Reason::Tenhou6, e))
        }
        _ => Err(Failure::new(
            Reason::NotMjlog,
            "JSON that is neither tenhou.net/6 (an object with \"log\"), a majiang paipu, nor mjai (events with \"type\")",
        )),
    }
}

/// How much of a frame column a format fills for a Tenhou game (docs/formats.md's table): every
/// column not listed equals the mjlog's for the same game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filled {
    /// Null in every row.
    Never,
    /// Null in some rows (the note says which); the others equal the mjlog's.
    Partly(&'static str),
}

/// What each format leaves null, by frame and column, for a Tenhou game (its file or its
/// `ref` named by its log id). The frames' `games.source` and `games.format` name the input
/// and differ by nature. `win_yaku` has no rows where `wins.yaku` is null.
pub const UNFILLED: &[(mjlog::Format, &str, &str, Filled)] = {
    use mjlog::Format::{Majiang, Mjai, Tenhou6};
    use Filled::{Never, Partly};
    &[
        (
            Tenhou6,
            "wins",
            "fu",
            Partly("limit hands (mangan and above)"),
        ),
        (Mjai, "games", "dan_*", Never),
        (Mjai, "games", "rate_*", Never),
        (Mjai, "hands", "win_value", Never),
        (Mjai, "riichi", "points", Never),
        (Mjai, "wins", "pao", Never),
        (Mjai, "wins", "fu", Never),
        (Mjai, "wins", "points", Never),
        (Mjai, "wins", "limit", Never),
        (Mjai, "wins", "han", Never),
        (Mjai, "wins", "yakuman", Never),
        (Mjai, "wins", "dora", Never),
        (Mjai, "wins", "ura_dora", Never),
        (Mjai, "wins", "aka_dora", Never),
        (Mjai, "wins", "yaku", Never),
        (Mjai, "wins", "entries", Never),
        (Mjai, "win_yaku", "*", Never),
        (Majiang, "games", "rate_*", Never),
        (Majiang, "wins", "pao", Never),
        (Majiang, "wins", "fu", Partly("yakuman hands")),
    ]
};

/// `s` as a JSON string.
pub(crate) fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    /// A player's name as JSON: quotes, backslashes and control characters escaped, the rest
    /// (Japanese included) as is.
    #[test]
    fn names_as_json_strings() {
        let mut out = String::new();
        super::json_str(&mut out, "a\"b\\c\u{1}\n鬼ヅモ");
        assert_eq!(out, "\"a\\\"b\\\\c\\u0001\\u000a鬼ヅモ\"");
    }
}
