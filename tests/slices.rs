//! Slices (docs/definitions.md §9) on the fixtures: the `games` columns date, dan, rate and fold
//! against tools/fixtures/EXPECTED_V2.md §1 (worked by hand), every log-id form in a file name,
//! `--where` against the hand-worked §1 numbers of f008 and against SQL written by hand,
//! a slice of no games, every refusal, `--since`/`--until`, the by-year reports against the
//! frames, and `haifu run --where`.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::{fixtures, frame, haifu, ok};
use haifu::manifest::Status;

/// Every fixture ingested (room any) into a temporary directory.
fn ingested() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    ok(&haifu(&[
        "ingest",
        fixtures().to_str().unwrap(),
        "--room",
        "any",
        "--out",
        dir,
        "--quiet",
    ]));
    out
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// EXPECTED_V2.md §1: date, dan, rate and fold of every fixture game. The fold is (sum of the
/// bytes of game_id) mod 2, worked there byte by byte (f001 1730 → 0, f005 1779 → 1,
/// `misc/local-game` 1453 → 1, …); dates are the first eight digits of the log id; dan and
/// rate come from the UN tag, null for a UN without them.
#[test]
fn games_carry_date_dan_rate_and_fold() {
    let out = ingested();
    let games = frame(out.path(), "games");
    type Row = (
        &'static str,
        Option<&'static str>,
        Option<[i32; 4]>,
        Option<[f64; 4]>,
        i32,
    );
    let want: [Row; 11] = [
        (
            "2019061512gm-00a9-0000-0000f006",
            Some("2019-06-15"),
            Some([16, 17, 18, 19]),
            Some([2150.5, 2201.25, 2300.0, 2250.75]),
            0,
        ),
        (
            "2020010100gm-00a9-10011-0000f008",
            Some("2020-01-01"),
            Some([19, 18, 17, 20]),
            Some([2351.0, 2240.5, 2199.99, 2402.1]),
            0,
        ),
        (
            "2021031520gm-00a9-0000-0000f007",
            Some("2021-03-15"),
            Some([18, 17, 16, 18]),
            Some([2288.8, 2170.0, 2105.35, 2333.33]),
            0,
        ),
        // f009 (tools/fixtures/EXPECTED_V3.md §1): byte sum 1724 → fold 0.
        (
            "2022010100gm-00a9-0000-0000f009",
            Some("2022-01-01"),
            Some([18, 17, 19, 16]),
            Some([2260.4, 2188.0, 2311.75, 2120.6]),
            0,
        ),
        // f010 (tools/fixtures/EXPECTED_V4.md §1): byte sum 1724 + 1 (2023 for 2022) − 8
        // ("010" for "009") = 1717 → fold 1.
        (
            "2023010100gm-00a9-0000-0000f010",
            Some("2023-01-01"),
            Some([17, 18, 16, 19]),
            Some([2205.5, 2278.25, 2140.0, 2299.9]),
            1,
        ),
        (
            "2099010100gm-00a9-0000-0000f001",
            Some("2099-01-01"),
            Some([16, 16, 17, 16]),
            Some([2101.55, 2187.02, 2240.19, 2099.87]),
            0,
        ),
        (
            "2099010200gm-00a9-0000-0000f002",
            Some("2099-01-02"),
            Some([17, 16, 16, 18]),
            Some([2230.0, 2150.4, 2088.61, 2301.07]),
            0,
        ),
        (
            "2099010300gm-00a9-0000-0000f003",
            Some("2099-01-03"),
            Some([16, 17, 16, 16]),
            Some([2044.18, 2266.9, 2119.33, 2175.75]),
            0,
        ),
        (
            "2099010400gm-00e1-0000-0000f004",
            Some("2099-01-04"),
            Some([17, 16, 16, 17]),
            Some([2210.45, 2133.0, 2095.72, 2255.38]),
            0,
        ),
        (
            "2099010500gm-00ab-0000-0000f005",
            Some("2099-01-05"),
            Some([16, 18, 17, 16]),
            Some([2120.12, 2340.66, 2201.09, 2108.44]),
            1,
        ),
        ("misc/local-game", None, None, None, 1),
    ];
    assert_eq!(games.height(), want.len());
    let ids = games.column("game_id").unwrap().str().unwrap().clone();
    let dates = games.column("date").unwrap().str().unwrap().clone();
    let folds = games.column("fold").unwrap().i32().unwrap().clone();
    for (id, date, dan, rate, fold) in want {
        let row = (0..games.height())
            .find(|&r| ids.get(r) == Some(id))
            .unwrap_or_else(|| panic!("{id} not in games"));
        assert_eq!(dates.get(row), date, "{id} date");
        assert_eq!(folds.get(row), Some(fold), "{id} fold");
        for s in 0..4 {
            let d = games
                .column(&format!("dan_{s}"))
                .unwrap()
                .i32()
                .unwrap()
                .get(row);
            let r = games
                .column(&format!("rate_{s}"))
                .unwrap()
                .f64()
                .unwrap()
                .get(row);
            assert_eq!(d, dan.map(|d| d[s]), "{id} dan_{s}");
            assert_eq!(r, rate.map(|r| r[s]), "{id} rate_{s}");
        }
    }
}

/// A file whose name carries any log-id form Tenhou writes is named by that id (the plain
/// form for an obfuscated one), dated by it, and recognised as a copy of the same game.
#[test]
fn every_log_id_form_names_its_game() {
    let xml = std::fs::read(fixtures().join("2099010100gm-00a9-0000-0000f001.xml")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    // The same game under four names: a plain id (a private lobby), a five-digit lobby, that
    // one obfuscated (worked in src/input.rs: 2012060421gm-…-x87ee6e5d3b7a is …-5ee5c651),
    // and a viewer URL of the obfuscated form's plain id. The last two are one game.
    let names = [
        "2016031512gm-0009-7447-e3a85a5c.xml",
        "2019020120gm-0009-10011-215330df.mjlog.xml",
        "2012060421gm-0009-10011-x87ee6e5d3b7a.xml",
        "log=2012060421gm-0009-10011-5ee5c651&tw=2.xml",
    ];
    for n in names {
        std::fs::write(tmp.path().join(n), &xml).unwrap();
    }
    let out = tmp.path().join("out");
    let s = common::run_ingest(
        &[tmp.path().to_path_buf()],
        &out,
        haifu::ingest::RoomFilter::Any,
    );
    let files = s.manifest.files().unwrap();
    let entry = |name: &str| files.iter().find(|f| f.path.ends_with(name)).unwrap();
    assert_eq!(
        entry(names[0]).game_id.as_deref(),
        Some("2016031512gm-0009-7447-e3a85a5c")
    );
    assert_eq!(
        entry(names[1]).game_id.as_deref(),
        Some("2019020120gm-0009-10011-215330df")
    );
    let plain = "2012060421gm-0009-10011-5ee5c651";
    assert_eq!(entry(names[2]).game_id.as_deref(), Some(plain));
    assert_eq!(entry(names[2]).status, Status::Ok);
    // Sorted order: "2012…x87…" < "log=…", so the URL-named copy is the duplicate.
    assert_eq!(entry(names[3]).status, Status::Skipped);
    assert!(entry(names[3])
        .reason_text()
        .unwrap()
        .starts_with("duplicate: same game as"));
    let games = frame(&out, "games");
    let mut dates: Vec<String> = games
        .column("date")
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|d| d.unwrap().to_string())
        .collect();
    dates.sort();
    assert_eq!(dates, ["2012-06-04", "2016-03-15", "2019-02-01"]);
}

/// `--where` selecting f008 alone (its date, or its seat 3 at 天鳳位) gives the §1 table worked
/// by hand in EXPECTED_V2.md §5: 12 units over 4 hands × 4 seats; win 2 (18000 and
/// 6200 − 1000: mean 11600), deal_in 1 (−21900), ron_other 3 (0), draw 6 (−1000 + 0 + 0 −
/// 4000 + 11000 − 4000 = 2000: mean 333.33), all 12 (3300: mean 275); rate per seat-hand
/// 12/16 = 0.75.
#[test]
fn a_slice_gives_the_hand_worked_table_of_its_games() {
    let out = ingested();
    let dir = out.path().to_str().unwrap();
    for expr in ["date >= '2020-01-01' AND date < '2020-12-31'", "dan_3 = 20"] {
        let text = ok(&haifu(&[
            "stats",
            "riichi-response",
            "--frames",
            dir,
            "--where",
            expr,
            "--format",
            "json",
        ]));
        let v = json(&text);
        assert_eq!(v["slice"]["where"], expr);
        assert_eq!(v["slice"]["games"], 1, "{expr}");
        assert_eq!(v["slice"]["hands"], 4, "{expr}");
        let rows: BTreeMap<String, (i64, f64, f64)> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["outcome"].as_str().unwrap().to_string(),
                    (
                        r["units"].as_i64().unwrap(),
                        r["mean_income"].as_f64().unwrap(),
                        r["rate_per_seat_hand"].as_f64().unwrap(),
                    ),
                )
            })
            .collect();
        let close = |got: f64, want: f64| (got - want).abs() < 1e-9;
        let want = [
            ("win", 2, 11600.0),
            ("deal_in", 1, -21900.0),
            ("ron_other", 3, 0.0),
            ("draw", 6, 2000.0 / 6.0),
            ("all", 12, 275.0),
        ];
        assert_eq!(rows.len(), want.len(), "{expr}: {rows:?}");
        for (outcome, units, mean) in want {
            let (u, m, rate) = rows[outcome];
            assert_eq!(u, units, "{expr} {outcome}");
            assert!(close(m, mean), "{expr} {outcome}: {m} != {mean}");
            assert!(
                close(rate, units as f64 / 16.0),
                "{expr} {outcome} rate {rate}"
            );
        }
        // The table states the slice above the report.
        let table = ok(&haifu(&[
            "stats",
            "riichi-response",
            "--frames",
            dir,
            "--where",
            expr,
        ]));
        assert!(table.starts_with(&format!("== slice --where {expr:?}: 1 games, 4 hands\n")));
    }
}

/// `--where` on every bundled report that can be sliced equals the report over the same
/// frames with the condition written by hand into the SQL (each per-game table restricted
/// with `game_id IN (SELECT game_id FROM games WHERE …)`).
#[test]
fn where_equals_the_condition_written_into_the_sql() {
    let out = ingested();
    let dir = out.path();
    // f001, f002, f003, f006, f007, f008, f009, f010 (not f004, a tonpuusen; not f005, without
    // red fives; not misc/local-game, without a date).
    let expr = "hanchan AND red AND date IS NOT NULL";
    let mut checked = 0;
    for rep in haifu::report::REPORTS {
        let reads = |t: &str| {
            let sql = rep.sql.to_ascii_lowercase();
            sql.contains(&format!("from {t}")) || sql.contains(&format!("join {t}"))
        };
        if reads("draw_rate")
            || reads("danger_eval")
            || reads("danger_calibration")
            || rep.on_request()
        {
            continue;
        }
        let mut sql = rep.sql.to_string();
        for t in ["games", "hands", "riichi_response", "wait_danger", "seats"] {
            let keep = format!(
                "(SELECT * FROM {t} WHERE game_id IN (SELECT game_id FROM games WHERE {expr}))"
            );
            for kw in ["FROM", "JOIN"] {
                sql = sql.replace(&format!("{kw} {t} "), &format!("{kw} {keep} "));
                sql = sql.replace(&format!("{kw} {t}\n"), &format!("{kw} {keep}\n"));
            }
        }
        // params.hands counts the slice's hands.
        let params = format!(
            "(SELECT COUNT(*) AS hands, 4 AS seats, 4 AS players FROM hands \
             WHERE game_id IN (SELECT game_id FROM games WHERE {expr})) params"
        );
        sql = sql.replace("CROSS JOIN params", &format!("CROSS JOIN {params}"));
        let sql_file = dir.join(format!("{}.sql", rep.name));
        std::fs::write(&sql_file, &sql).unwrap();
        let by_hand = ok(&haifu(&[
            "query",
            sql_file.to_str().unwrap(),
            "--frames",
            dir.to_str().unwrap(),
            "--format",
            "json",
        ]));
        let sliced = ok(&haifu(&[
            "stats",
            rep.name,
            "--frames",
            dir.to_str().unwrap(),
            "--where",
            expr,
            "--format",
            "json",
        ]));
        let mut want = json(&by_hand);
        if let Some((column, value)) = rep.filter {
            want = serde_json::Value::Array(
                want.as_array()
                    .unwrap()
                    .iter()
                    .filter(|r| r[column] == value)
                    .cloned()
                    .collect(),
            );
        }
        let got = json(&sliced);
        assert_eq!(got["slice"]["games"], 8);
        assert_eq!(got["rows"], want, "{}", rep.name);
        assert!(!want.as_array().unwrap().is_empty(), "{}", rep.name);
        checked += 1;
    }
    assert!(checked >= 10, "{checked} reports checked");
}

/// A slice that selects no games is stated as such, with reports of zero units, and the
/// command exits 3 (nothing to report) saying why.
#[test]
fn a_slice_of_no_games_says_so() {
    let out = ingested();
    let dir = out.path().to_str().unwrap();
    let expr = "date < '2000-01-01'";
    let nothing = |args: &[&str]| -> String {
        let o = haifu(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains(
                "haifu: nothing to report: --where \"date < '2000-01-01'\" selects none of the 4-player games"
            ),
            "{err}"
        );
        String::from_utf8(o.stdout).unwrap()
    };
    let table = nothing(&["stats", "riichi-response", "--frames", dir, "--where", expr]);
    assert!(
        table.contains("selects no games; every count below is 0"),
        "{table}"
    );
    let v = json(&nothing(&[
        "stats", "summary", "--frames", dir, "--where", expr, "--format", "json",
    ]));
    assert_eq!(v["slice"]["games"], 0);
    assert_eq!(v["slice"]["hands"], 0);
    assert_eq!(v["rows"][0]["games"], 0);
    assert_eq!(v["rows"][0]["hands"], 0);
    let v = json(&nothing(&[
        "stats",
        "riichi-response",
        "--frames",
        dir,
        "--where",
        expr,
        "--format",
        "json",
    ]));
    assert_eq!(v["rows"].as_array().unwrap().len(), 1);
    assert_eq!(v["rows"][0]["outcome"], "all");
    assert_eq!(v["rows"][0]["units"], 0);
}

/// Every refusal exits 1 with a message that names what is wrong, and prints no report.
#[test]
fn refusals_name_the_problem() {
    let out = ingested();
    let dir = out.path().to_str().unwrap();
    let sql = out.path().join("q.sql");
    std::fs::write(&sql, "SELECT SUM(units) AS u FROM draw_rate").unwrap();
    let cases: [(Vec<&str>, &str); 6] = [
        (
            vec!["stats", "draw-rate", "--frames", dir, "--where", "red"],
            "ingest the slice",
        ),
        (
            vec![
                "stats",
                "draw-rate-by-turn",
                "--frames",
                dir,
                "--where",
                "red",
            ],
            "ingest the slice",
        ),
        (
            vec![
                "query",
                sql.to_str().unwrap(),
                "--frames",
                dir,
                "--where",
                "red",
            ],
            "ingest the slice",
        ),
        (
            vec!["stats", "summary", "--frames", dir, "--where", "date >>= 1"],
            "date >>= 1",
        ),
        (
            vec!["stats", "summary", "--frames", dir, "--where", "elo > 2000"],
            "elo",
        ),
        (
            vec!["danger-eval", "--frames", dir, "--where", "rate > 2000"],
            "rate",
        ),
    ];
    for (args, named) in cases {
        let o = haifu(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?} printed a report");
    }
    // Without a slice the same draw_rate query runs.
    ok(&haifu(&["query", sql.to_str().unwrap(), "--frames", dir]));
}

/// `--since`/`--until` skip, with reason `date` and before decoding, every game dated outside
/// (and a game with no date); `ingest` keeps only f008 (2020-01-01) here.
#[test]
fn since_and_until_skip_other_dates() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let s = haifu::ingest::ingest(&haifu::ingest::IngestOptions {
        inputs: vec![fixtures()],
        out: out.clone(),
        room: haifu::ingest::RoomFilter::Any,
        dates: haifu::ingest::DateRange {
            since: Some("2020-01-01".into()),
            until: Some("2020-12-31".into()),
        },
        strict: false,
        progress: false,
        observe: Default::default(),
        tsumo_validation: false,
        convert: None,
        append: false,
        shard: None,
    })
    .unwrap();
    let t = &s.manifest.totals;
    // 12 files: f008 lands; f001, f002 (×2), f003-f007, f009, f010 and misc/local-game are
    // skipped.
    assert_eq!(
        (t.files, t.ok, t.skipped, t.failed, t.games),
        (12, 1, 11, 0, 1)
    );
    assert_eq!(s.manifest.skips_by_reason.get("date"), Some(&11));
    for f in s.manifest.files().unwrap() {
        if f.status == Status::Skipped {
            let r = f.reason_text().unwrap();
            assert!(r.starts_with("date: "), "{r}");
            if f.path.ends_with("local-game.xml") {
                assert!(r.contains("gives no date"), "{r}");
            } else {
                assert!(
                    r.contains("is outside --since 2020-01-01 --until 2020-12-31"),
                    "{r}"
                );
            }
        }
    }
    // Bounds are inclusive.
    let only = |since: &str, until: &str| {
        let o = tmp.path().join(format!("{since}-{until}"));
        haifu::ingest::ingest(&haifu::ingest::IngestOptions {
            inputs: vec![fixtures()],
            out: o,
            room: haifu::ingest::RoomFilter::Any,
            dates: haifu::ingest::DateRange {
                since: Some(since.into()),
                until: Some(until.into()),
            },
            strict: false,
            progress: false,
            observe: Default::default(),
            tsumo_validation: false,
            convert: None,
            append: false,
            shard: None,
        })
        .unwrap()
        .manifest
        .totals
        .games
    };
    assert_eq!(only("2019-06-15", "2019-06-15"), 1);
    assert_eq!(only("2099-01-02", "2099-01-04"), 3);
}

/// `summary-by-year` and `riichi-response-by-year` against the frames, counted here: games
/// per year of `games.date`, hands, wins and declarations per year of the hands' games, §1
/// units per (year, outcome).
#[test]
fn by_year_reports_match_the_frames() {
    let out = ingested();
    let dir = out.path();
    let games = frame(dir, "games");
    let year_of: BTreeMap<String, Option<String>> = (0..games.height())
        .map(|r| {
            let id = games
                .column("game_id")
                .unwrap()
                .str()
                .unwrap()
                .get(r)
                .unwrap();
            let date = games.column("date").unwrap().str().unwrap().get(r);
            (id.to_string(), date.map(|d| d[..4].to_string()))
        })
        .collect();
    let mut want_games: BTreeMap<Option<String>, i64> = BTreeMap::new();
    for y in year_of.values() {
        *want_games.entry(y.clone()).or_default() += 1;
    }
    let hands = frame(dir, "hands");
    let mut want_hands: BTreeMap<Option<String>, (i64, i64, i64)> = BTreeMap::new();
    for r in 0..hands.height() {
        let id = hands
            .column("game_id")
            .unwrap()
            .str()
            .unwrap()
            .get(r)
            .unwrap();
        let e = want_hands.entry(year_of[id].clone()).or_default();
        e.0 += 1;
        e.1 += hands.column("wins").unwrap().i32().unwrap().get(r).unwrap() as i64;
        e.2 += hands
            .column("declarations")
            .unwrap()
            .i32()
            .unwrap()
            .get(r)
            .unwrap() as i64;
    }
    let text = ok(&haifu(&[
        "stats",
        "summary-by-year",
        "--frames",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let rows = json(&text);
    let rows = rows.as_array().unwrap();
    // 2019 (f006), 2020 (f008), 2021 (f007), 2022 (f009), 2023 (f010), 2099 (f001-f005), null
    // (misc/local-game).
    assert_eq!(rows.len(), 7);
    for r in rows {
        let year = r["year"].as_str().map(str::to_string);
        assert_eq!(r["games"].as_i64(), Some(want_games[&year]), "{year:?}");
        let (h, w, d) = want_hands[&year];
        assert_eq!(r["hands"].as_i64(), Some(h), "{year:?}");
        assert_eq!(r["wins"].as_i64(), Some(w), "{year:?}");
        assert_eq!(r["riichi"].as_i64(), Some(d), "{year:?}");
    }
    let rr = frame(dir, "riichi_response");
    let mut want_units: BTreeMap<(Option<String>, String), i64> = BTreeMap::new();
    for r in 0..rr.height() {
        let id = rr.column("game_id").unwrap().str().unwrap().get(r).unwrap();
        let outcome = rr.column("outcome").unwrap().str().unwrap().get(r).unwrap();
        *want_units
            .entry((year_of[id].clone(), outcome.to_string()))
            .or_default() += 1;
        *want_units
            .entry((year_of[id].clone(), "all".to_string()))
            .or_default() += 1;
    }
    let text = ok(&haifu(&[
        "stats",
        "riichi-response-by-year",
        "--frames",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]));
    let got: BTreeMap<(Option<String>, String), i64> = json(&text)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["year"].as_str().map(str::to_string),
                    r["outcome"].as_str().unwrap().to_string(),
                ),
                r["units"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, want_units);
    // f008 alone in 2020: the hand-worked 12 units (EXPECTED_V2.md §5).
    assert_eq!(got[&(Some("2020".into()), "all".into())], 12);
}

/// `haifu run --where`: the slice's line above the tables, every report restricted (its JSON
/// says the slice), `reports/slice.json`, and no draw-rate reports nor parameter file.
#[test]
fn run_with_a_slice_writes_the_sliced_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let stdout = ok(&haifu(&[
        "run",
        fixtures().to_str().unwrap(),
        "--room",
        "any",
        "--out",
        out.to_str().unwrap(),
        "--where",
        "date >= '2099-01-01'",
        "--quiet",
    ]));
    assert!(stdout.starts_with("== slice --where \"date >= '2099-01-01'\": 5 games, 21 hands\n"));
    let reports = out.join("reports");
    let slice = json(&std::fs::read_to_string(reports.join("slice.json")).unwrap());
    assert_eq!(slice["games"], 5);
    for gone in [
        "draw-rate.csv",
        "draw-rate-by-turn.json",
        "tsumo_rate.json",
        "tsumo_rate.csv",
    ] {
        assert!(!reports.join(gone).exists(), "{gone}");
    }
    let rr = json(&std::fs::read_to_string(reports.join("riichi-response.json")).unwrap());
    assert_eq!(rr["slice"]["hands"], 21);
    // The version-1 fixtures' hand-worked 42 units (tests/fixture_stats.rs).
    let all = rr["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["outcome"] == "all")
        .unwrap()
        .clone();
    assert_eq!(all["units"], 42);
    // The frames hold every game ingested.
    assert_eq!(frame(&out, "games").height(), 11);
}

/// Under a slice the §4 estimators are scored on its games alone, `phoenix-table` fitted on
/// them: `danger-eval --where` over all fixtures equals `danger-eval` over frames ingested
/// from those games only.
#[test]
fn danger_eval_on_a_slice_equals_scoring_the_slice_alone() {
    let all = ingested();
    let tmp = tempfile::tempdir().unwrap();
    let alone = tmp.path().join("alone");
    let v1: Vec<PathBuf> = common::fixture_files_v1();
    common::run_ingest(&v1, &alone, haifu::ingest::RoomFilter::Any);
    let frames_before: Vec<Vec<u8>> = ["danger_eval", "danger_calibration", "danger_eval_summary"]
        .iter()
        .map(|f| std::fs::read(all.path().join(format!("{f}.parquet"))).unwrap())
        .collect();
    let sliced = ok(&haifu(&[
        "danger-eval",
        "--frames",
        all.path().to_str().unwrap(),
        "--where",
        "date LIKE '2099-%'",
    ]));
    let whole = ok(&haifu(&[
        "danger-eval",
        "--frames",
        alone.to_str().unwrap(),
    ]));
    let (head, tables) = sliced.split_once('\n').unwrap();
    assert_eq!(
        head,
        "== slice --where \"date LIKE '2099-%'\": 5 games, 21 hands"
    );
    assert_eq!(tables, whole);
    // The sliced scoring leaves the frames of the full ingest as they were.
    for (f, before) in ["danger_eval", "danger_calibration", "danger_eval_summary"]
        .iter()
        .zip(frames_before)
    {
        let now = std::fs::read(all.path().join(format!("{f}.parquet"))).unwrap();
        assert!(now == before, "{f} changed");
    }
}
