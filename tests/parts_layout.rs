//! A frames directory in parts (`DIR/<name>/part-NNNNN.parquet`, the layout an append writes)
//! reads the same as the one-file layout `haifu ingest` writes: the fixtures ingested with
//! every frame, copied with every frame moved into parts (the larger frames split over three,
//! `danger_eval`'s `phoenix-table` rows in `danger_eval/phoenix-table.parquet` after them),
//! and every command that reads frames run on both, their outputs byte for byte the same (the
//! directory's own path written as `DIR`). Also: `haifu danger-eval` and `haifu run` replace a
//! frame in parts with one file, leaving no part to be read twice. The fixtures only: no
//! corpus is needed.

mod common;

use std::path::{Path, PathBuf};

use common::{example, fixtures, haifu, ingest_cli, sanma_fixtures};
use polars::prelude::*;

/// Frames with more rows than this are split over three parts.
const SPLIT_ROWS: usize = 2;

/// The estimator whose rows an ingest appends at the end of `danger_eval`.
const PHOENIX: &str = "phoenix-table";

/// Writes `df` to `path` (polars' defaults).
fn write(path: &Path, df: &DataFrame) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    ParquetWriter::new(std::fs::File::create(path).unwrap())
        .finish(&mut df.clone())
        .unwrap();
}

/// `df` split at a third and two thirds (one piece when it has few rows).
fn pieces(df: &DataFrame) -> Vec<DataFrame> {
    let n = df.height();
    if n <= SPLIT_ROWS {
        return vec![df.clone()];
    }
    let cuts = [0, n / 3, 2 * n / 3, n];
    cuts.windows(2)
        .map(|w| df.slice(w[0] as i64, w[1] - w[0]))
        .collect()
}

/// A copy of the frames directory `from` with every frame in parts; the names of the frames
/// split over more than one part.
fn into_parts(from: &Path) -> (tempfile::TempDir, Vec<String>) {
    let to = tempfile::tempdir().unwrap();
    let mut split = Vec::new();
    for e in std::fs::read_dir(from).unwrap() {
        let path = e.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(name) = file.strip_suffix(".parquet") else {
            if path.is_file() {
                std::fs::copy(&path, to.path().join(&file)).unwrap();
            }
            continue;
        };
        let df = ParquetReader::new(std::fs::File::open(&path).unwrap())
            .finish()
            .unwrap();
        let mut rows = df.clone();
        if name == "danger_eval" {
            let phoenix = df
                .column("estimator")
                .unwrap()
                .str()
                .unwrap()
                .equal(PHOENIX);
            let first = phoenix.iter().position(|p| p == Some(true)).unwrap();
            assert!(
                phoenix.iter().skip(first).all(|p| p == Some(true)),
                "{PHOENIX}'s rows are danger_eval's last"
            );
            rows = df.slice(0, first);
            let tail = df.slice(first as i64, df.height() - first);
            write(
                &to.path().join(name).join(format!("{PHOENIX}.parquet")),
                &tail,
            );
        }
        let pieces = pieces(&rows);
        if pieces.len() > 1 {
            split.push(name.to_string());
        }
        for (k, piece) in pieces.iter().enumerate() {
            write(
                &to.path().join(name).join(format!("part-{k:05}.parquet")),
                piece,
            );
        }
    }
    assert!(
        !to.path().join("games.parquet").exists() && to.path().join("games").is_dir(),
        "every frame moved"
    );
    (to, split)
}

/// A command's exit status, standard output and standard error with `dir` written as `DIR`.
fn outcome(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let o = haifu(args);
    let d = dir.to_str().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).replace(d, "DIR");
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

/// The files in `out` (name, contents with `dir` written as `DIR`), by name.
fn written(out: &Path, dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap())
                .replace(dir.to_str().unwrap(), "DIR");
            (p.file_name().unwrap().to_str().unwrap().to_string(), text)
        })
        .collect();
    files.sort();
    files
}

/// Runs `command` (`{}` standing for the frames directory, `{out}` for a fresh output
/// directory) on both directories; asserts the same exit status, outputs and files written.
/// Returns the plain directory's exit status, standard output and number of files written,
/// for checks that it ran.
fn same(plain: &Path, parts: &Path, command: &[&str]) -> (Option<i32>, String, usize) {
    let run = |dir: &Path| {
        let out = tempfile::tempdir().unwrap();
        let args: Vec<String> = command
            .iter()
            .map(|a| {
                a.replace("{out}", out.path().to_str().unwrap())
                    .replace("{}", dir.to_str().unwrap())
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = outcome(&args, dir);
        let stderr = stderr.replace(out.path().to_str().unwrap(), "OUT");
        let files = written(out.path(), dir);
        (code, stdout, stderr, files)
    };
    let (a, b) = (run(plain), run(parts));
    assert_eq!(
        a.0, b.0,
        "{command:?}: exit status; stderr {} / {}",
        a.2, b.2
    );
    assert_eq!(a.1, b.1, "{command:?}: stdout");
    assert_eq!(a.2, b.2, "{command:?}: stderr");
    assert_eq!(a.3, b.3, "{command:?}: files written");
    (a.0, a.1, a.3.len())
}

/// [`same`] for a command that must succeed with something on standard output.
fn same_ok(plain: &Path, parts: &Path, command: &[&str]) {
    let (code, stdout, _) = same(plain, parts, command);
    assert_eq!(code, Some(0), "{command:?}");
    assert!(!stdout.trim().is_empty(), "{command:?}: no output");
}

/// A danger table over every category, weights all different.
fn user_table(dir: &Path) -> PathBuf {
    let mut text = String::from("category,weight\n");
    for (i, c) in haifu::danger::Category::ALL.iter().enumerate() {
        let w = if c.is_genbutsu() { 0 } else { i + 1 };
        text.push_str(&format!("{},{w}\n", c.name()));
    }
    let path = dir.join("table.csv");
    std::fs::write(&path, text).unwrap();
    path
}

const WHERE: &str = "game_id LIKE '%f003' OR game_id LIKE '%f008' OR game_id LIKE '%f010'";

#[test]
fn every_command_reads_parts_as_one_file() {
    let plain_dir = ingest_cli(&[fixtures()], &["--all"]);
    let (parts_dir, split) = into_parts(plain_dir.path());
    for big in [
        "games",
        "hands",
        "danger_situations",
        "danger_eval",
        "wait_danger",
        "tenpai_draws",
        "decisions",
        "hand_reading_moments",
        "danger_moments",
        "draw_rate",
    ] {
        assert!(
            split.contains(&big.to_string()),
            "{big} in parts: {split:?}"
        );
    }
    let (plain, parts) = (plain_dir.path(), parts_dir.path());
    let scratch = tempfile::tempdir().unwrap();
    let table = user_table(scratch.path());
    let table = table.to_str().unwrap();

    // Every bundled report, whole and on a slice (the §4 ones scored on it; those of the
    // pooled draw_rate refused alike), and a seat.
    let mut sliced = 0;
    for r in haifu::report::REPORTS {
        let stats = ["stats", r.name, "--frames", "{}", "--format", "csv"];
        same_ok(plain, parts, &stats);
        let (code, _, _) = same(plain, parts, &[&stats[..], &["--where", WHERE]].concat());
        sliced += usize::from(code == Some(0));
    }
    assert!(sliced + 5 > haifu::report::REPORTS.len(), "{sliced} sliced");
    same_ok(
        plain,
        parts,
        &[
            "stats",
            "riichi-response",
            "--frames",
            "{}",
            "--seat",
            "1",
            "--format",
            "json",
        ],
    );
    for sql in [
        "SELECT * FROM danger_eval",
        "SELECT * FROM games",
        "SELECT game_id, hand, COUNT(*) AS n FROM decisions GROUP BY game_id, hand \
         ORDER BY game_id, hand",
    ] {
        same_ok(
            plain,
            parts,
            &["query", "--frames", "{}", sql, "--format", "csv"],
        );
    }
    same_ok(
        plain,
        parts,
        &[
            "query",
            "--frames",
            "{}",
            "SELECT * FROM hands",
            "--where",
            WHERE,
            "--format",
            "csv",
        ],
    );

    // Parameter files and their validation (§8, §17-§20, §22).
    for what in ["tsumo-rate", "tenpai-rate", "win-rate", "placement"] {
        let params = ["params", what, "--frames", "{}", "--out", "{out}/p.json"];
        for extra in [&[][..], &["--fold", "1"]] {
            let (code, _, files) = same(plain, parts, &[&params[..], extra].concat());
            assert!(
                code == Some(0) && files >= 2,
                "{what} {extra:?}: {code:?}, {files}"
            );
        }
    }
    same_ok(
        plain,
        parts,
        &["params", "validate", "--frames", "{}", "--format", "csv"],
    );
    for t in ["tenpai-rate", "win-rate", "placement", "ron-share"] {
        same_ok(
            plain,
            parts,
            &[
                "params", "validate", "--frames", "{}", "--table", t, "--format", "csv",
            ],
        );
    }

    // §15, §16 and §7 over their frames, with the example engines (the `hands` and `games`
    // frames read in step) and limits.
    let reading = example("hand_reading_engine");
    let reading = format!("ex={}", reading.display());
    let ukeire = example("max_ukeire_engine");
    let ukeire = format!("ex={}", ukeire.display());
    let every = example("every_decision_engine");
    let every = format!("ex={}", every.display());
    for extra in [
        &[][..],
        &["--limit", "40"],
        &["--engine-cmd", &reading],
        &["--where", WHERE],
    ] {
        let mut args = vec!["hand-reading", "--frames", "{}", "--format", "csv"];
        args.extend(extra);
        same_ok(plain, parts, &args);
    }
    for extra in [
        &[][..],
        &["--limit", "50"],
        &["--engine-cmd", &ukeire],
        &["--where", WHERE],
        &["--every-decision"],
        &["--every-decision", "--engine-cmd", &every, "--where", WHERE],
    ] {
        let mut args = vec!["agree", "--frames", "{}", "--format", "csv"];
        args.extend(extra);
        same_ok(plain, parts, &args);
    }
    for extra in [&[][..], &["--table", table]] {
        let mut args = vec![
            "danger-eval",
            "--frames",
            "{}",
            "--by-turn",
            "--format",
            "csv",
        ];
        args.extend(extra);
        same_ok(plain, parts, &args);
    }

    // Two corpora, and two slices of one.
    same_ok(
        plain,
        parts,
        &[
            "compare", "--frames", "{}", "--frames", "{}", "--format", "json",
        ],
    );
    same_ok(
        plain,
        parts,
        &[
            "compare",
            "--frames",
            "{}",
            "--where-a",
            WHERE,
            "--where-b",
            &format!("NOT ({WHERE})"),
            "--format",
            "csv",
        ],
    );

    // An mjai bot's review reads the games again and the slice's games.
    let bot = example("tsumogiri_bot");
    same_ok(
        plain,
        parts,
        &[
            "review",
            "--frames",
            "{}",
            "--mjai",
            bot.to_str().unwrap(),
            "--out",
            "{out}",
            "--quiet",
            "--where",
            WHERE,
            "--format",
            "csv",
        ],
    );

    // `danger-eval` rewrites the §4 frames: on a slice into scratch, the frames left alone;
    // whole, each as one file, the parts of `danger_eval` gone, and read back the same.
    let eval = ["danger-eval", "--frames", "{}", "--format", "csv"];
    same_ok(plain, parts, &[&eval[..], &["--where", WHERE]].concat());
    assert!(!parts.join("danger_eval.parquet").exists() && parts.join("danger_eval").is_dir());
    same_ok(plain, parts, &[&eval[..], &["--table", table]].concat());
    for f in ["danger_eval", "danger_calibration", "danger_eval_summary"] {
        assert!(parts.join(format!("{f}.parquet")).is_file(), "{f}");
        assert!(!parts.join(f).exists(), "{f}'s parts removed");
    }
    for r in [
        "danger-eval",
        "danger-calibration",
        "danger-eval-by-situation",
    ] {
        same_ok(
            plain,
            parts,
            &["stats", r, "--frames", "{}", "--format", "csv"],
        );
    }
}

/// `haifu run` into a directory whose frames are in parts replaces them with its one files
/// (no part left to be read twice), and its reports equal a run into an empty directory.
#[test]
fn run_replaces_frames_in_parts() {
    let plain_dir = ingest_cli(&[fixtures()], &["--with", "decisions"]);
    let (parts_dir, _) = into_parts(plain_dir.path());
    let fresh = tempfile::tempdir().unwrap();
    let run = |out: &Path| {
        let (code, stdout, stderr) = outcome(
            &[
                "run",
                fixtures().to_str().unwrap(),
                "--room",
                "any",
                "--quiet",
                "--format",
                "csv",
                "--out",
                out.to_str().unwrap(),
            ],
            out,
        );
        assert_eq!(code, Some(0), "{stderr}");
        stdout
    };
    assert_eq!(run(fresh.path()), run(parts_dir.path()));
    let leftovers: Vec<PathBuf> = std::fs::read_dir(parts_dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "reports"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert!(!parts_dir.path().join("decisions.parquet").exists());
    let reports = |d: &Path| written(&d.join("reports"), d);
    assert_eq!(reports(fresh.path()), reports(parts_dir.path()));
}

/// Frames of both tables (§24): the reports restricted to one table's games or rows, and the
/// §8 scoring of one table's draws, read the same from parts.
#[test]
fn both_tables_read_from_parts() {
    let plain_dir = ingest_cli(&[fixtures(), sanma_fixtures()], &[]);
    let (parts_dir, _) = into_parts(plain_dir.path());
    let (plain, parts) = (plain_dir.path(), parts_dir.path());
    for players in ["3", "4"] {
        let table = ["--frames", "{}", "--players", players];
        for command in [
            &["stats", "summary"][..],
            &["stats", "wait-danger"],
            &["stats", "draw-rate"],
            &["stats", "danger-eval"],
            &["params", "validate"],
            &["danger-eval"],
        ] {
            same_ok(
                plain,
                parts,
                &[command, &table, &["--format", "csv"]].concat(),
            );
        }
        let tsumo_rate = [
            &["params", "tsumo-rate"][..],
            &table,
            &["--out", "{out}/t.json"],
        ];
        let (code, _, files) = same(plain, parts, &tsumo_rate.concat());
        assert!(code == Some(0) && files == 2, "{code:?} {files}");
    }
}
