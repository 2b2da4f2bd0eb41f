//! An ingest writes a per-game frame whose file would pass `frames::PART_ROW_GROUPS` row groups
//! in parts (`DIR/<name>/part-NNNNN.parquet`), so that no report reads one ever-larger file
//! (docs/scale.md, memory). Here the bound is 1 row group (`HAIFU_TEST_PART_ROW_GROUPS`) over
//! the first 1,100 Phoenix games (three batches, so the big frames take three row groups), and
//! the rolled directory (`haifu run`) must read exactly as the one-file directory of the same
//! games: every frame's rows in order, every report, `params validate`, the run-wide files and
//! the run's §8 validation byte for byte, and an append onto each. A plain ingest over a rolled directory leaves no part behind, and a
//! rolled ingest over a one-file directory no one file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{corpus, first_files, frame, haifu, ok};

/// `haifu ingest INPUTS --all --out OUT [extra]`, with the part bound `part` when given.
fn ingest(inputs: &[PathBuf], out: &Path, part: Option<&str>, extra: &[&str]) {
    command("ingest", inputs, out, part, extra);
}

/// `haifu COMMAND INPUTS --all --out OUT [extra]`, with the part bound `part` when given.
fn command(command: &str, inputs: &[PathBuf], out: &Path, part: Option<&str>, extra: &[&str]) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_haifu"));
    cmd.arg(command)
        .args(inputs)
        .args(["--all", "--quiet", "--out"])
        .arg(out)
        .args(extra);
    if let Some(n) = part {
        cmd.env("HAIFU_TEST_PART_ROW_GROUPS", n);
    }
    let o = cmd.output().expect("haifu runs");
    assert!(
        o.status.success(),
        "ingest failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The bundled reports' names (`haifu stats --list`, after its two header lines).
fn reports() -> Vec<String> {
    ok(&haifu(&["stats", "--list"]))
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Every output that reads `dir`'s frames: each report as CSV, and `params validate`.
fn outputs(dir: &Path) -> Vec<(String, String)> {
    let d = dir.to_str().unwrap();
    let mut out: Vec<(String, String)> = reports()
        .into_iter()
        .map(|r| {
            let text = ok(&haifu(&["stats", &r, "--frames", d, "--format", "csv"]));
            (r, text)
        })
        .collect();
    out.push((
        "params validate".into(),
        ok(&haifu(&["params", "validate", "--frames", d])),
    ));
    out
}

/// The frames of `dir` (one-file layout): their names.
fn frame_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.strip_suffix(".parquet").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// The number of parts of frame `name` in `dir` (0 when it is not in parts).
fn parts(dir: &Path, name: &str) -> usize {
    std::fs::read_dir(dir.join(name)).map_or(0, |d| d.count())
}

#[test]
fn frames_rolled_into_parts_read_as_one_file() {
    let Some(phoenix) = corpus("phoenix") else {
        return;
    };
    let all = first_files(&phoenix, 1300);
    let (first, later) = all.split_at(1100);
    let one = tempfile::tempdir().unwrap();
    let rolled = tempfile::tempdir().unwrap();
    // `haifu run`: its §8 validation reads the tenpai_draws files as the ingest finishes.
    command("run", first, one.path(), None, &[]);
    command("run", first, rolled.path(), Some("1"), &[]);

    // The layout: the big frames in three parts and no one file; `danger_eval` (whose one
    // file a join reads without its `phoenix-table` rows) and the run-wide frames one file.
    let names = frame_names(one.path());
    for name in [
        "choices",
        "decisions",
        "discard_units",
        "hand_reading_moments",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} written");
        assert_eq!(parts(rolled.path(), name), 3, "{name} in three parts");
        assert!(!rolled.path().join(format!("{name}.parquet")).exists());
        assert_eq!(parts(one.path(), name), 0, "{name} in one file by default");
    }
    for name in ["danger_eval", "draw_rate", "games"] {
        assert!(rolled.path().join(format!("{name}.parquet")).is_file());
        assert_eq!(parts(rolled.path(), name), 0, "{name} in one file");
    }

    // The same rows in the same order, frame by frame.
    for name in &names {
        let (a, b) = (frame(one.path(), name), frame(rolled.path(), name));
        assert!(a.equals_missing(&b), "frame {name} differs");
    }
    // The run-wide files (phoenix-table scored over every situation file, §8 over every
    // tenpai_draws file) byte for byte.
    for f in [
        "manifest.json",
        "run_totals.json",
        "draw_rate.parquet",
        "danger_eval.parquet",
        "danger_calibration.parquet",
        "danger_eval_summary.parquet",
        "reports/tsumo_validation.json",
        "reports/tsumo_rate.json",
    ] {
        assert_eq!(
            std::fs::read(one.path().join(f)).unwrap(),
            std::fs::read(rolled.path().join(f)).unwrap(),
            "{f} differs"
        );
    }
    let expected = outputs(one.path());
    assert!(expected.len() > 30, "every report was run");
    assert_eq!(outputs(rolled.path()), expected);

    // An append onto either reads the same.
    ingest(later, one.path(), None, &["--append"]);
    ingest(later, rolled.path(), Some("1"), &["--append"]);
    assert_eq!(outputs(rolled.path()), outputs(one.path()));

    // A plain ingest over a rolled directory replaces its parts with one file per frame; a
    // rolled one over a one-file directory replaces the one files.
    ingest(first, rolled.path(), None, &[]);
    ingest(first, one.path(), Some("1"), &[]);
    for name in ["choices", "decisions"] {
        assert_eq!(parts(rolled.path(), name), 0, "{name}: no part left");
        assert!(rolled.path().join(format!("{name}.parquet")).is_file());
        assert!(!one.path().join(format!("{name}.parquet")).exists());
        assert_eq!(parts(one.path(), name), 3);
    }
    assert_eq!(outputs(rolled.path()), outputs(one.path()));
}
