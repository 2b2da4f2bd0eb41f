//! The bundled SQL reports, each checked against numbers derived directly from its frame by
//! plain Rust in this file (not by SQL): on the fixtures, where the derived totals are also
//! tied to the hand-worked ones of tests/fixture_stats.rs, and on 300 Phoenix games.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{fixture_files_v1, fixtures, frame, run_ingest};
use haifu::ingest::RoomFilter;
use polars::prelude::*;

fn report(dir: &Path, name: &str) -> DataFrame {
    let mut ctx = haifu::report::context(dir, None).unwrap();
    let r = haifu::report::find(name).unwrap();
    haifu::report::run(&mut ctx, r.sql, r.filter).unwrap()
}

fn strs(df: &DataFrame, name: &str) -> Vec<Option<String>> {
    let c = df.column(name).unwrap().str().unwrap().clone();
    c.iter().map(|s| s.map(str::to_string)).collect()
}

fn ints(df: &DataFrame, name: &str) -> Vec<i64> {
    let s = df.column(name).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().map(|v| v.unwrap()).collect()
}

fn floats(df: &DataFrame, name: &str) -> Vec<Option<f64>> {
    let s = df.column(name).unwrap().cast(&DataType::Float64).unwrap();
    s.f64().unwrap().iter().collect()
}

fn bools(df: &DataFrame, name: &str) -> Vec<bool> {
    let c = df.column(name).unwrap().bool().unwrap().clone();
    c.iter().map(|v| v.unwrap()).collect()
}

fn close(got: Option<f64>, want: Option<f64>, what: &str) {
    match (got, want) {
        (Some(g), Some(w)) => assert!(
            (g - w).abs() <= 1e-9 * w.abs().max(1.0),
            "{what}: report {g}, frame {w}"
        ),
        (None, None) => {}
        _ => panic!("{what}: report {got:?}, frame {want:?}"),
    }
}

/// (units, Σ income, Σ income²) of a group of §1 units.
#[derive(Default, Clone, Copy)]
struct Incomes {
    units: i64,
    sum: f64,
    squares: f64,
}

impl Incomes {
    fn add(&mut self, x: f64) {
        self.units += 1;
        self.sum += x;
        self.squares += x * x;
    }

    fn mean(&self) -> f64 {
        self.sum / self.units as f64
    }

    /// Sample standard deviation, None for a single unit.
    fn sd(&self) -> Option<f64> {
        (self.units > 1).then(|| {
            let n = self.units as f64;
            ((self.squares - self.sum * self.sum / n) / (n - 1.0))
                .max(0.0)
                .sqrt()
        })
    }
}

/// The value label of a §1 unit (by row) under one split.
type SplitKey<'a> = Box<dyn Fn(usize) -> String + 'a>;

/// The four §1 split reports against the `riichi_response` frame. Returns, per split, the
/// (units, Σ income) of each outcome summed over the split's values.
fn check_riichi_splits(dir: &Path) -> BTreeMap<(String, String), (i64, f64)> {
    let rr = frame(dir, "riichi_response");
    let (outcome, income) = (strs(&rr, "outcome"), ints(&rr, "income"));
    let (shanten, turn) = (ints(&rr, "shanten"), ints(&rr, "riichi_turn"));
    let (seat_dealer, riichi_dealer) =
        (bools(&rr, "seat_is_dealer"), bools(&rr, "riichi_is_dealer"));
    let dealer = |d: bool| if d { "dealer" } else { "non-dealer" }.to_string();
    let splits: [(&str, &str, SplitKey); 4] = [
        (
            "riichi-response-by-shanten",
            "shanten",
            Box::new(|i| match shanten[i] {
                s if s >= 3 => "3+".to_string(),
                s => s.to_string(),
            }),
        ),
        (
            "riichi-response-by-seat-dealer",
            "seat_dealer",
            Box::new(|i| dealer(seat_dealer[i])),
        ),
        (
            "riichi-response-by-riichi-dealer",
            "riichi_dealer",
            Box::new(|i| dealer(riichi_dealer[i])),
        ),
        (
            "riichi-response-by-riichi-turn",
            "riichi_turn",
            Box::new(|i| match turn[i] {
                t if t <= 6 => "1-6".to_string(),
                t if t <= 12 => "7-12".to_string(),
                _ => "13+".to_string(),
            }),
        ),
    ];
    let mut totals = BTreeMap::new();
    for (name, split, key) in &splits {
        let mut cells: BTreeMap<(String, String), Incomes> = BTreeMap::new();
        for i in 0..rr.height() {
            let o = outcome[i].clone().unwrap();
            for o in [o, "all".to_string()] {
                cells.entry((key(i), o)).or_default().add(income[i] as f64);
            }
        }
        let df = report(dir, name);
        assert_eq!(
            df.height(),
            cells.len(),
            "{name}: one row per (value, outcome)"
        );
        let (values, outcomes, units) =
            (strs(&df, "value"), strs(&df, "outcome"), ints(&df, "units"));
        let (share, mean) = (floats(&df, "share"), floats(&df, "mean_income"));
        let mean_lo = floats(&df, "mean_income_lo");
        for r in 0..df.height() {
            assert_eq!(strs(&df, "split")[r].as_deref(), Some(*split));
            let k = (values[r].clone().unwrap(), outcomes[r].clone().unwrap());
            let c = cells[&k];
            let n = cells[&(k.0.clone(), "all".to_string())].units;
            assert_eq!(units[r], c.units, "{name} {k:?}");
            close(
                share[r],
                Some(c.units as f64 / n as f64),
                &format!("{name} {k:?} share"),
            );
            close(mean[r], Some(c.mean()), &format!("{name} {k:?} mean"));
            let lo = c
                .sd()
                .map(|sd| c.mean() - 1.96 * sd / (c.units as f64).sqrt());
            close(mean_lo[r], lo, &format!("{name} {k:?} mean_lo"));
            if k.1 != "all" {
                let t = totals.entry((split.to_string(), k.1)).or_insert((0, 0.0));
                t.0 += c.units;
                t.1 += c.sum;
            }
        }
    }
    totals
}

/// The wait-danger report against the `wait_danger` frame. Returns (units, waits) overall.
fn check_wait_danger(dir: &Path) -> (i64, i64) {
    let wd = frame(dir, "wait_danger");
    let (category, shape, is_wait) = (
        strs(&wd, "category"),
        strs(&wd, "wait_shape"),
        bools(&wd, "is_wait"),
    );
    const SHAPES: [&str; 5] = ["tanki", "shanpon", "kanchan", "penchan", "ryanmen"];
    // Per category: units, waits, then one count per shape.
    let mut per: BTreeMap<String, [i64; 7]> = BTreeMap::new();
    for i in 0..wd.height() {
        let c = per.entry(category[i].clone().unwrap()).or_default();
        c[0] += 1;
        c[1] += is_wait[i] as i64;
        if let Some(s) = &shape[i] {
            c[2 + SHAPES.iter().position(|x| x == s).unwrap()] += 1;
        }
    }
    let group = |c: &str| {
        if c.starts_with("honor") {
            "honor".to_string()
        } else {
            c.split('-').next().unwrap().to_string()
        }
    };
    let mut want: BTreeMap<(String, String), [i64; 7]> = BTreeMap::new();
    for (c, counts) in &per {
        want.insert(("category".into(), c.clone()), *counts);
        let mut levels = vec!["incl_genbutsu"];
        if !c.ends_with("genbutsu") {
            levels.push("excl_genbutsu");
        }
        for level in levels {
            let g = want.entry((level.into(), group(c))).or_default();
            for (a, b) in g.iter_mut().zip(counts) {
                *a += b;
            }
        }
    }
    let df = report(dir, "wait-danger");
    assert_eq!(df.height(), want.len());
    let (pattern, level) = (strs(&df, "pattern"), strs(&df, "level"));
    let mut cols = vec![ints(&df, "units"), ints(&df, "waits")];
    cols.extend(SHAPES.iter().map(|s| ints(&df, s)));
    let rate = floats(&df, "rate");
    for r in 0..df.height() {
        let k = (level[r].clone().unwrap(), pattern[r].clone().unwrap());
        let w = want[&k];
        for (j, col) in cols.iter().enumerate() {
            assert_eq!(col[r], w[j], "wait-danger {k:?} column {j}");
        }
        close(
            rate[r],
            Some(w[1] as f64 / w[0] as f64),
            &format!("{k:?} rate"),
        );
    }
    let all: [i64; 2] = per.values().fold([0, 0], |a, c| [a[0] + c[0], a[1] + c[1]]);
    (all[0], all[1])
}

/// The danger-eval and danger-eval-by-situation reports (both read `danger_eval_summary`)
/// against means computed here from the `danger_eval` frame's rows.
fn check_danger_eval_reports(dir: &Path) {
    let de = frame(dir, "danger_eval");
    let (moment, estimator) = (strs(&de, "moment"), strs(&de, "estimator"));
    let (turn, dealer) = (ints(&de, "riichi_turn"), bools(&de, "riichi_is_dealer"));
    let metrics = ["rmse", "cross_entropy", "auc", "brier"].map(|m| floats(&de, m));
    let mut groups: BTreeMap<[String; 4], (i64, [f64; 4])> = BTreeMap::new();
    for i in 0..de.height() {
        let bucket = match turn[i] {
            t if t <= 6 => "1-6",
            t if t <= 12 => "7-12",
            _ => "13+",
        };
        let seat = if dealer[i] { "dealer" } else { "non-dealer" };
        let (m, e) = (moment[i].clone().unwrap(), estimator[i].clone().unwrap());
        // Each row counts in its slice and in its (moment, estimator) total.
        for key in [
            [m.clone(), e.clone(), bucket.to_string(), seat.to_string()],
            [m, e, "all".to_string(), "all".to_string()],
        ] {
            let g = groups.entry(key).or_insert((0, [0.0; 4]));
            g.0 += 1;
            for (s, m) in g.1.iter_mut().zip(&metrics) {
                *s += m[i].unwrap();
            }
        }
    }
    let check = |df: &DataFrame, whole: bool| {
        let n = ints(df, "situations");
        let got = ["rmse", "cross_entropy", "auc", "brier"].map(|m| floats(df, m));
        let (m, e) = (strs(df, "moment"), strs(df, "estimator"));
        let slices = (!whole).then(|| (strs(df, "riichi_turn"), strs(df, "riichi_seat")));
        for r in 0..df.height() {
            let (t, s) = match &slices {
                Some((t, s)) => (t[r].clone().unwrap(), s[r].clone().unwrap()),
                None => ("all".to_string(), "all".to_string()),
            };
            let key = [m[r].clone().unwrap(), e[r].clone().unwrap(), t, s];
            let (count, sums) = groups[&key];
            assert_eq!(n[r], count, "{key:?}");
            for j in 0..4 {
                close(
                    got[j][r],
                    Some(sums[j] / count as f64),
                    &format!("{key:?} metric {j}"),
                );
            }
        }
    };
    let whole = report(dir, "danger-eval");
    let sliced = report(dir, "danger-eval-by-situation");
    assert!(whole.height() > 0 && sliced.height() > 0);
    // Every (moment, estimator) once, every slice with rows once.
    let totals = groups.keys().filter(|k| k[2] == "all").count();
    assert_eq!(whole.height(), totals);
    assert_eq!(sliced.height(), groups.len() - totals);
    check(&whole, true);
    check(&sliced, false);
}

#[test]
fn reports_match_their_frames_on_the_fixtures() {
    let out = tempfile::tempdir().unwrap();
    run_ingest(&fixture_files_v1(), out.path(), RoomFilter::Any);
    // Hand-worked in tests/fixture_stats.rs (riichi_response_whole_run_outcomes): win 2 units
    // +7200, deal_in 6 −81100, tsumo_other 12 −23000, ron_other 13 0, draw 9 −6000; every
    // split partitions the same 42 units.
    let totals = check_riichi_splits(out.path());
    for split in ["shanten", "seat_dealer", "riichi_dealer", "riichi_turn"] {
        for (outcome, units, income) in [
            ("win", 2, 7200.0),
            ("deal_in", 6, -81100.0),
            ("tsumo_other", 12, -23000.0),
            ("ron_other", 13, 0.0),
            ("draw", 9, -6000.0),
        ] {
            let got = totals[&(split.to_string(), outcome.to_string())];
            assert_eq!(got, (units, income), "{split} {outcome}");
        }
    }
    // Hand-worked in tests/fixture_stats.rs (wait_danger_rows): 17 declarations × 34 kinds,
    // 35 wait units.
    assert_eq!(check_wait_danger(out.path()), (578, 35));
    check_danger_eval_reports(out.path());
}

#[test]
fn reports_match_their_frames_on_phoenix_games() {
    let Some(out) = common::ingested_phoenix_games(300) else {
        return;
    };
    let totals = check_riichi_splits(out.path());
    let units: i64 = totals
        .iter()
        .filter(|(k, _)| k.0 == "shanten")
        .map(|(_, v)| v.0)
        .sum();
    assert_eq!(
        units as usize,
        frame(out.path(), "riichi_response").height()
    );
    let (units, waits) = check_wait_danger(out.path());
    assert!(units > 0 && waits > 0);
    check_danger_eval_reports(out.path());
}

/// `haifu run` builds its parameter file from the reports it has just written; it must be
/// byte for byte the file `haifu params` builds from the same frames, its §8 report the one
/// `haifu params validate` prints, and every report file must equal the report run on its own.
#[test]
fn run_writes_the_same_files_as_stats_and_params() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let haifu = |args: &[&std::ffi::OsStr]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_haifu"))
            .args(args)
            .output()
            .expect("haifu runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };
    haifu(&[
        "run".as_ref(),
        fixtures().as_os_str(),
        "--room".as_ref(),
        "any".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    let params = tmp.path().join("tsumo_rate.json");
    haifu(&[
        "params".as_ref(),
        "tsumo-rate".as_ref(),
        "--frames".as_ref(),
        out.as_os_str(),
        "--out".as_ref(),
        params.as_os_str(),
    ]);
    let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let reports = out.join("reports");
    assert_eq!(read(&params), read(&reports.join("tsumo_rate.json")));
    assert_eq!(
        read(&params.with_extension("csv")),
        read(&reports.join("tsumo_rate.csv"))
    );
    // The §8 report of the run is `params validate` on the same frames.
    let validate = haifu(&[
        "params".as_ref(),
        "validate".as_ref(),
        "--frames".as_ref(),
        out.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    assert_eq!(validate.stdout, read(&reports.join("tsumo_validation.csv")));
    // The §7 report needs the frame of `ingest --with decisions` (tests/agree.rs): a run without
    // it writes no such file.
    for rep in haifu::report::REPORTS.iter().filter(|r| r.on_request()) {
        assert!(
            !reports.join(format!("{}.csv", rep.name)).exists(),
            "{}",
            rep.name
        );
    }
    for rep in haifu::report::REPORTS.iter().filter(|r| !r.on_request()) {
        let alone = haifu(&[
            "stats".as_ref(),
            rep.name.as_ref(),
            "--frames".as_ref(),
            out.as_os_str(),
            "--format".as_ref(),
            "csv".as_ref(),
        ]);
        assert_eq!(
            alone.stdout,
            read(&reports.join(format!("{}.csv", rep.name))),
            "{}",
            rep.name
        );
    }
}
