//! The readers of other formats against the mjlog of the same game: every frame equal, for
//! every column the format fills ([`haifu::formats::UNFILLED`], the README's table).
//!
//! - The fixtures, written by `haifu convert` as mjai and tenhou.net/6 and read back (round
//!   trips; no corpus needed).
//! - The corpus's conversions by other projects' converters
//!   (`../shared/corpus/formats/{golden,tenhou6,mjai,majiang}`) against `../shared/corpus/phoenix`.
//! - The first 200 Phoenix games through `haifu convert` and back.
//! - Every sample of `../shared/corpus/formats/samples` ingests or is refused with its reason.

mod common;

use std::path::{Path, PathBuf};

use haifu::formats::{Filled, UNFILLED};
use haifu::mjlog::Format;
use polars::prelude::*;

/// Every on-request frame too, the §23 decisions included (the walls are left out: not every
/// format records a seed).
const ALL_FRAMES: &[&str] =
    &["--with=development,danger-moments,hand-reading-moments,decisions,choices"];

fn ingest(inputs: &[PathBuf]) -> tempfile::TempDir {
    common::ingest_cli(inputs, ALL_FRAMES)
}

/// An ingest with every frame in which some inputs fail (exit 2): the output directory.
fn ingest_failing(inputs: &[PathBuf]) -> tempfile::TempDir {
    common::ingest_cli_exit(inputs, ALL_FRAMES, 2)
}

fn frames(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".parquet").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

fn matches(pattern: &str, column: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => column.starts_with(prefix),
        None => pattern == column,
    }
}

/// The frames of `other` (games read from `format`) equal those of `mjlog` for every column
/// the format fills; returns the rows compared.
fn assert_equal_frames(mjlog: &Path, other: &Path, format: Format) -> usize {
    let mut rows = 0;
    let names = frames(mjlog);
    assert!(names.len() >= 20, "{names:?}");
    assert_eq!(names, frames(other));
    for name in &names {
        let unfilled: Vec<(&str, Filled)> = UNFILLED
            .iter()
            .filter(|(f, frame, _, _)| *f == format && frame == name)
            .map(|&(_, _, c, filled)| (c, filled))
            .collect();
        let (a, b) = (common::frame(mjlog, name), common::frame(other, name));
        if unfilled.iter().any(|(c, _)| *c == "*") {
            assert!(
                b.height() == 0 && a.height() > 0,
                "{name}: {format:?} has no rows"
            );
            continue;
        }
        assert_eq!(a.height(), b.height(), "{name}: rows");
        let mut keep: Vec<Column> = Vec::new();
        let mut theirs: Vec<Column> = Vec::new();
        for col in a.columns() {
            let c = col.name().as_str();
            if *name == "games" && (c == "source" || c == "format") {
                continue;
            }
            let rule = unfilled
                .iter()
                .find(|(p, _)| matches(p, c))
                .map(|&(_, f)| f);
            let ours = b
                .column(c)
                .unwrap_or_else(|_| panic!("{name}.{c} missing"))
                .clone();
            match rule {
                Some(Filled::Never) => {
                    assert_eq!(
                        ours.null_count(),
                        ours.len(),
                        "{name}.{c}: {format:?} fills it"
                    );
                    continue;
                }
                Some(Filled::Partly(_)) => {
                    // Compared where the format fills it; each frame is sorted the same way
                    // by its other columns first.
                    keep.push(col.clone());
                    theirs.push(ours);
                }
                None => {
                    keep.push(col.clone());
                    theirs.push(ours);
                }
            }
        }
        let sort = |cols: Vec<Column>| {
            let df = DataFrame::new_infer_height(cols).unwrap();
            let by: Vec<PlSmallStr> = df.get_column_names().into_iter().cloned().collect();
            df.sort(by, SortMultipleOptions::default().with_nulls_last(true))
                .unwrap()
        };
        let partly: Vec<&str> = unfilled
            .iter()
            .filter(|(_, f)| matches!(f, Filled::Partly(_)))
            .map(|(c, _)| *c)
            .collect();
        // Sort by the fully filled columns only, so that a null where the mjlog has a value
        // does not move the row.
        let full: Vec<Column> = keep
            .iter()
            .filter(|c| !partly.contains(&c.name().as_str()))
            .cloned()
            .collect();
        let full_b: Vec<Column> = theirs
            .iter()
            .filter(|c| !partly.contains(&c.name().as_str()))
            .cloned()
            .collect();
        let (sa, sb) = (sort(full.clone()), sort(full_b.clone()));
        for c in sa.get_column_names() {
            let (x, y) = (sa.column(c).unwrap(), sb.column(c).unwrap());
            assert!(
                x.as_materialized_series()
                    .equals_missing(y.as_materialized_series()),
                "{name}.{c}: {format:?} differs from the mjlog\n{x:?}\n{y:?}"
            );
        }
        if !partly.is_empty() {
            // The partly filled columns, compared row by row after the same sort.
            let order = |cols: Vec<Column>, all: Vec<Column>| {
                let df = DataFrame::new_infer_height(all).unwrap();
                let by: Vec<PlSmallStr> = cols.iter().map(|c| c.name().clone()).collect();
                df.sort(by, SortMultipleOptions::default().with_maintain_order(true))
                    .unwrap()
            };
            let (oa, ob) = (order(full, keep), order(full_b, theirs));
            for c in &partly {
                let (x, y) = (oa.column(c).unwrap(), ob.column(c).unwrap());
                let filled = y.is_not_null();
                let (x, y) = (x.filter(&filled).unwrap(), y.filter(&filled).unwrap());
                assert!(
                    x.as_materialized_series()
                        .equals_missing(y.as_materialized_series()),
                    "{name}.{c}: {format:?} differs where it fills it"
                );
            }
        }
        rows += a.height();
    }
    rows
}

/// The Phoenix file of each game of `dir` (named by its log id).
fn mjlog_counterparts(dir: &Path, phoenix: &Path, other: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let id = haifu::input::find_log_id(&name).expect("named by a log id");
        let found = [phoenix, other].iter().find_map(|d| {
            ["mjlog", "xml"]
                .iter()
                .map(|ext| d.join(format!("{id}.{ext}")))
                .find(|p| p.exists())
        });
        out.push(found.unwrap_or_else(|| panic!("no mjlog for {id}")));
    }
    out.sort();
    out
}

/// `haifu convert INPUTS --to TO`: the output directory, and the games it wrote (its
/// `manifest.json` left out).
fn convert(inputs: &[PathBuf], to: &str) -> (tempfile::TempDir, Vec<PathBuf>) {
    let out = tempfile::tempdir().unwrap();
    let mut args: Vec<&str> = vec!["convert"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--to", to, "--out", out.path().to_str().unwrap(), "--quiet"]);
    common::ok(&common::haifu(&args));
    let mut files: Vec<PathBuf> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with("manifest.json"))
        .collect();
    files.sort();
    (out, files)
}

/// The fixture games (every fixture but the folder of bad inputs), the three-player ones of
/// `fixtures-sanma/` and the rule edges of `fixtures-rules/` (four winds, four kans: mjai
/// names neither draw) included.
fn fixture_games() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        common::fixtures(),
        common::sanma_fixtures(),
        common::rules_fixtures(),
    ]
    .iter()
    .flat_map(|d| std::fs::read_dir(d).unwrap())
    .map(|e| e.unwrap().path())
    .filter(|p| p.is_file())
    .collect();
    files.sort();
    files
}

fn games(dir: &Path) -> usize {
    common::frame(dir, "games").height()
}

/// mjlog → `haifu convert` → ingest: the fixtures' frames again, for every column each
/// format records (the fixtures are named by log ids, so the rules come back from the id).
#[test]
fn fixtures_round_trip_through_mjai_and_tenhou6() {
    let fixtures = fixture_games();
    let mjlog = ingest(&fixtures);
    let n = games(mjlog.path());
    assert!(n >= 9, "{n} fixture games");
    for (to, format) in [("mjai", Format::Mjai), ("tenhou6", Format::Tenhou6)] {
        let (dir, converted) = convert(&fixtures, to);
        let read = ingest(&converted);
        assert_eq!(games(read.path()), n, "{to}");
        // The folder as it is ingests too (exit 0): its manifest.json is skipped, and listed.
        let folder = ingest(&[dir.path().to_path_buf()]);
        assert_eq!(games(folder.path()), n, "{to}");
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(folder.path().join("manifest.json")).unwrap())
                .unwrap();
        assert_eq!(
            manifest["skips_by_reason"],
            serde_json::json!({"haifu-output": 1}),
            "{to}"
        );
        let rows = assert_equal_frames(mjlog.path(), read.path(), format);
        assert!(rows > 10_000, "{to}: {rows} rows compared");
        // A report that reads what mjai does not record says so, on standard error, of the
        // table it reports (the four-player games, by default: the fixtures hold both).
        let frames = read.path().to_str().unwrap();
        let four = common::frame(read.path(), "games")
            .column("players")
            .unwrap()
            .i32()
            .unwrap()
            .equal(4)
            .sum()
            .unwrap();
        assert!(
            four > 0 && four < n as u32,
            "{four} four-player games of {n}"
        );
        let o = common::haifu(&["stats", "yaku", "--frames", frames, "--format", "csv"]);
        let note = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success());
        if format == Format::Mjai {
            assert!(
                note.contains(&format!("note: {four} games read from mjai record no "))
                    && note.contains("win_yaku rows"),
                "{note}"
            );
        } else {
            assert!(!note.contains("note:"), "{note}");
        }
    }
}

/// The corpus's conversions by other converters against the Phoenix logs: Tenhou's own
/// tenhou.net/6 (golden), mjlog2json's, mjai-reviewer's mjai, tenhou-log's majiang.
#[test]
fn corpus_conversions_equal_the_mjlog() {
    let (Some(formats), Some(phoenix), Some(other)) = (
        common::corpus("formats"),
        common::corpus("phoenix"),
        common::corpus("other"),
    ) else {
        return;
    };
    for (folder, format, games_read, least_rows) in [
        ("golden", Format::Tenhou6, 6, 20_000),
        ("tenhou6", Format::Tenhou6, 171, 300_000),
        // mjai-reviewer's converter omits the fourth riichi's reach_accepted of a
        // four-riichi draw (the corpus README), so one game does not replay: the replay finds
        // the riichi stick missing at the next hand.
        ("mjai", Format::Mjai, 170, 300_000),
        ("majiang", Format::Majiang, 180, 300_000),
    ] {
        let dir = formats.join(folder);
        let read = if folder == "mjai" {
            ingest_failing(std::slice::from_ref(&dir))
        } else {
            ingest(std::slice::from_ref(&dir))
        };
        assert_eq!(games(read.path()), games_read, "{folder}");
        let mut counterparts = mjlog_counterparts(&dir, &phoenix, &other);
        if folder == "mjai" {
            let manifest = std::fs::read_to_string(read.path().join("manifest.json")).unwrap();
            assert!(manifest.contains("2018040923gm-00a9-0000-1833afca"));
            assert!(manifest.contains("INIT ten [27300, 23000, 21700, 24000] but the previous hand ended at [27300, 24000, 21700, 24000]"));
            counterparts.retain(|p| {
                !p.to_string_lossy()
                    .contains("2018040923gm-00a9-0000-1833afca")
            });
        }
        let mjlog = ingest(&counterparts);
        let rows = assert_equal_frames(mjlog.path(), read.path(), format);
        assert!(rows > least_rows, "{folder}: {rows} rows compared");
    }
}

/// The first 200 Phoenix games through `haifu convert` and back, in both formats.
#[test]
fn phoenix_round_trips() {
    let Some(phoenix) = common::corpus("phoenix") else {
        return;
    };
    let files = common::first_files(&phoenix, 200);
    let mjlog = ingest(&files);
    for (to, format) in [("mjai", Format::Mjai), ("tenhou6", Format::Tenhou6)] {
        let (_dir, converted) = convert(&files, to);
        let read = ingest(&converted);
        assert_eq!(games(read.path()), games(mjlog.path()), "{to}");
        assert_equal_frames(mjlog.path(), read.path(), format);
    }
}

/// The three-player Phoenix games (§24) through `haifu convert` and back, in both formats:
/// the mjlog's frames, the `kita` frame's included, for every column each format fills; and
/// mjai's final scores, which it does not record, derived equal to the mjlog's `owari`.
#[test]
fn sanma_round_trips() {
    let Some(sanma) = common::corpus("sanma") else {
        return;
    };
    let files = common::first_files(&sanma, usize::MAX);
    assert_eq!(files.len(), 278);
    let mjlog = ingest(&files);
    assert_eq!(games(mjlog.path()), 278);
    let kitas = common::frame(mjlog.path(), "kita").height();
    assert!(kitas > 6000, "{kitas} kitas");
    for (to, format) in [("mjai", Format::Mjai), ("tenhou6", Format::Tenhou6)] {
        let (_dir, converted) = convert(&files, to);
        assert_eq!(converted.len(), 278, "{to}");
        let read = ingest(&converted);
        assert_eq!(games(read.path()), 278, "{to}");
        let rows = assert_equal_frames(mjlog.path(), read.path(), format);
        assert!(rows > 200_000, "{to}: {rows} rows compared");
        let games = common::frame(read.path(), "games");
        let three = games.column("players").unwrap().i32().unwrap().equal(3);
        assert_eq!(three.sum(), Some(278), "{to}");
    }
}

/// A daiminkan whose replacement draw wins, written without the 0 that marks the kan's slot
/// in the caller's discards (no discard follows it): Phoenix game c3bb51be, hand 4, where seat
/// 3 kans 2p at its 19th discard and wins on the replacement draw (嶺上開花). `haifu convert`
/// writes the 0; with it taken out, the game reads as the mjlog does.
#[test]
fn a_daiminkan_won_on_its_replacement_draw_without_its_slot() {
    let Some(phoenix) = common::corpus("phoenix") else {
        return;
    };
    let file = std::fs::read_dir(&phoenix)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.to_string_lossy()
                .contains("2024041517gm-00a9-0000-c3bb51be")
        })
        .expect("the game is in the corpus");
    let mjlog = ingest(std::slice::from_ref(&file));
    let (_dir, converted) = convert(std::slice::from_ref(&file), "tenhou6");
    let mut game: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&converted[0]).unwrap()).unwrap();
    let discards = game["log"][4][6 + 3 * 3].as_array_mut().unwrap();
    assert_eq!(
        discards.pop(),
        Some(serde_json::json!(0)),
        "the kan's slot is last"
    );
    let bare = tempfile::tempdir().unwrap();
    let path = bare.path().join("2024041517gm-00a9-0000-c3bb51be.json");
    std::fs::write(&path, serde_json::to_vec(&game).unwrap()).unwrap();
    let read = ingest(&[path]);
    assert_eq!(games(read.path()), 1);
    assert_equal_frames(mjlog.path(), read.path(), Format::Tenhou6);
}

/// Every sample other projects commit in each format ingests, or is refused with a reason
/// that names the file's problem. The three-player samples (§24): Tenhou's own export and a
/// Mahjong Soul game replay; the other Mahjong Soul game is refused where its export differs
/// from Tenhou's rules (the winner of its last hand, a ron on a kita, is not paid the riichi
/// stick on the table in the deltas, though its final scores have it).
#[test]
fn every_sample_ingests_or_is_refused_with_its_reason() {
    let Some(samples) = common::corpus("formats/samples") else {
        return;
    };
    let out = ingest_failing(std::slice::from_ref(&samples));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("manifest.json")).unwrap())
            .unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for f in manifest["files"].as_array().unwrap() {
        let path = f["path"].as_str().unwrap();
        let rel = path
            .strip_prefix(samples.to_str().unwrap())
            .unwrap()
            .trim_start_matches('/');
        let status = f["status"].as_str().unwrap();
        let reason = f["reason"].as_str().unwrap_or("");
        *seen
            .entry((
                rel.split('#').next().unwrap().to_string(),
                status.to_string(),
                reason.to_string(),
            ))
            .or_insert(0) += 1;
    }
    let expected: &[(&str, &str, &str, usize)] = &[
        ("SOURCES.txt", "failed", "not-mjlog: content is neither gzip, XML nor JSON", 1),
        // An array of paipu: each element is a game of its own, `<path>#<k>` in the manifest.
        ("majiang/majiang-analog_multi.json", "ok", "", 2),
        ("majiang/majiang-analog_single.json", "ok", "", 1),
        ("majiang/majiang-core_test_script.json", "ok", "", 37),
        ("mjai/akochan_haifu_log_sample.json", "ok", "", 1),
        ("mjai/gimite_kuikae.mjson", "failed", "mjai: line 2 (kyoku 1): a hidden tile \"?\" (a log of one player's view cannot be replayed)", 1),
        ("mjai/gimite_test.mjlog.golden.log", "failed", "not-mjlog: content is neither gzip, XML nor JSON", 1),
        ("mjai/gimite_test.mjlog.gz", "ok", "", 1),
        ("mjai/mjai.app_data_base_akadora.log", "failed", "mjai: the log ends before any hand has a result (a fragment of a game)", 1),
        ("mjai/riichienv_126_204_0_mjai.jsonl", "ok", "", 1),
        ("mjai/riichienv_ui_example_before_injection.jsonl", "ok", "", 1),
        ("tenhou6/mahjongsoul/mjai-reviewer_confusing_nakis_7_goldroom_en.json", "ok", "", 1),
        ("tenhou6/mahjongsoul/mjsoul_sanma_chankan.json", "ok", "", 1),
        ("tenhou6/mahjongsoul/mjsoul_sanma_kokushi_peinuki.json", "failed", "replay: hand 3: score-mismatch: AGARI deltas sum to 0, but 1000 was on the table", 1),
        ("tenhou6/sanma/tenhou_sanma_2021010217gm-00b9-0000-3eb2e915.json", "ok", "", 1),
        // A hand-made excerpt: four black 5s besides the red one.
        ("tenhou6/viewer_excerpts/confusing_nakis_2.json", "failed", "tenhou6: log[0]: a fourth black 5s in a game with red fives", 1),
    ];
    for &(file, status, reason, n) in expected {
        let hit: Vec<_> = seen
            .iter()
            .filter(|((f, s, r), _)| f == file && s == status && r.starts_with(reason))
            .collect();
        assert_eq!(
            hit.iter().map(|(_, &k)| k).sum::<usize>(),
            n,
            "{file}: {status} {reason}: {seen:#?}"
        );
    }
    // The viewer excerpts (edge cases: chankan, double ron, four riichi, nine terminals, a
    // draw, four kans, double kakan then chankan) all replay.
    let excerpts = seen
        .iter()
        .filter(|((f, s, _), _)| f.starts_with("tenhou6/viewer_excerpts/") && s == "ok")
        .count();
    assert_eq!(excerpts, 8, "{seen:#?}");
    let total: usize = seen.values().sum();

    // 24 files, the two arrays' 39 paipu an entry each.
    assert_eq!(total, 24 - 2 + 39, "every input accounted for: {seen:#?}");
}

/// docs/formats.md's table names every entry of `UNFILLED`: a row of its format that names
/// the frame and the column.
#[test]
fn docs_table_lists_what_each_format_leaves_null() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"))
            .unwrap();
    for &(format, frame, column, _) in UNFILLED {
        let head = format!("| {} |", format.name());
        let column = column.replace('*', "\\*");
        let found = readme.lines().any(|l| {
            l.starts_with(&head) && l.contains(frame) && (column == "\\*" || l.contains(&column))
        });
        assert!(
            found,
            "docs/formats.md: no row for {} {frame}.{column}",
            format.name()
        );
    }
}
