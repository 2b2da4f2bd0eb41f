//! §23 agreement at every decision (`haifu agree --every-decision`, docs/definitions.md §23):
//! the decisions are the `choices` frame's (one per row, counted per kind; the unobserved ones
//! apart), the player agrees with itself, the example engine (min-shanten from the request
//! object alone) equals the built-in min-shanten in every cell, an answer file stands in for
//! an engine, an illegal answer is counted invalid, a line that is no answer ends the run with
//! exit 2, and --limit and --where restrict the decisions. The built-in engines' answers are
//! worked by hand in src/agree/every_tests.rs; on Phoenix, the corpus test below.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{fixtures, frame, haifu, ok};
use polars::prelude::*;
use serde_json::Value;

fn every(dir: &Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec![
        "agree",
        "--frames",
        dir.to_str().unwrap(),
        "--every-decision",
        "--format",
        "json",
    ];
    args.extend(extra);
    let text = ok(&haifu(&args));
    serde_json::from_str::<Value>(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
        .as_array()
        .unwrap()
        .clone()
}

/// Rows of one engine keyed by (kind, section, value): (decisions, agreement, invalid).
fn cells(rows: &[Value], engine: &str) -> BTreeMap<(String, String, String), (i64, f64, i64)> {
    rows.iter()
        .filter(|r| r["engine"] == engine)
        .map(|r| {
            (
                (
                    r["kind"].as_str().unwrap().to_string(),
                    r["section"].as_str().unwrap().to_string(),
                    r["value"].as_str().unwrap().to_string(),
                ),
                (
                    r["decisions"].as_i64().unwrap(),
                    r["agreement"].as_f64().unwrap_or(-1.0), // null: no decisions
                    r["invalid"].as_i64().unwrap(),
                ),
            )
        })
        .collect()
}

fn fixture_frames() -> tempfile::TempDir {
    common::ingest_cli(&[fixtures()], &["--with=choices"])
}

/// Per kind, the report's scored and unobserved decisions are the `choices` rows of that kind
/// observed and not; `player` agrees on every scored one; every answer of the built-ins is
/// legal (no invalid).
#[test]
fn decisions_are_the_choices_rows() {
    let out = fixture_frames();
    let rows = every(out.path(), &[]);
    let df = frame(out.path(), "choices");
    let kind = df.column("kind").unwrap().str().unwrap().clone();
    let observed = df.column("observed").unwrap().bool().unwrap().clone();
    let mut want: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for i in 0..df.height() {
        let e = want.entry(kind.get(i).unwrap().to_string()).or_default();
        if observed.get(i).unwrap() {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    assert!(want.len() >= 8, "the fixtures hold most kinds: {want:?}");
    let player = cells(&rows, "player");
    for (k, &(scored, unobserved)) in &want {
        let all = (k.clone(), "all".to_string(), "all".to_string());
        if scored > 0 {
            assert_eq!(player[&all].0, scored, "{k}");
            assert_eq!(player[&all].1, 1.0, "{k}");
        }
        let row = rows
            .iter()
            .find(|r| r["kind"] == k.as_str() && r["section"] == "all")
            .unwrap();
        assert_eq!(row["unobserved"].as_i64().unwrap(), unobserved, "{k}");
    }
    assert!(rows.iter().all(|r| r["invalid"] == 0));
    // Each kind's turn groups and riichi-opponent groups split its decisions.
    for (k, &(scored, _)) in &want {
        let sum = |section: &str| -> i64 {
            player
                .iter()
                .filter(|((kk, s, _), _)| kk == k && s == section)
                .map(|(_, v)| v.0)
                .sum()
        };
        assert_eq!(sum("turn"), scored, "{k}");
        assert_eq!(sum("riichi_opponents"), scored, "{k}");
    }
}

/// The example engine, which plays min-shanten from the request object alone, agrees with the
/// built-in min-shanten in every cell: the request carries what an engine needs.
#[test]
fn the_example_engine_equals_min_shanten() {
    let out = fixture_frames();
    let engine = common::example("every_decision_engine");
    let cmd = format!("ex={}", engine.display());
    let rows = every(
        out.path(),
        &["--engine", "min-shanten", "--engine-cmd", &cmd],
    );
    let (ex, min) = (cells(&rows, "ex"), cells(&rows, "min-shanten"));
    assert!(ex.len() > 20);
    assert_eq!(ex, min);
    // The two tie, so both are starred or neither.
    for r in rows.iter().filter(|r| r["engine"] == "ex") {
        let twin = rows
            .iter()
            .find(|m| {
                m["engine"] == "min-shanten"
                    && m["kind"] == r["kind"]
                    && m["section"] == r["section"]
                    && m["value"] == r["value"]
            })
            .unwrap();
        assert_eq!(r["best"], twin["best"]);
    }
}

/// The requests an engine is sent, captured with `tee`, answered in a file with each
/// decision's first legal action: the file scores as the example engine's `--first` does.
/// One answer changed to `ron` where no ron is legal counts as invalid.
#[test]
fn an_answer_file_stands_in_for_an_engine() {
    let out = fixture_frames();
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let engine = common::example("every_decision_engine");
    let cmd = format!(
        "first=tee {} | {} --first",
        requests.display(),
        engine.display()
    );
    let rows = every(out.path(), &["--engine-cmd", &cmd]);
    let text = std::fs::read_to_string(&requests).unwrap();
    let mut csv = String::from("game_id,hand,seat,seq,kind,action\n");
    let mut changed = None;
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let legal: Vec<&str> = r["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let mut action = legal[0].to_string();
        if changed.is_none() && r["kind"] == "pon" && !legal.contains(&"ron") {
            action = "ron".into();
            changed = Some(r["kind"].as_str().unwrap().to_string());
        }
        csv += &format!(
            "{},{},{},{},{},{}\n",
            r["game_id"].as_str().unwrap(),
            r["hand"],
            r["seat"],
            r["seq"],
            r["kind"].as_str().unwrap(),
            action
        );
    }
    let file = dir.path().join("answers.csv");
    std::fs::write(&file, csv).unwrap();
    let from_file = every(out.path(), &["--answers", file.to_str().unwrap()]);
    let name = format!("answers:{}", file.display());
    let (a, b) = (cells(&rows, "first"), cells(&from_file, &name));
    let changed = changed.expect("a pon decision without ron");
    for (key, &(n, agreement, invalid)) in &a {
        let (m, agreement_b, invalid_b) = b[key];
        assert_eq!(n, m, "{key:?}");
        if key.0 == changed {
            // The changed decision is in `all`, one turn group and one opponents group.
            assert!(invalid_b <= 1 && agreement_b <= agreement, "{key:?}");
        } else {
            assert_eq!((agreement, invalid), (agreement_b, invalid_b), "{key:?}");
        }
    }
    let all = (changed, "all".to_string(), "all".to_string());
    assert_eq!(b[&all].2, 1, "one invalid answer");
}

/// An engine whose answer is not an action ends the run: exit 2, no report, the line named.
#[test]
fn an_answer_that_is_no_action_fails_the_run() {
    let out = fixture_frames();
    let o = haifu(&[
        "agree",
        "--frames",
        out.path().to_str().unwrap(),
        "--every-decision",
        "--engine-cmd",
        r#"while read l; do echo '{"id":0,"action":"chii"}'; done"#,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty());
    assert!(err.contains("`chii` is not an action"), "{err}");
    assert!(err.contains("line 1"), "{err}");
    // A built-in name only §7 knows is refused with the names --every-decision knows.
    let o = haifu(&[
        "agree",
        "--frames",
        out.path().to_str().unwrap(),
        "--every-decision",
        "--engine",
        "max-ukeire",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("player, always, never, min-shanten"), "{err}");
}

/// --limit scores the first N observed decisions; --where keeps one game's.
#[test]
fn limit_and_slice() {
    let out = fixture_frames();
    let limited = every(out.path(), &["--engine", "player", "--limit", "25"]);
    let scored: i64 = cells(&limited, "player")
        .iter()
        .filter(|((_, s, _), _)| s == "all")
        .map(|(_, v)| v.0)
        .sum();
    assert_eq!(scored, 25);
    let id = "2099010100gm-00a9-0000-0000f001";
    let one = every(
        out.path(),
        &[
            "--engine",
            "player",
            "--where",
            &format!("game_id = '{id}'"),
        ],
    );
    let df = frame(out.path(), "choices")
        .lazy()
        .filter(col("game_id").eq(lit(id)).and(col("observed")))
        .collect()
        .unwrap();
    let scored: i64 = cells(&one, "player")
        .iter()
        .filter(|((_, s, _), _)| s == "all")
        .map(|(_, v)| v.0)
        .sum();
    assert_eq!(scored, df.height() as i64);
}

/// On Phoenix games (when the corpus is present): every decision of 200 games scored, the
/// built-ins' shares sane (always takes nearly every win; never passes nearly every
/// daiminkan), the player's agreement 1, and no invalid answer.
#[test]
fn phoenix_games() {
    let Some(out) = common::ingested_phoenix_games(200) else {
        eprintln!("skipped: ../shared/corpus/phoenix is absent");
        return;
    };
    let rows = every(out.path(), &[]);
    let get = |engine: &str, kind: &str| {
        cells(&rows, engine)[&(kind.to_string(), "all".into(), "all".into())]
    };
    assert!(get("player", "discard").0 > 50_000);
    assert!(rows.iter().all(|r| r["invalid"] == 0));
    for kind in ["tsumo", "ron"] {
        assert!(get("always", kind).1 > 0.97, "{kind}");
    }
    assert!(get("never", "daiminkan").1 > 0.9);
    for kind in ["discard", "riichi", "pon", "chi"] {
        assert_eq!(get("player", kind).1, 1.0);
    }
}

/// The report splits of f006's decisions, worked by hand in tools/fixtures/EXPECTED_V2.md §3.4:
/// D8, seat 3's declaration at its second draw (`234m 567p 2234678s 1z`, 3s drawn): riichi is
/// legal, discarding 1z leaves `22s` and `34s` waiting on 2s and 5s (ryanmen; 2 + 4 copies
/// unseen, none of them visible yet: 6), discarding 2s a 1z tanki (3): the split is ryanmen, 6,
/// and the hand is tenpai (shanten 0). D9: seat 0's pon of 1z from `058m 234789p 237s 11z`
/// (sets 234p 789p, the partial 23s, the 1z pair, singles 5m 8m 7s: 8 − 4 − 1 − 1 = 2) leaves
/// three sets with the meld and 23s after discarding a single: 8 − 6 − 1 = 1.
#[test]
fn splits_of_f006_by_hand() {
    let out = fixture_frames();
    let df = frame(out.path(), "choices")
        .lazy()
        .filter(col("game_id").str().ends_with(lit("f006")))
        .collect()
        .unwrap();
    let row = |seat: i32, kind: &str| -> (Option<i32>, Option<i32>, Option<String>, Option<i32>) {
        let r = df
            .clone()
            .lazy()
            .filter(
                col("hand")
                    .eq(lit(0))
                    .and(col("seat").eq(lit(seat)))
                    .and(col("kind").eq(lit(kind))),
            )
            .collect()
            .unwrap();
        assert_eq!(r.height(), 1, "{seat} {kind}");
        let int = |c: &str| r.column(c).unwrap().i32().unwrap().get(0);
        let shape = r
            .column("wait_shape")
            .unwrap()
            .str()
            .unwrap()
            .get(0)
            .map(str::to_string);
        (
            int("shanten"),
            int("shanten_after"),
            shape,
            int("wait_count"),
        )
    };
    assert_eq!(
        row(3, "riichi"),
        (Some(0), None, Some("ryanmen".into()), Some(6))
    );
    assert_eq!(row(0, "pon"), (Some(2), Some(1), None, None));
}

/// Three players (§24) on f011 of `fixtures-sanma/` (EXPECTED_V5.md gives its records): its
/// `kita` decisions are seven, every draw of a seat holding a North. Seat 1 kitas three times
/// (hand 0 turn 2, in riichi: only kita or the drawn North's discard is legal; hand 1 turn 2;
/// hand 2 turn 0, where riichi is legal as well) and seat 0 once (hand 1 turn 0); three times
/// seat 0 discards instead (hand 0 turns 1 and 2, hand 2 turn 1). `always` takes the kita
/// where no riichi is legal: it agrees at the three kitas made without a legal riichi, 3/7.
/// The three `ron` decisions are taken, one of them on the dealer's kita North (hand 1, seat
/// 2): always and min-shanten 1, never 0.
///
/// The request of seat 1's kita in hand 0 says `players` 3, no kita yet, the three-player
/// rules, and offers `kita` or the 4z; the ron on the kita North is offered as a kita, with
/// seat 0's and seat 1's Norths in their kita areas.
#[test]
fn three_player_kita_and_ron_on_a_kita() {
    let out = common::ingest_cli(&[common::sanma_fixtures()], &["--with=choices"]);
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let engine = common::example("every_decision_engine");
    let cmd = format!("ex=tee {} | {}", requests.display(), engine.display());
    let f011 = "--where=game_id = '2099011100gm-00b9-0000-0000f011'";
    let rows = every(
        out.path(),
        &[
            f011,
            "--engine-cmd",
            &cmd,
            "--engine",
            "player",
            "--engine",
            "always",
            "--engine",
            "never",
            "--engine",
            "min-shanten",
        ],
    );
    let all = |kind: &str| (kind.to_string(), "all".to_string(), "all".to_string());
    let (player, always, never, min, ex) = (
        cells(&rows, "player"),
        cells(&rows, "always"),
        cells(&rows, "never"),
        cells(&rows, "min-shanten"),
        cells(&rows, "ex"),
    );
    assert_eq!(player[&all("kita")], (7, 1.0, 0));
    assert_eq!(always[&all("kita")].0, 7);
    assert!((always[&all("kita")].1 - 3.0 / 7.0).abs() < 1e-12);
    assert_eq!(player[&all("ron")], (3, 1.0, 0));
    assert_eq!(always[&all("ron")], (3, 1.0, 0));
    assert_eq!(min[&all("ron")], (3, 1.0, 0));
    assert_eq!(never[&all("ron")], (3, 0.0, 0));
    assert_eq!(
        ex, min,
        "the example engine plays three-player games as min-shanten does"
    );
    let reqs: Vec<Value> = std::fs::read_to_string(&requests)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let find = |hand: i64, seat: i64, kind: &str| {
        reqs.iter()
            .find(|r| r["hand"] == hand && r["seat"] == seat && r["kind"] == kind)
            .unwrap_or_else(|| panic!("no {kind} request of seat {seat} in hand {hand}"))
    };
    let kita = find(0, 1, "kita");
    assert_eq!(kita["players"], 3);
    assert_eq!(kita["kitas"], serde_json::json!([0, 0, 0, 0]));
    assert_eq!(kita["rules"]["players"], 3);
    assert_eq!(kita["rules"]["chi"], false);
    assert_eq!(kita["legal"], serde_json::json!(["kita", "discard:4z"]));
    let ron = find(1, 2, "ron");
    assert_eq!(
        ron["offered"],
        serde_json::json!({"seat": 1, "tile": "4z", "kan": false, "kita": true})
    );
    assert_eq!(ron["kitas"], serde_json::json!([1, 1, 0, 0]));
}

/// The 278 three-player Phoenix games (skips loudly when absent): every `kita` decision is
/// scored, no answer of a built-in is invalid, and the example engine equals min-shanten in
/// every cell.
#[test]
fn sanma_games() {
    let Some(dir) = common::corpus("sanma") else {
        return;
    };
    let out = common::ingest_cli(&[dir], &["--with=choices"]);
    let engine = common::example("every_decision_engine");
    let cmd = format!("ex={}", engine.display());
    let rows = every(
        out.path(),
        &[
            "--engine-cmd",
            &cmd,
            "--engine",
            "player",
            "--engine",
            "min-shanten",
        ],
    );
    let (player, min, ex) = (
        cells(&rows, "player"),
        cells(&rows, "min-shanten"),
        cells(&rows, "ex"),
    );
    let kita = ("kita".to_string(), "all".to_string(), "all".to_string());
    assert!(player[&kita].0 > 5000, "{:?}", player[&kita]);
    assert!(min.values().chain(player.values()).all(|c| c.2 == 0));
    assert_eq!(ex, min);
    assert!(!rows
        .iter()
        .any(|r| r["kind"] == "chi" && r["decisions"].as_i64() > Some(0)));
}
