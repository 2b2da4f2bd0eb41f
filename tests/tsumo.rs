//! §8 tenpai draws and the tsumo-rate models (docs/definitions.md §8) on the fixtures, against
//! tools/fixtures/EXPECTED_V2.md §4 (worked by hand): every tenpai draw of f007 and f006 (a
//! draw before and after riichi, a karaten wait, a wait with a red-five type, a rinshan draw),
//! the totals of every fixture game, the hand-made parameter file of §4.4 over all of f007,
//! each refusal; then the report against an independent computation from the frames, on the
//! fixtures and on the Phoenix corpus.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{fixtures, frame, haifu, ok};
use polars::prelude::*;

fn ingest(inputs: &[PathBuf]) -> tempfile::TempDir {
    common::ingest_cli(inputs, &[])
}

fn f007() -> PathBuf {
    fixtures().join("2021031520gm-00a9-0000-0000f007.xml")
}

fn f006() -> PathBuf {
    fixtures().join("2019061512gm-00a9-0000-0000f006.xml")
}

/// One `tenpai_draws` row as the tests compare it.
#[derive(Debug, PartialEq)]
struct Row {
    hand: i32,
    seat: i32,
    turn: i32,
    in_riichi: bool,
    draws_since_riichi: Option<i32>,
    waits: String,
    wait_types: String,
    outs: i32,
    unseen: i32,
    drawn: String,
    hit: bool,
    rinshan: bool,
}

fn rows(dir: &Path, game: &str) -> Vec<Row> {
    let df = frame(dir, "tenpai_draws")
        .lazy()
        .filter(col("game_id").eq(lit(game)))
        .collect()
        .unwrap();
    let int = |c: &str| df.column(c).unwrap().i32().unwrap().clone();
    let boolean = |c: &str| df.column(c).unwrap().bool().unwrap().clone();
    let text = |c: &str| df.column(c).unwrap().str().unwrap().clone();
    let (hand, seat, turn, dsr, outs, unseen) = (
        int("hand"),
        int("seat"),
        int("turn"),
        int("draws_since_riichi"),
        int("outs"),
        int("unseen"),
    );
    let (riichi, hit, rinshan) = (boolean("in_riichi"), boolean("hit"), boolean("rinshan"));
    let (waits, wait_types, drawn) = (text("waits"), text("wait_types"), text("drawn"));
    (0..df.height())
        .map(|i| Row {
            hand: hand.get(i).unwrap(),
            seat: seat.get(i).unwrap(),
            turn: turn.get(i).unwrap(),
            in_riichi: riichi.get(i).unwrap(),
            draws_since_riichi: dsr.get(i),
            waits: waits.get(i).unwrap().to_string(),
            wait_types: wait_types.get(i).unwrap().to_string(),
            outs: outs.get(i).unwrap(),
            unseen: unseen.get(i).unwrap(),
            drawn: drawn.get(i).unwrap().to_string(),
            hit: hit.get(i).unwrap(),
            rinshan: rinshan.get(i).unwrap(),
        })
        .collect()
}

/// The 34-digit `waits` string of some kinds.
fn waits(kinds: &[&str]) -> String {
    (0..34)
        .map(|k| {
            let name = haifu::tile::kind_name(k);
            if kinds.contains(&name) {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn row(
    seat: i32,
    turn: i32,
    dsr: Option<i32>,
    kinds: &[&str],
    wait_types: &str,
    outs: i32,
    unseen: i32,
    drawn: &str,
    hit: bool,
    rinshan: bool,
) -> Row {
    Row {
        hand: 0,
        seat,
        turn,
        in_riichi: dsr.is_some(),
        draws_since_riichi: dsr,
        waits: waits(kinds),
        wait_types: wait_types.to_string(),
        outs,
        unseen,
        drawn: drawn.to_string(),
        hit,
        rinshan,
    }
}

/// EXPECTED_V2.md §4.1, every tenpai draw of f007 (hand 1): seat 1's 2p-5p before its riichi
/// (draw 6) and after it (1, 2, 3 draws since), with the red 0p as a type of its own and the
/// hit on the red five; seat 3's 3m-6m around its ankan, the rinshan draw 9 included (the
/// kan's four 5z and its new indicator 2p visible, U 136 − 10 − 13); seat 2's karaten tanki
/// on 3z (three copies visible, the fourth its own: outs 0).
#[test]
fn f007_tenpai_draws_by_hand() {
    let out = ingest(&[f007()]);
    let s1_before = "2p:0:0 5p:0:1 0p:0:0";
    let s1_after = "2p:0:1 5p:0:1 0p:0:0";
    let s3 = "3m:0:1 6m:0:0";
    let want = vec![
        row(
            1,
            2,
            None,
            &["2p", "5p"],
            s1_before,
            7,
            117,
            "3z",
            false,
            false,
        ),
        row(3, 2, None, &["3m", "6m"], s3, 7, 115, "5z", false, false),
        row(3, 2, None, &["3m", "6m"], s3, 7, 113, "2z", false, true),
        row(
            1,
            3,
            Some(1),
            &["2p", "5p"],
            s1_after,
            6,
            108,
            "7p",
            false,
            false,
        ),
        row(2, 3, None, &["3z"], "3z:1:3", 0, 107, "4z", false, false),
        row(3, 3, None, &["3m", "6m"], s3, 7, 109, "2m", false, false),
        row(
            1,
            4,
            Some(2),
            &["2p", "5p"],
            s1_after,
            6,
            104,
            "4p",
            false,
            false,
        ),
        row(2, 4, None, &["3z"], "3z:1:3", 0, 103, "2s", false, false),
        row(3, 4, None, &["3m", "6m"], s3, 7, 105, "1s", false, false),
        row(
            1,
            5,
            Some(3),
            &["2p", "5p"],
            s1_after,
            6,
            100,
            "5p",
            true,
            false,
        ),
    ];
    assert_eq!(rows(out.path(), "2021031520gm-00a9-0000-0000f007"), want);
}

/// EXPECTED_V2.md §4.2, every tenpai draw of f006 (hand 1): seat 3 in riichi on 2s-5s (holding
/// two 2s), seat 0's tanki 8m after its pon (10 concealed tiles: U = 136 − 10 − visible).
#[test]
fn f006_tenpai_draws_by_hand() {
    let out = ingest(&[f006()]);
    let s3 = "2s:2:0 5s:0:0 0s:0:0";
    let want = vec![
        row(3, 3, Some(1), &["2s", "5s"], s3, 6, 105, "2m", false, false),
        row(3, 4, Some(2), &["2s", "5s"], s3, 6, 99, "3z", false, false),
        row(0, 5, None, &["8m"], "8m:1:0", 3, 101, "3z", false, false),
        row(3, 5, Some(3), &["2s", "5s"], s3, 6, 95, "5s", true, false),
    ];
    assert_eq!(rows(out.path(), "2019061512gm-00a9-0000-0000f006"), want);
}

/// The terms of a row's `wait_types`: type name, held, visible and u = copies − held −
/// visible (at least 0; a black five has 3 copies when its red type is listed, the red 1).
fn terms(wait_types: &str) -> Vec<(String, i32, i32, i32)> {
    let items: Vec<Vec<&str>> = wait_types
        .split(' ')
        .map(|i| i.split(':').collect())
        .collect();
    let names: Vec<&str> = items.iter().map(|i| i[0]).collect();
    items
        .iter()
        .map(|i| {
            let (t, h, v): (&str, i32, i32) = (i[0], i[1].parse().unwrap(), i[2].parse().unwrap());
            let red = format!("0{}", &t[1..]);
            let copies = if t.starts_with('0') {
                1
            } else if t.starts_with('5') && names.contains(&red.as_str()) {
                3
            } else {
                4
            };
            (t.to_string(), h, v, (copies - h - v).max(0))
        })
        .collect()
}

/// Σ u(t)/U over a row's wait types.
fn uniform_p(wait_types: &str, unseen: i32) -> f64 {
    terms(wait_types)
        .iter()
        .map(|t| f64::from(t.3) / f64::from(unseen))
        .sum()
}

/// EXPECTED_V2.md §4.3 (and §4.1, §4.2): per game, tenpai draws, those in riichi, hits, Σ outs
/// and Σ uniform p; and every tenpai draw's fold is its game's (§1: f005 and misc/local-game in
/// fold 1, the others in fold 0).
#[test]
fn every_fixture_game_totals() {
    let out = ingest(&[fixtures()]);
    let df = frame(out.path(), "tenpai_draws");
    let ids = df.column("game_id").unwrap().str().unwrap().clone();
    let riichi = df.column("in_riichi").unwrap().bool().unwrap().clone();
    let hit = df.column("hit").unwrap().bool().unwrap().clone();
    let outs = df.column("outs").unwrap().i32().unwrap().clone();
    let unseen = df.column("unseen").unwrap().i32().unwrap().clone();
    let folds = df.column("fold").unwrap().i32().unwrap().clone();
    let types = df.column("wait_types").unwrap().str().unwrap().clone();
    let mut got: HashMap<String, (usize, usize, usize, i32, f64, i32)> = HashMap::new();
    for i in 0..df.height() {
        let e = got.entry(ids.get(i).unwrap().to_string()).or_insert((
            0,
            0,
            0,
            0,
            0.0,
            folds.get(i).unwrap(),
        ));
        e.0 += 1;
        e.1 += usize::from(riichi.get(i).unwrap());
        e.2 += usize::from(hit.get(i).unwrap());
        e.3 += outs.get(i).unwrap();
        e.4 += uniform_p(types.get(i).unwrap(), unseen.get(i).unwrap());
        assert_eq!(folds.get(i).unwrap(), e.5, "one fold per game");
    }
    let want = [
        (
            "2099010100gm-00a9-0000-0000f001",
            45,
            19,
            1,
            339,
            3.936315,
            0,
        ),
        (
            "2099010200gm-00a9-0000-0000f002",
            43,
            17,
            0,
            257,
            2.892299,
            0,
        ),
        (
            "2099010300gm-00a9-0000-0000f003",
            13,
            3,
            1,
            105,
            0.899574,
            0,
        ),
        ("2099010400gm-00e1-0000-0000f004", 11, 3, 2, 67, 0.584459, 0),
        ("2099010500gm-00ab-0000-0000f005", 10, 4, 1, 69, 0.593706, 1),
        ("2019061512gm-00a9-0000-0000f006", 4, 3, 1, 21, 0.210610, 0),
        ("2021031520gm-00a9-0000-0000f007", 10, 3, 1, 53, 0.486780, 0),
        (
            "2020010100gm-00a9-10011-0000f008",
            47,
            35,
            0,
            275,
            2.979161,
            0,
        ),
        // f009: tools/fixtures/expected_v2.py (hands 12 + 52 + 35 + 10 tenpai draws).
        (
            "2022010100gm-00a9-0000-0000f009",
            109,
            28,
            1,
            760,
            8.177339,
            0,
        ),
        // f010: tools/fixtures/expected_v2.py --draws f010 (EXPECTED_V4.md §9): hand 0 the
        // dealer's 3 draws on 4s-7s (7 outs each; the last, 7s, a hit), hand 1 seat 1 (6p/8p, 4
        // outs) and seat 2 (5m-8m, 7 outs), hand 2 seat 0 (3s, 1), seat 2 (5s, 4), seat 3
        // (9s, 3). Byte sum 1717 → fold 1.
        ("2023010100gm-00a9-0000-0000f010", 8, 2, 1, 40, 0.344231, 1),
    ];
    for (id, units, in_riichi, hits, sum_outs, sum_p, fold) in want {
        let g = got
            .remove(id)
            .unwrap_or_else(|| panic!("{id}: no tenpai draws"));
        assert_eq!(
            (g.0, g.1, g.2, g.3, g.5),
            (units, in_riichi, hits, sum_outs, fold),
            "{id}"
        );
        assert!(
            (g.4 - sum_p).abs() < 5e-7,
            "{id}: Σ uniform p {} != {sum_p}",
            g.4
        );
    }
    // misc/local-game has no draws at all; f002's second file is a duplicate (one game).
    assert!(got.is_empty(), "{got:?}");
}

/// The report's rows of one section and value, by model.
fn report_rows(
    json: &serde_json::Value,
    section: &str,
    value: &str,
) -> HashMap<String, serde_json::Value> {
    json["rows"]
        .as_array()
        .or_else(|| json.as_array())
        .expect("rows")
        .iter()
        .filter(|r| r["section"] == section && r["value"] == value)
        .map(|r| (r["model"].as_str().unwrap().to_string(), r.clone()))
        .collect()
}

fn validate(dir: &Path, params: Option<&Path>) -> serde_json::Value {
    let mut args = vec![
        "params",
        "validate",
        "--frames",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ];
    if let Some(p) = params {
        args.extend(["--params", p.to_str().unwrap()]);
    }
    let text = ok(&haifu(&args));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// log-loss and Brier of a list of (p, hit), p capped to [1e-9, 1 − 1e-9] for the logarithm.
fn log_loss_brier(draws: &[(f64, bool)]) -> (f64, f64) {
    let n = draws.len() as f64;
    let ll = draws
        .iter()
        .map(|&(p, hit)| {
            let q = p.clamp(1e-9, 1.0 - 1e-9);
            -if hit { q.ln() } else { (1.0 - q).ln() }
        })
        .sum::<f64>()
        / n;
    let brier = draws
        .iter()
        .map(|&(p, hit)| (p - f64::from(u8::from(hit))).powi(2))
        .sum::<f64>()
        / n;
    (ll, brier)
}

fn assert_model(
    row: &serde_json::Value,
    units: i64,
    hits: i64,
    draws: &[(f64, bool)],
    fallbacks: i64,
) {
    let sum: f64 = draws.iter().map(|d| d.0).sum();
    let (ll, brier) = log_loss_brier(draws);
    let f = |k: &str| row[k].as_f64().unwrap();
    assert_eq!(row["units"].as_i64(), Some(units), "{row}");
    assert_eq!(row["hits"].as_i64(), Some(hits), "{row}");
    assert_eq!(row["fallbacks"].as_i64(), Some(fallbacks), "{row}");
    assert!((f("expected") - sum).abs() < 1e-9, "{row}: Σp {sum}");
    assert!((f("log_loss") - ll).abs() < 1e-9, "{row}: log-loss {ll}");
    assert!((f("brier") - brier).abs() < 1e-12, "{row}: Brier {brier}");
    assert!((f("obs_exp") - hits as f64 / sum).abs() < 1e-9, "{row}");
}

/// The hand-made parameter file of EXPECTED_V2.md §4.4 scored over all ten tenpai draws of
/// f007, each p worked by hand from §4.1's types, turns and U:
///
/// | draw | turn | hv | thv (fallbacks) |
/// |---|---|---|---|
/// | 6 | 2 | .012 + .01 + .01 = .032 | .0125 + .01 (pooled) + .025 = .0475 (1) |
/// | 8, 9 | 2 | .01 + .015 = .025 | .01 (pooled) + .0125 = .0225 (1 each) |
/// | 11 | 3 | 3/108 (no (28,0,1): uniform) + .01 + .01 (1) | no turn-3 bucket: the same (3) |
/// | 12, 16 | 3, 4 | (honor,1,3) absent: uniform term 0 (1 each) | 0 (1 each) |
/// | 13, 17 | 3, 4 | .01 + .015 = .025 | pooled: .025 (2 each) |
/// | 15 | 4 | 3/104 + .01 + .01 (1) | the same (3) |
/// | 19 (hit) | 5 | 3/100 + .01 + .01 = .05 (1) | 3/100 + .02 + .01 (pooled) = .06 (2) |
///
/// hv: Σ = .222 + 3/108 + 3/104, 5 fallbacks; thv: Σ = .2425 + 3/108 + 3/104, 17. And with
/// every f007 game in fold 0 and no game in fold 1, the cross-fitted models have no rate at
/// all: every one of the 22 terms falls back to uniform's, and they equal `uniform`.
#[test]
fn tiny_parameter_file_over_f007() {
    let out = ingest(&[f007()]);
    let tiny = out.path().join("tiny.json");
    std::fs::write(
        &tiny,
        include_str!("../tools/fixtures/tiny_tsumo_rate.json"),
    )
    .unwrap();
    let report = validate(out.path(), Some(&tiny));
    let models = report_rows(&report, "models", "all");
    let hv = [
        (0.032, false),
        (0.025, false),
        (0.025, false),
        (0.02 + 3.0 / 108.0, false),
        (0.0, false),
        (0.025, false),
        (0.02 + 3.0 / 104.0, false),
        (0.0, false),
        (0.025, false),
        (0.05, true),
    ];
    let thv = [
        (0.0475, false),
        (0.0225, false),
        (0.0225, false),
        (0.02 + 3.0 / 108.0, false),
        (0.0, false),
        (0.025, false),
        (0.02 + 3.0 / 104.0, false),
        (0.0, false),
        (0.025, false),
        (0.06, true),
    ];
    assert_model(&models["file-hv"], 10, 1, &hv, 5);
    assert_model(&models["file-thv"], 10, 1, &thv, 17);
    let uniform = [
        (7.0 / 117.0, false),
        (7.0 / 115.0, false),
        (7.0 / 113.0, false),
        (6.0 / 108.0, false),
        (0.0, false),
        (7.0 / 109.0, false),
        (6.0 / 104.0, false),
        (0.0, false),
        (7.0 / 105.0, false),
        (6.0 / 100.0, true),
    ];
    assert_model(&models["uniform"], 10, 1, &uniform, 0);
    assert_model(&models["params-hv"], 10, 1, &uniform, 22);
    assert_model(&models["params-thv"], 10, 1, &uniform, 22);
    // The hazard table of the riichi hand: draws 1, 2, 3 after the declaration, one unit
    // each, the hit on the third; file-thv's p of draws 11, 15, 19.
    for (value, p, hits) in [
        ("1", 0.02 + 3.0 / 108.0, 0),
        ("2", 0.02 + 3.0 / 104.0, 0),
        ("3", 0.06, 1),
    ] {
        let r = &report_rows(&report, "hazard", value)["file-thv"];
        assert_eq!(
            (r["units"].as_i64(), r["hits"].as_i64()),
            (Some(1), Some(hits)),
            "{r}"
        );
        assert!((r["mean_p"].as_f64().unwrap() - p).abs() < 1e-12, "{r}");
    }
    let r = &report_rows(&report, "hazard", "4")["uniform"];
    assert_eq!(r["units"].as_i64(), Some(0));
    // By outs: karaten draws 12 and 16 in "0", draws 11, 15, 19 in "5-6", the rest in "7-8".
    for (value, units) in [("0", 2), ("1-2", 0), ("5-6", 3), ("7-8", 5), ("9+", 0)] {
        assert_eq!(
            report_rows(&report, "outs", value)["uniform"]["units"].as_i64(),
            Some(units)
        );
    }
}

/// A parameter file this haifu cannot read is refused, naming the field, with exit 1 and no
/// report; so is a slice (the fitted models read the pooled draw_rate frame).
#[test]
fn refusals() {
    let out = ingest(&[f007()]);
    let dir = out.path().to_str().unwrap();
    let tiny = include_str!("../tools/fixtures/tiny_tsumo_rate.json");
    for (from, to, says) in [
        (
            "\"format\": \"haifu.tsumo-rate\"",
            "\"format\": \"other\"",
            "field `format` is \"other\"",
        ),
        (
            "\"format_version\": 1",
            "\"format_version\": 7",
            "field `format_version` is 7, expected 1",
        ),
        (
            "\"definitions_version\": \"2\"",
            "\"definitions_version\": \"9\"",
            "field `definitions_version` is \"9\"",
        ),
    ] {
        let path = out.path().join("bad.json");
        std::fs::write(&path, tiny.replace(from, to)).unwrap();
        let o = haifu(&[
            "params",
            "validate",
            "--frames",
            dir,
            "--params",
            path.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(says) && err.contains("bad.json"), "{err}");
        assert!(o.stdout.is_empty());
    }
    let o = haifu(&["params", "validate", "--frames", dir, "--where", "fold = 0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("draw_rate"));
    // Frames of an older ingest (no tenpai_draws) are refused with what to do.
    std::fs::remove_file(out.path().join("tenpai_draws.parquet")).unwrap();
    let o = haifu(&["params", "validate", "--frames", dir]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("tenpai_draws.parquet"));
}

/// The §3 class of a type name.
fn class(t: &str) -> &'static str {
    let (n, suit) = (t.as_bytes()[0], t.as_bytes()[1]);
    match (n, suit) {
        (_, b'z') => "honor",
        (b'0', _) => "red5",
        (b'1' | b'9', _) => "terminal",
        (b'2' | b'8', _) => "28",
        _ => "3to7",
    }
}

/// (units, hits) of a bucket.
type Counts = (i64, i64);
/// Each draw's (p, hit), and the fallbacks.
type Scored = (Vec<(f64, bool)>, i64);

/// Recomputes the three cross-fitted models' Σp, log-loss, Brier and fallbacks over every
/// tenpai draw, with rates fitted per fold from the `draw_rate` frame, overall and in riichi,
/// and compares them with `haifu params validate`.
fn check_against_frames(dir: &Path) {
    let rates = frame(dir, "draw_rate");
    // (units, hits) per (fold, class, held, visible) and per (fold, class, turn, held, visible).
    let mut hv: HashMap<(i32, String, i32, i32), Counts> = HashMap::new();
    let mut thv: HashMap<(i32, String, i32, i32, i32), Counts> = HashMap::new();
    {
        let c = |n: &str| rates.column(n).unwrap().clone();
        let (class_col, fold, h, v, turn) = (
            c("tile_class"),
            c("fold"),
            c("held"),
            c("visible"),
            c("turn"),
        );
        let (units, hits) = (c("units"), c("hits"));
        for i in 0..rates.height() {
            let int = |s: &Column| s.get(i).unwrap().extract::<i64>().unwrap();
            let cl = class_col.str().unwrap().get(i).unwrap().to_string();
            let key = (
                int(&fold) as i32,
                cl.clone(),
                int(&h) as i32,
                int(&v) as i32,
            );
            let e = hv.entry(key).or_default();
            e.0 += int(&units);
            e.1 += int(&hits);
            let key = (
                int(&fold) as i32,
                cl,
                int(&turn) as i32,
                int(&h) as i32,
                int(&v) as i32,
            );
            let e = thv.entry(key).or_default();
            e.0 += int(&units);
            e.1 += int(&hits);
        }
    }
    let rate = |u: &(i64, i64)| (u.0 > 0).then(|| u.1 as f64 / u.0 as f64);
    let draws = frame(dir, "tenpai_draws");
    let col = |n: &str| draws.column(n).unwrap().clone();
    let (fold, turn, unseen, types) = (col("fold"), col("turn"), col("unseen"), col("wait_types"));
    let (hit, riichi) = (col("hit"), col("in_riichi"));
    // Per model (uniform, params-hv, params-thv) and split (all, in riichi): (p, hit) and
    // fallbacks.
    let mut got: [[Scored; 2]; 3] = Default::default();
    for i in 0..draws.height() {
        let f = fold.i32().unwrap().get(i).unwrap();
        let tu = turn.i32().unwrap().get(i).unwrap();
        let u_all = f64::from(unseen.i32().unwrap().get(i).unwrap());
        let text = types.str().unwrap().get(i).unwrap();
        let is_hit = hit.bool().unwrap().get(i).unwrap();
        let in_riichi = riichi.bool().unwrap().get(i).unwrap();
        let other = 1 - f;
        let (mut p, mut fell) = ([0.0; 3], [0i64; 3]);
        p[0] = uniform_p(text, unseen.i32().unwrap().get(i).unwrap());
        for (t, h, v, u) in terms(text) {
            let uniform_term = f64::from(u) / u_all;
            let cl = class(&t).to_string();
            let pooled = hv.get(&(other, cl.clone(), h, v)).and_then(rate);
            match pooled {
                Some(r) => p[1] += r,
                None => {
                    p[1] += uniform_term;
                    fell[1] += 1;
                }
            }
            match thv.get(&(other, cl, tu, h, v)).and_then(rate) {
                Some(r) => p[2] += r,
                None => {
                    p[2] += pooled.unwrap_or(uniform_term);
                    fell[2] += 1;
                }
            }
        }
        for m in 0..3 {
            for split in [0, 1] {
                if split == 1 && !in_riichi {
                    continue;
                }
                got[m][split].0.push((p[m], is_hit));
                got[m][split].1 += fell[m];
            }
        }
    }
    let report = validate(dir, None);
    for (split, (section, value)) in [("models", "all"), ("in_riichi", "true")]
        .iter()
        .enumerate()
    {
        let rows = report_rows(&report, section, value);
        for (m, name) in ["uniform", "params-hv", "params-thv"].iter().enumerate() {
            let (draws, fallbacks) = &got[m][split];
            let hits = draws.iter().filter(|d| d.1).count() as i64;
            assert_model(&rows[*name], draws.len() as i64, hits, draws, *fallbacks);
        }
    }
}

/// Every fixture: the cross-fit (f005 and f010 are the fold-1 games with draws, so they alone
/// fit the others' rates, and the others fit theirs) against the independent computation.
#[test]
fn cross_fitted_models_match_an_independent_computation_on_the_fixtures() {
    let out = ingest(&[fixtures()]);
    check_against_frames(out.path());
}

/// Phoenix games: the same independent computation; every row's hit is its drawn kind among
/// its waits and its outs are Σ u over its wait types; and every tenpai draw in riichi waits on
/// exactly the kinds §2 recorded for that declaration (`wait_danger.is_wait`).
#[test]
fn phoenix_tenpai_draws_against_the_frames() {
    let Some(out) = common::ingested_phoenix_games(300) else {
        return;
    };
    check_against_frames(out.path());
    let draws = frame(out.path(), "tenpai_draws");
    assert!(draws.height() > 10_000, "{}", draws.height());
    let waits = frame(out.path(), "wait_danger")
        .lazy()
        .filter(col("is_wait"))
        .group_by([col("game_id"), col("hand"), col("riichi_seat")])
        .agg([col("kind")])
        .collect()
        .unwrap();
    let mut by_riichi: HashMap<(String, i32, i32), Vec<String>> = HashMap::new();
    for i in 0..waits.height() {
        let id = waits
            .column("game_id")
            .unwrap()
            .str()
            .unwrap()
            .get(i)
            .unwrap()
            .to_string();
        let hand = waits.column("hand").unwrap().i32().unwrap().get(i).unwrap();
        let seat = waits
            .column("riichi_seat")
            .unwrap()
            .i32()
            .unwrap()
            .get(i)
            .unwrap();
        let kinds = waits
            .column("kind")
            .unwrap()
            .list()
            .unwrap()
            .get_as_series(i)
            .unwrap();
        let mut kinds: Vec<String> = kinds
            .str()
            .unwrap()
            .iter()
            .flatten()
            .map(String::from)
            .collect();
        kinds.sort();
        by_riichi.insert((id, hand, seat), kinds);
    }
    let (mut checked, mut hits) = (0, 0);
    let text = |n: &str| -> Vec<String> {
        let c = draws.column(n).unwrap().str().unwrap().clone();
        c.iter().map(|v| v.unwrap().to_string()).collect()
    };
    let int =
        |n: &str| -> Vec<Option<i32>> { draws.column(n).unwrap().i32().unwrap().iter().collect() };
    let boolean = |n: &str| -> Vec<bool> {
        let c = draws.column(n).unwrap().bool().unwrap().clone();
        c.iter().map(|v| v.unwrap()).collect()
    };
    let (ids, w_col, drawn_col, types_col) = (
        text("game_id"),
        text("waits"),
        text("drawn"),
        text("wait_types"),
    );
    let (hand_col, seat_col, outs_col, unseen_col, dsr_col) = (
        int("hand"),
        int("seat"),
        int("outs"),
        int("unseen"),
        int("draws_since_riichi"),
    );
    let (hit_col, riichi_col) = (boolean("hit"), boolean("in_riichi"));
    for i in 0..draws.height() {
        let mut kinds: Vec<String> = (0..34)
            .filter(|&k| w_col[i].as_bytes()[k] == b'1')
            .map(|k| haifu::tile::kind_name(k).to_string())
            .collect();
        kinds.sort();
        assert_eq!(hit_col[i], kinds.contains(&drawn_col[i]), "row {i}");
        hits += usize::from(hit_col[i]);
        let (outs, unseen) = (outs_col[i].unwrap(), unseen_col[i].unwrap());
        assert!(
            (uniform_p(&types_col[i], unseen) - f64::from(outs) / f64::from(unseen)).abs() < 1e-12,
            "row {i}"
        );
        if !riichi_col[i] {
            assert_eq!(dsr_col[i], None, "row {i}");
            continue;
        }
        assert!(dsr_col[i].unwrap() >= 1, "row {i}");
        let key = (ids[i].clone(), hand_col[i].unwrap(), seat_col[i].unwrap());
        if let Some(want) = by_riichi.get(&key) {
            assert_eq!(&kinds, want, "{key:?}");
            checked += 1;
        }
    }
    assert!(
        checked > 1000 && hits > 100,
        "{checked} riichi draws checked, {hits} hits"
    );
}

/// `haifu params tsumo-rate --fold N` fits on one fold's games and says so: on f005 (fold 1)
/// and f007 (fold 0) together, the fold-1 file describes f005 alone, the fold-0 file f007
/// alone, and bucket by bucket their units and hits add up to the file of every game (`fold`
/// "all").
#[test]
fn parameter_files_per_fold() {
    let f005 = fixtures().join("2099010500gm-00ab-0000-0000f005.xml");
    let out = ingest(&[f005, f007()]);
    let dir = out.path().to_str().unwrap();
    let file = |fold: Option<&str>| -> serde_json::Value {
        let path = out.path().join(format!("p{}.json", fold.unwrap_or("all")));
        let mut args = vec![
            "params",
            "tsumo-rate",
            "--frames",
            dir,
            "--out",
            path.to_str().unwrap(),
        ];
        if let Some(f) = fold {
            args.extend(["--fold", f]);
        }
        ok(&haifu(&args));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let (all, zero, one) = (file(None), file(Some("0")), file(Some("1")));
    assert_eq!(
        (&all["fold"], &zero["fold"], &one["fold"]),
        (&"all".into(), &0.into(), &1.into())
    );
    assert_eq!(one["corpus"]["games"], 1);
    assert_eq!(one["corpus"]["first_date"], "2099-01-05");
    assert_eq!(zero["corpus"]["games"], 1);
    assert_eq!(zero["corpus"]["first_date"], "2021-03-15");
    for section in ["by_held_visible", "by_turn_held_visible"] {
        let mut sums: HashMap<String, [i64; 2]> = HashMap::new();
        let key = |b: &serde_json::Value| {
            format!(
                "{} {} {} {}",
                b["class"], b["turn"], b["held"], b["visible"]
            )
        };
        for f in [&zero, &one] {
            for b in f[section].as_array().unwrap() {
                let e = sums.entry(key(b)).or_default();
                e[0] += b["units"].as_i64().unwrap();
                e[1] += b["hits"].as_i64().unwrap();
            }
        }
        let buckets = all[section].as_array().unwrap();
        assert_eq!(buckets.len(), sums.len(), "{section}");
        for b in buckets {
            let want = [b["units"].as_i64().unwrap(), b["hits"].as_i64().unwrap()];
            assert_eq!(sums[&key(b)], want, "{section} {}", key(b));
        }
    }
    // --fold takes 0 or 1 only.
    let o = haifu(&[
        "params",
        "tsumo-rate",
        "--frames",
        dir,
        "--out",
        "x.json",
        "--fold",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
}
