//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

use haifu::ingest::{ingest, IngestOptions, IngestSummary, RoomFilter};
use polars::prelude::*;

/// The shared corpus: `$HAIFU_CORPUS` when set (`make mutants` builds copies of the tree
/// elsewhere), else `../shared/corpus` next to the repository.
pub(crate) fn corpus_root() -> PathBuf {
    match std::env::var_os("HAIFU_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    }
}

/// `<corpus>/<sub>` ([`corpus_root`]), if present. When absent, says so loudly on the
/// terminal (bypassing the test harness's capture) and returns None; with
/// `HAIFU_REQUIRE_CORPUS=1` (set by CI) absence is a failure instead.
pub(crate) fn corpus(sub: &str) -> Option<PathBuf> {
    let p = corpus_root().join(sub);
    if p.is_dir() {
        return Some(p);
    }
    if std::env::var("HAIFU_REQUIRE_CORPUS").as_deref() == Ok("1") {
        panic!(
            "corpus {} is absent and HAIFU_REQUIRE_CORPUS=1",
            p.display()
        );
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n*** SKIPPED: corpus {} is absent; this corpus test checks nothing ***\n",
        p.display()
    );
    None
}

/// Runs the `haifu` binary with `args`.
pub(crate) fn haifu(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(args)
        .output()
        .expect("haifu runs")
}

/// The standard output of a run that must succeed (its exit status and stderr otherwise).
pub(crate) fn ok(o: &std::process::Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The three-player fixtures (§24), beside `fixtures/`, which stays four-player.
pub(crate) fn sanma_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures-sanma")
}

/// The rule-edge fixtures f013 and f014 (tools/fixtures/EXPECTED_RULES.md: no ron on an
/// ankan, four winds, four kans by two seats), beside `fixtures/`.
pub(crate) fn rules_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures-rules")
}

/// The first six fixture files (f001-f005, f002 twice), whose hand-worked numbers the
/// version-1 tests assert over the whole set; the version-2 games (f006-f008, misc/) have
/// tests of their own (tools/fixtures/EXPECTED_V2.md).
pub(crate) fn fixture_files_v1() -> Vec<PathBuf> {
    [
        "2099010100gm-00a9-0000-0000f001.xml",
        "2099010200gm-00a9-0000-0000f002.mjlog",
        "2099010200gm-00a9-0000-0000f002.xml",
        "2099010300gm-00a9-0000-0000f003.xml",
        "2099010400gm-00e1-0000-0000f004.xml",
        "2099010500gm-00ab-0000-0000f005.xml",
    ]
    .iter()
    .map(|f| fixtures().join(f))
    .collect()
}

pub(crate) fn run_ingest(inputs: &[PathBuf], out: &Path, room: RoomFilter) -> IngestSummary {
    ingest_with(inputs, out, room, false)
}

/// [`run_ingest`] with every analysis written on request (`--all`) but the decisions and
/// walls.
#[allow(dead_code)]
pub(crate) fn run_ingest_peer(inputs: &[PathBuf], out: &Path, room: RoomFilter) -> IngestSummary {
    ingest_with(inputs, out, room, true)
}

fn ingest_with(inputs: &[PathBuf], out: &Path, room: RoomFilter, peer: bool) -> IngestSummary {
    ingest(&IngestOptions {
        inputs: inputs.to_vec(),
        out: out.to_path_buf(),
        room,
        dates: Default::default(),
        strict: false,
        progress: false,
        observe: haifu::stats::Observe {
            development: peer,
            danger_moments: peer,
            hand_reading: peer,
            hand_reading_moments: peer,
            ..Default::default()
        },
        tsumo_validation: false,
        convert: None,
        append: false,
        shard: None,
    })
    .expect("ingest runs")
}

/// `run_ingest` on a rayon pool of `threads` threads.
pub(crate) fn run_ingest_threads(
    threads: usize,
    inputs: &[PathBuf],
    out: &Path,
    room: RoomFilter,
) -> IngestSummary {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| run_ingest(inputs, out, room))
}

/// The first `n` regular files of `dir` in path order.
pub(crate) fn first_files(dir: &Path, n: usize) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.truncate(n);
    files
}

/// The first `n` Phoenix games of the corpus ingested into a temporary directory; `None`
/// (the corpus test then skips, loudly) when the corpus is absent.
pub(crate) fn ingested_phoenix_games(n: usize) -> Option<tempfile::TempDir> {
    let dir = corpus("phoenix")?;
    let out = tempfile::tempdir().unwrap();
    run_ingest(&first_files(&dir, n), out.path(), RoomFilter::Phoenix);
    Some(out)
}

/// Frame `name` of `dir`, in either layout: `name.parquet`, or the parts `name/part-*.parquet`
/// in order (docs/frames.md).
pub(crate) fn frame(dir: &Path, name: &str) -> DataFrame {
    let read = |p: &Path| {
        ParquetReader::new(std::fs::File::open(p).unwrap())
            .finish()
            .unwrap()
    };
    let single = dir.join(format!("{name}.parquet"));
    if single.exists() {
        return read(&single);
    }
    let mut parts: Vec<_> = std::fs::read_dir(dir.join(name))
        .unwrap_or_else(|_| panic!("{} has no frame {name}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("part-")
        })
        .collect();
    parts.sort();
    let mut it = parts.iter();
    let mut df = read(it.next().expect("a part"));
    for p in it {
        df.vstack_mut(&read(p)).unwrap();
    }
    df
}

pub(crate) fn sum_i64(df: &DataFrame, col: &str) -> i64 {
    df.column(col)
        .unwrap()
        .as_materialized_series()
        .cast(&DataType::Int64)
        .unwrap()
        .i64()
        .unwrap()
        .sum()
        .unwrap_or(0)
}

/// The `danger_eval` and `danger_calibration` frames an ingest wrote into `dir` (built-in
/// estimators scored game by game, `phoenix-table` at the end) hold exactly what scoring the
/// run's `danger_situations` afresh with the default estimators gives (`haifu danger-eval`).
pub(crate) fn assert_scores_match_standalone(dir: &Path) {
    use haifu::danger::EstimatorName;
    use haifu::report::danger::{evaluate, read_parquet, resolve};
    let estimators = resolve(&EstimatorName::DEFAULT, dir, None).unwrap();
    let situations = read_parquet(&dir.join("danger_situations.parquet")).unwrap();
    let fresh = evaluate(&situations, &estimators).unwrap();
    let key = ["game_id", "hand", "riichi_seat", "moment", "estimator"];
    let sorted = |df: DataFrame| df.sort(key, SortMultipleOptions::default()).unwrap();
    let ingested = sorted(frame(dir, "danger_eval"));
    let fresh_eval = sorted(fresh.eval_frame().unwrap());
    assert!(ingested.height() > 0);
    assert_eq!(ingested.height(), fresh_eval.height());
    assert_eq!(ingested.get_column_names(), fresh_eval.get_column_names());
    for c in ingested.get_column_names() {
        let (a, b) = (ingested.column(c).unwrap(), fresh_eval.column(c).unwrap());
        assert!(
            a.as_materialized_series()
                .equals_missing(b.as_materialized_series()),
            "danger_eval column {c} differs"
        );
    }
    let calibration = fresh.calibration_frame().unwrap();
    assert!(frame(dir, "danger_calibration").equals(&calibration));
    // Exact sums: the means are bit for bit the same however the rows were added.
    let summary = fresh.summary_frame().unwrap();
    assert!(summary.height() > 0);
    assert!(frame(dir, "danger_eval_summary").equals_missing(&summary));
}

/// `haifu ingest INPUTS --room any --out TMP --quiet [extra]` through the binary: the
/// temporary output directory.
pub(crate) fn ingest_cli(inputs: &[PathBuf], extra: &[&str]) -> tempfile::TempDir {
    ingest_cli_exit(inputs, extra, 0)
}

/// [`ingest_cli`] that must exit with `code` (2: some inputs failed).
pub(crate) fn ingest_cli_exit(inputs: &[PathBuf], extra: &[&str], code: i32) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let mut args: Vec<&str> = vec!["ingest"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend([
        "--room",
        "any",
        "--out",
        out.path().to_str().unwrap(),
        "--quiet",
    ]);
    args.extend(extra);
    let o = haifu(&args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// `haifu stats NAME --frames DIR --format json [extra]` through the binary: the report's
/// rows.
pub(crate) fn stats_json(dir: &Path, name: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec![
        "stats",
        name,
        "--frames",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend(extra);
    let text = ok(&haifu(&args));
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}: {text}"));
    v.as_array()
        .unwrap_or_else(|| panic!("{name}: not an array"))
        .clone()
}

/// `haifu COMMAND --frames DIR --engine-cmd CMD --engine-timeout SECS` must fail as an engine
/// failure does: exit 2, nothing on standard output, and an error that says each of `says`.
#[allow(dead_code)]
pub(crate) fn engine_fails(command: &str, dir: &str, cmd: &str, timeout: &str, says: &[&str]) {
    let o = haifu(&[
        command,
        "--frames",
        dir,
        "--engine-cmd",
        cmd,
        "--engine-timeout",
        timeout,
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
    assert!(o.stdout.is_empty(), "{cmd}: no report");
    for s in says {
        assert!(err.contains(s), "{cmd}: {err} lacks {s:?}");
    }
}

/// The request lines `haifu hand-reading --engine-cmd` sends for every moment of the frames in
/// `dir`, as an engine that copies its input and never answers sees them (haifu then times out:
/// exit 2, no report).
#[allow(dead_code)]
pub(crate) fn moment_requests(dir: &Path) -> Vec<String> {
    let dump = dir.join("requests.jsonl");
    let o = haifu(&[
        "hand-reading",
        "--frames",
        dir.to_str().unwrap(),
        "--engine-cmd",
        &format!("cat > {}", dump.display()),
        "--engine-timeout",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let lines = std::fs::read_to_string(&dump).unwrap();
    lines.lines().map(str::to_string).collect()
}

/// Checks that `method`'s rows of a `hand-reading` report (JSON rows) equal the built-in
/// `combo`'s: the same moments in every (seat, turn), the means to 1e-12 (each rounds its
/// density's sums apart); returns how many rows were compared.
#[allow(dead_code)]
pub(crate) fn assert_equals_combo(rows: &[serde_json::Value], method: &str, what: &str) -> usize {
    let mut compared = 0;
    for r in rows.iter().filter(|r| r["method"] == "combo") {
        let mine = rows
            .iter()
            .find(|o| o["method"] == method && o["seat"] == r["seat"] && o["turn"] == r["turn"])
            .unwrap_or_else(|| panic!("{what}: no row for {r}"));
        assert_eq!(mine["moments"], r["moments"], "{what}: {r}");
        for m in ["rmse", "cross_entropy"] {
            let (a, b) = (mine[m].as_f64().unwrap(), r[m].as_f64().unwrap());
            assert!((a - b).abs() < 1e-12, "{what} {m}: {a} vs {b} at {r}");
        }
        compared += 1;
    }
    compared
}

/// Example `name` (cargo builds the examples with the tests, next to the binary).
#[allow(dead_code)]
pub(crate) fn example(name: &str) -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_haifu"));
    let path = bin.parent().unwrap().join("examples").join(name);
    assert!(path.exists(), "{} (cargo test builds it)", path.display());
    path
}

/// The game in `path`, decoded and proved by the replay (panics otherwise).
#[allow(dead_code)]
pub(crate) fn proved_log(path: &Path) -> haifu::mjlog::GameLog {
    let (mut raw, mut out) = (Vec::new(), Vec::new());
    let bytes = haifu::input::read_log(path, &mut raw, &mut out).unwrap();
    let log = haifu::mjlog::decode(bytes).unwrap();
    haifu::stats::observe_game(&log, &mut Vec::new()).expect("the game replays");
    log
}
