//! docs/definitions.md §4 danger situations on the hand-written fixtures (tools/fixtures/README.md,
//! exact event order in tools/fixtures/games.py and the fixture XML itself).
//!
//! Every expected value below was worked out by hand from the fixture logs, not read back from
//! haifu. Hand indices are the frames' 0-based ones: README "Hand 2" of f001 is `hand` 1 here.
//! Kind order of the 34-digit strings: 1m..9m, 1p..9p, 1s..9s, 1z..7z.
//!
//! Situations covered:
//! - A: f001 hand 1 — seat 0 declares an ankan of 9p (DORA 1z before the rinshan draw), then
//!   riichis on its second discard; it later tsumos, so the hand's last draw (its winning 6m)
//!   comes after the declaration: rows `declaration` and `last_draw`.
//! - B: f002 hand 0 — seat 2's declaration tile 3s is ronned: the last draw record of the hand
//!   (seat 2's own 9s) comes BEFORE the declaration, so there is no `last_draw` row.
//! - C: f003 hand 1 — four riichi in a row: only seat 0's (the first) declaration is a situation.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixtures, frame, run_ingest};
use haifu::danger::{raw_weights, DangerView, Estimator, EstimatorName};
use haifu::frames::parse_kind_digits;
use haifu::ingest::RoomFilter;
use haifu::report::danger::{evaluate, resolve};
use polars::prelude::*;

const F001: &str = "2099010100gm-00a9-0000-0000f001";
const F002: &str = "2099010200gm-00a9-0000-0000f002";
const F003: &str = "2099010300gm-00a9-0000-0000f003";

/// Kind index of `1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `1z`..`7z` (written here, independent of
/// haifu's own tile module).
fn kind(name: &str) -> usize {
    let b = name.as_bytes();
    assert_eq!(b.len(), 2, "kind name {name}");
    let n = (b[0] - b'0') as usize;
    let suit = match b[1] {
        b'm' => 0,
        b'p' => 1,
        b's' => 2,
        b'z' => 3,
        _ => panic!("kind name {name}"),
    };
    assert!(
        (1..=9).contains(&n) && (suit < 3 || n <= 7),
        "kind name {name}"
    );
    suit * 9 + n - 1
}

/// The 34-digit string with the given per-kind values, 0 elsewhere.
fn digits(values: &[(&str, u8)]) -> String {
    let mut d = [0u8; 34];
    for &(k, v) in values {
        assert_eq!(d[kind(k)], 0, "{k} given twice");
        d[kind(k)] = v;
    }
    d.iter().map(|v| char::from(b'0' + v)).collect()
}

/// The 34-digit 0/1 string of a set of kinds.
fn set(kinds: &[&str]) -> String {
    let v: Vec<(&str, u8)> = kinds.iter().map(|&k| (k, 1)).collect();
    digits(&v)
}

/// One row of the `danger_situations` frame.
#[derive(Clone, Debug)]
struct Situation {
    game_id: String,
    hand: i64,
    riichi_seat: i64,
    observer_seat: i64,
    moment: String,
    riichi_turn: i64,
    riichi_is_dealer: bool,
    excluded: Option<String>,
    visible: String,
    observer_holds: String,
    genbutsu: String,
    waits: String,
}

impl Situation {
    fn digit(field: &str, k: &str) -> u8 {
        field.as_bytes()[kind(k)] - b'0'
    }
    fn visible_of(&self, k: &str) -> u8 {
        Self::digit(&self.visible, k)
    }
    fn holds_of(&self, k: &str) -> u8 {
        Self::digit(&self.observer_holds, k)
    }
}

fn str_col(df: &DataFrame, name: &str) -> Vec<Option<String>> {
    df.column(name)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|s| s.map(str::to_string))
        .collect()
}

fn int_col(df: &DataFrame, name: &str) -> Vec<i64> {
    let s = df
        .column(name)
        .unwrap()
        .as_materialized_series()
        .cast(&DataType::Int64)
        .unwrap();
    s.i64().unwrap().iter().map(|v| v.unwrap()).collect()
}

fn f64_col(df: &DataFrame, name: &str) -> Vec<f64> {
    df.column(name)
        .unwrap()
        .f64()
        .unwrap()
        .iter()
        .map(|v| v.unwrap())
        .collect()
}

fn situations(dir: &Path) -> Vec<Situation> {
    let df = frame(dir, "danger_situations");
    let (game_id, moment, excluded) = (
        str_col(&df, "game_id"),
        str_col(&df, "moment"),
        str_col(&df, "excluded"),
    );
    let (visible, holds, genbutsu, waits) = (
        str_col(&df, "visible"),
        str_col(&df, "observer_holds"),
        str_col(&df, "genbutsu"),
        str_col(&df, "waits"),
    );
    let (hand, riichi_seat, observer_seat, riichi_turn) = (
        int_col(&df, "hand"),
        int_col(&df, "riichi_seat"),
        int_col(&df, "observer_seat"),
        int_col(&df, "riichi_turn"),
    );
    let dealer: Vec<bool> = df
        .column("riichi_is_dealer")
        .unwrap()
        .bool()
        .unwrap()
        .iter()
        .map(|v| v.unwrap())
        .collect();
    (0..df.height())
        .map(|i| Situation {
            game_id: game_id[i].clone().unwrap(),
            hand: hand[i],
            riichi_seat: riichi_seat[i],
            observer_seat: observer_seat[i],
            moment: moment[i].clone().unwrap(),
            riichi_turn: riichi_turn[i],
            riichi_is_dealer: dealer[i],
            excluded: excluded[i].clone(),
            visible: visible[i].clone().unwrap(),
            observer_holds: holds[i].clone().unwrap(),
            genbutsu: genbutsu[i].clone().unwrap(),
            waits: waits[i].clone().unwrap(),
        })
        .collect()
}

/// Every row of one hand, in frame order.
fn hand_rows(all: &[Situation], game: &str, hand: i64) -> Vec<Situation> {
    all.iter()
        .filter(|s| s.game_id == game && s.hand == hand)
        .cloned()
        .collect()
}

fn ingest_fixtures() -> (tempfile::TempDir, Vec<Situation>) {
    let dir = tempfile::tempdir().unwrap();
    let summary = run_ingest(&[fixtures()], dir.path(), RoomFilter::Any);
    assert_eq!(summary.manifest.totals.failed, 0);
    let rows = situations(dir.path());
    (dir, rows)
}

fn moments(rows: &[Situation]) -> Vec<&str> {
    rows.iter().map(|s| s.moment.as_str()).collect()
}

/// Situation A — f001 hand 1 (East 2, dealer seat 1), seat 0's riichi after an ankan.
///
/// Deal (ids → kinds): seat 0 23478m 999p 40556s; seat 1 13579m 2468p 1357s; INIT dora
/// indicator 3s (83). Events up to the declaration:
///   s1 T4m D4m · s2 T1m D1m · s3 T5p D5p · BYE ·
///   s0 T9p(71) → ankan 9999p, DORA 1z(108), rinshan T2z D2z ·
///   s1 T7s D7s · s2 T7m D7m · s3 T8p D8p · UN ·
///   s0 T2m(6) REACH D2m(6)   ← declaration, seat 0's discard #2.
/// R = 0, O = 1, riichi_turn 2 (discards 2z, 2m), dealer is seat 1 → riichi_is_dealer false.
/// R's concealed hand: 234m 78m 40556s (456s + 55s) + ankan 9p → waits 6m 9m.
///
/// After the declaration: s1 T7z D7z · s2 T4m D4m · s3 T4p D4p · s0 T4s D4s · s1 T1s D1s ·
/// s2 T4m D4m · s3 T2m D2m · s0 T6m(20) → tsumo. The last draw record (s0's 6m) comes after
/// the declaration, so there is a `last_draw` row; 6m is in R's hand, not visible.
#[test]
fn ankan_riichi_f001_hand1() {
    let (_dir, all) = ingest_fixtures();
    let rows = hand_rows(&all, F001, 1);
    assert_eq!(moments(&rows), ["declaration", "last_draw"], "{rows:#?}");
    for s in &rows {
        assert_eq!((s.riichi_seat, s.observer_seat), (0, 1));
        assert_eq!(s.riichi_turn, 2);
        assert!(!s.riichi_is_dealer);
        // Waits 6m, 9m at both moments (R's waits at declaration).
        assert_eq!(s.waits, set(&["6m", "9m"]));
        // Neither wait is genbutsu and both have a positive combo weight (6m: r 4, a 3;
        // 9m: r 3, O holds one, a 3 → pair part 3): included at both moments.
        assert_eq!(s.excluded, None);
        // O (seat 1) drew and threw 4m, 7s before and 7z, 1s after the declaration: its hand
        // is its deal, 13579m 2468p 1357s, at both moments.
        assert_eq!(
            s.observer_holds,
            set(&["1m", "3m", "5m", "7m", "9m", "2p", "4p", "6p", "8p", "1s", "3s", "5s", "7s"])
        );
    }
    let (decl, last) = (&rows[0], &rows[1]);

    // (a) declaration. Visible: indicators 3s, 1z (the ankan's, shown before its rinshan draw);
    // rivers s0 2z 2m, s1 4m 7s, s2 1m 7m, s3 5p 8p; the ankan's four 9p.
    assert_eq!(
        decl.visible,
        digits(&[
            ("1m", 1),
            ("2m", 1),
            ("4m", 1),
            ("7m", 1),
            ("5p", 1),
            ("8p", 1),
            ("9p", 4),
            ("3s", 1),
            ("7s", 1),
            ("1z", 1),
            ("2z", 1),
        ])
    );
    assert_eq!(decl.visible_of("9p"), 4);
    assert_eq!(decl.visible_of("1z"), 1);
    assert_eq!(decl.visible_of("6m"), 0);
    assert_eq!(decl.holds_of("9m"), 1);
    assert_eq!(decl.holds_of("6m"), 0);
    // Genbutsu = R's river: 2z, 2m.
    assert_eq!(decl.genbutsu, set(&["2m", "2z"]));

    // (b) last draw (s0's 6m). Since the declaration: discards 7z 4m 4p 4s 1s 4m 2m.
    assert_eq!(
        last.visible,
        digits(&[
            ("1m", 1),
            ("2m", 2),
            ("4m", 3),
            ("7m", 1),
            ("4p", 1),
            ("5p", 1),
            ("8p", 1),
            ("9p", 4),
            ("1s", 1),
            ("3s", 1),
            ("4s", 1),
            ("7s", 1),
            ("1z", 1),
            ("2z", 1),
            ("7z", 1),
        ])
    );
    assert_eq!(last.visible_of("4m"), 3);
    assert_eq!(last.visible_of("6m"), 0);
    assert_eq!(last.holds_of("1s"), 1);
    // Genbutsu = {2m, 2z} ∪ {7z, 4m, 4p, 4s, 1s, 2m}.
    assert_eq!(
        last.genbutsu,
        set(&["2m", "4m", "4p", "1s", "4s", "2z", "7z"])
    );
}

/// Situation B — f002 hand 0 (East 1, dealer seat 0): seat 2's declaration tile is ronned.
///
/// Deal: seat 2 123m 789p 34569s 11z; seat 3 234m 22067p 45678s; indicator 4m (12).
/// Events: s0 T6m D6m · s1 T8s D8s · s2 T6p D6p · s3 T8s D8s · s0 T1m D1m · s1 T4m D4m ·
/// s2 T2s D2s · s3 T5s D5s · s0 T7z D7z · s1 T4z D4z · s2 T9s REACH D3s → seat 3 rons.
/// R = 2 (discard #3 → turn 3, not dealer), O = 3. R: 123m 789p 456s 99s 11z → waits 9s 1z.
/// The hand's last draw record (s2's 9s) precedes the declaration: no `last_draw` row.
#[test]
fn ronned_declaration_f002_hand0_has_no_last_draw() {
    let (_dir, all) = ingest_fixtures();
    let rows = hand_rows(&all, F002, 0);
    assert_eq!(moments(&rows), ["declaration"], "{rows:#?}");
    let s = &rows[0];
    assert_eq!((s.riichi_seat, s.observer_seat), (2, 3));
    assert_eq!(s.riichi_turn, 3);
    assert!(!s.riichi_is_dealer);
    assert_eq!(s.waits, set(&["9s", "1z"]));
    // Visible: indicator 4m; rivers s0 6m 1m 7z, s1 8s 4m 4z, s2 6p 2s 3s, s3 8s 5s.
    assert_eq!(
        s.visible,
        digits(&[
            ("1m", 1),
            ("4m", 2),
            ("6m", 1),
            ("6p", 1),
            ("2s", 1),
            ("3s", 1),
            ("5s", 1),
            ("8s", 2),
            ("4z", 1),
            ("7z", 1),
        ])
    );
    // O = seat 3 drew and threw 8s and 5s: still its deal 234m 22067p 45678s (red 5p = 5p).
    assert_eq!(
        s.observer_holds,
        digits(&[
            ("2m", 1),
            ("3m", 1),
            ("4m", 1),
            ("2p", 2),
            ("5p", 1),
            ("6p", 1),
            ("7p", 1),
            ("4s", 1),
            ("5s", 1),
            ("6s", 1),
            ("7s", 1),
            ("8s", 1),
        ])
    );
    assert_eq!(s.holds_of("2p"), 2);
    assert_eq!(s.visible_of("8s"), 2);
    assert_eq!(s.genbutsu, set(&["6p", "2s", "3s"]));
    // 9s: r 4, a 3; 1z: r 4, a 3 → combo > 0; neither genbutsu → included.
    assert_eq!(s.excluded, None);
}

/// Situation C — f003 hand 1 (East 1 honba 1, dealer seat 0): four riichi.
///
/// Deal: seat 0 234567m 345p 88p 67s; seat 1 34m 99m 123p 678p 456s; indicator 7z (135).
/// Events: s0 T8m D8m · s1 T6m D6m · s2 T7p D7p · s3 T6p D6p ·
///   s0 T4m REACH D4m   ← first declaration (R = 0, turn 2, dealer), waits 5s 8s ·
///   s1 T5p REACH D5p · s2 T8m REACH D8m · s3 T6s(94) REACH D6s · RYUUKYOKU reach4.
/// Only seat 0's declaration is a situation (O = 1). The last draw record is s3's 6s, after the
/// declaration; s3's declaration discard comes after it, so it is not in the genbutsu set.
#[test]
fn four_riichi_f003_hand1_only_first_declaration() {
    let (_dir, all) = ingest_fixtures();
    let rows = hand_rows(&all, F003, 1);
    assert_eq!(moments(&rows), ["declaration", "last_draw"], "{rows:#?}");
    let o_hand = digits(&[
        ("3m", 1),
        ("4m", 1),
        ("9m", 2),
        ("1p", 1),
        ("2p", 1),
        ("3p", 1),
        ("6p", 1),
        ("7p", 1),
        ("8p", 1),
        ("4s", 1),
        ("5s", 1),
        ("6s", 1),
    ]);
    for s in &rows {
        assert_eq!((s.riichi_seat, s.observer_seat), (0, 1));
        assert_eq!(s.riichi_turn, 2);
        assert!(s.riichi_is_dealer);
        assert_eq!(s.waits, set(&["5s", "8s"]));
        // 5s: r 3 (O holds one), a 3; 8s: r 4, a 3 → included at both moments.
        assert_eq!(s.excluded, None);
        // O drew 6m and 5p and threw each straight back: its deal at both moments.
        assert_eq!(s.observer_holds, o_hand);
    }
    let (decl, last) = (&rows[0], &rows[1]);
    // Declaration: indicator 7z; rivers s0 8m 4m, s1 6m, s2 7p, s3 6p.
    assert_eq!(
        decl.visible,
        digits(&[
            ("4m", 1),
            ("6m", 1),
            ("8m", 1),
            ("6p", 1),
            ("7p", 1),
            ("7z", 1)
        ])
    );
    assert_eq!(decl.genbutsu, set(&["4m", "8m"]));
    // Last draw (s3's 6s): + s1's 5p and s2's 8m; s3's 6s still in its hand.
    assert_eq!(
        last.visible,
        digits(&[
            ("4m", 1),
            ("6m", 1),
            ("8m", 2),
            ("5p", 1),
            ("6p", 1),
            ("7p", 1),
            ("7z", 1)
        ])
    );
    assert_eq!(last.visible_of("6s"), 0);
    assert_eq!(last.holds_of("9m"), 2);
    assert_eq!(last.genbutsu, set(&["4m", "8m", "5p"]));
}

/// Across all fixtures: at most one situation per hand (one riichi seat), each moment once.
#[test]
fn one_situation_per_hand() {
    let (_dir, all) = ingest_fixtures();
    let mut seen = std::collections::BTreeMap::new();
    for s in &all {
        let seat = seen
            .entry((s.game_id.clone(), s.hand))
            .or_insert(s.riichi_seat);
        assert_eq!(
            *seat, s.riichi_seat,
            "two riichi seats in {} {}",
            s.game_id, s.hand
        );
        assert_eq!(s.observer_seat, (s.riichi_seat + 1) % 4);
    }
    for (game, hand) in seen.keys() {
        let m = moments(&hand_rows(&all, game, *hand))
            .into_iter()
            .map(str::to_string)
            .collect::<Vec<_>>();
        assert!(
            m == ["declaration"] || m == ["declaration", "last_draw"],
            "{game} {hand}: {m:?}"
        );
    }
    // f003 hand 1: no row for the chasing riichi seats 1, 2, 3.
    assert!(all
        .iter()
        .filter(|s| s.game_id == F003 && s.hand == 1)
        .all(|s| s.riichi_seat == 0));
}

/// Raw weights at situation A, `last_draw`, from the frame's digits.
///
/// r(k) = 4 − visible − O's copies (O = seat 1 holds 13579m 2468p 1357s):
///   1m 4−1−1 = 2, 2m 4−2 = 2, 3m 4−0−1 = 3, 4m 4−3 = 1, 5m 4−0−1 = 3, 6m 4, 7m 4−1−1 = 2,
///   8m 4, 9m 4−0−1 = 3; 1z 4−1 = 3.
/// g: 2m 4m 4p 1s 4s 2z 7z.
///
/// 5m: r(5m) 3, O holds one → a = 3; neighbours r3 3, r4 1, r6 4, r7 2; g(2m) yes, g(8m) no.
///   combo   3 + 3 + left (3m,4m) 0 [g(2m)] + middle r4·r6 = 4 + right (6m,7m) r6·r7 = 8 → 18
///   d-old   456: one of 2m/8m genbutsu → 8
///   dennou  3 + left 0 [g(2m)] + middle 3 [min(1,4) > 0] + right 10 [min(4,2) > 0, g(8m) no] → 16
///   d-new   3 + 0 + 3·1·4/16 + 10·4·2/16 = 3 + 0.75 + 5 → 8.75
/// 6m: r 4, O holds none → a = 3; r4 1, r5 3, r7 2, r8 4; g(3m) no, g(9m) no.
///   combo   3 + 3 + r4·r5 = 3 + r5·r7 = 6 + r7·r8 = 8 → 23
///   d-old   neither 3m nor 9m → 12
///   dennou  3 + 10 + 3 + 10 → 26
///   d-new   3 + 10·1·3/16 + 3·3·2/16 + 10·2·4/16 = 3 + 1.875 + 1.125 + 5 → 11
/// 7m: r 2, O holds one → a = 2; r5 3, r6 4, r8 4, r9 3; g(4m) yes (suji); n + 3 > 9.
///   combo   2 + 1 + left 0 [g(4m)] + middle r6·r8 = 16 + right r8·r9 = 12 → 31
///   d-old   37 with 4m genbutsu → 5
///   dennou  3 + 0 + 3 + right penchan (n + 2 = 9) 3 → 9
///   d-new   4/3 + 0 + 3·4·4/16 + 3·4·3/16 = 4/3 + 3 + 2.25 → 79/12
/// 9m: r 3, O holds one → a = 3; r7 2, r8 4; g(6m) no.
///   combo   3 + 3 + left r7·r8 = 8 → 14
///   d-old   19, 6m not genbutsu → 6
///   dennou  3 + left 10 → 13
///   d-new   3 + 10·2·4/16 = 3 + 5 → 8
/// 1z: r 3, O holds none → a = 2.
///   combo 2 + 1 = 3; d-old min(max(2, 0), 3) = 2; dennou 3; d-new 4/3.
/// 4m: genbutsu → 0 under every estimator (none gives 1 elsewhere).
#[test]
fn raw_weights_at_f001_hand1_last_draw() {
    let (_dir, all) = ingest_fixtures();
    let rows = hand_rows(&all, F001, 1);
    let s = rows.iter().find(|s| s.moment == "last_draw").unwrap();
    let visible = parse_kind_digits(&s.visible).unwrap();
    let holds = parse_kind_digits(&s.observer_holds).unwrap();
    let genbutsu = parse_kind_digits(&s.genbutsu).unwrap().map(|d| d != 0);
    let view = DangerView::from_counts(&visible, &holds, &genbutsu);

    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    let kinds = ["5m", "6m", "7m", "9m", "1z", "4m"];
    let expected: [(Estimator, [f64; 6]); 5] = [
        (Estimator::None, [1.0, 1.0, 1.0, 1.0, 1.0, 0.0]),
        (Estimator::Combo, [18.0, 23.0, 31.0, 14.0, 3.0, 0.0]),
        (Estimator::DennouOld, [8.0, 12.0, 5.0, 6.0, 2.0, 0.0]),
        (Estimator::Dennou, [16.0, 26.0, 9.0, 13.0, 3.0, 0.0]),
        (
            Estimator::DennouNew,
            [8.75, 11.0, 79.0 / 12.0, 8.0, 4.0 / 3.0, 0.0],
        ),
    ];
    for (est, want) in &expected {
        let raw = raw_weights(est, &view);
        for (k, w) in kinds.iter().zip(want) {
            assert!(
                close(raw[kind(k)], *w),
                "{} {k}: got {}, want {w}",
                est.name(),
                raw[kind(k)]
            );
        }
    }
}

/// One `eval` row's metrics.
#[derive(Debug)]
struct Metrics {
    rmse: f64,
    cross_entropy: f64,
    auc: f64,
    brier: f64,
    n_waits: i64,
}

fn eval_rows(df: &DataFrame, game: &str, hand: i64, moment: &str, est: &str) -> Vec<Metrics> {
    let (g, m, e) = (
        str_col(df, "game_id"),
        str_col(df, "moment"),
        str_col(df, "estimator"),
    );
    let h = int_col(df, "hand");
    let (rmse, ce, auc, brier) = (
        f64_col(df, "rmse"),
        f64_col(df, "cross_entropy"),
        f64_col(df, "auc"),
        f64_col(df, "brier"),
    );
    let n = int_col(df, "n_waits");
    (0..df.height())
        .filter(|&i| {
            g[i].as_deref() == Some(game)
                && h[i] == hand
                && m[i].as_deref() == Some(moment)
                && e[i].as_deref() == Some(est)
        })
        .map(|i| Metrics {
            rmse: rmse[i],
            cross_entropy: ce[i],
            auc: auc[i],
            brier: brier[i],
            n_waits: n[i],
        })
        .collect()
}

/// Scoring `none` and `combo`. For `none` at situation A the weights are uniform over the
/// non-genbutsu kinds, so the metrics follow by hand (waits 6m 9m, v = ½ on each):
///
/// declaration: genbutsu {2m, 2z} → 32 kinds at w = 1/32, 2 kinds at 0.
///   RMSE² · 34 = 2·(1/2 − 1/32)² + 30·(1/32)² = 450/1024 + 30/1024 = 15/32
///   Brier · 34 = 2·(1 − 1/32)² + 30·(1/32)² = 1922/1024 + 30/1024 = 61/32
///   AUC: each wait vs 32 non-waits: 2 genbutsu (w 0) won, 30 ties → (2 + 15)/32 = 17/32
///   CE (same for both waits) = −ln(1/32) − 31·ln(31/32) = ln 32 + 31·ln(32/31)
/// last_draw: genbutsu {2m 4m 4p 1s 4s 2z 7z} → 27 kinds at w = 1/27, 7 at 0.
///   RMSE² · 34 = 2·(25/54)² + 25·(1/27)² = 1250/2916 + 100/2916 = 25/54
///   Brier · 34 = 2·(26/27)² + 25·(1/27)² = 1352/729 + 25/729 = 17/9
///   AUC: each wait: 7 won + 25 ties → (7 + 12.5)/32 = 39/64
///   CE = ln 27 + 26·ln(27/26)
#[test]
fn scoring_none_and_combo() {
    let (dir, all) = ingest_fixtures();
    let names = [EstimatorName::None, EstimatorName::Combo];
    let estimators = resolve(&names, dir.path(), None).unwrap();
    assert_eq!(estimators, vec![Estimator::None, Estimator::Combo]);
    let situations =
        haifu::report::danger::read_parquet(&dir.path().join("danger_situations.parquet")).unwrap();
    let ev = evaluate(&situations, &estimators).unwrap();
    let df = &ev.eval_frame().unwrap();

    // Each included (situation, moment) once per estimator.
    let included = all.iter().filter(|s| s.excluded.is_none()).count();
    assert_eq!(df.height(), 2 * included);

    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    let check = |moment: &str, rmse: f64, brier: f64, auc: f64, ce: f64| {
        let rows = eval_rows(df, F001, 1, moment, "none");
        assert_eq!(rows.len(), 1, "{moment}: {rows:?}");
        let m = &rows[0];
        assert_eq!(m.n_waits, 2);
        assert!(close(m.rmse, rmse), "{moment} rmse {} vs {rmse}", m.rmse);
        assert!(
            close(m.brier, brier),
            "{moment} brier {} vs {brier}",
            m.brier
        );
        assert!(close(m.auc, auc), "{moment} auc {} vs {auc}", m.auc);
        assert!(
            (m.cross_entropy - ce).abs() < 1e-9,
            "{moment} ce {} vs {ce}",
            m.cross_entropy
        );
    };
    check(
        "declaration",
        (15.0f64 / 32.0 / 34.0).sqrt(),
        61.0 / 32.0 / 34.0,
        17.0 / 32.0,
        32f64.ln() + 31.0 * (32f64 / 31.0).ln(),
    );
    check(
        "last_draw",
        (25.0f64 / 54.0 / 34.0).sqrt(),
        17.0 / 9.0 / 34.0,
        39.0 / 64.0,
        27f64.ln() + 26.0 * (27f64 / 26.0).ln(),
    );

    // combo is scored on the same rows; situation B has a declaration row only.
    for moment in ["declaration", "last_draw"] {
        let rows = eval_rows(df, F001, 1, moment, "combo");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].n_waits, 2);
        assert!(rows[0].auc.is_finite() && rows[0].rmse.is_finite());
    }
    for est in ["none", "combo"] {
        assert_eq!(eval_rows(df, F002, 0, "declaration", est).len(), 1);
        assert_eq!(eval_rows(df, F002, 0, "last_draw", est).len(), 0);
        assert_eq!(eval_rows(df, F003, 1, "last_draw", est).len(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// CLI: `haifu danger-eval --table`.
// ---------------------------------------------------------------------------------------------

/// The 19 category names of docs/definitions.md §6, in order.
const CATEGORIES: [&str; 19] = [
    "honor-0",
    "honor-1",
    "honor-2",
    "honor-3",
    "honor-4",
    "honor-genbutsu",
    "19-musuji",
    "19-suji",
    "19-genbutsu",
    "28-musuji",
    "28-suji",
    "28-genbutsu",
    "37-musuji",
    "37-suji",
    "37-genbutsu",
    "456-musuji",
    "456-katasuji",
    "456-nakasuji",
    "456-genbutsu",
];

fn haifu(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(args)
        .output()
        .expect("haifu runs")
}

fn write_table(dir: &Path, name: &str, rows: &[(&str, &str)]) -> PathBuf {
    let mut text = String::from("category,weight\n");
    for (c, w) in rows {
        text.push_str(&format!("{c},{w}\n"));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn cli_danger_eval_table_validation() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("frames");
    let fx = fixtures();
    let ingest = haifu(&[
        "ingest".as_ref(),
        fx.as_os_str(),
        "--room".as_ref(),
        "any".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
        "--quiet".as_ref(),
    ]);
    assert!(
        ingest.status.success(),
        "ingest: {}",
        String::from_utf8_lossy(&ingest.stderr)
    );
    let eval = |table: &Path| {
        haifu(&[
            "danger-eval".as_ref(),
            "--frames".as_ref(),
            out.as_os_str(),
            "--table".as_ref(),
            table.as_os_str(),
        ])
    };

    // Unknown category name.
    let mut rows: Vec<(&str, &str)> = CATEGORIES.iter().map(|&c| (c, "1")).collect();
    rows.push(("honor-5", "1"));
    let bad = write_table(tmp.path(), "unknown.csv", &rows);
    let o = eval(&bad);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "unknown category accepted");
    assert!(err.contains("honor-5"), "stderr: {err}");

    // One category missing.
    let rows: Vec<(&str, &str)> = CATEGORIES
        .iter()
        .filter(|&&c| c != "456-katasuji")
        .map(|&c| (c, "1"))
        .collect();
    let bad = write_table(tmp.path(), "missing.csv", &rows);
    let o = eval(&bad);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "missing category accepted");
    assert!(err.contains("456-katasuji"), "stderr: {err}");

    // All 19: succeeds and prints a `table` row.
    let weights = [
        "3", "2", "1.5", "1", "0.5", "0", "4", "2", "0", "5", "2.5", "0", "6", "3", "0", "8", "5",
        "2", "0",
    ];
    let rows: Vec<(&str, &str)> = CATEGORIES.iter().copied().zip(weights).collect();
    let good = write_table(tmp.path(), "good.csv", &rows);
    let o = eval(&good);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "good table rejected: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.split_whitespace().next() == Some("table")),
        "no `table` row in:\n{stdout}"
    );
}

/// The ingest scores the built-in estimators game by game and `phoenix-table` once the run is
/// complete; its frames equal a fresh `haifu danger-eval` over the same situations.
#[test]
fn ingest_scores_equal_standalone_scoring() {
    let (dir, _) = ingest_fixtures();
    common::assert_scores_match_standalone(dir.path());
}

/// Scoring the situations a slice at a time (as runs do, [`SITUATION_ROWS`] rows per slice)
/// gives the rows of scoring them whole, in the same order, and the same totals, for slices of
/// one row, of a few rows not dividing the row count, and of more rows than the frame; read
/// from the one file or from the frame split over three files (slices straddling them).
#[test]
fn scoring_a_slice_at_a_time_equals_scoring_whole() {
    use haifu::report::danger::{evaluate_file, read_parquet, SITUATION_ROWS};
    let (dir, all) = ingest_fixtures();
    let path = dir.path().join("danger_situations.parquet");
    let names = [EstimatorName::None, EstimatorName::Combo];
    let estimators = resolve(&names, dir.path(), None).unwrap();
    let situations_df = read_parquet(&path).unwrap();
    let whole = evaluate(&situations_df, &estimators).unwrap();
    let whole_eval = whole.eval_frame().unwrap();
    assert!(
        all.len() > 7 && all.len() % 4 != 0,
        "{} situations",
        all.len()
    );
    let split = tempfile::tempdir().unwrap();
    let n = situations_df.height() as i64;
    let parts: Vec<PathBuf> = [(0, 3), (3, 6), (9, n - 9)]
        .iter()
        .enumerate()
        .map(|(k, &(offset, len))| {
            let part = split.path().join(format!("part-{k:05}.parquet"));
            ParquetWriter::new(std::fs::File::create(&part).unwrap())
                .finish(&mut situations_df.slice(offset, len as usize))
                .unwrap();
            part
        })
        .collect();
    for (files, slice_rows) in [1, 4, 7, SITUATION_ROWS]
        .into_iter()
        .flat_map(|r| [(vec![path.clone()], r), (parts.clone(), r)])
    {
        let mut slices: Vec<DataFrame> = Vec::new();
        let (totals, situations) = evaluate_file(&files, &estimators, 0, slice_rows, |df| {
            slices.push(df.clone().into_dataframe().unwrap());
            Ok(())
        })
        .unwrap();
        assert_eq!(slices.len(), all.len().div_ceil(slice_rows), "{slice_rows}");
        let mut rows = slices.remove(0);
        for s in &slices {
            rows.vstack_mut(s).unwrap();
        }
        for c in whole_eval.get_column_names() {
            let (a, b) = (rows.column(c).unwrap(), whole_eval.column(c).unwrap());
            assert!(
                a.as_materialized_series()
                    .equals_missing(b.as_materialized_series()),
                "slices of {slice_rows}: column {c}:\n{a:?}\n{b:?}"
            );
        }
        assert_eq!(situations, whole.situations);
        assert!(totals
            .summary_frame()
            .unwrap()
            .equals_missing(&whole.totals.summary_frame().unwrap()));
        assert!(totals
            .calibration_frame()
            .unwrap()
            .equals(&whole.totals.calibration_frame().unwrap()));
    }
}
