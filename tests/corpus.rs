//! Corpus tests on ../shared/corpus (skipped, loudly, when it is absent).

mod common;

use std::path::PathBuf;

use common::{corpus, first_files, frame, run_ingest, run_ingest_threads, sum_i64};
use haifu::ingest::RoomFilter;
use haifu::manifest::{Status, WallStatus};
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
    let table = haifu::report::Table::select(out.path(), None).unwrap();
    let (value, csv) =
        haifu::params::tsumo_rate(out.path(), haifu::params::Fold::All, &table).unwrap();
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
        let table = haifu::report::Table::four();
        let slice =
            haifu::report::Slice::select(dir, &format!("date LIKE '{year}-%'"), &table).unwrap();
        let mut sctx = haifu::report::context_over(dir, None, Some(&slice), &table).unwrap();
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

/// Every three-player Phoenix game of the corpus replays (§24) with every proof: every win
/// scored equal to its AGARI and paid as its `sc` says under three-player rules, every
/// exhaustive draw and its noten payments, every dealt tile, draw and indicator in its
/// 108-tile wall; the frames hold its kitas and its three seats.
#[test]
fn three_player_games_replay_with_every_proof() {
    let Some(dir) = corpus("sanma") else { return };
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(&[dir], out.path(), RoomFilter::Phoenix);
    let t = &s.manifest.totals;
    assert_eq!((t.files, t.ok, t.skipped, t.failed), (278, 278, 0, 0));
    assert_eq!((t.games, t.hands), (278, 2534));
    assert_eq!((t.wins, t.wins_proved), (2178, 2178));
    assert_eq!((t.wall_checked, t.wall_unchecked), (278, 0));
    assert_eq!((t.wall_hands, t.wall_draws), (2534, 87_109));
    assert!(!s.failed());
    let games = frame(out.path(), "games");
    let players = games.column("players").unwrap().i32().unwrap().clone();
    assert!(players.iter().all(|p| p == Some(3)));
    assert_eq!(frame(out.path(), "kita").height(), 6531);
    let robbed = frame(out.path(), "kita")
        .column("robbed")
        .unwrap()
        .bool()
        .unwrap()
        .sum();
    assert_eq!(robbed, Some(6));
    assert_eq!(frame(out.path(), "seats").height(), 3 * 278);
    let hands = frame(out.path(), "hands");
    let exhaustive = hands
        .column("end")
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .filter(|e| *e == Some("exhaustive"))
        .count();
    assert_eq!(exhaustive, 296);
    assert_eq!(sum_i64(&hands, "delta_3"), 0);
}

/// Protects the outcome of every file of the edge corpus, one by one: a change in decode or
/// replay that turns a replaying game into a failure (or the reverse), changes a failure's
/// reason or detail, or replays a different number of hands shows here by file name, where a
/// count (`ok >= 90`) would let a swap of one ok file for one failed file through.
///
/// The table [`EDGE_OUTCOMES`] was made once by running haifu on the corpus
/// (`haifu ingest ../shared/corpus/edge --room any --out /tmp/edge-out`) and turning each
/// `manifest.json` entry (path relative to `edge/`, status, reason, hands) into a line. It was
/// not taken on trust: every ok file's hand count equals the `hands` column of the corpus's
/// own `edge/INDEX.tsv` (checked again below), every file INDEX.tsv marks as incomplete (no
/// owari) fails as `truncated`, and these entries were read against the files: `chip.xml`,
/// `ratio1.xml` and `sanma2.xml` have `<GO type="553">`, `"1569"` and `"185"`
/// (three-player bit 0x10: it replays, six hands, as three-player games do since version 5); `tenhou-python-bot/23.xml` has `<RYUUKYOKU owari="" />` with no
/// `ba`; `mjx/states.xml` has `<INIT seed="0,0,0,,,114"`; `mahjong-ai/one_round.xml` is one
/// hand from 250 each with `sc` deltas -10/+30/-5/-5 (seat 1 from 240 after its riichi) that
/// ends at 240/270/245/245, while its `owari` says 222/211/243/324; `mjx/upd-aft-ron3.xml`
/// ends with a `RYUUKYOKU` that has no `owari`, and `encdec-kan-opened-01.xml` ends inside
/// hand 12 (`...<N who="2" .../><F106/></mjloggm>`).
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
        // Every game that replayed was checked against its wall, or says why not.
        let wall_said = match f.wall {
            Some(WallStatus::Checked) => f.wall_reason.is_none(),
            Some(WallStatus::Unchecked) => f.wall_reason.is_some(),
            None => f.status != Status::Ok,
        };
        assert!(
            wall_said,
            "{}: wall {:?} {:?}",
            f.path, f.wall, f.wall_reason
        );
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
    // Every file's exact outcome, in manifest (sorted path) order.
    let got: Vec<(String, Status, Option<String>, u32, u32)> = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .map(|f| {
            let rel = std::path::Path::new(&f.path)
                .strip_prefix(&dir)
                .unwrap_or_else(|_| panic!("{} is not under {}", f.path, dir.display()))
                .to_string_lossy()
                .into_owned();
            // A duplicate names the first copy's path: under the corpus, as the entries are.
            let prefix = format!("{}/", dir.display());
            let reason = f.reason_text().map(|r| r.replace(&prefix, ""));
            (rel, f.status, reason, f.games, f.hands)
        })
        .collect();
    let want: Vec<(String, Status, Option<String>, u32, u32)> = EDGE_OUTCOMES
        .iter()
        .map(|&(path, status, reason, hands)| {
            let games = u32::from(status == Status::Ok);
            (
                path.to_string(),
                status,
                reason.map(str::to_string),
                games,
                hands,
            )
        })
        .collect();
    assert_eq!(got.len(), want.len(), "157 files: 156 logs plus INDEX.tsv");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "edge file {}", w.0);
    }
    let t = &s.manifest.totals;
    assert_eq!(
        (t.files, t.ok, t.skipped, t.failed, t.games, t.hands),
        (157, 96, 6, 55, 96, 957)
    );
    // Every game that replays is checked against its wall but one, a hand-made log whose
    // SHUFFLE seed is empty.
    assert_eq!(
        (t.wall_checked, t.wall_unchecked, t.wall_hands, t.wall_draws),
        (95, 1, 948, 45174)
    );
    // Every win of the edge logs that land is proved (the lobby rule sets, whose wins are not
    // scored, are skipped as unknown-rules: docs/inputs.md, "Every win scored").
    assert_eq!((t.wins, t.wins_proved), (795, 795), "edge wins");
    let unchecked: Vec<String> = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .filter(|f| f.wall == Some(WallStatus::Unchecked))
        .map(|f| format!("{}: {}", f.path, f.wall_reason.unwrap_or_default()))
        .collect();
    assert_eq!(unchecked.len(), 1);
    assert!(
        unchecked[0].ends_with("mahjong-ai/simple_hanchan.xml: no seed"),
        "{unchecked:?}"
    );
    // The corpus's own index agrees: an ok file replays the hands INDEX.tsv counts, and a log
    // INDEX.tsv marks as incomplete fails as truncated.
    let index = std::fs::read_to_string(dir.join("INDEX.tsv")).unwrap();
    let mut lines = index.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (file, hands, complete) = (col("file"), col("hands"), col("complete(owari)"));
    let mut indexed = 0;
    for line in lines {
        let cells: Vec<&str> = line.split('\t').collect();
        let g = got.iter().find(|g| g.0 == cells[file]).unwrap();
        if g.1 == Status::Ok {
            assert_eq!(g.4.to_string(), cells[hands], "{}", g.0);
        }
        if cells[complete] == "no" {
            let reason = g.2.as_deref().unwrap_or_default();
            assert!(reason.contains("truncated: "), "{}: {reason}", g.0);
        }
        indexed += 1;
    }
    assert_eq!(indexed, 156);
}

/// Every file of `../shared/corpus/edge` (path relative to it), in sorted path order: its
/// status, reason (`None` when ok) and hands replayed (games: 1 when ok, else 0). How it was
/// made and checked: see [`edge_cases_replay_or_fail_with_a_named_reason`].
#[rustfmt::skip]
const EDGE_OUTCOMES: &[(&str, Status, Option<&str>, u32)] = {
    use Status::{Failed, Ok, Skipped};
    &[
    ("CrazyBBB_tenhou-visualizer/test.xml", Ok, None, 6),
    ("DexGroves_tenhou_parse/example.xml", Ok, None, 12),
    ("INDEX.tsv", Failed, Some("not-mjlog: content is neither gzip, XML nor JSON (starts with bytes 66696c6509726570)"), 0),
    ("MahjongRepository_mahjong-ai/one_round.xml", Failed, Some("replay: score-mismatch: owari scores [22200, 21100, 24300, 32400] but the replay ends at [24000, 27000, 24500, 24500] with 0 in sticks"), 0),
    ("MahjongRepository_mahjong-ai/simple_hanchan.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/1.xml", Ok, None, 7),
    ("MahjongRepository_tenhou-python-bot/10.xml", Ok, None, 10),
    ("MahjongRepository_tenhou-python-bot/11.xml", Ok, None, 11),
    ("MahjongRepository_tenhou-python-bot/12.xml", Ok, None, 13),
    ("MahjongRepository_tenhou-python-bot/13.xml", Ok, None, 3),
    ("MahjongRepository_tenhou-python-bot/14.xml", Ok, None, 12),
    ("MahjongRepository_tenhou-python-bot/15.xml", Ok, None, 12),
    ("MahjongRepository_tenhou-python-bot/16.xml", Ok, None, 5),
    ("MahjongRepository_tenhou-python-bot/17.xml", Ok, None, 8),
    ("MahjongRepository_tenhou-python-bot/18.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/19.xml", Ok, None, 12),
    ("MahjongRepository_tenhou-python-bot/2.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/21.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/22.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/23.xml", Failed, Some("missing-attribute: <RYUUKYOKU> has no ba"), 0),
    ("MahjongRepository_tenhou-python-bot/24.xml", Failed, Some("missing-attribute: <RYUUKYOKU> has no ba"), 0),
    ("MahjongRepository_tenhou-python-bot/25.xml", Failed, Some("missing-attribute: <RYUUKYOKU> has no ba"), 0),
    ("MahjongRepository_tenhou-python-bot/26.xml", Ok, None, 11),
    ("MahjongRepository_tenhou-python-bot/27.xml", Ok, None, 13),
    ("MahjongRepository_tenhou-python-bot/28.xml", Ok, None, 6),
    ("MahjongRepository_tenhou-python-bot/29.xml", Ok, None, 13),
    ("MahjongRepository_tenhou-python-bot/30.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/31.xml", Ok, None, 6),
    ("MahjongRepository_tenhou-python-bot/32.xml", Ok, None, 12),
    ("MahjongRepository_tenhou-python-bot/33.xml", Ok, None, 7),
    ("MahjongRepository_tenhou-python-bot/34.xml", Ok, None, 7),
    ("MahjongRepository_tenhou-python-bot/35.xml", Ok, None, 10),
    ("MahjongRepository_tenhou-python-bot/36.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/37.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/38.xml", Ok, None, 15),
    ("MahjongRepository_tenhou-python-bot/39.xml", Ok, None, 5),
    ("MahjongRepository_tenhou-python-bot/4.xml", Ok, None, 7),
    ("MahjongRepository_tenhou-python-bot/40.xml", Ok, None, 9),
    ("MahjongRepository_tenhou-python-bot/41.xml", Ok, None, 14),
    ("MahjongRepository_tenhou-python-bot/5.xml", Ok, None, 8),
    ("MahjongRepository_tenhou-python-bot/6.xml", Ok, None, 12),
    ("MahjongRepository_tenhou-python-bot/7.xml", Ok, None, 15),
    ("MahjongRepository_tenhou-python-bot/8.xml", Ok, None, 10),
    ("MahjongRepository_tenhou-python-bot/9.xml", Ok, None, 9),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/fukugou.xml", Ok, None, 6),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/kakan.xml", Ok, None, 12),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/pao.xml", Ok, None, 4),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/ron3.xml", Ok, None, 11),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/test.xml", Ok, None, 13),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/yakumann.xml", Ok, None, 1),
    ("Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/yao9.xml", Ok, None, 13),
    ("chienshyong_houou-statistics/examplelog.00110f83.xml", Ok, None, 12),
    ("chienshyong_houou-statistics/examplelog.d5260162.xml", Ok, None, 12),
    ("chienshyong_houou-statistics/examplelog.xml", Ok, None, 13),
    ("chienshyong_houou-statistics/examplelog2.xml", Ok, None, 12),
    ("chienshyong_houou-statistics/examplelog3.a21faf23.xml", Ok, None, 11),
    ("chienshyong_houou-statistics/examplelog3.xml", Ok, None, 3),
    ("cozziekuns_HououDB/test_log.6baa2b6c.xml", Ok, None, 8),
    ("cozziekuns_HououDB/test_log.a3bb2a90.xml", Ok, None, 12),
    ("cozziekuns_HououDB/test_log.xml", Ok, None, 14),
    ("dnovikoff_tenhou/bug1.xml", Ok, None, 11),
    ("dnovikoff_tenhou/bug2.xml", Ok, None, 15),
    ("dnovikoff_tenhou/bug3.xml", Ok, None, 6),
    ("dnovikoff_tenhou/bug4.xml", Ok, None, 13),
    ("dnovikoff_tenhou/bug5.xml", Ok, None, 10),
    ("dnovikoff_tenhou/bug6.xml", Ok, None, 15),
    ("dnovikoff_tenhou/bug7.xml", Ok, None, 7),
    ("dnovikoff_tenhou/bug8.xml", Ok, None, 11),
    ("dnovikoff_tenhou/bug9.xml", Ok, None, 11),
    ("dnovikoff_tenhou/bye.xml", Ok, None, 7),
    ("dnovikoff_tenhou/chip.xml", Skipped, Some("unknown-rules: GO type 553 (0x229) is a rule set other than Tenhou's standard rules"), 0),
    ("dnovikoff_tenhou/example.xml", Ok, None, 9),
    ("dnovikoff_tenhou/newattr2023.xml", Skipped, Some("unknown-rules: GO type 257 (0x101) is a rule set other than Tenhou's standard rules"), 0),
    // The same bytes as the seminar's pao.xml, which sorts first: a duplicate by content (no
    // log id in either name).
    (
        "dnovikoff_tenhou/pao.xml",
        Skipped,
        Some("duplicate: same game as Riichi-Mahjong-Statistics-Seminar_tenhou-paifu-to-json/pao.xml"),
        0,
    ),
    ("dnovikoff_tenhou/ratio.xml", Skipped, Some("unknown-rules: GO type 2113 (0x841) is a rule set other than Tenhou's standard rules"), 0),
    ("dnovikoff_tenhou/ratio1.xml", Skipped, Some("unknown-rules: GO type 1569 (0x621) is a rule set other than Tenhou's standard rules"), 0),
    ("dnovikoff_tenhou/sanma.xml", Skipped, Some("unknown-rules: GO type 2113 (0x841) is a rule set other than Tenhou's standard rules"), 0),
    ("dnovikoff_tenhou/sanma2.xml", Ok, None, 6),
    ("dnovikoff_tenhou/shuffle.xml", Ok, None, 5),
    ("gimite_mjai/test.mjlog", Ok, None, 17),
    ("mjx-project_mjx/2011020401gm-00a9-0000-f6eff225-no-game-end.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/2011020401gm-00a9-0000-f6eff225-no-round-end.xml", Failed, Some("replay: hand 7: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/double-ron.xml", Ok, None, 4),
    ("mjx-project_mjx/encdec-chankan-ippatsu.xml", Ok, None, 9),
    ("mjx-project_mjx/encdec-chanta.xml", Ok, None, 10),
    ("mjx-project_mjx/encdec-double-riichi.xml", Ok, None, 12),
    ("mjx-project_mjx/encdec-four-concealed-pons.xml", Ok, None, 11),
    ("mjx-project_mjx/encdec-four-winds-no-winner.xml", Ok, None, 12),
    ("mjx-project_mjx/encdec-fu-max.xml", Ok, None, 15),
    ("mjx-project_mjx/encdec-kan-opened-01.xml", Failed, Some("replay: hand 12: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/encdec-kan-opened-02.xml", Failed, Some("replay: hand 12: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/encdec-kan-opened-03.xml", Failed, Some("replay: hand 12: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/encdec-no-north-rounds.xml", Ok, None, 15),
    ("mjx-project_mjx/encdec-nowinner-multi-top.xml", Ok, None, 11),
    ("mjx-project_mjx/encdec-pao-false-pos.xml", Ok, None, 7),
    ("mjx-project_mjx/encdec-pinfu-ipeiko-vs-sanankou.xml", Ok, None, 13),
    ("mjx-project_mjx/encdec-rinshan-fu.xml", Ok, None, 9),
    ("mjx-project_mjx/encdec-sanankou-false-neg.xml", Ok, None, 13),
    ("mjx-project_mjx/encdec-tenhou-false-pos.xml", Ok, None, 10),
    ("mjx-project_mjx/encdec-tenhou.xml", Ok, None, 2),
    ("mjx-project_mjx/kan4.1b3709f7.xml", Ok, None, 14),
    ("mjx-project_mjx/kan4.e9fae156.xml", Ok, None, 9),
    ("mjx-project_mjx/kan4.xml", Ok, None, 14),
    ("mjx-project_mjx/kaze4.xml", Ok, None, 15),
    ("mjx-project_mjx/nm.xml", Ok, None, 10),
    ("mjx-project_mjx/obs-chi-discard.xml", Failed, Some("replay: hand 5: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/obs-draw-kanadded.xml", Failed, Some("replay: hand 3: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/obs-pon-discard.xml", Failed, Some("replay: hand 1: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/pao-tsumo.6606d2ea.xml", Ok, None, 5),
    ("mjx-project_mjx/pao-tsumo.xml", Ok, None, 5),
    ("mjx-project_mjx/reach4.b3bc9abf.xml", Ok, None, 9),
    ("mjx-project_mjx/reach4.xml", Ok, None, 9),
    ("mjx-project_mjx/sansyoku-doukou-false-neg.xml", Ok, None, 13),
    ("mjx-project_mjx/states.xml", Failed, Some("bad-attribute: <INIT seed=\"0,0,0,,,114\">"), 0),
    ("mjx-project_mjx/upd-aft-discard-chi-chi.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-aft-draw+kanadded-ron-ron.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-draw-discard-draw.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-aft-draw-discard-nowinner.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-draw-kanclosed-dora+draw.xml", Failed, Some("replay: hand 3: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-aft-draw-kyuusyu-kyuusyu.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-draw-ron-ron.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-draw-tsumo-tsumo.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-kan4.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-kanadded+draw-discard-dora+discard.xml", Failed, Some("replay: hand 7: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-aft-nm.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-reach4.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-riichi+discard-chi-riichisc+chi.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-aft-riichi+discard-no-riichisc+draw.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-aft-riichi+discard-ron-ron.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-aft-ron3.xml", Failed, Some("replay: truncated: the final record has no owari"), 0),
    ("mjx-project_mjx/upd-bef-chankan-twice.xml", Failed, Some("replay: hand 1: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-discard-chi-chi.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw+kanadded-ron-ron.xml", Failed, Some("replay: hand 4: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-discard-discard.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-discard-draw.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-discard-nowinner.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-kanadded-draw.xml", Failed, Some("replay: hand 7: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-kanadded-kanadded.xml", Failed, Some("replay: hand 4: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-kanclosed-dora+draw.xml", Failed, Some("replay: hand 3: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-kyuusyu-kyuusyu.xml", Failed, Some("replay: hand 4: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-riichi-riichi.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-ron-ron.xml", Failed, Some("replay: hand 1: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-draw-tsumo-tsumo.xml", Failed, Some("replay: hand 4: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-kan4.xml", Failed, Some("replay: hand 2: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-kanadded+draw-discard-dora+discard.xml", Failed, Some("replay: hand 7: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-nm.xml", Failed, Some("replay: hand 3: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-reach4.xml", Failed, Some("replay: hand 2: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-riichi+discard-no-riichisc+draw.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-riichi+discard-ron-ron.xml", Failed, Some("replay: hand 8: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-riichi-discard-discard.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-riichi-discard-discard2.xml", Failed, Some("replay: hand 8: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-riichi-discard-riichisc+draw.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-bef-ron3.xml", Failed, Some("replay: hand 6: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-sutehai-furiten.7adec430.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/upd-sutehai-furiten.xml", Failed, Some("replay: hand 0: truncated: the log ends inside a hand"), 0),
    ("mjx-project_mjx/yao9.xml", Ok, None, 13),
    ("yshimizu20_MahjongAI/sample_haifu.xml", Ok, None, 16),
    ]
};

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

/// Pins the §2 wait shapes of the first 300 Phoenix games: the real waits (`is_wait`) of every
/// first riichi, counted by `wait_shape`. The counts were taken from haifu after its
/// `wait-danger` report had been checked cell by cell against an independent implementation
/// on the whole Phoenix corpus (README.md, "Where the project stands"); they protect the shape
/// rules that no fixture exercises in every form. Dropping the 8-9 penchan rule (a 7 waited
/// on with 89 counted as ryanmen) moves 58 of the 114 penchan waits to ryanmen here; only
/// a unit test in `hand::waits` saw it before.
#[test]
fn wait_shapes_of_300_phoenix_games_are_pinned() {
    let Some(out) = common::ingested_phoenix_games(300) else {
        return;
    };
    let df = frame(out.path(), "wait_danger");
    let waits = df.column("is_wait").unwrap().bool().unwrap().clone();
    let shapes = df.column("wait_shape").unwrap().str().unwrap().clone();
    let mut got: std::collections::BTreeMap<String, u32> = Default::default();
    for (w, s) in waits.iter().zip(shapes.iter()) {
        if w == Some(true) {
            *got.entry(s.expect("a wait has a shape").to_string())
                .or_default() += 1;
        }
    }
    let want: std::collections::BTreeMap<String, u32> = [
        ("kanchan", 412),
        ("penchan", 114),
        ("ryanmen", 2643),
        ("shanpon", 463),
        ("tanki", 265),
    ]
    .into_iter()
    .map(|(s, n)| (s.to_string(), n))
    .collect();
    assert_eq!(got, want);
}

/// §10–§14 on the whole Phoenix corpus (`--with development`): every AGARI is one `wins` row (the `hands`
/// frame's win count), its `win_yaku` rows are its yaku and yakuman entries; §12's four counts
/// of every kind sum to 4 per hand and every red type's to 1 (the corpus has red fives); the
/// §11 units are the four starting hands of every hand plus one per discard; every
/// declaration is a `riichi` row (the `hands` frame's declarations); one `hand_ends` row per
/// hand.
#[test]
fn phoenix_peer_frames_account_for_every_win_tile_and_discard() {
    let Some(dir) = corpus("phoenix") else { return };
    let out = tempfile::tempdir().unwrap();
    let s = common::run_ingest_peer(&[dir], out.path(), RoomFilter::Phoenix);
    assert_eq!(s.manifest.totals.failed, 0);
    let hands = frame(out.path(), "hands");
    let n_hands = hands.height() as i64;
    let wins = frame(out.path(), "wins");
    assert_eq!(wins.height() as i64, sum_i64(&hands, "wins"));
    let entries = sum_i64(&wins, "entries");
    assert_eq!(frame(out.path(), "win_yaku").height() as i64, entries);
    assert_eq!(
        frame(out.path(), "riichi").height() as i64,
        sum_i64(&hands, "declarations")
    );
    assert_eq!(frame(out.path(), "hand_ends").height() as i64, n_hands);
    let tiles = frame(out.path(), "tiles_at_end");
    let per_type = tiles
        .lazy()
        .group_by([col("type")])
        .agg([
            (col("hand") + col("melds") + col("river") + col("wall"))
                .cast(DataType::Int64)
                .sum()
                .alias("placed"),
            col("copies").cast(DataType::Int64).sum().alias("copies"),
            (col("in_hands") + col("in_rivers"))
                .cast(DataType::Int64)
                .sum()
                .alias("split"),
            (col("hand") + col("melds") + col("river"))
                .cast(DataType::Int64)
                .sum()
                .alias("seen"),
        ])
        .collect()
        .unwrap();
    assert_eq!(per_type.height(), 37);
    let types = per_type.column("type").unwrap().str().unwrap().clone();
    let ints = |c: &str| -> Vec<i64> {
        let s = per_type.column(c).unwrap().i64().unwrap().clone();
        s.iter().map(|v| v.unwrap()).collect()
    };
    let (placed, copies, split, seen) =
        (ints("placed"), ints("copies"), ints("split"), ints("seen"));
    // Hands of the games with red fives (one red 5m, 5p and 5s each).
    let red_hands = frame(out.path(), "games")
        .lazy()
        .filter(col("red"))
        .select([col("hands").cast(DataType::Int64).sum()])
        .collect()
        .unwrap();
    let red_hands = red_hands
        .column("hands")
        .unwrap()
        .i64()
        .unwrap()
        .get(0)
        .unwrap();
    assert!(red_hands > 0 && red_hands <= n_hands);
    for i in 0..37 {
        let red = types.get(i).unwrap().starts_with('0');
        let want = if red { red_hands } else { 4 * n_hands };
        assert_eq!(placed[i], want, "{:?}", types.get(i));
        assert_eq!(copies[i], want, "{:?}", types.get(i));
        // The 2025 split moves called tiles from melds to rivers: the same tiles.
        assert_eq!(split[i], seen[i], "{:?}", types.get(i));
    }
    // Every discard is a river tile at the hand's end (called ones too: in_rivers of the 34
    // kinds), counted by another observer than the §11 units.
    let by_turn = frame(out.path(), "by_turn");
    let rivers = frame(out.path(), "tiles_at_end")
        .lazy()
        .filter(col("type").str().starts_with(lit("0")).not())
        .select([col("in_rivers").cast(DataType::Int64).sum()])
        .collect()
        .unwrap();
    let rivers = rivers
        .column("in_rivers")
        .unwrap()
        .i64()
        .unwrap()
        .get(0)
        .unwrap();
    assert_eq!(sum_i64(&by_turn, "units"), 4 * n_hands + rivers);
    assert_eq!(sum_i64(&by_turn, "wins"), sum_i64(&hands, "wins"));
    assert_eq!(
        sum_i64(&by_turn, "declarations"),
        sum_i64(&hands, "declarations")
    );
}
