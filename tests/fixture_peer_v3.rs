//! The version-3 frames of docs/definitions.md (§6 v3 `wins`, `win_yaku`, `riichi`, `calls`; §11
//! `by_turn`; §12 `tiles_at_end`; the `hands` columns of §14) on the hand-made game written for
//! them, f010, every row against the values worked out BY HAND in tools/fixtures/EXPECTED_V4.md
//! (and checked there with tools/fixtures/expected_v4.py, an independent Python replay). Nothing
//! here recomputes a statistic the way haifu does: every expected number is a literal with its
//! derivation next to it.
//!
//! f010 (four hands, Phoenix hanchan with red fives): hand 0, a dealer double riichi (the
//! tsumogiri of a drawn Chun) that tsumos 7s with dora, aka and ura, and a furiten riichi by
//! seat 2; hand 1, a pon after which the caller's 11 tiles are complete, a riichi on the first
//! discard after that pon (not double) with the red 5p waiting on 8p (a suji trap), and a double
//! ron on 8p (that riichi with ippatsu and ura 0; a dama shanpon); hand 2, a pon, a daiminkan
//! with the red 5m (10 tiles: 1-shanten), a chi, and a kakan robbed by a chankan; hand 3, an
//! open double yakuman (daisangen + tsuuiisou) that busts the discarder.
//!
//! The nine reports of §10–§14 (`yaku`, `draw-reasons`, `by-turn`, `calls-by-turn`,
//! `tiles-at-end`, `winning-tiles`, `riichi-tile`, `double-riichi`, `records`) are run on f010
//! alone too, every cell against the report-level values of EXPECTED_V4.md (shares and Wilson
//! intervals from their literal counts).
//!
//! Shanten = min(8 − 2·sets − partials − pair (sets include the melds, sets + partials ≤ 4),
//! 6 − pairs + max(0, 7 − kinds), 13 − terminal/honour kinds − (1 if one is paired)).

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, frame, run_ingest_peer};
use haifu::ingest::RoomFilter;
use polars::prelude::*;

const F010: &str = "2023010100gm-00a9-0000-0000f010";

/// f010 alone ingested (room any, with `--with development`) into a temporary directory; it must replay.
fn ingest() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let file: PathBuf = fixtures().join(format!("{F010}.xml"));
    let s = run_ingest_peer(&[file], out.path(), RoomFilter::Any);
    let t = &s.manifest.totals;
    assert_eq!(
        (t.ok, t.failed, t.games, t.hands),
        (1, 0, 1, 4),
        "{:?}",
        s.manifest.files()
    );
    out
}

fn opt_ints(df: &DataFrame, name: &str) -> Vec<Option<i64>> {
    let s = df
        .column(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .cast(&DataType::Int64)
        .unwrap();
    s.i64().unwrap().iter().collect()
}

fn ints(df: &DataFrame, name: &str) -> Vec<i64> {
    opt_ints(df, name)
        .into_iter()
        .map(|v| v.unwrap_or_else(|| panic!("{name}: null")))
        .collect()
}

fn opt_strs(df: &DataFrame, name: &str) -> Vec<Option<String>> {
    let c = df
        .column(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .str()
        .unwrap()
        .clone();
    c.iter().map(|s| s.map(str::to_string)).collect()
}

fn strs(df: &DataFrame, name: &str) -> Vec<String> {
    opt_strs(df, name)
        .into_iter()
        .map(|v| v.unwrap_or_else(|| panic!("{name}: null")))
        .collect()
}

fn bools(df: &DataFrame, name: &str) -> Vec<bool> {
    let c = df
        .column(name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .bool()
        .unwrap()
        .clone();
    c.iter()
        .map(|v| v.unwrap_or_else(|| panic!("{name}: null")))
        .collect()
}

/// Every row of the frame belongs to f010 (it was ingested alone).
fn only_f010(df: &DataFrame) {
    assert!(df.height() > 0);
    assert!(strs(df, "game_id").iter().all(|g| g == F010));
}

/// Index 0..33 of a kind name (`1m`..`9m`, `1p`.., `1s`.., `1z`..`7z`).
fn kind(name: &str) -> usize {
    let b = name.as_bytes();
    let n = (b[0] - b'1') as usize;
    match b[1] {
        b'm' => n,
        b'p' => 9 + n,
        b's' => 18 + n,
        b'z' => 27 + n,
        _ => panic!("kind {name}"),
    }
}

/// 34 digits 0/1 with a 1 at each named kind (space-separated).
fn waits(kinds: &str) -> String {
    let mut d = vec![b'0'; 34];
    for k in kinds.split_whitespace() {
        d[kind(k)] = b'1';
    }
    String::from_utf8(d).unwrap()
}

/// 34 characters, `-` except the given shape letter at each named kind.
fn shapes(of: &[(&str, char)]) -> String {
    let mut d = vec!['-'; 34];
    for (k, c) in of {
        d[kind(k)] = *c;
    }
    d.into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// wins (EXPECTED_V4.md §3)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, PartialEq)]
struct Win {
    hand: i64,
    seat: i64,
    discarder: Option<i64>,
    pao: Option<i64>,
    fu: i64,
    points: i64,
    limit: i64,
    han: Option<i64>,
    yakuman: i64,
    dora: i64,
    ura_dora: i64,
    aka_dora: i64,
    yaku: String,
    tile: String,
    tile_red: bool,
    turn: i64,
    riichi: bool,
    closed: bool,
    waits: String,
    wait_shape: String,
    sticks: i64,
    entries: i64,
}

fn wins_of(dir: &Path) -> Vec<Win> {
    let df = frame(dir, "wins");
    only_f010(&df);
    let (hand, seat, discarder, pao) = (
        ints(&df, "hand"),
        ints(&df, "seat"),
        opt_ints(&df, "discarder"),
        opt_ints(&df, "pao"),
    );
    let (fu, points, limit, han, yakuman) = (
        ints(&df, "fu"),
        ints(&df, "points"),
        ints(&df, "limit"),
        opt_ints(&df, "han"),
        ints(&df, "yakuman"),
    );
    let (dora, ura, aka, yaku) = (
        ints(&df, "dora"),
        ints(&df, "ura_dora"),
        ints(&df, "aka_dora"),
        strs(&df, "yaku"),
    );
    let (tile, tile_red, turn, riichi, closed) = (
        strs(&df, "tile"),
        bools(&df, "tile_red"),
        ints(&df, "turn"),
        bools(&df, "riichi"),
        bools(&df, "closed"),
    );
    let (w, shape, sticks, entries) = (
        strs(&df, "waits"),
        strs(&df, "wait_shape"),
        ints(&df, "sticks"),
        ints(&df, "entries"),
    );
    let mut v: Vec<Win> = (0..df.height())
        .map(|i| Win {
            hand: hand[i],
            seat: seat[i],
            discarder: discarder[i],
            pao: pao[i],
            fu: fu[i],
            points: points[i],
            limit: limit[i],
            han: han[i],
            yakuman: yakuman[i],
            dora: dora[i],
            ura_dora: ura[i],
            aka_dora: aka[i],
            yaku: yaku[i].clone(),
            tile: tile[i].clone(),
            tile_red: tile_red[i],
            turn: turn[i],
            riichi: riichi[i],
            closed: closed[i],
            waits: w[i].clone(),
            wait_shape: shape[i].clone(),
            sticks: sticks[i],
            entries: entries[i],
        })
        .collect();
    v.sort_by_key(|w| (w.hand, w.seat));
    v
}

/// Every AGARI of f010 (EXPECTED_V4.md §3), sorted by (hand, seat).
#[test]
fn f010_wins() {
    let out = ingest();
    let want = vec![
        // Hand 0: the dealer tsumos 7s (T99) on its 3rd draw, after 2 discards (the Chun
        // declaration, one forced tsumogiri). Before the draw: 234m 88m 067p 345s 56s → waits
        // 4s 7s (345s 56s + 4s = 345 456, + 7s = 345 567: ryanmen). yaku="21,2,0,1,7,1,8,1,
        // 52,1,54,1,53,1": double riichi 2 + tsumo + pinfu + tanyao + dora 1 (indicator 1m →
        // 2m) + aka 1 (0p) + ura 1 (indicator 4p → 5p: the 0p) = 8 han, 7 entries: baiman,
        // dealer tsumo 8000 all = 24000, pinfu tsumo 20 fu. Sticks: 0 at the start + the
        // dealer's and seat 2's established declarations = 2.
        Win {
            hand: 0,
            seat: 0,
            discarder: None,
            pao: None,
            fu: 20,
            points: 24000,
            limit: 3,
            han: Some(8),
            yakuman: 0,
            dora: 1,
            ura_dora: 1,
            aka_dora: 1,
            yaku: "double-riichi:2 menzen-tsumo:1 pinfu:1 tanyao:1 dora:1 aka-dora:1 ura-dora:1"
                .into(),
            tile: "7s".into(),
            tile_red: false,
            turn: 2,
            riichi: true,
            closed: true,
            waits: waits("4s 7s"),
            wait_shape: "ryanmen".into(),
            sticks: 2,
            entries: 7,
        },
        // Hand 1, second AGARI of the double ron: seat 1 (dama, turn 1: one filler) rons seat
        // 2's 8p with 234m 340s 678s 66p 88p: waits 6p 8p, 8p completes the triplet 888p
        // (shanpon). Tanyao + dora 1 (indicator 5s → 6s) + aka 1 (0s) = 3 han, 3 entries;
        // 20 + menzen ron 10 + 888p by ron 2 = 32 → 40 fu: 5200. Sticks: 0 at the start + seat
        // 3's established declaration = 1 (the same count as the first AGARI: the definition
        // counts sticks on the table at the win, not sticks received).
        Win {
            hand: 1,
            seat: 1,
            discarder: Some(2),
            pao: None,
            fu: 40,
            points: 5200,
            limit: 0,
            han: Some(3),
            yakuman: 0,
            dora: 1,
            ura_dora: 0,
            aka_dora: 1,
            yaku: "tanyao:1 dora:1 aka-dora:1".into(),
            tile: "8p".into(),
            tile_red: false,
            turn: 1,
            riichi: false,
            closed: true,
            waits: waits("6p 8p"),
            wait_shape: "shanpon".into(),
            sticks: 1,
            entries: 3,
        },
        // Hand 1, first AGARI: seat 3 (shimocha of the discarder), declared on its first
        // discard (turn 1), rons 8p with 123m 456m 234s 79p 99s: kanchan. "1,1,2,1,53,0":
        // riichi, ippatsu (nobody called and seat 3 has not discarded since), ura 0 (indicator
        // 3z → 4z) = 2 han, 3 entries; 20 + 10 + kanchan 2 = 32 → 40 fu: 2600.
        Win {
            hand: 1,
            seat: 3,
            discarder: Some(2),
            pao: None,
            fu: 40,
            points: 2600,
            limit: 0,
            han: Some(2),
            yakuman: 0,
            dora: 0,
            ura_dora: 0,
            aka_dora: 0,
            yaku: "riichi:1 ippatsu:1 ura-dora:0".into(),
            tile: "8p".into(),
            tile_red: false,
            turn: 1,
            riichi: true,
            closed: true,
            waits: waits("8p"),
            wait_shape: "kanchan".into(),
            sticks: 1,
            entries: 3,
        },
        // Hand 2: seat 0 robs seat 3's kakan of 3s (discarder = the kakan seat) with 678m 678p
        // 55p 456s 24s: waits 3s only (2 3 4 4 5 6 s = 234 + 456, 3 in the middle: kanchan).
        // Turn 2 (5m, a filler). Chankan + tanyao + dora 2 (kan dora indicator 4p → 5p, 55p) =
        // 4 han, 3 entries; 20 + 10 + 2 = 32 → 40 fu, 40·2^6 > 2000: mangan 8000.
        Win {
            hand: 2,
            seat: 0,
            discarder: Some(3),
            pao: None,
            fu: 40,
            points: 8000,
            limit: 1,
            han: Some(4),
            yakuman: 0,
            dora: 2,
            ura_dora: 0,
            aka_dora: 0,
            yaku: "chankan:1 tanyao:1 dora:2".into(),
            tile: "3s".into(),
            tile_red: false,
            turn: 2,
            riichi: false,
            closed: true,
            waits: waits("3s"),
            wait_shape: "kanchan".into(),
            sticks: 0,
            entries: 3,
        },
        // Hand 3: seat 3 (pon of Haku, turn 1: 9m) rons seat 0's West with 666z 777z 33z 44z:
        // waits 3z 4z, shanpon. yakuman="39,42": two yakuman entries, no han (null), no dora
        // entries (0 each); 64000; 50 fu (pon 5z 4 + concealed 6z, 7z 8 + 8 + 333z by ron 4
        // = 44 → 50). Not closed (the pon).
        Win {
            hand: 3,
            seat: 3,
            discarder: Some(0),
            pao: None,
            fu: 50,
            points: 64000,
            limit: 5,
            han: None,
            yakuman: 2,
            dora: 0,
            ura_dora: 0,
            aka_dora: 0,
            yaku: "daisangen:Y tsuuiisou:Y".into(),
            tile: "3z".into(),
            tile_red: false,
            turn: 1,
            riichi: false,
            closed: false,
            waits: waits("3z 4z"),
            wait_shape: "shanpon".into(),
            sticks: 0,
            entries: 2,
        },
    ];
    assert_eq!(wins_of(out.path()), want);
}

// ---------------------------------------------------------------------------------------------
// win_yaku (EXPECTED_V4.md §4)
// ---------------------------------------------------------------------------------------------

/// (hand, seat, id, key, han, yakuman, count)
type YakuRow = (i64, i64, i64, String, Option<i64>, bool, i64);

fn y(hand: i64, seat: i64, id: i64, key: &str, han: Option<i64>, count: i64) -> YakuRow {
    (hand, seat, id, key.to_string(), han, han.is_none(), count)
}

/// Every entry of every AGARI's `yaku` / `yakuman`, sorted by (hand, seat, id). Count = 1,
/// or the han (tiles) for dora 52, ura 53, aka 54 (ura 0 counts 0).
#[test]
fn f010_win_yaku() {
    let out = ingest();
    let df = frame(out.path(), "win_yaku");
    only_f010(&df);
    let (hand, seat, id, key) = (
        ints(&df, "hand"),
        ints(&df, "seat"),
        ints(&df, "id"),
        strs(&df, "yaku"),
    );
    let (han, yakuman, count) = (
        opt_ints(&df, "han"),
        bools(&df, "yakuman"),
        ints(&df, "count"),
    );
    let mut got: Vec<YakuRow> = (0..df.height())
        .map(|i| {
            (
                hand[i],
                seat[i],
                id[i],
                key[i].clone(),
                han[i],
                yakuman[i],
                count[i],
            )
        })
        .collect();
    got.sort_by_key(|a| (a.0, a.1, a.2));
    let want = vec![
        // hand 0, the dealer: 21,2 0,1 7,1 8,1 52,1 54,1 53,1 (7 entries).
        y(0, 0, 0, "menzen-tsumo", Some(1), 1),
        y(0, 0, 7, "pinfu", Some(1), 1),
        y(0, 0, 8, "tanyao", Some(1), 1),
        y(0, 0, 21, "double-riichi", Some(2), 1),
        y(0, 0, 52, "dora", Some(1), 1),
        y(0, 0, 53, "ura-dora", Some(1), 1),
        y(0, 0, 54, "aka-dora", Some(1), 1),
        // hand 1, seat 1: 8,1 52,1 54,1.
        y(1, 1, 8, "tanyao", Some(1), 1),
        y(1, 1, 52, "dora", Some(1), 1),
        y(1, 1, 54, "aka-dora", Some(1), 1),
        // hand 1, seat 3: 1,1 2,1 53,0 (ura 0 counts 0).
        y(1, 3, 1, "riichi", Some(1), 1),
        y(1, 3, 2, "ippatsu", Some(1), 1),
        y(1, 3, 53, "ura-dora", Some(0), 0),
        // hand 2, seat 0: 3,1 8,1 52,2 (dora counts its 2 tiles).
        y(2, 0, 3, "chankan", Some(1), 1),
        y(2, 0, 8, "tanyao", Some(1), 1),
        y(2, 0, 52, "dora", Some(2), 2),
        // hand 3, seat 3: yakuman 39, 42 (han null).
        y(3, 3, 39, "daisangen", None, 1),
        y(3, 3, 42, "tsuuiisou", None, 1),
    ];
    assert_eq!(got, want);
    // Per win, the rows are its `entries` and their han its `han` (yakuman wins: null).
    for w in wins_of(out.path()) {
        let mine: Vec<&YakuRow> = got
            .iter()
            .filter(|r| (r.0, r.1) == (w.hand, w.seat))
            .collect();
        assert_eq!(mine.len() as i64, w.entries, "{w:?}");
        let han: Option<i64> = if w.yakuman > 0 {
            None
        } else {
            Some(mine.iter().map(|r| r.4.unwrap()).sum())
        };
        assert_eq!(han, w.han, "{w:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// riichi (EXPECTED_V4.md §5)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, PartialEq)]
struct Riichi {
    hand: i64,
    seat: i64,
    turn: i64,
    tile: String,
    tile_red: bool,
    tsumogiri: bool,
    first: bool,
    established: bool,
    double: bool,
    qualifying: bool,
    waits: String,
    wait_shapes: String,
    outs_own: i64,
    first_suited: Option<String>,
    won: bool,
    points: Option<i64>,
}

/// Every declaration of f010, sorted by (hand, seat).
#[test]
fn f010_riichi_declarations() {
    let out = ingest();
    let df = frame(out.path(), "riichi");
    only_f010(&df);
    let (hand, seat, turn, tile, tile_red) = (
        ints(&df, "hand"),
        ints(&df, "seat"),
        ints(&df, "turn"),
        strs(&df, "tile"),
        bools(&df, "tile_red"),
    );
    let (tsumogiri, first, established, double, qualifying) = (
        bools(&df, "tsumogiri"),
        bools(&df, "first"),
        bools(&df, "established"),
        bools(&df, "double"),
        bools(&df, "qualifying"),
    );
    let (w, ws, outs, first_suited, won, points) = (
        strs(&df, "waits"),
        strs(&df, "wait_shapes"),
        ints(&df, "outs_own"),
        opt_strs(&df, "first_suited"),
        bools(&df, "won"),
        opt_ints(&df, "points"),
    );
    let mut got: Vec<Riichi> = (0..df.height())
        .map(|i| Riichi {
            hand: hand[i],
            seat: seat[i],
            turn: turn[i],
            tile: tile[i].clone(),
            tile_red: tile_red[i],
            tsumogiri: tsumogiri[i],
            first: first[i],
            established: established[i],
            double: double[i],
            qualifying: qualifying[i],
            waits: w[i].clone(),
            wait_shapes: ws[i].clone(),
            outs_own: outs[i],
            first_suited: first_suited[i].clone(),
            won: won[i],
            points: points[i],
        })
        .collect();
    got.sort_by_key(|r| (r.hand, r.seat));
    let want = vec![
        // Hand 0, the dealer: draws Chun (T132) and declares with it (D132): turn 1, its first
        // discard with no call before → double; tsumogiri. Waits 4s 7s, both ryanmen, neither
        // in its river (7z) → qualifying. Outs: 4s (4 − 1 held in 345s) + 7s (4 − 0) = 7. No
        // suited discard, the declaration tile an honour → first_suited null. It tsumos: 24000.
        Riichi {
            hand: 0,
            seat: 0,
            turn: 1,
            tile: "7z".into(),
            tile_red: false,
            tsumogiri: true,
            first: true,
            established: true,
            double: true,
            qualifying: true,
            waits: waits("4s 7s"),
            wait_shapes: shapes(&[("4s", 'R'), ("7s", 'R')]),
            outs_own: 7,
            first_suited: None,
            won: true,
            points: Some(24000),
        },
        // Hand 0, seat 2: discard #1 3p (after drawing 4p), then draws 5p and declares with 9p
        // (held, not tsumogiri): turn 2, not the first declaration, not double. 45p: waits 3p
        // 6p (ryanmen); 3p is in its river → furiten, not qualifying. Outs 4 + 4 = 8. First
        // suited discard 3p. It does not win.
        Riichi {
            hand: 0,
            seat: 2,
            turn: 2,
            tile: "9p".into(),
            tile_red: false,
            tsumogiri: false,
            first: false,
            established: true,
            double: false,
            qualifying: false,
            waits: waits("3p 6p"),
            wait_shapes: shapes(&[("3p", 'R'), ("6p", 'R')]),
            outs_own: 8,
            first_suited: Some("3p".into()),
            won: false,
            points: None,
        },
        // Hand 1, seat 3: draws 9s and declares with the red 5p (id 52): its first discard,
        // but seat 2 ponned before it → not double. 79p: waits 8p (kanchan), the suji-trap
        // kind of a 5 (2p, 8p). Outs 4. First suited discard = the declaration tile, 5p.
        // Established (REACH step 2 before the dealer's draw); it wins the first AGARI: 2600.
        Riichi {
            hand: 1,
            seat: 3,
            turn: 1,
            tile: "5p".into(),
            tile_red: true,
            tsumogiri: false,
            first: true,
            established: true,
            double: false,
            qualifying: true,
            waits: waits("8p"),
            wait_shapes: shapes(&[("8p", 'K')]),
            outs_own: 4,
            first_suited: Some("5p".into()),
            won: true,
            points: Some(2600),
        },
    ];
    assert_eq!(got, want);
}

// ---------------------------------------------------------------------------------------------
// calls (EXPECTED_V4.md §6)
// ---------------------------------------------------------------------------------------------

/// (hand, seat, kind, from_seat, turn, tiles, open_melds, shanten)
type CallRow = (i64, i64, String, i64, i64, String, i64, Option<i64>);

#[allow(clippy::too_many_arguments)]
fn c(
    hand: i64,
    seat: i64,
    kind: &str,
    from: i64,
    turn: i64,
    tiles: &str,
    open: i64,
    shanten: Option<i64>,
) -> CallRow {
    (
        hand,
        seat,
        kind.to_string(),
        from,
        turn,
        tiles.to_string(),
        open,
        shanten,
    )
}

/// Every chi, pon, daiminkan and kakan of f010, sorted by (hand, seat, turn).
#[test]
fn f010_calls() {
    let out = ingest();
    let df = frame(out.path(), "calls");
    only_f010(&df);
    let (hand, seat, kind, from, turn) = (
        ints(&df, "hand"),
        ints(&df, "seat"),
        strs(&df, "kind"),
        ints(&df, "from_seat"),
        ints(&df, "turn"),
    );
    let (tiles, open, shanten) = (
        strs(&df, "tiles"),
        ints(&df, "open_melds"),
        opt_ints(&df, "shanten"),
    );
    let mut got: Vec<CallRow> = (0..df.height())
        .map(|i| {
            (
                hand[i],
                seat[i],
                kind[i].clone(),
                from[i],
                turn[i],
                tiles[i].clone(),
                open[i],
                shanten[i],
            )
        })
        .collect();
    got.sort_by_key(|a| (a.0, a.1, a.4));
    let want = vec![
        // Hand 1: seat 2 pons the dealer's Chun before any discard of its own. Its 11 tiles
        // 567m 345s 66s 789s are complete: shanten 0 (a complete 3n+2 hand counts 0, not −1).
        c(1, 2, "pon", 0, 0, "7z 7z 7z", 1, Some(0)),
        // Hand 2: seat 2's daiminkan of seat 0's 5m with 0m 5m 5m (ids 16, 18, 19 + called
        // 17: tile-id order 0m 5m 5m 5m). 10 tiles left, 123p 789p 46s 1z 7m: kan + 2 sets,
        // partial 46s, no pair → 8 − 6 − 1 = 1 (its shanten as usual, before the rinshan draw).
        c(2, 2, "daiminkan", 0, 0, "0m 5m 5m 5m", 1, Some(1)),
        // Hand 2: seat 3 pons the dealer's 3s. 11 tiles 68m 4z 234p 567p 1s 9s; the best
        // discard (4z, 1s or 9s) leaves pon + 2 sets + 68m, no pair → 8 − 6 − 1 = 1.
        c(2, 3, "pon", 1, 0, "3s 3s 3s", 1, Some(1)),
        // Hand 2: seat 3 chis seat 2's 7m with 68m after one discard (4z): 2 open melds. 8
        // tiles 234p 567p 1s 9s; throwing 1s leaves 2 melds + 2 sets + a tanki → 0.
        c(2, 3, "chi", 2, 1, "6m 7m 8m", 2, Some(0)),
        // Hand 2: seat 3 adds its drawn 3s to the pon after two discards (4z, 1s); robbed.
        // From its own seat; the kakan'd pon and the chi: 2 open melds; shanten null.
        c(2, 3, "kakan", 3, 2, "3s 3s 3s 3s", 2, None),
        // Hand 3: seat 3 pons the dealer's Haku. 11 tiles 666z 777z 33z 44z 9m: throwing 9m
        // leaves pon + 2 triplets, a pair and a pair → 8 − 6 − 1 − 1 = 0.
        c(3, 3, "pon", 2, 0, "5z 5z 5z", 1, Some(0)),
    ];
    assert_eq!(got, want);
}

// ---------------------------------------------------------------------------------------------
// by_turn (EXPECTED_V4.md §7)
// ---------------------------------------------------------------------------------------------

/// The game's by-turn row: (turn, units, shanten_0..6, declarations, wins).
#[test]
fn f010_by_turn() {
    let out = ingest();
    let df = frame(out.path(), "by_turn");
    only_f010(&df);
    let cols: Vec<Vec<i64>> = [
        "turn",
        "units",
        "shanten_0",
        "shanten_1",
        "shanten_2",
        "shanten_3",
        "shanten_4",
        "shanten_5",
        "shanten_6",
        "declarations",
        "wins",
    ]
    .iter()
    .map(|c| ints(&df, c))
    .collect();
    let mut got: Vec<Vec<i64>> = (0..df.height())
        .map(|r| cols.iter().map(|c| c[r]).collect())
        .collect();
    got.sort();
    let want: Vec<Vec<i64>> = vec![
        // Turn 0: the 16 starting hands. Shanten: hand 0: 0 (dealer), 6 (147m 258p 369s
        // 1234z: seven pairs 6), 1, 4 (159m 159p 1289s 567z: kokushi 9 kinds); hand 1: 5
        // (1479m 1479p 2s 1356z: kokushi 8 kinds), 0, 0, 1; hand 2: 1, 4 (147m 369p 19s
        // 12357z: kokushi 9 kinds), 1, 2; hand 3: 3 (kokushi 10 kinds), 2, 4 (2468m 2468p
        // 2468s 1z: four partials), 1.
        vec![0, 16, 3, 5, 2, 1, 3, 1, 1, 0, 0],
        // Turn 1: 15 discards. Hand 0: 0 (declaration), 6, 1 (3p out, 4p in), 4; hand 1: 5,
        // 0 (after the pon), 0 (declaration), 0; hand 2: 4, 1 (after the pon), 0 (5m out),
        // 0 (after the daiminkan); hand 3: 4, 0 (after the pon), 3. Declarations: hand 0 the
        // dealer, hand 1 seat 3. Wins: hand 1 seats 3 and 1, hand 3 seat 3.
        vec![1, 15, 7, 2, 0, 1, 3, 1, 1, 2, 3],
        // Turn 2: 10 discards. Hand 0: 0, 6, 0 (seat 2's declaration), 4; hand 1: 5, 0;
        // hand 2: 0 (seat 3 after the chi), 0, 4, 0. Declarations: hand 0 seat 2. Wins: hand
        // 0 the dealer (tsumo), hand 2 seat 0 (chankan).
        vec![2, 10, 6, 0, 0, 0, 2, 1, 1, 1, 2],
    ];
    assert_eq!(got, want);
    // Σ units = 16 starting hands + 25 discard records.
    assert_eq!(got.iter().map(|r| r[1]).sum::<i64>(), 41);
}

// ---------------------------------------------------------------------------------------------
// tiles_at_end (EXPECTED_V4.md §8)
// ---------------------------------------------------------------------------------------------

/// f010's `tiles_at_end` summed over its four hands (EXPECTED_V4.md §8), per type in the order
/// 1m..9m, 1p..9p, 1s..9s, 1z..7z, 0m, 0p, 0s: hand, melds, river, wall, in_hands, in_rivers,
/// copies (4 × 4 hands; 4 for a red type).
const TILES_AT_END: [(&str, [i64; 7]); 37] = [
    ("1m", [7, 0, 0, 9, 7, 0, 16]),
    ("2m", [6, 0, 2, 8, 6, 2, 16]),
    ("3m", [5, 0, 1, 10, 5, 1, 16]),
    ("4m", [8, 0, 1, 7, 8, 1, 16]),
    // 5m (worked by hand): hand 0 seat 3 (159m), hand 1 seat 3 (456m), hand 3 seat 0 → 3;
    // the daiminkan 0m 5m 5m 5m → melds 4; seat 2's 5m in hand 1 → river 1; wall 16 − 8.
    // In hands 3 + the kan's three own tiles; in rivers seat 2's 5m and seat 0's called 5m.
    ("5m", [3, 4, 1, 8, 6, 2, 16]),
    ("6m", [4, 1, 0, 11, 5, 0, 16]),
    // 7m: the chi's called 7m is a meld tile, in the discarder's river (in_rivers).
    ("7m", [6, 1, 0, 9, 6, 1, 16]),
    ("8m", [6, 1, 0, 9, 7, 0, 16]),
    ("9m", [4, 0, 1, 11, 4, 1, 16]),
    ("1p", [4, 0, 0, 12, 4, 0, 16]),
    ("2p", [5, 0, 0, 11, 5, 0, 16]),
    ("3p", [3, 0, 2, 11, 3, 2, 16]),
    ("4p", [4, 0, 0, 12, 4, 0, 16]),
    // 5p (by hand): hand 0: the dealer's 0p, seat 1's 258p, seat 2's drawn 5p, seat 3's
    // 159p → 4; hand 2: seat 0's 55p, seat 3's 567p → 3; hand 3: seats 0 and 1 → 2;
    // river: hand 1 seat 3's declaration 0p.
    ("5p", [9, 0, 1, 6, 9, 1, 16]),
    ("6p", [8, 0, 0, 8, 8, 0, 16]),
    ("7p", [7, 0, 1, 8, 7, 1, 16]),
    // 8p (by hand): the ron tile of hand 1 stays in seat 2's river (river 1), not in the
    // ron winners' hands; in hands: hand 0 seat 1, hand 1 seat 1 (88p), hand 2 seats 0
    // and 2, hand 3 seat 2 → 6.
    ("8p", [6, 0, 1, 9, 6, 1, 16]),
    ("9p", [6, 0, 1, 9, 6, 1, 16]),
    ("1s", [4, 0, 2, 10, 4, 2, 16]),
    ("2s", [5, 0, 0, 11, 5, 0, 16]),
    // 3s (by hand): the robbed 3s stays in seat 3's kan (melds 4: three from the pon, the
    // added one); in hands: hand 0 seats 0 and 1, hand 1 seats 1, 2, 3, hand 3 seat 1 → 6;
    // wall 16 − 10. In hands 6 + the kan's 3 own tiles (the added one included); in
    // rivers the dealer's called 3s.
    ("3s", [6, 4, 0, 6, 9, 1, 16]),
    ("4s", [9, 0, 0, 7, 9, 0, 16]),
    ("5s", [7, 0, 0, 9, 7, 0, 16]),
    ("6s", [9, 0, 0, 7, 9, 0, 16]),
    // 7s (by hand): the dealer's tsumo 7s is in its hand at the end; hand 1 seats 1 and 2
    // → 3; hand 1 seat 0's filler 7s → river 1.
    ("7s", [3, 0, 1, 12, 3, 1, 16]),
    ("8s", [4, 0, 0, 12, 4, 0, 16]),
    ("9s", [10, 0, 0, 6, 10, 0, 16]),
    ("1z", [10, 0, 0, 6, 10, 0, 16]),
    ("2z", [3, 0, 2, 11, 3, 2, 16]),
    // 3z (by hand): hand 0 seat 1, hand 1 seat 0, hand 2 seat 1, hand 3 seat 0 (its own
    // West) and seat 3 (33z) → 6; hand 3's ron tile in seat 0's river → 1.
    ("3z", [6, 0, 1, 9, 6, 1, 16]),
    ("4z", [4, 0, 1, 11, 4, 1, 16]),
    // 5z: hand 3's pon (the called Haku from the dealer's river).
    ("5z", [3, 3, 0, 10, 5, 1, 16]),
    ("6z", [5, 0, 0, 11, 5, 0, 16]),
    // 7z (by hand): hand 1's pon 777z (melds 3, the dealer's called Chun in_rivers);
    // hand 0's declaration Chun → river 1; hands: hand 0 seat 3, hand 2 seat 1, hand 3
    // seat 3 (777z) → 5.
    ("7z", [5, 3, 1, 7, 7, 2, 16]),
    // Red fives: 0m in the daiminkan (not its called tile); 0p in the dealer's hand in
    // hand 0 and seat 3's river in hand 1; 0s in seat 1's hand in hand 1. Copies 4 (one
    // per hand).
    ("0m", [0, 1, 0, 3, 1, 0, 4]),
    ("0p", [1, 0, 1, 2, 1, 1, 4]),
    ("0s", [1, 0, 0, 3, 1, 0, 4]),
];

/// Every type, summed over the four hands: (type, hand, melds, river, wall, in_hands,
/// in_rivers, copies), in the order 1m..9m, 1p..9p, 1s..9s, 1z..7z, 0m, 0p, 0s.
#[test]
fn f010_tiles_at_end() {
    let out = ingest();
    let df = frame(out.path(), "tiles_at_end");
    only_f010(&df);
    let types = strs(&df, "type");
    let cols: Vec<Vec<i64>> = [
        "hand",
        "melds",
        "river",
        "wall",
        "in_hands",
        "in_rivers",
        "copies",
    ]
    .iter()
    .map(|c| ints(&df, c))
    .collect();
    let got: Vec<(String, [i64; 7])> = (0..df.height())
        .map(|r| {
            (
                types[r].clone(),
                [
                    cols[0][r], cols[1][r], cols[2][r], cols[3][r], cols[4][r], cols[5][r],
                    cols[6][r],
                ],
            )
        })
        .collect();
    let want = TILES_AT_END;
    let want: Vec<(String, [i64; 7])> = want.iter().map(|(t, v)| (t.to_string(), *v)).collect();
    assert_eq!(got, want);
    for (t, v) in &got {
        assert_eq!(
            v[0] + v[1] + v[2] + v[3],
            v[6],
            "{t}: the four places add up"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// hands (EXPECTED_V4.md §9)
// ---------------------------------------------------------------------------------------------

/// The hands' end and deltas (`hands`) and the §14 columns (`hand_ends`, one row per hand in
/// the same order): longest_river (uncalled discards, ron tiles included), the first seat with
/// it, melds on the table at the end.
#[test]
fn f010_hands() {
    let out = ingest();
    let df = frame(out.path(), "hands");
    let ends = frame(out.path(), "hand_ends");
    only_f010(&df);
    only_f010(&ends);
    assert_eq!(ints(&df, "hand"), ints(&ends, "hand"));
    let end = strs(&df, "end");
    let mut cols: Vec<Vec<i64>> = [
        "hand", "round", "honba", "kyotaku", "dealer", "delta_0", "delta_1", "delta_2", "delta_3",
    ]
    .iter()
    .map(|c| ints(&df, c))
    .collect();
    cols.extend(
        ["longest_river", "longest_river_seat", "melds"]
            .iter()
            .map(|c| ints(&ends, c)),
    );
    let mut got: Vec<(Vec<i64>, String)> = (0..df.height())
        .map(|r| (cols.iter().map(|c| c[r]).collect(), end[r].clone()))
        .collect();
    got.sort();
    let want: Vec<(Vec<i64>, &str)> = vec![
        // Hand 0: dealer tsumo 8000 all + 2 sticks. Rivers: 7z 2z | 2m 1s | 3p 9p | 3m 2m:
        // 2 each → seat 0 first. No meld.
        (
            vec![0, 0, 0, 0, 0, 26000, -8000, -8000, -8000, 2, 0, 0],
            "tsumo",
        ),
        // Hand 1 (honba 1): 2600 + 300 + 1 stick to seat 3, 5200 to seat 1, both from seat 2.
        // Rivers: seat 0 (7z called) 7s → 1, seat 1 2z → 1, seat 2 5m 8p (the ron tile) → 2,
        // seat 3 0p → 1. One meld (seat 2's pon).
        (
            vec![1, 0, 1, 0, 0, 0, 5200, -8100, 3900, 2, 2, 1],
            "double_ron",
        ),
        // Hand 2: 8000 from seat 3 to seat 0. Rivers: seat 0 (5m called) 4m → 1, seat 1 (3s
        // called) 3p → 1, seat 2 (7m called) 7p → 1, seat 3 4z 1s → 2. Melds: the robbed
        // kakan, the chi, the daiminkan → 3.
        (vec![2, 1, 0, 0, 1, 8000, 0, 0, -8000, 2, 3, 3], "ron"),
        // Hand 3: 64000 from seat 0 to seat 3. Rivers: seat 0 3z (the ron tile) → 1, seat 1
        // none, seat 2 (5z called) → 0, seat 3 9m → 1: the first seat with 1 is seat 0. One
        // meld.
        (vec![3, 2, 0, 0, 2, -64000, 0, 0, 64000, 1, 0, 1], "ron"),
    ];
    let want: Vec<(Vec<i64>, String)> = want.into_iter().map(|(v, e)| (v, e.to_string())).collect();
    assert_eq!(got, want);
}

// ---------------------------------------------------------------------------------------------
// The §10–§14 reports on f010 alone (EXPECTED_V4.md §4-§9: the report-level values)
// ---------------------------------------------------------------------------------------------

/// The 34 kinds in the reports' order.
const KIND_NAMES: [&str; 34] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p",
    "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1z", "2z", "3z", "4z", "5z",
    "6z", "7z",
];

/// An expected report cell.
#[derive(Clone, Copy, Debug)]
enum Cell {
    I(i64),
    F(f64),
    S(&'static str),
    /// null (an undefined share or interval, a column that does not apply to the row).
    Null,
}

use Cell::{Null, F, I, S};

type ReportRow = Vec<(&'static str, Cell)>;

/// `haifu stats NAME --frames DIR --format json` on f010 alone.
fn report(dir: &Path, name: &str) -> Vec<serde_json::Value> {
    common::stats_json(dir, name, &[])
}

/// The report's rows are `want`, in order, with exactly these columns (floats to 1e-12,
/// relative).
fn assert_report(name: &str, got: &[serde_json::Value], want: &[ReportRow]) {
    assert_eq!(got.len(), want.len(), "{name}: rows {got:#?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let obj = g.as_object().unwrap();
        let mut got_cols: Vec<&str> = obj.keys().map(String::as_str).collect();
        let mut want_cols: Vec<&str> = w.iter().map(|c| c.0).collect();
        got_cols.sort_unstable();
        want_cols.sort_unstable();
        assert_eq!(got_cols, want_cols, "{name} row {i}: columns");
        for (col, cell) in w {
            let v = &obj[*col];
            let what = format!("{name} row {i} column {col}: {v}, expected {cell:?}");
            match cell {
                I(x) => assert_eq!(v.as_i64(), Some(*x), "{what}"),
                S(x) => assert_eq!(v.as_str(), Some(*x), "{what}"),
                Null => assert!(v.is_null(), "{what}"),
                F(x) => {
                    let y = v.as_f64().unwrap_or_else(|| panic!("{what}"));
                    assert!((y - x).abs() <= 1e-12 * x.abs().max(1.0), "{what}");
                }
            }
        }
    }
}

/// The 95% Wilson interval of k in n (z = 1.96), from its textbook formula.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let (z, p) = (1.96_f64, k / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let (c, d) = (p + z * z / (2.0 * n), 1.0 + z * z / n);
    ((c - half) / d, (c + half) / d)
}

/// A share k/n and its Wilson interval as the cells `p`, `lo`, `hi`.
fn share(
    p: &'static str,
    lo: &'static str,
    hi: &'static str,
    k: i64,
    n: i64,
) -> [(&'static str, Cell); 3] {
    let (l, h) = wilson(k as f64, n as f64);
    [(p, F(k as f64 / n as f64)), (lo, F(l)), (hi, F(h))]
}

/// `yaku` (EXPECTED_V4.md §3, §4): 5 wins; counts by §10's rule (dora, ura and aka count their
/// han), most counted first, then by Tenhou id; the pooled yakuhai last.
#[test]
fn f010_report_yaku() {
    let out = ingest();
    // (key, name, count, wins counting it at least once).
    let yaku: [(&str, &str, i64, i64); 13] = [
        // dora 1 (hand 0) + 1 (hand 1 seat 1) + 2 (hand 2) = 4, in 3 wins.
        ("dora", "ドラ", 4, 3),
        // Hand 0, hand 1 seat 1, hand 2.
        ("tanyao", "断幺九", 3, 3),
        // aka 1 (hand 0: the 0p) + 1 (hand 1 seat 1: the 0s).
        ("aka-dora", "赤ドラ", 2, 2),
        // Count 1 each, by id: menzen-tsumo 0, riichi 1, ippatsu 2, chankan 3, pinfu 7,
        // double-riichi 21, daisangen 39, tsuuiisou 42, ura-dora 53.
        ("menzen-tsumo", "門前清自摸和", 1, 1),
        ("riichi", "立直", 1, 1),
        ("ippatsu", "一発", 1, 1),
        ("chankan", "槍槓", 1, 1),
        ("pinfu", "平和", 1, 1),
        ("double-riichi", "両立直", 1, 1),
        ("daisangen", "大三元", 1, 1),
        ("tsuuiisou", "字一色", 1, 1),
        // ura 1 (hand 0) + 0 (hand 1 seat 3's `53,0`: an entry that counts 0, so that win
        // does not count it).
        ("ura-dora", "裏ドラ", 1, 1),
        // No seat or round wind, no dragon (ids 10-20): the pooled row, 0.
        ("yakuhai", "翻牌", 0, 0),
    ];
    let mut want: Vec<ReportRow> = vec![vec![
        ("yaku", S("all")),
        ("name", S("和了")),
        ("count", I(5)),
        ("share", F(1.0)),
        ("wins_with", I(5)),
        ("win_share", F(1.0)),
        ("win_share_lo", F(1.0)),
        ("win_share_hi", F(1.0)),
        // (24000 + 2600 + 5200 + 8000 + 64000) / 5 = 103800 / 5.
        ("mean_points", F(20760.0)),
        // The four non-yakuman wins: (8 + 2 + 3 + 4) / 4.
        ("mean_han", F(4.25)),
        // Hand 3 seat 3 (daisangen + tsuuiisou).
        ("yakuman_wins", I(1)),
    ]];
    for (key, name, count, with) in yaku {
        let mut row = vec![
            ("yaku", S(key)),
            ("name", S(name)),
            ("count", I(count)),
            ("share", F(count as f64 / 5.0)),
            ("wins_with", I(with)),
        ];
        row.extend(share("win_share", "win_share_lo", "win_share_hi", with, 5));
        row.extend([
            ("mean_points", Null),
            ("mean_han", Null),
            ("yakuman_wins", Null),
        ]);
        want.push(row);
    }
    assert_report("yaku", &report(out.path(), "yaku"), &want);
}

/// `draw-reasons` (EXPECTED_V4.md §4: no drawn hand): every reason and `all` count 0 of the 4
/// hands; a share of 0 draws is undefined (null), its interval too. (queries/draw_reasons.sql
/// has no guard for 0 draws: 0/0 is NaN, which polars orders above 1, so `pd >= 1` makes
/// share_of_draws_hi 1.0 while the share and its lower bound are null.)
#[test]
fn f010_report_draw_reasons() {
    let out = ingest();
    let want: Vec<ReportRow> = [
        "exhaustive",
        "nm",
        "yao9",
        "kaze4",
        "reach4",
        "ron3",
        "kan4",
        "all",
    ]
    .iter()
    .map(|r| {
        let mut row = vec![
            ("reason", S(r)),
            ("count", I(0)),
            ("share_of_draws", Null),
            ("share_of_draws_lo", Null),
            ("share_of_draws_hi", Null),
        ];
        // 0 of 4 hands: 0, its interval [0, 0.9604/1.9604].
        row.extend(share(
            "share_of_hands",
            "share_of_hands_lo",
            "share_of_hands_hi",
            0,
            4,
        ));
        // The denominators: no draw, 4 hands.
        row.extend([("draws", I(0)), ("hands", I(4))]);
        row
    })
    .collect();
    assert_report("draw-reasons", &report(out.path(), "draw-reasons"), &want);
}

/// `by-turn` (EXPECTED_V4.md §7): the three turns' units by shanten, declarations and wins;
/// shares, the tenpai interval, mean shanten and the rates per unit.
#[test]
fn f010_report_by_turn() {
    let out = ingest();
    // turn, shanten 0..6, declarations, wins (EXPECTED_V4.md §7's table).
    let turns: [(i64, [i64; 7], i64, i64); 3] = [
        // 16 starting hands.
        (0, [3, 5, 2, 1, 3, 1, 1], 0, 0),
        // 15 discards; declarations hand 0 s0, hand 1 s3; wins hand 1 s3 and s1, hand 3 s3.
        (1, [7, 2, 0, 1, 3, 1, 1], 2, 3),
        // 10 discards; declaration hand 0 s2; wins hand 0 s0 (tsumo), hand 2 s0 (chankan).
        (2, [6, 0, 0, 0, 2, 1, 1], 1, 2),
    ];
    // Mean shanten: turn 0 (5 + 4 + 3 + 12 + 5 + 6) / 16 = 35/16; turn 1 (2 + 3 + 12 + 5 +
    // 6) / 15 = 28/15; turn 2 (8 + 5 + 6) / 10 = 19/10.
    let means = [35.0 / 16.0, 28.0 / 15.0, 19.0 / 10.0];
    // Σ units = 16 starting hands + 25 discard records.
    let units: i64 = turns.iter().map(|t| t.1.iter().sum::<i64>()).sum();
    assert_eq!(units, 41);
    let want: Vec<ReportRow> = turns
        .iter()
        .zip(means)
        .map(|((turn, sh, decl, wins), mean)| {
            let units: i64 = sh.iter().sum();
            let n = units as f64;
            let mut row = vec![("turn", I(*turn)), ("units", I(units))];
            let cols = [
                ("shanten_0", "share_0"),
                ("shanten_1", "share_1"),
                ("shanten_2", "share_2"),
                ("shanten_3", "share_3"),
                ("shanten_4", "share_4"),
                ("shanten_5", "share_5"),
                ("shanten_6", "share_6"),
            ];
            for ((c, sc), k) in cols.iter().zip(sh) {
                row.push((c, I(*k)));
                row.push((sc, F(*k as f64 / n)));
            }
            let (lo, hi) = wilson(sh[0] as f64, n);
            row.extend([
                ("declarations", I(*decl)),
                ("wins", I(*wins)),
                ("tenpai_lo", F(lo)),
                ("tenpai_hi", F(hi)),
                ("mean_shanten", F(mean)),
                ("declaration_rate", F(*decl as f64 / n)),
                ("win_rate", F(*wins as f64 / n)),
            ]);
            row
        })
        .collect();
    assert_report("by-turn", &report(out.path(), "by-turn"), &want);
}

/// `calls-by-turn` (EXPECTED_V4.md §6): turn 0 with 1 open meld: the three pons (hand 1 s2,
/// hand 2 s3, hand 3 s3) and the daiminkan (hand 2 s2), shanten 0, 1, 0 and 1 → mean 0.5;
/// turn 1 with 2 open melds: hand 2 seat 3's chi, shanten 0. The kakan is not a unit.
#[test]
fn f010_report_calls_by_turn() {
    let out = ingest();
    let want: Vec<ReportRow> = vec![
        vec![
            ("turn", I(0)),
            ("open_melds", I(1)),
            ("calls", I(4)),
            ("share", F(0.8)),
            ("mean_shanten", F(0.5)),
            ("chi", I(0)),
            ("pon", I(3)),
            ("daiminkan", I(1)),
        ],
        vec![
            ("turn", I(1)),
            ("open_melds", I(2)),
            ("calls", I(1)),
            ("share", F(0.2)),
            ("mean_shanten", F(0.0)),
            ("chi", I(1)),
            ("pon", I(0)),
            ("daiminkan", I(0)),
        ],
    ];
    assert_report("calls-by-turn", &report(out.path(), "calls-by-turn"), &want);
}

/// `tiles-at-end` (EXPECTED_V4.md §8): each type's four places as shares of its copies (16 for
/// a kind, 4 for a red type), then per number (0 the red fives, 1..9 the suits pooled, z the
/// honours) in_hands against in_rivers, summed from the same table.
#[test]
fn f010_report_tiles_at_end() {
    let out = ingest();
    let nulls = |cols: &[&'static str]| -> Vec<(&'static str, Cell)> {
        cols.iter().map(|c| (*c, Null)).collect()
    };
    let mut want: Vec<ReportRow> = TILES_AT_END
        .iter()
        .map(|(t, [hand, melds, river, wall, _, _, copies])| {
            let c = *copies as f64;
            let mut row = vec![
                ("type", S(t)),
                ("hand", I(*hand)),
                ("melds", I(*melds)),
                ("river", I(*river)),
                ("wall", I(*wall)),
                ("hand_share", F(*hand as f64 / c)),
                ("melds_share", F(*melds as f64 / c)),
                ("river_share", F(*river as f64 / c)),
                ("wall_share", F(*wall as f64 / c)),
            ];
            row.extend(nulls(&[
                "number",
                "in_hands",
                "in_rivers",
                "in_hands_share",
                "in_hands_share_lo",
                "in_hands_share_hi",
            ]));
            row
        })
        .collect();
    // (number, in_hands, in_rivers) pooled from the table's in_hands / in_rivers columns.
    let numbers: [(&str, i64, i64); 11] = [
        // 0m 1 + 0p 1 + 0s 1; 0p 1 (hand 1 seat 3's declaration tile).
        ("0", 1 + 1 + 1, 1),
        ("1", 7 + 4 + 4, 2),
        ("2", 6 + 5 + 5, 2),
        ("3", 5 + 3 + 9, 1 + 2 + 1),
        ("4", 8 + 4 + 9, 1),
        ("5", 6 + 9 + 7, 2 + 1),
        ("6", 5 + 8 + 9, 0),
        ("7", 6 + 7 + 3, 1 + 1 + 1),
        ("8", 7 + 6 + 4, 1),
        ("9", 4 + 6 + 10, 1 + 1),
        // 1z..7z: 10 + 3 + 6 + 4 + 5 + 5 + 7; 2 + 1 + 1 + 1 + 2.
        ("z", 40, 7),
    ];
    for (number, h, r) in numbers {
        let mut row = nulls(&[
            "type",
            "hand",
            "melds",
            "river",
            "wall",
            "hand_share",
            "melds_share",
            "river_share",
            "wall_share",
        ]);
        row.extend([
            ("number", S(number)),
            ("in_hands", I(h)),
            ("in_rivers", I(r)),
        ]);
        row.extend(share(
            "in_hands_share",
            "in_hands_share_lo",
            "in_hands_share_hi",
            h,
            h + r,
        ));
        want.push(row);
    }
    assert_report("tiles-at-end", &report(out.path(), "tiles-at-end"), &want);
}

/// `winning-tiles` (EXPECTED_V4.md §5): (a) 3 declarations, waiting on 4s 7s (the dealer),
/// 3p 6p (seat 2, hand 0), 8p (seat 3, hand 1), one each; (b) 3 wins without a declaration
/// (hand 1 seat 1: 6p 8p; hand 2 seat 0: 3s; hand 3 seat 3: 3z 4z), one each.
#[test]
fn f010_report_winning_tiles() {
    let out = ingest();
    let riichi = ["3p", "6p", "8p", "4s", "7s"];
    let dama = ["6p", "8p", "3s", "3z", "4z"];
    let want: Vec<ReportRow> = KIND_NAMES
        .iter()
        .map(|k| {
            let r = i64::from(riichi.contains(k));
            let d = i64::from(dama.contains(k));
            let mut row = vec![
                ("kind", S(k)),
                ("declarations", I(3)),
                ("riichi_waits", I(r)),
            ];
            row.extend(share(
                "riichi_share",
                "riichi_share_lo",
                "riichi_share_hi",
                r,
                3,
            ));
            row.extend([("dama_wins", I(3)), ("dama_waits", I(d))]);
            row.extend(share("dama_share", "dama_share_lo", "dama_share_hi", d, 3));
            row
        })
        .collect();
    assert_report("winning-tiles", &report(out.path(), "winning-tiles"), &want);
}

/// `riichi-tile` (EXPECTED_V4.md §5): (a) one qualifying declaration with a suited 4/5/6
/// tile, hand 1 seat 3's 0p (a 5): trap kinds 2p (no) and 8p (kanchan); (b) declaration tiles
/// 5p (waits 8p, kanchan) and 9p (seat 2's, furiten but counted: waits 3p 6p, ryanmen); first
/// suited discards 3p (seat 2: waits 3p 6p) and 5p (seat 3: 8p); the dealer's declaration
/// tile and only discard is the Chun: no row of either (b) section.
#[test]
fn f010_report_riichi_tile() {
    let out = ingest();
    // (section, number, wait number, the shape's column when a wait).
    let mut cells: Vec<(&str, i64, i64, Option<&str>)> =
        vec![("trap", 5, 2, None), ("trap", 5, 8, Some("kanchan"))];
    for (section, number, waits) in [
        ("declaration-tile", 5, &[(8, "kanchan")][..]),
        ("declaration-tile", 9, &[(3, "ryanmen"), (6, "ryanmen")][..]),
        ("first-suited", 3, &[(3, "ryanmen"), (6, "ryanmen")][..]),
        ("first-suited", 5, &[(8, "kanchan")][..]),
    ] {
        for at in 1..=9 {
            let shape = waits.iter().find(|w| w.0 == at).map(|w| w.1);
            cells.push((section, number, at, shape));
        }
    }
    let want: Vec<ReportRow> = cells
        .iter()
        .map(|(section, number, at, shape)| {
            let k = i64::from(shape.is_some());
            let mut row = vec![
                ("section", S(section)),
                ("number", I(*number)),
                ("wait_number", I(*at)),
                // One declaration in every row.
                ("declarations", I(1)),
                ("waits", I(k)),
            ];
            row.extend(share("rate", "rate_lo", "rate_hi", k, 1));
            for c in ["tanki", "shanpon", "kanchan", "penchan", "ryanmen"] {
                row.push((c, I(i64::from(*shape == Some(c)))));
            }
            row
        })
        .collect();
    assert_eq!(want.len(), 2 + 4 * 9);
    assert_report("riichi-tile", &report(out.path(), "riichi-tile"), &want);
}

/// `double-riichi` (EXPECTED_V4.md §5): one double riichi, the dealer's in hand 0, good shape
/// (4s 3 + 7s 4 = 7 ≥ 6 outs), won (24000); no bad shape (its rate and mean undefined: null).
#[test]
fn f010_report_double_riichi() {
    let out = ingest();
    let good = |shape: &'static str| -> ReportRow {
        let mut row = vec![("shape", S(shape)), ("declarations", I(1)), ("wins", I(1))];
        row.extend(share("win_rate", "win_rate_lo", "win_rate_hi", 1, 1));
        row.push(("mean_points", F(24000.0)));
        row
    };
    let want: Vec<ReportRow> = vec![
        good("good"),
        vec![
            ("shape", S("bad")),
            ("declarations", I(0)),
            ("wins", I(0)),
            ("win_rate", Null),
            ("win_rate_lo", Null),
            ("win_rate_hi", Null),
            ("mean_points", Null),
        ],
        good("all"),
    ];
    assert_report("double-riichi", &report(out.path(), "double-riichi"), &want);
}

/// `records` (EXPECTED_V4.md §9, "§14 records on f010 alone"), with how many units share each
/// maximum: the game; seats with the final score; wins; hands; rivers; hands.
#[test]
fn f010_report_records() {
    let out = ingest();
    let rec = |record: &'static str,
               value: i64,
               hand: Option<i64>,
               seat: Option<i64>,
               ties: i64|
     -> ReportRow {
        vec![
            ("record", S(record)),
            ("value", I(value)),
            ("game_id", S(F010)),
            ("hand", hand.map_or(Null, I)),
            ("seat", seat.map_or(Null, I)),
            ("ties", I(ties)),
        ]
    };
    let want: Vec<ReportRow> = vec![
        // 4 hands (tobi in East 3).
        rec("hands-in-a-game", 4, None, None, 1),
        // Seat 3's 75900 (−6000, 22200, 7900, 75900).
        rec("final-score", 75900, None, Some(3), 1),
        // Hand 3 seat 3's double yakuman.
        rec("win-points", 64000, Some(3), Some(3), 1),
        // Hand 0 the dealer's 7 entries (the others 3, 3, 3, 2).
        rec("yaku-entries", 7, Some(0), Some(0), 1),
        // Hand 0's 8 han (the others 2, 3, 4; the yakuman has none).
        rec("han", 8, Some(0), Some(0), 1),
        // Hand 1, honba 1 (the others 0).
        rec("honba", 1, Some(1), None, 1),
        // Hand 0: 0 at the start + the dealer's and seat 2's REACH 2 (hand 1's wins 1 each).
        rec("sticks-at-a-win", 2, Some(0), Some(0), 1),
        // 2 uncalled discards: hand 0 every seat (7z 2z, 2m 1s, 3p 9p, 3m 2m), hand 1 seat 2
        // (5m 8p), hand 2 seat 3 (4z 1s): 6 rivers share it (the record is a river's, as the
        // final score's ties count seats; queries/records.sql counts the 3 hands of
        // `hand_ends`); the first in frame order hand 0 seat 0.
        rec("river-discards", 2, Some(0), Some(0), 6),
        // Hand 2: the kakan (one meld with its pon), the chi, the daiminkan.
        rec("melds-on-table", 3, Some(2), None, 1),
    ];
    assert_report("records", &report(out.path(), "records"), &want);
}
