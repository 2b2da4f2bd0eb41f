//! kobalab's paipu JSON (電脳麻将, majiang-core; @kobalab/tenhou-log's conversions of Tenhou
//! logs): `read` into the decoded events, one paipu or an array of them per file.

pub(crate) mod read;

use crate::mjlog::GameLog;
use crate::reason::{Failure, Reason};

pub use read::Paipu;

/// The paipu of a document that is an array of two or more (each a game of its own), or
/// `None` for any other document (which [`crate::formats::decode_into`] reads whole).
pub fn many(bytes: &[u8]) -> Option<Vec<Paipu<'_>>> {
    if !may_be_many(bytes) {
        return None;
    }
    std::str::from_utf8(bytes)
        .ok()
        .and_then(read::scan)
        .or_else(|| serde_json::from_slice::<Vec<Paipu<'_>>>(bytes).ok())
        .filter(|all| all.len() > 1)
}

/// Whether a document may be an array of paipu (an array that names `qijia`): cheap, before
/// [`many`] parses it.
pub fn may_be_many(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    start.is_some_and(|i| bytes[i] == b'[') && read::looks_like(bytes)
}

/// The paipu of a majiang document, one or an array of them; why it is not one.
pub(crate) fn parse(bytes: &[u8]) -> Result<Vec<Paipu<'_>>, Failure> {
    // An array or one paipu, by the first character (an untagged enum would buffer the
    // whole document first).
    if let Some(all) = std::str::from_utf8(bytes).ok().and_then(read::scan) {
        return Ok(all);
    }
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let parsed = if start.is_some_and(|i| bytes[i] == b'[') {
        serde_json::from_slice::<Vec<Paipu<'_>>>(bytes)
    } else {
        serde_json::from_slice::<Paipu<'_>>(bytes).map(|p| vec![p])
    };
    parsed.map_err(|e| {
        let reason = match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
            Ok(_) => Reason::Majiang,
            Err(_) => Reason::Json,
        };
        Failure::new(reason, format!("line {}: {e}", e.line()))
    })
}

/// The log id of a paipu's title (its second line), when it has one.
pub fn game_id(paipu: &Paipu<'_>) -> Option<String> {
    paipu.log_id()
}

/// Reads one paipu of an array into `log`.
pub fn read_one(paipu: &Paipu<'_>, log: &mut GameLog) -> Result<(), Failure> {
    *log = GameLog {
        events: std::mem::take(&mut log.events),
        ..GameLog::default()
    };
    log.events.clear();
    read::read(paipu, log).map_err(|e| Failure::new(Reason::Majiang, e))
}
