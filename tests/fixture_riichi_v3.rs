//! §1 riichi response (docs/definitions.md §1) on the two hand-made games written for it, every unit
//! against the values worked out BY HAND in tools/fixtures/EXPECTED_V2.md §5 (f008) and
//! tools/fixtures/EXPECTED_V3.md (f009), and checked there with tools/fixtures/expected_v2.py.
//! Nothing here recomputes a statistic the way haifu does: every expected number is a literal
//! with its derivation next to it.
//!
//! The cases: a double ron whose second winner is a §1 unit (f008 hand 0: dama; f009 hand 3: a
//! chasing riichi whose own stick comes off its income), a chasing riichi that wins (f008 hand 1
//! by ron, f009 hand 0 by tsumo, f009 hand 3 as second winner), a triple ron (f008 hand 2; f009
//! hand 1 on the chasing player's declaration tile, a riichi never established), a nagashi
//! mangan (f008 hand 3 by the dealer; f009 hand 2 by a non-dealer against a dealer riichi).

mod common;

use std::path::PathBuf;

use common::{fixtures, frame, run_ingest};
use haifu::ingest::RoomFilter;
use polars::prelude::*;

const F008: &str = "2020010100gm-00a9-10011-0000f008";
const F009: &str = "2022010100gm-00a9-0000-0000f009";

fn xml(id: &str) -> PathBuf {
    fixtures().join(format!("{id}.xml"))
}

/// The games ingested (room any) into a temporary directory; every file must replay.
fn ingest(ids: &[&str]) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let files: Vec<PathBuf> = ids.iter().map(|id| xml(id)).collect();
    let s = run_ingest(&files, out.path(), RoomFilter::Any);
    let t = &s.manifest.totals;
    assert_eq!(
        (t.ok, t.failed),
        (ids.len() as u64, 0),
        "{:?}",
        s.manifest.files()
    );
    out
}

fn ints(df: &DataFrame, name: &str) -> Vec<i64> {
    let s = df.column(name).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().map(|v| v.unwrap()).collect()
}

fn strs(df: &DataFrame, name: &str) -> Vec<String> {
    let c = df.column(name).unwrap().str().unwrap().clone();
    c.iter().map(|s| s.unwrap().to_string()).collect()
}

fn bools(df: &DataFrame, name: &str) -> Vec<bool> {
    let c = df.column(name).unwrap().bool().unwrap().clone();
    c.iter().map(|v| v.unwrap()).collect()
}

/// One `riichi_response` row: (hand, seat, riichi_seat, outcome, income, shanten,
/// seat_is_dealer, riichi_is_dealer, riichi_turn).
type Unit = (i64, i64, i64, String, i64, i64, bool, bool, i64);

#[allow(clippy::too_many_arguments)]
fn unit(
    hand: i64,
    seat: i64,
    riichi_seat: i64,
    outcome: &str,
    income: i64,
    shanten: i64,
    seat_is_dealer: bool,
    riichi_is_dealer: bool,
    riichi_turn: i64,
) -> Unit {
    (
        hand,
        seat,
        riichi_seat,
        outcome.to_string(),
        income,
        shanten,
        seat_is_dealer,
        riichi_is_dealer,
        riichi_turn,
    )
}

/// The §1 units of one game, sorted by (hand, seat).
fn units(dir: &std::path::Path, game: &str) -> Vec<Unit> {
    let df = frame(dir, "riichi_response");
    let ids = strs(&df, "game_id");
    let (hand, seat, rseat) = (
        ints(&df, "hand"),
        ints(&df, "seat"),
        ints(&df, "riichi_seat"),
    );
    let (outcome, income, shanten, turn) = (
        strs(&df, "outcome"),
        ints(&df, "income"),
        ints(&df, "shanten"),
        ints(&df, "riichi_turn"),
    );
    let (sd, rd) = (bools(&df, "seat_is_dealer"), bools(&df, "riichi_is_dealer"));
    let mut v: Vec<Unit> = (0..df.height())
        .filter(|&i| ids[i] == game)
        .map(|i| {
            (
                hand[i],
                seat[i],
                rseat[i],
                outcome[i].clone(),
                income[i],
                shanten[i],
                sd[i],
                rd[i],
                turn[i],
            )
        })
        .collect();
    v.sort();
    v
}

/// f009, every §1 unit (EXPECTED_V3.md §1, §2). Shanten = 8 − 2·sets − partials − pair.
#[test]
fn f009_every_riichi_unit() {
    let out = ingest(&[F009]);
    let want = vec![
        // ---- hand 0 (East 1, dealer 0): seat 1 declares first (discard #2, turn 2); seats 2
        // and 3 chase on their discard #2 (both established). Seat 3 tsumos: riichi, tsumo,
        // pinfu, tanyao 1300/2600 + 3 sticks: deltas −2600, −1300, −1300, +8200.
        // seat 0 (dealer), 1239m 13456p 78s 15z: 123m 456p + 13p 78s → 8 − 4 − 2 = 2; the
        // first AGARI is another seat's tsumo → tsumo_other, hand income −2600.
        unit(0, 0, 1, "tsumo_other", -2600, 2, true, false, 2),
        // seat 2, 234m 789p 456s 45s 11z: tenpai (3s-6s). tsumo_other; −1300 − 1000 (its
        // chasing riichi was established) = −2300.
        unit(0, 2, 1, "tsumo_other", -2300, 0, false, false, 2),
        // seat 3, 345m 678m 234p 67s 22s: tenpai (5s-8s). win; its delta +8200 − its own
        // established stick 1000 = +7200.
        unit(0, 3, 1, "win", 7200, 0, false, false, 2),
        // ---- hand 1 (East 2, dealer 1): seat 2 declares first on its discard #13 (turn 13);
        // seat 0 chases with the last 4s on its discard #13 and seats 1, 2, 3 all ron it:
        // RYUUKYOKU ron3, deltas 0 × 4, no REACH step 2 for seat 0.
        // seat 0, 234m 78m 567p 456s 11s: tenpai 6m-9m. draw; income 0 − nothing: its riichi
        // was declared but never established.
        unit(1, 0, 2, "draw", 0, 0, false, false, 13),
        // seat 1 (dealer), 234m 567m 678p 35s 88p: tenpai (kanchan 4s). draw, 0.
        unit(1, 1, 2, "draw", 0, 0, true, false, 13),
        // seat 3, 789m 123p 666z 11m 44s: tenpai (shanpon 1m/4s). draw, 0.
        unit(1, 3, 2, "draw", 0, 0, false, false, 13),
        // ---- hand 2 (East 2, honba 1, dealer 1): the dealer declares first on its discard #7
        // (turn 7); seat 0 chases on its discard #9. After 70 draws seat 3's river is all
        // terminals and honours: RYUUKYOKU nm, deltas −2000, −4000, −2000, +8000.
        // seat 0, 345m 456p 678s 34s 88m: tenpai. draw; −2000 − 1000 (own stick) = −3000.
        unit(2, 0, 1, "draw", -3000, 0, false, true, 7),
        // seat 2, 234m 345p + 13p 79s + 66s head + 2z: 8 − 4 − 2 − 1 = 1. draw, −2000.
        unit(2, 2, 1, "draw", -2000, 1, false, true, 7),
        // seat 3, 456m + 23m 45p 67s + 88p head + 7p 2s: 8 − 2 − 3 − 1 = 2. draw; the nagashi
        // mangan's +8000 (not in riichi: nothing to subtract).
        unit(2, 3, 1, "draw", 8000, 2, false, true, 7),
        // ---- hand 3 (East 2, honba 2, three sticks, dealer 1): seat 2 declares first
        // (discard #2), seat 0 chases (discard #2). Seat 2 throws 6p (forced): seat 3 rons
        // first (8000 + 600 + five sticks: 0, 0, −8600, +13600), seat 0 second (12000:
        // +12000, 0, −12000, 0).
        // seat 0, 234m 234m 678s 40p 22p: tenpai 3p-6p. Winner of the SECOND AGARI → win;
        // its delta in that AGARI 12000 − its own established stick = 11000.
        unit(3, 0, 2, "win", 11000, 0, false, false, 2),
        // seat 1 (dealer), 147m 258p 369s 2345z: standard 8, seven pairs 6, kokushi 7 → 6.
        // ron_other, 0.
        unit(3, 1, 2, "ron_other", 0, 6, true, false, 2),
        // seat 3, 234m 345s 567s 78p 88s: tenpai 6p-9p. Winner of the first AGARI → win,
        // +13600 (no stick of its own).
        unit(3, 3, 2, "win", 13600, 0, false, false, 2),
    ];
    // Not units: (0, 1), (1, 2), (2, 1), (3, 2), the first declarers.
    assert_eq!(units(out.path(), F009), want);
}

/// f008, every §1 unit (EXPECTED_V2.md §5, which the other tests assert only in total).
#[test]
fn f008_every_riichi_unit() {
    let out = ingest(&[F008]);
    let want = vec![
        // ---- hand 0: seat 3 declares first (discard #2); seat 2 throws 8p; seat 3 rons first
        // (0, 0, −3900, +4900), the dealer second (+18000, 0, −18000, 0).
        // seat 0 (dealer, dama tenpai 5p-8p): winner of the second AGARI → +18000.
        unit(0, 0, 3, "win", 18000, 0, true, false, 2),
        // seat 1, 2468m 2468p 2468s 4z: six partials, four count → 8 − 4 = 4. ron_other, 0.
        unit(0, 1, 3, "ron_other", 0, 4, false, false, 2),
        // seat 2, the discarder: deal_in, both AGARI summed: −3900 − 18000 = −21900;
        // 1379m 13589p 19s 37z: 13m 79m 13p 89p → 8 − 4 = 4.
        unit(0, 2, 3, "deal_in", -21900, 4, false, false, 2),
        // ---- hand 1 (honba 1): seat 1 declares first, seat 3 chases; seat 3 rons seat 1's
        // forced 6p: 0, −4200, 0, +6200.
        // seat 0 (dealer), 1479m 258p 1389s 13z: 79m 13s 89s → 8 − 3 = 5. ron_other, 0.
        unit(1, 0, 1, "ron_other", 0, 5, true, false, 2),
        // seat 2, 1369m 1479p 258s 67z: 13m 79p → 6 (seven pairs 6). ron_other, 0.
        unit(1, 2, 1, "ron_other", 0, 6, false, false, 2),
        // seat 3: tenpai 6p-9p; win, +6200 − its own established stick = +5200.
        unit(1, 3, 1, "win", 5200, 0, false, false, 2),
        // ---- hand 2 (East 2, dealer 1): seat 0 declares first, the dealer chases; seats 3,
        // 0, 1 ron seat 2's 7m: ron3, deltas 0.
        // seat 1 (dealer): tenpai 7m; its chasing riichi was established → 0 − 1000.
        unit(2, 1, 0, "draw", -1000, 0, true, false, 2),
        // seat 2, 1m 7m 2589p 1469s 124z: 89p 46s → 6 (kokushi 6). draw, 0.
        unit(2, 2, 0, "draw", 0, 6, false, false, 2),
        // seat 3: dealt tenpai 7m/3p. draw, 0.
        unit(2, 3, 0, "draw", 0, 0, false, false, 2),
        // ---- hand 3 (honba 1, dealer 1): seat 3 declares first on its first discard (turn
        // 1), the dealer chases; dealer nagashi mangan: −4000, +12000, −4000, −4000.
        // seat 0, 24568m 2468p 3578s: 456m + four partials (three count) → 8 − 2 − 3 = 3.
        unit(3, 0, 3, "draw", -4000, 3, false, false, 1),
        // seat 1 (dealer): 234m 567p 234s 66s 9m 9p → 8 − 6 − 1 = 1; +12000 − own stick.
        unit(3, 1, 3, "draw", 11000, 1, true, false, 1),
        // seat 2, 3579m 3579p 2478s 6z: six partials, four count → 4. draw, −4000.
        unit(3, 2, 3, "draw", -4000, 4, false, false, 1),
    ];
    assert_eq!(units(out.path(), F008), want);
}

/// f009's `hands` rows (EXPECTED_V3.md §3): end, the summed `sc` deltas (sticks not deducted),
/// honba, sticks, dealer, declarations, AGARI records and their value.
#[test]
fn f009_hands_end_and_deltas() {
    let out = ingest(&[F009]);
    let df = frame(out.path(), "hands");
    assert_eq!(df.height(), 4);
    let ends = strs(&df, "end");
    let cols = [
        "hand",
        "round",
        "honba",
        "kyotaku",
        "dealer",
        "delta_0",
        "delta_1",
        "delta_2",
        "delta_3",
        "declarations",
        "callers",
        "wins",
        "win_value",
    ]
    .map(|c| ints(&df, c));
    let mut got: Vec<(String, Vec<i64>)> = (0..df.height())
        .map(|r| (ends[r].clone(), cols.iter().map(|c| c[r]).collect()))
        .collect();
    got.sort_by_key(|g| g.1[0]);
    let want: [(&str, [i64; 13]); 4] = [
        // hand, round, honba, sticks, dealer, deltas, declarations, callers, wins, win_value.
        // Tsumo 1300/2600 by seat 3 + the three sticks of hand 0.
        (
            "tsumo",
            [0, 0, 0, 0, 0, -2600, -1300, -1300, 8200, 3, 0, 1, 5200],
        ),
        // Triple ron: no score change; seat 0's ronned declaration is a declaration.
        ("ron3", [1, 1, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0]),
        // Non-dealer nagashi mangan: 4000 from the dealer, 2000 from the others, no honba.
        ("nm", [2, 1, 1, 1, 1, -2000, -4000, -2000, 8000, 2, 0, 0, 0]),
        // Double ron: 8000 + 600 + 5000 to seat 3, then 12000 to seat 0, both from seat 2.
        (
            "double_ron",
            [3, 1, 2, 3, 1, 12000, 0, -20600, 13600, 2, 0, 2, 20000],
        ),
    ];
    for ((end, got), (want_end, want)) in got.iter().zip(want) {
        assert_eq!((end.as_str(), got.as_slice()), (want_end, &want[..]));
    }
    // start_0..3, in points: 25000 each, then each hand's start is the last one's plus its
    // deltas, less a stick for each established declaration. Hand 0: seats 1, 2, 3 declare,
    // → 22400, 22700, 22700, 32200; hand 1: seat 2's stick (seat 0's declaration tile is
    // ronned) → 22400, 22700, 21700, 32200; hand 2: −2000, −4000, −2000, +8000 and the sticks
    // of seats 1 and 0 → 19400, 17700, 19700, 40200 (each as its INIT's `ten` says).
    let hand = ints(&df, "hand");
    let starts = ["start_0", "start_1", "start_2", "start_3"].map(|c| ints(&df, c));
    let mut got: Vec<[i64; 5]> = (0..df.height())
        .map(|r| {
            [
                hand[r],
                starts[0][r],
                starts[1][r],
                starts[2][r],
                starts[3][r],
            ]
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            [0, 25000, 25000, 25000, 25000],
            [1, 22400, 22700, 22700, 32200],
            [2, 22400, 22700, 21700, 32200],
            [3, 19400, 17700, 19700, 40200],
        ]
    );
}

/// `haifu stats NAME --frames DIR --format json [extra]` as (outcome or (value, outcome)) →
/// (units, mean_income, share) rows.
fn stats(dir: &std::path::Path, name: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    common::stats_json(dir, name, extra)
}

fn close(got: &serde_json::Value, want: f64, what: &str) {
    let g = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
    assert!(
        (g - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: {g} != {want}"
    );
}

/// The riichi-response report over f008 and f009 together gives the hand-worked table of
/// EXPECTED_V3.md §2 ("f008 and f009 together"), its `--seat 0` form, and f009's splits.
#[test]
fn riichi_response_report_on_the_hand_worked_games() {
    let out = ingest(&[F008, F009]);
    let rows = stats(out.path(), "riichi-response", &[]);
    // (outcome, units, Σ income) — f008 + f009.
    let want = [
        ("win", 5, 23200.0 + 31800.0),
        ("deal_in", 1, -21900.0),
        ("tsumo_other", 2, -4900.0),
        ("ron_other", 4, 0.0),
        ("draw", 12, 2000.0 + 3000.0),
        ("all", 24, 3300.0 + 29900.0),
    ];
    assert_eq!(rows.len(), want.len(), "{rows:?}");
    for (r, (outcome, units, sum)) in rows.iter().zip(want) {
        assert_eq!(r["outcome"], outcome);
        assert_eq!(r["units"].as_i64(), Some(units), "{outcome}");
        close(&r["mean_income"], sum / units as f64, outcome);
        close(&r["share"], units as f64 / 24.0, outcome);
        // 8 hands × 4 seats.
        close(&r["rate_per_seat_hand"], units as f64 / 32.0, outcome);
    }
    // --seat 0: f008 (0,0) win +18000, (1,0) ron_other 0, (3,0) draw −4000; f009 (0,0)
    // tsumo_other −2600, (1,0) draw 0, (2,0) draw −3000, (3,0) win +11000 → 7 units over
    // 8 hands × 1 seat.
    let rows = stats(out.path(), "riichi-response", &["--seat", "0"]);
    let want = [
        ("win", 2, 29000.0),
        ("tsumo_other", 1, -2600.0),
        ("ron_other", 1, 0.0),
        ("draw", 3, -7000.0),
        ("all", 7, 19400.0),
    ];
    assert_eq!(rows.len(), want.len(), "{rows:?}");
    for (r, (outcome, units, sum)) in rows.iter().zip(want) {
        assert_eq!(r["outcome"], outcome);
        assert_eq!(r["units"].as_i64(), Some(units), "--seat 0 {outcome}");
        close(&r["mean_income"], sum / units as f64, outcome);
        close(&r["rate_per_seat_hand"], units as f64 / 8.0, outcome);
    }
    // f009 alone: the splits of EXPECTED_V3.md §2 (units of the `all` row of each value).
    let out = ingest(&[F009]);
    for (report, want) in [
        (
            "riichi-response-by-shanten",
            &[("0", 8), ("1", 1), ("2", 2), ("3+", 1)][..],
        ),
        (
            "riichi-response-by-seat-dealer",
            &[("dealer", 3), ("non-dealer", 9)][..],
        ),
        (
            "riichi-response-by-riichi-dealer",
            &[("dealer", 3), ("non-dealer", 9)][..],
        ),
        (
            "riichi-response-by-riichi-turn",
            &[("1-6", 6), ("13+", 3), ("7-12", 3)][..],
        ),
    ] {
        let got: Vec<(String, i64)> = stats(out.path(), report, &[])
            .iter()
            .filter(|r| r["outcome"] == "all")
            .map(|r| {
                (
                    r["value"].as_str().unwrap().to_string(),
                    r["units"].as_i64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(String, i64)> = want.iter().map(|(v, n)| (v.to_string(), *n)).collect();
        assert_eq!(got, want, "{report}");
    }
    // The win row of f009 alone: (0,3) +7200, (3,0) +11000, (3,3) +13600 → mean 10600.
    let rows = stats(out.path(), "riichi-response", &[]);
    assert_eq!(rows[0]["outcome"], "win");
    assert_eq!(rows[0]["units"].as_i64(), Some(3));
    close(&rows[0]["mean_income"], 10600.0, "f009 win");
}

/// §5 on f009 alone (EXPECTED_V3.md §3): the summary counts and placements.
#[test]
fn f009_summary_and_placement() {
    let out = ingest(&[F009]);
    let rows = stats(out.path(), "summary", &[]);
    let all = rows.iter().find(|r| r["room"] == "all").unwrap();
    for (col, want) in [
        ("games", 1),
        ("hands", 4),
        ("wins", 3),
        ("deal_ins", 1),
        ("riichi", 9),
        ("callers", 0),
        ("draws", 2),
    ] {
        assert_eq!(all[col].as_i64(), Some(want), "{col}");
    }
    close(&all["average_win_value"], 25200.0 / 3.0, "average win");
    close(&all["draw_rate"], 2.0 / 4.0, "draw rate");
    close(&all["deal_in_rate"], 1.0 / 16.0, "deal-in rate");
    // Final 30400, 17700, −1900, 53800 → places 2, 3, 4, 1.
    let rows = stats(out.path(), "placement", &[]);
    let places: Vec<f64> = rows
        .iter()
        .map(|r| r["average_place"].as_f64().unwrap())
        .collect();
    assert_eq!(places, [2.0, 3.0, 4.0, 1.0]);
}
