//! `haifu compare` (statistics tested in src/compare/stat.rs): a pair of tiny corpora made of
//! the fixture games, whose differences are worked by hand below; a corpus against itself;
//! two slices of one directory against two separate ingests; rows one side only has; each
//! side's values against the report's own on the same slice; the Phoenix corpus against
//! itself.

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, haifu, ingest_cli, ok};
use serde_json::Value;

/// A: the three fixture games with many riichi (f003 four riichi, f008, f009); B: five games
/// with few (f004, f005, f006, f007, f010). Their hands and riichi, from the fixtures' scripts
/// (tools/fixtures/README.md, EXPECTED_V2/V4.md) and the `hands` frame:
///
/// | game | hands | riichi | seats that called | drawn hands |
/// |---|---|---|---|---|
/// | f003 | 4 | 6 | 0 | 2 |
/// | f008 | 4 | 7 | 0 | 2 |
/// | f009 | 4 | 9 | 0 | 2 |
/// | f004 | 5 | 2 | 2 | 0 |
/// | f005 | 3 | 3 | 0 | 0 |
/// | f006 | 2 | 1 | 3 | 0 |
/// | f007 | 2 | 1 | 0 | 0 |
/// | f010 | 4 | 3 | 4 | 0 |
const WHERE_A: &str = "game_id LIKE '%f003' OR game_id LIKE '%f008' OR game_id LIKE '%f009'";
const WHERE_B: &str = "game_id LIKE '%f004' OR game_id LIKE '%f005' OR game_id LIKE '%f006' \
                       OR game_id LIKE '%f007' OR game_id LIKE '%f010'";

fn files_of(games: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(fixtures()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if p.extension().is_some_and(|x| x == "xml") && games.iter().any(|g| name.contains(g)) {
            out.push(p);
        }
    }
    out.sort();
    assert_eq!(out.len(), games.len(), "{games:?}");
    out
}

fn all_fixtures() -> tempfile::TempDir {
    ingest_cli(&[fixtures()], &["--with=development"])
}

fn compare_json(args: &[&str]) -> Value {
    let mut all = vec!["compare", "--format", "json"];
    all.extend(args);
    let text = ok(&haifu(&all));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The arguments of `haifu compare summary` of A (`WHERE_A`) against B (`WHERE_B`) in `dir`.
fn summary_args(dir: &str) -> Vec<&str> {
    vec![
        "compare",
        "summary",
        "--frames",
        dir,
        "--where-a",
        WHERE_A,
        "--where-b",
        WHERE_B,
    ]
}

/// [`summary_args`] as JSON, with `more` arguments.
fn summary_a_against_b(dir: &str, more: &[&str]) -> Value {
    let mut args = summary_args(dir)[1..].to_vec();
    args.extend(more);
    compare_json(&args)
}

fn rows(v: &Value) -> &Vec<Value> {
    v["rows"].as_array().expect("rows")
}

fn row<'a>(v: &'a Value, report: &str, keys: &[(&str, &str)], measure: &str) -> &'a Value {
    rows(v)
        .iter()
        .find(|r| {
            r["report"] == report
                && r["measure"] == measure
                && keys.iter().all(|(k, want)| key_text(&r[*k]) == *want)
        })
        .unwrap_or_else(|| panic!("no row {report} {keys:?} {measure}"))
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(x: f64, want: f64, tol: f64, what: &str) {
    assert!((x - want).abs() < tol, "{what}: {x} vs {want}");
}

/// The summary of A against B, worked by hand (every one of its 14 rows has a test, so
/// Holm's m = 14; rooms: all eight games are Phoenix, so the `phoenix` and `all` rows are
/// equal and every p-value comes twice).
///
/// - riichi_rate: A 22 / (4 × 12) = 0.45833, B 10 / 64 = 0.15625, diff −0.30208. Pooled
///   p̂ = 32/112, se = √(p̂(1 − p̂)(1/48 + 1/64)) = 0.086258, z = −3.5021, p = 0.000462: the
///   smallest p (twice), so p_adjusted = 14 × 0.000462 = 0.00646 < 0.05: **significant**.
/// - draw_rate: A 6/12, B 0/16, pooled 6/28, se = 0.15670, z = −3.1909, p = 0.001418: ranks 3
///   and 4, adjusted 12 × p = 0.01702 (then 11 × p, lower, keeps the running maximum 0.01702).
/// - call_rate: A 0/48, B 9/64 = 0.140625; pooled 9/112, se = 0.051906, z = 2.7092,
///   p = 0.006744: ranks 5 and 6, adjusted 10 × p = 0.06744 > 0.05: **not significant**,
///   although its own p is below 0.05.
/// - hands_per_game (Welch): A {4, 4, 4} mean 4, s² = 0; B {5, 3, 2, 2, 4} mean 3.2,
///   s² = 6.8 / 4 = 1.7; se = √(1.7 / 5) = 0.58310, df = 4 (A adds nothing), t(0.975; 4) =
///   2.7764, interval −0.8 ± 1.6189.
#[test]
fn a_pair_of_tiny_corpora_worked_by_hand() {
    let out = all_fixtures();
    let dir = out.path().to_str().unwrap();
    let v = summary_a_against_b(dir, &["--name", "A=many-riichi", "--name", "B=few-riichi"]);
    assert_eq!(v["a"]["name"], "many-riichi");
    assert_eq!(
        (v["a"]["games"].as_u64(), v["a"]["hands"].as_u64()),
        (Some(3), Some(12))
    );
    assert_eq!(
        (v["b"]["games"].as_u64(), v["b"]["hands"].as_u64()),
        (Some(5), Some(16))
    );
    assert_eq!(v["a"]["where"], WHERE_A);
    let tests = rows(&v).iter().filter(|r| !r["p"].is_null()).count();
    assert_eq!(tests, 14);
    for room in ["phoenix", "all"] {
        let r = row(&v, "summary", &[("room", room)], "riichi_rate");
        assert_eq!((r["n_a"].as_i64(), r["n_b"].as_i64()), (Some(48), Some(64)));
        close(f(&r["a"]), 22.0 / 48.0, 1e-12, "riichi a");
        close(f(&r["b"]), 10.0 / 64.0, 1e-12, "riichi b");
        close(
            f(&r["diff"]),
            10.0 / 64.0 - 22.0 / 48.0,
            1e-12,
            "riichi diff",
        );
        close(f(&r["p"]), 0.000462, 2e-6, "riichi p");
        close(f(&r["p_adjusted"]), 0.00646, 3e-5, "riichi p_adjusted");
        assert_eq!(r["significant"], true);
        assert!(f(&r["diff_hi"]) < 0.0 && f(&r["diff_lo"]) > -1.0);

        let r = row(&v, "summary", &[("room", room)], "draw_rate");
        close(f(&r["p_adjusted"]), 0.01702, 3e-5, "draw p_adjusted");
        assert_eq!(r["significant"], true);

        let r = row(&v, "summary", &[("room", room)], "call_rate");
        close(f(&r["p"]), 0.006744, 3e-6, "call p");
        close(f(&r["p_adjusted"]), 0.06744, 3e-5, "call p_adjusted");
        assert_eq!(r["significant"], false);

        let r = row(&v, "summary", &[("room", room)], "hands_per_game");
        assert_eq!(r["stat"], "mean");
        close(f(&r["a"]), 4.0, 1e-12, "hands a");
        close(f(&r["b"]), 3.2, 1e-12, "hands b");
        close(
            f(&r["diff_hi"]) - f(&r["diff"]),
            1.6189,
            1e-3,
            "hands interval",
        );
        assert_eq!(r["significant"], false);
    }
    // The table a person reads marks exactly the significant rows.
    let text = ok(&haifu(&summary_args(dir)));
    let first = text.lines().next().unwrap();
    assert!(first.starts_with(&format!("A = {dir} --where ")), "{first}");
    assert!(first.ends_with(": 3 games, 12 hands"), "{first}");
    let starred: Vec<&str> = text.lines().filter(|l| l.ends_with(" *")).collect();
    assert_eq!(starred.len(), 4, "{text}");
    assert!(starred
        .iter()
        .all(|l| l.contains("riichi_rate") || l.contains("draw_rate")));
}

/// A row whose test cannot run still shows both values and their difference: A = f003 alone
/// has one game, so hands per game is a mean of one value (no variance, no Welch test); its
/// 4 hands against B's 16 over 5 games (3.2) give a difference of −0.8, with no interval, p or
/// significance.
/// The summary's average_win_value of A against B counts each win of a double ron (the
/// `wins` frame's points, AGARI `ten` without honba and sticks):
///
/// - A: f008 3,900, 18,000 and 3,900 (its hand 0 is a double ron: 3,900 and 18,000); f009
///   5,200, 8,000 and 12,000 (hand 3, a double ron: 8,000 and 12,000); f003 3,900 and 24,000.
///   n = 8, sum 78,900, mean 9,862.5; sum of squares 1,180,670,000, s² = (1,180,670,000 −
///   8 · 9,862.5²) / 7 = 57,502,678.6.
/// - B: f004 4,800, 2,000, 5,200, 5,200, 2,700; f005 3,900, 7,800, 24,000; f006 5,200, 32,000;
///   f007 8,000, 32,000; f010 24,000, 2,600 and 5,200 (hand 1, a double ron), 8,000, 64,000.
///   n = 17, sum 236,600, mean 13,917.647; sum of squares 7,649,300,000,
///   s² = (7,649,300,000 − 236,600² / 17) / 16 = 272,274,044.1.
/// - Welch: se = √(57,502,678.6 / 8 + 272,274,044.1 / 17) = 4,817.05, df = 23.0,
///   t(0.975; 23) = 2.0687: the interval is the difference ± 9,965.
///
/// Counting a double ron's hand once (its `win_value`, 21,900 for f008) would give n = 6 in A.
#[test]
fn average_win_value_counts_each_win_of_a_double_ron() {
    let out = all_fixtures();
    let dir = out.path().to_str().unwrap();
    let v = summary_a_against_b(dir, &[]);
    for room in ["phoenix", "all"] {
        let r = row(&v, "summary", &[("room", room)], "average_win_value");
        assert_eq!(r["stat"], "mean");
        assert_eq!((r["n_a"].as_u64(), r["n_b"].as_u64()), (Some(8), Some(17)));
        close(f(&r["a"]), 9862.5, 1e-9, "win value a");
        close(f(&r["b"]), 236_600.0 / 17.0, 1e-9, "win value b");
        close(
            f(&r["diff_hi"]) - f(&r["diff"]),
            9965.0,
            1.0,
            "win value interval",
        );
    }
}

#[test]
fn an_untestable_row_keeps_its_difference() {
    let out = all_fixtures();
    let dir = out.path().to_str().unwrap();
    let v = compare_json(&[
        "summary",
        "--frames",
        dir,
        "--where-a",
        "game_id LIKE '%f003'",
        "--where-b",
        WHERE_B,
    ]);
    let r = row(&v, "summary", &[("room", "all")], "hands_per_game");
    assert_eq!((r["n_a"].as_i64(), r["n_b"].as_i64()), (Some(1), Some(5)));
    close(f(&r["diff"]), -0.8, 1e-12, "diff");
    for k in ["diff_lo", "diff_hi", "p", "p_adjusted", "significant"] {
        assert!(r[k].is_null(), "{k}: {r}");
    }
}

/// A corpus against itself: every difference 0, no row significant, in every report
/// (the fixtures were ingested with --with development, so yaku and by-turn are compared too).
#[test]
fn a_corpus_against_itself_has_no_significant_row() {
    let out = all_fixtures();
    let dir = out.path().to_str().unwrap();
    let v = compare_json(&["--frames", dir]);
    assert!(v["notes"].as_array().unwrap().is_empty(), "{}", v["notes"]);
    let reports: std::collections::BTreeSet<&str> = rows(&v)
        .iter()
        .map(|r| r["report"].as_str().unwrap())
        .collect();
    assert_eq!(reports.len(), 14, "{reports:?}");
    for r in rows(&v) {
        assert_ne!(r["significant"], true, "{r}");
        if !r["diff"].is_null() {
            assert_eq!(f(&r["diff"]), 0.0, "{r}");
        }
        assert_eq!(r["a"], r["b"], "{r}");
    }
}

/// Two slices of one directory give the rows of two separate ingests of the same games.
#[test]
fn two_slices_equal_two_ingests() {
    let out = all_fixtures();
    let a = ingest_cli(
        &files_of(&["f003", "f008", "f009"]),
        &["--with=development"],
    );
    let b = ingest_cli(
        &files_of(&["f004", "f005", "f006", "f007", "f010"]),
        &["--with=development"],
    );
    let sliced = compare_json(&[
        "--frames",
        out.path().to_str().unwrap(),
        "--where-a",
        WHERE_A,
        "--where-b",
        WHERE_B,
    ]);
    let separate = compare_json(&[
        "--frames",
        a.path().to_str().unwrap(),
        "--frames",
        b.path().to_str().unwrap(),
    ]);
    assert!(rows(&sliced).len() > 100);
    assert_eq!(rows(&sliced), rows(&separate));
    for side in ["a", "b"] {
        assert_eq!(sliced[side]["games"], separate[side]["games"]);
        assert_eq!(sliced[side]["hands"], separate[side]["hands"]);
    }
}

/// A row one side lacks is shown with that side null, not dropped: kokushi wins only in f002
/// and f006 (tools/fixtures/README.md), so A = f006 alone has a kokushi row that B = f010
/// lacks, and B's own yaku rows (such as double riichi) are there with A null.
#[test]
fn rows_on_one_side_only_are_shown() {
    let out = all_fixtures();
    let dir = out.path().to_str().unwrap();
    let v = compare_json(&[
        "yaku",
        "--frames",
        dir,
        "--where-a",
        "game_id LIKE '%f006'",
        "--where-b",
        "game_id LIKE '%f010'",
    ]);
    let r = row(&v, "yaku", &[("yaku", "kokushi")], "win_share");
    assert!(
        r["b"].is_null() && r["n_b"].is_null() && r["p"].is_null(),
        "{r}"
    );
    close(f(&r["a"]), 0.5, 1e-12, "kokushi a"); // one of f006's two wins
    let r = row(&v, "yaku", &[("yaku", "double-riichi")], "win_share");
    assert!(r["a"].is_null() && !r["b"].is_null(), "{r}");
    // A's rows come first, in A's order; B's own rows after them.
    let list = rows(&v);
    let first_b_only = list.iter().position(|r| r["a"].is_null()).unwrap();
    assert!(list[first_b_only..].iter().all(|r| r["a"].is_null()));
}

/// Each side's value is the report's own number on the same slice (`haifu stats REPORT
/// --where`): the measure names the report's column, the keys its row.
#[test]
fn each_side_is_the_reports_own_numbers() {
    let out = all_fixtures();
    let dir = out.path();
    let v = compare_json(&[
        "--frames",
        dir.to_str().unwrap(),
        "--where-a",
        WHERE_A,
        "--where-b",
        WHERE_B,
    ]);
    let mut checked = 0;
    for (side, expr) in [("a", WHERE_A), ("b", WHERE_B)] {
        let mut cache = std::collections::HashMap::new();
        for r in rows(&v) {
            let Some(value) = r[side].as_f64() else {
                continue;
            };
            let report = r["report"].as_str().unwrap().to_string();
            // `players` pools every seat of a side here (its report has a row per name):
            // tests/players.rs checks a name's side against the name's row.
            if report == "players" {
                continue;
            }
            let report_rows = cache
                .entry(report.clone())
                .or_insert_with(|| stats_rows(dir, &report, expr));
            let keys: Vec<(&String, &Value)> = r
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, _)| !VALUE_FIELDS.contains(&k.as_str()))
                .collect();
            let want = report_rows
                .iter()
                .find(|rr| {
                    keys.iter()
                        .all(|(k, kv)| key_text(&rr[k.as_str()]) == key_text(kv))
                })
                .unwrap_or_else(|| panic!("{report}: no report row for {r}"));
            let measure = r["measure"].as_str().unwrap();
            close(
                value,
                f(&want[measure]),
                1e-9,
                &format!("{report} {measure} {side}"),
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
}

/// The fields of a compared row that are not the report's keys.
const VALUE_FIELDS: [&str; 13] = [
    "report",
    "measure",
    "stat",
    "n_a",
    "n_b",
    "a",
    "b",
    "diff",
    "diff_lo",
    "diff_hi",
    "p",
    "p_adjusted",
    "significant",
];

fn stats_rows(dir: &Path, report: &str, expr: &str) -> Vec<Value> {
    let text = ok(&haifu(&[
        "stats",
        report,
        "--frames",
        dir.to_str().unwrap(),
        "--where",
        expr,
        "--format",
        "json",
    ]));
    let v: Value = serde_json::from_str(&text).unwrap();
    v["rows"].as_array().unwrap().clone()
}

/// Without --with development frames, the default comparison leaves yaku and by-turn out and says so;
/// named, it is an error that says which frame and which flag.
#[test]
fn reports_without_their_frames_are_left_out_with_a_note() {
    let out = ingest_cli(&[fixtures()], &[]);
    let dir = out.path().to_str().unwrap();
    let o = haifu(&["compare", "--frames", dir, "--format", "csv"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("yaku: left out") && stderr.contains("--with development"),
        "{stderr}"
    );
    assert!(stderr.contains("by-turn: left out"), "{stderr}");
    assert!(
        stderr
            .contains("summary: its measures that read `wins` left out: A lacks the `wins` frame"),
        "{stderr}"
    );
    let o = haifu(&["compare", "yaku", "--frames", dir]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("report `yaku` reads the `wins` frame, which A (")
            && stderr.contains("lacks: ingest with --with development"),
        "{stderr}"
    );
    let o = haifu(&["compare", "records", "--frames", dir]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be compared"));
    let o = haifu(&["compare", "--frames", dir, "--name", "C=x"]);
    assert_eq!(o.status.code(), Some(1));
    // Frames of an older haifu, without `seats`: players is left out, the rest compared.
    std::fs::remove_file(out.path().join("seats.parquet")).unwrap();
    let o = haifu(&["compare", "--frames", dir, "--format", "csv"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("players: left out: A (") && stderr.contains("has no `seats` frame"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("summary,"));
}

/// The Phoenix corpus against itself (the first 400 games): no significant row in any
/// default report.
#[test]
fn phoenix_against_itself() {
    let Some(out) = common::ingested_phoenix_games(400) else {
        return;
    };
    let v = compare_json(&["--frames", out.path().to_str().unwrap()]);
    assert!(rows(&v).len() > 300);
    assert!(rows(&v).iter().all(|r| r["significant"] != true));
    let sig = compare_json(&[
        "riichi-response",
        "--frames",
        out.path().to_str().unwrap(),
        "--where-a",
        "fold = 0",
        "--where-b",
        "fold = 1",
    ]);
    // Two halves of one corpus: every row tested, values on both sides.
    assert!(rows(&sig)
        .iter()
        .all(|r| !r["a"].is_null() && !r["b"].is_null()));
}
