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
        assert!(fa.height() > 0 || name == "danger_eval", "{name} is empty");
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
    // The eight fixture games with a log id (misc/ is not listed) still ingest.
    assert_eq!(logs.len(), 8);
    assert_eq!(s.manifest.totals.games, 8);
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
