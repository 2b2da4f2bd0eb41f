//! §21 player profiles (`haifu stats players`, `haifu compare players`): fixture games worked
//! by hand, the bootstrap interval across thread counts, names as written, the same games in
//! other formats, and the Phoenix corpus.

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, haifu, ok, run_ingest, stats_json};
use haifu::ingest::RoomFilter;
use serde_json::{json, Value};

fn ingest(files: &[PathBuf]) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(files, out.path(), RoomFilter::Any);
    assert_eq!(s.manifest.totals.failed, 0);
    out
}

fn players(dir: &Path, extra: &[&str]) -> Vec<Value> {
    stats_json(dir, "players", extra)
}

fn row<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no row for {name:?}: {rows:?}"))
}

/// Every column of the report, in order.
const COLUMNS: [&str; 34] = [
    "name",
    "games",
    "hands",
    "place_1",
    "place_2",
    "place_3",
    "place_4",
    "average_place",
    "stable_dan",
    "stable_dan_lo",
    "stable_dan_hi",
    "busts",
    "score",
    "score_per_game",
    "win_rate",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "draw_rate",
    "average_win",
    "average_deal_in",
    "average_win_riichi",
    "average_win_open",
    "average_win_dama",
    "average_win_turn",
    "average_deal_in_turn",
    "average_riichi_turn",
    "riichi_win_rate",
    "riichi_deal_in_rate",
    "chasing_rate",
    "call_win_rate",
    "call_deal_in_rate",
    "dealer_hands",
    "dealer_wins",
];

/// `got` has exactly `want`'s columns and values (numbers compared as f64).
fn assert_row(got: &Value, want: &Value) {
    let (g, w) = (got.as_object().unwrap(), want.as_object().unwrap());
    let mut names: Vec<&String> = g.keys().collect();
    names.sort();
    let mut expected: Vec<&str> = COLUMNS.to_vec();
    expected.sort();
    assert_eq!(names, expected, "columns");
    for (k, v) in w {
        let c = &g[k];
        match (c.as_f64(), v.as_f64()) {
            (Some(a), Some(b)) => assert!(
                (a - b).abs() < 1e-9,
                "{}: {k} = {a}, expected {b}",
                w["name"]
            ),
            _ => assert_eq!(c, v, "{}: {k}", w["name"]),
        }
    }
}

/// f002 (tools/fixtures/README.md), hanchan, four hands, worked by hand from the README:
/// hand 1 seat 2 declares on its 3rd discard (2 before it) and that tile deals in to seat 3
/// (dama, 3900, seat 3's 2nd discard); hand 2 dealer seat 1 riichis (1 discard before) and
/// the hand is drawn; hand 3 (dealer seat 1) seat 3 pons, seat 0 riichis (1 before, 2nd
/// stick), seat 2's 4p is a double ron: seat 3 +3300 (its 3rd discard), seat 0 +3900 − its
/// stick = 2900 (its 3rd discard), seat 2 −1300 − 3900 = −5200 in one deal-in (its 3rd
/// discard); hand 4 dealer seat 2's kokushi rons seat 3's 2nd discard for 48000 (seat 2's 2nd
/// discard). Final scores 29400, 25500, 62400, −17300: places 2, 3, 1, 4.
#[test]
fn f002_worked_by_hand() {
    let out = ingest(&[fixtures().join("2099010200gm-00a9-0000-0000f002.xml")]);
    let rows = players(out.path(), &[]);
    assert_eq!(rows.len(), 4);
    // Every name has 1 game and 4 hands; one of the four hands is drawn (hand 2).
    let common = |name: &str| json!({"name": name, "games": 1, "hands": 4, "draw_rate": 0.25});
    let merge = |a: Value, b: Value| {
        let mut a = a.as_object().unwrap().clone();
        a.extend(b.as_object().unwrap().clone());
        Value::Object(a)
    };
    // Seat 0: 2nd, +4400; the double ron's second winner with its riichi (established, the
    // hand's first declaration): one win of 2900 at turn 3; dealer of hand 1 only.
    let seat0 = merge(
        common("ポンコツ"),
        json!({
            "place_1": 0, "place_2": 1, "place_3": 0, "place_4": 0, "average_place": 2.0,
            "stable_dan": null, "stable_dan_lo": null, "stable_dan_hi": null,
            "busts": 0, "score": 4400, "score_per_game": 4400.0,
            "win_rate": 0.25, "deal_in_rate": 0.0, "riichi_rate": 0.25, "call_rate": 0.0,
            "average_win": 2900.0, "average_deal_in": null, "average_win_riichi": 2900.0,
            "average_win_open": null, "average_win_dama": null, "average_win_turn": 3.0,
            "average_deal_in_turn": null, "average_riichi_turn": 1.0,
            "riichi_win_rate": 1.0, "riichi_deal_in_rate": 0.0, "chasing_rate": 0.0,
            "call_win_rate": null, "call_deal_in_rate": null, "dealer_hands": 1, "dealer_wins": 0,
        }),
    );
    // Seat 1: 3rd, +500; one riichi (hand 2, drawn); dealer of hands 2 and 3.
    let seat1 = merge(
        common("Zephyr"),
        json!({
            "place_1": 0, "place_2": 0, "place_3": 1, "place_4": 0, "average_place": 3.0,
            "stable_dan": null, "stable_dan_lo": null, "stable_dan_hi": null,
            "busts": 0, "score": 500, "score_per_game": 500.0,
            "win_rate": 0.0, "deal_in_rate": 0.0, "riichi_rate": 0.25, "call_rate": 0.0,
            "average_win": null, "average_deal_in": null, "average_win_riichi": null,
            "average_win_open": null, "average_win_dama": null, "average_win_turn": null,
            "average_deal_in_turn": null, "average_riichi_turn": 1.0,
            "riichi_win_rate": 0.0, "riichi_deal_in_rate": 0.0, "chasing_rate": 0.0,
            "call_win_rate": null, "call_deal_in_rate": null, "dealer_hands": 2, "dealer_wins": 0,
        }),
    );
    // Seat 2: 1st, +37400; a declaration whose tile deals in (a declaration and a deal-in
    // after it), the double ron's discarder (one deal-in): 2 deal-ins, (−3900 − 5200)/2 =
    // −4550 at turns 3 and 3; the dealer's kokushi: a dama win of 48000 at turn 2.
    let seat2 = merge(
        common("東風荘"),
        json!({
            "place_1": 1, "place_2": 0, "place_3": 0, "place_4": 0, "average_place": 1.0,
            "stable_dan": null, "stable_dan_lo": null, "stable_dan_hi": null,
            "busts": 0, "score": 37400, "score_per_game": 37400.0,
            "win_rate": 0.25, "deal_in_rate": 0.5, "riichi_rate": 0.25, "call_rate": 0.0,
            "average_win": 48000.0, "average_deal_in": -4550.0, "average_win_riichi": null,
            "average_win_open": null, "average_win_dama": 48000.0, "average_win_turn": 2.0,
            "average_deal_in_turn": 3.0, "average_riichi_turn": 2.0,
            "riichi_win_rate": 0.0, "riichi_deal_in_rate": 1.0, "chasing_rate": 0.0,
            "call_win_rate": null, "call_deal_in_rate": null, "dealer_hands": 1, "dealer_wins": 1,
        }),
    );
    // Seat 3: 4th, busted (−17300 − 25000 = −42300); wins 3900 dama (turn 2) and 3300 open
    // (turn 3, after its pon: the call hand won): (3900 + 3300)/2 = 3600; deals in 48000 at
    // turn 2. One 4th place in one hanchan: stable dan (0 + 0)/1 − 2 = −2, every resample −2.
    let seat3 = merge(
        common("kiwi"),
        json!({
            "place_1": 0, "place_2": 0, "place_3": 0, "place_4": 1, "average_place": 4.0,
            "stable_dan": -2.0, "stable_dan_lo": -2.0, "stable_dan_hi": -2.0,
            "busts": 1, "score": -42300, "score_per_game": -42300.0,
            "win_rate": 0.5, "deal_in_rate": 0.25, "riichi_rate": 0.0, "call_rate": 0.25,
            "average_win": 3600.0, "average_deal_in": -48000.0, "average_win_riichi": null,
            "average_win_open": 3300.0, "average_win_dama": 3900.0, "average_win_turn": 2.5,
            "average_deal_in_turn": 2.0, "average_riichi_turn": null,
            "riichi_win_rate": null, "riichi_deal_in_rate": null, "chasing_rate": null,
            "call_win_rate": 1.0, "call_deal_in_rate": 0.0, "dealer_hands": 0, "dealer_wins": 0,
        }),
    );
    // One game each: sorted by name (byte order: Latin before kana before kanji).
    let order: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(order, ["Zephyr", "kiwi", "ポンコツ", "東風荘"]);
    for want in [seat0, seat1, seat2, seat3] {
        assert_row(row(&rows, want["name"].as_str().unwrap()), &want);
    }
}

/// f001 (README): seat 1 busts (−1700), seats 2 and 3 tie at 23500 (seat 2, nearer the first
/// dealer, is 2nd); seat 0's win of hand 2 after an ankan is a riichi win (established):
/// 9000 − 1000 = 8000; seat 0's other wins: hand 4 open (daiminkan, 5200), hand 5 riichi
/// (19000 − 1000 = 18000): riichi (8000 + 18000)/2 = 13000, open 5200, dama none.
#[test]
fn f001_bust_tie_and_ankan() {
    let out = ingest(&[fixtures().join("2099010100gm-00a9-0000-0000f001.xml")]);
    let rows = players(out.path(), &[]);
    let p = |name: &str, k: usize| row(&rows, name)[format!("place_{k}")].as_i64().unwrap();
    assert_eq!(p("風見鶏", 2), 1);
    assert_eq!(p("Mocha", 3), 1);
    assert_eq!(row(&rows, "tanuki42")["busts"], 1);
    assert_eq!(row(&rows, "tanuki42")["score"], -1700 - 25000);
    let s0 = row(&rows, "さくら");
    assert_eq!(s0["average_win_riichi"], 13000.0);
    assert_eq!(s0["average_win_open"], 5200.0);
    assert_eq!(s0["average_win_dama"], Value::Null);
    assert_eq!(s0["average_win"], (8000.0 + 5200.0 + 18000.0) / 3.0);
}

/// `haifu stats` with rayon's pool of 1 and of 2 threads, over frames ingested on 1 and on 2
/// threads: the same profiles, bootstrap intervals included.
#[test]
fn bootstrap_interval_is_the_same_on_one_and_two_threads() {
    let dirs: Vec<tempfile::TempDir> = [1, 2]
        .iter()
        .map(|&t| {
            let out = tempfile::tempdir().unwrap();
            common::run_ingest_threads(t, &[fixtures()], out.path(), RoomFilter::Any);
            out
        })
        .collect();
    let run = |dir: &Path, threads: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
            .args([
                "stats",
                "players",
                "--frames",
                dir.to_str().unwrap(),
                "--format",
                "json",
            ])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        ok(&o)
    };
    let one = run(dirs[0].path(), "1");
    assert_eq!(one, run(dirs[1].path(), "2"));
    assert_eq!(one, run(dirs[0].path(), "2"));
    let rows: Vec<Value> = serde_json::from_str(&one).unwrap();
    // Some interval is bounded and holds its estimate.
    assert!(rows.iter().any(|r| {
        let (lo, est, hi) = (&r["stable_dan_lo"], &r["stable_dan"], &r["stable_dan_hi"]);
        lo.is_number()
            && hi.is_number()
            && lo.as_f64() <= est.as_f64()
            && est.as_f64() <= hi.as_f64()
    }));
}

/// `--min-games N` keeps the names with N games or more, and is refused for other reports.
#[test]
fn min_games() {
    // f002 twice (under two log ids: its four names have 2 games) and f001 (1 game each).
    let dir = tempfile::tempdir().unwrap();
    let f002 = fixtures().join("2099010200gm-00a9-0000-0000f002.xml");
    let copy = dir.path().join("2099010200gm-00a9-0000-0000f0f2.xml");
    std::fs::copy(&f002, &copy).unwrap();
    let f001 = fixtures().join("2099010100gm-00a9-0000-0000f001.xml");
    let out = ingest(&[f002, copy, f001]);
    let all = players(out.path(), &[]);
    let two = players(out.path(), &["--min-games", "2"]);
    let want: Vec<&Value> = all
        .iter()
        .filter(|r| r["games"].as_i64() >= Some(2))
        .collect();
    assert_eq!((want.len(), all.len()), (4, 8));
    assert_eq!(two.iter().collect::<Vec<_>>(), want);
    let o = haifu(&[
        "stats",
        "summary",
        "--frames",
        out.path().to_str().unwrap(),
        "--min-games",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--min-games applies to report `players` only")
    );
}

/// URL-encoded `s` as Tenhou writes UN names.
fn url(s: &str) -> String {
    s.bytes().map(|b| format!("%{b:02X}")).collect()
}

/// Names as written: one with spaces, quotes, a comma and an emoji; an empty one; two seats
/// `NoName` (one name, two seats, counted twice) survive JSON and CSV.
#[test]
fn names_as_written() {
    let src = std::fs::read_to_string(fixtures().join("misc/local-game.xml")).unwrap();
    let odd = "Ａ \"quoted\", name 🀄";
    let un = format!(
        r#"<UN n0="{}" n1="" n2="{}" n3="{}"/>"#,
        url(odd),
        url("NoName"),
        url("NoName")
    );
    let start = src.find("<UN ").unwrap();
    let end = start + src[start..].find("/>").unwrap() + 2;
    let text = format!("{}{un}{}", &src[..start], &src[end..]);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("names.xml");
    std::fs::write(&log, text).unwrap();
    let out = ingest(&[log]);
    let rows = players(out.path(), &[]);
    let names: Vec<(&str, i64)> = rows
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["games"].as_i64().unwrap()))
        .collect();
    assert_eq!(names, [("NoName", 2), ("", 1), (odd, 1)]);
    assert_eq!(row(&rows, "NoName")["hands"], 2);
    let csv = ok(&haifu(&[
        "stats",
        "players",
        "--frames",
        out.path().to_str().unwrap(),
        "--format",
        "csv",
    ]));
    assert!(csv.contains("\nNoName,2,"), "{csv}");
    assert!(csv.contains("\n\"Ａ \"\"quoted\"\", name 🀄\",1,"), "{csv}");
}

/// `haifu compare players --name-a X --rest`: A's values are X's row of the report; B's the
/// other names' pooled seats.
#[test]
fn compare_a_name_against_the_rest() {
    let out = ingest(&[fixtures().join("2099010200gm-00a9-0000-0000f002.xml")]);
    let dir = out.path().to_str().unwrap();
    let text = ok(&haifu(&[
        "compare", "--frames", dir, "--name-a", "kiwi", "--rest", "--format", "json",
    ]));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["a"]["player"], "kiwi");
    assert_eq!(v["b"]["rest"], true);
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| r["report"] == "players"));
    let m = |name: &str| rows.iter().find(|r| r["measure"] == name).unwrap();
    // kiwi: 2 wins in 4 hands; the others: 2 wins (seats 0 and 2) in 12 hands.
    assert_eq!(
        (m("win_rate")["a"].as_f64(), m("win_rate")["n_a"].as_i64()),
        (Some(0.5), Some(4))
    );
    assert_eq!(m("win_rate")["b"].as_f64(), Some(2.0 / 12.0));
    assert_eq!(m("average_win_open")["a"].as_f64(), Some(3300.0));
    assert_eq!(m("busts")["a"].as_f64(), Some(1.0));
    // Two names side by side.
    let text = ok(&haifu(&[
        "compare",
        "--frames",
        dir,
        "--name-a",
        "kiwi",
        "--name-b",
        "東風荘",
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&text).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let m = |name: &str| rows.iter().find(|r| r["measure"] == name).unwrap();
    assert_eq!(m("deal_in_rate")["b"].as_f64(), Some(0.5));
    assert_eq!(m("average_deal_in")["b"].as_f64(), Some(-4550.0));
    // Names compare `players` only.
    let o = haifu(&["compare", "summary", "--frames", dir, "--name-a", "kiwi"]);
    assert_eq!(o.status.code(), Some(1));
}

/// The same Phoenix games read as mjlog, tenhou.net/6 (mjlog2json) and mjai (mjai-reviewer)
/// from the corpus's conversions give the same profiles, every column: mjai records no final
/// scores, and the replay's (the last hand's scores, the sticks left on the table to the
/// first place) equal the mjlog's `owari`, so its places, scores, busts and stable dan are
/// the mjlog's.
#[test]
fn same_profiles_from_mjlog_tenhou6_and_mjai() {
    let (Some(formats), Some(phoenix)) = (common::corpus("formats"), common::corpus("phoenix"))
    else {
        return;
    };
    for folder in ["tenhou6", "mjai"] {
        let dir = formats.join(folder);
        let read = tempfile::tempdir().unwrap();
        run_ingest(std::slice::from_ref(&dir), read.path(), RoomFilter::Any);
        // The games that replayed, by log id, read from the Phoenix mjlogs.
        let games = common::frame(read.path(), "games");
        let ids = games.column("game_id").unwrap().str().unwrap().clone();
        let files: Vec<PathBuf> = ids
            .iter()
            .map(|id| {
                let id = id.unwrap();
                ["mjlog", "xml"]
                    .iter()
                    .map(|e| phoenix.join(format!("{id}.{e}")))
                    .find(|p| p.exists())
                    .unwrap_or_else(|| panic!("no mjlog for {id}"))
            })
            .collect();
        assert!(files.len() > 150, "{folder}: {} games", files.len());
        let mjlog = ingest(&files);
        let (a, b) = (players(mjlog.path(), &[]), players(read.path(), &[]));
        assert_eq!(a.len(), b.len(), "{folder}");
        let key = |r: &Value| r["name"].as_str().unwrap().to_string();
        let mut a = a;
        let mut b = b;
        a.sort_by_key(key);
        b.sort_by_key(key);
        for (x, y) in a.iter().zip(&b) {
            for c in COLUMNS {
                match (x[c].as_f64(), y[c].as_f64()) {
                    (Some(p), Some(q)) => {
                        assert!((p - q).abs() < 1e-9, "{folder} {}: {c} {p} {q}", x["name"])
                    }
                    _ => assert_eq!(x[c], y[c], "{folder} {}: {c}", x["name"]),
                }
            }
        }
    }
}

/// The Phoenix corpus (the first 1,000 games): the profiles add up to the corpus (every seat
/// a name's game, every place given once per game, every hand four seats'), each stable dan
/// lies in its interval, and `compare players --name-a` gives the report's numbers.
#[test]
fn phoenix_profiles_add_up() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(
        &common::first_files(&dir, 1000),
        out.path(),
        RoomFilter::Phoenix,
    );
    let (games, hands) = (
        s.manifest.totals.games as i64,
        s.manifest.totals.hands as i64,
    );
    let rows = players(out.path(), &[]);
    let sum = |c: &str| rows.iter().map(|r| r[c].as_i64().unwrap()).sum::<i64>();
    assert_eq!(sum("games"), 4 * games);
    assert_eq!(sum("hands"), 4 * hands);
    for k in 1..=4 {
        assert_eq!(sum(&format!("place_{k}")), games, "place_{k}");
    }
    let summary = stats_json(out.path(), "summary", &[]);
    let all = summary
        .iter()
        .find(|r| r["room"] == "all")
        .unwrap_or(&summary[0]);
    // Σ wins over names = AGARI records (the summary's win rate × 4 hands).
    let wins: f64 = rows
        .iter()
        .map(|r| r["win_rate"].as_f64().unwrap() * r["hands"].as_f64().unwrap())
        .sum();
    let want = all["win_rate"].as_f64().unwrap() * 4.0 * hands as f64;
    assert!((wins - want).abs() < 1e-6 * want, "{wins} {want}");
    // Sorted by games, then name.
    assert!(rows.windows(2).all(|w| {
        let (g0, g1) = (w[0]["games"].as_i64(), w[1]["games"].as_i64());
        g0 > g1 || (g0 == g1 && w[0]["name"].as_str() < w[1]["name"].as_str())
    }));
    let mut bounded = 0;
    for r in &rows {
        if let (Some(lo), Some(d), Some(hi)) = (
            r["stable_dan_lo"].as_f64(),
            r["stable_dan"].as_f64(),
            r["stable_dan_hi"].as_f64(),
        ) {
            assert!(lo <= d && d <= hi, "{r}");
            bounded += 1;
        }
    }
    assert!(bounded > 10, "{bounded} bounded intervals");
    let top = &rows[0];
    let name = top["name"].as_str().unwrap();
    let text = ok(&haifu(&[
        "compare",
        "--frames",
        out.path().to_str().unwrap(),
        "--name-a",
        name,
        "--rest",
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&text).unwrap();
    for r in v["rows"].as_array().unwrap() {
        let m = r["measure"].as_str().unwrap();
        // The report counts places and busts; the comparison gives their shares of games.
        if m.starts_with("place_") || m == "busts" {
            let share = r["a"].as_f64().unwrap() * top["games"].as_f64().unwrap();
            assert!((share - top[m].as_f64().unwrap()).abs() < 1e-6, "{m}");
            continue;
        }
        if let Some(want) = top.get(m) {
            match (r["a"].as_f64(), want.as_f64()) {
                (Some(a), Some(w)) => {
                    assert!((a - w).abs() < 1e-9 * w.abs().max(1.0), "{m}: {a} {w}")
                }
                _ => assert_eq!(&r["a"], want, "{m}"),
            }
        }
    }
}

/// No fixture has a win whose only meld is an ankan; the Phoenix corpus has them. Each such win
/// without an established riichi is a dama win (an ankan keeps the hand closed): the seat's
/// `seats` row counts it in `wins` but in neither `riichi_wins` nor `call_wins`.
#[test]
fn ankan_only_wins_are_dama() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    common::run_ingest_peer(
        &common::first_files(&dir, 600),
        out.path(),
        RoomFilter::Phoenix,
    );
    let text = |df: &polars::prelude::DataFrame, c: &str| -> Vec<String> {
        let s = df.column(c).unwrap().str().unwrap().clone();
        s.iter().map(|v| v.unwrap().to_string()).collect()
    };
    let int = |df: &polars::prelude::DataFrame, c: &str| -> Vec<i64> {
        let s = df
            .column(c)
            .unwrap()
            .cast(&polars::prelude::DataType::Int64)
            .unwrap();
        s.i64().unwrap().iter().map(|v| v.unwrap()).collect()
    };
    let calls = common::frame(out.path(), "calls");
    let (cg, ch, cs, ck) = (
        text(&calls, "game_id"),
        int(&calls, "hand"),
        int(&calls, "seat"),
        text(&calls, "kind"),
    );
    let mut melds: std::collections::HashMap<(String, i64, i64), Vec<String>> = Default::default();
    for i in 0..calls.height() {
        melds
            .entry((cg[i].clone(), ch[i], cs[i]))
            .or_default()
            .push(ck[i].clone());
    }
    let riichi = common::frame(out.path(), "riichi");
    let (rg, rh, rs) = (
        text(&riichi, "game_id"),
        int(&riichi, "hand"),
        int(&riichi, "seat"),
    );
    let est = riichi
        .column("established")
        .unwrap()
        .bool()
        .unwrap()
        .clone();
    let established: std::collections::HashSet<(String, i64, i64)> = (0..riichi.height())
        .filter(|&i| est.get(i) == Some(true))
        .map(|i| (rg[i].clone(), rh[i], rs[i]))
        .collect();
    let wins = common::frame(out.path(), "wins");
    let (wg, wh, ws) = (
        text(&wins, "game_id"),
        int(&wins, "hand"),
        int(&wins, "seat"),
    );
    // (game, seat) → ankan-only wins without an established riichi.
    let mut ankan_dama: std::collections::HashMap<(String, i64), i64> = Default::default();
    for i in 0..wins.height() {
        let key = (wg[i].clone(), wh[i], ws[i]);
        let only_ankan = melds
            .get(&key)
            .is_some_and(|m| m.iter().all(|k| k == "ankan"));
        if only_ankan && !established.contains(&key) {
            *ankan_dama.entry((wg[i].clone(), ws[i])).or_default() += 1;
        }
    }
    assert!(
        !ankan_dama.is_empty(),
        "no ankan-only dama win in 600 games"
    );
    let seats = common::frame(out.path(), "seats");
    let (sg, ss) = (text(&seats, "game_id"), int(&seats, "seat"));
    let (w, r, c) = (
        int(&seats, "wins"),
        int(&seats, "riichi_wins"),
        int(&seats, "call_wins"),
    );
    let mut checked = 0;
    for i in 0..seats.height() {
        if let Some(&n) = ankan_dama.get(&(sg[i].clone(), ss[i])) {
            assert!(w[i] - r[i] - c[i] >= n, "{} seat {}", sg[i], ss[i]);
            checked += 1;
        }
    }
    assert_eq!(checked, ankan_dama.len());
    eprintln!("{checked} seats with an ankan-only dama win");
}
