//! A hand-reading method for `haifu hand-reading --engine-cmd`: コンボ理論 (`combo`, docs/definitions.md
//! §16) computed from the request object alone, as an example of a user's method.
//!
//! It reads one moment object per line on standard input and writes one answer line per
//! moment, `{"id": N, "weights": [w_1m, …, w_7z]}`, on standard output. The unseen counts come
//! from what the object carries (V's tiles, every seat's melds and river, the dora indicators;
//! in a three-player game, `"players": 3`, every seat's kita Norths too, and no 2m–8m unseen),
//! the weights from the definition, written here apart from haifu's code: its scores equal the
//! built-in `combo`'s (the tests check it).
//!
//! `--hold N`, `--lag` and `--reverse` release the answers as a batching engine, a late one or
//! an out-of-order one would (see `common/serve.rs`). `--uniform` answers 1 for every kind
//! after reading only the id (the `uniform` method of a request with nothing seen, and an
//! engine that costs next to nothing: `make bench` times haifu's side with it).
//!
//! Run: `cargo build --release --example hand_reading_engine`, then
//! `haifu hand-reading --frames DIR --engine-cmd ~/.cache/haifu-target/release/examples/hand_reading_engine`.

use serde_json::Value;

#[path = "common/serve.rs"]
mod serve;

/// The kind (0..34: 1m..9m, 1p..9p, 1s..9s, 1z..7z) of a tile name; `0m`/`0p`/`0s` are red
/// fives, of the five's kind.
fn kind(v: &Value) -> usize {
    let name = v.as_str().expect("a tile name").as_bytes();
    let n = usize::from(name[0] - b'0');
    let n = if n == 0 { 5 } else { n };
    let base = match name[1] {
        b'm' => 0,
        b'p' => 9,
        b's' => 18,
        _ => 27,
    };
    base + n - 1
}

fn answer(d: &Value) -> String {
    // Seen by V: the dora indicators, its own tiles, every meld tile, river tiles not called.
    let mut seen = [0u32; 34];
    let mut count = |v: &Value| seen[kind(v)] += 1;
    d["dora_indicators"]
        .as_array()
        .expect("dora")
        .iter()
        .for_each(&mut count);
    d["tiles"]
        .as_array()
        .expect("tiles")
        .iter()
        .for_each(&mut count);
    for seat in d["melds"].as_array().expect("melds") {
        for m in seat.as_array().expect("a seat's melds") {
            m["tiles"]
                .as_array()
                .expect("meld tiles")
                .iter()
                .for_each(&mut count);
        }
    }
    for river in d["rivers"].as_array().expect("rivers") {
        for r in river.as_array().expect("a river") {
            if !r["called"].as_bool().expect("called") {
                count(&r["tile"]);
            }
        }
    }
    // A three-player game: the kita Norths are seen, and 2m–8m are not in the game.
    let three = d["players"].as_u64() == Some(3);
    if three {
        for k in d["kitas"].as_array().expect("kitas") {
            seen[30] += k.as_u64().expect("a kita count") as u32;
        }
    }
    let u: Vec<f64> = (0..34)
        .map(|k| {
            if three && (1..8).contains(&k) {
                0.0
            } else {
                f64::from(4u32.saturating_sub(seen[k]))
            }
        })
        .collect();
    // c(k) = u(k) + [0, 0, 1, 3, 6][u(k)], plus for a suited kind the sequences it completes
    // with two unseen neighbours; the weight is c(k)·u(k).
    let weights: Vec<String> = (0..34)
        .map(|k| {
            let mut c = u[k] + [0.0, 0.0, 1.0, 3.0, 6.0][u[k] as usize];
            if k < 27 {
                let n = (k % 9) as i32;
                let at = |m: i32| {
                    if (0..9).contains(&m) {
                        u[k - k % 9 + m as usize]
                    } else {
                        0.0
                    }
                };
                c += at(n - 2) * at(n - 1) + at(n - 1) * at(n + 1) + at(n + 1) * at(n + 2);
            }
            format!("{}", c * u[k])
        })
        .collect();
    format!("{{\"id\":{},\"weights\":[{}]}}", d["id"], weights.join(","))
}

/// `{"id": N, "weights": [1, …, 1]}` from the id alone (a request begins `{"id":N,`).
fn uniform(line: &str) -> String {
    let id: String = line
        .trim_start_matches("{\"id\":")
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    format!("{{\"id\":{id},\"weights\":[{}]}}", ["1"; 34].join(","))
}

fn main() {
    if std::env::args().any(|a| a == "--uniform") {
        serve::serve(uniform);
    } else {
        serve::serve(|line| answer(&serde_json::from_str(line).expect("a JSON request")));
    }
}
