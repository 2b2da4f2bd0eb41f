//! SQLite databases of downloaded logs as inputs: houou-logs (table `logs`: `id`, `date`,
//! `num_players`, `is_tonpu`, `is_processed`, `was_error`, `log` = gzip mjlog) and phoenix-logs
//! (table `logs`: `log_id`, `date`, `is_tonpusen`, `is_sanma`, `is_processed`, `was_error`,
//! `log_content` = bz2 mjlog).
//!
//! Invariant: rows are read in log-id order, a page at a time, so a database of any size
//! costs one page of blobs in memory; each row is one game named `<db path>#<log id>`.

use std::io::Read;
use std::path::Path;

use rusqlite::{params, Connection, OpenFlags};

use crate::reason::{Failure, Reason};

/// The first 16 bytes of every SQLite 3 database file.
pub(crate) const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// True when the file at `path` starts with the SQLite magic.
pub(crate) fn is_sqlite(path: &Path) -> bool {
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map(|_| &head == SQLITE_MAGIC)
        .unwrap_or(false)
}

/// Which downloader wrote the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Schema {
    HououLogs,
    PhoenixLogs,
}

impl Schema {
    fn columns(self) -> (&'static str, &'static str) {
        match self {
            Schema::HououLogs => ("id", "log"),
            Schema::PhoenixLogs => ("log_id", "log_content"),
        }
    }
}

/// One row: its log id and either the compressed log or why it is not read.
#[derive(Debug)]
pub(crate) struct Row {
    pub(crate) log_id: String,
    pub(crate) content: Result<Vec<u8>, Failure>,
}

/// An open log database.
pub(crate) struct LogDb {
    conn: Connection,
    schema: Schema,
}

impl LogDb {
    /// Opens read-only and recognises the schema by the columns of table `logs`.
    pub(crate) fn open(path: &Path) -> Result<Self, Failure> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| Failure::new(Reason::UnreadableDatabase, e.to_string()))?;
        let not_a_log_db =
            |e: rusqlite::Error| Failure::new(Reason::NotALogDatabase, e.to_string());
        let mut cols: Vec<String> = Vec::new();
        {
            let mut st = conn
                .prepare("SELECT name FROM pragma_table_info('logs')")
                .map_err(not_a_log_db)?;
            let names = st
                .query_map([], |r| r.get::<_, String>(0))
                .map_err(not_a_log_db)?;
            for n in names {
                cols.push(n.map_err(not_a_log_db)?);
            }
        }
        let has = |c: &str| cols.iter().any(|x| x == c);
        let common = has("is_processed") && has("was_error");
        let schema = if common && has("id") && has("log") {
            Schema::HououLogs
        } else if common && has("log_id") && has("log_content") {
            Schema::PhoenixLogs
        } else {
            return Err(Failure::new(
                Reason::NotALogDatabase,
                format!(
                    "table logs has columns [{}], expected houou-logs \
                     (id, log, is_processed, was_error) or phoenix-logs (log_id, log_content, ...)",
                    cols.join(", ")
                ),
            ));
        };
        Ok(LogDb { conn, schema })
    }

    /// Rows in table `logs` (0 when it cannot be counted).
    pub(crate) fn row_count(&self) -> u64 {
        self.conn
            .query_row("SELECT COUNT(*) FROM logs", [], |r| r.get::<_, i64>(0))
            .map(|n| n.max(0) as u64)
            .unwrap_or(0)
    }

    /// Up to `limit` rows with log id greater than `after`, in log-id order. Rows that are
    /// unprocessed or marked as errors by the downloader come back with the reason.
    pub(crate) fn page(&self, after: Option<&str>, limit: usize) -> Result<Vec<Row>, String> {
        self.rows(">", after.unwrap_or(""), limit)
    }

    /// The row of log id `log_id`, if the table has one (a game read again, `haifu agree
    /// --every-decision`).
    pub(crate) fn get(&self, log_id: &str) -> Result<Option<Row>, String> {
        Ok(self.rows("=", log_id, 1)?.pop())
    }

    /// Up to `limit` rows whose log id compares `op` (`>` or `=`) with `key`, in log-id order.
    fn rows(&self, op: &str, key: &str, limit: usize) -> Result<Vec<Row>, String> {
        let (id, content) = self.schema.columns();
        let sql = format!(
            "SELECT CAST({id} AS TEXT), is_processed, was_error, {content} FROM logs \
             WHERE CAST({id} AS TEXT) {op} ?1 ORDER BY CAST({id} AS TEXT) LIMIT ?2"
        );
        let mut st = self.conn.prepare_cached(&sql).map_err(|e| e.to_string())?;
        let rows = st
            .query_map(params![key, limit as i64], |r| {
                let log_id: String = r.get(0)?;
                let processed: Option<i64> = r.get(1)?;
                let error: Option<i64> = r.get(2)?;
                let blob: Option<Vec<u8>> = match r.get_ref(3)? {
                    rusqlite::types::ValueRef::Blob(b) => Some(b.to_vec()),
                    rusqlite::types::ValueRef::Text(t) => Some(t.to_vec()),
                    _ => None,
                };
                let content = if processed.unwrap_or(0) == 0 {
                    Err(Failure::new(
                        Reason::DbUnprocessed,
                        "the downloader has not fetched this log",
                    ))
                } else if error.unwrap_or(0) != 0 {
                    Err(Failure::new(
                        Reason::DbError,
                        "the downloader marked this log as an error",
                    ))
                } else {
                    blob.ok_or_else(|| Failure::new(Reason::DbEmpty, "the row holds no log"))
                };
                Ok(Row { log_id, content })
            })
            .map_err(|e| e.to_string())?;
        rows.collect::<Result<Vec<Row>, _>>()
            .map_err(|e| e.to_string())
    }
}

/// True when `bytes` start with the bzip2 magic (`BZh` and a block size digit).
pub(crate) fn is_bzip2(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && &bytes[..3] == b"BZh" && (b'1'..=b'9').contains(&bytes[3])
}

/// Decompresses a bzip2 blob into `out` (at most `limit` bytes).
pub(crate) fn bunzip2(blob: &[u8], out: &mut Vec<u8>, limit: u64) -> Result<(), String> {
    out.clear();
    bzip2::read::MultiBzDecoder::new(blob)
        .take(limit + 1)
        .read_to_end(out)
        .map_err(|e| e.to_string())?;
    if out.len() as u64 > limit {
        return Err(format!("decompresses to more than {limit} bytes"));
    }
    Ok(())
}
