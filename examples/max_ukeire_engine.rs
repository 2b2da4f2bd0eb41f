//! A discard engine for `haifu agree --engine-cmd`: plays max-ukeire (牌効率: among the legal
//! kinds whose discard gives the lowest shanten, those with the most ukeire) through the
//! JSON-lines protocol of docs/definitions.md §7, as an example of an external engine.
//!
//! It reads one decision object per line on standard input and writes one answer line per
//! decision, `{"id": N, "discard": ["5p", "6p"]}`, on standard output. It uses only what the
//! object carries (its tiles, every seat's melds and river, the dora indicators, the legal
//! kinds; a three-player game's `players` and every seat's `kitas`, §24) and haifu's hand
//! algorithms, so its answers equal the built-in `max-ukeire`'s.
//!
//! `--hold N` holds its answers until it has N of them or its input ends, as an engine that
//! batches requests for a GPU does; `--lag` answers each request only once the next one has
//! come. haifu's protocol serves both (the tests run them).
//!
//! Run: `cargo build --release --example max_ukeire_engine`, then
//! `haifu agree --frames DIR --engine-cmd ~/.cache/haifu-target/release/examples/max_ukeire_engine`.

use haifu::agree::{analyse, kinds_of, Position};
use haifu::rules::{Players, NORTH};
use haifu::tile::{self, KINDS};
use serde_json::Value;

/// The kind of a tile name (`0p`, a red five, is kind 5p).
fn kind(v: &Value) -> usize {
    v.as_str().and_then(tile::parse_kind).expect("a tile name")
}

fn answer(d: &Value) -> String {
    let seat = d["seat"].as_u64().expect("seat") as usize;
    let mut concealed = [0u8; KINDS];
    for t in d["tiles"].as_array().expect("tiles") {
        concealed[kind(t)] += 1;
    }
    // Publicly visible copies: dora indicators, uncalled river tiles, every meld tile.
    let mut visible = [0u8; KINDS];
    for t in d["dora_indicators"].as_array().expect("dora_indicators") {
        visible[kind(t)] += 1;
    }
    for river in d["rivers"].as_array().expect("rivers") {
        for r in river.as_array().expect("a river") {
            if !r["called"].as_bool().expect("called") {
                visible[kind(&r["tile"])] += 1;
            }
        }
    }
    let melds = d["melds"].as_array().expect("melds");
    for seat_melds in melds {
        for m in seat_melds.as_array().expect("a seat's melds") {
            for t in m["tiles"].as_array().expect("meld tiles") {
                visible[kind(t)] += 1;
            }
        }
    }
    // A three-player game (§24): every seat's kita Norths are visible too.
    let players = if d["players"] == 3 {
        for k in d["kitas"].as_array().expect("kitas") {
            visible[NORTH] += k.as_u64().expect("a kita count") as u8;
        }
        Players::Three
    } else {
        Players::Four
    };
    let legal = d["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .fold(0u64, |m, t| m | 1 << kind(t));
    let position = Position {
        concealed,
        melds: melds[seat].as_array().expect("own melds").len() as u8,
        legal,
        drawn: d["drawn"]
            .as_str()
            .and_then(tile::parse_kind)
            .map(|k| k as u8),
        visible,
        players,
    };
    let best = analyse(&position).max_ukeire;
    let names: Vec<String> = kinds_of(best)
        .map(|k| format!("\"{}\"", tile::kind_name(k)))
        .collect();
    format!("{{\"id\":{},\"discard\":[{}]}}", d["id"], names.join(","))
}

#[path = "common/serve.rs"]
mod serve;

fn main() {
    serve::serve(|line| answer(&serde_json::from_str(line).expect("a JSON request")));
}
