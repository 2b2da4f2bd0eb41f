//! Statistics on the hand-written fixture games (fixtures/, described hand by hand in
//! tools/fixtures/README.md), checked against values worked out BY HAND from that description
//! and from docs/definitions.md. Every expected number below is a literal with its
//! derivation next to it; nothing here recomputes a statistic the way haifu does.
//!
//! Notation: tiles as in the fixture README (`123m`, `0p` = red five, `1z`..`7z` = E S W N
//! haku hatsu chun), tile ids in parentheses, "draw #k" = the k-th T/U/V/W record of a hand,
//! hands 0-based as in the frames (the README's "Hand 1" is hand 0).

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use common::{fixture_files_v1, fixtures, frame, run_ingest, sum_i64};
use haifu::ingest::{IngestSummary, RoomFilter};
use haifu::manifest::Status;
use polars::prelude::*;

const F001: &str = "2099010100gm-00a9-0000-0000f001";
const F002: &str = "2099010200gm-00a9-0000-0000f002";
const F003: &str = "2099010300gm-00a9-0000-0000f003";
const F004: &str = "2099010400gm-00e1-0000-0000f004";
const F005: &str = "2099010500gm-00ab-0000-0000f005";

fn xml(id: &str) -> PathBuf {
    fixtures().join(format!("{id}.xml"))
}

fn ingest(inputs: &[PathBuf]) -> (tempfile::TempDir, IngestSummary) {
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(inputs, out.path(), RoomFilter::Any);
    assert_eq!(s.manifest.totals.failed, 0, "{:?}", s.manifest.files());
    (out, s)
}

fn i32s(df: &DataFrame, name: &str) -> Vec<i32> {
    let c = df.column(name).unwrap().i32().unwrap();
    (0..c.len()).map(|i| c.get(i).unwrap()).collect()
}

fn i64s(df: &DataFrame, name: &str) -> Vec<i64> {
    let c = df.column(name).unwrap().i64().unwrap();
    (0..c.len()).map(|i| c.get(i).unwrap()).collect()
}

fn strs(df: &DataFrame, name: &str) -> Vec<String> {
    let c = df.column(name).unwrap().str().unwrap();
    (0..c.len())
        .map(|i| c.get(i).unwrap().to_string())
        .collect()
}

fn opt_strs(df: &DataFrame, name: &str) -> Vec<Option<String>> {
    let c = df.column(name).unwrap().str().unwrap();
    (0..c.len()).map(|i| c.get(i).map(str::to_string)).collect()
}

fn bools(df: &DataFrame, name: &str) -> Vec<bool> {
    let c = df.column(name).unwrap().bool().unwrap();
    (0..c.len()).map(|i| c.get(i).unwrap()).collect()
}

// ---------------------------------------------------------------------------------------------
// §1 riichi response
// ---------------------------------------------------------------------------------------------

/// One `riichi_response` row.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Unit {
    game: String,
    hand: i32,
    seat: i32,
    riichi_seat: i32,
    outcome: String,
    income: i32,
    shanten: i32,
    seat_is_dealer: bool,
    riichi_is_dealer: bool,
    riichi_turn: i32,
}

#[allow(clippy::too_many_arguments)]
fn unit(
    game: &str,
    hand: i32,
    seat: i32,
    riichi_seat: i32,
    outcome: &str,
    income: i32,
    shanten: i32,
    seat_is_dealer: bool,
    riichi_is_dealer: bool,
    riichi_turn: i32,
) -> Unit {
    Unit {
        game: game.to_string(),
        hand,
        seat,
        riichi_seat,
        outcome: outcome.to_string(),
        income,
        shanten,
        seat_is_dealer,
        riichi_is_dealer,
        riichi_turn,
    }
}

fn units(df: &DataFrame) -> Vec<Unit> {
    let game = strs(df, "game_id");
    let hand = i32s(df, "hand");
    let seat = i32s(df, "seat");
    let riichi_seat = i32s(df, "riichi_seat");
    let outcome = strs(df, "outcome");
    let income = i32s(df, "income");
    let shanten = i32s(df, "shanten");
    let sd = bools(df, "seat_is_dealer");
    let rd = bools(df, "riichi_is_dealer");
    let turn = i32s(df, "riichi_turn");
    let mut v: Vec<Unit> = (0..df.height())
        .map(|i| Unit {
            game: game[i].clone(),
            hand: hand[i],
            seat: seat[i],
            riichi_seat: riichi_seat[i],
            outcome: outcome[i].clone(),
            income: income[i],
            shanten: shanten[i],
            seat_is_dealer: sd[i],
            riichi_is_dealer: rd[i],
            riichi_turn: turn[i],
        })
        .collect();
    v.sort();
    v
}

/// Every §1 unit of f002 and f003, worked out by hand.
///
/// Shanten (§0: min over standard / seven pairs / thirteen orphans of the 13 concealed tiles at
/// the moment of the declaration discard). Standard form written 8 − 2·sets − partial blocks −
/// pair; seven pairs 6 − pairs + max(0, 7 − distinct kinds); kokushi 13 − distinct terminal or
/// honour kinds − (1 if one of them is paired).
#[test]
fn riichi_response_f002_f003_every_unit() {
    let (out, s) = ingest(&[xml(F002), xml(F003)]);
    assert_eq!((s.manifest.totals.games, s.manifest.totals.hands), (2, 8));
    let got = units(&frame(out.path(), "riichi_response"));

    let mut want = vec![
        // ---- f002 hand 0 (East 1, dealer seat 0). Seat 2 declares with 3s (82) on its
        // discard #3 (its river: 6p 2s 3s → riichi_turn 3); seat 3 rons that very tile.
        // No REACH step 2: the riichi is never established, but the declaration counts (§1).
        // Terminal records: one AGARI, ron by seat 3 from seat 2, sc deltas 0, 0, −3900, +3900.
        // Units: seats 0, 1, 3 (none of them had declared); seat 2 is the riichi seat.
        //
        // seat 0: first AGARI is a ron by seat 3 from seat 2; seat 0 neither won nor dealt in
        // → ron_other (横移動), income = its delta 0. Hand at the declaration: the start hand
        // 147m 258p 1234567z (its three draws 6m, 1m, 7z were all thrown straight back).
        // No pair, no two tiles within two of each other: standard 8, seven pairs 6 − 0 +
        // (7 − 13 → 0) = 6, kokushi: 1m 1z 2z 3z 4z 5z 6z 7z = 8 kinds, no pair → 13 − 8 = 5.
        // Shanten 5. Seat 0 is the dealer.
        unit(F002, 0, 0, 2, "ron_other", 0, 5, true, false, 3),
        // seat 1: ron_other, income 0. Hand = start 5689m 1349p 23456z (8s, 4m, 4z thrown
        // back). Standard: 56m, 89m, 34p (or 13p) = 3 partial blocks, no pair → 8 − 3 = 5;
        // seven pairs 6; kokushi 9m 1p 9p 2z 3z 4z 5z 6z = 8 kinds → 5. Shanten 5.
        unit(F002, 0, 1, 2, "ron_other", 0, 5, false, false, 3),
        // seat 3: winner of the first AGARI → win, income = its delta in that AGARI = +3900
        // (seat 3 has no riichi stick). Hand 234m 22067p 45678s (draws 8s, 5s thrown back) is
        // tenpai on 3s-6s-9s → shanten 0.
        unit(F002, 0, 3, 2, "win", 3900, 0, false, false, 3),
        // ---- f002 hand 1 (East 2, dealer seat 1). Seat 1 (dealer) declares with 5p (55)
        // on its discard #2 (river 6p 5p → turn 2); established. Exhaustive draw, sc deltas
        // +1500, +1500, −1500, −1500. Units: seats 0, 2, 3 → outcome draw, income = hand income
        // (none of them has a stick of its own): +1500, −1500, −1500.
        //
        // seat 0: start 1144m 2266p 3377s 5z (drew 7s, threw it back): six pairs + 5z =
        // seven-pairs tenpai → shanten 0.
        unit(F002, 1, 0, 1, "draw", 1500, 0, false, true, 2),
        // seat 2: start 369m 147p 258s 1234z (drew 7m, threw it back): every suited tile three
        // apart from the next → standard 8; seven pairs 6; kokushi 9m 1p 1z 2z 3z 4z = 6 kinds
        // → 7. Shanten 6.
        unit(F002, 1, 2, 1, "draw", -1500, 6, false, true, 2),
        // seat 3: start 58m 3589p 1469s 667z (drew 7p, threw it back). Standard: 35p, 89p, 46s
        // partial blocks + 66z pair → 8 − 3 − 1 = 4; seven pairs 6 − 1 = 5; kokushi 9p 1s 9s
        // 6z 7z = 5 kinds + pair 66z → 13 − 5 − 1 = 7. Shanten 4.
        unit(F002, 1, 3, 1, "draw", -1500, 4, false, true, 2),
        // ---- f002 hand 2 (East 2, dealer seat 1, honba 1, one stick). Seat 0 declares with
        // 7z (132) on its discard #2 (river 1z 7z → turn 2); established. Seat 2's 4p is
        // ronned by seat 3 (first AGARI, sc deltas 0, 0, −1300, +3300) and seat 0 (second
        // AGARI, deltas +3900, 0, −3900, 0): a double ron. Units: seats 1, 2, 3; seat 0 declared
        // first and is not a unit (even though it wins the second AGARI).
        //
        // seat 1 (dealer): first AGARI is a ron from seat 2 → ron_other; income = 0 + 0 = 0.
        // Hand: start 147m 258p 369s 2346z, drew 9s (106) and threw 6z (called by seat 3),
        // drew 5p and threw it → 147m 258p 3699s 234z. Standard: only 99s → 8 − 1 = 7; seven
        // pairs: 1 pair, 12 kinds → 6 − 1 = 5; kokushi 1m 9s 2z 3z 4z = 5 + pair 99s → 7.
        // Shanten 5.
        unit(F002, 2, 1, 0, "ron_other", 0, 5, true, false, 2),
        // seat 2: the discarder of the first AGARI → deal_in; income = hand income, both AGARI
        // summed: −1300 + −3900 = −5200. Hand = start 159m 149p 257s 2577z (drew 1s, threw it
        // back). Standard: 57s + pair 77z → 8 − 1 − 1 = 6; seven pairs 6 − 1 = 5; kokushi 1m 9m
        // 1p 9p 2z 5z 7z = 7 + pair 77z → 5. Shanten 5.
        unit(F002, 2, 2, 0, "deal_in", -5200, 5, false, false, 2),
        // seat 3: winner of the first AGARI → win; income = delta in THAT AGARI only = +3300
        // (1000 + 300 honba + 2000 sticks). Hand: 234m 56p 67899s + pon 666z (tenpai 4p-7p)
        // → shanten 0.
        unit(F002, 2, 3, 0, "win", 3300, 0, false, false, 2),
        // ---- f003 hand 1 (East 1, dealer seat 0, honba 1): four riichi. Seat 0 declares
        // first, with 4m (15) on its discard #2 (river 8m 4m → turn 2); seats 1, 2, 3 each
        // declare afterwards (all established, the fourth's step 2 included), then RYUUKYOKU
        // reach4 with sc deltas all 0. Seats 1, 2, 3 had NOT declared when seat 0 did, so they
        // are units of seat 0's declaration (chasers stay units); seat 0 is not a unit.
        // Outcome draw; income = hand income 0 − 1000 for each seat's own established stick.
        // Every seat was dealt tenpai and its first discard was the tile it had just drawn,
        // so at seat 0's declaration: seat 1 3499m 123678p 456s (waits 25m), seat 2
        // 23567p 123789s 11z (waits 14p), seat 3 456m 67899p 234s 55z (waits 9p 5z) →
        // shanten 0 each.
        unit(F003, 1, 1, 0, "draw", -1000, 0, false, true, 2),
        unit(F003, 1, 2, 0, "draw", -1000, 0, false, true, 2),
        unit(F003, 1, 3, 0, "draw", -1000, 0, false, true, 2),
        // ---- f003 hand 2 (dealer seat 0, honba 2, four sticks). Seat 0 declares with 5p (55)
        // on its discard #2 (river 1z 5p → turn 2) and later tsumos: sc deltas +9500, −1500,
        // −1500, −1500. Units 1, 2, 3 → tsumo_other (被ツモ), income −1500 each (1300 + 200
        // honba; none of them is in riichi).
        //
        // seat 1: start 1589m 1359p 1s 1357z (drew 3s, threw it back). Kokushi: 1m 9m 1p 9p 1s
        // 1z 3z 5z 7z = 9 kinds, no pair → 13 − 9 = 4; standard 89m + 13p → 8 − 2 = 6; seven
        // pairs 6. Shanten 4.
        unit(F003, 2, 1, 0, "tsumo_other", -1500, 4, false, true, 2),
        // seat 2: start 9m 178p 2459s 24667z (drew 2m, threw it back). Standard: 78p, 45s +
        // pair 66z → 8 − 2 − 1 = 5; seven pairs 6 − 1 = 5; kokushi 9m 1p 9s 2z 4z 6z 7z = 7 +
        // pair → 5. Shanten 5.
        unit(F003, 2, 2, 0, "tsumo_other", -1500, 5, false, true, 2),
        // seat 3: start 28m 66p 13788s 3455z (drew 6s, threw it back). Seven pairs: pairs 66p,
        // 88s, 55z = 3, 10 distinct kinds → 6 − 3 = 3; standard: 66p, 55z, 13s, 88s (or 78s)
        // → at best 8 − 4 = 4; kokushi 1s 3z 4z 5z + pair → 8. Shanten 3.
        unit(F003, 2, 3, 0, "tsumo_other", -1500, 3, false, true, 2),
        // ---- f003 hand 3 (dealer seat 0, honba 3). Seat 0 declares with 5p (55) on its
        // discard #2 (river 1z 5p → turn 2) and rons seat 3's 5s: sc deltas +25900, 0, 0,
        // −24900. Seat 3 → deal_in −24900; seats 1, 2 → ron_other 0.
        //
        // seat 1: start 5678m 289p 169s 156z (drew 7z, threw it back). Standard: 567m + 89p
        // → 8 − 2 − 1 = 5; seven pairs 6; kokushi 9p 1s 9s 1z 5z 6z = 6 → 7. Shanten 5.
        unit(F003, 3, 1, 0, "ron_other", 0, 5, false, true, 2),
        // seat 2: start 79m 3458p 2567s 123z (drew 7p, threw it back). Standard: 345p, 567s,
        // 79m → 8 − 4 − 1 = 3; seven pairs 6; kokushi 9m 1z 2z 3z → 9. Shanten 3.
        unit(F003, 3, 2, 0, "ron_other", 0, 3, false, true, 2),
        // seat 3: start 159m 19p 59s 234677z (drew 6s, threw it back). Kokushi: 1m 9m 1p 9p 9s
        // 2z 3z 4z 6z 7z = 10 kinds + pair 77z → 13 − 10 − 1 = 2; standard 8 − 1 = 7; seven
        // pairs 5. Shanten 2.
        unit(F003, 3, 3, 0, "deal_in", -24900, 2, false, true, 2),
    ];
    want.sort();
    // f002 hand 3 (dama kokushi) and f003 hand 0 (kyuushu kyuuhai) have no riichi: no units.
    assert_eq!(got.len(), 18);
    assert_eq!(got, want);
}

/// Outcome counts and income sums over every §1 unit of the whole fixture run.
#[test]
fn riichi_response_whole_run_outcomes() {
    let (out, s) = ingest(&fixture_files_v1());
    assert_eq!(s.manifest.totals.games, 5);
    let got = units(&frame(out.path(), "riichi_response"));
    // The first declaration of each hand with a riichi gives 3 units (the other three seats,
    // none of which has declared yet); later declarations in the same hand give none:
    //   f001 h1 seat 0, h2 seat 3, h4 seat 0; f002 h0 seat 2, h1 seat 1, h2 seat 0;
    //   f003 h1 seat 0 (the three later riichis add nothing), h2 seat 0, h3 seat 0;
    //   f004 h0 seat 0, h4 seat 1; f005 h0, h1, h2 seat 1  → 14 × 3 = 42 units.
    assert_eq!(got.len(), 42);
    let mut by: BTreeMap<&str, (usize, i64)> = BTreeMap::new();
    for u in &got {
        let e = by.entry(u.outcome.as_str()).or_default();
        e.0 += 1;
        e.1 += u.income as i64;
    }
    // win: f002 h0 seat 3 (+3900), f002 h2 seat 3 (+3300) → 2 units, +7200.
    assert_eq!(by["win"], (2, 7200));
    // deal_in: f002 h2 seat 2 (−5200), f003 h3 seat 3 (−24900), f001 h4 seat 1 (−18000),
    // f004 h0 seat 2 (−4800), f005 h0 seat 0 (−3900), f005 h2 seat 0 (−24300)
    // → 6 units, −(5200 + 24900 + 18000 + 4800 + 3900 + 24300) = −81100.
    assert_eq!(by["deal_in"], (6, -81100));
    // tsumo_other: f001 h1 (seat 0 tsumo: −4000, −2000, −2000), f003 h2 (−1500 × 3),
    // f004 h4 (seat 1 tsumo: −700, −700, −1300), f005 h1 (seat 1 tsumo: −2600 × 3)
    // → 12 units, −(8000 + 4500 + 2700 + 7800) = −23000.
    assert_eq!(by["tsumo_other"], (12, -23000));
    // draw: f001 h2 (seats 0, 1, 2: −1500, +1500, −1500), f002 h1 (+1500, −1500, −1500),
    // f003 h1 (−1000 × 3, the chasers' own sticks) → 9 units, −1500 − 1500 − 3000 = −6000.
    assert_eq!(by["draw"], (9, -6000));
    // ron_other: f001 h4 seats 2, 3; f002 h0 seats 0, 1; f002 h2 seat 1; f003 h3 seats 1, 2;
    // f004 h0 seats 1, 3; f005 h0 seats 2, 3; f005 h2 seats 2, 3 → 13 units, all income 0.
    assert_eq!(by["ron_other"], (13, 0));
    assert_eq!(by.len(), 5);
}

// ---------------------------------------------------------------------------------------------
// §2 wait danger
// ---------------------------------------------------------------------------------------------

type WaitKey = (String, i32, i32, String);
type WaitVal = (String, bool, Option<String>);

fn wait_rows(df: &DataFrame) -> HashMap<WaitKey, WaitVal> {
    let game = strs(df, "game_id");
    let hand = i32s(df, "hand");
    let seat = i32s(df, "riichi_seat");
    let kind = strs(df, "kind");
    let cat = strs(df, "category");
    let is_wait = bools(df, "is_wait");
    let shape = opt_strs(df, "wait_shape");
    let mut m = HashMap::new();
    for i in 0..df.height() {
        let prev = m.insert(
            (game[i].clone(), hand[i], seat[i], kind[i].clone()),
            (cat[i].clone(), is_wait[i], shape[i].clone()),
        );
        assert!(prev.is_none(), "duplicate wait_danger row {i}");
    }
    m
}

fn check_kinds(
    rows: &HashMap<WaitKey, WaitVal>,
    game: &str,
    hand: i32,
    seat: i32,
    want: &[(&str, &str, Option<&str>)],
) {
    for &(kind, category, shape) in want {
        let key = (game.to_string(), hand, seat, kind.to_string());
        let got = rows
            .get(&key)
            .unwrap_or_else(|| panic!("no wait_danger row {key:?}"));
        let expect = (
            category.to_string(),
            shape.is_some(),
            shape.map(str::to_string),
        );
        assert_eq!(got, &expect, "{key:?}");
    }
}

#[test]
fn wait_danger_rows() {
    let (out, _) = ingest(&fixture_files_v1());
    let df = frame(out.path(), "wait_danger");
    let rows = wait_rows(&df);

    // Row count. Riichi declarations of the run (REACH step 1 + discard), with the waits of
    // the declaring hand and the declarer's river including the declaration tile:
    //   f001 h1 s0 69m / 2z 2m; f001 h2 s3 69s / 7z 5z; f001 h4 s0 58p / 1z 6s;
    //   f002 h0 s2 9s 1z / 6p 2s 3s; f002 h1 s1 14m / 6p 5p; f002 h2 s0 14p / 1z 7z;
    //   f003 h1 s0 58s / 8m 4m, s1 25m / 6m 5p, s2 14p / 7p 8m, s3 9p 5z / 6p 6s;
    //   f003 h2 s0 147m / 1z 5p; f003 h3 s0 25s / 1z 5p; f004 h0 s0 4z / 5p 2z;
    //   f004 h4 s1 47m / 1z 7s; f005 h0 s1 147p / 1z 3s; f005 h1 s1 8m / 4z 6s;
    //   f005 h2 s1 147m / 2m 1p.
    // No wait is in its own river (no furiten declaration in the fixtures: exclusion (a) is
    // not exercised) and none is a kokushi riichi (f002's kokushi is dama) → all 17 qualify:
    // 17 × 34 = 578 rows; f002 alone 3 × 34 = 102 (its duplicate .mjlog copy adds nothing).
    assert_eq!(df.height(), 578);
    assert_eq!(rows.keys().filter(|k| k.0 == F002).count(), 102);
    assert_eq!(rows.keys().filter(|k| k.0 == F003).count(), 6 * 34);

    // ---- f002 hand 0, seat 2: all 34 kinds. Hand at the declaration: start 123m 789p 3456s
    // 9s 11z, drew 6p (thrown), 2s (thrown), 9s (105), declared with 3s → 123m 789p 456s 99s
    // 11z: waits 9s (456s 999s 11z) and 1z (456s 99s 111z), both completing a triplet →
    // 双碰 shanpon. River 6p 2s 3s. Visible at that moment: dora indicator 4m; rivers seat 0
    // 6m 1m 7z, seat 1 8s 4m 4z, seat 2 6p 2s 3s, seat 3 8s 5s; no calls.
    check_kinds(
        &rows,
        F002,
        0,
        2,
        &[
            // No manzu in the river: 1/9 need 4/6, 2/8 need 5, 3/7 need 6/4, 456 need k±3.
            ("1m", "19-musuji", None),
            ("2m", "28-musuji", None),
            ("3m", "37-musuji", None),
            ("4m", "456-musuji", None),
            ("5m", "456-musuji", None),
            ("6m", "456-musuji", None),
            ("7m", "37-musuji", None),
            ("8m", "28-musuji", None),
            ("9m", "19-musuji", None),
            // Pinzu: river 6p.
            ("1p", "19-musuji", None),  // 4p not in river
            ("2p", "28-musuji", None),  // 5p not in river
            ("3p", "37-suji", None),    // 6p in river
            ("4p", "456-musuji", None), // neither 1p nor 7p
            ("5p", "456-musuji", None), // neither 2p nor 8p
            ("6p", "456-genbutsu", None),
            ("7p", "37-musuji", None), // 4p not in river
            ("8p", "28-musuji", None), // 5p not in river
            ("9p", "19-suji", None),   // 6p in river
            // Souzu: river 2s 3s.
            ("1s", "19-musuji", None), // 4s not in river
            ("2s", "28-genbutsu", None),
            ("3s", "37-genbutsu", None),  // the declaration tile itself
            ("4s", "456-musuji", None),   // neither 1s nor 7s
            ("5s", "456-katasuji", None), // 2s yes, 8s no
            ("6s", "456-katasuji", None), // 3s yes, 9s no
            ("7s", "37-musuji", None),    // 4s not in river
            ("8s", "28-musuji", None),    // 5s not in river
            ("9s", "19-musuji", Some("shanpon")), // 6s not in river; a wait
            // Honours: visible copies (seat 2's own 11z are concealed, not visible).
            ("1z", "honor-0", Some("shanpon")),
            ("2z", "honor-0", None),
            ("3z", "honor-0", None),
            ("4z", "honor-1", None), // seat 1's discard 4z (120)
            ("5z", "honor-0", None),
            ("6z", "honor-0", None),
            ("7z", "honor-1", None), // seat 0's discard 7z (132)
        ],
    );
    let f002_h0: Vec<_> = rows
        .iter()
        .filter(|(k, _)| k.0 == F002 && k.1 == 0 && k.2 == 2)
        .collect();
    assert_eq!(f002_h0.len(), 34);
    assert_eq!(f002_h0.iter().filter(|(_, v)| v.1).count(), 2);

    // ---- f002 hand 1, seat 1 (dealer): hand 23m 123456p 789s 55z (drew 6p and 5p, threw
    // both) → waits 1m and 4m, each completing a sequence with the added tile at its edge
    // (123m: not "1-2-3 completed by the 3"; 234m) → 両面 ryanmen. River 6p 5p.
    check_kinds(
        &rows,
        F002,
        1,
        1,
        &[
            ("1m", "19-musuji", Some("ryanmen")),
            ("4m", "456-musuji", Some("ryanmen")), // neither 1m nor 7m in river
            ("2p", "28-suji", None),               // 5p in river
            ("8p", "28-suji", None),               // 5p in river
            ("3p", "37-suji", None),               // 6p in river
            ("9p", "19-suji", None),               // 6p in river
            ("5p", "456-genbutsu", None),          // the declaration tile
            ("6p", "456-genbutsu", None),
            ("4p", "456-musuji", None), // neither 1p nor 7p
            ("7p", "37-musuji", None),  // 4p not in river
            ("1z", "honor-0", None),    // no honour discarded or shown yet
        ],
    );

    // ---- f002 hand 2, seat 0: hand 56788m 23678p 345s (drew 8m and threw 1z, drew 7z and
    // declared with it) → waits 1p (123p) and 4p (234p), ryanmen. River 1z 7z. Visible: dora
    // indicator 3z (116); seat 3's pon 666z (128 129 130, the 129 called from seat 1, so not
    // in seat 1's river); rivers seat 1 5p, seat 2 1s, seat 3 1z (111) 8s, seat 0 1z 7z.
    check_kinds(
        &rows,
        F002,
        2,
        0,
        &[
            ("1p", "19-musuji", Some("ryanmen")), // the river holds no suited tile
            ("4p", "456-musuji", Some("ryanmen")),
            ("1z", "honor-genbutsu", None), // in seat 0's river (2 copies visible: 108, 111)
            ("2z", "honor-0", None),
            ("3z", "honor-1", None), // the dora indicator
            ("4z", "honor-0", None),
            ("5z", "honor-0", None), // seat 0's 5z discard comes after the declaration
            ("6z", "honor-3", None), // seat 3's pon
            ("7z", "honor-genbutsu", None), // the declaration tile
        ],
    );

    // ---- f001 hand 2, seat 3: river 7z (135, called by seat 1's pon) and 5z. A called tile
    // stays in the river (§0), so 7z is 現物 although its copies sit in seat 1's pon.
    // Hand 345m 34566p 34578s → waits 6s and 9s (78s), ryanmen.
    check_kinds(
        &rows,
        F001,
        2,
        3,
        &[
            ("7z", "honor-genbutsu", None),
            ("5z", "honor-genbutsu", None),
            ("6s", "456-musuji", Some("ryanmen")), // neither 3s nor 9s in river
            ("9s", "19-musuji", Some("ryanmen")),  // 6s not in river
        ],
    );

    // ---- f004 hand 4, seat 1: river 1z 7s. Visible 6z: the dora indicator 6z (129) and
    // seat 0's discard 6z (128) → 2-visible. Hand 56m 345678p 234s 99s → waits 4m 7m,
    // ryanmen.
    check_kinds(
        &rows,
        F004,
        4,
        1,
        &[
            ("6z", "honor-2", None),
            ("1z", "honor-genbutsu", None),
            ("7z", "honor-0", None),
            ("4m", "456-musuji", Some("ryanmen")),
            ("7m", "37-musuji", Some("ryanmen")),
            ("4s", "456-katasuji", None), // 7s in river, 1s not
            ("7s", "37-genbutsu", None),
            ("1s", "19-musuji", None), // 4s not in river
        ],
    );

    // ---- f005 hand 2, seat 1: river 2m 1p; hand 2233445667899m → waits 1m 4m 7m.
    // 1m: 123 234 456 678 99 — the 1 sits at the edge of 123 → ryanmen. 4m: 234 234 456 678
    // 99 — edge of 234 or of 456 → ryanmen. 7m: 234 234 567 678 99 — edge of 567 (ryanmen) or
    // middle of 678 (kanchan); the highest is ryanmen.
    check_kinds(
        &rows,
        F005,
        2,
        1,
        &[
            ("1m", "19-musuji", Some("ryanmen")),  // 4m not in river
            ("4m", "456-musuji", Some("ryanmen")), // neither 1m nor 7m
            ("7m", "37-musuji", Some("ryanmen")),  // 4m not in river
            ("2m", "28-genbutsu", None),
            ("5m", "456-katasuji", None), // 2m yes, 8m no
            ("1p", "19-genbutsu", None),
            ("4p", "456-katasuji", None), // 1p yes, 7p no
            ("2p", "28-musuji", None),    // 5p not in river
        ],
    );

    // No declaration's river holds two tiles of one suit six apart (1-7, 2-8, 3-9: the rivers
    // with two tiles of a suit are 2s 3s, 6p 5p, 8m 4m, 7p 8m) → no 456-nakasuji row in this
    // run; and no honour has 4 visible copies at any declaration → no honor-4 row.
    let cats = strs(&df, "category");
    assert_eq!(cats.iter().filter(|c| *c == "456-nakasuji").count(), 0);
    assert_eq!(cats.iter().filter(|c| *c == "honor-4").count(), 0);
    // Wait rows = number of waits per declaration (list above): f001 2 + 2 + 2, f002 2 + 2 + 2,
    // f003 2 + 2 + 2 + 2 + 3 + 2, f004 1 + 2, f005 3 + 1 + 3 → 6 + 6 + 13 + 3 + 7 = 35.
    assert_eq!(bools(&df, "is_wait").iter().filter(|w| **w).count(), 35);
}

// ---------------------------------------------------------------------------------------------
// §3 draw rate
// ---------------------------------------------------------------------------------------------

type Cell = (String, i32, i32, i32);

fn cells(df: &DataFrame) -> HashMap<Cell, (i64, i64)> {
    let t = strs(df, "tile_type");
    let h = i32s(df, "held");
    let v = i32s(df, "visible");
    let turn = i32s(df, "turn");
    let u = i64s(df, "units");
    let hits = i64s(df, "hits");
    let mut m = HashMap::new();
    for i in 0..df.height() {
        let prev = m.insert((t[i].clone(), h[i], v[i], turn[i]), (u[i], hits[i]));
        assert!(prev.is_none(), "duplicate draw_rate cell {i}");
    }
    m
}

fn cell(m: &HashMap<Cell, (i64, i64)>, t: &str, held: i32, visible: i32, turn: i32) -> (i64, i64) {
    m.get(&(t.to_string(), held, visible, turn))
        .copied()
        .unwrap_or((0, 0))
}

fn type_totals(m: &HashMap<Cell, (i64, i64)>, t: &str) -> (i64, i64) {
    m.iter()
        .filter(|(k, _)| k.0 == t)
        .fold((0, 0), |a, (_, v)| (a.0 + v.0, a.1 + v.1))
}

/// f005 (no red fives: 34 types).
#[test]
fn draw_rate_f005_no_red() {
    let (out, _) = ingest(&[xml(F005)]);
    let df = frame(out.path(), "draw_rate");
    let m = cells(&df);
    // Draw records (README): hand 0 13, hand 1 14 (one rinshan), hand 2 12 → 39 draws.
    // Units = 39 × 34 types = 1326; hits = 39 (one per draw).
    assert_eq!(sum_i64(&df, "units"), 1326);
    assert_eq!(sum_i64(&df, "hits"), 39);
    // Every type contributes once per draw: 39 units each, and no red type exists.
    let types: std::collections::BTreeSet<String> = strs(&df, "tile_type").into_iter().collect();
    assert_eq!(types.len(), 34);
    assert!(!types.contains("0m") && !types.contains("0p") && !types.contains("0s"));
    assert_eq!(type_totals(&m, "1m").0, 39);
    // 5s is drawn once in the game (hand 1, seat 1 draws 91); id 88 in seat 1's hands is an
    // ordinary 5s here.
    assert_eq!(type_totals(&m, "5s"), (39, 1));

    // Hand 0, draw #1: dealer seat 0 draws 6z (130). Before it joins the hand seat 0 holds one
    // 6z (128); visible 6z: only the dora indicator 8m is shown → 0; turn 0 + 1 = 1.
    // The same (6z, held 1, visible 0, turn 1) cell also gets every other first draw by a
    // seat holding exactly one 6z with none visible:
    //   hand 0: seat 1 (no 6z), seat 2 (no 6z), seat 3 (holds 129 131: held 2) — none;
    //   hand 1: seat 1 (no 6z, twice), seat 2 (holds 130; visible: river 4z, dora 1z 9m →
    //           0) yes, seat 3 (no 6z), seat 0 (holds 128; visible 0) yes;
    //   hand 2: seat 1 (all manzu), seat 2 (holds 128; river 2m) yes, seat 3 (holds 129;
    //           rivers 2m 4z) yes, seat 0 (no 6z).
    // → 5 units; only the first draw was a 6z → 1 hit.
    assert_eq!(cell(&m, "6z", 1, 0, 1), (5, 1));
    // Seat 3's first draw in hand 0 (3p (44), turn 1): it holds 6z 129 131 and seat 0 has
    // just discarded 6z (130) → (6z, 2, 1, 1), the only such draw; not a 6z.
    assert_eq!(cell(&m, "6z", 2, 1, 1), (1, 0));

    // Hand 1, draw #1: dealer seat 1 holds 5s 88 89 90 and draws the fourth, 91: held 3,
    // visible 0 (dora indicator 1z only), turn 1 → a hit, the only such draw in the game.
    assert_eq!(cell(&m, "5s", 3, 0, 1), (1, 1));
    // After the ankan all four 5s are in the meld (visible 4, held 0 for everyone). The 13
    // later draws of hand 1, by turn (drawer's discards so far + 1):
    //   turn 1: seat 1's rinshan draw 4z (no discard yet), seat 2 5p, seat 3 1m, seat 0 9p;
    //   turn 2: seat 1 6s, seat 2 4s, seat 3 1p, seat 0 6p;
    //   turn 3: seat 1 2z, seat 2 4m, seat 3 4s, seat 0 2p;  turn 4: seat 1 8m.
    assert_eq!(cell(&m, "5s", 0, 4, 1), (4, 0));
    assert_eq!(cell(&m, "5s", 0, 4, 2), (4, 0));
    assert_eq!(cell(&m, "5s", 0, 4, 3), (4, 0));
    assert_eq!(cell(&m, "5s", 0, 4, 4), (1, 0));
    assert_eq!(
        m.iter()
            .filter(|(k, _)| k.0 == "5s" && k.2 == 4)
            .map(|(_, v)| v.0)
            .sum::<i64>(),
        13
    );
}

/// f003 (red fives: 37 types).
#[test]
fn draw_rate_f003_red() {
    let (out, _) = ingest(&[xml(F003)]);
    let df = frame(out.path(), "draw_rate");
    let m = cells(&df);
    // Draw records (README): 2 + 8 + 13 + 12 = 35. Units 35 × 37 = 1295, hits 35.
    assert_eq!(sum_i64(&df, "units"), 1295);
    assert_eq!(sum_i64(&df, "hits"), 35);
    let types: std::collections::BTreeSet<String> = strs(&df, "tile_type").into_iter().collect();
    assert_eq!(types.len(), 37);

    // Red fives. No red five is ever drawn in f003 (the 35 drawn ids include none of 16, 52,
    // 88) → 0 hits for 0m/0p/0s. Red 5m (16) and red 5s (88) are never dealt, drawn or shown:
    // every unit is (held 0, visible 0).
    assert_eq!(type_totals(&m, "0m"), (35, 0));
    assert_eq!(type_totals(&m, "0s"), (35, 0));
    assert_eq!(
        m.iter()
            .filter(|(k, _)| k.0 == "0m" && (k.1, k.2) != (0, 0))
            .count(),
        0
    );
    // Red 5p (52) is dealt only to seat 0 in hand 3 and kept to the end (its discards are 1z,
    // 5p (55, black), 9m). Seat 0 draws three times there: 8s at turn 1, 5p (55) at turn 2,
    // 9m at turn 3 — held 1, visible 0 each; the other 32 draws of the game see 0p (0, 0).
    assert_eq!(type_totals(&m, "0p"), (35, 0));
    assert_eq!(cell(&m, "0p", 1, 0, 1), (1, 0));
    assert_eq!(cell(&m, "0p", 1, 0, 2), (1, 0));
    assert_eq!(cell(&m, "0p", 1, 0, 3), (1, 0));
    assert_eq!(
        m.iter()
            .filter(|(k, _)| k.0 == "0p" && (k.1, k.2) == (0, 0))
            .map(|(_, v)| v.0)
            .sum::<i64>(),
        32
    );

    // Hand 3, draw #1: dealer seat 0 draws 8s (100) holding 8s (101): held 1, visible 0
    // (dora indicator 7s), turn 1 — a hit. Other first draws by a seat holding exactly one 8s
    // with none visible: hand 1 seat 2 (holds 102; rivers 8m 6m, dora 7z) and hand 2 seat 0
    // (holds 100; dora 2z). Hand 2 seat 3 holds two (101 103); nobody else holds an 8s at
    // its first draw. → 3 units, 1 hit.
    assert_eq!(cell(&m, "8s", 1, 0, 1), (3, 1));
}

/// The naive expected hits (§3: Σ u(t)/U over a bucket's units).
#[test]
fn draw_rate_naive_hits() {
    let naive = |df: &DataFrame, t: &str, held: i32, visible: i32, turn: i32| -> f64 {
        let (ty, h, v, tu) = (
            strs(df, "tile_type"),
            i32s(df, "held"),
            i32s(df, "visible"),
            i32s(df, "turn"),
        );
        let n = df.column("naive_hits").unwrap().f64().unwrap().clone();
        (0..df.height())
            .filter(|&i| ty[i] == t && h[i] == held && v[i] == visible && tu[i] == turn)
            .map(|i| n.get(i).unwrap())
            .sum()
    };
    let total = |df: &DataFrame| -> f64 {
        df.column("naive_hits")
            .unwrap()
            .f64()
            .unwrap()
            .sum()
            .unwrap()
    };
    // Over the 37 (or 34) types of one draw, Σ u(t) = 136 − concealed − visible = U, so every
    // draw adds exactly 1 to the naive total: f005 has 39 draws, f003 35 (fixed point: the
    // rounding is below 1e-9 per unit).
    let (out, _) = ingest(&[xml(F005)]);
    let df = frame(out.path(), "draw_rate");
    assert!((total(&df) - 39.0).abs() < 1e-6, "{}", total(&df));
    // f005 hand 1, draw #1 (the bucket's only unit): dealer seat 1 holds 5s 88 89 90 with
    // only the dora indicator 1z shown. U = 136 − 13 − 1 = 122; without red fives the 5s has
    // four copies, so u = 4 − 3 − 0 = 1 → 1/122.
    assert!((naive(&df, "5s", 3, 0, 1) - 1.0 / 122.0).abs() < 1e-9);
    // After the ankan of 5s all four are visible: u = 0 for the 4 units at turn 1.
    assert_eq!(naive(&df, "5s", 0, 4, 1), 0.0);
    let (out, _) = ingest(&[xml(F003)]);
    let df = frame(out.path(), "draw_rate");
    assert!((total(&df) - 35.0).abs() < 1e-6, "{}", total(&df));
}

// ---------------------------------------------------------------------------------------------
// §5 summary and the manifest
// ---------------------------------------------------------------------------------------------

fn num(df: &DataFrame, name: &str, row: usize) -> f64 {
    df.column(name)
        .unwrap()
        .get(row)
        .unwrap()
        .extract::<f64>()
        .unwrap_or_else(|| panic!("{name} is not numeric"))
}

#[test]
fn summary_whole_run() {
    let (out, s) = ingest(&fixture_files_v1());

    // Manifest: six files; f002 twice (.mjlog gzip and .xml, same log id). In sorted path
    // order "…f002.mjlog" < "…f002.xml" ('m' < 'x'), so the .xml copy is the duplicate.
    let t = &s.manifest.totals;
    assert_eq!(
        (t.files, t.ok, t.skipped, t.failed, t.games, t.hands),
        (6, 5, 1, 0, 5, 21)
    );
    let skipped: Vec<_> = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .filter(|f| f.status == Status::Skipped)
        .collect();
    assert_eq!(skipped.len(), 1);
    assert!(skipped[0].path.ends_with(&format!("{F002}.xml")));
    assert!(skipped[0]
        .reason_text()
        .as_deref()
        .unwrap()
        .starts_with("duplicate"));
    let kept = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .find(|f| f.path.ends_with(&format!("{F002}.mjlog")))
        .unwrap();
    assert_eq!(kept.status, Status::Ok);
    assert_eq!((kept.games, kept.hands), (1, 4));

    // Hand by hand (README):
    //   f001: 5 hands — ron, tsumo, exhaustive draw, ron, ron;
    //   f002: 4 — ron, exhaustive draw, double ron, ron;
    //   f003: 4 — yao9, reach4, tsumo, ron;
    //   f004: 5 — ron, tsumo, ron, ron, tsumo;
    //   f005: 3 — ron, tsumo, ron.
    // games 5, hands 5 + 4 + 4 + 5 + 3 = 21.
    // AGARI records: f001 4, f002 1 + 2 + 1 = 4, f003 2, f004 5, f005 3 → 18.
    // Deal-ins (first terminal record a ron; the double ron once): f001 3, f002 3, f003 1,
    //   f004 3, f005 2 → 12.
    // Riichi declarations: f001 3, f002 3 (incl. the ronned declaration of hand 0), f003 6,
    //   f004 2, f005 3 → 17.
    // Callers (seat, hand) with chi/pon/daiminkan: f001 hand 0 seats 2 (pon) and 1 (chi),
    //   hand 2 seat 1 (pon, later kakan), hand 3 seat 0 (daiminkan) → 4 (hand 1's ankan does
    //   not count); f002 hand 2 seat 3 (pon) → 1; f004 hand 1 seat 2 (chi), hand 3 seat 0 (two
    //   pons, one pair) → 2; f005's ankan does not count → 7.
    // RYUUKYOKU hands: f001 hand 2, f002 hand 1, f003 hands 0 and 1 → 4.
    // AGARI ten[1]: f001 2000 8000 3900 18000 (31900); f002 3900 1000 3900 48000 (56800);
    //   f003 3900 24000 (27900); f004 4800 2000 5200 5200 2700 (19900); f005 3900 7800 24000
    //   (35700) → 172200 / 18 = 9566.67.
    let hands = frame(out.path(), "hands");
    assert_eq!(hands.height(), 21);
    // games, from each GO type's bits (0x02 no red fives, 0x08 hanchan, 0x20 | 0x80 the
    // phoenix room): f001-f003 169 = 0xA9 (hanchan, red fives); f004 225 = 0xE1 (no 0x08: a
    // tonpuusen, red fives); f005 171 = 0xAB (0x02: hanchan without red fives). All phoenix.
    let games = frame(out.path(), "games");
    assert_eq!(games.height(), 5);
    let rows: BTreeMap<String, (i32, String, bool, bool)> = strs(&games, "game_id")
        .into_iter()
        .zip(i32s(&games, "go_type"))
        .zip(strs(&games, "room"))
        .zip(
            bools(&games, "hanchan")
                .into_iter()
                .zip(bools(&games, "red")),
        )
        .map(|(((id, go), room), (hanchan, red))| (id, (go, room, hanchan, red)))
        .collect();
    let phoenix = |go: i32, hanchan: bool, red: bool| (go, "phoenix".to_string(), hanchan, red);
    let want = BTreeMap::from([
        (F001.to_string(), phoenix(169, true, true)),
        (F002.to_string(), phoenix(169, true, true)),
        (F003.to_string(), phoenix(169, true, true)),
        (F004.to_string(), phoenix(225, false, true)),
        (F005.to_string(), phoenix(171, true, false)),
    ]);
    assert_eq!(rows, want);
    assert_eq!(sum_i64(&hands, "wins"), 18);
    assert_eq!(sum_i64(&hands, "declarations"), 17);
    assert_eq!(sum_i64(&hands, "callers"), 7);
    assert_eq!(sum_i64(&hands, "win_value"), 172200);
    let ends = strs(&hands, "end");
    let count = |e: &str| ends.iter().filter(|x| *x == e).count();
    assert_eq!(
        (
            count("ron"),
            count("double_ron"),
            count("tsumo"),
            count("exhaustive"),
            count("yao9"),
            count("reach4")
        ),
        (11, 1, 5, 2, 1, 1)
    );

    let mut ctx = haifu::report::context(out.path(), None).unwrap();
    let r = haifu::report::find("summary").unwrap();
    let df = haifu::report::run(&mut ctx, r.sql, r.filter).unwrap();
    let rooms = strs(&df, "room");
    let all = rooms.iter().position(|r| r == "all").unwrap();
    // GO types 169, 225, 171 all have bits 0x20 and 0x80 → every game is phoenix.
    assert_eq!(rooms.len(), 2);
    assert!(rooms.iter().any(|r| r == "phoenix"));
    for row in 0..2 {
        assert_eq!(num(&df, "games", row), 5.0);
        assert_eq!(num(&df, "hands", row), 21.0);
        assert_eq!(num(&df, "wins", row), 18.0);
        assert_eq!(num(&df, "deal_ins", row), 12.0);
        assert_eq!(num(&df, "riichi", row), 17.0);
        assert_eq!(num(&df, "callers", row), 7.0);
        assert_eq!(num(&df, "draws", row), 4.0);
    }
    let close = |name: &str, want: f64| {
        let got = num(&df, name, all);
        assert!((got - want).abs() < 1e-9, "{name}: {got} != {want}");
    };
    close("hands_per_game", 21.0 / 5.0); // 4.2
    close("win_rate", 18.0 / 84.0); // 18 / (4 × 21)
    close("deal_in_rate", 12.0 / 84.0);
    close("riichi_rate", 17.0 / 84.0);
    close("call_rate", 7.0 / 84.0);
    close("draw_rate", 4.0 / 21.0);
    close("average_win_value", 172200.0 / 18.0); // 9566.67
}
