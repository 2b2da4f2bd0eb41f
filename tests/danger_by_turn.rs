//! §15 danger at every moment (`--with danger-moments`): the moments of hand-made riichi hands
//! worked by hand from the fixtures' scripts (tools/fixtures/games.py), the metrics of one
//! moment worked by hand, a situation stopped by a passed wait, the `danger-by-turn` report
//! against the frame's exact sums, `haifu danger-eval --by-turn`, and the Phoenix corpus.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{fixtures, frame, haifu, ingest_cli, ok};
use polars::prelude::*;

const F006: &str = "2019061512gm-00a9-0000-0000f006";
const F007: &str = "2021031520gm-00a9-0000-0000f007";

fn ingested(inputs: &[PathBuf]) -> tempfile::TempDir {
    ingest_cli(inputs, &["--with=danger-moments"])
}

/// (game, observer, turn, estimator) → (moments, [rmse, cross_entropy, kld] sums) of the
/// frame, each sum from its exact parts.
type Sums = BTreeMap<(String, i32, i32, String), (i64, [f64; 3])>;

fn sums(dir: &Path) -> Sums {
    let df = frame(dir, "danger_by_turn");
    let text = |c: &str| df.column(c).unwrap().str().unwrap().clone();
    let int = |c: &str| {
        df.column(c)
            .unwrap()
            .cast(&DataType::Int64)
            .unwrap()
            .i64()
            .unwrap()
            .clone()
    };
    let (game, est) = (text("game_id"), text("estimator"));
    let (obs, turn, moments) = (int("observer"), int("turn"), int("moments"));
    let parts: Vec<(Int64Chunked, Int64Chunked)> = ["rmse", "cross_entropy", "kld"]
        .iter()
        .map(|m| (int(&format!("{m}_hi")), int(&format!("{m}_lo"))))
        .collect();
    let mut out = Sums::new();
    for i in 0..df.height() {
        let metric = |m: usize| {
            let (hi, lo) = (parts[m].0.get(i).unwrap(), parts[m].1.get(i).unwrap());
            assert!((0..1 << 24).contains(&lo));
            (i128::from(hi) * (1 << 24) + i128::from(lo)) as f64 / 4_294_967_296.0
        };
        let key = (
            game.get(i).unwrap().to_string(),
            obs.get(i).unwrap() as i32,
            turn.get(i).unwrap() as i32,
            est.get(i).unwrap().to_string(),
        );
        let prev = out.insert(
            key,
            (moments.get(i).unwrap(), [metric(0), metric(1), metric(2)]),
        );
        assert!(prev.is_none(), "one row per key");
    }
    out
}

/// The moments of `game` per (observer, turn), checking that every built-in estimator scored
/// each of them.
fn moments_of(s: &Sums, game: &str) -> Vec<(i32, i32, i64)> {
    let mut per: BTreeMap<(i32, i32), Vec<i64>> = BTreeMap::new();
    for ((g, o, t, _), (n, _)) in s {
        if g == game {
            per.entry((*o, *t)).or_default().push(*n);
        }
    }
    per.into_iter()
        .map(|((o, t), ns)| {
            assert_eq!(ns.len(), 5, "five estimators at ({o}, {t})");
            assert!(ns.iter().all(|&n| n == ns[0]), "{ns:?}");
            (o, t, ns[0])
        })
        .collect()
}

fn fixture(name: &str) -> PathBuf {
    fixtures().join(format!("{name}.xml"))
}

/// f006 hand 1: seat 3 (R) declares with East at its turn 2 (discards 9m, East); waits 2s-5s
/// (234m 567p 678s 2234s). After the declaration, in order: the dealer (d = 1) pons the East
/// (a call, its turn 2: discards South, 3m), throws red 5m; seat 1 (d = 2) draws 8p (turn 2:
/// North, 9p); seat 2 (d = 3) draws South (turn 2: its tsumogiri 1p, Haku); R draws and
/// tsumogiris; the dealer draws 1s (turn 3); seat 1 chis 7s (a call, turn 3); then seats 2, 3,
/// 0, 1, 2 go round (turns 3, R, 4, 4, 4) and R tsumos 5s. No wait is discarded and no moment
/// is excluded: each observer has one moment at each of turns 2, 3 and 4. Hand 2 has no riichi.
///
/// The `none` estimator at the first moment (d = 1, the pon): the genbutsu set is R's river,
/// {9m, East}, so none gives 1/32 to each of the other 32 kinds. Waits {2s, 5s}, v = 1/2:
/// - KLD = 2 · ½ · ln(½ / (1/32)) = ln 16 = 2.772589;
/// - RMSE = √((2 · (½ − 1/32)² + 30 · (1/32)²) / 34) = √(0.46875 / 34) = 0.117417;
/// - cross-entropy = −ln(1/32) − 31 · ln(31/32) (the two genbutsu kinds add ln 1 = 0)
///   = 3.465736 + 0.984210 = 4.449946.
///
/// At seat 1's draw (d = 2) the dealer's red 5m has joined the genbutsu set: 31 kinds at 1/31,
/// KLD = ln(31/2) = 2.740840.
#[test]
fn f006_three_observers_calls_and_metrics_by_hand() {
    let out = ingested(&[fixture(F006)]);
    let s = sums(out.path());
    let want: Vec<(i32, i32, i64)> = (1..=3)
        .flat_map(|o| (2..=4).map(move |t| (o, t, 1)))
        .collect();
    assert_eq!(moments_of(&s, F006), want);
    let none = |o: i32, t: i32| s[&(F006.to_string(), o, t, "none".to_string())].1;
    let [rmse, ce, kld] = none(1, 2);
    assert!((kld - 16f64.ln()).abs() < 1e-9, "{kld}");
    assert!((rmse - (0.46875f64 / 34.0).sqrt()).abs() < 1e-9, "{rmse}");
    let want_ce = 32f64.ln() - 31.0 * (31.0f64 / 32.0).ln();
    assert!((ce - want_ce).abs() < 1e-9, "{ce} {want_ce}");
    assert!((none(2, 2)[2] - 15.5f64.ln()).abs() < 1e-9);
}

/// f007 hand 1: seat 1 (R) declares at its turn 2. Seat 2 (d = 1) draws 4s (turn 1); seat 3
/// (d = 2) draws the fourth Haku (turn 1), declares an ankan (not a moment) and draws its
/// replacement tile (a rinshan draw: a second moment at turn 1); then nine draws go round:
/// the dealer (d = 3) at turns 2, 3, 4, seat 2 at turns 2, 3, seat 3 at turns 2, 3, and R,
/// who tsumos on its third draw. Hand 2 has no riichi.
#[test]
fn f007_a_rinshan_draw_is_a_moment() {
    let out = ingested(&[fixture(F007)]);
    let s = sums(out.path());
    assert_eq!(
        moments_of(&s, F007),
        vec![
            (1, 1, 1),
            (1, 2, 1),
            (1, 3, 1),
            (2, 1, 2),
            (2, 2, 1),
            (2, 3, 1),
            (3, 2, 1),
            (3, 3, 1),
            (3, 4, 1)
        ]
    );
}

/// f006 with R's tsumogiri after the declaration (`<W5/><G5/>`, a 2m) turned into the free
/// copy of 2s (id 77): R draws one of its waits and throws it (a passed tsumo, legal in a
/// log). The situation stops at that discard: only the three moments before it remain (the
/// pon, seat 1's draw, seat 2's draw, each at turn 2), and none of the seven after it.
#[test]
fn a_discarded_wait_stops_the_situation() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture(F006)).unwrap();
    assert_eq!(text.matches("<W5/><G5/>").count(), 1);
    let path = dir.path().join("2019061512gm-00a9-0000-0000f106.xml");
    std::fs::write(&path, text.replace("<W5/><G5/>", "<W77/><G77/>")).unwrap();
    let out = ingested(&[path]);
    let s = sums(out.path());
    assert_eq!(
        moments_of(&s, "2019061512gm-00a9-0000-0000f106"),
        vec![(1, 2, 1), (2, 2, 1), (3, 2, 1)]
    );
}

/// The report over every fixture: each (observer, turn, estimator) row's moments and means are
/// the frame's sums (exact parts added here in i128), `all` rows the sums over turns, and
/// exactly the lowest estimator of each (observer, turn) is marked best for each metric
/// (ties all marked).
#[test]
fn the_report_is_the_frames_sums() {
    let out = ingested(&[fixtures()]);
    let s = sums(out.path());
    let rows = common::stats_json(out.path(), "danger-by-turn", &[]);
    let mut totals: BTreeMap<(i32, String, String), (i64, [f64; 3])> = BTreeMap::new();
    for ((_, o, t, e), (n, m)) in &s {
        let label = if *t >= 19 {
            "19+".to_string()
        } else {
            t.to_string()
        };
        for key in [(*o, label, e.clone()), (*o, "all".to_string(), e.clone())] {
            let entry = totals.entry(key).or_insert((0, [0.0; 3]));
            entry.0 += n;
            for (sum, x) in entry.1.iter_mut().zip(m) {
                *sum += x;
            }
        }
    }
    assert_eq!(rows.len(), totals.len());
    for r in &rows {
        let key = (
            r["observer"].as_i64().unwrap() as i32,
            r["turn"].as_str().unwrap().to_string(),
            r["estimator"].as_str().unwrap().to_string(),
        );
        let (n, m) = totals[&key];
        assert_eq!(r["moments"].as_i64(), Some(n), "{r}");
        for (i, name) in ["rmse", "cross_entropy", "kld"].iter().enumerate() {
            let got = r[*name].as_f64().unwrap();
            assert!((got - m[i] / n as f64).abs() < 1e-9, "{name} {r}");
            let group_min = rows
                .iter()
                .filter(|x| x["observer"] == r["observer"] && x["turn"] == r["turn"])
                .map(|x| x[*name].as_f64().unwrap())
                .fold(f64::INFINITY, f64::min);
            assert_eq!(
                r[format!("best_{name}")].as_bool(),
                Some(got == group_min),
                "{r}"
            );
        }
    }
    // `haifu run --with danger-moments` writes the report; without the flag it is neither run nor
    // asked for, and `stats` says which flag.
    let plain = ingest_cli(&[fixtures()], &[]);
    let o = haifu(&[
        "stats",
        "danger-by-turn",
        "--frames",
        plain.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--with danger-moments"));
}

/// `haifu danger-eval --by-turn`: the table with the slice's line, the best values starred,
/// `--estimators` keeping those rows; without the frame, an error naming the flag.
#[test]
fn danger_eval_by_turn() {
    let out = ingested(&[fixtures()]);
    let dir = out.path().to_str().unwrap();
    let text = ok(&haifu(&[
        "danger-eval",
        "--frames",
        dir,
        "--by-turn",
        "--estimators",
        "none,combo",
        "--where",
        "game_id LIKE '%f006'",
    ]));
    let mut lines = text.lines();
    assert!(lines.next().unwrap().contains("1 games, 2 hands"), "{text}");
    let body: Vec<&str> = text.lines().skip(3).collect();
    // Three observers, turns 2, 3, 4 and all, two estimators.
    assert_eq!(body.len(), 3 * 4 * 2, "{text}");
    assert!(body
        .iter()
        .all(|l| l.contains("none") || l.contains("combo")));
    assert!(text.contains(" 2.7726\n"), "{text}"); // none's KLD at (1, 2): ln 16
    assert!(text.contains('*'));
    let plain = ingest_cli(&[fixture(F006)], &[]);
    let o = haifu(&[
        "danger-eval",
        "--frames",
        plain.path().to_str().unwrap(),
        "--by-turn",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--with danger-moments"));
}

/// The Phoenix corpus (first 300 games): every moment is scored by the five estimators; the
/// metrics are in range (KLD ≥ 0: Gibbs' inequality, the weights summing to at most 1); each
/// observer has moments; the report's `all` rows add up the frame.
#[test]
fn phoenix_moments() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = ingested(&common::first_files(&dir, 300));
    let s = sums(out.path());
    let games: std::collections::BTreeSet<&String> = s.keys().map(|k| &k.0).collect();
    let mut per_observer = [0i64; 3];
    for g in games {
        for (o, _, n) in moments_of(&s, g) {
            per_observer[o as usize - 1] += n;
        }
    }
    assert!(per_observer.iter().all(|&n| n > 1000), "{per_observer:?}");
    for ((_, _, _, e), (n, m)) in &s {
        assert!(*n > 0);
        assert!(m.iter().all(|x| x.is_finite() && *x >= 0.0), "{e} {m:?}");
        // RMSE of 34 weights against v is at most √(2/34) per moment.
        assert!(m[0] / *n as f64 <= (2.0f64 / 34.0).sqrt());
    }
    let rows = common::stats_json(out.path(), "danger-by-turn", &[]);
    for o in 1..=3i64 {
        let all: i64 = rows
            .iter()
            .filter(|r| {
                r["observer"].as_i64() == Some(o) && r["turn"] == "all" && r["estimator"] == "none"
            })
            .map(|r| r["moments"].as_i64().unwrap())
            .sum();
        assert_eq!(all, per_observer[o as usize - 1]);
    }
}

/// A user's table at every moment (`danger-eval --by-turn --table`), from the
/// `danger_moments` frame: a table giving every genbutsu category 0 and every other category
/// 1 gives each kind exactly `none`'s weight (0 for genbutsu, 1 otherwise), so its row equals
/// `none`'s at every (observer, turn). The frame holds each scored moment once: as many rows
/// as `danger_by_turn` counts moments of one estimator.
#[test]
fn a_user_table_at_every_moment() {
    let out = ingested(&[fixtures()]);
    let moments = frame(out.path(), "danger_moments").height() as i64;
    let counted: i64 = sums(out.path())
        .iter()
        .filter(|(k, _)| k.3 == "none")
        .map(|(_, v)| v.0)
        .sum();
    assert_eq!(moments, counted);
    let csv = out.path().join("table.csv");
    let mut text = String::from("category,weight\n");
    for c in [
        "honor-0",
        "honor-1",
        "honor-2",
        "honor-3",
        "honor-4",
        "honor-genbutsu",
        "19-musuji",
        "19-suji",
        "19-genbutsu",
        "28-musuji",
        "28-suji",
        "28-genbutsu",
        "37-musuji",
        "37-suji",
        "37-genbutsu",
        "456-musuji",
        "456-katasuji",
        "456-nakasuji",
        "456-genbutsu",
    ] {
        let w = if c.ends_with("genbutsu") { 0 } else { 1 };
        text.push_str(&format!("{c},{w}\n"));
    }
    std::fs::write(&csv, text).unwrap();
    let dir = out.path().to_str().unwrap();
    let table = ok(&haifu(&[
        "danger-eval",
        "--frames",
        dir,
        "--by-turn",
        "--table",
        csv.to_str().unwrap(),
        "--estimators",
        "none,table",
    ]));
    // (observer, turn) → (estimator → the row's numbers, stars dropped).
    let mut rows: BTreeMap<(String, String), BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for line in table.lines().skip(2) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let nums = f[3..]
            .iter()
            .map(|x| x.trim_end_matches('*').to_string())
            .collect();
        rows.entry((f[0].into(), f[1].into()))
            .or_default()
            .insert(f[2].into(), nums);
    }
    assert!(rows.len() > 20, "{table}");
    for (key, by) in &rows {
        assert_eq!(by.len(), 2, "{key:?}: {table}");
        assert_eq!(by["none"], by["table"], "{key:?}");
    }
    // Without --by-turn the table is scored at §4's two moments, as before.
    let o = haifu(&[
        "danger-eval",
        "--frames",
        dir,
        "--table",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success());
}
