//! `haifu review` (docs/review.md): an mjai bot driven over the games of a frames directory.
//! The bot's view of a game equals `haifu convert --to mjai` of it with the other seats' hands
//! and draws masked, event for event; the example bot (tsumogiri, passing every call) answers
//! what it must at every decision, and the three answer styles agree; each kind of bot fault
//! fails its (game, seat) with the reason and the event, the review goes on and exits 2; an
//! illegal answer is counted invalid; --resume skips the pairs done; --limit-games samples
//! evenly.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};

use common::{fixtures, frame, haifu};
use serde_json::Value;

fn bot() -> PathBuf {
    common::example("tsumogiri_bot")
}

fn frames() -> tempfile::TempDir {
    common::ingest_cli(&[fixtures()], &[])
}

/// Runs a review; its exit status, stdout and stderr.
fn review(frames: &Path, out: &Path, cmd: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "review",
        "--frames",
        frames.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--mjai",
        cmd,
        "--quiet",
        "--format",
        "json",
    ];
    args.extend(extra);
    let o = haifu(&args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// (game_id, hand, seat, kind, legal, taken, bot, match, invalid) of every review row.
type Row = (
    String,
    i32,
    i32,
    String,
    String,
    String,
    Option<String>,
    bool,
    bool,
);

fn rows(out: &Path) -> Vec<Row> {
    let df = frame(out, "reviews");
    let s = |c: &str| df.column(c).unwrap().str().unwrap().clone();
    let i = |c: &str| df.column(c).unwrap().i32().unwrap().clone();
    let b = |c: &str| df.column(c).unwrap().bool().unwrap().clone();
    let (g, k, l, t, bt) = (s("game_id"), s("kind"), s("legal"), s("taken"), s("bot"));
    let (h, se, m, inv) = (i("hand"), i("seat"), b("match"), b("invalid"));
    (0..df.height())
        .map(|r| {
            (
                g.get(r).unwrap().to_string(),
                h.get(r).unwrap(),
                se.get(r).unwrap(),
                k.get(r).unwrap().to_string(),
                l.get(r).unwrap().to_string(),
                t.get(r).unwrap().to_string(),
                bt.get(r).map(str::to_string),
                m.get(r).unwrap(),
                inv.get(r).unwrap(),
            )
        })
        .collect()
}

/// A review by the example bot (with `flag`) in answer style `style` into `out`, which must
/// succeed: its rows.
fn in_style(frames: &Path, out: &Path, flag: &str, style: &str) -> Vec<Row> {
    let cmd = format!("{} {flag}", bot().display());
    let (code, _, err) = review(frames, out, &cmd, &["--mjai-style", style]);
    assert_eq!(code, Some(0), "{err}");
    rows(out)
}

/// The converted game, one JSON value per line.
fn converted(game: &Path) -> Vec<Value> {
    let out = tempfile::tempdir().unwrap();
    common::ok(&haifu(&[
        "convert",
        game.to_str().unwrap(),
        "--to",
        "mjai",
        "--out",
        out.path().to_str().unwrap(),
        "--quiet",
    ]));
    let file = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".json.gz"))
        .unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What seat `seat` sees of a converted game: the other seats' dealt tiles and draws as `?`,
/// and `start_game` naming the seat.
fn masked(events: &[Value], seat: u64) -> Vec<Value> {
    events
        .iter()
        .map(|e| {
            let mut e = e.clone();
            match e["type"].as_str().unwrap() {
                "start_game" => {
                    e["id"] = seat.into();
                }
                "start_kyoku" => {
                    for (s, hand) in e["tehais"].as_array_mut().unwrap().iter_mut().enumerate() {
                        if s as u64 != seat {
                            for t in hand.as_array_mut().unwrap() {
                                *t = "?".into();
                            }
                        }
                    }
                }
                "tsumo" if e["actor"] != seat => e["pai"] = "?".into(),
                _ => {}
            }
            e
        })
        .collect()
}

/// The bot's view of f006 from each seat (captured with `tee` in front of the bot) is the
/// converted game masked for that seat, event for event.
#[test]
fn the_bot_sees_the_converted_game_masked() {
    let game = fixtures().join("2019061512gm-00a9-0000-0000f006.xml");
    let f = common::ingest_cli(std::slice::from_ref(&game), &[]);
    let want = converted(&game);
    let dir = tempfile::tempdir().unwrap();
    for seat in 0..4u64 {
        let seen = dir.path().join(format!("seen{seat}.jsonl"));
        let cmd = format!("tee {} | {}", seen.display(), bot().display());
        let out = dir.path().join(format!("out{seat}"));
        let (code, _, err) = review(f.path(), &out, &cmd, &["--seats", &seat.to_string()]);
        assert_eq!(code, Some(0), "{err}");
        let text = std::fs::read_to_string(&seen).unwrap();
        let got: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(got, masked(&want, seat), "seat {seat}");
    }
}

/// The example bot on every fixture game and seat: it passes every call and win (`pass` on
/// another seat's tile), and on its own draws discards the drawn tile (`discard:…`) or, after
/// a call or riichi the player made, a tile it holds; a match is exactly bot = taken. The three
/// answer styles give the same rows, but that the `actionable` bot is not asked again after a
/// call or riichi it did not make itself (unanswered there).
#[test]
fn the_example_bot_and_the_three_styles() {
    let f = frames();
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, flag: &str, style: &str| {
        in_style(f.path(), &dir.path().join(name), flag, style)
    };
    let each = run("each", "", "each");
    assert!(each.len() > 500);
    for (g, h, s, kind, legal, taken, bot, matched, _) in &each {
        let bot = bot.as_deref().expect("each answers every decision");
        assert_eq!(*matched, bot == taken, "{g} {h} {s} {kind}");
        assert!(legal.split(' ').any(|a| a == taken));
        if legal.split(' ').any(|a| a == "pass") {
            assert_eq!(bot, "pass", "{g} {h} {s} {kind}");
        } else {
            assert!(bot.starts_with("discard:"), "{g} {h} {s} {kind}: {bot}");
        }
    }
    assert_eq!(run("array", "--array", "array"), each);
    let actionable = run("actionable", "--actionable", "actionable");
    assert_eq!(actionable.len(), each.len());
    let mut unanswered = 0;
    for (a, e) in actionable.iter().zip(&each) {
        if a.6.is_none() {
            unanswered += 1;
            assert_eq!(
                a.3, "discard",
                "only a discard after the player's call or riichi"
            );
        } else {
            assert_eq!(a, e);
        }
    }
    assert!(unanswered > 0);
    // The report counts the frame's rows: every decision, the matches.
    let (_, out, _) = review(
        f.path(),
        &dir.path().join("each"),
        &format!("{}", bot().display()),
        &["--resume"],
    );
    let report: Vec<Value> = serde_json::from_str(&out).unwrap();
    let all = report
        .iter()
        .find(|r| r["kind"] == "all" && r["section"] == "all")
        .unwrap();
    assert_eq!(all["decisions"].as_u64().unwrap() as usize, each.len());
    let matches = each.iter().filter(|r| r.7).count();
    assert_eq!(all["matches"].as_u64().unwrap() as usize, matches);
    // `haifu compare review` sets the two styles side by side: in all, each side's decisions
    // and match rate are its frame's; the actionable side matched fewer (its unanswered ones).
    let o = haifu(&[
        "compare",
        "review",
        "--frames",
        dir.path().join("actionable").to_str().unwrap(),
        "--frames",
        dir.path().join("each").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let out = common::ok(&o);
    let v: Value = serde_json::from_str(&out).unwrap();
    let row = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "all" && r["section"] == "all")
        .unwrap();
    assert_eq!(row["n_a"].as_u64().unwrap() as usize, actionable.len());
    assert_eq!(row["n_b"].as_u64().unwrap() as usize, each.len());
    let rate = |rows: &[Row]| rows.iter().filter(|r| r.7).count() as f64 / rows.len() as f64;
    assert!((row["a"].as_f64().unwrap() - rate(&actionable)).abs() < 1e-12);
    assert!((row["b"].as_f64().unwrap() - rate(&each)).abs() < 1e-12);
    assert!(row["diff"].as_f64().unwrap() > 0.0);
}

/// Each kind of bot fault fails the (game, seat) it happens in (the example bot misbehaves at
/// its first draw of a game's second hand) with its reason and the event it was answering; the
/// review goes on, writes the failures, and exits 2. An illegal answer (a win it does not
/// have) is no failure: it is counted invalid.
#[test]
fn bot_faults() {
    let f = common::ingest_cli(
        &[fixtures().join("2019061512gm-00a9-0000-0000f006.xml")],
        &[],
    );
    let dir = tempfile::tempdir().unwrap();
    for (fault, reason, says) in [
        ("exit", "exited", "exit status: 3"),
        ("hang", "timeout", "did not answer within"),
        ("garbage", "not-mjai", "not JSON: this is not mjai"),
    ] {
        let out = dir.path().join(fault);
        let cmd = format!("{} --fault {fault}", bot().display());
        let (code, stdout, err) = review(f.path(), &out, &cmd, &["--seats", "1", "--timeout", "1"]);
        assert_eq!(code, Some(2), "{fault}: {err}");
        assert!(err.contains(says), "{fault}: {err}");
        assert!(
            err.contains("\"type\":\"tsumo\",\"actor\":1"),
            "{fault}: {err}"
        );
        let failures = frame(&out, "review_failures");
        assert_eq!(failures.height(), 1, "{fault}");
        let r = failures.column("reason").unwrap().str().unwrap().get(0);
        assert_eq!(r, Some(reason));
        assert_eq!(
            frame(&out, "reviews").height(),
            0,
            "a failed pair counts nothing"
        );
        let report: Vec<Value> = serde_json::from_str(&stdout).unwrap();
        assert!(report.is_empty(), "{fault}");
    }
    let out = dir.path().join("illegal");
    let cmd = format!("{} --fault illegal", bot().display());
    let (code, _, err) = review(f.path(), &out, &cmd, &["--seats", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let r = rows(&out);
    let invalid: Vec<&Row> = r.iter().filter(|x| x.8).collect();
    assert_eq!(invalid.len(), 1, "one illegal tsumo answered");
    assert_eq!(invalid[0].6.as_deref(), Some("tsumo"));
    assert!(!invalid[0].7);
}

/// --limit-games 3 of the 11 fixture games takes games 0, 3 and 7 of the manifest's order (an
/// even sample); --resume then reviews only the pairs not yet in the frame.
#[test]
fn limit_and_resume() {
    let f = frames();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cmd = bot().display().to_string();
    let (code, _, err) = review(
        f.path(),
        &out,
        &cmd,
        &["--limit-games", "3", "--seats", "0"],
    );
    assert_eq!(code, Some(0), "{err}");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(f.path().join("manifest.json")).unwrap())
            .unwrap();
    let ok: Vec<String> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] == "ok")
        .map(|e| e["game_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ok.len(), 11);
    let mut games: Vec<String> = rows(&out).into_iter().map(|r| r.0).collect();
    games.dedup();
    assert_eq!(games, [ok[0].clone(), ok[3].clone(), ok[7].clone()]);
    let first = rows(&out);
    let (code, _, err) = review(f.path(), &out, &cmd, &["--limit-games", "3", "--resume"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("12 (game, seat) pairs reviewed (3 from an earlier run)"),
        "{err}"
    );
    let after = rows(&out);
    // The earlier pairs' rows are kept as they were, the new ones added after them: the first
    // run's part untouched, the resumed run's a part of its own.
    assert_eq!(&after[..first.len()], &first[..]);
    assert!(after.len() > first.len());
    let parts = |d: &Path| -> Vec<String> {
        let mut p: Vec<String> = std::fs::read_dir(d.join("reviews"))
            .map(|r| {
                r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        p.sort();
        p
    };
    assert_eq!(parts(&out), ["part-00000.parquet", "part-00001.parquet"]);
    let (_, report, _) = review(f.path(), &out, &cmd, &["--limit-games", "3", "--resume"]);
    // The layout of an earlier haifu (one file, reviews.parquet) reads and resumes the same.
    let mut whole = frame(&out, "reviews");
    std::fs::remove_dir_all(out.join("reviews")).unwrap();
    polars::prelude::ParquetWriter::new(
        std::fs::File::create(out.join("reviews.parquet")).unwrap(),
    )
    .finish(&mut whole)
    .unwrap();
    let (code, again, err) = review(f.path(), &out, &cmd, &["--limit-games", "3", "--resume"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("(12 from an earlier run)"), "{err}");
    assert_eq!(again, report);
    assert_eq!(rows(&out), after);
    // A new review (without --resume) replaces the earlier one, in either layout.
    let (code, _, err) = review(
        f.path(),
        &out,
        &cmd,
        &["--limit-games", "3", "--seats", "0"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.join("reviews.parquet").exists());
    assert_eq!(parts(&out), ["part-00000.parquet"]);
    assert_eq!(rows(&out), first);
}

/// On Phoenix games (when the corpus is present): 20 games, every seat, no failure, every
/// decision answered, the array and each styles equal.
#[test]
fn phoenix_games() {
    let Some(f) = common::ingested_phoenix_games(20) else {
        eprintln!("skipped: ../shared/corpus/phoenix is absent");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (a, e) = (dir.path().join("a"), dir.path().join("e"));
    let cmd = format!("{} --array", bot().display());
    let (code, _, err) = review(f.path(), &a, &cmd, &["--mjai-style", "array", "--reuse"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = review(f.path(), &e, &bot().display().to_string(), &[]);
    assert_eq!(code, Some(0), "{err}");
    let (ra, re) = (rows(&a), rows(&e));
    assert!(ra.len() > 5_000);
    assert_eq!(ra, re);
    assert_eq!(frame(&a, "review_failures").height(), 0);
}

/// akochan (critter-mj/akochan, built by hand: docs/review.md) through its pipe mode, when
/// `HAIFU_AKOCHAN` names its directory: one seat of f006 in the `actionable` style, no failure,
/// every decision answered but the discards after a call or riichi it did not make itself.
#[test]
fn akochan_when_present() {
    let Some(dir) = std::env::var_os("HAIFU_AKOCHAN") else {
        eprintln!("skipped: set HAIFU_AKOCHAN to an akochan build (docs/review.md) to run it");
        return;
    };
    let f = common::ingest_cli(
        &[fixtures().join("2019061512gm-00a9-0000-0000f006.xml")],
        &[],
    );
    let out = tempfile::tempdir().unwrap();
    let cmd = format!(
        "cd {} && LD_LIBRARY_PATH=. ./system.exe pipe setup_mjai.json {{seat}}",
        Path::new(&dir).display()
    );
    let (code, _, err) = review(
        f.path(),
        out.path(),
        &cmd,
        &[
            "--mjai-style",
            "actionable",
            "--seats",
            "0",
            "--timeout",
            "120",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let r = rows(out.path());
    assert!(!r.is_empty());
    for row in &r {
        assert!(row.6.is_some() || row.3 == "discard", "{row:?}");
    }
}

/// Ctrl-C while a bot is thinking (the example bot hangs at its second hand): the review stops
/// within seconds, not after the bot's timeout, with status 130 and a message that the pairs
/// done are kept; the interrupted pair is a failure (`interrupted`) that `--resume` tries again.
#[test]
fn ctrl_c_keeps_the_pairs_done() {
    let f = common::ingest_cli(
        &[fixtures().join("2019061512gm-00a9-0000-0000f006.xml")],
        &[],
    );
    let out = tempfile::tempdir().unwrap();
    let cmd = format!("{} --fault hang", bot().display());
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args([
            "review",
            "--frames",
            f.path().to_str().unwrap(),
            "--out",
            out.path().to_str().unwrap(),
            "--mjai",
            &cmd,
            "--seats",
            "1",
            "--timeout",
            "60",
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let t0 = std::time::Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(t0.elapsed().as_secs() < 20, "not the bot's 60 s timeout");
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("--resume goes on from there"), "{err}");
    let failures = frame(out.path(), "review_failures");
    let r = failures.column("reason").unwrap().str().unwrap().get(0);
    assert_eq!(r, Some("interrupted"));
}

/// Three-player games (§24) of `fixtures-sanma/` (EXPECTED_V5.md), every seat, in the three
/// answer styles: the bot sees the mjai three-player dialect (three names, `nukidora`) and
/// sets aside every North it draws. At f011 hand 0 seat 1 draws the 4z in riichi: `kita` or
/// the 4z's discard is legal, the player kitas, so does the bot: matched. At f011 hand 1 seat
/// 2 rons the dealer's kita North: the bot, asked on the `nukidora` line, passes (a ron
/// decision, not matched, not invalid). No answer is invalid but at riichi declarations (the
/// bot discards its last tile there); the styles agree where they both answer.
#[test]
fn three_player_games_with_kita() {
    let f = common::ingest_cli(&[common::sanma_fixtures()], &[]);
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, flag: &str, style: &str| {
        in_style(f.path(), &dir.path().join(name), flag, style)
    };
    let each = run("each", "", "each");
    // Seats 0-2 only: 2 games × 3 seats, every pair with its decisions.
    let pairs: std::collections::BTreeSet<(String, i32)> =
        each.iter().map(|r| (r.0.clone(), r.2)).collect();
    assert_eq!(pairs.len(), 6, "{pairs:?}");
    let (code, _, err) = review(
        f.path(),
        &dir.path().join("seat3"),
        &bot().display().to_string(),
        &["--seats", "3"],
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("3 is not a seat of a 3-player game"), "{err}");
    let f011 = "2099011100gm-00b9-0000-0000f011";
    let find = |rows: &[Row], hand: i32, seat: i32, kind: &str| -> Row {
        rows.iter()
            .find(|r| r.0 == f011 && r.1 == hand && r.2 == seat && r.3 == kind)
            .unwrap_or_else(|| panic!("no {kind} decision of seat {seat} in hand {hand}"))
            .clone()
    };
    let kita = find(&each, 0, 1, "kita");
    assert_eq!(
        (
            kita.4.as_str(),
            kita.5.as_str(),
            kita.6.as_deref(),
            kita.7,
            kita.8
        ),
        ("kita discard:4z", "kita", Some("kita"), true, false)
    );
    let ron = find(&each, 1, 2, "ron");
    assert_eq!(
        (
            ron.4.as_str(),
            ron.5.as_str(),
            ron.6.as_deref(),
            ron.7,
            ron.8
        ),
        ("ron pass", "ron", Some("pass"), false, false)
    );
    // No answer names an action the seat could not take but the riichi declarations' (the
    // bot discards its last tile there, whatever the tenpai-keeping kinds).
    assert!(each.iter().filter(|r| r.8).all(|r| r.3 == "discard"));
    assert!(each
        .iter()
        .any(|r| r.3 == "kita" && r.6.as_deref() == Some("kita")));
    assert_eq!(run("array", "--array", "array"), each);
    let actionable = run("actionable", "--actionable", "actionable");
    assert_eq!(actionable.len(), each.len());
    for (a, e) in actionable.iter().zip(&each) {
        if a.6.is_some() {
            assert_eq!(a, e);
        }
    }
    assert_eq!(find(&actionable, 1, 2, "ron").6.as_deref(), Some("pass"));
}
