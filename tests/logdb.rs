//! houou-logs and phoenix-logs SQLite databases as inputs: the frames equal those ingested
//! from the same logs as files; a corrupt blob is a named error for its log id.

mod common;

use std::io::{Read, Write};
use std::path::Path;

use common::{corpus, fixtures, frame, run_ingest};
use haifu::ingest::RoomFilter;
use haifu::manifest::Status;

/// (log id, decompressed mjlog) of every log file in `dir`, sorted by name, one per log id
/// (fixtures/ holds one game twice, as .mjlog and .xml), at most `limit`.
fn logs(dir: &Path, limit: usize) -> Vec<(String, Vec<u8>)> {
    common::first_files(dir, limit)
        .iter()
        .map(|p| {
            let raw = std::fs::read(p).unwrap();
            let mut xml = Vec::new();
            if raw.starts_with(&[0x1f, 0x8b]) {
                flate2::read::MultiGzDecoder::new(&raw[..])
                    .read_to_end(&mut xml)
                    .unwrap();
            } else {
                xml = raw;
            }
            (haifu::input::game_id_for(p), xml)
        })
        .fold(Vec::new(), |mut v: Vec<(String, Vec<u8>)>, (id, xml)| {
            if !v.iter().any(|(seen, _)| *seen == id) {
                v.push((id, xml));
            }
            v
        })
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn bzip(b: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

/// A houou-logs database (gzip blobs), with extra rows: `bad` with a corrupt blob and
/// `unfetched` not yet processed.
fn houou_db(path: &Path, logs: &[(String, Vec<u8>)], extra: bool) {
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch(
        "CREATE TABLE logs (id TEXT PRIMARY KEY, date INTEGER, num_players INTEGER, \
         is_tonpu INTEGER, is_processed INTEGER, was_error INTEGER, log BLOB)",
    )
    .unwrap();
    for (id, xml) in logs {
        c.execute(
            "INSERT INTO logs VALUES (?1, 0, 4, 0, 1, 0, ?2)",
            rusqlite::params![id, gzip(xml)],
        )
        .unwrap();
    }
    if extra {
        c.execute(
            "INSERT INTO logs VALUES ('2099123100gm-00a9-0000-bad00bad', 0, 4, 0, 1, 0, ?1)",
            rusqlite::params![vec![0x1fu8, 0x8b, 8, 0, 1, 2, 3, 4]],
        )
        .unwrap();
        c.execute(
            "INSERT INTO logs VALUES ('2099123101gm-00a9-0000-0000fe7c', 0, 4, 0, 0, 0, NULL)",
            [],
        )
        .unwrap();
    }
}

/// A phoenix-logs database (bz2 blobs).
fn phoenix_db(path: &Path, logs: &[(String, Vec<u8>)]) {
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch(
        "CREATE TABLE logs (log_id TEXT PRIMARY KEY, date TEXT, is_tonpusen INTEGER, \
         is_sanma INTEGER, is_processed INTEGER, was_error INTEGER, log_content BLOB)",
    )
    .unwrap();
    for (id, xml) in logs {
        c.execute(
            "INSERT INTO logs VALUES (?1, '', 0, 0, 1, 0, ?2)",
            rusqlite::params![id, bzip(xml)],
        )
        .unwrap();
    }
}

/// Every frame of two runs is equal, but for the `source` column of `games`.
fn assert_same_frames(a: &Path, b: &Path) {
    for name in haifu::frames::FRAMES {
        let (mut fa, mut fb) = (frame(a, name), frame(b, name));
        if name == "games" {
            fa = fa.drop("source").unwrap();
            fb = fb.drop("source").unwrap();
        }
        // A four-player corpus has no kita (§24).
        assert!(
            fa.height() > 0 || ["danger_eval", "kita"].contains(&name),
            "{name} is empty"
        );
        assert!(
            fa.equals_missing(&fb),
            "{name} differs between files and database"
        );
    }
}

fn check_databases_match_files(dir: &Path, limit: usize) {
    let logs = logs(dir, limit);
    let tmp = tempfile::tempdir().unwrap();
    let inputs = tmp.path().join("files");
    std::fs::create_dir(&inputs).unwrap();
    for (id, xml) in &logs {
        std::fs::write(inputs.join(format!("{id}.xml")), xml).unwrap();
    }
    let from_files = tmp.path().join("from-files");
    let s = run_ingest(&[inputs], &from_files, RoomFilter::Any);
    assert_eq!(s.manifest.totals.failed, 0);

    let houou = tmp.path().join("houou.db");
    houou_db(&houou, &logs, false);
    let from_houou = tmp.path().join("from-houou");
    let h = run_ingest(std::slice::from_ref(&houou), &from_houou, RoomFilter::Any);
    assert_eq!(h.manifest.totals.files, logs.len() as u64);
    assert!(h.manifest.files().unwrap()[0]
        .path
        .starts_with(&format!("{}#", houou.display())));
    assert_same_frames(&from_files, &from_houou);

    let phoenix = tmp.path().join("phoenix.sqlite");
    phoenix_db(&phoenix, &logs);
    let from_phoenix = tmp.path().join("from-phoenix");
    let p = run_ingest(
        std::slice::from_ref(&phoenix),
        &from_phoenix,
        RoomFilter::Any,
    );
    assert_eq!(p.manifest.totals.games, s.manifest.totals.games);
    assert_same_frames(&from_files, &from_phoenix);
    // `agree --every-decision` reads the games again: from the databases' rows as from the
    // files.
    let every = |dir: &Path| {
        common::ok(&common::haifu(&[
            "agree",
            "--frames",
            dir.to_str().unwrap(),
            "--every-decision",
            "--format",
            "csv",
        ]))
    };
    let want = every(&from_files);
    assert!(want.lines().count() > 10, "{want}");
    assert_eq!(every(&from_houou), want);
    assert_eq!(every(&from_phoenix), want);
}

#[test]
fn databases_of_the_fixtures_ingest_like_the_files() {
    check_databases_match_files(&fixtures(), usize::MAX);
}

#[test]
fn databases_of_corpus_games_ingest_like_the_files() {
    let Some(dir) = corpus("phoenix") else { return };
    check_databases_match_files(&dir, 400);
}

#[test]
fn a_corrupt_blob_is_a_named_error_for_its_log_id() {
    let logs = logs(&fixtures(), usize::MAX);
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("houou.db");
    houou_db(&db, &logs, true);
    let s = run_ingest(
        std::slice::from_ref(&db),
        &tmp.path().join("out"),
        RoomFilter::Any,
    );
    let bad = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .find(|f| f.path.ends_with("#2099123100gm-00a9-0000-bad00bad"))
        .expect("the corrupt row is in the manifest");
    assert_eq!(bad.status, Status::Failed);
    assert!(
        bad.reason_text()
            .as_deref()
            .unwrap()
            .starts_with("corrupt-gzip"),
        "{bad:?}"
    );
    let unfetched = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .find(|f| f.path.ends_with("#2099123101gm-00a9-0000-0000fe7c"))
        .unwrap();
    assert_eq!(unfetched.status, Status::Skipped);
    // The ten fixture games with a log id (misc/ is not listed) still ingest.
    assert_eq!(logs.len(), 10);
    assert_eq!(s.manifest.totals.games, 10);
    assert_eq!(s.manifest.totals.files, logs.len() as u64 + 2);
}

#[test]
fn a_database_of_another_shape_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("other.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute_batch("CREATE TABLE games (x INTEGER); INSERT INTO games VALUES (1);")
        .unwrap();
    drop(c);
    let s = run_ingest(
        std::slice::from_ref(&db),
        &tmp.path().join("out"),
        RoomFilter::Any,
    );
    assert_eq!(s.manifest.totals.failed, 1);
    let files = s.manifest.files().unwrap();
    let reason = files[0].reason_text().unwrap();
    assert!(reason.starts_with("not a log database"), "{reason}");
}

/// A run whose sorted inputs are files, a database, then files again, sharing log ids across
/// all three, over more inputs than one batch ([`haifu::ingest::BATCH_FILES`]): each log id
/// lands once, at its first input in path order, and every later copy is skipped naming it.
///
/// Ids are `n` = 0..1300 (one fixture game under each id):
/// - `a/` files n = 0..600: all land (600);
/// - `m.db` rows n = 500..700: 500..600 are copies of `a/` files (100 skipped), 600..700 land;
/// - `z/` files n = 650..1300: 650..700 are copies of database rows (50 skipped), the rest land.
///
/// So 1450 inputs, 1300 games, 150 skipped.
#[test]
fn files_and_a_database_in_one_run_land_each_log_id_once() {
    const { assert!(haifu::ingest::BATCH_FILES < 600) };
    let (_, xml) = logs(&fixtures(), 1).remove(0);
    let id = |n: usize| format!("2024010100gm-00a9-0000-{n:08x}");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("in");
    for (dir, range) in [("a", 0..600), ("z", 650..1300)] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
        for n in range {
            std::fs::write(root.join(dir).join(format!("{}.xml", id(n))), &xml).unwrap();
        }
    }
    let rows: Vec<(String, Vec<u8>)> = (500..700).map(|n| (id(n), xml.clone())).collect();
    let db = root.join("m.db");
    houou_db(&db, &rows, false);
    let out = tmp.path().join("out");
    let s = run_ingest(std::slice::from_ref(&root), &out, RoomFilter::Any);
    let t = &s.manifest.totals;
    assert_eq!((t.files, t.ok, t.skipped, t.failed), (1450, 1300, 150, 0));
    let file_path = |dir: &str, n: usize| root.join(dir).join(format!("{}.xml", id(n)));
    let row_path = |n: usize| format!("{}#{}", db.display(), id(n));
    let files = s.manifest.files().unwrap();
    let entry = |path: &str| files.iter().find(|f| f.path == path).unwrap();
    for n in 500..600 {
        let copy = entry(&row_path(n));
        let first = file_path("a", n).display().to_string();
        assert_eq!(copy.status, Status::Skipped, "{copy:?}");
        assert_eq!(
            copy.reason_text().as_deref(),
            Some(format!("duplicate: same game as {first}").as_str())
        );
    }
    for n in 650..700 {
        let copy = entry(&file_path("z", n).display().to_string());
        assert_eq!(copy.status, Status::Skipped, "{copy:?}");
        assert_eq!(
            copy.reason_text().as_deref(),
            Some(format!("duplicate: same game as {}", row_path(n)).as_str())
        );
    }
    for n in (600..650).chain(700..710) {
        let path = if n < 700 {
            row_path(n)
        } else {
            file_path("z", n).display().to_string()
        };
        assert_eq!(entry(&path).status, Status::Ok, "{path}");
    }
    // Entries in input order: the database's rows sit between the two directories.
    let at = |p: &str| files.iter().position(|f| f.path == p).unwrap();
    assert!(at(&file_path("a", 599).display().to_string()) < at(&row_path(500)));
    assert!(at(&row_path(699)) < at(&file_path("z", 650).display().to_string()));
    let games = frame(&out, "games");
    assert_eq!(games.height(), 1300);
    assert_eq!(games.column("game_id").unwrap().n_unique().unwrap(), 1300);
}

// ---------------------------------------------------------------------------------------------
// Rows that are not a clean game: downloader errors, empty logs, corrupt bz2, many pages.

/// Which downloader's table a test database imitates.
#[derive(Clone, Copy)]
enum Downloader {
    /// houou-logs: `id`, `log` (gzip).
    Houou,
    /// phoenix-logs: `log_id`, `log_content` (bz2).
    Phoenix,
}

impl Downloader {
    /// The downloader's own compression of a log.
    fn compress(self, xml: &[u8]) -> Vec<u8> {
        match self {
            Downloader::Houou => gzip(xml),
            Downloader::Phoenix => bzip(xml),
        }
    }
}

/// One row of a test database: log id, `is_processed`, `was_error`, and the log column
/// (`None`: SQL NULL).
struct DbRow {
    id: String,
    processed: bool,
    error: bool,
    log: Option<Vec<u8>>,
}

impl DbRow {
    /// A fetched, non-error row holding `log`.
    fn ok(id: &str, log: Vec<u8>) -> Self {
        DbRow {
            id: id.to_string(),
            processed: true,
            error: false,
            log: Some(log),
        }
    }
}

/// A database of `kind`'s schema holding `rows`, inserted in the order given (which need not
/// be log-id order).
fn db_with_rows(path: &Path, kind: Downloader, rows: &[DbRow]) {
    let mut c = rusqlite::Connection::open(path).unwrap();
    let insert = match kind {
        Downloader::Houou => {
            c.execute_batch(
                "CREATE TABLE logs (id TEXT PRIMARY KEY, date INTEGER, num_players INTEGER, \
                 is_tonpu INTEGER, is_processed INTEGER, was_error INTEGER, log BLOB)",
            )
            .unwrap();
            "INSERT INTO logs VALUES (?1, 0, 4, 0, ?2, ?3, ?4)"
        }
        Downloader::Phoenix => {
            c.execute_batch(
                "CREATE TABLE logs (log_id TEXT PRIMARY KEY, date TEXT, is_tonpusen INTEGER, \
                 is_sanma INTEGER, is_processed INTEGER, was_error INTEGER, log_content BLOB)",
            )
            .unwrap();
            "INSERT INTO logs VALUES (?1, '', 0, 0, ?2, ?3, ?4)"
        }
    };
    let tx = c.transaction().unwrap();
    for r in rows {
        tx.execute(
            insert,
            rusqlite::params![r.id, r.processed as i64, r.error as i64, r.log],
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

/// The fixture game f001 (uncompressed), stored under any log id in these tests.
fn game_xml() -> Vec<u8> {
    std::fs::read(fixtures().join("2099010100gm-00a9-0000-0000f001.xml")).unwrap()
}

/// A log id of the Phoenix room dated 2024-01-01 whose text order is the order of `n`.
fn log_id(n: usize) -> String {
    format!("2024010100gm-00a9-0000-{n:08x}")
}

/// Ingests the database `db` alone (room any) into `out`; returns the manifest as written to
/// `out/manifest.json` (not the in-memory summary: the file is what a user reads), after
/// checking it agrees with the summary the run returned, and whether the run failed.
///
/// The ingest runs on its own thread and must finish within two minutes (these databases take
/// seconds): a page query that never moves past its last row (`>=` for `>`) would otherwise
/// hang the test instead of failing it.
fn ingest_db(db: &Path, out: &Path) -> (haifu::manifest::ManifestDocument, bool) {
    let (tx, rx) = std::sync::mpsc::channel();
    let (input, dir) = (db.to_path_buf(), out.to_path_buf());
    std::thread::spawn(move || {
        let _ = tx.send(run_ingest(&[input], &dir, RoomFilter::Any));
    });
    let s = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the ingest of the database ends (within 2 minutes)");
    let written = haifu::manifest::ManifestDocument::read(&out.join("manifest.json")).unwrap();
    assert_eq!(written.files, s.manifest.files().unwrap());
    assert_eq!(written.totals, s.manifest.totals);
    (written, s.failed())
}

/// The written manifest's entries as (row's log id, status, reason text, games, hands), in
/// manifest order; every entry must be named `<db path>#<log id>` and carry that log id.
fn row_entries(
    db: &Path,
    m: &haifu::manifest::ManifestDocument,
) -> Vec<(String, Status, Option<String>, u32, u32)> {
    let prefix = format!("{}#", db.display());
    m.files
        .iter()
        .map(|f| {
            let id = f
                .path
                .strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("{} is not a row of {}", f.path, db.display()));
            assert_eq!(f.game_id.as_deref(), Some(id), "{f:?}");
            (id.to_string(), f.status, f.reason_text(), f.games, f.hands)
        })
        .collect()
}

/// The `game_id` column of the `games` frame in `out`, in frame order.
fn frame_game_ids(out: &Path) -> Vec<String> {
    let games = frame(out, "games");
    let ids = games.column("game_id").unwrap().str().unwrap().clone();
    ids.iter().map(|s| s.unwrap().to_string()).collect()
}

/// Protects the `was_error` flag: a row the downloader marked as an error is skipped with
/// reason `db-error`, listed in the manifest under its log id, counted in `skips_by_reason`,
/// and none of its content lands, even when the blob it holds is a valid game (the flag, not
/// the content, decides), in both schemas. The rows around it still land.
#[test]
fn a_row_marked_as_an_error_is_skipped_as_db_error_and_listed() {
    let xml = game_xml();
    for kind in [Downloader::Houou, Downloader::Phoenix] {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("logs.db");
        let rows = vec![
            DbRow::ok(&log_id(1), kind.compress(&xml)),
            // A valid game under the error flag: ignoring the flag would ingest it.
            DbRow {
                error: true,
                ..DbRow::ok(&log_id(2), kind.compress(&xml))
            },
            // The usual shape of an error row: no log at all. The flag wins over `db-empty`.
            DbRow {
                id: log_id(3),
                processed: true,
                error: true,
                log: None,
            },
            DbRow::ok(&log_id(4), kind.compress(&xml)),
        ];
        db_with_rows(&db, kind, &rows);
        let out = tmp.path().join("out");
        let (m, failed) = ingest_db(&db, &out);
        let db_error = Some("db-error: the downloader marked this log as an error".to_string());
        let hands = m.files[0].hands;
        assert!(hands > 0);
        assert_eq!(
            row_entries(&db, &m),
            vec![
                (log_id(1), Status::Ok, None, 1, hands),
                (log_id(2), Status::Skipped, db_error.clone(), 0, 0),
                (log_id(3), Status::Skipped, db_error, 0, 0),
                (log_id(4), Status::Ok, None, 1, hands),
            ]
        );
        let t = &m.totals;
        assert_eq!((t.files, t.ok, t.skipped, t.failed), (4, 2, 2, 0));
        assert_eq!(t.games, 2);
        assert!(!failed, "a skipped row is not a failure (exit 0)");
        assert_eq!(m.skips_by_reason.get("db-error"), Some(&2));
        assert_eq!(m.skips_by_reason.len(), 1, "{:?}", m.skips_by_reason);
        assert!(m.failures_by_reason.is_empty());
        assert_eq!(frame_game_ids(&out), vec![log_id(1), log_id(4)]);
    }
}

/// Protects the empty-row paths, which take two different routes through the code:
/// - a NULL log column in a fetched, non-error row never reaches the decoder: it is skipped
///   with reason `db-empty` (src/logdb.rs, `LogDb::page`);
/// - a zero-length blob (and, in phoenix-logs, a valid bz2 stream of zero bytes) is read and
///   fails like an empty file, with reason `empty` (src/input.rs via the worker's row path);
/// - a row never fetched (`is_processed` 0, NULL log) is skipped as `db-unprocessed`.
///
/// Each is in the manifest once under its log id and counted by reason, and none stops the
/// rows after it.
#[test]
fn empty_rows_are_skipped_or_failed_by_name_and_accounted_for() {
    let xml = game_xml();
    for kind in [Downloader::Houou, Downloader::Phoenix] {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("logs.db");
        let rows = vec![
            DbRow {
                log: None,
                ..DbRow::ok(&log_id(1), Vec::new())
            },
            DbRow::ok(&log_id(2), Vec::new()),
            // The downloader's compression of an empty document.
            DbRow::ok(&log_id(3), kind.compress(b"")),
            DbRow {
                id: log_id(4),
                processed: false,
                error: false,
                log: None,
            },
            DbRow::ok(&log_id(5), kind.compress(&xml)),
        ];
        db_with_rows(&db, kind, &rows);
        let out = tmp.path().join("out");
        let (m, failed) = ingest_db(&db, &out);
        let entries = row_entries(&db, &m);
        let ids: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(
            ids,
            [1, 2, 3, 4, 5].map(log_id),
            "one entry per row, in id order"
        );
        let (status, reason): (Vec<Status>, Vec<Option<&str>>) =
            entries.iter().map(|e| (e.1, e.2.as_deref())).unzip();
        assert_eq!(
            status,
            [
                Status::Skipped,
                Status::Failed,
                Status::Failed,
                Status::Skipped,
                Status::Ok
            ]
        );
        assert_eq!(reason[0], Some("db-empty: the row holds no log"));
        // (The detail says "file" for a row too: it is the decoder's message for any input.)
        assert_eq!(reason[1..3], [Some("empty: the file holds no data"); 2]);
        assert_eq!(
            reason[3],
            Some("db-unprocessed: the downloader has not fetched this log")
        );
        assert_eq!(reason[4], None);
        let t = &m.totals;
        assert_eq!(
            (t.files, t.ok, t.skipped, t.failed, t.games),
            (5, 1, 2, 2, 1)
        );
        assert!(failed, "an `empty` row is a failure (exit 2)");
        assert_eq!(
            m.skips_by_reason.iter().collect::<Vec<_>>(),
            [
                (&"db-empty".to_string(), &1),
                (&"db-unprocessed".to_string(), &1)
            ]
        );
        assert_eq!(
            m.failures_by_reason.iter().collect::<Vec<_>>(),
            [(&"empty".to_string(), &2)]
        );
        assert_eq!(frame_game_ids(&out), vec![log_id(5)]);
    }
}

/// Protects the bz2 path of phoenix-logs rows: a blob that starts with the bzip2 magic but is
/// not a valid stream (garbage after the header, or a real stream cut short) fails with
/// reason `corrupt-bzip2` under its own log id, and the run goes on: the rows after it in the
/// same batch are decompressed (by the same worker buffer) and land.
#[test]
fn a_corrupt_bz2_blob_fails_as_corrupt_bzip2_and_the_batch_goes_on() {
    let xml = game_xml();
    let good = bzip(&xml);
    let mut garbage = b"BZh91AY&SY".to_vec();
    garbage.extend((0..200u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    let cut = good[..good.len() / 2].to_vec();
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("phoenix.sqlite");
    db_with_rows(
        &db,
        Downloader::Phoenix,
        &[
            DbRow::ok(&log_id(1), good.clone()),
            DbRow::ok(&log_id(2), garbage),
            DbRow::ok(&log_id(3), good.clone()),
            DbRow::ok(&log_id(4), cut),
            DbRow::ok(&log_id(5), good),
        ],
    );
    let out = tmp.path().join("out");
    let (m, failed) = ingest_db(&db, &out);
    let entries = row_entries(&db, &m);
    let status: Vec<Status> = entries.iter().map(|e| e.1).collect();
    use Status::{Failed, Ok};
    assert_eq!(status, [Ok, Failed, Ok, Failed, Ok]);
    for e in [&entries[1], &entries[3]] {
        let r = e.2.as_deref().unwrap();
        assert!(r.starts_with("corrupt-bzip2: "), "{}: {r}", e.0);
        assert_eq!((e.3, e.4), (0, 0));
    }
    assert!(failed);
    let t = &m.totals;
    assert_eq!(
        (t.files, t.ok, t.skipped, t.failed, t.games),
        (5, 3, 0, 2, 3)
    );
    assert_eq!(
        m.failures_by_reason.iter().collect::<Vec<_>>(),
        [(&"corrupt-bzip2".to_string(), &2)]
    );
    assert_eq!(frame_game_ids(&out), vec![log_id(1), log_id(3), log_id(5)]);
}

/// Protects the paging of a database (src/ingest/units.rs asks `LogDb::page` for at most the
/// rest of a batch of [`haifu::ingest::BATCH_FILES`] units, and the next page starts after the
/// last log id of the previous one): a database of more than two pages, whose rows were
/// inserted out of log-id order, is read row by row exactly once, in log-id order — every row
/// in the manifest once, the skipped rows on either side of the first page boundary
/// included, and the games frame holding each fetched row's game once, in log-id order. A page
/// query that repeated its boundary row, lost one, or followed insertion order fails this.
#[test]
fn a_database_of_several_pages_is_read_once_in_log_id_order() {
    const PAGE: usize = haifu::ingest::BATCH_FILES;
    let n = 2 * PAGE + 77;
    let xml = game_xml();
    let blob = gzip(&xml);
    // Which rows are skipped: an unfetched one on each side of the first page boundary, and a
    // downloader error every 97 rows.
    let unfetched = |i: usize| i == PAGE - 1 || i == PAGE;
    let error = |i: usize| i % 97 == 5;
    // Inserted in the order i -> (i * 7919) mod n (7919 is prime and does not divide n, so
    // this visits every row once, far from id order).
    assert_ne!(n % 7919, 0);
    let rows: Vec<DbRow> = (0..n)
        .map(|k| {
            let i = (k * 7919) % n;
            DbRow {
                id: log_id(i),
                processed: !unfetched(i),
                error: error(i),
                log: (!unfetched(i)).then(|| blob.clone()),
            }
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("houou.db");
    db_with_rows(&db, Downloader::Houou, &rows);
    // The table's own order is not id order, so a query without ORDER BY would show.
    let rowid_order: Vec<String> = rusqlite::Connection::open(&db)
        .unwrap()
        .prepare("SELECT id FROM logs ORDER BY rowid")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_ne!(rowid_order[..3], [log_id(0), log_id(1), log_id(2)]);

    let out = tmp.path().join("out");
    let (m, failed) = ingest_db(&db, &out);
    assert!(!failed);
    let entries = row_entries(&db, &m);
    let listed: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    let expected: Vec<String> = (0..n).map(log_id).collect();
    assert_eq!(listed, expected, "every row once, in log-id order");
    for (i, e) in entries.iter().enumerate() {
        let want = if unfetched(i) {
            (Status::Skipped, Some("db-unprocessed"))
        } else if error(i) {
            (Status::Skipped, Some("db-error"))
        } else {
            (Status::Ok, None)
        };
        let name = e.2.as_deref().map(|r| r.split(':').next().unwrap());
        assert_eq!((e.1, name), want, "row {i}");
    }
    let landed: Vec<String> = (0..n)
        .filter(|&i| !unfetched(i) && !error(i))
        .map(log_id)
        .collect();
    let skipped = n - landed.len();
    let t = &m.totals;
    assert_eq!(
        (t.files, t.ok, t.skipped, t.failed),
        (n as u64, landed.len() as u64, skipped as u64, 0)
    );
    assert_eq!(
        frame_game_ids(&out),
        landed,
        "each game once, in log-id order"
    );
}
