//! §7 discard decisions and engine agreement (docs/definitions.md §7) against
//! tools/fixtures/EXPECTED_V2.md §3 (worked by hand): every decision row of f006 (after a pon,
//! after a chi at both ends and in the middle, a forced decision in riichi, a declaration, a
//! tsumogiri of a second copy, a red five), the built-in engines' totals and splits as exact
//! fractions, the external-engine protocol (the example engine equals the built-in
//! max-ukeire; every failure mode exits 2 with no report), answer files, --limit and --where;
//! and on Phoenix games, the frame's invariants.

// Row tuples written out as the expected tables read best.
#![allow(clippy::type_complexity)]

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, frame, haifu, ok};
use polars::prelude::*;
use serde_json::Value;

fn ingest(inputs: &[PathBuf]) -> tempfile::TempDir {
    common::ingest_cli(inputs, &["--with=decisions"])
}

fn f006() -> PathBuf {
    fixtures().join("2019061512gm-00a9-0000-0000f006.xml")
}

/// The example engine.
fn example_engine() -> PathBuf {
    common::example("max_ukeire_engine")
}

fn agree(dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "agree",
        "--frames",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend(extra);
    let text = ok(&haifu(&args));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The report row of (section, value, engine).
fn row<'a>(report: &'a Value, section: &str, value: &str, engine: &str) -> &'a Value {
    report
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["section"] == section && r["value"] == value && r["engine"] == engine)
        .unwrap_or_else(|| panic!("no row {section} {value} {engine}"))
}

/// Kind names as 34 digits 0/1.
fn kinds(names: &str) -> String {
    let set: Vec<&str> = names.split(' ').filter(|s| !s.is_empty()).collect();
    (0..34)
        .map(|k| {
            if set.contains(&haifu::tile::kind_name(k)) {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

/// EXPECTED_V2.md §3.3: all 20 decisions of f006 (hand 1: D1–D19, hand 2: D20).
#[test]
fn f006_decision_rows_by_hand() {
    let out = ingest(&[f006()]);
    let df = frame(out.path(), "decisions");
    // (hand, seat, turn, after, concealed, red, drawn, discard, discard_red, tsumogiri, riichi,
    //  in_riichi, riichi_opponents, legal, forced)
    #[rustfmt::skip]
    let want: [(i32, i32, i32, &str, &str, &str, Option<&str>, &str, bool, bool, bool, bool, i32, &str, bool); 20] = [
        (0, 0, 1, "draw", "001010010 011100111 001000100 2000010", "100", Some("4p"), "6z", false, false, false, false, 0, "3m 5m 8m 2p 3p 4p 7p 8p 9p 3s 7s 1z 6z", false),
        (0, 1, 1, "draw", "201112000 020000001 000001110 0001000", "000", Some("1m"), "4z", false, false, false, false, 0, "1m 3m 4m 5m 6m 2p 9p 6s 7s 8s 4z", false),
        (0, 2, 1, "draw", "000000001 100001111 001111000 0100102", "000", Some("1p"), "1p", false, true, false, false, 0, "9m 1p 6p 7p 8p 9p 3s 4s 5s 6s 2z 5z 7z", false),
        (0, 3, 1, "draw", "011100001 000011100 020101110 1000000", "000", Some("2s"), "9m", false, false, false, false, 0, "2m 3m 4m 9m 5p 6p 7p 2s 4s 6s 7s 8s 1z", false),
        (0, 0, 2, "draw", "001010010 011100111 011000100 2000000", "100", Some("2s"), "3m", false, false, false, false, 0, "3m 5m 8m 2p 3p 4p 7p 8p 9p 2s 3s 7s 1z", false),
        (0, 1, 2, "call", "201002000 020000001 000001110 0000000", "000", None, "9p", false, false, false, false, 0, "1m 2p 9p 6s 7s 8s", false),
        (0, 2, 2, "call", "000000001 000001001 001111000 0100102", "000", None, "5z", false, false, false, false, 0, "9m 3s 4s 5s 6s 2z 5z 7z", false),
        (0, 3, 2, "draw", "011100000 000011100 021101110 1000000", "000", Some("3s"), "1z", false, false, true, false, 0, "2m 3m 4m 5p 6p 7p 2s 3s 4s 6s 7s 8s 1z", false),
        (0, 0, 3, "call", "000010010 011100111 011000100 0000000", "100", None, "5m", true, false, false, false, 1, "5m 8m 2p 3p 4p 7p 8p 9p 2s 3s 7s", false),
        (0, 1, 3, "draw", "201002000 020000010 000001110 0000000", "000", Some("8p"), "3m", false, false, false, false, 1, "1m 3m 6m 2p 8p 6s 7s 8s", false),
        (0, 2, 3, "draw", "000000001 000001001 001111000 0200002", "000", Some("2z"), "2z", false, false, false, false, 1, "9m 6p 9p 3s 4s 5s 6s 2z 7z", false),
        (0, 3, 3, "draw", "021100000 000011100 021101110 0000000", "000", Some("2m"), "2m", false, true, false, true, 0, "2m", true),
        (0, 0, 4, "draw", "000000010 011100111 111000100 0000000", "000", Some("1s"), "7s", false, false, false, false, 1, "8m 2p 3p 4p 7p 8p 9p 1s 2s 3s 7s", false),
        (0, 1, 4, "call", "200002000 020000010 000000100 0000000", "000", None, "8p", false, false, false, false, 1, "1m 6m 2p 8p", false),
        (0, 2, 4, "draw", "000000001 000001001 001111001 0100002", "000", Some("9s"), "9s", false, true, false, false, 1, "9m 6p 9p 3s 4s 5s 6s 9s 2z 7z", false),
        (0, 3, 4, "draw", "011100000 000011100 021101110 0010000", "000", Some("3z"), "3z", false, true, false, true, 0, "3z", true),
        (0, 0, 5, "draw", "000000010 011100111 111000000 0010000", "000", Some("3z"), "3z", false, true, false, false, 1, "8m 2p 3p 4p 7p 8p 9p 1s 2s 3s 3z", false),
        (0, 1, 5, "draw", "200002000 020000000 000000100 0000001", "000", Some("7z"), "7z", false, true, false, false, 1, "1m 6m 2p 7s 7z", false),
        (0, 2, 5, "draw", "010000001 000001001 001111000 0100002", "000", Some("2m"), "2m", false, true, false, false, 1, "2m 9m 6p 9p 3s 4s 5s 6s 2z 7z", false),
        (1, 1, 1, "draw", "001010100 001010100 001010100 0121001", "000", Some("3z"), "7z", false, false, false, false, 0, "3m 5m 7m 3p 5p 7p 3s 5s 7s 2z 3z 4z 7z", false),
    ];
    assert_eq!(df.height(), want.len());
    let s = |c: &str, i: usize| {
        df.column(c)
            .unwrap()
            .str()
            .unwrap()
            .get(i)
            .map(String::from)
    };
    let n = |c: &str, i: usize| df.column(c).unwrap().i32().unwrap().get(i).unwrap();
    let b = |c: &str, i: usize| df.column(c).unwrap().bool().unwrap().get(i).unwrap();
    for (i, w) in want.iter().enumerate() {
        let got: Vec<String> = vec![
            n("hand", i).to_string(),
            n("seat", i).to_string(),
            n("turn", i).to_string(),
            s("after", i).unwrap(),
            s("concealed", i).unwrap(),
            s("red", i).unwrap(),
            format!("{:?}", s("drawn", i)),
            s("discard", i).unwrap(),
            b("discard_red", i).to_string(),
            b("tsumogiri", i).to_string(),
            b("riichi", i).to_string(),
            b("in_riichi", i).to_string(),
            n("riichi_opponents", i).to_string(),
            s("legal", i).unwrap(),
            b("forced", i).to_string(),
        ];
        let expected: Vec<String> = vec![
            w.0.to_string(),
            w.1.to_string(),
            w.2.to_string(),
            w.3.to_string(),
            w.4.replace(' ', ""),
            w.5.to_string(),
            format!("{:?}", w.6.map(String::from)),
            w.7.to_string(),
            w.8.to_string(),
            w.9.to_string(),
            w.10.to_string(),
            w.11.to_string(),
            w.12.to_string(),
            kinds(w.13),
            w.14.to_string(),
        ];
        assert_eq!(got, expected, "D{}", i + 1);
    }
    // The melds each row carries and the discards then called (EXPECTED_V2.md §3.1): seat 1's
    // chi of seat 0's 3m, seat 2's chi of seat 1's 9p, seat 0's pon of seat 3's 1z, seat 1's chi
    // of seat 0's 7s.
    assert_eq!(s("melds", 5).unwrap(), "chi:3m4m5m:0");
    assert_eq!(s("melds", 6).unwrap(), "chi:7p8p9p:1");
    assert_eq!(s("melds", 8).unwrap(), "pon:1z1z1z:3");
    assert_eq!(s("melds", 13).unwrap(), "chi:3m4m5m:0 chi:6s7s8s:0");
    let called: Vec<usize> = (0..df.height()).filter(|&i| b("called", i)).collect();
    assert_eq!(called, [4, 5, 7, 12]);
    assert_eq!(s("dora", 0).unwrap(), "9s");
}

/// EXPECTED_V2.md §3.2: decisions and forced ones of the other new games; the melds of
/// f004 and f005, f001's dora indicators after a kan and its discards taken by calls.
#[test]
fn decision_counts_of_the_other_games() {
    let out = ingest(&[fixtures()]);
    let df = frame(out.path(), "decisions");
    let count = |game: &str, forced: bool| -> usize {
        let ids = df.column("game_id").unwrap().str().unwrap().clone();
        let f = df.column("forced").unwrap().bool().unwrap().clone();
        (0..df.height())
            .filter(|&i| ids.get(i) == Some(game) && (!forced || f.get(i) == Some(true)))
            .count()
    };
    for (game, decisions, forced) in [
        ("2019061512gm-00a9-0000-0000f006", 20, 2),
        ("2021031520gm-00a9-0000-0000f007", 19, 2),
        ("2020010100gm-00a9-10011-0000f008", 109, 35),
        // f010 (EXPECTED_V4.md §9): 8 + 6 + 8 + 3 discards; forced only the dealer's discard
        // after its double riichi in hand 0.
        ("2023010100gm-00a9-0000-0000f010", 25, 1),
        ("misc/local-game", 1, 0),
    ] {
        assert_eq!(
            (count(game, false), count(game, true)),
            (decisions, forced),
            "{game}"
        );
    }
    // The melds a seat shows at its last discard of a hand, from the N tags (m decoded as in
    // src/mjlog/meld.rs): f004 hand 1, seat 2's chi m=3431 (tiles 4, 11, 14: 2m 3m 4m, from
    // relative seat 3 = seat 1); hand 3, seat 0's pons m=51723 (7z, relative seat 3 = seat 3)
    // and m=1641 (tiles 4, 5, 6: 2m, relative seat 1 = seat 1); f005 (no red fives) hand 1,
    // seat 1's ankan m=23040 (tile 90: 5s).
    let text = |c: &str| df.column(c).unwrap().str().unwrap().clone();
    let int = |c: &str| df.column(c).unwrap().i32().unwrap().clone();
    let (ids, hands, seats) = (text("game_id"), int("hand"), int("seat"));
    let (melds, dora) = (text("melds"), text("dora"));
    let last = |game: &str, hand: i32, seat: i32| {
        (0..df.height())
            .filter(|&i| {
                ids.get(i) == Some(game) && hands.get(i) == Some(hand) && seats.get(i) == Some(seat)
            })
            .last()
            .unwrap()
    };
    let f001 = "2099010100gm-00a9-0000-0000f001";
    let f004 = "2099010400gm-00e1-0000-0000f004";
    let f005 = "2099010500gm-00ab-0000-0000f005";
    assert_eq!(melds.get(last(f004, 1, 2)), Some("chi:2m3m4m:1"));
    assert_eq!(
        melds.get(last(f004, 3, 0)),
        Some("pon:7z7z7z:3 pon:2m2m2m:1")
    );
    assert_eq!(melds.get(last(f005, 1, 1)), Some("ankan:5s5s5s5s:1"));
    // The dora indicators after a kan: f001 hand 1, INIT seed indicator 83 (3s), then seat 0's
    // ankan and DORA 108 (1z) before its first discard.
    assert_eq!(dora.get(last(f001, 1, 0)), Some("3s 1z"));
    // f001's discards taken by a call: D127 (5z, seat 2's pon) and D48 (4p, seat 1's chi) in
    // hand 0, G135 (7z, seat 1's pon) in hand 2, F93 (6s, seat 0's daiminkan) in hand 3; the
    // ankan (hand 1) and kakan (hand 2) take no discard.
    let (called, discard) = (
        df.column("called").unwrap().bool().unwrap(),
        text("discard"),
    );
    let taken: Vec<(i32, i32, &str)> = (0..df.height())
        .filter(|&i| ids.get(i) == Some(f001) && called.get(i) == Some(true))
        .map(|i| {
            let (h, s) = (hands.get(i).unwrap(), seats.get(i).unwrap());
            (h, s, discard.get(i).unwrap())
        })
        .collect();
    assert_eq!(
        taken,
        [(0, 0, "5z"), (0, 0, "4p"), (2, 3, "7z"), (3, 2, "6s")]
    );
}

/// EXPECTED_V2.md §3.5, the 18 unforced decisions of f006, as exact fractions: tsumogiri 7,
/// min-shanten 14839/2520, max-ukeire 26/3; by after (call 4: 1, 61/30, 7/2; draw 14: 6,
/// 1943/504, 31/6), by riichi opponents (0: 9 decisions, 1, 877/360, 13/3; 1+: 9, 6, 145/42,
/// 13/3), by best shanten (3, 8, 2, 5 decisions), and the players' own discards: a lowest-shanten
/// kind 16 times, a most-ukeire kind 12 times.
#[test]
fn built_in_engines_on_f006() {
    let out = ingest(&[f006()]);
    let report = agree(out.path(), &[]);
    let check = |section: &str, value: &str, engine: &str, decisions: i64, sum: f64| {
        let r = row(&report, section, value, engine);
        assert_eq!(r["decisions"].as_i64(), Some(decisions), "{r}");
        let mean = r["agreement"].as_f64().unwrap();
        assert!(
            (mean * decisions as f64 - sum).abs() < 1e-12,
            "{r}: Σ {sum}"
        );
        assert_eq!(r["invalid"].as_i64(), Some(0));
    };
    check("all", "all", "player", 18, 18.0);
    check("all", "all", "tsumogiri", 18, 7.0);
    check("all", "all", "min-shanten", 18, 14839.0 / 2520.0);
    check("all", "all", "max-ukeire", 18, 26.0 / 3.0);
    check("after", "call", "tsumogiri", 4, 1.0);
    check("after", "call", "min-shanten", 4, 61.0 / 30.0);
    check("after", "call", "max-ukeire", 4, 3.5);
    check("after", "draw", "tsumogiri", 14, 6.0);
    check("after", "draw", "min-shanten", 14, 1943.0 / 504.0);
    check("after", "draw", "max-ukeire", 14, 31.0 / 6.0);
    check("riichi_opponents", "0", "tsumogiri", 9, 1.0);
    check("riichi_opponents", "0", "min-shanten", 9, 877.0 / 360.0);
    check("riichi_opponents", "0", "max-ukeire", 9, 13.0 / 3.0);
    check("riichi_opponents", "1+", "tsumogiri", 9, 6.0);
    check("riichi_opponents", "1+", "min-shanten", 9, 145.0 / 42.0);
    check("riichi_opponents", "1+", "max-ukeire", 9, 13.0 / 3.0);
    for (value, n) in [("0", 3), ("1", 8), ("2", 2), ("3+", 5)] {
        assert_eq!(
            row(&report, "best_shanten", value, "player")["decisions"].as_i64(),
            Some(n)
        );
    }
    check("all", "all", "players: lowest shanten", 18, 16.0);
    check("all", "all", "players: most ukeire", 18, 12.0);
    // The table says 20 decisions, 2 forced, 18 unforced and stars max-ukeire.
    let table = ok(&haifu(&["agree", "--frames", out.path().to_str().unwrap()]));
    assert!(
        table.starts_with(
            "== discard agreement (docs/definitions.md §7): 20 decisions, 2 forced, 18 unforced"
        ),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("all") && l.contains("max-ukeire") && l.contains('*')),
        "{table}"
    );
}

/// Runs the example engine with `mode` beside the built-in max-ukeire (and `extra` options)
/// and checks that every report row of the one equals the other's on every agreement column;
/// the report.
fn example_equals_max_ukeire(dir: &Path, mode: &str, extra: &[&str]) -> Value {
    let cmd = format!("{} {mode}", example_engine().display());
    // An engine is named `cmd:CMD`, or NAME with `--engine-cmd NAME=CMD` (the reversing ones).
    let (arg, engine) = if mode.contains("--reverse") {
        (format!("reversed={cmd}"), "reversed".to_string())
    } else {
        (cmd.clone(), format!("cmd:{cmd}"))
    };
    let mut args = vec![
        "--engine",
        "max-ukeire",
        "--engine-cmd",
        &arg,
        "--engine-timeout",
        "20",
    ];
    args.extend(extra);
    let report = agree(dir, &args);
    let rows = report.as_array().unwrap();
    let mut compared = 0;
    for r in rows.iter().filter(|r| r["engine"] == "max-ukeire") {
        let other = row(
            &report,
            r["section"].as_str().unwrap(),
            r["value"].as_str().unwrap(),
            &engine,
        );
        for k in [
            "decisions",
            "agreement",
            "agreement_lo",
            "agreement_hi",
            "invalid",
        ] {
            assert_eq!(r[k], other[k], "{engine}: {r} {other}");
        }
        compared += 1;
    }
    assert_eq!(compared, 12, "{mode}");
    report
}

/// The example engine, through the JSON-lines protocol, agrees with the built-in max-ukeire to
/// the last digit on every fixture: answering each run of decisions in reverse order, holding
/// its answers until it has 256 or its input ends (as an engine batching for a GPU does), and
/// answering each decision only once the next has come. The fixtures' 500-odd unforced
/// decisions are one batch that is not a multiple of 256: the last two engines answer its end
/// only once haifu closes their input.
#[test]
fn the_example_engine_equals_the_built_in() {
    let out = ingest(&[fixtures()]);
    for mode in ["--reverse", "--hold 256", "--lag", "--hold 256 --reverse"] {
        let report = example_equals_max_ukeire(out.path(), mode, &[]);
        assert!(row(&report, "all", "all", "max-ukeire")["decisions"].as_i64() > Some(500));
    }
}

/// The requests of f006 (captured with `tee`): each carries the decision's `seq` (discards
/// before it in the hand), and the rivers' `seq`s are 0 … seq − 1, each once (every discard of
/// the hand before the decision); `declares` is true on exactly the declaration rows of the
/// frame sent (those with `riichi`); `rules` are the game's (f006 is a Phoenix hanchan with red
/// fives and open tanyao, GO type 0xa9).
#[test]
fn requests_carry_seq_declares_and_rules() {
    let out = ingest(&[f006()]);
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let cmd = format!(
        "tee {} | {}",
        requests.display(),
        example_engine().display()
    );
    agree(out.path(), &["--engine-cmd", &cmd]);
    let text = std::fs::read_to_string(&requests).unwrap();
    let mut declares = 0;
    let mut n = 0;
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let seq = r["seq"].as_u64().unwrap();
        let mut seqs: Vec<u64> = r["rivers"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|river| river.as_array().unwrap().iter())
            .map(|t| t["seq"].as_u64().unwrap())
            .collect();
        seqs.sort_unstable();
        assert_eq!(seqs, (0..seq).collect::<Vec<_>>(), "{line}");
        declares += usize::from(r["declares"] == true);
        assert_eq!(
            r["rules"],
            serde_json::json!({"red": true, "open_tanyao": true, "hanchan": true})
        );
        n += 1;
    }
    let df = frame(out.path(), "decisions");
    let sent = df.lazy().filter(col("forced").not()).collect().unwrap();
    assert_eq!(n, sent.height());
    let riichi = sent
        .column("riichi")
        .unwrap()
        .bool()
        .unwrap()
        .sum()
        .unwrap() as usize;
    assert!(riichi > 0);
    assert_eq!(declares, riichi);
}

/// Every way an external engine can break the protocol ends the run with exit 2, a message
/// naming the engine and the decision, and nothing on standard output.
#[test]
fn protocol_failures() {
    let out = ingest(&[f006()]);
    let dir = out.path().to_str().unwrap();
    let fails = |cmd: &str, timeout: &str, says: &[&str]| {
        common::engine_fails("agree", dir, cmd, timeout, says)
    };
    // Exits before answering anything.
    fails(
        "exit 0",
        "5",
        &[
            "exited",
            "before answering decision 0",
            "game 2019061512gm-00a9-0000-0000f006 hand 0 seat 0 turn 1",
        ],
    );
    // Answers the first decision, then stops.
    fails(
        "read x; echo '{\"id\": 0, \"discard\": \"6z\"}'",
        "5",
        &["before answering decision 1"],
    );
    // A line that is not text (a byte that is not UTF-8).
    fails(
        "read x; printf '\\377\\n'; sleep 5",
        "5",
        &["not an answer (line 1)", "unreadable output"],
    );
    // A line that is not JSON.
    fails(
        "read x; echo hello",
        "5",
        &["not an answer (line 1)", "not JSON: hello"],
    );
    // Not a tile.
    fails(
        "read x; echo '{\"id\": 0, \"discard\": \"9z\"}'",
        "5",
        &["`discard` is not a tile name"],
    );
    // The same id twice.
    fails(
        "read x; echo '{\"id\": 0, \"discard\": \"6z\"}'; echo '{\"id\": 0, \"discard\": \"6z\"}'; sleep 5",
        "5",
        &[
            "answered decision 0 twice",
            "(0: game 2019061512gm-00a9-0000-0000f006 hand 0 seat 0 turn 1)",
        ],
    );
    // The id after the last one sent (f006 has 18 unforced decisions, ids 0 to 17).
    fails(
        "read x; echo '{\"id\": 18, \"discard\": \"6z\"}'; sleep 5",
        "5",
        &["answered decision 18, which it was not asked"],
    );
    // Answers everything, then exits with a failure.
    fails(
        &format!("{}; exit 3", example_engine().display()),
        "5",
        &["exited with exit status: 3 after its last answer"],
    );
    // An id it was never asked.
    fails(
        "read x; echo '{\"id\": 99, \"discard\": \"6z\"}'; sleep 5",
        "5",
        &["answered decision 99, which it was not asked"],
    );
    // Never answers (keeps its input open).
    fails(
        "sleep 30",
        "0.5",
        &["did not answer decision 0", "within 500ms"],
    );
    // Never reads its input nor answers, sent more decisions than a pipe holds (551 objects,
    // about 400 KB): the decisions are written by a thread of their own, so the timeout still
    // ends the run, long before the engine's 30 s.
    let many = ingest(&[fixtures()]);
    let t0 = std::time::Instant::now();
    let o = haifu(&[
        "agree",
        "--frames",
        many.path().to_str().unwrap(),
        "--engine-cmd",
        "sleep 30",
        "--engine-timeout",
        "0.5",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("did not answer decision 0"), "{err}");
    assert!(t0.elapsed() < std::time::Duration::from_secs(20), "{err}");
}

/// Answer files stand in for an engine: answers matched by decision, an illegal kind counted
/// invalid; a missing answer is an error naming the decision (exit 2). --limit scores the first
/// N decisions, --where a slice of the games.
#[test]
fn answers_limit_and_where() {
    let out = ingest(&[fixtures()]);
    let dir = out.path().to_str().unwrap();
    // f006's 18 unforced decisions answered with the player's discard, except D1 (6z) answered
    // 1z 6z (agreement 1/2) and D2 answered 5z (not held: invalid).
    let df = frame(out.path(), "decisions")
        .lazy()
        .filter(col("game_id").eq(lit("2019061512gm-00a9-0000-0000f006")))
        .collect()
        .unwrap();
    let mut csv = String::from("game_id,hand,seat,turn,discard\n");
    for i in 0..df.height() {
        let get = |c: &str| {
            df.column(c)
                .unwrap()
                .get(i)
                .unwrap()
                .to_string()
                .trim_matches('"')
                .to_string()
        };
        let discard = match i {
            0 => "1z|6z".to_string(),
            1 => "5z".to_string(),
            _ => get("discard"),
        };
        csv.push_str(&format!(
            "{},{},{},{},{discard}\n",
            get("game_id"),
            get("hand"),
            get("seat"),
            get("turn")
        ));
    }
    let answers = out.path().join("answers.csv");
    std::fs::write(&answers, csv).unwrap();
    let only_f006 = "game_id = '2019061512gm-00a9-0000-0000f006'";
    let report = agree(
        out.path(),
        &["--answers", answers.to_str().unwrap(), "--where", only_f006],
    );
    let r = row(
        &report,
        "all",
        "all",
        &format!("answers:{}", answers.display()),
    );
    assert_eq!(
        (r["decisions"].as_i64(), r["invalid"].as_i64()),
        (Some(18), Some(1))
    );
    assert!(
        (r["agreement"].as_f64().unwrap() * 18.0 - 16.5).abs() < 1e-12,
        "{r}"
    );
    // Over every game the file lacks answers: exit 2, naming the first decision without one.
    let o = haifu(&[
        "agree",
        "--frames",
        dir,
        "--answers",
        answers.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no answer for decision game"));
    // --limit: the first 10 decisions in frame order (f001's first hand: none forced).
    let report = agree(out.path(), &["--limit", "10", "--engine", "player"]);
    assert_eq!(
        row(&report, "all", "all", "player")["decisions"].as_i64(),
        Some(10)
    );
    // No decisions frame: say how to make one.
    let plain = tempfile::tempdir().unwrap();
    ok(&haifu(&[
        "ingest",
        f006().to_str().unwrap(),
        "--room",
        "any",
        "--out",
        plain.path().to_str().unwrap(),
        "--quiet",
    ]));
    let o = haifu(&["agree", "--frames", plain.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--with decisions"));
}

/// Phoenix games: one row per discard record, the player's kind always legal, riichi rows
/// forced, the player engine agreeing everywhere, tsumogiri agreeing with the row's flag on
/// draws (a tsumogiri by id is a discard of the drawn kind), a red five drawn or thrown shown
/// as held.
#[test]
fn phoenix_decisions_invariants() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = ingest(&common::first_files(&dir, 200));
    let df = frame(out.path(), "decisions");
    assert!(df.height() > 50_000, "{}", df.height());
    let text = |c: &str| -> Vec<String> {
        df.column(c)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .map(|v| v.unwrap_or("-").to_string())
            .collect()
    };
    let boolean = |c: &str| -> Vec<bool> {
        df.column(c)
            .unwrap()
            .bool()
            .unwrap()
            .iter()
            .map(|v| v.unwrap())
            .collect()
    };
    let (legal, discard, drawn, red) = (text("legal"), text("discard"), text("drawn"), text("red"));
    let (in_riichi, forced, tsumogiri) = (
        boolean("in_riichi"),
        boolean("forced"),
        boolean("tsumogiri"),
    );
    let (discard_red, drawn_red) = (boolean("discard_red"), boolean("drawn_red"));
    let mut reds = [0; 3];
    for i in 0..df.height() {
        let k = haifu::tile::parse_kind(&discard[i]).unwrap();
        assert_eq!(
            legal[i].as_bytes()[k],
            b'1',
            "row {i}: the discard is legal"
        );
        if in_riichi[i] {
            assert!(forced[i] && tsumogiri[i], "row {i}: in riichi");
        }
        if tsumogiri[i] {
            assert_eq!(drawn[i], discard[i], "row {i}");
        }
        // A red five drawn or discarded is held just before the discard: its suit's digit of
        // `red` (5m 5p 5s) is 1.
        for (name, is_red) in [(&discard[i], discard_red[i]), (&drawn[i], drawn_red[i])] {
            if is_red {
                let suit = "mps".find(&name[1..]).unwrap();
                assert_eq!(
                    red[i].as_bytes()[suit],
                    b'1',
                    "row {i}: red {name}, {}",
                    red[i]
                );
                reds[suit] += 1;
            }
        }
    }
    assert!(
        reds.iter().all(|&n| n > 100),
        "red fives drawn or thrown {reds:?}"
    );
    // Red fives in melds, by suit (a meld's red five is written 0m, 0p or 0s).
    let melds = text("melds");
    let in_melds = ["0m", "0p", "0s"].map(|r| melds.iter().filter(|m| m.contains(r)).count());
    assert!(
        in_melds.iter().all(|&n| n > 100),
        "red fives in melds {in_melds:?}"
    );
    let report = agree(out.path(), &["--engine", "player"]);
    let r = row(&report, "all", "all", "player");
    assert_eq!(r["agreement"].as_f64(), Some(1.0));
    let forced_n = forced.iter().filter(|&&f| f).count() as i64;
    assert_eq!(r["decisions"].as_i64(), Some(df.height() as i64 - forced_n));
    // Engines that hold answers back, over several batches (8,192 rows each): haifu sends the
    // next batch before it waits for the one before (before that, both timed out at the end
    // of the first batch).
    // --limit counts the unforced decisions (those sent to the engines) in frame order across
    // batches: the first 20,000 of them, whatever the forced rows among them (over a thousand
    // in the rows they span, so that counting rows would give fewer).
    let unforced = 20_000;
    let spanned = forced
        .iter()
        .scan(0, |n, &f| {
            *n += i64::from(!f);
            Some(*n)
        })
        .position(|n| n == unforced)
        .expect("20,000 unforced decisions")
        + 1;
    assert!(forced[..spanned].iter().filter(|&&f| f).count() > 1_000);
    // Answered out of order (--reverse), some answers to the next batch come before the last
    // of the batch awaited.
    for mode in ["--lag", "--hold 256", "--hold 256 --reverse"] {
        let report = example_equals_max_ukeire(out.path(), mode, &["--limit", "20000"]);
        let all = row(&report, "all", "all", "max-ukeire");
        assert_eq!(all["decisions"].as_i64(), Some(unforced), "{all}");
    }
}

/// The `decisions` report (queries/decisions.sql) on f006, counted by hand from
/// EXPECTED_V2.md §3.3: 20 decisions, 2 forced (D12, D16); tsumogiri rows D3 D12 D15 D16 D17
/// D18 D19 (7; the unforced ones 5 of 18); one declaration (D8); called discards D5 D6 D8 D13.
/// After a call (D6 D7 D9 D14): 4, none tsumogiri, one called (D6's 9p). Riichi opponents 0:
/// D1–D8, D12, D16, D20 (11, 2 forced, tsumogiri D3 D12 D16); 1+: the other 9 (tsumogiri D15
/// D17 D18 D19). Own riichi: none 17, the declaration D8, in riichi D12 D16.
#[test]
fn decisions_report_on_f006() {
    let out = ingest(&[f006()]);
    let text = ok(&haifu(&[
        "stats",
        "decisions",
        "--frames",
        out.path().to_str().unwrap(),
        "--format",
        "json",
    ]));
    let rows: Value = serde_json::from_str(&text).unwrap();
    let get = |split: &str, value: &str| -> Vec<i64> {
        let r = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["split"] == split && r["value"] == value)
            .unwrap_or_else(|| panic!("{split} {value}"));
        [
            "decisions",
            "forced",
            "unforced",
            "tsumogiri",
            "declarations",
            "called",
        ]
        .iter()
        .map(|k| r[*k].as_i64().unwrap())
        .collect()
    };
    assert_eq!(get("all", "all"), [20, 2, 18, 7, 1, 4]);
    assert_eq!(get("after", "draw"), [16, 2, 14, 7, 1, 3]);
    assert_eq!(get("after", "call"), [4, 0, 4, 0, 0, 1]);
    assert_eq!(get("turn", "1-6"), [20, 2, 18, 7, 1, 4]);
    assert_eq!(get("riichi_opponents", "0"), [11, 2, 9, 3, 1, 3]);
    assert_eq!(get("riichi_opponents", "1+"), [9, 0, 9, 4, 0, 1]);
    assert_eq!(get("own_riichi", "none"), [17, 0, 17, 5, 0, 3]);
    assert_eq!(get("own_riichi", "declaration"), [1, 0, 1, 0, 1, 1]);
    assert_eq!(get("own_riichi", "in_riichi"), [2, 2, 0, 2, 0, 0]);
    let all = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["split"] == "all")
        .unwrap();
    assert!((all["tsumogiri_share_unforced"].as_f64().unwrap() - 5.0 / 18.0).abs() < 1e-12);
    // Frames without the decisions frame: the report says how to make it, and `haifu run`
    // leaves it out.
    let plain = tempfile::tempdir().unwrap();
    let dir = plain.path().to_str().unwrap();
    ok(&haifu(&[
        "run",
        f006().to_str().unwrap(),
        "--room",
        "any",
        "--out",
        dir,
        "--quiet",
    ]));
    assert!(!plain.path().join("reports/decisions.csv").exists());
    let o = haifu(&["stats", "decisions", "--frames", dir]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ingest with --with decisions"));
    // With --with decisions, `haifu run` writes it; ingested again without, the frame and the
    // report are gone (no file out of step with the others).
    ok(&haifu(&[
        "run",
        f006().to_str().unwrap(),
        "--room",
        "any",
        "--with=decisions",
        "--out",
        dir,
        "--quiet",
    ]));
    assert!(plain.path().join("reports/decisions.csv").exists());
    ok(&haifu(&[
        "run",
        f006().to_str().unwrap(),
        "--room",
        "any",
        "--out",
        dir,
        "--quiet",
    ]));
    assert!(!plain.path().join("decisions.parquet").exists());
    assert!(!plain.path().join("reports/decisions.csv").exists());
}
