//! An engine for `haifu agree --every-decision --engine-cmd`: answers every §23 decision
//! (win, riichi, call, kan, kyuushu, discard) through the JSON-lines protocol of
//! docs/decisions.md, as an example of an external engine over every kind.
//!
//! It reads one request object per line on standard input and writes one answer line per
//! request on standard output: `{"id": N, "action": "pon"}` or `{"id": N, "action":
//! ["discard:5p", "discard:6p"]}` (a set of equally good actions). It plays as the built-in
//! `min-shanten` does, from what the object carries alone (its tiles, its melds, the tile
//! offered, the legal actions) and haifu's hand algorithms, so its answers equal the
//! built-in's (the tests hold them equal): a win when legal; riichi when legal; else a call
//! or kan only when the shanten after it is lower than passing (or than the best discard), else
//! a kita when setting the North aside leaves the lowest shanten a discard leaves, else the
//! pass or the lowest-shanten discards; never kyuushu. A three-player game's request says
//! `"players": 3` (docs/decisions.md, §24): the shanten is then the three-player one (1m and
//! 9m form no sequence), and the kita and the ron on a kita North are among the actions.
//!
//! `--first` answers every request with its first legal action instead (the tests use it).
//!
//! Run: `cargo build --release --example every_decision_engine`, then `haifu agree --frames DIR
//! --every-decision --engine-cmd ex=~/.cache/haifu-target/release/examples/every_decision_engine`.

use std::io::{BufRead, Write};

use haifu::hand::{self, KindCounts};
use haifu::rules::{Players, NORTH};
use haifu::tile::{self, KINDS};
use serde_json::Value;

/// The kind of a tile name (`0p`, a red five, is kind 5p).
fn kind(name: &str) -> usize {
    tile::parse_kind(name).expect("a tile name")
}

/// The lowest shanten a discard among `legal` leaves `h`, and the discards that leave it.
fn lowest(h: &KindCounts, melds: u8, legal: &[usize], p: Players) -> (i8, Vec<usize>) {
    let mut best = i8::MAX;
    let mut kinds = Vec::new();
    for &k in legal {
        let s = hand::shanten_after_for(h, melds, k, p);
        if s < best {
            best = s;
            kinds.clear();
        }
        if s == best {
            kinds.push(k);
        }
    }
    (best, kinds)
}

/// The kinds `h` may discard after a chi or pon of `called` whose sequence's lowest kind is
/// `lowest` (the swap-call ban: the called kind, and after a chi the kind at the other end).
fn after_call(h: &KindCounts, chi: bool, called: usize, lowest: usize) -> Vec<usize> {
    let n = called % 9;
    (0..KINDS)
        .filter(|&k| h[k] > 0 && k != called)
        .filter(|&k| {
            !chi || !((called == lowest && n + 3 < 9 && k == called + 3)
                || (called == lowest + 2 && n >= 3 && k + 3 == called))
        })
        .collect()
}

fn answer(d: &Value) -> Vec<String> {
    let legal: Vec<&str> = d["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .map(|a| a.as_str().expect("an action"))
        .collect();
    let seat = d["seat"].as_u64().expect("seat") as usize;
    let p = if d["players"] == 3 {
        Players::Three
    } else {
        Players::Four
    };
    let mut h = [0u8; KINDS];
    for t in d["tiles"].as_array().expect("tiles") {
        h[kind(t.as_str().expect("a tile"))] += 1;
    }
    let melds = d["melds"][seat].as_array().expect("own melds").len() as u8;
    let offered = d["offered"]["tile"].as_str().map(kind);
    let wins: Vec<String> = legal
        .iter()
        .filter(|a| **a == "tsumo" || **a == "ron")
        .map(|a| a.to_string())
        .collect();
    if !wins.is_empty() {
        return wins;
    }
    if legal.contains(&"riichi") {
        return vec!["riichi".into()];
    }
    let discards: Vec<usize> = legal
        .iter()
        .filter_map(|a| a.strip_prefix("discard:"))
        .map(kind)
        .collect();
    let (base, mut answer) = if legal.contains(&"pass") {
        (hand::shanten_for(&h, melds, p), vec!["pass".to_string()])
    } else {
        let (s, kinds) = lowest(&h, melds, &discards, p);
        let names = kinds
            .iter()
            .map(|&k| format!("discard:{}", tile::kind_name(k)))
            .collect();
        (s, names)
    };
    let mut best = base;
    for a in &legal {
        let mut c = h;
        let s = if *a == "pon" {
            let o = offered.expect("a pon takes the tile offered");
            c[o] -= 2;
            lowest(&c, melds + 1, &after_call(&c, false, o, o), p).0
        } else if *a == "daiminkan" {
            c[offered.expect("a kan takes the tile offered")] -= 3;
            hand::shanten_for(&c, melds + 1, p)
        } else if let Some(pair) = a.strip_prefix("chi:") {
            let o = offered.expect("a chi takes the tile offered");
            let (x, y) = (kind(&pair[..2]), kind(&pair[2..]));
            c[x] -= 1;
            c[y] -= 1;
            lowest(&c, melds + 1, &after_call(&c, true, o, x.min(y).min(o)), p).0
        } else if let Some(k) = a.strip_prefix("ankan:") {
            c[kind(k)] -= 4;
            hand::shanten_for(&c, melds + 1, p)
        } else if let Some(k) = a.strip_prefix("kakan:") {
            c[kind(k)] -= 1;
            hand::shanten_for(&c, melds, p)
        } else {
            continue;
        };
        if s < best {
            best = s;
            answer.clear();
        }
        if s == best && s < base {
            answer.push(a.to_string());
        }
    }
    // No call lowers it: a kita when the North is as good to lose as the best discard.
    if best == base && legal.contains(&"kita") {
        let mut c = h;
        c[NORTH] -= 1;
        if hand::shanten_for(&c, melds, p) <= base {
            return vec!["kita".into()];
        }
    }
    answer
}

fn main() {
    let first = std::env::args().any(|a| a == "--first");
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.expect("a line of input");
        let d: Value = serde_json::from_str(&line).expect("a request object");
        let action = if first {
            vec![d["legal"][0].as_str().expect("an action").to_string()]
        } else {
            answer(&d)
        };
        let reply = serde_json::json!({"id": d["id"], "action": action});
        writeln!(out, "{reply}").expect("writing an answer");
    }
    out.flush().expect("writing the answers");
}
