//! Frames directories beyond one ingest (#58, docs/scale.md): `ingest --append`, `--shard K/N`
//! and `haifu merge` give the reports of one ingest of the same games; what they refuse; a
//! stopped append leaves the directory as it was, or is finished by the next read.

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, haifu, ok, sanma_fixtures};

/// Every fixture of both tables (four- and three-player games), in ten batch directories
/// `b0`..`b9` whose sorted order is the files' sorted order, so that one ingest of all ten and
/// ten appends read the same inputs in the same order under the same paths.
fn batches() -> (tempfile::TempDir, Vec<PathBuf>) {
    let mut files: Vec<PathBuf> = [fixtures(), sanma_fixtures()]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort_by_key(|p| p.file_name().unwrap().to_owned());
    assert!(files.len() >= 12, "{files:?}");
    let root = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..10).map(|i| root.path().join(format!("b{i}"))).collect();
    for (i, f) in files.iter().enumerate() {
        let d = &dirs[i * 10 / files.len()];
        std::fs::create_dir_all(d).unwrap();
        std::fs::copy(f, d.join(f.file_name().unwrap())).unwrap();
    }
    (root, dirs)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `haifu ingest INPUTS --room any --all --quiet --out OUT [extra]`, which must succeed.
fn ingest(inputs: &[PathBuf], out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "ingest",
        "--room",
        "any",
        "--all",
        "--quiet",
        "--out",
        s(out),
    ];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(extra);
    let o = haifu(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `haifu ARGS`, which must fail with exit 1 and say every one of `says`.
fn refused(args: &[&str], says: &[&str]) {
    let o = haifu(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    for s in says {
        assert!(err.contains(s), "{args:?} does not say {s:?}: {err}");
    }
}

/// Every report of both tables, the §4 validation and the tsumo-rate parameter file over
/// `dir`, each output's lines sorted (rows come in another order from parts).
fn reports(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut run = |name: String, args: Vec<&str>| {
        let o = haifu(&args);
        let mut lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        lines.push(format!("exit {:?}", o.status.code()));
        out.push((name, lines));
    };
    for r in haifu::report::REPORTS {
        for players in ["4", "3"] {
            run(
                format!("{} --players {players}", r.name),
                vec![
                    "stats",
                    r.name,
                    "--frames",
                    s(dir),
                    "--players",
                    players,
                    "--format",
                    "csv",
                ],
            );
        }
    }
    run(
        "params validate".into(),
        vec!["params", "validate", "--frames", s(dir), "--format", "csv"],
    );
    let file = tempfile::NamedTempFile::new().unwrap();
    run(
        "params tsumo-rate".into(),
        vec![
            "params",
            "tsumo-rate",
            "--frames",
            s(dir),
            "--out",
            s(file.path()),
        ],
    );
    let written = std::fs::read_to_string(file.path()).unwrap();
    assert!(written.contains("haifu.tsumo-rate"), "{written}");
    out.push((
        "tsumo-rate file".into(),
        written.lines().map(str::to_string).collect(),
    ));
    out
}

/// Every frame of `a` has the same rows in `b`: counted, for `danger_eval` per estimator (an
/// append's `phoenix-table` rows only in their file), for `draw_rate` as buckets.
fn same_rows(a: &Path, b: &Path) {
    let frames: Vec<String> = std::fs::read_dir(a)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".parquet").map(str::to_string)
        })
        .collect();
    assert!(frames.len() > 20, "{frames:?}");
    let count = |dir: &Path, sql: &str| {
        ok(&haifu(&[
            "query",
            "--frames",
            s(dir),
            sql,
            "--format",
            "csv",
        ]))
    };
    for f in frames {
        let sql = if f == "danger_eval" {
            "SELECT estimator, COUNT(*) AS n FROM danger_eval GROUP BY estimator ORDER BY estimator"
                .to_string()
        } else if f == "draw_rate" {
            // In parts a bucket has a row per part: the buckets and their sums.
            "SELECT COUNT(*) AS n, SUM(u) AS u FROM (SELECT tile_type, held, visible, turn, fold, \
             players, SUM(units) AS u FROM draw_rate \
             GROUP BY tile_type, held, visible, turn, fold, players) b"
                .to_string()
        } else {
            format!("SELECT COUNT(*) AS n FROM {f}")
        };
        assert_eq!(count(a, &sql), count(b, &sql), "{f}");
    }
}

/// The reports over `a` and `b` are the same, line for line after sorting.
fn same_reports(a: &Path, b: &Path) {
    let (ra, rb) = (reports(a), reports(b));
    let answered = ra
        .iter()
        .filter(|(_, l)| l.last().unwrap() == "exit Some(0)")
        .count();
    assert!(answered >= 30, "{answered} reports answered");
    for ((name, x), (_, y)) in ra.iter().zip(&rb) {
        let x: Vec<&String> = x.iter().filter(|l| !l.contains("haifu_version")).collect();
        let y: Vec<&String> = y.iter().filter(|l| !l.contains("haifu_version")).collect();
        assert_eq!(x, y, "{name}");
    }
}

/// Ten appends (the first into an empty directory) give the reports of one ingest of the same
/// games, and the same manifest byte for byte; the appended directory holds every per-game
/// frame in parts (one per append), `phoenix-table`'s rows in their own file.
#[test]
fn ten_appends_give_the_reports_of_one_ingest() {
    let (root, dirs) = batches();
    let one = root.path().join("one");
    ingest(&dirs, &one, &[]);
    let app = root.path().join("app");
    for (i, d) in dirs.iter().enumerate() {
        let said = ingest(std::slice::from_ref(d), &app, &["--append"]);
        if i > 0 {
            assert!(said.contains("appended to the frames in"), "{said}");
        }
    }
    same_reports(&one, &app);
    same_rows(&one, &app);
    assert_eq!(
        std::fs::read(one.join("manifest.json")).unwrap(),
        std::fs::read(app.join("manifest.json")).unwrap()
    );
    assert_eq!(
        std::fs::read(one.join("run_totals.json")).unwrap(),
        std::fs::read(app.join("run_totals.json")).unwrap()
    );
    let parts = |f: &str| std::fs::read_dir(app.join(f)).unwrap().count();
    assert_eq!(parts("games"), 10);
    assert_eq!(parts("danger_eval"), 11);
    assert!(app
        .join("danger_eval")
        .join("phoenix-table.parquet")
        .is_file());
    assert!(!app.join("games.parquet").exists());
    // Nothing is left of the appends' staging.
    let hidden: Vec<_> = std::fs::read_dir(&app)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");

    // The same games again: every one a duplicate, the reports unchanged.
    let said = ingest(&dirs[..3], &app, &["--append"]);
    assert!(
        said.contains("skipped") && said.contains("duplicate"),
        "{said}"
    );
    assert!(said.contains(" 0 games"), "{said}");
    same_reports(&one, &app);
}

/// Four shards merged give the reports of one ingest; each shard's manifest lists its own
/// inputs and counts the others', which add up to every input once.
#[test]
fn four_shards_merged_give_the_reports_of_one_ingest() {
    let (root, dirs) = batches();
    let one = root.path().join("one");
    ingest(&dirs, &one, &[]);
    let inputs: u64 = dirs
        .iter()
        .map(|d| std::fs::read_dir(d).unwrap().count() as u64)
        .sum();
    let mut shards = Vec::new();
    let mut listed = 0;
    for k in 1..=4 {
        let out = root.path().join(format!("s{k}"));
        ingest(&dirs, &out, &["--shard", &format!("{k}/4")]);
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["shard"], format!("{k}/4"));
        let files = m["totals"]["files"].as_u64().unwrap();
        assert_eq!(
            files + m["totals"]["other_shards"].as_u64().unwrap(),
            inputs
        );
        listed += files;
        shards.push(out);
    }
    assert_eq!(listed, inputs);
    let merged = root.path().join("merged");
    let mut args = vec!["merge", "--out", s(&merged)];
    args.extend(shards[..3].iter().map(|p| s(p)));
    // Three of four: merged, with a note that shard 4's games are not there.
    let o = haifu(&args);
    assert!(String::from_utf8_lossy(&o.stderr).contains("shards 4 of 4 are not merged"));
    ok(&o);
    ok(&haifu(&["merge", "--out", s(&merged), s(&shards[3])]));
    same_reports(&one, &merged);
    same_rows(&one, &merged);
    // The shards are left whole.
    assert!(shards[0].join("games.parquet").is_file());
}

/// An append or a merge that cannot be done is refused, saying what to do, and changes
/// nothing.
#[test]
fn refusals_say_what_to_do() {
    let (root, dirs) = batches();
    let dir = root.path().join("d");
    ingest(&dirs[..5], &dir, &[]);
    let before = reports(&dir);
    let d = s(&dir);
    let b5 = s(&dirs[5]);
    refused(
        &[
            "ingest", b5, "--room", "any", "--with", "walls", "--append", "--out", d,
        ],
        &[
            "holds the frames of --with",
            "this append asks for --with walls",
            "same --with",
        ],
    );
    refused(
        &["ingest", b5, "--all", "--append", "--out", d],
        &["was ingested with --room any", "append with --room any"],
    );
    refused(
        &[
            "ingest", b5, "--room", "any", "--all", "--append", "--shard", "2/4", "--out", d,
        ],
        &["no --shard", "--shard 2/4", "directory's shard"],
    );
    for (spec, says) in [
        ("5/4", "K must be 1..=4"),
        ("0/4", "K must be 1..=4"),
        ("x", "K/N"),
    ] {
        refused(
            &["ingest", b5, "--room", "any", "--shard", spec, "--out", d],
            &[says],
        );
    }
    // Another definitions version.
    let other = root.path().join("other");
    ingest(&dirs[5..6], &other, &[]);
    let m = other.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(
        &m,
        text.replace(
            "\"definitions_version\": \"",
            "\"definitions_version\": \"9",
        ),
    )
    .unwrap();
    refused(
        &["merge", "--out", s(&root.path().join("m1")), d, s(&other)],
        &["definitions version", "do not join"],
    );
    // Overlapping games.
    let again = root.path().join("again");
    ingest(&dirs[4..6], &again, &[]);
    refused(
        &["merge", "--out", s(&root.path().join("m2")), d, s(&again)],
        &["games are in more than one directory", "--append"],
    );
    // Another --with set.
    let plain = root.path().join("plain");
    let o = haifu(&[
        "ingest",
        s(&dirs[7]),
        "--room",
        "any",
        "--quiet",
        "--out",
        s(&plain),
    ]);
    ok(&o);
    refused(
        &["merge", "--out", s(&root.path().join("m3")), d, s(&plain)],
        &["same --with groups"],
    );
    // A directory from before run_totals.json.
    std::fs::remove_file(plain.join("run_totals.json")).unwrap();
    refused(
        &[
            "ingest",
            s(&dirs[8]),
            "--room",
            "any",
            "--append",
            "--out",
            s(&plain),
        ],
        &["has no run_totals.json", "ingest its logs again"],
    );
    assert_eq!(reports(&dir), before);
}

/// A game without a log id is known by its content: a copy under another name is skipped as
/// a duplicate, in one run and in an append.
#[test]
fn a_game_without_a_log_id_is_a_duplicate_by_content() {
    let root = tempfile::tempdir().unwrap();
    let game = fixtures().join("misc").join("local-game.xml");
    for (d, name) in [("a", "local-game.xml"), ("b", "renamed.xml")] {
        std::fs::create_dir_all(root.path().join(d)).unwrap();
        std::fs::copy(&game, root.path().join(d).join(name)).unwrap();
    }
    let (a, b) = (root.path().join("a"), root.path().join("b"));
    let both = root.path().join("both");
    let said = ingest(&[a.clone(), b.clone()], &both, &[]);
    assert!(
        said.contains("1 games") && said.contains("skipped 1: duplicate"),
        "{said}"
    );
    let app = root.path().join("app");
    ingest(std::slice::from_ref(&a), &app, &["--append"]);
    let said = ingest(std::slice::from_ref(&b), &app, &["--append"]);
    assert!(
        said.contains("skipped 1: duplicate") && said.contains("now 1 games"),
        "{said}"
    );
    let m = std::fs::read_to_string(app.join("manifest.json")).unwrap();
    assert!(m.contains("\"content\": \"sha512:"), "{m}");
    assert!(m.contains("same game as"), "{m}");
}

/// An append stopped after its new games are ingested leaves the directory reading as before
/// (the next append clears its staging); one stopped in the middle of its renames is finished
/// by the next command that reads the directory, which then reads as after the append.
#[test]
fn a_stopped_append_leaves_the_directory_whole() {
    let (root, dirs) = batches();
    let dir = root.path().join("d");
    ingest(&dirs[..5], &dir, &[]);
    let before = reports(&dir);
    let append = |stop: (&str, &str)| {
        let mut args = vec!["ingest", "--room", "any", "--all", "--quiet", "--append"];
        args.extend(["--out", s(&dir), s(&dirs[5]), s(&dirs[6])]);
        std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
            .args(&args)
            .env(stop.0, stop.1)
            .output()
            .unwrap()
    };
    let o = append(("HAIFU_TEST_STOP_STAGED", "1"));
    assert_eq!(o.status.code(), Some(9));
    assert!(dir.join(".haifu-append").is_dir());
    assert_eq!(reports(&dir), before);

    // The renames stopped after four: a reader finishes them.
    let o = append(("HAIFU_TEST_STOP_PUBLISH", "4"));
    assert_eq!(o.status.code(), Some(9));
    assert!(dir.join(".haifu-join").join("plan.json").is_file());
    let after = reports(&dir);
    assert!(!dir.join(".haifu-join").exists());
    let whole = root.path().join("whole");
    ingest(&dirs[..7], &whole, &[]);
    same_reports(&whole, &dir);
    assert_ne!(after, before);
}

/// A plain ingest into a directory that appends left in parts replaces it whole: the same
/// reports as an ingest into an empty directory, and no part left.
#[test]
fn a_plain_ingest_replaces_a_directory_in_parts() {
    let (root, dirs) = batches();
    let dir = root.path().join("d");
    for d in &dirs[..3] {
        ingest(std::slice::from_ref(d), &dir, &["--append"]);
    }
    assert!(dir.join("games").is_dir());
    ingest(&dirs[3..6], &dir, &[]);
    assert!(!dir.join("games").exists() && !dir.join("danger_eval").exists());
    let fresh = root.path().join("fresh");
    ingest(&dirs[3..6], &fresh, &[]);
    same_reports(&fresh, &dir);
}

/// An append killed (SIGKILL) at any moment leaves a directory that reads as before it or, if
/// its plan of renames was written, as after it (the reader finishes the renames): never a mix.
#[test]
fn an_append_killed_at_any_moment_reads_as_before_or_after() {
    let (root, dirs) = batches();
    let base = root.path().join("base");
    ingest(&dirs[..5], &base, &[]);
    let before = reports(&base);
    let whole = root.path().join("whole");
    ingest(&dirs[..8], &whole, &[]);
    let after = reports(&whole);
    let mut seen = (0, 0);
    for (i, ms) in [5u64, 40, 120, 300, 600].into_iter().enumerate() {
        let dir = root.path().join(format!("k{i}"));
        copy_dir(&base, &dir);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
            .args([
                "ingest", "--room", "any", "--all", "--quiet", "--append", "--out",
            ])
            .args([s(&dir), s(&dirs[5]), s(&dirs[6]), s(&dirs[7])])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let _ = child.kill();
        child.wait().unwrap();
        let now = reports(&dir);
        if now == before {
            seen.0 += 1;
        } else {
            let strip = |r: &[(String, Vec<String>)]| -> Vec<(String, Vec<String>)> {
                r.iter()
                    .map(|(n, l)| {
                        let l = l.iter().filter(|x| !x.contains("haifu_version")).cloned();
                        (n.clone(), l.collect())
                    })
                    .collect()
            };
            assert_eq!(
                strip(&now),
                strip(&after),
                "killed after {ms} ms: neither before nor after"
            );
            seen.1 += 1;
        }
    }
    eprintln!(
        "killed appends: {} read as before, {} as after",
        seen.0, seen.1
    );
}

/// A copy of directory `from` (files and subdirectories) at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}
