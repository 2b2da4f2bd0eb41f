//! Every decision from every log format (§23): the `choices` frame, `haifu agree
//! --every-decision` and `haifu review` of games read from tenhou.net/6, mjai and majiang
//! equal those of the same games' mjlog; the manifest's proofs per format; a command that
//! finds nothing to score says why and exits 3. (The `choices` frame of every format against
//! the mjlog, column by column, is in tests/formats_read.rs.)

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, haifu, ok, sanma_fixtures};
use polars::prelude::*;
use serde_json::Value;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && !p.ends_with("manifest.json"))
        .collect();
    v.sort();
    v
}

/// `haifu convert INPUTS --to TO`: the output directory and its games.
fn convert(inputs: &[PathBuf], to: &str) -> (tempfile::TempDir, Vec<PathBuf>) {
    let out = tempfile::tempdir().unwrap();
    let mut args: Vec<&str> = vec!["convert"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--to", to, "--out", out.path().to_str().unwrap(), "--quiet"]);
    ok(&haifu(&args));
    let f = files(out.path());
    (out, f)
}

/// `haifu agree --every-decision` with the built-ins that need no engine (JSON rows), over
/// the table of `players`.
fn agree_every(dir: &Path, players: &str) -> Vec<Value> {
    let text = ok(&haifu(&[
        "agree",
        "--frames",
        dir.to_str().unwrap(),
        "--every-decision",
        "--players",
        players,
        "--engine",
        "player",
        "--engine",
        "always",
        "--engine",
        "never",
        "--engine",
        "min-shanten",
        "--format",
        "json",
    ]));
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// The (kind, section, value) rows of the player's agreement with itself: decisions and
/// unobserved per cell.
fn scored(rows: &[Value]) -> Vec<(String, i64, i64)> {
    rows.iter()
        .filter(|r| r["engine"] == "player" && r["section"] == "all")
        .map(|r| {
            (
                r["kind"].as_str().unwrap().to_string(),
                r["decisions"].as_i64().unwrap(),
                r["unobserved"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// `haifu review` of `dir` with the example bot: the rows of reviews.parquet, sorted (game,
/// hand, seat, seq).
fn review(dir: &Path, extra: &[&str]) -> DataFrame {
    let out = tempfile::tempdir().unwrap();
    let bot = common::example("tsumogiri_bot");
    let mut args = vec![
        "review",
        "--frames",
        dir.to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
        "--mjai",
        bot.to_str().unwrap(),
        "--quiet",
        "--format",
        "json",
    ];
    args.extend(extra);
    ok(&haifu(&args));
    let df = common::frame(out.path(), "reviews");
    assert_eq!(
        df.get_column_names(),
        [
            "game_id",
            "hand",
            "seat",
            "turn",
            "riichi_opponents",
            "kind",
            "legal",
            "taken",
            "bot",
            "match",
            "invalid",
            "meta",
            "engine"
        ]
    );
    let by: Vec<PlSmallStr> = df.get_column_names().into_iter().cloned().collect();
    df.sort(by, SortMultipleOptions::default().with_nulls_last(true))
        .unwrap()
}

/// The manifest's `totals.games_by_proof`.
fn proofs(dir: &Path) -> Value {
    let m: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    m["totals"]["games_by_proof"].clone()
}

fn proofs_of(pairs: &[(&str, u64)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|&(k, v)| (k.to_string(), Value::from(v)))
            .collect(),
    )
}

/// The fixtures (four- and three-player), converted by haifu to mjai and tenhou.net/6: their
/// §23 decisions, agreement and review equal the mjlog's; the manifest says which proofs ran
/// (mjai records no yaku, fu or points: its wins are proved by their payments).
#[test]
fn fixtures_decide_alike_in_every_format() {
    let mut inputs: Vec<PathBuf> = files(&fixtures());
    inputs.extend(files(&sanma_fixtures()));
    let mjlog = common::ingest_cli(&inputs, &["--with=choices"]);
    let n = common::frame(mjlog.path(), "games").height() as u64;
    let all = [
        ("fu", n),
        ("legal", n),
        ("payments", n),
        ("points", n),
        ("yaku", n),
    ];
    assert_eq!(proofs(mjlog.path()), proofs_of(&all));
    let every = [
        agree_every(mjlog.path(), "4"),
        agree_every(mjlog.path(), "3"),
    ];
    assert!(scored(&every[0])
        .iter()
        .any(|(k, d, _)| k == "chi" && *d > 0));
    assert!(scored(&every[1])
        .iter()
        .any(|(k, d, _)| k == "kita" && *d > 0));
    let reviewed = review(mjlog.path(), &[]);
    assert!(reviewed.height() > 500);
    for (to, want) in [
        ("mjai", vec![("legal", n), ("payments", n)]),
        ("tenhou6", all.to_vec()),
    ] {
        let (_dir, converted) = convert(&inputs, to);
        let read = common::ingest_cli(&converted, &["--with=choices"]);
        assert_eq!(proofs(read.path()), proofs_of(&want), "{to}");
        assert_eq!(agree_every(read.path(), "4"), every[0], "{to}");
        assert_eq!(agree_every(read.path(), "3"), every[1], "{to}");
        assert!(review(read.path(), &[]).equals_missing(&reviewed), "{to}");
        // Without the decisions asked for, no `legal` proof.
        let plain = common::ingest_cli(&converted, &[]);
        let want: Vec<_> = want.into_iter().filter(|(p, _)| *p != "legal").collect();
        assert_eq!(proofs(plain.path()), proofs_of(&want), "{to}");
    }
}

/// The corpus's conversions by other projects (formats/{tenhou6,mjai,majiang}) against their
/// Phoenix originals: `agree --every-decision` gives the same cells, the example bot's review
/// of the first ten games the same rows; every game of each carries its format's proofs.
#[test]
fn corpus_formats_decide_alike() {
    let (Some(formats), Some(phoenix)) = (common::corpus("formats"), common::corpus("phoenix"))
    else {
        return;
    };
    for (folder, games, score_proofs) in [
        ("tenhou6", 171, true),
        // mjai-reviewer's converter omits a fourth riichi's reach_accepted: one game fails
        // (tests/formats_read.rs).
        ("mjai", 170, false),
        ("majiang", 180, true),
    ] {
        let dir = formats.join(folder);
        let read = if folder == "mjai" {
            common::ingest_cli_exit(std::slice::from_ref(&dir), &["--with=choices"], 2)
        } else {
            common::ingest_cli(std::slice::from_ref(&dir), &["--with=choices"])
        };
        let landed = common::frame(read.path(), "games");
        assert_eq!(landed.height(), games, "{folder}");
        let mut want = vec![("legal", games as u64), ("payments", games as u64)];
        if score_proofs {
            want.extend([
                ("fu", games as u64),
                ("points", games as u64),
                ("yaku", games as u64),
            ]);
            want.sort();
        }
        assert_eq!(proofs(read.path()), proofs_of(&want), "{folder}");
        // The Phoenix files of the games that landed.
        let ids = landed.column("game_id").unwrap().str().unwrap().clone();
        let originals: Vec<PathBuf> = ids
            .iter()
            .flatten()
            .map(|id| {
                ["mjlog", "xml"]
                    .iter()
                    .map(|e| phoenix.join(format!("{id}.{e}")))
                    .find(|p| p.exists())
                    .unwrap_or_else(|| panic!("no Phoenix log {id}"))
            })
            .collect();
        let mjlog = common::ingest_cli(&originals, &["--with=choices"]);
        let every = agree_every(mjlog.path(), "4");
        assert!(
            scored(&every).iter().map(|(_, d, _)| d).sum::<i64>() > 100_000,
            "{folder}"
        );
        assert_eq!(agree_every(read.path(), "4"), every, "{folder}");
        let mut first: Vec<&str> = ids.iter().flatten().collect();
        first.sort_unstable();
        let list: Vec<String> = first[..10].iter().map(|id| format!("'{id}'")).collect();
        let first = format!("--where=game_id IN ({})", list.join(", "));
        let theirs = review(read.path(), &[&first]);
        assert!(theirs.height() > 2_000, "{folder}");
        assert!(
            theirs.equals_missing(&review(mjlog.path(), &[&first])),
            "{folder}"
        );
    }
}

/// 電脳麻将's self-play (majiang, its own rules): every game's decisions are built and
/// proved legal under Tenhou's rules; no score proof runs (its rules are not Tenhou's:
/// double yakuman), and `agree --every-decision` scores its decisions.
#[test]
fn self_play_decisions() {
    let Some(selfplay) = common::corpus("selfplay") else {
        return;
    };
    let games: Vec<PathBuf> = files(&selfplay)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
        .collect();
    let read = common::ingest_cli(&games, &["--with=choices"]);
    assert_eq!(proofs(read.path()), proofs_of(&[("legal", 96)]));
    let every = scored(&agree_every(read.path(), "4"));
    let kinds: Vec<&str> = every.iter().map(|(k, _, _)| k.as_str()).collect();
    for k in ["discard", "riichi", "tsumo", "ron", "chi", "pon"] {
        assert!(kinds.contains(&k), "{k}: {kinds:?}");
    }
    assert!(every.iter().map(|(_, d, _)| d).sum::<i64>() > 40_000);
}

/// Exit 3 with the reason: a slice that selects no game (report, agree, agree
/// --every-decision, review), `--limit 0`, and a `choices` frame an older haifu left empty
/// for games read from mjai.
#[test]
fn nothing_to_report_says_why() {
    let f = common::ingest_cli(
        &[fixtures()],
        &["--with=choices,decisions,development,tables"],
    );
    let dir = f.path().to_str().unwrap();
    let none = "--where=date > '2200-01-01'";
    let says = |args: &[&str], want: &str| {
        let o = haifu(args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains(&format!("haifu: nothing to report: {want}")),
            "{err}"
        );
    };
    let slice = "--where \"date > '2200-01-01'\" selects none of the 4-player games";
    says(&["stats", "summary", "--frames", dir, none], slice);
    says(&["stats", "choices", "--frames", dir, none], slice);
    says(
        &["agree", "--frames", dir, "--engine", "player", none],
        slice,
    );
    says(&["agree", "--frames", dir, "--every-decision", none], slice);
    let out = tempfile::tempdir().unwrap();
    let bot = common::example("tsumogiri_bot");
    says(
        &[
            "review",
            "--frames",
            dir,
            "--out",
            out.path().to_str().unwrap(),
            "--mjai",
            bot.to_str().unwrap(),
            "--quiet",
            none,
        ],
        slice,
    );
    says(
        &["agree", "--frames", dir, "--every-decision", "--limit", "0"],
        "--limit 0 leaves agree --every-decision no decision to score",
    );
    // A report whose query finds no row among games that have them: no call in f005, and
    // f004 is a tonpuu (no §19 unit).
    let f005 = "--where=game_id = '2099010500gm-00ab-0000-0000f005'";
    says(
        &["stats", "calls-by-turn", "--frames", dir, f005],
        "none of the 1 game has a unit of report `calls-by-turn` (its query selects no row of them)",
    );
    let f004 = "--where=game_id = '2099010400gm-00e1-0000-0000f004'";
    says(
        &["stats", "final-placement", "--frames", dir, f004],
        "report `final-placement` reads `placement_units`, which has no row for the 1 game: \
         §19's units are the hands of hanchan games whose log records the final scores (owari)",
    );
    // Frames of an older haifu: mjai games, their `choices` frame empty, no `legal` proof in
    // the manifest.
    let (_d, converted) = convert(&files(&fixtures()), "mjai");
    let old = common::ingest_cli(&converted, &["--with=choices"]);
    let path = old.path().join("choices.parquet");
    let mut empty = common::frame(old.path(), "choices").head(Some(0));
    ParquetWriter::new(std::fs::File::create(&path).unwrap())
        .finish(&mut empty)
        .unwrap();
    let manifest = old.path().join("manifest.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["totals"]
        .as_object_mut()
        .unwrap()
        .remove("games_by_proof");
    m["haifu_version"] = "0.1.0-old".into();
    std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    says(
        &["stats", "choices", "--frames", old.path().to_str().unwrap()],
        "report `choices` reads `choices`, which has no row for the ",
    );
    let o = haifu(&["stats", "choices", "--frames", old.path().to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "haifu 0.1.0-old wrote these frames, which built the §23 decisions only from mjlog"
        ),
        "{err}"
    );
}

/// (game, hand) → end and deltas of the `hands` frame in `dir`.
fn ends(dir: &Path) -> Vec<(String, i32, String, [i32; 4])> {
    let h = common::frame(dir, "hands");
    let s = |c: &str| h.column(c).unwrap().str().unwrap().clone();
    let i = |c: &str| h.column(c).unwrap().i32().unwrap().clone();
    let (g, e) = (s("game_id"), s("end"));
    let (hand, d) = (i("hand"), [0, 1, 2, 3].map(|k| i(&format!("delta_{k}"))));
    let mut v: Vec<_> = (0..h.height())
        .map(|r| {
            (
                g.get(r).unwrap()[23..].to_string(),
                hand.get(r).unwrap(),
                e.get(r).unwrap_or("(null)").to_string(),
                [0, 1, 2, 3].map(|k| d[k].get(r).unwrap()),
            )
        })
        .collect();
    v.sort();
    v
}

/// (game, hand, seat, turn, kind, legal, taken) of every `choices` row in `dir`, sorted.
fn choices(dir: &Path) -> Vec<(String, i32, i32, i32, String, String, String)> {
    let c = common::frame(dir, "choices");
    let s = |n: &str| c.column(n).unwrap().str().unwrap().clone();
    let i = |n: &str| c.column(n).unwrap().i32().unwrap().clone();
    let (g, k, l, t) = (s("game_id"), s("kind"), s("legal"), s("taken"));
    let (h, se, tu) = (i("hand"), i("seat"), i("turn"));
    let mut v: Vec<_> = (0..c.height())
        .map(|r| {
            (
                g.get(r).unwrap()[23..].to_string(),
                h.get(r).unwrap(),
                se.get(r).unwrap(),
                tu.get(r).unwrap(),
                k.get(r).unwrap().to_string(),
                l.get(r).unwrap().to_string(),
                t.get(r).unwrap_or("").to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The rule edges, hand-made (fixtures-rules/, worked in tools/fixtures/EXPECTED_RULES.md):
/// f013's kokushi seat 1, tenpai on 1s only, has no decision at seat 2's ankan of the four 1s
/// (no hand robs a closed kan); f013's second hand ends `kaze4`; in f014 seats 1 and 3 make
/// four kans between them and seat 3 throws 6m: seat 1 (66m) has no `pon` decision and seat 0
/// (5m 7m, next in turn) no `chi`, and the hand ends `kan4`. The same from mjai and
/// tenhou.net/6 (mjai names neither draw: the replay does).
#[test]
fn rule_edges_by_hand() {
    let mjlog = common::ingest_cli(&[common::rules_fixtures()], &["--with=choices"]);
    let want_ends = vec![
        (
            "0000f013".to_string(),
            0,
            "ron".to_string(),
            [0, 0, 8000, -8000],
        ),
        ("0000f013".to_string(), 1, "kaze4".to_string(), [0; 4]),
        (
            "0000f013".to_string(),
            2,
            "ron".to_string(),
            [0, 48300, -48300, 0],
        ),
        ("0000f014".to_string(), 0, "kan4".to_string(), [0; 4]),
        (
            "0000f014".to_string(),
            1,
            "ron".to_string(),
            [49300, -48300, 0, 0],
        ),
    ];
    assert_eq!(ends(mjlog.path()), want_ends);
    let rows = choices(mjlog.path());
    let at = |g: &str, hand: i32, seat: i32, turn: i32| {
        rows.iter()
            .filter(|r| r.0 == g && r.1 == hand && r.2 == seat && r.3 == turn)
            .count()
    };
    // The three non-decisions.
    assert_eq!(at("0000f013", 0, 1, 1), 0);
    assert_eq!(at("0000f014", 0, 1, 2), 0);
    assert_eq!(at("0000f014", 0, 0, 3), 0);
    // Seat 1 of f013's first hand decides once, at its first draw; never a ron.
    let f013: Vec<_> = rows
        .iter()
        .filter(|r| r.0 == "0000f013" && r.1 == 0 && r.2 == 1)
        .map(|r| (r.3, r.4.as_str(), r.6.as_str()))
        .collect();
    assert_eq!(f013, [(0, "riichi", "discard:2s")]);
    // f014's first hand: the only call decisions are seat 3's pon of Haku and seat 1's
    // daiminkan of 2s, before the fourth kan.
    let calls: Vec<_> = rows
        .iter()
        .filter(|r| {
            r.0 == "0000f014" && r.1 == 0 && matches!(r.4.as_str(), "pon" | "chi" | "daiminkan")
        })
        .map(|r| (r.2, r.3, r.4.as_str(), r.5.as_str(), r.6.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            (1, 1, "daiminkan", "pon daiminkan pass", "daiminkan"),
            (3, 0, "pon", "pon pass", "pon")
        ]
    );
    // The neighbouring rows as worked by hand.
    let row = |g: &str, hand: i32, seat: i32, turn: i32, kind: &str| {
        rows.iter()
            .find(|r| r.0 == g && r.1 == hand && r.2 == seat && r.3 == turn && r.4 == kind)
            .map(|r| (r.5.clone(), r.6.clone()))
            .unwrap_or_else(|| panic!("{g} {hand} {seat} {turn} {kind}"))
    };
    assert_eq!(
        row("0000f013", 0, 2, 1, "ron"),
        ("ron pass".to_string(), "ron".to_string())
    );
    assert_eq!(
        row("0000f014", 0, 3, 2, "discard"),
        (
            "discard:6m discard:3p discard:6p discard:8p discard:1s discard:4s discard:7s discard:3z"
                .to_string(),
            "discard:6m".to_string()
        )
    );
    // Through mjai and tenhou.net/6: the same ends, the same decisions.
    let files: Vec<PathBuf> = files(&common::rules_fixtures());
    for to in ["mjai", "tenhou6"] {
        let (_d, converted) = convert(&files, to);
        let read = common::ingest_cli(&converted, &["--with=choices"]);
        assert_eq!(ends(read.path()), want_ends, "{to}");
        assert_eq!(choices(read.path()), rows, "{to}");
    }
}
