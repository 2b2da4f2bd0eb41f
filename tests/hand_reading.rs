//! §16 hand reading (`--hand-reading`): one moment worked by hand from a fixture's scripted
//! hands (tools/fixtures/games.py), the moments counted against the draw records and calls of
//! every hand, the `hand-reading` report against the frame's exact sums, `haifu hand-reading`,
//! and the Phoenix corpus.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{fixtures, frame, haifu, ingest_cli, ok};
use polars::prelude::*;

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
///   1368s Chun: S = 39.
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
    let out = ingest_cli(&[path], &["--hand-reading"]);
    let s = sums(out.path());
    let game = "2019061512gm-00a9-0000-0000f206".to_string();
    assert_eq!(s.len(), 4, "one moment, four methods: {s:?}");
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
/// daiminkan (the `hands` frame's draws and the `calls` frame of --peer), the four methods
/// scoring each; the report's rows are the frame's sums (means from the exact parts), its
/// `all` seat and turn rows the sums of the others, the best method of each (seat, turn)
/// marked.
#[test]
fn moments_are_every_draw_and_call_and_the_report_is_the_frames_sums() {
    let out = ingest_cli(&[fixtures()], &["--hand-reading", "--peer"]);
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
    assert!(String::from_utf8_lossy(&o.stderr).contains("--hand-reading"));
}

/// The Phoenix corpus (first 200 games): every method scores every moment; the metrics are
/// finite and non-negative. (Which method wins is a finding, not an invariant: README.)
#[test]
fn phoenix_hand_reading() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = ingest_cli(&common::first_files(&dir, 200), &["--hand-reading"]);
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
}
