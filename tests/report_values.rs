//! Every bundled report (`haifu stats --help`, `report::REPORTS`) checked by VALUE: the
//! binary's `haifu stats REPORT --frames DIR --format json` compared row by row, column by
//! column, with the same numbers derived here in plain Rust from the frames (read with polars,
//! then iterated). Nothing below runs SQL or calls haifu's report code: counts are counted,
//! shares divided, Wilson intervals and normal intervals of means re-derived from their
//! textbook formulas (two-pass standard deviations, not the SQL's Σx² form), placements
//! re-ranked from the final scores, tile classes re-derived from the tile types, and the year
//! of a hand taken from its game's `date` rather than from its id. Where a report's numbers
//! can be tied to a second frame, they are (draw-rate against the draw records of `hands`,
//! danger-calibration against the situations and waits of `danger_eval`).
//!
//! The §10–§14 reports (`ingest --with development`) are checked against hands replayed here from the §7
//! `decisions` frame, the `calls` and `walls` frames and the starting hands of each game's
//! source log (section "§10–§14" below).
//!
//! Runs over every fixture (fixtures/, room any, `--seat` too), over the first 300 Phoenix
//! games of the shared corpus when it is present, and over the first 300 games of its
//! `other/` folder (特上/上級/一般 games, some with AI players) when that is present.

// Row tuples written out as the expected tables read best.
#![allow(clippy::type_complexity)]

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use common::{fixtures, frame};
use haifu::ingest::RoomFilter;
use polars::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Reading frames and reports
// ---------------------------------------------------------------------------------------------

fn ints(df: &DataFrame, name: &str) -> Vec<i64> {
    let s = df.column(name).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().map(|v| v.unwrap()).collect()
}

fn floats(df: &DataFrame, name: &str) -> Vec<f64> {
    let s = df.column(name).unwrap().cast(&DataType::Float64).unwrap();
    s.f64().unwrap().iter().map(|v| v.unwrap()).collect()
}

fn strs(df: &DataFrame, name: &str) -> Vec<String> {
    opt_strs(df, name)
        .into_iter()
        .map(|s| s.unwrap_or_else(|| panic!("null in {name}")))
        .collect()
}

fn opt_strs(df: &DataFrame, name: &str) -> Vec<Option<String>> {
    let c = df.column(name).unwrap().str().unwrap().clone();
    c.iter().map(|s| s.map(str::to_string)).collect()
}

fn bools(df: &DataFrame, name: &str) -> Vec<bool> {
    let c = df.column(name).unwrap().bool().unwrap().clone();
    c.iter().map(|v| v.unwrap()).collect()
}

/// `haifu stats REPORT --frames DIR --format json [extra]`: the rows.
fn report(dir: &Path, name: &str, extra: &[&str]) -> Vec<Value> {
    common::stats_json(dir, name, extra)
}

/// An expected cell.
#[derive(Clone, Debug)]
enum V {
    I(i64),
    /// A float; `None` = null (an undefined interval, a 0/0 rate).
    F(Option<f64>),
    S(Option<String>),
    B(bool),
}

fn s(x: &str) -> V {
    V::S(Some(x.to_string()))
}

fn f(x: f64) -> V {
    V::F(Some(x))
}

type Row = Vec<(&'static str, V)>;

/// The report's rows equal `want`, in order, with exactly these columns.
fn compare(name: &str, got: &[Value], want: &[Row]) {
    assert_eq!(
        got.len(),
        want.len(),
        "{name}: {} rows, expected {}",
        got.len(),
        want.len()
    );
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let obj = g.as_object().unwrap();
        let got_cols: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
        let want_cols: BTreeSet<&str> = w.iter().map(|c| c.0).collect();
        assert_eq!(got_cols, want_cols, "{name} row {i}: columns");
        for (col, v) in w {
            let cell = &obj[*col];
            let what = format!("{name} row {i} ({}) column {col}", key_of(w));
            match v {
                V::I(x) => assert_eq!(cell.as_i64(), Some(*x), "{what}: {cell}"),
                V::S(x) => assert_eq!(cell.as_str(), x.as_deref(), "{what}: {cell}"),
                V::B(x) => assert_eq!(cell.as_bool(), Some(*x), "{what}: {cell}"),
                V::F(None) => assert!(cell.is_null(), "{what}: {cell}, expected null"),
                V::F(Some(x)) => {
                    let c = cell
                        .as_f64()
                        .unwrap_or_else(|| panic!("{what}: {cell}, expected {x}"));
                    assert!(
                        (c - x).abs() <= 1e-9 * x.abs().max(1.0),
                        "{what}: report {c}, frames {x}"
                    );
                }
            }
        }
    }
}

/// The string cells of a row, to name it in a failure.
fn key_of(row: &Row) -> String {
    row.iter()
        .filter_map(|(c, v)| match v {
            V::S(Some(x)) => Some(format!("{c}={x}")),
            V::I(x) if ["seat", "held", "visible", "turn", "bin"].contains(c) => {
                Some(format!("{c}={x}"))
            }
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// Statistics, from their textbook definitions
// ---------------------------------------------------------------------------------------------

/// The 95% Wilson score interval of k successes in n trials (z = 1.96):
/// (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n).
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.96_f64;
    let p = k / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    ((centre - half) / d, (centre + half) / d)
}

/// Mean and 95% normal interval (mean ± 1.96·s/√n, s the sample standard deviation computed
/// in two passes); no interval for fewer than two values.
fn mean_ci(xs: &[f64]) -> (f64, Option<f64>, Option<f64>) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, None, None);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * var.sqrt() / n.sqrt();
    (mean, Some(mean - half), Some(mean + half))
}

/// Share k/n with its Wilson interval, as the three cells `{p}`, `{p}_lo`, `{p}_hi`.
fn share_cells(p: &'static str, lo: &'static str, hi: &'static str, k: i64, n: i64) -> Row {
    let (l, h) = wilson(k as f64, n as f64);
    vec![(p, f(k as f64 / n as f64)), (lo, f(l)), (hi, f(h))]
}

/// Mean income with its normal interval.
fn income_cells(xs: &[f64]) -> Row {
    let (m, lo, hi) = mean_ci(xs);
    vec![
        ("mean_income", f(m)),
        ("mean_income_lo", V::F(lo)),
        ("mean_income_hi", V::F(hi)),
    ]
}

/// §1's outcome classes in the reports' order, then `all`.
const OUTCOMES: [&str; 6] = ["win", "deal_in", "tsumo_other", "ron_other", "draw", "all"];

/// The terminal types of §6 `hands.end`: the wins, then the draws (RYUUKYOKU types).
const WIN_ENDS: [&str; 3] = ["tsumo", "ron", "double_ron"];
const DRAW_ENDS: [&str; 7] = [
    "exhaustive",
    "yao9",
    "reach4",
    "ron3",
    "kan4",
    "kaze4",
    "nm",
];

// ---------------------------------------------------------------------------------------------
// The frames, as plain Rust
// ---------------------------------------------------------------------------------------------

struct Game {
    room: String,
    date: Option<String>,
    red: bool,
    names: [Option<String>; 4],
    scores: [i64; 4],
}

impl Game {
    fn year(&self) -> Option<String> {
        self.date.as_ref().map(|d| d[..4].to_string())
    }

    /// Placement of each seat from the final scores, ties to the lower seat.
    fn places(&self) -> [i64; 4] {
        let mut order: Vec<usize> = (0..4).collect();
        order.sort_by_key(|&s| (-self.scores[s], s));
        let mut p = [0; 4];
        for (rank, &seat) in order.iter().enumerate() {
            p[seat] = rank as i64 + 1;
        }
        p
    }
}

fn games(dir: &Path) -> BTreeMap<String, Game> {
    let df = frame(dir, "games");
    let ids = strs(&df, "game_id");
    let (room, date, red) = (strs(&df, "room"), opt_strs(&df, "date"), bools(&df, "red"));
    let names: Vec<Vec<Option<String>>> = (0..4)
        .map(|s| opt_strs(&df, &format!("name_{s}")))
        .collect();
    let scores: Vec<Vec<i64>> = (0..4).map(|s| ints(&df, &format!("score_{s}"))).collect();
    let places: Vec<Vec<i64>> = (0..4).map(|s| ints(&df, &format!("place_{s}"))).collect();
    let mut out = BTreeMap::new();
    for i in 0..df.height() {
        let g = Game {
            room: room[i].clone(),
            date: date[i].clone(),
            red: red[i],
            names: std::array::from_fn(|s| names[s][i].clone()),
            scores: std::array::from_fn(|s| scores[s][i]),
        };
        // The frame's own placements are the ones the scores give.
        let p = g.places();
        for s in 0..4 {
            assert_eq!(places[s][i], p[s], "{} place_{s}", ids[i]);
        }
        assert!(out.insert(ids[i].clone(), g).is_none(), "{} twice", ids[i]);
    }
    out
}

struct Hand {
    game: String,
    end: String,
    wins: i64,
    win_value: i64,
    declarations: i64,
    callers: i64,
    draws: i64,
}

fn hands(dir: &Path, games: &BTreeMap<String, Game>) -> Vec<Hand> {
    let df = frame(dir, "hands");
    let (ids, room, end) = (strs(&df, "game_id"), strs(&df, "room"), strs(&df, "end"));
    let (wins, value, decl, callers, draws) = (
        ints(&df, "wins"),
        ints(&df, "win_value"),
        ints(&df, "declarations"),
        ints(&df, "callers"),
        ints(&df, "draws"),
    );
    (0..df.height())
        .map(|i| {
            let g = &games[&ids[i]];
            assert_eq!(room[i], g.room, "{}: hands.room is the game's", ids[i]);
            assert!(
                WIN_ENDS.contains(&end[i].as_str()) || DRAW_ENDS.contains(&end[i].as_str()),
                "{}: unknown end {}",
                ids[i],
                end[i]
            );
            Hand {
                game: ids[i].clone(),
                end: end[i].clone(),
                wins: wins[i],
                win_value: value[i],
                declarations: decl[i],
                callers: callers[i],
                draws: draws[i],
            }
        })
        .collect()
}

struct Unit {
    game: String,
    seat: i64,
    outcome: String,
    income: f64,
    shanten: i64,
    seat_is_dealer: bool,
    riichi_is_dealer: bool,
    riichi_turn: i64,
}

fn units(dir: &Path) -> Vec<Unit> {
    let df = frame(dir, "riichi_response");
    let (ids, outcome) = (strs(&df, "game_id"), strs(&df, "outcome"));
    let (seat, income, shanten, turn) = (
        ints(&df, "seat"),
        ints(&df, "income"),
        ints(&df, "shanten"),
        ints(&df, "riichi_turn"),
    );
    let (sd, rd) = (bools(&df, "seat_is_dealer"), bools(&df, "riichi_is_dealer"));
    (0..df.height())
        .map(|i| {
            assert!(
                OUTCOMES[..5].contains(&outcome[i].as_str()),
                "{}",
                outcome[i]
            );
            Unit {
                game: ids[i].clone(),
                seat: seat[i],
                outcome: outcome[i].clone(),
                income: income[i] as f64,
                shanten: shanten[i],
                seat_is_dealer: sd[i],
                riichi_is_dealer: rd[i],
                riichi_turn: turn[i],
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// §5 summary, summary-by-year, placement, players
// ---------------------------------------------------------------------------------------------

/// hands, wins, Σ win value, deal-ins, declarations, callers, draws (RYUUKYOKU hands).
#[derive(Default, Clone, Copy)]
struct Counts([i64; 7]);

impl Counts {
    fn add(&mut self, h: &Hand) {
        let deal_in = h.end == "ron" || h.end == "double_ron";
        let draw = DRAW_ENDS.contains(&h.end.as_str());
        for (a, b) in self.0.iter_mut().zip([
            1,
            h.wins,
            h.win_value,
            deal_in as i64,
            h.declarations,
            h.callers,
            draw as i64,
        ]) {
            *a += b;
        }
    }

    fn cells(&self, games: i64) -> Row {
        let [hands, wins, value, deal_ins, riichi, callers, draws] = self.0;
        let per = |x: i64| f(x as f64 / (4.0 * hands as f64));
        vec![
            ("games", V::I(games)),
            ("hands", V::I(hands)),
            ("hands_per_game", f(hands as f64 / games as f64)),
            ("win_rate", per(wins)),
            ("deal_in_rate", per(deal_ins)),
            ("riichi_rate", per(riichi)),
            ("call_rate", per(callers)),
            ("draw_rate", f(draws as f64 / hands as f64)),
            (
                "average_win_value",
                V::F((wins > 0).then(|| value as f64 / wins as f64)),
            ),
            ("wins", V::I(wins)),
            ("deal_ins", V::I(deal_ins)),
            ("riichi", V::I(riichi)),
            ("callers", V::I(callers)),
            ("draws", V::I(draws)),
        ]
    }
}

fn check_summary(dir: &Path) -> usize {
    let gs = games(dir);
    let hs = hands(dir, &gs);
    let mut by_room: BTreeMap<String, (i64, Counts)> = BTreeMap::new();
    let mut all = (0, Counts::default());
    for g in gs.values() {
        by_room.entry(g.room.clone()).or_default().0 += 1;
        all.0 += 1;
    }
    for h in &hs {
        // The room of a hand is its game's (joined by id here; the report reads hands.room).
        by_room.get_mut(&gs[&h.game].room).unwrap().1.add(h);
        all.1.add(h);
    }
    let mut want: Vec<Row> = Vec::new();
    for (room, (n, c)) in by_room.iter().chain([(&"all".to_string(), &all)]) {
        let mut row = vec![("room", s(room))];
        row.extend(c.cells(*n));
        want.push(row);
    }
    compare("summary", &report(dir, "summary", &[]), &want);

    // By year of the game's date; a game without a date in the null year, last.
    let mut by_year: BTreeMap<(bool, Option<String>), (i64, Counts)> = BTreeMap::new();
    for g in gs.values() {
        by_year.entry((g.date.is_none(), g.year())).or_default().0 += 1;
    }
    for h in &hs {
        let y = gs[&h.game].year();
        by_year.get_mut(&(y.is_none(), y)).unwrap().1.add(h);
    }
    let want_y: Vec<Row> = by_year
        .iter()
        .filter(|(_, (_, c))| c.0[0] > 0)
        .map(|((_, y), (n, c))| {
            let mut row = vec![("year", V::S(y.clone()))];
            row.extend(c.cells(*n));
            row
        })
        .collect();
    compare(
        "summary-by-year",
        &report(dir, "summary-by-year", &[]),
        &want_y,
    );
    want.len() + want_y.len()
}

/// Placement rates and average placement of a list of places.
fn place_cells(places: &[i64]) -> Row {
    let n = places.len() as f64;
    let rate = |k: i64| f(places.iter().filter(|&&p| p == k).count() as f64 / n);
    vec![
        ("games", V::I(places.len() as i64)),
        ("first_rate", rate(1)),
        ("second_rate", rate(2)),
        ("third_rate", rate(3)),
        ("fourth_rate", rate(4)),
        ("average_place", f(places.iter().sum::<i64>() as f64 / n)),
    ]
}

fn check_placement(dir: &Path) -> usize {
    let gs = games(dir);
    let mut per_seat: [Vec<i64>; 4] = Default::default();
    for g in gs.values() {
        let p = g.places();
        for seat in 0..4 {
            per_seat[seat].push(p[seat]);
        }
    }
    let want: Vec<Row> = (0..4)
        .map(|seat| {
            let mut row = vec![("seat", V::I(seat as i64))];
            row.extend(place_cells(&per_seat[seat]));
            row
        })
        .collect();
    compare("placement", &report(dir, "placement", &[]), &want);
    4
}

// ---------------------------------------------------------------------------------------------
// §21 player profiles
// ---------------------------------------------------------------------------------------------

/// One name's §21 sums, counted from the `games`, `hands`, `wins`, `riichi`, `calls` and
/// `decisions` frames (not from `seats`).
#[derive(Default)]
struct Profile {
    games: i64,
    hands: i64,
    places: Vec<i64>,
    hanchan_places: [u64; 4],
    scores: Vec<i64>,
    draws: i64,
    dealer_hands: i64,
    dealer_wins: i64,
    /// (points, turn, riichi established, open) of every win.
    wins: Vec<(f64, f64, bool, bool)>,
    /// (points, turn) of every deal-in hand.
    deal_ins: Vec<(f64, f64)>,
    /// (discards before the declaration tile, won established, dealt in, chasing).
    declarations: Vec<(f64, bool, bool, bool)>,
    /// (won, dealt in) of every hand with a chi, pon or daiminkan.
    call_hands: Vec<(bool, bool)>,
}

/// The stable dan's bootstrap interval, re-derived: 2,000 resamples of the name's hanchan
/// places (in order: all 1sts, then 2nds, …), MT19937-64 keyed by the name's bytes, two draws
/// per 64-bit word (low half, then high half), the place at index ⌊x·n / 2³²⌋; the 50th
/// smallest and 50th largest, +∞ (no 4th place) as null.
fn dan_interval(name: &str, c: [u64; 4]) -> (Option<f64>, Option<f64>) {
    let n: u64 = c.iter().sum();
    if n == 0 {
        return (None, None);
    }
    let sorted: Vec<usize> = (0..4)
        .flat_map(|k| std::iter::repeat_n(k, c[k] as usize))
        .collect();
    let mut rng = rand_mt::Mt64::new_with_key(name.bytes().map(u64::from));
    let mut v: Vec<f64> = (0..2000)
        .map(|_| {
            let mut draws: Vec<u64> = Vec::new();
            while (draws.len() as u64) < n {
                let w = rng.next_u64();
                draws.push(w & 0xffff_ffff);
                draws.push(w >> 32);
            }
            draws.truncate(n as usize);
            let mut r = [0u64; 4];
            for x in draws {
                r[sorted[((x * n) >> 32) as usize]] += 1;
            }
            if r[3] == 0 {
                f64::INFINITY
            } else {
                (6 * r[0] + 3 * r[1]) as f64 / r[3] as f64 - 2.0
            }
        })
        .collect();
    v.sort_by(f64::total_cmp);
    let b = |x: f64| x.is_finite().then_some(x);
    (b(v[49]), b(v[1950]))
}

// Seats index several per-seat columns at once.
#[allow(clippy::needless_range_loop)]
fn check_players(dir: &Path) -> usize {
    let gdf = frame(dir, "games");
    let hanchan: HashMap<String, bool> = strs(&gdf, "game_id")
        .into_iter()
        .zip(bools(&gdf, "hanchan"))
        .collect();
    let gs = games(dir);
    let hdf = frame(dir, "hands");
    let (hid, hno, dealer, end) = (
        strs(&hdf, "game_id"),
        ints(&hdf, "hand"),
        ints(&hdf, "dealer"),
        strs(&hdf, "end"),
    );
    let deltas: Vec<Vec<i64>> = (0..4).map(|s| ints(&hdf, &format!("delta_{s}"))).collect();
    let wins = win_rows(dir);
    let rdf = frame(dir, "riichi");
    let (rid, rno, rseat, rturn, est, first) = (
        strs(&rdf, "game_id"),
        ints(&rdf, "hand"),
        ints(&rdf, "seat"),
        ints(&rdf, "turn"),
        bools(&rdf, "established"),
        bools(&rdf, "first"),
    );
    // (hand, seat) → (discards before the declaration tile, established, first).
    let mut declared: HashMap<(HandKey, usize), (i64, bool, bool)> = HashMap::new();
    for i in 0..rdf.height() {
        declared.insert(
            ((rid[i].clone(), rno[i]), rseat[i] as usize),
            (rturn[i] - 1, est[i], first[i]),
        );
    }
    let mut called: BTreeSet<(HandKey, usize)> = BTreeSet::new();
    for c in call_rows(dir) {
        if matches!(c.kind.as_str(), "chi" | "pon" | "daiminkan") {
            called.insert((c.key.clone(), c.seat));
        }
    }
    // Each seat's discards at the hand's end.
    let ds = discards(dir);
    let turns = |key: &HandKey, seat: usize| -> f64 {
        ds.get(key)
            .map_or(0, |v| v.iter().filter(|d| d.seat == seat).count()) as f64
    };
    let mut by_name: BTreeMap<String, Profile> = BTreeMap::new();
    for (id, g) in &gs {
        let p = g.places();
        for s in 0..4 {
            let name = g.names[s].clone().expect("a name");
            let e = by_name.entry(name).or_default();
            e.games += 1;
            e.places.push(p[s]);
            e.scores.push(g.scores[s]);
            if hanchan[id] {
                e.hanchan_places[p[s] as usize - 1] += 1;
            }
        }
    }
    for i in 0..hdf.height() {
        let key: HandKey = (hid[i].clone(), hno[i]);
        let g = &gs[&hid[i]];
        let here: Vec<&WinRow> = wins.iter().filter(|w| w.key == key).collect();
        let discarder = here.iter().find_map(|w| w.discarder).map(|d| d as usize);
        for s in 0..4 {
            let e = by_name.get_mut(g.names[s].as_ref().unwrap()).unwrap();
            e.hands += 1;
            e.draws += i64::from(!matches!(end[i].as_str(), "tsumo" | "ron" | "double_ron"));
            let is_dealer = dealer[i] as usize == s;
            e.dealer_hands += i64::from(is_dealer);
            let d = declared.get(&(key.clone(), s));
            let established = d.is_some_and(|d| d.1);
            let open = called.contains(&(key.clone(), s));
            let won = here.iter().find(|w| w.seat == s);
            if let Some(w) = won {
                let points = deltas[s][i] - if established { 1000 } else { 0 };
                e.wins
                    .push((points as f64, w.turn as f64, established, open));
                e.dealer_wins += i64::from(is_dealer);
            }
            let dealt_in = discarder == Some(s);
            if dealt_in {
                e.deal_ins.push((deltas[s][i] as f64, turns(&key, s)));
            }
            if let Some(&(before, _, first)) = d {
                e.declarations.push((
                    before as f64,
                    won.is_some() && established,
                    dealt_in,
                    !first,
                ));
            }
            if open {
                e.call_hands.push((won.is_some(), dealt_in));
            }
        }
    }
    let mean = |xs: &[f64]| (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64);
    let share = |k: usize, n: usize| (n > 0).then(|| k as f64 / n as f64);
    let mut names: Vec<(&String, &Profile)> = by_name.iter().collect();
    names.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
    let want: Vec<Row> = names
        .iter()
        .map(|(name, p)| {
            let h = p.hands as usize;
            let count = |k: i64| V::I(p.places.iter().filter(|&&x| x == k).count() as i64);
            let c = p.hanchan_places;
            let dan = (c[3] > 0).then(|| (6 * c[0] + 3 * c[1]) as f64 / c[3] as f64 - 2.0);
            let (lo, hi) = dan_interval(name, c);
            let win_points = |f: &dyn Fn(&(f64, f64, bool, bool)) -> bool| {
                mean(
                    &p.wins
                        .iter()
                        .filter(|w| f(w))
                        .map(|w| w.0)
                        .collect::<Vec<_>>(),
                )
            };
            let decl = p.declarations.len();
            let calls = p.call_hands.len();
            vec![
                ("name", s(name)),
                ("games", V::I(p.games)),
                ("hands", V::I(p.hands)),
                ("place_1", count(1)),
                ("place_2", count(2)),
                ("place_3", count(3)),
                ("place_4", count(4)),
                (
                    "average_place",
                    f(p.places.iter().sum::<i64>() as f64 / p.games as f64),
                ),
                ("stable_dan", V::F(dan)),
                ("stable_dan_lo", V::F(lo)),
                ("stable_dan_hi", V::F(hi)),
                (
                    "busts",
                    V::I(p.scores.iter().filter(|&&x| x < 0).count() as i64),
                ),
                ("score", V::I(p.scores.iter().map(|x| x - 25000).sum())),
                (
                    "score_per_game",
                    f(p.scores.iter().map(|x| x - 25000).sum::<i64>() as f64 / p.games as f64),
                ),
                ("win_rate", V::F(share(p.wins.len(), h))),
                ("deal_in_rate", V::F(share(p.deal_ins.len(), h))),
                ("riichi_rate", V::F(share(decl, h))),
                ("call_rate", V::F(share(calls, h))),
                ("draw_rate", V::F(share(p.draws as usize, h))),
                ("average_win", V::F(win_points(&|_| true))),
                (
                    "average_deal_in",
                    V::F(mean(&p.deal_ins.iter().map(|d| d.0).collect::<Vec<_>>())),
                ),
                ("average_win_riichi", V::F(win_points(&|w| w.2))),
                ("average_win_open", V::F(win_points(&|w| w.3 && !w.2))),
                ("average_win_dama", V::F(win_points(&|w| !w.2 && !w.3))),
                (
                    "average_win_turn",
                    V::F(mean(&p.wins.iter().map(|w| w.1).collect::<Vec<_>>())),
                ),
                (
                    "average_deal_in_turn",
                    V::F(mean(&p.deal_ins.iter().map(|d| d.1).collect::<Vec<_>>())),
                ),
                (
                    "average_riichi_turn",
                    V::F(mean(
                        &p.declarations.iter().map(|d| d.0).collect::<Vec<_>>(),
                    )),
                ),
                (
                    "riichi_win_rate",
                    V::F(share(p.declarations.iter().filter(|d| d.1).count(), decl)),
                ),
                (
                    "riichi_deal_in_rate",
                    V::F(share(p.declarations.iter().filter(|d| d.2).count(), decl)),
                ),
                (
                    "chasing_rate",
                    V::F(share(p.declarations.iter().filter(|d| d.3).count(), decl)),
                ),
                (
                    "call_win_rate",
                    V::F(share(p.call_hands.iter().filter(|c| c.0).count(), calls)),
                ),
                (
                    "call_deal_in_rate",
                    V::F(share(p.call_hands.iter().filter(|c| c.1).count(), calls)),
                ),
                ("dealer_hands", V::I(p.dealer_hands)),
                ("dealer_wins", V::I(p.dealer_wins)),
            ]
        })
        .collect();
    compare("players", &report(dir, "players", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §1 riichi response, its splits and its years
// ---------------------------------------------------------------------------------------------

/// One block of §1 rows (one outcome each, then `all`) from the incomes per outcome.
/// `rate_of` gives `rate_per_seat_hand` for a unit count, when the report has it.
fn outcome_rows(
    lead: &[(&'static str, V)],
    cells: &BTreeMap<&str, Vec<f64>>,
    rate_of: Option<&dyn Fn(i64) -> f64>,
) -> Vec<Row> {
    let n: i64 = cells
        .iter()
        .filter(|(o, _)| **o != "all")
        .map(|(_, v)| v.len() as i64)
        .sum();
    let mut rows = Vec::new();
    for o in OUTCOMES {
        let Some(xs) = cells.get(o) else { continue };
        let k = xs.len() as i64;
        let mut row: Row = lead.to_vec();
        row.push(("outcome", s(o)));
        row.push(("units", V::I(k)));
        row.extend(share_cells("share", "share_lo", "share_hi", k, n));
        row.extend(income_cells(xs));
        if let Some(rate) = rate_of {
            row.push(("rate_per_seat_hand", f(rate(k))));
        }
        rows.push(row);
    }
    rows
}

/// Incomes per outcome of the given units, with `all`.
fn by_outcome<'a>(units: impl Iterator<Item = &'a Unit>) -> BTreeMap<&'a str, Vec<f64>> {
    let mut m: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for u in units {
        m.entry(u.outcome.as_str()).or_default().push(u.income);
        m.entry("all").or_default().push(u.income);
    }
    m
}

fn check_riichi_response(dir: &Path) -> usize {
    let gs = games(dir);
    let hs = hands(dir, &gs);
    let us = units(dir);
    assert!(!us.is_empty());
    let n_hands = hs.len() as f64;
    let mut rows = 0;
    // All seats (hands × 4), then each seat alone (`--seat N`: hands × 1).
    for seat in [None, Some(0), Some(1), Some(2), Some(3)] {
        let cells = by_outcome(us.iter().filter(|u| seat.is_none_or(|s| u.seat == s)));
        assert!(cells.contains_key("all"), "no unit for seat {seat:?}");
        let seats = if seat.is_some() { 1.0 } else { 4.0 };
        let rate = |k: i64| k as f64 / (n_hands * seats);
        let want = outcome_rows(&[], &cells, Some(&rate));
        let arg = seat.map(|s: i64| s.to_string());
        let extra: Vec<&str> = match &arg {
            Some(a) => vec!["--seat", a.as_str()],
            None => vec![],
        };
        compare(
            &format!("riichi-response {extra:?}"),
            &report(dir, "riichi-response", &extra),
            &want,
        );
        rows += want.len();
    }

    // The four splits: values in the report's order (string order), outcomes within.
    type Key = fn(&Unit) -> String;
    let splits: [(&str, &str, Key); 4] = [
        ("riichi-response-by-shanten", "shanten", |u| {
            if u.shanten >= 3 {
                "3+".to_string()
            } else {
                u.shanten.to_string()
            }
        }),
        ("riichi-response-by-seat-dealer", "seat_dealer", |u| {
            if u.seat_is_dealer {
                "dealer"
            } else {
                "non-dealer"
            }
            .to_string()
        }),
        ("riichi-response-by-riichi-dealer", "riichi_dealer", |u| {
            if u.riichi_is_dealer {
                "dealer"
            } else {
                "non-dealer"
            }
            .to_string()
        }),
        ("riichi-response-by-riichi-turn", "riichi_turn", |u| {
            match u.riichi_turn {
                t if t <= 6 => "1-6",
                t if t <= 12 => "7-12",
                _ => "13+",
            }
            .to_string()
        }),
    ];
    for (name, split, key) in splits {
        let mut values: BTreeMap<String, Vec<&Unit>> = BTreeMap::new();
        for u in &us {
            values.entry(key(u)).or_default().push(u);
        }
        let mut want = Vec::new();
        for (value, members) in &values {
            let cells = by_outcome(members.iter().copied());
            let mut rows = outcome_rows(&[("split", s(split)), ("value", s(value))], &cells, None);
            // The exact income sums `haifu compare` reads: Σincome and Σincome² of each row's
            // units (the outcomes in OUTCOMES' order, as outcome_rows gives them).
            let present = OUTCOMES.iter().filter(|o| cells.contains_key(*o));
            for (row, o) in rows.iter_mut().zip(present) {
                let xs = &cells[o];
                row.push(("income_sum", V::I(xs.iter().sum::<f64>() as i64)));
                row.push((
                    "income_sq_sum",
                    V::I(xs.iter().map(|x| x * x).sum::<f64>() as i64),
                ));
            }
            want.extend(rows);
        }
        compare(name, &report(dir, name, &[]), &want);
        rows += want.len();
    }

    // By year of the game's date (null last); the rate's denominator is that year's hands.
    let mut hands_of: BTreeMap<(bool, Option<String>), i64> = BTreeMap::new();
    for h in &hs {
        let y = gs[&h.game].year();
        *hands_of.entry((y.is_none(), y)).or_default() += 1;
    }
    let mut years: BTreeMap<(bool, Option<String>), Vec<&Unit>> = BTreeMap::new();
    for u in &us {
        let y = gs[&u.game].year();
        years.entry((y.is_none(), y)).or_default().push(u);
    }
    let mut want = Vec::new();
    for (key, members) in &years {
        let cells = by_outcome(members.iter().copied());
        let hands = hands_of[key] as f64;
        let rate = |k: i64| k as f64 / (hands * 4.0);
        want.extend(outcome_rows(
            &[("year", V::S(key.1.clone()))],
            &cells,
            Some(&rate),
        ));
    }
    compare(
        "riichi-response-by-year",
        &report(dir, "riichi-response-by-year", &[]),
        &want,
    );
    rows + want.len()
}

// ---------------------------------------------------------------------------------------------
// §2 wait danger
// ---------------------------------------------------------------------------------------------

/// docs/definitions.md §6's 19 categories in the report's order, each with its group.
const CATEGORIES: [(&str, &str); 19] = [
    ("honor-0", "honor"),
    ("honor-1", "honor"),
    ("honor-2", "honor"),
    ("honor-3", "honor"),
    ("honor-4", "honor"),
    ("honor-genbutsu", "honor"),
    ("19-musuji", "19"),
    ("19-suji", "19"),
    ("19-genbutsu", "19"),
    ("28-musuji", "28"),
    ("28-suji", "28"),
    ("28-genbutsu", "28"),
    ("37-musuji", "37"),
    ("37-suji", "37"),
    ("37-genbutsu", "37"),
    ("456-musuji", "456"),
    ("456-katasuji", "456"),
    ("456-nakasuji", "456"),
    ("456-genbutsu", "456"),
];
const GROUPS: [&str; 5] = ["honor", "19", "28", "37", "456"];
const SHAPES: [&str; 5] = ["tanki", "shanpon", "kanchan", "penchan", "ryanmen"];

fn check_wait_danger(dir: &Path) -> usize {
    let df = frame(dir, "wait_danger");
    let (ids, hand, rseat) = (
        strs(&df, "game_id"),
        ints(&df, "hand"),
        ints(&df, "riichi_seat"),
    );
    let (kind, category) = (strs(&df, "kind"), strs(&df, "category"));
    let (is_wait, shape) = (bools(&df, "is_wait"), opt_strs(&df, "wait_shape"));
    // Every qualifying declaration contributes the 34 kinds once each.
    let mut per_decl: HashMap<(String, i64, i64), BTreeSet<String>> = HashMap::new();
    // Per category: units, waits, one count per shape.
    let mut per: HashMap<&str, [i64; 7]> = HashMap::new();
    for i in 0..df.height() {
        assert!(
            per_decl
                .entry((ids[i].clone(), hand[i], rseat[i]))
                .or_default()
                .insert(kind[i].clone()),
            "a kind twice in one declaration"
        );
        let c = per.entry(category[i].as_str()).or_default();
        c[0] += 1;
        c[1] += is_wait[i] as i64;
        assert_eq!(
            shape[i].is_some(),
            is_wait[i],
            "a shape exactly for the waits"
        );
        if let Some(sh) = &shape[i] {
            c[2 + SHAPES.iter().position(|x| x == sh).unwrap()] += 1;
        }
    }
    assert!(per_decl.values().all(|k| k.len() == 34));
    assert!(per
        .keys()
        .all(|c| CATEGORIES.iter().any(|(name, _)| name == c)));
    let cells = |level: &str, pattern: &str, c: [i64; 7]| -> Row {
        let n = c[0] as f64;
        let mut row = vec![
            ("pattern", s(pattern)),
            ("level", s(level)),
            ("units", V::I(c[0])),
            ("waits", V::I(c[1])),
        ];
        for (j, sh) in SHAPES.iter().enumerate() {
            let rate_col: &'static str = match *sh {
                "tanki" => "rate_tanki",
                "shanpon" => "rate_shanpon",
                "kanchan" => "rate_kanchan",
                "penchan" => "rate_penchan",
                _ => "rate_ryanmen",
            };
            row.push((rate_col, f(c[2 + j] as f64 / n)));
            row.push((SHAPES[j], V::I(c[2 + j])));
        }
        row.extend(share_cells("rate", "rate_lo", "rate_hi", c[1], c[0]));
        row
    };
    let mut want = Vec::new();
    for (cat, _) in CATEGORIES {
        if let Some(c) = per.get(cat) {
            want.push(cells("category", cat, *c));
        }
    }
    // Convention A (現物 units out of the group's denominator), then B (in).
    for (level, with_genbutsu) in [("excl_genbutsu", false), ("incl_genbutsu", true)] {
        for g in GROUPS {
            let mut sum = [0i64; 7];
            let mut any = false;
            for (cat, grp) in CATEGORIES {
                if grp != g || (!with_genbutsu && cat.ends_with("genbutsu")) {
                    continue;
                }
                if let Some(c) = per.get(cat) {
                    any = true;
                    for (a, b) in sum.iter_mut().zip(c) {
                        *a += b;
                    }
                }
            }
            if any {
                want.push(cells(level, g, sum));
            }
        }
    }
    compare("wait-danger", &report(dir, "wait-danger", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §3 draw rate
// ---------------------------------------------------------------------------------------------

/// The tile class of a §3 type, from its name alone.
fn class_of(tile_type: &str) -> &'static str {
    let (digit, suit) = (&tile_type[..1], &tile_type[1..]);
    match (digit, suit) {
        (_, "z") => "honor",
        ("0", _) => "red5",
        ("1" | "9", _) => "terminal",
        ("2" | "8", _) => "28",
        _ => "3to7",
    }
}

fn check_draw_rate(dir: &Path) -> usize {
    let df = frame(dir, "draw_rate");
    let (tile, class) = (strs(&df, "tile_type"), strs(&df, "tile_class"));
    let (held, visible, turn) = (ints(&df, "held"), ints(&df, "visible"), ints(&df, "turn"));
    let (units, hits, naive) = (
        ints(&df, "units"),
        ints(&df, "hits"),
        floats(&df, "naive_hits"),
    );
    // (class, turn or -1 for the pooled report, held, visible) → units, hits, naive hits.
    let mut buckets: BTreeMap<(String, i64, i64, i64), (i64, i64, f64)> = BTreeMap::new();
    for i in 0..df.height() {
        assert_eq!(class[i], class_of(&tile[i]), "{}", tile[i]);
        for c in ["all", class_of(&tile[i])] {
            for t in [-1, turn[i]] {
                let b = buckets
                    .entry((c.to_string(), t, held[i], visible[i]))
                    .or_default();
                b.0 += units[i];
                b.1 += hits[i];
                b.2 += naive[i];
            }
        }
    }
    // Tied to the hands: every draw record is one unit of each of the game's types (37 with
    // red fives, 34 without) and a hit of exactly one.
    let gs = games(dir);
    let hs = hands(dir, &gs);
    let draws: i64 = hs.iter().map(|h| h.draws).sum();
    let type_units: i64 = hs
        .iter()
        .map(|h| h.draws * if gs[&h.game].red { 37 } else { 34 })
        .sum();
    let all: (i64, i64) = buckets
        .iter()
        .filter(|(k, _)| k.0 == "all" && k.1 == -1)
        .fold((0, 0), |a, (_, v)| (a.0 + v.0, a.1 + v.1));
    assert_eq!(all, (type_units, draws), "draw_rate against hands.draws");
    let row_of = |k: &(String, i64, i64, i64), v: &(i64, i64, f64)| -> Row {
        let mut row = vec![("class", s(&k.0))];
        if k.1 >= 0 {
            row.push(("turn", V::I(k.1)));
        }
        row.extend([
            ("held", V::I(k.2)),
            ("visible", V::I(k.3)),
            ("units", V::I(v.0)),
            ("hits", V::I(v.1)),
        ]);
        row.extend(share_cells("rate", "rate_lo", "rate_hi", v.1, v.0));
        row.push(("naive_hits", f(v.2)));
        row.push(("naive_rate", f(v.2 / v.0 as f64)));
        row
    };
    let pooled: Vec<Row> = buckets
        .iter()
        .filter(|(k, _)| k.1 == -1)
        .map(|(k, v)| row_of(k, v))
        .collect();
    compare("draw-rate", &report(dir, "draw-rate", &[]), &pooled);
    let by_turn: Vec<Row> = buckets
        .iter()
        .filter(|(k, _)| k.1 >= 0)
        .map(|(k, v)| row_of(k, v))
        .collect();
    compare(
        "draw-rate-by-turn",
        &report(dir, "draw-rate-by-turn", &[]),
        &by_turn,
    );
    pooled.len() + by_turn.len()
}

// ---------------------------------------------------------------------------------------------
// §4 danger evaluation and calibration
// ---------------------------------------------------------------------------------------------

const ESTIMATOR_ORDER: [&str; 6] = [
    "none",
    "combo",
    "dennou-old",
    "dennou",
    "dennou-new",
    "phoenix-table",
];
const METRICS: [&str; 4] = ["rmse", "cross_entropy", "auc", "brier"];

fn check_danger(dir: &Path) -> usize {
    let de = frame(dir, "danger_eval");
    let (moment, estimator) = (strs(&de, "moment"), strs(&de, "estimator"));
    let (turn, dealer, n_waits) = (
        ints(&de, "riichi_turn"),
        bools(&de, "riichi_is_dealer"),
        ints(&de, "n_waits"),
    );
    let metrics = METRICS.map(|m| floats(&de, m));
    // (moment, estimator, turn bucket, riichi seat) → situations, metric sums, Σ n_waits;
    // ("all", "all") for the whole (moment, estimator).
    type Group = (i64, [f64; 4], i64);
    let mut groups: BTreeMap<(String, String, String, String), Group> = BTreeMap::new();
    for i in 0..de.height() {
        let bucket = match turn[i] {
            t if t <= 6 => "1-6",
            t if t <= 12 => "7-12",
            _ => "13+",
        };
        let seat = if dealer[i] { "dealer" } else { "non-dealer" };
        for (t, s) in [(bucket, seat), ("all", "all")] {
            let g = groups
                .entry((
                    moment[i].clone(),
                    estimator[i].clone(),
                    t.to_string(),
                    s.to_string(),
                ))
                .or_default();
            g.0 += 1;
            for (a, m) in g.1.iter_mut().zip(&metrics) {
                *a += m[i];
            }
            g.2 += n_waits[i];
        }
    }
    let metric_cells = |g: &Group| -> Row {
        let n = g.0 as f64;
        vec![
            ("situations", V::I(g.0)),
            ("rmse", f(g.1[0] / n)),
            ("cross_entropy", f(g.1[1] / n)),
            ("auc", f(g.1[2] / n)),
            ("brier", f(g.1[3] / n)),
        ]
    };
    let rank = |e: &str| ESTIMATOR_ORDER.iter().position(|x| *x == e).unwrap_or(6);
    let mut totals: Vec<(&(String, String, String, String), &Group)> =
        groups.iter().filter(|(k, _)| k.2 == "all").collect();
    totals
        .sort_by(|a, b| (&a.0 .0, rank(&a.0 .1), &a.0 .1).cmp(&(&b.0 .0, rank(&b.0 .1), &b.0 .1)));
    let want: Vec<Row> = totals
        .iter()
        .map(|(k, g)| {
            let mut row = vec![("moment", s(&k.0)), ("estimator", s(&k.1))];
            row.extend(metric_cells(g));
            row
        })
        .collect();
    assert!(!want.is_empty());
    compare("danger-eval", &report(dir, "danger-eval", &[]), &want);
    // By situation: every (turn bucket, riichi seat) with a situation, in string order.
    let sliced: Vec<Row> = groups
        .iter()
        .filter(|(k, _)| k.2 != "all")
        .map(|(k, g)| {
            let mut row = vec![
                ("moment", s(&k.0)),
                ("estimator", s(&k.1)),
                ("riichi_turn", s(&k.2)),
                ("riichi_seat", s(&k.3)),
            ];
            row.extend(metric_cells(g));
            row
        })
        .collect();
    compare(
        "danger-eval-by-situation",
        &report(dir, "danger-eval-by-situation", &[]),
        &sliced,
    );

    // Calibration: the frame's non-empty bins; over the bins of one (moment, estimator),
    // 34 pairs per situation and as many waits as the situations' waits.
    let dc = frame(dir, "danger_calibration");
    let (m, e, label) = (
        strs(&dc, "moment"),
        strs(&dc, "estimator"),
        strs(&dc, "bin_label"),
    );
    let (bin, pairs, waits) = (ints(&dc, "bin"), ints(&dc, "pairs"), ints(&dc, "waits"));
    const LABELS: [&str; 9] = [
        "0",
        "(0,0.25)",
        "[0.25,0.5)",
        "[0.5,0.75)",
        "[0.75,1)",
        "[1,1.5)",
        "[1.5,2)",
        "[2,3)",
        "[3,inf)",
    ];
    let mut sums: BTreeMap<(String, String), (i64, i64)> = BTreeMap::new();
    let mut rows: BTreeMap<(String, String, i64), (i64, i64)> = BTreeMap::new();
    for i in 0..dc.height() {
        assert_eq!(label[i], LABELS[bin[i] as usize], "bin {}", bin[i]);
        let t = sums.entry((m[i].clone(), e[i].clone())).or_default();
        t.0 += pairs[i];
        t.1 += waits[i];
        if pairs[i] > 0 {
            assert!(rows
                .insert((m[i].clone(), e[i].clone(), bin[i]), (pairs[i], waits[i]))
                .is_none());
        } else {
            assert_eq!(waits[i], 0);
        }
    }
    for ((mo, es), (p, w)) in &sums {
        let g = groups[&(mo.clone(), es.clone(), "all".into(), "all".into())];
        assert_eq!(
            (*p, *w),
            (34 * g.0, g.2),
            "calibration of {mo} {es}: 34 pairs per situation, its waits"
        );
    }
    assert_eq!(sums.len(), totals.len());
    let calib: Vec<Row> = rows
        .iter()
        .map(|((mo, es, b), (p, w))| {
            vec![
                ("moment", s(mo)),
                ("estimator", s(es)),
                ("bin", V::I(*b)),
                ("bin_label", s(LABELS[*b as usize])),
                ("pairs", V::I(*p)),
                ("waits", V::I(*w)),
                ("wait_rate", f(*w as f64 / *p as f64)),
            ]
        })
        .collect();
    compare(
        "danger-calibration",
        &report(dir, "danger-calibration", &[]),
        &calib,
    );
    want.len() + sliced.len() + calib.len()
}

// ---------------------------------------------------------------------------------------------
// §7 decisions
// ---------------------------------------------------------------------------------------------

/// `choices`: per kind of decision and turn bucket of the seat's discards so far + 1 (all,
/// 1-6, 7-12, 13+), the decisions, the unobserved ones and, per action taken (the part of its
/// text before `:`), its count and Wilson share of the observed decisions; rows by kind in the
/// report's order, then turn bucket, then the most taken action first (ties by name).
fn check_choices(dir: &Path) -> usize {
    let df = frame(dir, "choices");
    let (kind, turn) = (strs(&df, "kind"), ints(&df, "turn"));
    let (taken, observed) = (opt_strs(&df, "taken"), bools(&df, "observed"));
    const KINDS: [&str; 10] = [
        "discard",
        "riichi",
        "tsumo",
        "ron",
        "chi",
        "pon",
        "daiminkan",
        "ankan",
        "kakan",
        "kyuushu",
    ];
    // (kind rank, turn rank) → [decisions, observed], and per action its count.
    let mut groups: BTreeMap<(usize, usize), ([i64; 2], BTreeMap<String, i64>)> = BTreeMap::new();
    for i in 0..df.height() {
        let k = KINDS.iter().position(|&x| x == kind[i]).expect("a kind");
        let bucket = match turn[i] + 1 {
            ..=6 => 1,
            7..=12 => 2,
            _ => 3,
        };
        assert_eq!(observed[i], taken[i].is_some(), "observed iff taken");
        for t in [0, bucket] {
            let g = groups.entry((k, t)).or_default();
            g.0[0] += 1;
            if let Some(a) = &taken[i] {
                g.0[1] += 1;
                let action = a.split(':').next().unwrap().to_string();
                *g.1.entry(action).or_default() += 1;
            }
        }
    }
    let mut want: Vec<Row> = Vec::new();
    for ((k, t), ([n, obs], actions)) in &groups {
        let mut actions: Vec<(&String, &i64)> = actions.iter().collect();
        actions.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (action, &count) in actions {
            let mut row = vec![
                ("kind", s(KINDS[*k])),
                ("turn", s(["all", "1-6", "7-12", "13+"][*t])),
                ("action", s(action)),
                ("decisions", V::I(*n)),
                ("unobserved", V::I(n - obs)),
                ("taken", V::I(count)),
            ];
            row.extend(share_cells("share", "share_lo", "share_hi", count, *obs));
            want.push(row);
        }
    }
    compare("choices", &report(dir, "choices", &[]), &want);
    want.len()
}

/// `riichi-or-dama`: the observed `riichi` decisions by wait shape (`none` when absent) and by
/// the bucket of unseen winning tiles (1-2, 3-4, 5-6, 7+), each crossed with the turn bucket
/// and `all`, and the whole by turn: declared (taken `riichi`) and its Wilson share; rows by
/// split (all, shape, waits), value in the report's order, then turn.
fn check_riichi_or_dama(dir: &Path) -> usize {
    let df = frame(dir, "choices");
    let (kind, turn, taken) = (strs(&df, "kind"), ints(&df, "turn"), opt_strs(&df, "taken"));
    let (shape, count) = (opt_strs(&df, "wait_shape"), opt_ints(&df, "wait_count"));
    const VALUES: [&str; 10] = [
        "all", "ryanmen", "penchan", "kanchan", "shanpon", "tanki", "1-2", "3-4", "5-6", "7+",
    ];
    // (split rank, value rank (10: none), turn rank) → [decisions, riichi].
    let mut groups: BTreeMap<(usize, usize, usize), [i64; 2]> = BTreeMap::new();
    for i in 0..df.height() {
        let Some(t) = taken[i].as_deref().filter(|_| kind[i] == "riichi") else {
            continue;
        };
        let bucket = match turn[i] + 1 {
            ..=6 => 1,
            7..=12 => 2,
            _ => 3,
        };
        let sh = shape[i]
            .as_deref()
            .and_then(|x| VALUES.iter().position(|&v| v == x));
        let w = match count[i].expect("a riichi decision's wait count") {
            ..=2 => 6,
            3..=4 => 7,
            5..=6 => 8,
            _ => 9,
        };
        for (split, value) in [(0, 0), (1, sh.unwrap_or(10)), (2, w)] {
            for tb in [0, bucket] {
                let g = groups.entry((split, value, tb)).or_default();
                g[0] += 1;
                g[1] += i64::from(t == "riichi");
            }
        }
    }
    let mut want: Vec<Row> = Vec::new();
    for ((split, value, tb), [n, k]) in &groups {
        let mut row = vec![
            ("split", s(["all", "shape", "waits"][*split])),
            ("value", s(VALUES.get(*value).copied().unwrap_or("none"))),
            ("turn", s(["all", "1-6", "7-12", "13+"][*tb])),
            ("decisions", V::I(*n)),
            ("riichi", V::I(*k)),
        ];
        row.extend(share_cells("riichi_share", "share_lo", "share_hi", *k, *n));
        want.push(row);
    }
    compare("riichi-or-dama", &report(dir, "riichi-or-dama", &[]), &want);
    want.len()
}

/// `call-or-pass`: the observed `chi`, `pon` and `daiminkan` decisions by kind, shanten before
/// (0, 1, 2, 3+) and after (the same buckets; with `lowers`, after < before, since 3+ to 3+ may
/// be either), with `all` margins; called (taken other than `pass`) and its Wilson share.
fn check_call_or_pass(dir: &Path) -> usize {
    let df = frame(dir, "choices");
    let (kind, taken) = (strs(&df, "kind"), opt_strs(&df, "taken"));
    let (before, after) = (opt_ints(&df, "shanten"), opt_ints(&df, "shanten_after"));
    let kinds = ["chi", "pon", "daiminkan"];
    let label = |x: i64| {
        if x >= 3 {
            "3+".to_string()
        } else {
            x.to_string()
        }
    };
    let rank = |x: i64| x.clamp(-1, 3) + 2;
    // (kind, before rank (0 = all), after rank (0 = all), lowers (0 none, 1 false, 2 true))
    // → [decisions, calls], with the labels.
    type Key = (usize, i64, i64, u8);
    let mut groups: BTreeMap<Key, ([i64; 2], String, String)> = BTreeMap::new();
    for i in 0..df.height() {
        let Some(k) = kinds.iter().position(|&x| x == kind[i]) else {
            continue;
        };
        let Some(t) = &taken[i] else { continue };
        let (b, a) = (
            before[i].expect("shanten"),
            after[i].expect("shanten_after"),
        );
        let called = i64::from(t != "pass");
        for key in [
            (
                (k, rank(b), rank(a), 1 + u8::from(a < b)),
                label(b),
                label(a),
            ),
            ((k, rank(b), 0, 0), label(b), "all".to_string()),
            ((k, 0, 0, 0), "all".to_string(), "all".to_string()),
        ] {
            let g = groups.entry(key.0).or_insert(([0, 0], key.1, key.2));
            g.0[0] += 1;
            g.0[1] += called;
        }
    }
    let mut want: Vec<Row> = Vec::new();
    for ((k, _, _, lowers), ([n, c], b, a)) in &groups {
        let mut row = vec![
            ("kind", s(kinds[*k])),
            ("shanten", s(b)),
            ("shanten_after", s(a)),
            (
                "lowers",
                match lowers {
                    0 => V::S(None),
                    l => V::B(*l == 2),
                },
            ),
            ("decisions", V::I(*n)),
            ("calls", V::I(*c)),
        ];
        row.extend(share_cells("call_share", "share_lo", "share_hi", *c, *n));
        want.push(row);
    }
    compare("call-or-pass", &report(dir, "call-or-pass", &[]), &want);
    want.len()
}

/// `decisions`: every decision counted into its group of each split, the splits' values
/// re-derived from the frame's columns (turn buckets 1-6 / 7-12 / 13+, riichi opponents 0 /
/// 1+, own riichi none / declaration / in_riichi), the tsumogiri share over the unforced
/// decisions with its Wilson interval.
fn check_decisions(dir: &Path) -> usize {
    let df = frame(dir, "decisions");
    let after = strs(&df, "after");
    let turn = ints(&df, "turn");
    let opponents = ints(&df, "riichi_opponents");
    let (riichi, in_riichi) = (bools(&df, "riichi"), bools(&df, "in_riichi"));
    let (forced, tsumogiri, called) = (
        bools(&df, "forced"),
        bools(&df, "tsumogiri"),
        bools(&df, "called"),
    );
    // (split rank, value rank) → split, value, [decisions, forced, tsumogiri, declarations,
    // called, unforced tsumogiri].
    let mut groups: BTreeMap<(usize, usize), (&str, &str, [i64; 6])> = BTreeMap::new();
    for i in 0..df.height() {
        let bucket = match turn[i] {
            ..=6 => (0, "1-6"),
            7..=12 => (1, "7-12"),
            _ => (2, "13+"),
        };
        let own = if in_riichi[i] {
            (2, "in_riichi")
        } else if riichi[i] {
            (1, "declaration")
        } else {
            (0, "none")
        };
        let after_rank = match after[i].as_str() {
            "draw" => (0, "draw"),
            "call" => (1, "call"),
            other => panic!("after = {other}"),
        };
        let keys = [
            ((0, 0), ("all", "all")),
            ((1, after_rank.0), ("after", after_rank.1)),
            ((2, bucket.0), ("turn", bucket.1)),
            (
                (3, usize::from(opponents[i] > 0)),
                (
                    "riichi_opponents",
                    if opponents[i] > 0 { "1+" } else { "0" },
                ),
            ),
            ((4, own.0), ("own_riichi", own.1)),
        ];
        for (key, (split, value)) in keys {
            let g = groups.entry(key).or_insert((split, value, [0; 6]));
            let add = [
                1,
                i64::from(forced[i]),
                i64::from(tsumogiri[i]),
                i64::from(riichi[i]),
                i64::from(called[i]),
                i64::from(tsumogiri[i] && !forced[i]),
            ];
            for (t, a) in g.2.iter_mut().zip(add) {
                *t += a;
            }
        }
    }
    let want: Vec<Row> = groups
        .values()
        .map(
            |&(split, value, [n, forced, tsumogiri, declarations, called, free])| {
                let mut row = vec![
                    ("split", s(split)),
                    ("value", s(value)),
                    ("decisions", V::I(n)),
                    ("forced", V::I(forced)),
                    ("unforced", V::I(n - forced)),
                    ("tsumogiri", V::I(tsumogiri)),
                    ("declarations", V::I(declarations)),
                    ("called", V::I(called)),
                ];
                if n > forced {
                    row.extend(share_cells(
                        "tsumogiri_share_unforced",
                        "tsumogiri_share_lo",
                        "tsumogiri_share_hi",
                        free,
                        n - forced,
                    ));
                } else {
                    row.extend([
                        ("tsumogiri_share_unforced", V::F(None)),
                        ("tsumogiri_share_lo", V::F(None)),
                        ("tsumogiri_share_hi", V::F(None)),
                    ]);
                }
                row
            },
        )
        .collect();
    compare("decisions", &report(dir, "decisions", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §10–§14 (`ingest --with development`): tiles, hands, waits and shapes re-derived here
// ---------------------------------------------------------------------------------------------
//
// The reports of §10–§14 read frames that hold counts already (`by_turn`, `tiles_at_end`,
// `hand_ends`) or columns computed by the replay (`wins.waits`, `riichi.wait_shapes`,
// `calls.shanten`). The checks below do not sum those columns: they replay what they need from
// the §7 `decisions` frame (every discard with the concealed tiles before it and the seat's
// melds), the `calls` frame, the `walls` frame (which tiles were never drawn) and the starting
// hands, which no frame holds, read from the INIT tags of each game's source log. Shanten is
// the xiangting crate's (§0 names it); completeness, waits and wait shapes are computed here
// from §0's words, by enumerating decompositions. The frames' own columns are then asserted
// equal to what was re-derived (a tie between frames), and the report against it.

/// The 34 kinds, then the red 5m, 5p, 5s (types 34..36).
const KINDS: usize = 34;
const TYPES: usize = 37;

/// Concealed tiles by kind.
type Tiles = [u8; KINDS];

/// `1m`..`7z` for a kind, `0m`/`0p`/`0s` for a red type.
fn type_name(t: usize) -> String {
    let suits = ["m", "p", "s", "z"];
    if t >= KINDS {
        format!("0{}", suits[t - KINDS])
    } else {
        format!("{}{}", t % 9 + 1, suits[t / 9])
    }
}

/// The type of a two-character name (`0m` → the red 5m, type 34).
fn type_of(name: &str) -> usize {
    let b = name.as_bytes();
    assert_eq!(b.len(), 2, "tile {name}");
    let suit = match b[1] {
        b'm' => 0,
        b'p' => 1,
        b's' => 2,
        b'z' => 3,
        _ => panic!("tile {name}"),
    };
    match b[0] {
        b'0' => KINDS + suit,
        d @ b'1'..=b'9' => suit * 9 + usize::from(d - b'1'),
        _ => panic!("tile {name}"),
    }
}

/// The kind of a type: a red five is its suit's five.
fn kind_of_type(t: usize) -> usize {
    if t >= KINDS {
        (t - KINDS) * 9 + 4
    } else {
        t
    }
}

fn kind_of(name: &str) -> usize {
    kind_of_type(type_of(name))
}

/// Adds `n` copies of type `t` to per-type counts: a red five also counts as its kind's five.
fn add_type(counts: &mut [i64; TYPES], t: usize, n: i64) {
    counts[kind_of_type(t)] += n;
    if t >= KINDS {
        counts[t] += n;
    }
}

/// A 34-digit (or 34-letter) column as its bytes.
fn per_kind(s: &str) -> [u8; KINDS] {
    s.as_bytes()
        .try_into()
        .unwrap_or_else(|_| panic!("34 characters: {s}"))
}

/// §0 shanten of concealed tiles (13 − 3·melds; with 3n+2 tiles, that after the best
/// discard, −1 when complete): the xiangting crate's replacement number − 1.
fn shanten(h: &Tiles) -> i64 {
    let r = xiangting::calculate_replacement_number(h, xiangting::PlayerCount::Four)
        .unwrap_or_else(|e| panic!("{h:?}: {e:?}"));
    i64::from(r) - 1
}

/// A block of a standard decomposition, by its lowest kind.
#[derive(Clone, Copy)]
enum Block {
    Pair(usize),
    Triplet(usize),
    Run(usize),
}

/// Every decomposition of `h` (3n+2 tiles) into one pair and n sets.
fn decompositions(h: &Tiles) -> Vec<Vec<Block>> {
    fn sets(h: &mut Tiles, blocks: &mut Vec<Block>, out: &mut Vec<Vec<Block>>) {
        let Some(i) = (0..KINDS).find(|&i| h[i] > 0) else {
            out.push(blocks.clone());
            return;
        };
        if h[i] >= 3 {
            h[i] -= 3;
            blocks.push(Block::Triplet(i));
            sets(h, blocks, out);
            blocks.pop();
            h[i] += 3;
        }
        if i < 27 && i % 9 <= 6 && h[i + 1] > 0 && h[i + 2] > 0 {
            h[i..i + 3].iter_mut().for_each(|c| *c -= 1);
            blocks.push(Block::Run(i));
            sets(h, blocks, out);
            blocks.pop();
            h[i..i + 3].iter_mut().for_each(|c| *c += 1);
        }
    }
    let mut out = Vec::new();
    for p in 0..KINDS {
        if h[p] >= 2 {
            let mut rest = *h;
            rest[p] -= 2;
            sets(&mut rest, &mut vec![Block::Pair(p)], &mut out);
        }
    }
    out
}

/// §0 shape of a block the added copy of kind `k` stands in: 0 単騎, 1 双碰, 2 嵌張, 3 辺張,
/// 4 両面 (the order of §0); None when the block has no `k`.
fn block_shape(b: Block, k: usize) -> Option<u8> {
    match b {
        Block::Pair(p) if p == k => Some(0),
        Block::Triplet(t) if t == k => Some(1),
        Block::Run(r) if (r..r + 3).contains(&k) => Some(if k == r + 1 {
            2
        } else if (r % 9 == 0 && k == r + 2) || (r % 9 == 6 && k == r) {
            3
        } else {
            4
        }),
        _ => None,
    }
}

/// The letters of the `riichi.wait_shapes` column, in §0's order.
const SHAPE_LETTERS: [u8; 5] = *b"TSKPR";

fn is_yaochu(k: usize) -> bool {
    k >= 27 || matches!(k % 9, 0 | 8)
}

/// §0 waits of concealed tiles (13 − 3·melds), each with its shape (the highest over every
/// decomposition and every block holding the added tile; a seven-pairs or thirteen-orphans
/// completion is 単騎), leaving out the kinds held four times; and whether thirteen orphans is
/// the only completion (a kokushi riichi, §2 (b)).
fn waits(h: &Tiles) -> ([Option<u8>; KINDS], bool) {
    let mut w = [None; KINDS];
    let mut only_kokushi = true;
    for k in 0..KINDS {
        if h[k] >= 4 {
            continue;
        }
        let mut x = *h;
        x[k] += 1;
        let mut best = None;
        for d in decompositions(&x) {
            for b in d {
                best = best.max(block_shape(b, k));
            }
        }
        let fourteen = x.iter().map(|&c| u32::from(c)).sum::<u32>() == 14;
        if fourteen && x.iter().filter(|&&c| c == 2).count() == 7 {
            best = best.max(Some(0));
        }
        if best.is_some() {
            only_kokushi = false;
        } else if fourteen && (0..KINDS).all(|i| if is_yaochu(i) { x[i] >= 1 } else { x[i] == 0 }) {
            best = Some(0);
        }
        w[k] = best;
    }
    let any = w.iter().any(Option::is_some);
    (w, any && only_kokushi)
}

/// Waits as the frames write them: 34 digits 0/1.
fn wait_digits(w: &[Option<u8>; KINDS]) -> [u8; KINDS] {
    w.map(|s| if s.is_some() { b'1' } else { b'0' })
}

/// (game id, hand): a hand of a game.
type HandKey = (String, i64);

/// A meld as `decisions.melds` writes it (`kind:tiles:from`): its kind and tile types (sorted).
#[derive(Clone, Debug, PartialEq)]
struct MeldText {
    kind: String,
    tiles: Vec<usize>,
}

fn parse_melds(s: &str) -> Vec<MeldText> {
    s.split_whitespace()
        .map(|m| {
            let mut parts = m.split(':');
            let kind = parts.next().unwrap().to_string();
            let t = parts.next().unwrap();
            let mut tiles: Vec<usize> = (0..t.len() / 2)
                .map(|i| type_of(&t[2 * i..2 * i + 2]))
                .collect();
            tiles.sort_unstable();
            MeldText { kind, tiles }
        })
        .collect()
}

/// One discard record (a §7 `decisions` row).
struct Discard {
    seat: usize,
    after_call: bool,
    /// The concealed tiles just before the discard (14 − 3·melds).
    concealed: Tiles,
    /// The discarded kind, and whether it was a red five.
    tile: usize,
    red: bool,
    riichi: bool,
    /// Taken by a chi, pon or daiminkan (ron tiles are not).
    called: bool,
    /// The seat's melds at the discard.
    melds: Vec<MeldText>,
}

impl Discard {
    /// The concealed tiles right after the discard.
    fn after(&self) -> Tiles {
        let mut h = self.concealed;
        h[self.tile] -= 1;
        h
    }

    /// The discard's type (red five or kind).
    fn tile_type(&self) -> usize {
        if self.red {
            KINDS + self.tile / 9
        } else {
            self.tile
        }
    }
}

/// The `decisions` frame: every hand's discard records in the frame's (event) order.
fn discards(dir: &Path) -> HashMap<HandKey, Vec<Discard>> {
    let df = frame(dir, "decisions");
    let (ids, hand, seat) = (strs(&df, "game_id"), ints(&df, "hand"), ints(&df, "seat"));
    let (after, concealed, discard) = (
        strs(&df, "after"),
        strs(&df, "concealed"),
        strs(&df, "discard"),
    );
    let (red, riichi, called) = (
        bools(&df, "discard_red"),
        bools(&df, "riichi"),
        bools(&df, "called"),
    );
    let melds = strs(&df, "melds");
    let mut out: HashMap<HandKey, Vec<Discard>> = HashMap::new();
    for i in 0..df.height() {
        let d = Discard {
            seat: seat[i] as usize,
            after_call: after[i] == "call",
            concealed: per_kind(&concealed[i]).map(|c| c - b'0'),
            tile: kind_of(&discard[i]),
            red: red[i],
            riichi: riichi[i],
            called: called[i],
            melds: parse_melds(&melds[i]),
        };
        assert!(
            d.concealed[d.tile] > 0,
            "{} hand {}: discard held",
            ids[i],
            hand[i]
        );
        out.entry((ids[i].clone(), hand[i])).or_default().push(d);
    }
    out
}

/// The four 13-tile starting hands of every hand, from the INIT tags (`hai0`..`hai3`, Tenhou
/// tile ids, kind = id / 4) of each game's source log (gzip or plain): no frame holds them.
fn starting_hands(dir: &Path) -> HashMap<HandKey, [Tiles; 4]> {
    use std::io::Read;
    let df = frame(dir, "games");
    let (ids, sources, n_hands) = (
        strs(&df, "game_id"),
        strs(&df, "source"),
        ints(&df, "hands"),
    );
    let mut out = HashMap::new();
    for i in 0..df.height() {
        let bytes = std::fs::read(&sources[i]).unwrap_or_else(|e| panic!("{}: {e}", sources[i]));
        let mut text = String::new();
        if bytes.starts_with(&[0x1f, 0x8b]) {
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .unwrap();
        } else {
            text = String::from_utf8(bytes).unwrap();
        }
        let mut hand = 0;
        for (pos, _) in text.match_indices("<INIT ") {
            let tag = &text[pos..pos + text[pos..].find('>').unwrap()];
            let seats: [Tiles; 4] = std::array::from_fn(|s| {
                let key = format!(" hai{s}=\"");
                let from = tag.find(&key).unwrap() + key.len();
                let list = &tag[from..from + tag[from..].find('"').unwrap()];
                let mut h = [0; KINDS];
                for id in list.split(',') {
                    h[id.trim().parse::<usize>().unwrap() / 4] += 1;
                }
                assert_eq!(h.iter().map(|&c| u32::from(c)).sum::<u32>(), 13);
                h
            });
            out.insert((ids[i].clone(), hand), seats);
            hand += 1;
        }
        assert_eq!(
            hand, n_hands[i],
            "{}: INIT tags against games.hands",
            ids[i]
        );
    }
    out
}

/// The `hands` frame's rows, in its order: honba and sticks at the start, end, AGARI records.
struct HandRow {
    key: HandKey,
    honba: i64,
    kyotaku: i64,
    end: String,
    wins: i64,
}

fn hand_rows(dir: &Path) -> Vec<HandRow> {
    let df = frame(dir, "hands");
    let (ids, hand, end) = (strs(&df, "game_id"), ints(&df, "hand"), strs(&df, "end"));
    let (honba, kyotaku, wins) = (ints(&df, "honba"), ints(&df, "kyotaku"), ints(&df, "wins"));
    (0..df.height())
        .map(|i| HandRow {
            key: (ids[i].clone(), hand[i]),
            honba: honba[i],
            kyotaku: kyotaku[i],
            end: end[i].clone(),
            wins: wins[i],
        })
        .collect()
}

fn opt_ints(df: &DataFrame, name: &str) -> Vec<Option<i64>> {
    let s = df.column(name).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().collect()
}

/// A `wins` row (one per AGARI record, in the frame's order).
struct WinRow {
    key: HandKey,
    seat: usize,
    discarder: Option<i64>,
    points: i64,
    /// `yaku` parsed: (key, han; None for a yakuman entry).
    yaku: Vec<(String, Option<i64>)>,
    tile: usize,
    turn: i64,
    riichi: bool,
    waits: [u8; KINDS],
    han: Option<i64>,
    yakuman: i64,
    entries: i64,
    sticks: i64,
}

fn win_rows(dir: &Path) -> Vec<WinRow> {
    let df = frame(dir, "wins");
    let (ids, hand, seat) = (strs(&df, "game_id"), ints(&df, "hand"), ints(&df, "seat"));
    let (discarder, points, yaku) = (
        opt_ints(&df, "discarder"),
        ints(&df, "points"),
        strs(&df, "yaku"),
    );
    let (tile, turn, riichi, waits) = (
        strs(&df, "tile"),
        ints(&df, "turn"),
        bools(&df, "riichi"),
        strs(&df, "waits"),
    );
    let (han, yakuman, entries, sticks) = (
        opt_ints(&df, "han"),
        ints(&df, "yakuman"),
        ints(&df, "entries"),
        ints(&df, "sticks"),
    );
    (0..df.height())
        .map(|i| WinRow {
            key: (ids[i].clone(), hand[i]),
            seat: seat[i] as usize,
            discarder: discarder[i],
            points: points[i],
            yaku: yaku[i]
                .split_whitespace()
                .map(|e| {
                    let (k, h) = e.rsplit_once(':').unwrap();
                    (k.to_string(), (h != "Y").then(|| h.parse().unwrap()))
                })
                .collect(),
            tile: kind_of(&tile[i]),
            turn: turn[i],
            riichi: riichi[i],
            waits: per_kind(&waits[i]),
            han: han[i],
            yakuman: yakuman[i],
            entries: entries[i],
            sticks: sticks[i],
        })
        .collect()
}

/// A `calls` row (chi, pon, daiminkan, kakan, ankan), in the frame's order.
struct CallRow {
    key: HandKey,
    seat: usize,
    kind: String,
    /// Tile types, sorted.
    tiles: Vec<usize>,
    turn: i64,
    open_melds: i64,
    shanten: Option<i64>,
}

fn call_rows(dir: &Path) -> Vec<CallRow> {
    let df = frame(dir, "calls");
    let (ids, hand, seat) = (strs(&df, "game_id"), ints(&df, "hand"), ints(&df, "seat"));
    let (kind, tiles, turn) = (strs(&df, "kind"), strs(&df, "tiles"), ints(&df, "turn"));
    let (open, sh) = (ints(&df, "open_melds"), opt_ints(&df, "shanten"));
    (0..df.height())
        .map(|i| {
            let mut t: Vec<usize> = tiles[i].split_whitespace().map(type_of).collect();
            t.sort_unstable();
            CallRow {
                key: (ids[i].clone(), hand[i]),
                seat: seat[i] as usize,
                kind: kind[i].clone(),
                tiles: t,
                turn: turn[i],
                open_melds: open[i],
                shanten: sh[i],
            }
        })
        .collect()
}

/// True when `melds` (a seat's, at a discard) holds the meld of call `c` as `c` made it.
fn holds(melds: &[MeldText], c: &CallRow) -> bool {
    melds.iter().any(|m| m.kind == c.kind && m.tiles == c.tiles)
}

// ---------------------------------------------------------------------------------------------
// §10 yaku and draw reasons
// ---------------------------------------------------------------------------------------------

/// docs/definitions.md §10's table, by Tenhou id: key and name (the winds and dragons with their tile,
/// 自風 東 … 役牌 中).
const YAKU_TABLE: [(&str, &str); 55] = [
    ("menzen-tsumo", "門前清自摸和"),
    ("riichi", "立直"),
    ("ippatsu", "一発"),
    ("chankan", "槍槓"),
    ("rinshan", "嶺上開花"),
    ("haitei", "海底摸月"),
    ("houtei", "河底撈魚"),
    ("pinfu", "平和"),
    ("tanyao", "断幺九"),
    ("iipeikou", "一盃口"),
    ("seat-wind-east", "自風 東"),
    ("seat-wind-south", "自風 南"),
    ("seat-wind-west", "自風 西"),
    ("seat-wind-north", "自風 北"),
    ("round-wind-east", "場風 東"),
    ("round-wind-south", "場風 南"),
    ("round-wind-west", "場風 西"),
    ("round-wind-north", "場風 北"),
    ("haku", "役牌 白"),
    ("hatsu", "役牌 發"),
    ("chun", "役牌 中"),
    ("double-riichi", "両立直"),
    ("chiitoitsu", "七対子"),
    ("chanta", "混全帯幺九"),
    ("ittsu", "一気通貫"),
    ("sanshoku", "三色同順"),
    ("sanshoku-doukou", "三色同刻"),
    ("sankantsu", "三槓子"),
    ("toitoi", "対々和"),
    ("sanankou", "三暗刻"),
    ("shousangen", "小三元"),
    ("honroutou", "混老頭"),
    ("ryanpeikou", "二盃口"),
    ("junchan", "純全帯幺九"),
    ("honitsu", "混一色"),
    ("chinitsu", "清一色"),
    ("renhou", "人和"),
    ("tenhou", "天和"),
    ("chiihou", "地和"),
    ("daisangen", "大三元"),
    ("suuankou", "四暗刻"),
    ("suuankou-tanki", "四暗刻単騎"),
    ("tsuuiisou", "字一色"),
    ("ryuuiisou", "緑一色"),
    ("chinroutou", "清老頭"),
    ("chuuren", "九蓮宝燈"),
    ("junsei-chuuren", "純正九蓮宝燈"),
    ("kokushi", "国士無双"),
    ("kokushi-13", "国士無双十三面"),
    ("daisuushii", "大四喜"),
    ("shousuushii", "小四喜"),
    ("suukantsu", "四槓子"),
    ("dora", "ドラ"),
    ("ura-dora", "裏ドラ"),
    ("aka-dora", "赤ドラ"),
];

/// The Tenhou id of a yaku key (`yaku-<id>` for one outside the table).
fn yaku_id(key: &str) -> i64 {
    match YAKU_TABLE.iter().position(|(k, _)| *k == key) {
        Some(i) => i as i64,
        None => key
            .strip_prefix("yaku-")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("yaku key {key}")),
    }
}

/// §10 count of one entry: its han for dora, ura dora and red dora (tiles), else 1.
fn yaku_count(key: &str, han: Option<i64>) -> i64 {
    match (key, han) {
        ("dora" | "ura-dora" | "aka-dora", Some(h)) => h,
        _ => 1,
    }
}

/// `yaku`: every entry of every win's `wins.yaku` text (not the `win_yaku` frame the report
/// reads) counted by §10's rule, wins counting it at least once with their Wilson interval,
/// the pooled yakuhai (ids 10-20) last; the `all` row's mean points, mean han of the
/// non-yakuman wins (Σ of the entries' han) and yakuman wins. Tied to `hands` (wins, Σ
/// win_value) and to the `wins` columns han, yakuman and entries.
fn check_yaku(dir: &Path) -> usize {
    let ws = win_rows(dir);
    let hs = hand_rows(dir);
    let n = ws.len() as i64;
    assert!(n > 0, "no win");
    assert_eq!(
        n,
        hs.iter().map(|h| h.wins).sum::<i64>(),
        "wins against hands.wins"
    );
    let win_value: i64 = ints(&frame(dir, "hands"), "win_value").iter().sum();
    assert_eq!(ws.iter().map(|w| w.points).sum::<i64>(), win_value);
    // id → (key, count, wins with a count > 0).
    let mut per: BTreeMap<i64, (String, i64, i64)> = BTreeMap::new();
    let (mut yakuhai, mut yakuhai_wins) = (0, 0);
    let (mut han_sum, mut han_wins, mut yakuman_wins) = (0, 0, 0);
    for w in &ws {
        let mut counts: BTreeMap<i64, (String, i64)> = BTreeMap::new();
        for (key, han) in &w.yaku {
            let c = counts.entry(yaku_id(key)).or_insert((key.clone(), 0));
            c.1 += yaku_count(key, *han);
        }
        for (id, (key, c)) in counts {
            let p = per.entry(id).or_insert((key, 0, 0));
            p.1 += c;
            p.2 += i64::from(c > 0);
        }
        let pooled: i64 = w
            .yaku
            .iter()
            .filter(|(k, _)| (10..=20).contains(&yaku_id(k)))
            .map(|(k, h)| yaku_count(k, *h))
            .sum();
        yakuhai += pooled;
        yakuhai_wins += i64::from(pooled > 0);
        let yakuman = w.yaku.iter().filter(|(_, h)| h.is_none()).count() as i64;
        assert_eq!(w.yakuman, yakuman, "wins.yakuman");
        assert_eq!(w.entries, w.yaku.len() as i64, "wins.entries");
        if yakuman > 0 {
            yakuman_wins += 1;
            assert_eq!(w.han, None, "a yakuman win has no han");
        } else {
            let han: i64 = w.yaku.iter().map(|(_, h)| h.unwrap()).sum();
            assert_eq!(w.han, Some(han), "wins.han");
            han_sum += han;
            han_wins += 1;
        }
    }
    let nil = || V::F(None);
    let mut want: Vec<Row> = vec![vec![
        ("yaku", s("all")),
        ("name", s("和了")),
        ("count", V::I(n)),
        ("share", f(1.0)),
        ("wins_with", V::I(n)),
        ("win_share", f(1.0)),
        ("win_share_lo", f(1.0)),
        ("win_share_hi", f(1.0)),
        (
            "mean_points",
            f(ws.iter().map(|w| w.points as f64).sum::<f64>() / n as f64),
        ),
        (
            "mean_han",
            V::F((han_wins > 0).then(|| han_sum as f64 / han_wins as f64)),
        ),
        ("yakuman_wins", V::I(yakuman_wins)),
    ]];
    let row = |key: &str, name: Option<&str>, count: i64, with: i64| -> Row {
        let mut r = vec![
            ("yaku", s(key)),
            ("name", V::S(name.map(str::to_string))),
            ("count", V::I(count)),
            ("share", f(count as f64 / n as f64)),
            ("wins_with", V::I(with)),
        ];
        r.extend(share_cells(
            "win_share",
            "win_share_lo",
            "win_share_hi",
            with,
            n,
        ));
        r.extend([
            ("mean_points", nil()),
            ("mean_han", nil()),
            ("yakuman_wins", nil()),
        ]);
        r
    };
    // Most counted first, then by id.
    let mut order: Vec<(&i64, &(String, i64, i64))> = per.iter().collect();
    order.sort_by_key(|(id, (_, c, _))| (-c, **id));
    for (id, (key, c, with)) in order {
        let name = YAKU_TABLE.get(*id as usize).map(|y| y.1);
        want.push(row(key, name, *c, *with));
    }
    want.push(row("yakuhai", Some("翻牌"), yakuhai, yakuhai_wins));
    compare("yaku", &report(dir, "yaku", &[]), &want);
    want.len()
}

/// `draw-reasons`: the hands by `hands.end` among the RYUUKYOKU types, in the report's order,
/// then `all`; shares of the draws and of the hands with their Wilson intervals (undefined,
/// null, for a share of no draws). Tied to `hands.wins`: a hand is a draw exactly when it has
/// no AGARI.
fn check_draw_reasons(dir: &Path) -> usize {
    let hs = hand_rows(dir);
    let order = [
        "exhaustive",
        "nm",
        "yao9",
        "kaze4",
        "reach4",
        "ron3",
        "kan4",
    ];
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for h in &hs {
        let draw = DRAW_ENDS.contains(&h.end.as_str());
        assert_eq!(draw, h.wins == 0, "{:?}: a draw has no win", h.key);
        if draw {
            *counts
                .entry(order.iter().find(|r| **r == h.end).unwrap())
                .or_default() += 1;
        }
    }
    let draws: i64 = counts.values().sum();
    let hands = hs.len() as i64;
    let want: Vec<Row> = order
        .iter()
        .map(|r| (*r, counts.get(r).copied().unwrap_or(0)))
        .chain([("all", draws)])
        .map(|(reason, k)| {
            let mut row = vec![("reason", s(reason)), ("count", V::I(k))];
            if draws > 0 {
                row.extend(share_cells(
                    "share_of_draws",
                    "share_of_draws_lo",
                    "share_of_draws_hi",
                    k,
                    draws,
                ));
            } else {
                row.extend([
                    ("share_of_draws", V::F(None)),
                    ("share_of_draws_lo", V::F(None)),
                    ("share_of_draws_hi", V::F(None)),
                ]);
            }
            row.extend(share_cells(
                "share_of_hands",
                "share_of_hands_lo",
                "share_of_hands_hi",
                k,
                hands,
            ));
            // The denominators, which `haifu compare` reads.
            row.extend([("draws", V::I(draws)), ("hands", V::I(hands))]);
            row
        })
        .collect();
    compare("draw-reasons", &report(dir, "draw-reasons", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §11 by turn, calls by turn
// ---------------------------------------------------------------------------------------------

/// Per seat, how many discards it made in each hand (its turn at the hand's end).
fn turns_at_end(ds: &HashMap<HandKey, Vec<Discard>>) -> HashMap<HandKey, [i64; 4]> {
    ds.iter()
        .map(|(k, v)| {
            let mut n = [0; 4];
            for d in v {
                n[d.seat] += 1;
            }
            (k.clone(), n)
        })
        .collect()
}

/// `by-turn`: the units re-derived, not read from `by_turn`: turn 0, the four starting hands
/// of every hand (its INIT); turn t ≥ 1, every discard record that was its seat's t-th in the
/// hand (counted here), its shanten that of the concealed tiles before it less the discarded
/// one. Declarations: the discards that are declarations, at that turn (tied to `riichi.turn`);
/// wins: every AGARI at the winner's discards in the hand (tied to `wins.turn`).
fn check_by_turn(dir: &Path) -> usize {
    let hs = hand_rows(dir);
    let starts = starting_hands(dir);
    let ds = discards(dir);
    let at_end = turns_at_end(&ds);
    // turn → units by shanten 0..6, declarations, wins.
    let mut per: BTreeMap<i64, ([i64; 7], i64, i64)> = BTreeMap::new();
    let mut decl_turns: Vec<(HandKey, usize, i64)> = Vec::new();
    for h in &hs {
        for start in &starts[&h.key] {
            per.entry(0).or_default().0[shanten(start) as usize] += 1;
        }
        let mut n = [0i64; 4];
        for d in ds.get(&h.key).into_iter().flatten() {
            n[d.seat] += 1;
            let sh = shanten(&d.after());
            assert!((0..=6).contains(&sh), "{:?}: shanten {sh}", h.key);
            let e = per.entry(n[d.seat]).or_default();
            e.0[sh as usize] += 1;
            if d.riichi {
                e.1 += 1;
                decl_turns.push((h.key.clone(), d.seat, n[d.seat]));
            }
        }
    }
    for w in win_rows(dir) {
        let t = at_end.get(&w.key).map_or(0, |n| n[w.seat]);
        assert_eq!(t, w.turn, "{:?} seat {}: wins.turn", w.key, w.seat);
        per.entry(t).or_default().2 += 1;
    }
    let r = frame(dir, "riichi");
    let (ids, hand, seat, turn) = (
        strs(&r, "game_id"),
        ints(&r, "hand"),
        ints(&r, "seat"),
        ints(&r, "turn"),
    );
    let mut frame_turns: Vec<(HandKey, usize, i64)> = (0..r.height())
        .map(|i| ((ids[i].clone(), hand[i]), seat[i] as usize, turn[i]))
        .collect();
    frame_turns.sort();
    decl_turns.sort();
    assert_eq!(
        frame_turns, decl_turns,
        "riichi.turn against the declarations"
    );
    let want: Vec<Row> = per
        .iter()
        .map(|(t, (sh, decl, wins))| {
            let units: i64 = sh.iter().sum();
            let n = units as f64;
            let mut row = vec![("turn", V::I(*t)), ("units", V::I(units))];
            const COLS: [&str; 7] = [
                "shanten_0",
                "shanten_1",
                "shanten_2",
                "shanten_3",
                "shanten_4",
                "shanten_5",
                "shanten_6",
            ];
            const SHARES: [&str; 7] = [
                "share_0", "share_1", "share_2", "share_3", "share_4", "share_5", "share_6",
            ];
            for (c, k) in COLS.iter().zip(sh) {
                row.push((c, V::I(*k)));
            }
            row.push(("declarations", V::I(*decl)));
            row.push(("wins", V::I(*wins)));
            let (lo, hi) = wilson(sh[0] as f64, n);
            row.extend([("tenpai_lo", f(lo)), ("tenpai_hi", f(hi))]);
            for (c, k) in SHARES.iter().zip(sh) {
                row.push((c, f(*k as f64 / n)));
            }
            let total: i64 = sh.iter().enumerate().map(|(s, k)| s as i64 * k).sum();
            row.extend([
                ("mean_shanten", f(total as f64 / n)),
                ("declaration_rate", f(*decl as f64 / n)),
                ("win_rate", f(*wins as f64 / n)),
            ]);
            row
        })
        .collect();
    compare("by-turn", &report(dir, "by-turn", &[]), &want);
    want.len()
}

/// `calls-by-turn`: every chi, pon and daiminkan of `calls` (as many as the discards
/// `decisions` marks called), its turn, open melds and shanten re-derived from the caller's
/// discard records (and tied to the frame's): a chi or pon is the caller's next discard
/// record after a call, whose concealed tiles are those just after the call: its turn = the
/// caller's discards before it, open melds = its melds but ankan, shanten = the lowest over
/// one discard. A daiminkan: turn = the caller's discards whose melds do not hold it yet;
/// concealed = those after the last of them (the starting hand when none) less the three
/// tiles of the kan kind; open melds = those melds but ankan + 1.
fn check_calls_by_turn(dir: &Path) -> usize {
    let starts = starting_hands(dir);
    let ds = discards(dir);
    let cs = call_rows(dir);
    let mut called: HashMap<&HandKey, i64> = HashMap::new();
    for (k, v) in &ds {
        called.insert(k, v.iter().filter(|d| d.called).count() as i64);
    }
    let mut calls_in: HashMap<&HandKey, i64> = HashMap::new();
    // (turn, open melds) → shanten at each call, chi, pon, daiminkan.
    let mut groups: BTreeMap<(i64, i64), (Vec<i64>, [i64; 3])> = BTreeMap::new();
    // (hand, seat) → the chi and pon seen so far.
    let mut seen: HashMap<(&HandKey, usize), usize> = HashMap::new();
    for c in &cs {
        let kind = match c.kind.as_str() {
            "chi" => 0,
            "pon" => 1,
            "daiminkan" => 2,
            _ => continue,
        };
        *calls_in.entry(&c.key).or_default() += 1;
        let mine: Vec<&Discard> = ds[&c.key].iter().filter(|d| d.seat == c.seat).collect();
        let (turn, open, sh) = if kind < 2 {
            let j = seen.entry((&c.key, c.seat)).or_default();
            let (i, d) = mine
                .iter()
                .enumerate()
                .filter(|(_, d)| d.after_call)
                .nth(*j)
                .unwrap_or_else(|| panic!("{:?}: no discard after the call", c.key));
            *j += 1;
            let new = d.melds.last().unwrap();
            assert_eq!((&new.kind, &new.tiles), (&c.kind, &c.tiles), "{:?}", c.key);
            let best = (0..KINDS)
                .filter(|&k| d.concealed[k] > 0)
                .map(|k| {
                    let mut h = d.concealed;
                    h[k] -= 1;
                    shanten(&h)
                })
                .min()
                .unwrap();
            let open = d.melds.iter().filter(|m| m.kind != "ankan").count() as i64;
            (i as i64, open, best)
        } else {
            let i = mine
                .iter()
                .position(|d| holds(&d.melds, c))
                .unwrap_or(mine.len());
            let (mut h, before) = match i {
                0 => (starts[&c.key][c.seat], 0),
                _ => (
                    mine[i - 1].after(),
                    mine[i - 1]
                        .melds
                        .iter()
                        .filter(|m| m.kind != "ankan")
                        .count() as i64,
                ),
            };
            let k = kind_of_type(c.tiles[0]);
            assert!(h[k] >= 3, "{:?}: a daiminkan of three held {k}", c.key);
            h[k] -= 3;
            (i as i64, before + 1, shanten(&h))
        };
        assert_eq!(
            (turn, open, Some(sh)),
            (c.turn, c.open_melds, c.shanten),
            "{:?} seat {} {}: calls (turn, open_melds, shanten)",
            c.key,
            c.seat,
            c.kind
        );
        let g = groups.entry((turn, open)).or_default();
        g.0.push(sh);
        g.1[kind] += 1;
    }
    for (k, n) in &called {
        assert_eq!(
            calls_in.get(k).copied().unwrap_or(0),
            *n,
            "{k:?}: chi/pon/daiminkan against the called discards"
        );
    }
    let total: usize = groups.values().map(|g| g.0.len()).sum();
    assert!(total > 0, "no call");
    let want: Vec<Row> = groups
        .iter()
        .map(|((t, o), (sh, k))| {
            vec![
                ("turn", V::I(*t)),
                ("open_melds", V::I(*o)),
                ("calls", V::I(sh.len() as i64)),
                ("share", f(sh.len() as f64 / total as f64)),
                (
                    "mean_shanten",
                    f(sh.iter().sum::<i64>() as f64 / sh.len() as f64),
                ),
                ("chi", V::I(k[0])),
                ("pon", V::I(k[1])),
                ("daiminkan", V::I(k[2])),
            ]
        })
        .collect();
    compare("calls-by-turn", &report(dir, "calls-by-turn", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §12 tiles at the end of a hand, winning tiles
// ---------------------------------------------------------------------------------------------

/// Per game, where each type's copies are at the hands' ends: [hand, melds, river, wall,
/// in_hands, in_rivers, copies].
type Places = BTreeMap<String, [[i64; 7]; TYPES]>;

/// §12's counts per game re-derived: copies (4 × hands; a red type 1 × hands in a game with
/// red fives), melds from `calls` (every meld's tiles, a kakan adding its one tile to its pon,
/// the robbed tile of a chankan included), river and in_rivers from `decisions` (uncalled
/// discards; every discard), wall from `walls` (the tiles never drawn: positions 52 +
/// live_draws..=121 and 122 + rinshan_draws..=135) when every hand of the game has its wall,
/// hand = copies − wall − melds − river, in_hands = hand + melds − the called discards. A game
/// without walls (the hand-made fixtures have no seed) takes its hand count from
/// `tiles_at_end` (fixture_peer_v3.rs pins f010's). Returns the counts and how many games had
/// their walls.
fn places(dir: &Path) -> (Places, usize) {
    let g = frame(dir, "games");
    let (ids, red, n_hands) = (strs(&g, "game_id"), bools(&g, "red"), ints(&g, "hands"));
    let te = frame(dir, "tiles_at_end");
    let (te_ids, te_type) = (strs(&te, "game_id"), strs(&te, "type"));
    let cols = [
        "hand",
        "melds",
        "river",
        "wall",
        "in_hands",
        "in_rivers",
        "copies",
    ]
    .map(|c| ints(&te, c));
    let mut framed: Places = BTreeMap::new();
    for i in 0..te.height() {
        let row =
            &mut framed.entry(te_ids[i].clone()).or_insert([[0; 7]; TYPES])[type_of(&te_type[i])];
        for (c, col) in cols.iter().enumerate() {
            row[c] += col[i];
        }
    }
    // Per game and type: melds, river, in_rivers, called discards.
    let mut melds: BTreeMap<String, [i64; TYPES]> = BTreeMap::new();
    let cs = call_rows(dir);
    for c in &cs {
        let m = melds.entry(c.key.0.clone()).or_insert([0; TYPES]);
        match c.kind.as_str() {
            "kakan" => {
                // The pon it extends: the kakan's one more tile.
                let pon = cs
                    .iter()
                    .find(|p| {
                        p.key == c.key
                            && p.seat == c.seat
                            && p.kind == "pon"
                            && kind_of_type(p.tiles[0]) == kind_of_type(c.tiles[0])
                    })
                    .expect("a kakan extends a pon");
                let mut added = c.tiles.clone();
                for t in &pon.tiles {
                    added.remove(added.iter().position(|x| x == t).unwrap());
                }
                assert_eq!(added.len(), 1);
                add_type(m, added[0], 1);
            }
            _ => c.tiles.iter().for_each(|&t| add_type(m, t, 1)),
        }
    }
    let mut river: BTreeMap<String, [[i64; TYPES]; 3]> = BTreeMap::new();
    for (key, v) in discards(dir) {
        let r = river.entry(key.0).or_insert([[0; TYPES]; 3]);
        for d in v {
            add_type(&mut r[usize::from(d.called)], d.tile_type(), 1);
            add_type(&mut r[2], d.tile_type(), 1);
        }
    }
    let w = frame(dir, "walls");
    let (w_ids, w_tiles) = (strs(&w, "game_id"), strs(&w, "tiles"));
    let (live, rinshan) = (ints(&w, "live_draws"), ints(&w, "rinshan_draws"));
    let mut walls: BTreeMap<String, ([i64; TYPES], i64)> = BTreeMap::new();
    for i in 0..w.height() {
        let e = walls.entry(w_ids[i].clone()).or_insert(([0; TYPES], 0));
        e.1 += 1;
        let undrawn = (52 + live[i]..=121).chain(122 + rinshan[i]..=135);
        for p in undrawn {
            let p = 2 * p as usize;
            add_type(&mut e.0, type_of(&w_tiles[i][p..p + 2]), 1);
        }
    }
    let mut out: Places = BTreeMap::new();
    let mut with_walls = 0;
    for i in 0..g.height() {
        let id = &ids[i];
        let none = [0; TYPES];
        let m = melds.get(id).unwrap_or(&none);
        let [r, called, all] = river.get(id).copied().unwrap_or([none; 3]);
        let wall = walls.get(id).filter(|(_, n)| *n == n_hands[i]);
        with_walls += usize::from(wall.is_some());
        let mut rows = [[0; 7]; TYPES];
        for t in 0..TYPES {
            let copies = match (t < KINDS, red[i]) {
                (true, _) => 4 * n_hands[i],
                (false, true) => n_hands[i],
                (false, false) => 0,
            };
            let (hand, wall) = match wall {
                Some((wl, _)) => (copies - wl[t] - m[t] - r[t], wl[t]),
                None => {
                    let hand = framed[id][t][0];
                    (hand, copies - hand - m[t] - r[t])
                }
            };
            rows[t] = [
                hand,
                m[t],
                r[t],
                wall,
                hand + m[t] - called[t],
                all[t],
                copies,
            ];
            assert!(
                rows[t].iter().all(|&x| x >= 0),
                "{id} {}: {:?}",
                type_name(t),
                rows[t]
            );
            assert_eq!(
                rows[t],
                framed[id][t],
                "{id} {}: tiles_at_end [hand, melds, river, wall, in_hands, in_rivers, copies]",
                type_name(t)
            );
        }
        out.insert(id.clone(), rows);
    }
    (out, with_walls)
}

/// `tiles-at-end`: the four places per type, summed over the games of [`places`], as shares of
/// the copies; then per number (1..9 the suits pooled, 0 the red fives, z the honours pooled)
/// in_hands against in_rivers with the Wilson interval, in the report's order (0, 1..9, z).
fn check_tiles_at_end(dir: &Path) -> usize {
    let (per_game, with_walls) = places(dir);
    eprintln!(
        "{}: tiles-at-end: {with_walls} of {} games with their walls",
        dir.display(),
        per_game.len()
    );
    let mut sum = [[0i64; 7]; TYPES];
    for rows in per_game.values() {
        for (s, r) in sum.iter_mut().zip(rows) {
            for (a, b) in s.iter_mut().zip(r) {
                *a += b;
            }
        }
    }
    let mut want: Vec<Row> = Vec::new();
    for (t, [hand, melds, river, wall, ..]) in sum.iter().enumerate() {
        let copies = sum[t][6] as f64;
        let share = |x: i64| V::F((copies > 0.0).then(|| x as f64 / copies));
        let mut row = vec![
            ("type", s(&type_name(t))),
            ("hand", V::I(*hand)),
            ("melds", V::I(*melds)),
            ("river", V::I(*river)),
            ("wall", V::I(*wall)),
            ("hand_share", share(*hand)),
            ("melds_share", share(*melds)),
            ("river_share", share(*river)),
            ("wall_share", share(*wall)),
        ];
        for c in ["number", "in_hands", "in_rivers", "in_hands_share"] {
            row.push((c, V::F(None)));
        }
        row.extend([
            ("in_hands_share_lo", V::F(None)),
            ("in_hands_share_hi", V::F(None)),
        ]);
        want.push(row);
    }
    // Per number: "0" the red types, "1".."9" the suited kinds, "z" the honours.
    let mut numbers: BTreeMap<(u8, String), (i64, i64)> = BTreeMap::new();
    for (t, r) in sum.iter().enumerate() {
        let (order, label) = match t {
            KINDS.. => (0, "0".to_string()),
            27.. => (10, "z".to_string()),
            _ => ((t % 9 + 1) as u8, (t % 9 + 1).to_string()),
        };
        let e = numbers.entry((order, label)).or_default();
        e.0 += r[4];
        e.1 += r[5];
    }
    for ((_, label), (h, r)) in &numbers {
        let mut row = vec![];
        for c in ["type", "hand", "melds", "river", "wall"] {
            row.push((c, V::F(None)));
        }
        for c in ["hand_share", "melds_share", "river_share", "wall_share"] {
            row.push((c, V::F(None)));
        }
        row.extend([
            ("number", s(label)),
            ("in_hands", V::I(*h)),
            ("in_rivers", V::I(*r)),
        ]);
        row.extend(share_cells(
            "in_hands_share",
            "in_hands_share_lo",
            "in_hands_share_hi",
            *h,
            h + r,
        ));
        want.push(row);
    }
    compare("tiles-at-end", &report(dir, "tiles-at-end", &[]), &want);
    want.len()
}

/// The winner's concealed tiles just before its winning tile: those after its last discard
/// (its starting hand when it made none) less the kans it made since, each with the tile drawn
/// for it (a daiminkan of three held tiles; an ankan of three held and the drawn fourth; a
/// kakan of the drawn fourth); None when a kan's draw cannot be placed (an ankan of four held
/// tiles, a kakan of a held one).
fn before_win(w: &WinRow, mine: &[&Discard], start: &Tiles, calls: &[CallRow]) -> Option<Tiles> {
    let (mut h, melds) = match mine.last() {
        Some(d) => (d.after(), d.melds.clone()),
        None => (*start, Vec::new()),
    };
    for c in calls.iter().filter(|c| c.key == w.key && c.seat == w.seat) {
        let k = kind_of_type(c.tiles[0]);
        let made_before = match c.kind.as_str() {
            // A pon may have become a kakan since.
            "pon" => melds
                .iter()
                .any(|m| (m.kind == "pon" || m.kind == "kakan") && kind_of_type(m.tiles[0]) == k),
            _ => holds(&melds, c),
        };
        if made_before {
            continue;
        }
        match (c.kind.as_str(), h[k]) {
            ("daiminkan" | "ankan", 3) => h[k] = 0,
            ("kakan", 0) => {}
            _ => return None,
        }
    }
    Some(h)
}

/// `winning-tiles`: (a) every declaration (the `decisions` discards that are declarations),
/// its waits those of the tiles after the declaration discard; (b) every win whose winner made
/// no declaration in the hand, its waits those of [`before_win`] (the frame's `wins.waits`
/// when a kan's draw cannot be placed; counted). Tied to `riichi.waits`, `wins.waits` and
/// `wins.riichi`.
fn check_winning_tiles(dir: &Path) -> usize {
    let starts = starting_hands(dir);
    let ds = discards(dir);
    let cs = call_rows(dir);
    let r = frame(dir, "riichi");
    let (r_ids, r_hand, r_seat, r_waits) = (
        strs(&r, "game_id"),
        ints(&r, "hand"),
        ints(&r, "seat"),
        strs(&r, "waits"),
    );
    let frame_waits: HashMap<(HandKey, usize), [u8; KINDS]> = (0..r.height())
        .map(|i| {
            (
                ((r_ids[i].clone(), r_hand[i]), r_seat[i] as usize),
                per_kind(&r_waits[i]),
            )
        })
        .collect();
    let mut riichi_waits = [0i64; KINDS];
    let mut declared: BTreeSet<(HandKey, usize)> = BTreeSet::new();
    for (key, v) in &ds {
        for d in v.iter().filter(|d| d.riichi) {
            let w = wait_digits(&waits(&d.after()).0);
            assert_eq!(
                frame_waits.get(&(key.clone(), d.seat)),
                Some(&w),
                "{key:?} seat {}: riichi.waits",
                d.seat
            );
            for k in 0..KINDS {
                riichi_waits[k] += i64::from(w[k] == b'1');
            }
            assert!(
                declared.insert((key.clone(), d.seat)),
                "{key:?}: two declarations"
            );
        }
    }
    assert_eq!(
        declared.len(),
        frame_waits.len(),
        "riichi rows against the declarations"
    );
    let (mut dama_wins, mut dama_waits, mut fallbacks) = (0i64, [0i64; KINDS], 0);
    for w in win_rows(dir) {
        let riichi = declared.contains(&(w.key.clone(), w.seat));
        assert_eq!(riichi, w.riichi, "{:?} seat {}: wins.riichi", w.key, w.seat);
        if riichi {
            continue;
        }
        dama_wins += 1;
        let mine: Vec<&Discard> = ds
            .get(&w.key)
            .into_iter()
            .flatten()
            .filter(|d| d.seat == w.seat)
            .collect();
        let digits = match before_win(&w, &mine, &starts[&w.key][w.seat], &cs) {
            Some(h) => {
                let d = wait_digits(&waits(&h).0);
                assert_eq!(d, w.waits, "{:?} seat {}: wins.waits", w.key, w.seat);
                d
            }
            None => {
                fallbacks += 1;
                w.waits
            }
        };
        assert_eq!(
            digits[w.tile], b'1',
            "{:?}: the winning tile is a wait",
            w.key
        );
        for k in 0..KINDS {
            dama_waits[k] += i64::from(digits[k] == b'1');
        }
    }
    eprintln!(
        "{}: winning-tiles: {} declarations, {dama_wins} dama wins ({fallbacks} with the frame's waits)",
        dir.display(),
        declared.len()
    );
    let n = declared.len() as i64;
    assert!(n > 0 && dama_wins > 0);
    let want: Vec<Row> = (0..KINDS)
        .map(|k| {
            let mut row = vec![
                ("kind", s(&type_name(k))),
                ("declarations", V::I(n)),
                ("riichi_waits", V::I(riichi_waits[k])),
            ];
            row.extend(share_cells(
                "riichi_share",
                "riichi_share_lo",
                "riichi_share_hi",
                riichi_waits[k],
                n,
            ));
            row.extend([
                ("dama_wins", V::I(dama_wins)),
                ("dama_waits", V::I(dama_waits[k])),
            ]);
            row.extend(share_cells(
                "dama_share",
                "dama_share_lo",
                "dama_share_hi",
                dama_waits[k],
                dama_wins,
            ));
            row
        })
        .collect();
    compare("winning-tiles", &report(dir, "winning-tiles", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §13 the declaration tile, double riichi
// ---------------------------------------------------------------------------------------------

/// One riichi declaration re-derived from its hand's discard records.
struct Declaration {
    key: HandKey,
    seat: usize,
    /// The declaration tile's kind.
    tile: usize,
    /// Waits with their shapes (§0) after the declaration discard.
    waits: [Option<u8>; KINDS],
    /// §2: not furiten (no wait in the declarer's river, the declaration tile included), not
    /// tenpai only for thirteen orphans.
    qualifying: bool,
    /// The declarer's first suited discard of the hand (the declaration tile when none came
    /// before; none when that is an honour too).
    first_suited: Option<usize>,
    /// §13 (c): the declarer's first discard, no meld of any seat before it.
    double: bool,
    /// Σ over the waits of 4 − the declarer's own copies.
    outs_own: i64,
}

/// Every declaration (a discard record with `riichi`), tied to the `riichi` frame's columns
/// tile, waits, wait_shapes, qualifying, first_suited, double and outs_own, and the qualifying
/// ones to the units of `wait_danger` (each wait kind and its shape).
fn declarations(dir: &Path) -> Vec<Declaration> {
    let mut out = Vec::new();
    let ds = discards(dir);
    let mut keys: Vec<&HandKey> = ds.keys().collect();
    keys.sort();
    for key in keys {
        let v = &ds[key];
        for (i, d) in v.iter().enumerate().filter(|(_, d)| d.riichi) {
            let after = d.after();
            let (w, kokushi) = waits(&after);
            let own: Vec<&Discard> = v[..=i].iter().filter(|x| x.seat == d.seat).collect();
            let furiten = own.iter().any(|x| w[x.tile].is_some());
            let first_suited = own.iter().map(|x| x.tile).find(|&k| k < 27);
            // No call before: no earlier discard taken, no meld at any earlier discard (a
            // meld is always followed by its maker's discard) nor at this one.
            let double = own.len() == 1
                && v[..=i].iter().all(|x| x.melds.is_empty())
                && v[..i].iter().all(|x| !x.called);
            let outs_own = (0..KINDS)
                .filter(|&k| w[k].is_some())
                .map(|k| 4 - i64::from(after[k]))
                .sum();
            out.push(Declaration {
                key: key.clone(),
                seat: d.seat,
                tile: d.tile,
                waits: w,
                qualifying: !furiten && !kokushi,
                first_suited,
                double,
                outs_own,
            });
        }
    }
    // Tied to the `riichi` frame, row by row.
    let r = frame(dir, "riichi");
    let (ids, hand, seat, tile) = (
        strs(&r, "game_id"),
        ints(&r, "hand"),
        ints(&r, "seat"),
        strs(&r, "tile"),
    );
    let (shapes, qualifying, double) = (
        strs(&r, "wait_shapes"),
        bools(&r, "qualifying"),
        bools(&r, "double"),
    );
    let (first_suited, outs) = (opt_strs(&r, "first_suited"), ints(&r, "outs_own"));
    let rows: HashMap<(HandKey, usize), usize> = (0..r.height())
        .map(|i| (((ids[i].clone(), hand[i]), seat[i] as usize), i))
        .collect();
    assert_eq!(
        rows.len(),
        out.len(),
        "riichi rows against the declarations"
    );
    for d in &out {
        let i = rows[&(d.key.clone(), d.seat)];
        let letters = d
            .waits
            .map(|s| s.map_or(b'-', |x| SHAPE_LETTERS[x as usize]));
        assert_eq!(
            (
                kind_of(&tile[i]),
                per_kind(&shapes[i]),
                qualifying[i],
                first_suited[i].as_deref().map(kind_of),
                double[i],
                outs[i],
            ),
            (
                d.tile,
                letters,
                d.qualifying,
                d.first_suited,
                d.double,
                d.outs_own
            ),
            "{:?} seat {}: riichi (tile, wait_shapes, qualifying, first_suited, double, outs_own)",
            d.key,
            d.seat
        );
    }
    // §2's units: the qualifying declarations, 34 kinds each, their waits and shapes.
    let wd = frame(dir, "wait_danger");
    let (ids, hand, seat, kind) = (
        strs(&wd, "game_id"),
        ints(&wd, "hand"),
        ints(&wd, "riichi_seat"),
        strs(&wd, "kind"),
    );
    let shape = opt_strs(&wd, "wait_shape");
    let names = ["tanki", "shanpon", "kanchan", "penchan", "ryanmen"];
    let mut units: HashMap<(HandKey, usize), [Option<u8>; KINDS]> = HashMap::new();
    for i in 0..wd.height() {
        let u = units
            .entry(((ids[i].clone(), hand[i]), seat[i] as usize))
            .or_insert([None; KINDS]);
        u[kind_of(&kind[i])] = shape[i]
            .as_deref()
            .map(|s| names.iter().position(|n| *n == s).unwrap() as u8);
    }
    let qualifying: HashMap<(HandKey, usize), [Option<u8>; KINDS]> = out
        .iter()
        .filter(|d| d.qualifying)
        .map(|d| ((d.key.clone(), d.seat), d.waits))
        .collect();
    assert_eq!(
        units, qualifying,
        "wait_danger units against the qualifying declarations"
    );
    out
}

/// `riichi-tile`: from [`declarations`], (a) `trap`: the qualifying ones whose tile is a suited
/// 4, 5 or 6, by that number, at the suji trap positions of the tile's suit (7; 2 and 8; 3);
/// (b) `declaration-tile`: every one with a suited tile, by its number, at 1..9 of its suit;
/// `first-suited`: every one with a first suited discard, by its number, at 1..9 of its suit.
/// Per row: declarations, those waiting there (rate, Wilson interval), by shape.
fn check_riichi_tile(dir: &Path) -> usize {
    let decl = declarations(dir);
    // (section, number, wait number) → declarations, waits by shape.
    let mut cells: BTreeMap<(u8, i64, i64), (i64, [i64; 5])> = BTreeMap::new();
    let mut add = |section: u8, tile: usize, at: i64, w: &[Option<u8>; KINDS]| {
        let c = cells
            .entry((section, (tile % 9 + 1) as i64, at))
            .or_default();
        c.0 += 1;
        if let Some(s) = w[tile / 9 * 9 + at as usize - 1] {
            c.1[s as usize] += 1;
        }
    };
    for d in &decl {
        if d.tile < 27 {
            let traps: &[i64] = match d.tile % 9 + 1 {
                4 => &[7],
                5 => &[2, 8],
                6 => &[3],
                _ => &[],
            };
            if d.qualifying {
                for &at in traps {
                    add(0, d.tile, at, &d.waits);
                }
            }
            for at in 1..=9 {
                add(1, d.tile, at, &d.waits);
            }
        }
        if let Some(fs) = d.first_suited {
            for at in 1..=9 {
                add(2, fs, at, &d.waits);
            }
        }
    }
    let sections = ["trap", "declaration-tile", "first-suited"];
    let want: Vec<Row> = cells
        .iter()
        .map(|((sec, n, at), (k, by))| {
            let waits: i64 = by.iter().sum();
            let mut row = vec![
                ("section", s(sections[*sec as usize])),
                ("number", V::I(*n)),
                ("wait_number", V::I(*at)),
                ("declarations", V::I(*k)),
                ("waits", V::I(waits)),
            ];
            row.extend(share_cells("rate", "rate_lo", "rate_hi", waits, *k));
            for (c, x) in ["tanki", "shanpon", "kanchan", "penchan", "ryanmen"]
                .iter()
                .zip(by)
            {
                row.push((c, V::I(*x)));
            }
            row
        })
        .collect();
    assert!(want
        .iter()
        .any(|r| matches!(&r[0].1, V::S(Some(x)) if x == "trap")));
    compare("riichi-tile", &report(dir, "riichi-tile", &[]), &want);
    want.len()
}

/// `double-riichi`: the declarations of [`declarations`] that are double riichis, good shape
/// with at least 6 outs of their own, else bad, then all: declarations, the declarer's AGARI
/// records in that hand (from `wins`; tied to `riichi.won`/`points`), win rate with its
/// Wilson interval (null without a declaration), mean points of those wins (null without).
fn check_double_riichi(dir: &Path) -> usize {
    let decl = declarations(dir);
    let ws = win_rows(dir);
    // good, bad, all → declarations, the wins' points.
    let mut per: [(i64, Vec<i64>); 3] = Default::default();
    for d in decl.iter().filter(|d| d.double) {
        let points: Vec<i64> = ws
            .iter()
            .filter(|w| w.key == d.key && w.seat == d.seat)
            .map(|w| w.points)
            .collect();
        for i in [usize::from(d.outs_own < 6), 2] {
            per[i].0 += 1;
            per[i].1.extend(&points);
        }
    }
    // The frame's won and points of every declaration.
    let r = frame(dir, "riichi");
    let (ids, hand, seat) = (strs(&r, "game_id"), ints(&r, "hand"), ints(&r, "seat"));
    let (won, points) = (bools(&r, "won"), opt_ints(&r, "points"));
    for i in 0..r.height() {
        let mine: Vec<i64> = ws
            .iter()
            .filter(|w| w.key.0 == ids[i] && w.key.1 == hand[i] && w.seat == seat[i] as usize)
            .map(|w| w.points)
            .collect();
        assert_eq!(
            (won[i], points[i]),
            (!mine.is_empty(), mine.first().copied())
        );
    }
    assert!(per[2].0 > 0, "no double riichi");
    let want: Vec<Row> = ["good", "bad", "all"]
        .iter()
        .zip(&per)
        .map(|(shape, (n, pts))| {
            let wins = pts.len() as i64;
            let mut row = vec![
                ("shape", s(shape)),
                ("declarations", V::I(*n)),
                ("wins", V::I(wins)),
            ];
            if *n > 0 {
                row.extend(share_cells(
                    "win_rate",
                    "win_rate_lo",
                    "win_rate_hi",
                    wins,
                    *n,
                ));
            } else {
                row.extend(["win_rate", "win_rate_lo", "win_rate_hi"].map(|c| (c, V::F(None))));
            }
            row.push((
                "mean_points",
                V::F((wins > 0).then(|| pts.iter().sum::<i64>() as f64 / wins as f64)),
            ));
            row
        })
        .collect();
    compare("double-riichi", &report(dir, "double-riichi", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §14 records
// ---------------------------------------------------------------------------------------------

/// The maximum of `values` (in frame order), the place of the first with it, and how many
/// share it.
fn record<P: Clone>(values: impl Iterator<Item = (i64, P)>) -> (i64, P, i64) {
    let mut best: Option<(i64, P, i64)> = None;
    for (v, p) in values {
        match &mut best {
            Some(b) if v == b.0 => b.2 += 1,
            Some(b) if v < b.0 => {}
            _ => best = Some((v, p, 1)),
        }
    }
    best.expect("a record needs a value")
}

/// `records`: each maximum re-derived, first in frame order on a tie, with how many units
/// share it (games; seats with the final score; wins; hands; rivers, as the final score counts
/// seats and not games; hands): hands in a game
/// counted in `hands`; final scores of `games`; a win's points, its `yaku` entries and the han
/// of a non-yakuman win from `wins.yaku`; honba of `hands`; sticks at a win: `hands.kyotaku`
/// and the hand's declarations but one whose tile the win rons (tied to `wins.sticks`);
/// uncalled discards per river, from `decisions`; melds at a hand's end = its `calls` but
/// kakan. Tied to `hand_ends`.
fn check_records(dir: &Path) -> usize {
    let g = frame(dir, "games");
    let ids = strs(&g, "game_id");
    let scores: Vec<Vec<i64>> = (0..4).map(|s| ints(&g, &format!("score_{s}"))).collect();
    let hs = hand_rows(dir);
    let ws = win_rows(dir);
    let ds = discards(dir);
    let cs = call_rows(dir);
    type Place = (String, Option<i64>, Option<i64>);
    let mut rows: Vec<(&str, (i64, Place, i64))> = Vec::new();
    let mut hands_in: HashMap<&str, i64> = HashMap::new();
    for h in &hs {
        *hands_in.entry(h.key.0.as_str()).or_default() += 1;
    }
    for (id, n) in ids.iter().zip(ints(&g, "hands")) {
        assert_eq!(hands_in[id.as_str()], n, "{id}: games.hands");
    }
    rows.push((
        "hands-in-a-game",
        record(
            ids.iter()
                .map(|id| (hands_in[id.as_str()], (id.clone(), None, None))),
        ),
    ));
    rows.push((
        "final-score",
        record(
            (0..g.height())
                .flat_map(|i| (0..4).map(move |s| (i, s)))
                .map(|(i, s)| (scores[s][i], (ids[i].clone(), None, Some(s as i64)))),
        ),
    ));
    let at = |w: &WinRow| (w.key.0.clone(), Some(w.key.1), Some(w.seat as i64));
    rows.push(("win-points", record(ws.iter().map(|w| (w.points, at(w))))));
    rows.push((
        "yaku-entries",
        record(ws.iter().map(|w| (w.yaku.len() as i64, at(w)))),
    ));
    rows.push((
        "han",
        record(
            ws.iter()
                .filter(|w| w.yaku.iter().all(|(_, h)| h.is_some()))
                .map(|w| (w.yaku.iter().map(|(_, h)| h.unwrap()).sum(), at(w))),
        ),
    ));
    rows.push((
        "honba",
        record(
            hs.iter()
                .map(|h| (h.honba, (h.key.0.clone(), Some(h.key.1), None))),
        ),
    ));
    let kyotaku: HashMap<&HandKey, i64> = hs.iter().map(|h| (&h.key, h.kyotaku)).collect();
    let sticks = |w: &WinRow| -> i64 {
        let v: &[Discard] = ds.get(&w.key).map_or(&[], Vec::as_slice);
        let declared = v.iter().filter(|d| d.riichi).count() as i64;
        // The declaration whose tile this win rons never puts its stick down.
        let dealt_in = v.last().is_some_and(|last| {
            last.riichi && w.discarder == Some(last.seat as i64) && last.tile == w.tile
        });
        kyotaku[&w.key] + declared - i64::from(dealt_in)
    };
    for w in &ws {
        assert_eq!(
            sticks(w),
            w.sticks,
            "{:?} seat {}: wins.sticks",
            w.key,
            w.seat
        );
    }
    rows.push((
        "sticks-at-a-win",
        record(ws.iter().map(|w| (sticks(w), at(w)))),
    ));
    // Per hand: uncalled discards of each seat, melds on the table.
    let he = frame(dir, "hand_ends");
    let (he_ids, he_hand) = (strs(&he, "game_id"), ints(&he, "hand"));
    let (longest, longest_seat, he_melds) = (
        ints(&he, "longest_river"),
        ints(&he, "longest_river_seat"),
        ints(&he, "melds"),
    );
    let mut rivers: Vec<(i64, Place)> = Vec::new();
    let mut melds: Vec<(i64, Place)> = Vec::new();
    let mut ends: Vec<(HandKey, i64, i64, i64)> = Vec::new();
    for h in &hs {
        let mut n = [0i64; 4];
        for d in ds.get(&h.key).into_iter().flatten().filter(|d| !d.called) {
            n[d.seat] += 1;
        }
        for (s, k) in n.iter().enumerate() {
            rivers.push((*k, (h.key.0.clone(), Some(h.key.1), Some(s as i64))));
        }
        let m = cs
            .iter()
            .filter(|c| c.key == h.key && c.kind != "kakan")
            .count() as i64;
        melds.push((m, (h.key.0.clone(), Some(h.key.1), None)));
        let top = *n.iter().max().unwrap();
        ends.push((
            h.key.clone(),
            top,
            n.iter().position(|&k| k == top).unwrap() as i64,
            m,
        ));
    }
    let framed: Vec<(HandKey, i64, i64, i64)> = (0..he.height())
        .map(|i| {
            (
                (he_ids[i].clone(), he_hand[i]),
                longest[i],
                longest_seat[i],
                he_melds[i],
            )
        })
        .collect();
    assert_eq!(framed, ends, "hand_ends (longest_river, its seat, melds)");
    rows.push(("river-discards", record(rivers.into_iter())));
    rows.push(("melds-on-table", record(melds.into_iter())));
    let want: Vec<Row> = rows
        .into_iter()
        .map(|(name, (value, (game, hand, seat), ties))| {
            vec![
                ("record", s(name)),
                ("value", V::I(value)),
                ("game_id", s(&game)),
                ("hand", hand.map_or(V::F(None), V::I)),
                ("seat", seat.map_or(V::F(None), V::I)),
                ("ties", V::I(ties)),
            ]
        })
        .collect();
    compare("records", &report(dir, "records", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §15 danger by turn (`ingest --with danger-moments`)
// ---------------------------------------------------------------------------------------------

/// `danger-by-turn` from the `danger_by_turn` frame: per (observer, turn label, estimator)
/// the moments and each metric's exact sum (the hi and lo parts joined here in i128), then
/// per observer and estimator the same over every turn (`all`); rows in (observer, turn,
/// estimator) order, the estimators in built-in order; `best_*` true for the lowest mean of
/// each (observer, turn). (The frame's moments themselves are worked by hand in
/// tests/danger_by_turn.rs.)
fn check_danger_by_turn(dir: &Path) -> usize {
    const ESTIMATORS: [&str; 5] = ["none", "combo", "dennou-old", "dennou", "dennou-new"];
    let f = frame(dir, "danger_by_turn");
    let (obs, turn, est, n) = (
        ints(&f, "observer"),
        ints(&f, "turn"),
        strs(&f, "estimator"),
        ints(&f, "moments"),
    );
    let parts: Vec<(Vec<i64>, Vec<i64>)> = ["rmse", "cross_entropy", "kld"]
        .iter()
        .map(|m| (ints(&f, &format!("{m}_hi")), ints(&f, &format!("{m}_lo"))))
        .collect();
    // (observer, turn: 0..=19, or 100 for all, estimator position) → (moments, sums).
    let mut sums: BTreeMap<(i64, i64, usize), (i64, [i128; 3])> = BTreeMap::new();
    for i in 0..f.height() {
        let e = ESTIMATORS.iter().position(|x| *x == est[i]).unwrap();
        for t in [turn[i].min(19), 100] {
            let entry = sums.entry((obs[i], t, e)).or_insert((0, [0; 3]));
            entry.0 += n[i];
            for (m, (hi, lo)) in parts.iter().enumerate() {
                assert!((0..1 << 24).contains(&lo[i]));
                entry.1[m] += i128::from(hi[i]) * (1 << 24) + i128::from(lo[i]);
            }
        }
    }
    let mean = |(n, s): &(i64, [i128; 3]), m: usize| s[m] as f64 / 4_294_967_296.0 / *n as f64;
    let want: Vec<Row> = sums
        .iter()
        .map(|(&(o, t, e), v)| {
            let group: Vec<&(i64, [i128; 3])> = sums
                .iter()
                .filter(|((o2, t2, _), _)| *o2 == o && *t2 == t)
                .map(|(_, v)| v)
                .collect();
            let label = match t {
                100 => "all".to_string(),
                19 => "19+".to_string(),
                t => t.to_string(),
            };
            let mut row: Row = vec![
                ("observer", V::I(o)),
                ("turn", V::S(Some(label))),
                ("estimator", s(ESTIMATORS[e])),
                ("moments", V::I(v.0)),
            ];
            for (m, name) in [(0, "rmse"), (1, "cross_entropy"), (2, "kld")] {
                let x = mean(v, m);
                let lowest = group
                    .iter()
                    .map(|g| mean(g, m))
                    .fold(f64::INFINITY, f64::min);
                row.push((name, V::F(Some(x))));
                row.push((
                    ["best_rmse", "best_cross_entropy", "best_kld"][m],
                    V::B(x == lowest),
                ));
            }
            row
        })
        .collect();
    compare("danger-by-turn", &report(dir, "danger-by-turn", &[]), &want);
    want.len()
}

/// `hand-reading` from the `hand_reading` frame: per (seat, turn label, method) the moments
/// and each metric's exact sum (hi and lo parts joined in i128), with seat `all` pooling the
/// four seats and turn `all` every turn; rows in (seat, turn, method) order, `all` last each
/// time; `best_*` true for the lowest mean of each (seat, turn). (Moments and metrics are worked
/// by hand in tests/hand_reading.rs.)
fn check_hand_reading(dir: &Path) -> usize {
    const METHODS: [&str; 4] = ["uniform", "combo", "statistical", "statistical-combo"];
    let f = frame(dir, "hand_reading");
    let (seat, turn, method, n) = (
        ints(&f, "seat"),
        ints(&f, "turn"),
        strs(&f, "method"),
        ints(&f, "moments"),
    );
    let parts: Vec<(Vec<i64>, Vec<i64>)> = ["rmse", "cross_entropy"]
        .iter()
        .map(|m| (ints(&f, &format!("{m}_hi")), ints(&f, &format!("{m}_lo"))))
        .collect();
    // (seat: 0..3 or 4 for all, turn: 0..=19 or 100 for all, method) → (moments, sums).
    let mut sums: BTreeMap<(i64, i64, usize), (i64, [i128; 2])> = BTreeMap::new();
    for i in 0..f.height() {
        let m = METHODS.iter().position(|x| *x == method[i]).unwrap();
        for v in [seat[i], 4] {
            for t in [turn[i].min(19), 100] {
                let entry = sums.entry((v, t, m)).or_insert((0, [0; 2]));
                entry.0 += n[i];
                for (k, (hi, lo)) in parts.iter().enumerate() {
                    entry.1[k] += i128::from(hi[i]) * (1 << 24) + i128::from(lo[i]);
                }
            }
        }
    }
    let mean = |(n, s): &(i64, [i128; 2]), k: usize| s[k] as f64 / 4_294_967_296.0 / *n as f64;
    let want: Vec<Row> = sums
        .iter()
        .map(|(&(v, t, m), x)| {
            let group: Vec<&(i64, [i128; 2])> = sums
                .iter()
                .filter(|((v2, t2, _), _)| *v2 == v && *t2 == t)
                .map(|(_, x)| x)
                .collect();
            let label = |x: i64, all: i64| match x {
                x if x == all => "all".to_string(),
                19 if all == 100 => "19+".to_string(),
                x => x.to_string(),
            };
            let mut row: Row = vec![
                ("seat", V::S(Some(label(v, 4)))),
                ("turn", V::S(Some(label(t, 100)))),
                ("method", s(METHODS[m])),
                ("moments", V::I(x.0)),
            ];
            for (k, name) in [(0, "rmse"), (1, "cross_entropy")] {
                let value = mean(x, k);
                let lowest = group
                    .iter()
                    .map(|g| mean(g, k))
                    .fold(f64::INFINITY, f64::min);
                row.push((name, V::F(Some(value))));
                row.push((
                    ["best_rmse", "best_cross_entropy"][k],
                    V::B(value == lowest),
                ));
            }
            row
        })
        .collect();
    compare("hand-reading", &report(dir, "hand-reading", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// §17–§20 (`--with tables`)
// ---------------------------------------------------------------------------------------------

/// Optional int cell: null when `None`.
fn oi(v: Option<i64>) -> V {
    v.map_or(V::F(None), V::I)
}

/// Share k/n with its Wilson interval, or three nulls when n = 0.
fn opt_share_cells(p: &'static str, lo: &'static str, hi: &'static str, k: i64, n: i64) -> Row {
    if n == 0 {
        return vec![(p, V::F(None)), (lo, V::F(None)), (hi, V::F(None))];
    }
    share_cells(p, lo, hi, k, n)
}

/// §17 `tenpai-rate`: by (turns_left, open_melds) then by (turn 1..19+, open_melds), each
/// pooled (`all`) and with riichi_others `0` and `1+` apart.
fn check_tenpai_rate(dir: &Path) -> usize {
    // The §17 units: the discards not in riichi.
    let df = frame(dir, "discard_units")
        .lazy()
        .filter(col("in_riichi").not())
        .collect()
        .unwrap();
    let (tl, turn, om, ro) = (
        ints(&df, "turns_left"),
        ints(&df, "turn"),
        ints(&df, "open_melds"),
        ints(&df, "riichi_others"),
    );
    let tenpai = bools(&df, "tenpai");
    // (part, −turns_left or 0, turn or 0, open_melds, riichi_others rank) → (units, tenpai)
    let mut cells: BTreeMap<(i64, i64, i64, i64, i64), (i64, i64)> = BTreeMap::new();
    for i in 0..df.height() {
        let rr = if ro[i] == 0 { 1 } else { 2 };
        let t = turn[i].min(19);
        for key in [
            (0, -tl[i], 0, om[i], 0),
            (0, -tl[i], 0, om[i], rr),
            (1, 0, t, om[i], 0),
            (1, 0, t, om[i], rr),
        ] {
            let c = cells.entry(key).or_default();
            c.0 += 1;
            c.1 += i64::from(tenpai[i]);
        }
    }
    let want: Vec<Row> = cells
        .iter()
        .map(|(&(part, ntl, t, om, rr), &(n, k))| {
            let mut row: Row = vec![
                ("by", s(if part == 0 { "turns_left" } else { "turn" })),
                ("turns_left", oi((part == 0).then_some(-ntl))),
                ("turn", oi((part == 1).then_some(t))),
                ("open_melds", V::I(om)),
                ("riichi_others", s(["all", "0", "1+"][rr as usize])),
                ("units", V::I(n)),
                ("tenpai", V::I(k)),
            ];
            row.extend(share_cells("rate", "rate_lo", "rate_hi", k, n));
            row
        })
        .collect();
    compare("tenpai-rate", &report(dir, "tenpai-rate", &[]), &want);
    want.len()
}

/// §18 `win-rate`: by (in_riichi, open_melds `0`/`1+`, turns_left, shanten).
fn check_win_rate(dir: &Path) -> usize {
    let df = frame(dir, "discard_units");
    let (tl, sh, om) = (
        ints(&df, "turns_left"),
        ints(&df, "shanten"),
        ints(&df, "open_melds"),
    );
    let (ir, won, w2, ex, te) = (
        bools(&df, "in_riichi"),
        bools(&df, "won"),
        bools(&df, "won_within_2"),
        bools(&df, "exhaustive"),
        bools(&df, "tenpai_at_end"),
    );
    let mut cells: BTreeMap<(bool, bool, i64, i64), [i64; 5]> = BTreeMap::new();
    for i in 0..df.height() {
        let c = cells.entry((ir[i], om[i] > 0, -tl[i], sh[i])).or_default();
        c[0] += 1;
        c[1] += i64::from(won[i]);
        c[2] += i64::from(w2[i]);
        c[3] += i64::from(ex[i]);
        c[4] += i64::from(te[i]);
    }
    let want: Vec<Row> = cells
        .iter()
        .map(|(&(ir, open, ntl, sh), c)| {
            let mut row: Row = vec![
                ("turns_left", V::I(-ntl)),
                ("shanten", V::I(sh)),
                ("open_melds", s(if open { "1+" } else { "0" })),
                ("in_riichi", V::B(ir)),
                ("units", V::I(c[0])),
                ("won", V::I(c[1])),
                ("won_within_2", V::I(c[2])),
                ("exhaustive_units", V::I(c[3])),
                ("tenpai_at_end", V::I(c[4])),
            ];
            row.extend(share_cells(
                "won_rate",
                "won_rate_lo",
                "won_rate_hi",
                c[1],
                c[0],
            ));
            row.extend(share_cells(
                "within_2_rate",
                "within_2_rate_lo",
                "within_2_rate_hi",
                c[2],
                c[0],
            ));
            row.extend(opt_share_cells(
                "tenpai_at_end_rate",
                "tenpai_at_end_rate_lo",
                "tenpai_at_end_rate_hi",
                c[4],
                c[3],
            ));
            row
        })
        .collect();
    compare("win-rate", &report(dir, "win-rate", &[]), &want);
    want.len()
}

/// A §19 gap binned by truncation toward zero in 4,000 points, clamped to ±4, and its label.
fn gap_bin(g: i64) -> (i64, &'static str) {
    let b = (g / 4000).clamp(-4, 4);
    let label = [
        "≤-16000",
        "(-16000,-12000]",
        "(-12000,-8000]",
        "(-8000,-4000]",
        "(-4000,4000)",
        "[4000,8000)",
        "[8000,12000)",
        "[12000,16000)",
        "≥16000",
    ][(b + 4) as usize];
    (b, label)
}

/// §19 `final-placement`: per (kyoku, seat, start place, gap above, gap below), the final
/// places, re-ranked here from the start scores (ties to the lower seat).
fn check_final_placement(dir: &Path) -> usize {
    let df = frame(dir, "placement_units");
    let kyoku = ints(&df, "kyoku");
    let sc: Vec<Vec<i64>> = (0..4).map(|s| ints(&df, &format!("s{s}"))).collect();
    let rk: Vec<Vec<i64>> = (0..4).map(|s| ints(&df, &format!("rank_{s}"))).collect();
    type Key = (i64, i64, i64, i64, i64);
    let mut cells: BTreeMap<Key, (Option<&str>, Option<&str>, [i64; 5])> = BTreeMap::new();
    for i in 0..df.height() {
        let score = |s: usize| sc[s][i];
        let mut by_place = [0usize, 1, 2, 3];
        by_place.sort_by_key(|&s| (-score(s), s));
        for (place, &seat) in by_place.iter().enumerate() {
            let above = (place > 0).then(|| gap_bin(score(seat) - score(by_place[place - 1])));
            let below = (place < 3).then(|| gap_bin(score(seat) - score(by_place[place + 1])));
            let key = (
                kyoku[i],
                seat as i64,
                place as i64 + 1,
                above.map_or(-99, |a| a.0),
                below.map_or(-99, |b| b.0),
            );
            let c = cells
                .entry(key)
                .or_insert((above.map(|a| a.1), below.map(|b| b.1), [0; 5]));
            c.2[0] += 1;
            c.2[rk[seat][i] as usize] += 1;
        }
    }
    let want: Vec<Row> = cells
        .iter()
        .map(|(&(k, seat, sp, _, _), &(a, b, c))| {
            let mut row: Row = vec![
                ("kyoku", V::I(k)),
                ("seat", V::I(seat)),
                ("start_place", V::I(sp)),
                ("gap_above", V::S(a.map(str::to_string))),
                ("gap_below", V::S(b.map(str::to_string))),
                ("units", V::I(c[0])),
                ("place_1", V::I(c[1])),
                ("place_2", V::I(c[2])),
                ("place_3", V::I(c[3])),
                ("place_4", V::I(c[4])),
            ];
            let names = [
                ("rate_1", "rate_1_lo", "rate_1_hi"),
                ("rate_2", "rate_2_lo", "rate_2_hi"),
                ("rate_3", "rate_3_lo", "rate_3_hi"),
                ("rate_4", "rate_4_lo", "rate_4_hi"),
            ];
            for (p, (r, lo, hi)) in names.into_iter().enumerate() {
                row.extend(share_cells(r, lo, hi, c[p + 1], c[0]));
            }
            row
        })
        .collect();
    compare(
        "final-placement",
        &report(dir, "final-placement", &[]),
        &want,
    );
    want.len()
}

const STATES: [&str; 3] = ["riichi", "dama", "open"];

/// The §20 class of a kind, re-derived from its name.
fn class_rank(kind: &str) -> usize {
    let b = kind.as_bytes();
    if b[1] == b'z' {
        return 0;
    }
    match b[0] - b'0' {
        1 | 9 => 1,
        2 | 8 => 2,
        3 | 7 => 3,
        4 | 6 => 4,
        _ => 5,
    }
}

/// §20 `ron-share` and `win-values` from `win_kinds`, its classes re-derived from the kinds.
fn check_ron_share(dir: &Path) -> usize {
    let df = frame(dir, "win_kinds");
    let (state, tile, class) = (strs(&df, "state"), strs(&df, "tile"), strs(&df, "class"));
    let ron = bools(&df, "ron");
    let classes = ["honour", "1/9", "2/8", "3/7", "4/6", "5"];
    let mut cells: BTreeMap<(usize, usize), (i64, i64)> = BTreeMap::new();
    for i in 0..df.height() {
        let cr = class_rank(&tile[i]);
        assert_eq!(class[i], classes[cr]);
        let st = STATES.iter().position(|x| *x == state[i]).unwrap();
        let c = cells.entry((st, cr)).or_default();
        c.0 += 1;
        c.1 += i64::from(ron[i]);
    }
    let want: Vec<Row> = cells
        .iter()
        .map(|(&(st, cr), &(n, k))| {
            let mut row: Row = vec![
                ("state", s(STATES[st])),
                ("class", s(classes[cr])),
                ("wins", V::I(n)),
                ("rons", V::I(k)),
            ];
            row.extend(share_cells("share", "share_lo", "share_hi", k, n));
            row
        })
        .collect();
    compare("ron-share", &report(dir, "ron-share", &[]), &want);
    want.len()
}

fn check_win_values(dir: &Path) -> usize {
    let df = frame(dir, "win_kinds");
    let state = strs(&df, "state");
    let dealer = bools(&df, "dealer");
    let (points, limit) = (ints(&df, "points"), ints(&df, "limit"));
    let mut values: BTreeMap<(bool, usize, i64), i64> = BTreeMap::new();
    let mut groups: BTreeMap<(bool, usize), Vec<(i64, i64)>> = BTreeMap::new();
    for i in 0..df.height() {
        let st = STATES.iter().position(|x| *x == state[i]).unwrap();
        *values.entry((dealer[i], st, points[i])).or_default() += 1;
        groups
            .entry((dealer[i], st))
            .or_default()
            .push((points[i], limit[i]));
    }
    let want: Vec<Row> = values
        .iter()
        .map(|(&(d, st, p), &n)| {
            let g = &groups[&(d, st)];
            let wins = g.len() as f64;
            vec![
                ("dealer", V::B(d)),
                ("state", s(STATES[st])),
                ("points", V::I(p)),
                ("count", V::I(n)),
                ("wins", V::I(g.len() as i64)),
                ("share", f(n as f64 / wins)),
                (
                    "mean_points",
                    f(g.iter().map(|x| x.0 as f64).sum::<f64>() / wins),
                ),
                (
                    "mangan_share",
                    f(g.iter().filter(|x| x.1 >= 1).count() as f64 / wins),
                ),
            ]
        })
        .collect();
    compare("win-values", &report(dir, "win-values", &[]), &want);
    want.len()
}

// ---------------------------------------------------------------------------------------------
// Every report
// ---------------------------------------------------------------------------------------------

/// Checks every bundled report by value over the frames in `dir`; fails on a report without
/// a check here (a new report must come with one).
fn check_every_report(dir: &Path) {
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let checks: &[(&[&str], fn(&Path) -> usize)] = &[
        (&["summary", "summary-by-year"], check_summary),
        (&["placement"], check_placement),
        (&["players"], check_players),
        (
            &[
                "riichi-response",
                "riichi-response-by-shanten",
                "riichi-response-by-seat-dealer",
                "riichi-response-by-riichi-dealer",
                "riichi-response-by-riichi-turn",
                "riichi-response-by-year",
            ],
            check_riichi_response,
        ),
        (&["wait-danger"], check_wait_danger),
        (&["draw-rate", "draw-rate-by-turn"], check_draw_rate),
        (
            &[
                "danger-eval",
                "danger-eval-by-situation",
                "danger-calibration",
            ],
            check_danger,
        ),
        (&["decisions"], check_decisions),
        (&["choices"], check_choices),
        (&["riichi-or-dama"], check_riichi_or_dama),
        (&["call-or-pass"], check_call_or_pass),
        (&["yaku"], check_yaku),
        (&["draw-reasons"], check_draw_reasons),
        (&["by-turn"], check_by_turn),
        (&["calls-by-turn"], check_calls_by_turn),
        (&["tiles-at-end"], check_tiles_at_end),
        (&["winning-tiles"], check_winning_tiles),
        (&["riichi-tile"], check_riichi_tile),
        (&["double-riichi"], check_double_riichi),
        (&["records"], check_records),
        (&["danger-by-turn"], check_danger_by_turn),
        (&["hand-reading"], check_hand_reading),
        (&["tenpai-rate"], check_tenpai_rate),
        (&["win-rate"], check_win_rate),
        (&["final-placement"], check_final_placement),
        (&["ron-share"], check_ron_share),
        (&["win-values"], check_win_values),
    ];
    for &(names, check) in checks {
        let rows = check(dir);
        assert!(rows > 0, "{names:?} checked no row");
        for n in names {
            checked.insert(n, rows);
        }
    }
    for rep in haifu::report::REPORTS {
        assert!(
            checked.contains_key(rep.name),
            "report {} has no value check in tests/report_values.rs",
            rep.name
        );
    }
    eprintln!(
        "{}: rows checked per report group {checked:?}",
        dir.display()
    );
}

/// An ingest writing every frame, the on-request ones too: `decisions` (§7), `walls` (the §12
/// checks read which tiles were never drawn) and the §10–§14 frames (`--with development`).
fn ingest_all(inputs: &[PathBuf], out: &Path, room: RoomFilter) -> haifu::ingest::IngestSummary {
    haifu::ingest::ingest(&haifu::ingest::IngestOptions {
        inputs: inputs.to_vec(),
        out: out.to_path_buf(),
        room,
        dates: Default::default(),
        strict: false,
        progress: false,
        observe: haifu::stats::Observe::with(&haifu::groups::GROUPS.map(|g| g.group)),
        tsumo_validation: false,
        convert: None,
        append: false,
        shard: None,
    })
    .expect("ingest runs")
}

/// Every fixture (fixtures/, room any): the hand-worked games, whose frames the other fixture
/// tests pin down value by value.
#[test]
fn every_report_matches_the_frames_on_the_fixtures() {
    let out = tempfile::tempdir().unwrap();
    let s = ingest_all(&[fixtures()], out.path(), RoomFilter::Any);
    assert_eq!(s.manifest.totals.failed, 0);
    assert!(s.manifest.totals.games >= 10);
    check_every_report(out.path());
}

/// The first 300 Phoenix games of the shared corpus (skips loudly without it).
#[test]
fn every_report_matches_the_frames_on_phoenix_games() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let files = common::first_files(&dir, 300);
    ingest_all(&files, out.path(), RoomFilter::Phoenix);
    check_every_report(out.path());
}

/// The first 300 games of the shared corpus's `other/` folder (other rooms, some with AI
/// players, 2008-2023), room any; skipped, with a note, when that folder is absent.
#[test]
fn every_report_matches_the_frames_on_other_rooms() {
    let dir: PathBuf = common::corpus_root().join("other");
    if !dir.is_dir() {
        eprintln!("*** SKIPPED: {} is absent ***", dir.display());
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let s = ingest_all(&common::first_files(&dir, 300), out.path(), RoomFilter::Any);
    assert!(s.manifest.totals.games > 200, "{:?}", s.manifest.totals);
    check_every_report(out.path());
}
