//! Why an input failed or was skipped: one typed list of the reasons a run reports, from the
//! reader, the decoder, the replay and the ingest up to `manifest.json`.
//!
//! Invariant: a [`Reason`]'s [`Reason::as_str`] is the name the manifest counts it under
//! (`failures_by_reason`, `skips_by_reason`) and the text before the first `": "` of the
//! entry's `reason` field; no code splits a reason string to recover it.

use std::fmt;

/// The named reasons of the manifest (docs/inputs.md, the manifest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    // Failures.
    /// A missing path, an unreadable file or directory, a FIFO, socket or device, a loop.
    Unreadable,
    CorruptGzip,
    CorruptBzip2,
    TooLarge,
    Empty,
    NotMjlog,
    Xml,
    BadTile,
    BadAttribute,
    MissingAttribute,
    BadMeld,
    /// JSON that does not parse.
    Json,
    /// A tenhou.net/6 document that does not make a game (the detail says where).
    Tenhou6,
    /// mjai lines that do not make a game.
    Mjai,
    /// A majiang paipu that does not make a game.
    Majiang,
    NoGo,
    UnreadableDatabase,
    NotALogDatabase,
    /// The replay disagreed with the log ([`crate::replay::Check`] in the detail).
    Replay,
    /// haifu itself panicked on the input (a bug).
    InternalError,
    // Skips.
    ThreePlayer,
    Room,
    UnknownRules,
    Duplicate,
    DbUnprocessed,
    DbError,
    DbEmpty,
    /// Outside the run's `--since`/`--until` date range.
    Date,
    /// A file haifu itself wrote (a `manifest.json` of `haifu convert`'s folder), not a log.
    HaifuOutput,
    /// A game `haifu convert` cannot write in the format asked for without inventing what its
    /// source does not record (a game read from mjai, which has no points, as tenhou.net/6).
    Unconvertible,
}

impl Reason {
    /// Every reason, failures first.
    pub const ALL: [Reason; 30] = [
        Reason::Unreadable,
        Reason::CorruptGzip,
        Reason::CorruptBzip2,
        Reason::TooLarge,
        Reason::Empty,
        Reason::NotMjlog,
        Reason::Xml,
        Reason::BadTile,
        Reason::BadAttribute,
        Reason::MissingAttribute,
        Reason::BadMeld,
        Reason::Json,
        Reason::Tenhou6,
        Reason::Mjai,
        Reason::Majiang,
        Reason::NoGo,
        Reason::UnreadableDatabase,
        Reason::NotALogDatabase,
        Reason::Replay,
        Reason::InternalError,
        Reason::ThreePlayer,
        Reason::Room,
        Reason::UnknownRules,
        Reason::Duplicate,
        Reason::DbUnprocessed,
        Reason::DbError,
        Reason::DbEmpty,
        Reason::Date,
        Reason::HaifuOutput,
        Reason::Unconvertible,
    ];

    /// The name written in the manifest.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Unreadable => "unreadable",
            Reason::CorruptGzip => "corrupt-gzip",
            Reason::CorruptBzip2 => "corrupt-bzip2",
            Reason::TooLarge => "too-large",
            Reason::Empty => "empty",
            Reason::NotMjlog => "not-mjlog",
            Reason::Xml => "xml",
            Reason::BadTile => "bad-tile",
            Reason::BadAttribute => "bad-attribute",
            Reason::MissingAttribute => "missing-attribute",
            Reason::BadMeld => "bad-meld",
            Reason::Json => "json",
            Reason::Tenhou6 => "tenhou6",
            Reason::Mjai => "mjai",
            Reason::Majiang => "majiang",
            Reason::NoGo => "no-go",
            Reason::UnreadableDatabase => "unreadable database",
            Reason::NotALogDatabase => "not a log database",
            Reason::Replay => "replay",
            Reason::InternalError => "internal-error",
            Reason::ThreePlayer => "three-player",
            Reason::Room => "room",
            Reason::UnknownRules => "unknown-rules",
            Reason::Duplicate => "duplicate",
            Reason::DbUnprocessed => "db-unprocessed",
            Reason::DbError => "db-error",
            Reason::DbEmpty => "db-empty",
            Reason::Date => "date",
            Reason::HaifuOutput => "haifu-output",
            Reason::Unconvertible => "unconvertible",
        }
    }

    /// The reason named `s` (as [`Reason::as_str`] gives it).
    pub fn from_name(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether an input with this reason is skipped (not failed): the reasons from
    /// [`Reason::ThreePlayer`] on, in the enum's order (that of [`Reason::ALL`]).
    pub fn is_skip(self) -> bool {
        self >= Reason::ThreePlayer
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reason with what exactly happened; written `reason: detail`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: Reason,
    pub detail: String,
}

impl Failure {
    pub fn new(reason: Reason, detail: impl Into<String>) -> Failure {
        Failure {
            reason,
            detail: detail.into(),
        }
    }

    /// Reads back `reason: detail` as written by [`fmt::Display`]: the longest reason name
    /// followed by `": "` (names hold no `": "`, so at most one matches).
    pub fn parse(s: &str) -> Option<Failure> {
        Reason::ALL.into_iter().find_map(|r| {
            let detail = s.strip_prefix(r.as_str())?.strip_prefix(": ")?;
            Some(Failure::new(r, detail))
        })
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason, self.detail)
    }
}

impl std::error::Error for Failure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_read_back() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.as_str()), Some(r));
            assert!(!r.as_str().contains(": "));
            let f = Failure::new(r, "hand 3: agari-mismatch: a: b");
            assert_eq!(Failure::parse(&f.to_string()), Some(f));
        }
        assert_eq!(Failure::parse("no-such-reason: x"), None);
        assert_eq!(Failure::parse("replay"), None);
    }
}
