//! §16 hand reading (`--hand-reading`): one moment worked by hand from a fixture's scripted
//! hands (tools/fixtures/games.py), the moments counted against the draw records and calls of
//! every hand, the `hand-reading` report against the frame's exact sums, `haifu hand-reading`,
//! the per-moment frame and the request objects worked by hand, users' methods through the
//! JSON-lines protocol (the example engine, batching and late engines, every failure), and
//! the Phoenix corpus.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{fixtures, frame, haifu, ingest_cli, ok};
use polars::prelude::*;
use serde_json::Value;

/// (game, seat, turn, method) → (moments, [rmse, cross_entropy] sums).
type Sums = BTreeMap<(String, i64, i64, String), (i64, [f64; 2])>;

fn sums(dir: &Path) -> Sums {
    let df = frame(dir, "hand_reading");
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
    let (game, method) = (text("game_id"), text("method"));
    let (seat, turn, moments) = (int("seat"), int("turn"), int("moments"));
    let parts: Vec<(Int64Chunked, Int64Chunked)> = ["rmse", "cross_entropy"]
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
            seat.get(i).unwrap(),
            turn.get(i).unwrap(),
            method.get(i).unwrap().to_string(),
        );
        out.insert(key, (moments.get(i).unwrap(), [metric(0), metric(1)]));
    }
    out
}

/// Kind counts of a hand written as in the fixture scripts (`357m 357p 357s 7z 234z`).
fn counts(hand: &str) -> [f64; 34] {
    let mut c = [0.0; 34];
    for group in hand.split_whitespace() {
        let (digits, suit) = group.split_at(group.len() - 1);
        let base = match suit {
            "m" => 0,
            "p" => 9,
            "s" => 18,
            _ => 27,
        };
        for d in digits.bytes() {
            c[base + usize::from(d - b'1')] += 1.0;
        }
    }
    c
}

/// f006's second hand alone (East 2, seat 1 the dealer), whose one moment is the dealer's
/// first draw: a West (id 116) to its dealt 357m 357p 357s 7z 234z; then it throws Chun and
/// seat 2's kokushi rons. Dora indicator 8m; no meld, no river.
/// - u(k) = 4 − the indicator − V's copies: 8m 3, 3m/5m/7m, 3p/5p/7p, 3s/5s/7s, South, North,
///   Chun 3, West 2, every other kind 4: Σu = 136 − 1 − 14 = 121.
/// - s(k): seat 0 2468m 2468p 2468s Haku, seat 2 19m 19p 19s 1234566z, seat 3 1368m 1368p
///   1368s Chun: S = 39; per suit 1 to 9: 2 1 1 1 0 2 0 2 1, honours 1 1 1 1 2 2 1.
/// - uniform: g = u / 121; RMSE = √(Σ (s − 39·u/121)² / 34); cross-entropy = −Σ s/39 ·
///   ln(u/121). statistical: g ∝ q·u (honours 0.23, 1/9 0.33, 2/8 0.54, 3/7 0.67, 4/6 0.71,
///   5 0.74). Both computed below from these counts, apart from haifu's code.
#[test]
fn one_moment_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let xml =
        std::fs::read_to_string(fixtures().join("2019061512gm-00a9-0000-0000f006.xml")).unwrap();
    let (head, _) = xml.split_once("<INIT").unwrap();
    let second = &xml[xml.rfind("<INIT").unwrap()..];
    let path = dir.path().join("2019061512gm-00a9-0000-0000f206.xml");
    std::fs::write(&path, format!("{head}{second}")).unwrap();
    let out = ingest_cli(&[path], &["--with=hand-reading-moments"]);
    let s = sums(out.path());
    let game = "2019061512gm-00a9-0000-0000f206".to_string();
    assert_eq!(s.len(), 4, "one moment, four methods: {s:?}");
    // The moment's view: the dealt fives are black (ids 17, 54, 90, not the red 16, 52, 88),
    // the drawn West (id 116) joins the dealt one; dora indicator 8m; the target 34 digits.
    let m = frame(out.path(), "hand_reading_moments");
    let text = |c: &str| {
        m.column(c)
            .unwrap()
            .str()
            .unwrap()
            .get(0)
            .unwrap()
            .to_string()
    };
    assert_eq!(m.height(), 1);
    assert_eq!(text("tiles"), "3m5m7m3p5p7p3s5s7s2z3z3z4z7z");
    assert_eq!(
        (text("melds"), text("rivers"), text("dora")),
        ("|||".into(), "|||".into(), "8m".into())
    );
    assert_eq!(text("others"), "2111020212111020212111020211111221");
    let mut v = counts("357m 357p 357s 7z 234z");
    v[29] += 1.0; // the drawn West
    let mut u = [0.0; 34];
    for k in 0..34 {
        u[k] = 4.0 - v[k] - if k == 7 { 1.0 } else { 0.0 };
    }
    assert_eq!(u.iter().sum::<f64>(), 121.0);
    let held = [
        counts("2468m 2468p 2468s 5z"),
        counts("19m 19p 19s 1234566z"),
        counts("1368m 1368p 1368s 7z"),
    ];
    let target: Vec<f64> = (0..34).map(|k| held.iter().map(|h| h[k]).sum()).collect();
    assert_eq!(target.iter().sum::<f64>(), 39.0);
    let q = |k: usize| match (k >= 27, k % 9 + 1) {
        (true, _) => 0.23,
        (_, 1 | 9) => 0.33,
        (_, 2 | 8) => 0.54,
        (_, 3 | 7) => 0.67,
        (_, 4 | 6) => 0.71,
        _ => 0.74,
    };
    for (method, w) in [
        ("uniform", u.to_vec()),
        (
            "statistical",
            (0..34).map(|k| q(k) * u[k]).collect::<Vec<f64>>(),
        ),
    ] {
        let total: f64 = w.iter().sum();
        let g: Vec<f64> = w.iter().map(|x| x / total).collect();
        let rmse = ((0..34)
            .map(|k| (target[k] - 39.0 * g[k]).powi(2))
            .sum::<f64>()
            / 34.0)
            .sqrt();
        let ce: f64 = (0..34)
            .filter(|&k| target[k] > 0.0)
            .map(|k| -target[k] / 39.0 * g[k].ln())
            .sum();
        let (n, [r, c]) = s[&(game.clone(), 1, 0, method.to_string())];
        assert_eq!(n, 1);
        assert!((r - rmse).abs() < 1e-9, "{method} rmse {r} vs {rmse}");
        assert!((c - ce).abs() < 1e-9, "{method} ce {c} vs {ce}");
    }
}

/// Over every fixture: each seat's moments are its draw records and its chi, pon and
/// daiminkan (the `hands` frame's draws and the `calls` frame of --with development), the four methods
/// scoring each; the report's rows are the frame's sums (means from the exact parts), its
/// `all` seat and turn rows the sums of the others, the best method of each (seat, turn)
/// marked.
#[test]
fn moments_are_every_draw_and_call_and_the_report_is_the_frames_sums() {
    let out = ingest_cli(
        &[fixtures()],
        &["--with=hand-reading", "--with=development"],
    );
    let s = sums(out.path());
    let mut moments: BTreeMap<String, i64> = BTreeMap::new();
    for ((g, _, _, m), (n, _)) in &s {
        if m == "uniform" {
            *moments.entry(g.clone()).or_default() += n;
        }
    }
    let per_method: BTreeMap<&str, i64> = ["uniform", "combo", "statistical", "statistical-combo"]
        .iter()
        .map(|m| {
            (
                *m,
                s.iter().filter(|(k, _)| k.3 == *m).map(|(_, v)| v.0).sum(),
            )
        })
        .collect();
    assert!(
        per_method.values().all(|&n| n == per_method["uniform"]),
        "{per_method:?}"
    );
    let hands = frame(out.path(), "hands");
    let calls = frame(out.path(), "calls");
    let mut want: BTreeMap<String, i64> = BTreeMap::new();
    let ids = hands.column("game_id").unwrap().str().unwrap().clone();
    let draws = hands
        .column("draws")
        .unwrap()
        .cast(&DataType::Int64)
        .unwrap();
    for (id, d) in ids.iter().zip(draws.i64().unwrap().iter()) {
        *want.entry(id.unwrap().to_string()).or_default() += d.unwrap();
    }
    let ids = calls.column("game_id").unwrap().str().unwrap().clone();
    let kinds = calls.column("kind").unwrap().str().unwrap().clone();
    for (id, k) in ids.iter().zip(kinds.iter()) {
        if matches!(k.unwrap(), "chi" | "pon" | "daiminkan") {
            *want.entry(id.unwrap().to_string()).or_default() += 1;
        }
    }
    want.retain(|_, n| *n > 0);
    assert_eq!(moments, want);

    let rows = common::stats_json(out.path(), "hand-reading", &[]);
    let mut totals: BTreeMap<(String, String, String), (i64, [f64; 2])> = BTreeMap::new();
    for ((_, seat, t, m), (n, x)) in &s {
        let label = if *t >= 19 {
            "19+".to_string()
        } else {
            t.to_string()
        };
        for sv in [seat.to_string(), "all".to_string()] {
            for tv in [label.clone(), "all".to_string()] {
                let e = totals
                    .entry((sv.clone(), tv, m.clone()))
                    .or_insert((0, [0.0; 2]));
                e.0 += n;
                e.1[0] += x[0];
                e.1[1] += x[1];
            }
        }
    }
    assert_eq!(rows.len(), totals.len());
    for r in &rows {
        let key = (
            r["seat"].as_str().unwrap().to_string(),
            r["turn"].as_str().unwrap().to_string(),
            r["method"].as_str().unwrap().to_string(),
        );
        let (n, x) = totals[&key];
        assert_eq!(r["moments"].as_i64(), Some(n), "{r}");
        for (i, name) in ["rmse", "cross_entropy"].iter().enumerate() {
            let got = r[*name].as_f64().unwrap();
            assert!((got - x[i] / n as f64).abs() < 1e-9, "{name} {r}");
            let lowest = rows
                .iter()
                .filter(|o| o["seat"] == r["seat"] && o["turn"] == r["turn"])
                .map(|o| o[*name].as_f64().unwrap())
                .fold(f64::INFINITY, f64::min);
            assert_eq!(
                r[format!("best_{name}")].as_bool(),
                Some(got == lowest),
                "{r}"
            );
        }
    }
    // The command: a starred table, the slice's line under --where; CSV rows.
    let dir = out.path().to_str().unwrap();
    let text = ok(&haifu(&[
        "hand-reading",
        "--frames",
        dir,
        "--where",
        "game_id LIKE '%f006'",
    ]));
    assert!(
        text.lines().next().unwrap().contains("1 games, 2 hands"),
        "{text}"
    );
    assert!(text.contains('*'));
    let csv = ok(&haifu(&[
        "hand-reading",
        "--frames",
        dir,
        "--format",
        "csv",
    ]));
    assert_eq!(csv.lines().count(), rows.len() + 1);
    let plain = ingest_cli(&[fixtures()], &[]);
    let o = haifu(&["hand-reading", "--frames", plain.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--with hand-reading"));
}

/// The Phoenix corpus (first 200 games): every method scores every moment; the metrics are
/// finite and non-negative. (Which method wins is a finding, not an invariant: README.) The
/// per-moment path gives the frame's report byte for byte (the view's unseen counts are the
/// replay's at every moment), and the example engine equals `combo` over several batches
/// (8,192 moments each) when it holds its answers or answers late.
#[test]
fn phoenix_hand_reading() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = ingest_cli(
        &common::first_files(&dir, 200),
        &["--with=hand-reading-moments"],
    );
    let s = sums(out.path());
    let mut per: BTreeMap<String, (i64, f64)> = BTreeMap::new();
    for ((_, _, _, m), (n, x)) in &s {
        assert!(x.iter().all(|v| v.is_finite() && *v >= 0.0));
        let e = per.entry(m.clone()).or_default();
        e.0 += n;
        e.1 += x[1];
    }
    assert_eq!(per.len(), 4);
    let n = per["uniform"].0;
    assert!(n > 50_000, "{n}");
    assert!(per.values().all(|v| v.0 == n));

    let dir = out.path().to_str().unwrap();
    let csv = |extra: &[&str]| {
        let mut args = vec!["hand-reading", "--frames", dir, "--format", "csv"];
        args.extend(extra);
        ok(&haifu(&args))
    };
    assert_eq!(csv(&[]), csv(&["--limit", "100000000"]));
    // A failure in a batch before the last (8,192 moments a batch) names the moment by its
    // own id and game: the first moment answered twice.
    let ones = format!("[{}]", vec!["1"; 34].join(","));
    let twice = format!(
        "read x; echo '{{\"id\": 0, \"weights\": {ones}}}'; echo '{{\"id\": 0, \"weights\": {ones}}}'; sleep 30"
    );
    let first_game = frame(out.path(), "hand_reading_moments")
        .column("game_id")
        .unwrap()
        .str()
        .unwrap()
        .get(0)
        .unwrap()
        .to_string();
    common::engine_fails(
        "hand-reading",
        dir,
        &twice,
        "20",
        &[&format!(
            "answered moment 0 twice (0: game {first_game} hand 0 seat 0 turn 0)"
        )],
    );
    for mode in [" --hold 256", " --lag"] {
        let cmd = format!("{}{mode}", example_engine().display());
        let rows = reading(
            out.path(),
            &[
                "--engine-cmd",
                &cmd,
                "--limit",
                "20000",
                "--engine-timeout",
                "20",
            ],
        );
        let all = |m: &str| {
            rows.iter()
                .find(|r| r["seat"] == "all" && r["turn"] == "all" && r["method"] == m)
                .unwrap()
                .clone()
        };
        let (mine, combo) = (all(&format!("cmd:{cmd}")), all("combo"));
        assert_eq!(mine["moments"].as_i64(), Some(20_000));
        assert_eq!(combo["moments"].as_i64(), Some(20_000));
        for m in ["rmse", "cross_entropy"] {
            let (a, b) = (mine[m].as_f64().unwrap(), combo[m].as_f64().unwrap());
            assert!((a - b).abs() < 1e-12, "{mode} {m}: {a} vs {b}");
        }
    }
}

fn f006() -> PathBuf {
    fixtures().join("2019061512gm-00a9-0000-0000f006.xml")
}

/// The example engine.
fn example_engine() -> PathBuf {
    common::example("hand_reading_engine")
}

/// `haifu hand-reading --frames DIR --format json EXTRA…`'s rows.
fn reading(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec![
        "hand-reading",
        "--frames",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend(extra);
    let text = ok(&haifu(&args));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    match v {
        Value::Array(rows) => rows,
        Value::Object(o) => o["rows"].as_array().unwrap().clone(),
        other => panic!("{other}"),
    }
}

/// The first moment of seat 0 after a call in f006's first hand, worked from the log:
/// - seat 0 is dealt 8m 7s 3s 9p 3p 2p 6z 1z 0m(id 16, red) 1z 8p 7p 3m; draws 4p (T49),
///   throws 6z (D130, not the tile drawn); draws 2s (T79), throws 3m (D8), which seat 1 chis
///   (m=6311: 3m with its 4m 5m) and then throws 9p (E70), which seat 2 chis (7p 8p 9p),
///   throwing Haku (F124);
/// - seat 1 drew 1m, threw North (E120); seat 2 drew 1p and threw it (V39 F39: tsumogiri);
///   seat 3 drew 2s, threw 9m (G34), drew 3s and declared riichi with East (G110), which
///   seat 0 pons (m=41995, from seat 3): the moment, seat 0's turn 2 after a call.
/// - V's tiles: 0m 8m 2p 3p 4p 7p 8p 9p 2s 3s 7s (the two Easts went to the pon); melds:
///   seat 0 pon:1z1z1z:3, seat 1 chi:3m4m5m:0, seat 2 chi:7p8p9p:1; rivers: 6z 3m(called) |
///   4z 9p(called) | 1p(tsumogiri) 5z | 9m 1z(riichi, called); dora indicator 9s (seed 104).
/// - The other seats hold 10 (seat 1: 13 + 1 − 1 − 2 − 1), 10 (seat 2 alike) and 13
///   (seat 3) tiles: Σ others = 33.
#[test]
fn a_moment_row_and_its_request_by_hand() {
    let out = ingest_cli(&[f006()], &["--with=hand-reading-moments"]);
    let df = frame(out.path(), "hand_reading_moments");
    let text = |c: &str, i: usize| {
        df.column(c)
            .unwrap()
            .str()
            .unwrap()
            .get(i)
            .unwrap()
            .to_string()
    };
    let int = |c: &str, i: usize| df.column(c).unwrap().i32().unwrap().get(i).unwrap();
    let i = (0..df.height())
        .find(|&i| text("after", i) == "call" && int("seat", i) == 0)
        .unwrap();
    assert_eq!((int("hand", i), int("seat", i), int("turn", i)), (0, 0, 2));
    assert_eq!(text("tiles", i), "0m8m2p3p4p7p8p9p2s3s7s");
    assert_eq!(text("melds", i), "pon:1z1z1z:3|chi:3m4m5m:0|chi:7p8p9p:1|");
    assert_eq!(text("rivers", i), "6z3mc|4z9pc|1pt5z|9m1zrc");
    assert_eq!(text("dora", i), "9s");
    let others = text("others", i);
    assert_eq!(others.bytes().map(|b| u32::from(b - b'0')).sum::<u32>(), 33);
    // Before it: the draws T49 U2 V39 W76 T79, the two chis (seats 1 and 2), the draw W82:
    // the pon is the frame's 9th row.
    assert_eq!(i, 8);
    let before: Vec<(i32, String)> = (0..i).map(|r| (int("seat", r), text("after", r))).collect();
    let want: Vec<(i32, String)> = [0, 1, 2, 3, 0, 1, 2, 3]
        .into_iter()
        .zip([
            "draw", "draw", "draw", "draw", "draw", "call", "call", "draw",
        ])
        .map(|(s, a)| (s, a.to_string()))
        .collect();
    assert_eq!(before, want);

    // The request the engine is sent for it: id 8, and the row's view as JSON.
    let lines = common::moment_requests(out.path());
    assert_eq!(lines.len(), df.height(), "every moment is sent");
    let r: Value = serde_json::from_str(&lines[8]).unwrap();
    let want: Value = serde_json::from_str(
        r#"{"id":8,"game_id":"2019061512gm-00a9-0000-0000f006","hand":0,"seat":0,
        "round":0,"honba":0,"kyotaku":0,"dealer":0,"scores":[25000,25000,25000,25000],
        "dora_indicators":["9s"],"turn":2,"after":"call",
        "tiles":["0m","8m","2p","3p","4p","7p","8p","9p","2s","3s","7s"],
        "melds":[[{"kind":"pon","tiles":["1z","1z","1z"],"from":3}],
                 [{"kind":"chi","tiles":["3m","4m","5m"],"from":0}],
                 [{"kind":"chi","tiles":["7p","8p","9p"],"from":1}],[]],
        "rivers":[[{"tile":"6z","tsumogiri":false,"riichi":false,"called":false},
                   {"tile":"3m","tsumogiri":false,"riichi":false,"called":true}],
                  [{"tile":"4z","tsumogiri":false,"riichi":false,"called":false},
                   {"tile":"9p","tsumogiri":false,"riichi":false,"called":true}],
                  [{"tile":"1p","tsumogiri":true,"riichi":false,"called":false},
                   {"tile":"5z","tsumogiri":false,"riichi":false,"called":false}],
                  [{"tile":"9m","tsumogiri":false,"riichi":false,"called":false},
                   {"tile":"1z","tsumogiri":false,"riichi":true,"called":true}]]}"#,
    )
    .unwrap();
    assert_eq!(r, want);
}

/// With --limit (no engine), every built-in is scored from the per-moment frame: the report
/// is the one the `hand_reading` frame's sums give, byte for byte (each moment rounded alike),
/// on every fixture, and under --where; --limit N scores the first N moments.
#[test]
fn per_moment_scores_equal_the_frames_sums() {
    let out = ingest_cli(&[fixtures()], &["--with=hand-reading-moments"]);
    let dir = out.path().to_str().unwrap();
    for slice in [&[][..], &["--where", "game_id LIKE '%f006'"][..]] {
        let run = |extra: &[&str]| {
            let mut args = vec!["hand-reading", "--frames", dir, "--format", "csv"];
            args.extend(slice);
            args.extend(extra);
            ok(&haifu(&args))
        };
        assert_eq!(run(&[]), run(&["--limit", "1000000"]), "{slice:?}");
    }
    let rows = reading(out.path(), &["--limit", "25"]);
    for r in rows
        .iter()
        .filter(|r| r["seat"] == "all" && r["turn"] == "all")
    {
        assert_eq!(r["moments"].as_i64(), Some(25), "{r}");
    }
    // The first 25 moments are f006's (the frame is in input order): seats 0..3 alike.
    let df = frame(out.path(), "hand_reading_moments");
    let seats = df.column("seat").unwrap().i32().unwrap().clone();
    for v in 0..4 {
        let n = seats.iter().take(25).filter(|s| *s == Some(v)).count() as i64;
        let r = rows
            .iter()
            .find(|r| {
                r["seat"].as_str() == Some(&*v.to_string())
                    && r["turn"] == "all"
                    && r["method"] == "combo"
            })
            .unwrap();
        assert_eq!(r["moments"].as_i64(), Some(n));
    }
}

/// The example engine computes `combo` from the request objects alone: its rows equal the
/// built-in combo's (moments exactly, means to 1e-12: the one rounds its density's sums
/// apart from the other), answering at once, holding 256 answers or until its input ends,
/// one late, or out of order; its rows come after the built-ins'.
#[test]
fn the_example_engine_equals_combo() {
    let out = ingest_cli(&[fixtures()], &["--with=hand-reading-moments"]);
    for mode in ["", " --hold 256", " --lag", " --hold 256 --reverse"] {
        let cmd = format!("{}{mode}", example_engine().display());
        let rows = reading(
            out.path(),
            &["--engine-cmd", &cmd, "--engine-timeout", "20"],
        );
        let name = format!("cmd:{cmd}");
        let compared = common::assert_equals_combo(&rows, &name, mode);
        assert!(compared > 40, "{compared}");
        let pos = |m: &str| rows.iter().position(|r| r["method"] == m).unwrap();
        assert!(pos("statistical-combo") < pos(&name));
    }
}

/// Every way a user's method can break the protocol ends the run with exit 2, a message
/// naming the engine and the moment, and nothing on standard output.
#[test]
fn protocol_failures() {
    let out = ingest_cli(&[f006()], &["--with=hand-reading-moments"]);
    let dir = out.path().to_str().unwrap();
    let fails = |cmd: &str, timeout: &str, says: &[&str]| {
        common::engine_fails("hand-reading", dir, cmd, timeout, says)
    };
    let ones = format!("[{}]", vec!["1"; 34].join(","));
    let answer = |id: u32, w: &str| format!("echo '{{\"id\": {id}, \"weights\": {w}}}'");
    fails(
        "exit 0",
        "5",
        &[
            "exited",
            "before answering moment 0",
            "game 2019061512gm-00a9-0000-0000f006 hand 0 seat 0 turn 0",
        ],
    );
    fails(
        &format!("read x; {}", answer(0, &ones)),
        "5",
        &["before answering moment 1"],
    );
    fails(
        "read x; echo hello",
        "5",
        &["not an answer (line 1)", "not JSON: hello"],
    );
    fails(
        &format!("read x; {}; sleep 5", answer(0, "[1, 2]")),
        "5",
        &["`weights` has 2 numbers, not 34"],
    );
    let negative = ones.replacen('1', "-1", 1);
    fails(
        &format!("read x; {}; sleep 5", answer(0, &negative)),
        "5",
        &["weight 1 (1m) is not a finite number ≥ 0"],
    );
    let zeros = format!("[{}]", vec!["0"; 34].join(","));
    fails(
        &format!("read x; {}; sleep 5", answer(0, &zeros)),
        "5",
        &["every weight is 0"],
    );
    fails(
        "read x; echo '{\"id\": 0, \"discard\": \"5p\"}'; sleep 5",
        "5",
        &["no array `weights`"],
    );
    fails(
        &format!("read x; {a}; {a}; sleep 5", a = answer(0, &ones)),
        "5",
        &[
            "answered moment 0 twice",
            "(0: game 2019061512gm-00a9-0000-0000f006 hand 0 seat 0 turn 0)",
        ],
    );
    fails(
        &format!("read x; {}; sleep 5", answer(99, &ones)),
        "5",
        &["answered moment 99, which it was not asked"],
    );
    fails(
        &format!("{}; exit 3", example_engine().display()),
        "5",
        &["exited with exit status: 3 after its last answer"],
    );
    fails(
        "sleep 30",
        "0.5",
        &["did not answer moment 0", "within 500ms"],
    );
    // Frames without the per-moment frame: exit 1, naming the flag.
    let plain = ingest_cli(&[f006()], &[]);
    let o = haifu(&[
        "hand-reading",
        "--frames",
        plain.path().to_str().unwrap(),
        "--engine-cmd",
        "cat",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("hand_reading_moments") && err.contains("--with hand-reading-moments"),
        "{err}"
    );
}
