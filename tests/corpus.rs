//! Corpus tests on ../shared/corpus (skipped, loudly, when it is absent).

mod common;

use std::path::PathBuf;

use common::{corpus, first_files, frame, run_ingest, run_ingest_threads, sum_i64};
use haifu::ingest::RoomFilter;
use haifu::manifest::Status;
use polars::prelude::*;

#[test]
fn phoenix_replays_every_hand_and_accounts_for_every_draw() {
    let Some(dir) = corpus("phoenix") else { return };
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(&[dir], out.path(), RoomFilter::Phoenix);
    let t = &s.manifest.totals;
    assert_eq!((t.files, t.ok, t.failed, t.skipped), (6448, 6448, 0, 0));
    assert_eq!((t.games, t.hands), (6448, 65139));
    assert!(!s.failed());
    // The manifest's counts equal the frames' rows.
    let games = frame(out.path(), "games");
    let hands = frame(out.path(), "hands");
    assert_eq!(games.height() as u64, t.games);
    assert_eq!(hands.height() as u64, t.hands);
    // draw_rate accounts for every draw: summed hits = draw records replayed, summed units =
    // 37 (34 without red fives) × draw records.
    let draws = sum_i64(&hands, "draws");
    assert_eq!(draws as u64, s.manifest.corpus.draws);
    let joined = hands
        .clone()
        .lazy()
        .join(
            games.clone().lazy(),
            [col("game_id")],
            [col("game_id")],
            JoinArgs::new(JoinType::Inner),
        )
        .select([(col("draws").cast(DataType::Int64)
            * when(col("red")).then(lit(37i64)).otherwise(lit(34i64)))
        .sum()
        .alias("units")])
        .collect()
        .unwrap();
    let dr = frame(out.path(), "draw_rate");
    assert_eq!(sum_i64(&dr, "hits"), draws);
    assert_eq!(sum_i64(&dr, "units"), sum_i64(&joined, "units"));
    // The parameter file round-trips: its raw counts sum to the frame's.
    let (value, csv) = haifu::params::tsumo_rate(out.path(), haifu::params::Fold::All).unwrap();
    let text = serde_json::to_string(&value).unwrap();
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rows = back["by_held_visible"].as_array().unwrap();
    let (mut units, mut hits) = (0i64, 0i64);
    for r in rows.iter().filter(|r| r["class"] == "all") {
        units += r["units"].as_i64().unwrap();
        hits += r["hits"].as_i64().unwrap();
    }
    assert_eq!(hits, draws);
    assert_eq!(units, sum_i64(&dr, "units"));
    assert_eq!(back["corpus"]["games"], 6448);
    assert!(csv.starts_with("# by_held_visible\n"));
}

#[test]
fn other_rooms_replay_without_failure() {
    let Some(dir) = corpus("other") else { return };
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(&[dir], out.path(), RoomFilter::Any);
    let t = &s.manifest.totals;
    assert_eq!((t.files, t.ok, t.failed), (4141, 4141, 0));
    assert_eq!(t.hands, 43520);
    // Every game has a Tenhou log id, the one with a five-digit lobby field included, and so
    // a date; the frames' game ids are those ids.
    let games = frame(out.path(), "games");
    assert_eq!(games.column("date").unwrap().null_count(), 0);
    let ids = games.column("game_id").unwrap().str().unwrap().clone();
    let five = "2019020120gm-0009-10011-215330df";
    let row = (0..games.height())
        .find(|&r| ids.get(r) == Some(five))
        .unwrap();
    let date = games.column("date").unwrap().str().unwrap().get(row);
    assert_eq!(date, Some("2019-02-01"));
}

/// On the Phoenix corpus, the years partition the games: `riichi-response --where` for each
/// year gives the rows `riichi-response-by-year` gives for it, and the years' units add up to
/// the unsliced table's.
#[test]
fn phoenix_slices_by_year_partition_the_corpus() {
    let Some(out) = common::ingested_phoenix_games(usize::MAX) else {
        return;
    };
    let dir = out.path();
    let mut ctx = haifu::report::context(dir, None).unwrap();
    let r = haifu::report::find("riichi-response-by-year").unwrap();
    let by_year = haifu::report::run(&mut ctx, r.sql, r.filter).unwrap();
    let r = haifu::report::find("riichi-response").unwrap();
    let whole = haifu::report::run(&mut ctx, r.sql, r.filter).unwrap();
    let years = by_year.column("year").unwrap().str().unwrap().clone();
    let outcomes = by_year.column("outcome").unwrap().str().unwrap().clone();
    let units = by_year
        .column("units")
        .unwrap()
        .cast(&DataType::Int64)
        .unwrap();
    let units = units.i64().unwrap().clone();
    let mut distinct: Vec<&str> = years
        .iter()
        .map(|y| y.expect("every game has a date"))
        .collect();
    distinct.dedup();
    assert!(distinct.len() >= 10, "{distinct:?}");
    let mut total = 0;
    for year in &distinct {
        let slice = haifu::report::Slice::select(dir, &format!("date LIKE '{year}-%'")).unwrap();
        let mut sctx = haifu::report::context_over(dir, None, Some(&slice)).unwrap();
        let sliced = haifu::report::run(&mut sctx, r.sql, r.filter).unwrap();
        let so = sliced.column("outcome").unwrap().str().unwrap().clone();
        let su = sliced
            .column("units")
            .unwrap()
            .cast(&DataType::Int64)
            .unwrap();
        let su = su.i64().unwrap().clone();
        for i in 0..sliced.height() {
            let j = (0..by_year.height())
                .find(|&j| years.get(j) == Some(year) && outcomes.get(j) == so.get(i))
                .unwrap();
            assert_eq!(su.get(i), units.get(j), "{year} {:?}", so.get(i));
            if so.get(i) == Some("all") {
                total += su.get(i).unwrap();
            }
        }
    }
    let wo = whole.column("outcome").unwrap().str().unwrap().clone();
    let all = (0..whole.height())
        .find(|&i| wo.get(i) == Some("all"))
        .unwrap();
    let wu = whole
        .column("units")
        .unwrap()
        .cast(&DataType::Int64)
        .unwrap();
    assert_eq!(wu.i64().unwrap().get(all), Some(total));
}

#[test]
fn three_player_games_are_skipped() {
    let Some(dir) = corpus("sanma") else { return };
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(&[dir], out.path(), RoomFilter::Any);
    let t = &s.manifest.totals;
    assert_eq!((t.files, t.skipped, t.ok, t.failed), (278, 278, 0, 0));
    assert_eq!(s.manifest.skips_by_reason.get("three-player"), Some(&278));
    assert!(!s.failed());
}

#[test]
fn edge_cases_replay_or_fail_with_a_named_reason() {
    let Some(dir) = corpus("edge") else { return };
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(std::slice::from_ref(&dir), out.path(), RoomFilter::Any);
    let mut on_disk: Vec<PathBuf> = walk(&dir);
    on_disk.sort();
    let mut listed: Vec<PathBuf> = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .map(|f| PathBuf::from(&f.path))
        .collect();
    listed.sort();
    assert_eq!(
        listed, on_disk,
        "every file appears in the manifest exactly once"
    );
    for f in &s.manifest.files().unwrap() {
        match f.status {
            Status::Ok => assert!(f.reason.is_none() && f.games == 1),
            _ => {
                let r = f.reason_text().unwrap_or_default();
                let name = r.split(':').next().unwrap();
                assert!(
                    !name.is_empty() && !name.contains(' ') && r.len() > name.len() + 2,
                    "{}: reason {r:?} is not `name: detail`",
                    f.path
                );
            }
        }
    }
    // 156 logs plus INDEX.tsv.
    assert_eq!(s.manifest.totals.files, 157);
    assert!(s.manifest.totals.ok >= 90, "{:?}", s.manifest.totals);
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn frames_are_identical_at_any_thread_count_and_input_order() {
    let Some(dir) = corpus("phoenix") else { return };
    // A slice of the corpus given in two orders, at one and two threads.
    let files = first_files(&dir, 700);
    let mut reversed = files.clone();
    reversed.reverse();
    let run = |threads: usize, inputs: &[PathBuf]| {
        let out = tempfile::tempdir().unwrap();
        run_ingest_threads(threads, inputs, out.path(), RoomFilter::Phoenix);
        // Every frame the run wrote, by name.
        let mut names: Vec<PathBuf> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
            .collect();
        names.sort();
        assert_eq!(names.len(), haifu::frames::FRAMES.len(), "{names:?}");
        let bytes: Vec<(PathBuf, Vec<u8>)> = names
            .iter()
            .map(|p| {
                (
                    PathBuf::from(p.file_name().unwrap()),
                    std::fs::read(p).unwrap(),
                )
            })
            .collect();
        let manifest = std::fs::read_to_string(out.path().join("manifest.json")).unwrap();
        (bytes, manifest)
    };
    let one = run(1, &files);
    let two = run(2, &reversed);
    assert!(
        one.0 == two.0,
        "frames differ between 1 and 2 threads / input orders"
    );
    assert_eq!(one.1, two.1);
}

/// On 300 Phoenix games: the ingest's game-by-game §4 scores equal scoring the finished
/// `danger_situations` frame afresh.
#[test]
fn danger_scores_equal_standalone_scoring() {
    let Some(out) = common::ingested_phoenix_games(300) else {
        return;
    };
    common::assert_scores_match_standalone(out.path());
}

/// Every game given twice (a second directory of links to the same files): the second copies
/// are skipped as duplicates whether a worker meets them before or after the first copy has
/// landed, so frames and manifest are the same at one and two threads, and the frames equal
/// those of a run over the first copies alone.
#[test]
fn duplicates_give_the_same_output_however_they_are_met() {
    let Some(dir) = corpus("phoenix") else { return };
    let files = first_files(&dir, 600);
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    for f in &files {
        let name = f.file_name().unwrap();
        std::os::unix::fs::symlink(f, a.join(name)).unwrap();
        std::os::unix::fs::symlink(f, b.join(name)).unwrap();
    }
    let run = |threads: usize, inputs: &[PathBuf], out: &std::path::Path| {
        run_ingest_threads(threads, inputs, out, RoomFilter::Phoenix)
    };
    let (one, two, alone) = (
        tmp.path().join("one"),
        tmp.path().join("two"),
        tmp.path().join("alone"),
    );
    let s1 = run(1, &[a.clone(), b.clone()], &one);
    run(2, &[a.clone(), b.clone()], &two);
    run(2, std::slice::from_ref(&a), &alone);
    assert_eq!(s1.manifest.totals.games, 600);
    let dups = s1
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .filter(|f| {
            f.reason
                .as_ref()
                .is_some_and(|r| r.reason == haifu::reason::Reason::Duplicate)
        })
        .count();
    assert_eq!(dups, 600);
    assert_eq!(
        std::fs::read_to_string(one.join("manifest.json")).unwrap(),
        std::fs::read_to_string(two.join("manifest.json")).unwrap()
    );
    for name in haifu::frames::FRAMES {
        let (x, y, z) = (frame(&one, name), frame(&two, name), frame(&alone, name));
        assert!(
            x.equals_missing(&y),
            "{name} differs between 1 and 2 threads"
        );
        assert!(
            x.equals_missing(&z),
            "{name} differs from the run without copies"
        );
    }
}
