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
    let mut per_name: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for g in gs.values() {
        let p = g.places();
        for seat in 0..4 {
            per_seat[seat].push(p[seat]);
            let name = g.names[seat]
                .clone()
                .expect("every fixture seat has a name");
            per_name.entry(name).or_default().push(p[seat]);
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
    // Players: most games first, then by name.
    let mut names: Vec<(&String, &Vec<i64>)> = per_name.iter().collect();
    names.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    let want_p: Vec<Row> = names
        .iter()
        .map(|(name, places)| {
            let mut row = vec![("name", s(name))];
            row.extend(place_cells(places));
            row
        })
        .collect();
    compare("players", &report(dir, "players", &[]), &want_p);
    4 + want_p.len()
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
            want.extend(outcome_rows(
                &[("split", s(split)), ("value", s(value))],
                &cells,
                None,
            ));
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

/// statistics.md §6's 19 categories in the report's order, each with its group.
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
// Every report
// ---------------------------------------------------------------------------------------------

/// Checks every bundled report by value over the frames in `dir`; fails on a report without
/// a check here (a new report must come with one).
fn check_every_report(dir: &Path) {
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let checks: [(&[&str], fn(&Path) -> usize); 7] = [
        (&["summary", "summary-by-year"], check_summary),
        (&["placement", "players"], check_placement),
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
    ];
    for (names, check) in checks {
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

/// An ingest writing every frame, the on-request `decisions` too.
fn ingest_all(inputs: &[PathBuf], out: &Path, room: RoomFilter) -> haifu::ingest::IngestSummary {
    haifu::ingest::ingest(&haifu::ingest::IngestOptions {
        inputs: inputs.to_vec(),
        out: out.to_path_buf(),
        room,
        dates: Default::default(),
        strict: false,
        progress: false,
        decisions: true,
        walls: false,
        tsumo_validation: false,
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
