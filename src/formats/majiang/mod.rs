//! kobalab's paipu JSON (電脳麻将, majiang-core; @kobalab/tenhou-log's conversions of Tenhou
//! logs): `read` into the decoded events, one paipu or an array of them per file.

pub(crate) mod read;

use serde_json::Value;

use crate::mjlog::GameLog;
use crate::reason::{Failure, Reason};

/// The paipu of a document that is an array of two or more (each a game of its own), or
/// `None` for any other document (which [`crate::formats::decode_into`] reads whole).
pub fn many(bytes: &[u8]) -> Option<Vec<Value>> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[start] != b'[' {
        return None;
    }
    let Ok(Value::Array(all)) = serde_json::from_slice::<Value>(bytes) else {
        return None;
    };
    (all.len() > 1 && all.iter().all(read::is_paipu)).then_some(all)
}

/// The log id of a paipu's title (its second line), when it has one.
pub fn game_id(paipu: &Value) -> Option<String> {
    let title = paipu["title"].as_str()?;
    crate::input::find_log_id(title.lines().nth(1)?)
}

/// Reads one paipu of an array into `log`.
pub fn read_one(paipu: &Value, log: &mut GameLog) -> Result<(), Failure> {
    *log = GameLog {
        events: std::mem::take(&mut log.events),
        ..GameLog::default()
    };
    log.events.clear();
    read::read(paipu, log).map_err(|e| Failure::new(Reason::Majiang, e))
}
