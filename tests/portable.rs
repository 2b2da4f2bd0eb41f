//! `haifu query --print`: a report's SQL with the views another engine needs (docs/scale.md).
//! What the printed views hold is checked here; that DuckDB gives haifu's numbers from them is
//! `tests/engines/check_duckdb.py` (run by `make test`).

mod common;

use common::{fixtures, haifu, ingest_cli, ok, sanma_fixtures};

fn printed(args: &[&str]) -> String {
    let mut a = vec!["query", "--print"];
    a.extend(args);
    ok(&haifu(&a))
}

/// A report over frames of four-player games alone: a view per frame it reads over its file,
/// `params` when the SQL reads it, then the bundled SQL itself, unchanged; Spark reads the
/// same files through `parquet.` paths.
#[test]
fn views_then_the_report() {
    let out = ingest_cli(&[fixtures()], &["--with=development"]);
    let dir = out.path().to_str().unwrap();
    let p = printed(&["summary", "--frames", dir]);
    assert!(
        p.contains(&format!(
            "CREATE OR REPLACE TEMP VIEW hands AS SELECT * FROM read_parquet('{dir}/hands.parquet');"
        )),
        "{p}"
    );
    assert!(
        p.contains(
            "CREATE OR REPLACE TEMP VIEW params AS SELECT COUNT(*) AS hands, 4 AS seats, 4 AS players FROM hands;"
        ),
        "{p}"
    );
    // Only the frames the report reads.
    assert!(!p.contains("VIEW wait_danger"), "{p}");
    let sql = std::fs::read_to_string("queries/summary.sql").unwrap();
    assert!(p.ends_with(&format!("{};\n", sql.trim_end())), "{p}");
    let s = printed(&["summary", "--frames", dir, "--dialect", "spark"]);
    assert!(
        s.contains(&format!(
            "CREATE OR REPLACE TEMPORARY VIEW hands AS SELECT * FROM parquet.`{dir}/hands.parquet`;"
        )),
        "{s}"
    );
    // A §1 split is the shared query under its filter; --seat restricts riichi_response and
    // counts one seat in params.
    let r = printed(&["riichi-response-by-shanten", "--frames", dir, "--seat", "0"]);
    assert!(r.contains(") AS report WHERE split = 'shanten';"), "{r}");
    assert!(r.contains("AS f WHERE seat = 0;"), "{r}");
    // The kinds and yaku tables as literal rows.
    let y = printed(&["yaku", "--frames", dir]);
    assert!(
        y.contains("SELECT 1 AS id, 'riichi' AS yaku, '立直' AS name"),
        "{y}"
    );
    let k = printed(&["winning-tiles", "--frames", dir]);
    assert!(
        k.contains("SELECT '1m' AS kind, 1 AS pos, 'm' AS suit, 1 AS number"),
        "{k}"
    );
}

/// Frames that hold both tables: every view keeps the selected table's games (per-game frames
/// by game id, run-wide frames by their `players` column); a slice adds its condition; the
/// §4 scores, which a slice re-scores inside haifu, are refused with a slice.
#[test]
fn tables_and_slices() {
    let out = ingest_cli(&[fixtures(), sanma_fixtures()], &[]);
    let dir = out.path().to_str().unwrap();
    let p = printed(&["wait-danger", "--frames", dir, "--players", "3"]);
    assert!(p.contains("AS g WHERE players = 3);"), "{p}");
    let t = printed(&["summary", "--frames", dir, "--players", "3"]);
    assert!(t.contains("3 AS seats, 3 AS players FROM hands"), "{t}");
    let d = printed(&["draw-rate", "--frames", dir]);
    assert!(d.contains("AS f WHERE players = 4;"), "{d}");
    let s = printed(&[
        "summary",
        "--frames",
        dir,
        "--where",
        "date >= '2099-01-01'",
    ]);
    assert!(
        s.contains("WHERE players = 4 AND (date >= '2099-01-01'));"),
        "{s}"
    );
    let refused = haifu(&[
        "query",
        "--print",
        "danger-eval",
        "--frames",
        dir,
        "--where",
        "fold = 0",
    ]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("re-scores inside haifu"), "{err}");
}
