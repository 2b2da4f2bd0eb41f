//! An mjai bot for `haifu review`: discards the tile it just drew, passes every call and win,
//! never declares. It keeps its own hand from the events, so that after a call or a riichi
//! the player made (the review goes on as the player played) it discards a tile it holds.
//!
//! It plays three-player games too (the mjai dialect of the three-player Mortal forks:
//! `start_game` names three players, a kita is `nukidora`): a North it draws it sets aside
//! (`{"type": "nukidora", "actor": me, "pai": "N"}`) rather than discarding it, and it keeps
//! its hand through every seat's `nukidora`.
//!
//! It speaks the three answer styles `haifu review --mjai-style` serves: `each` (the default:
//! one answer line per event line), `--actionable` (akochan's: an array of events after its own
//! `tsumo` and after every other seat's `dahai` or `kakan`), `--array` (mjai.app's: each input
//! line is an array of events; one answer per line). Its seat is `start_game`'s `id`, or
//! `--seat N`.
//!
//! `--fault exit|hang|garbage|illegal` makes it misbehave at its first draw in the second hand
//! (exit, never answer, write a line that is not JSON, answer a win it does not have), as the
//! tests of haifu's failure handling need.
//!
//! Run: `cargo build --release --example tsumogiri_bot`, then `haifu review --frames DIR --out
//! OUT --mjai ~/.cache/haifu-target/release/examples/tsumogiri_bot`.

use std::io::{BufRead, Write};

use serde_json::{json, Value};

#[derive(Default)]
struct Bot {
    seat: Option<u64>,
    hand: Vec<String>,
    hands_started: u32,
    fault: Option<String>,
    /// A three-player game (`start_game` names three players).
    three: bool,
}

impl Bot {
    fn remove(&mut self, tile: &str) {
        if let Some(i) = self.hand.iter().position(|t| t == tile) {
            self.hand.remove(i);
        }
    }

    /// Follows one event; returns the bot's action there (`none` where it has nothing to do).
    fn event(&mut self, e: &Value) -> Value {
        let none = json!({"type": "none"});
        let kind = e["type"].as_str().unwrap_or_default();
        let actor = e["actor"].as_u64();
        let me = self.seat;
        match kind {
            "start_game" => {
                if let Some(id) = e["id"].as_u64() {
                    self.seat = Some(id);
                }
                self.three = e["names"].as_array().is_some_and(|n| n.len() == 3);
            }
            "start_kyoku" => {
                self.hands_started += 1;
                let seat = me.unwrap_or(0) as usize;
                self.hand = e["tehais"][seat]
                    .as_array()
                    .map(|t| {
                        t.iter()
                            .map(|x| x.as_str().unwrap_or("?").to_string())
                            .collect()
                    })
                    .unwrap_or_default();
            }
            "tsumo" if actor == me => {
                let pai = e["pai"].as_str().unwrap_or("?").to_string();
                self.hand.push(pai.clone());
                if self.hands_started == 2 {
                    match self.fault.as_deref() {
                        Some("exit") => std::process::exit(3),
                        Some("hang") => loop {
                            std::thread::sleep(std::time::Duration::from_secs(60));
                        },
                        Some("garbage") => return json!("garbage"),
                        Some("illegal") => {
                            return json!({"type": "hora", "actor": me, "target": me, "pai": pai})
                        }
                        _ => {}
                    }
                }
                if self.three && pai == "N" {
                    return json!({"type": "nukidora", "actor": me, "pai": pai});
                }
                return json!({"type": "dahai", "actor": me, "pai": pai, "tsumogiri": true});
            }
            "nukidora" | "kita" if actor == me => {
                let pai = e["pai"].as_str().unwrap_or("N").to_string();
                self.remove(&pai);
            }
            "dahai" if actor == me => {
                let pai = e["pai"].as_str().unwrap_or_default().to_string();
                self.remove(&pai);
            }
            "chi" | "pon" | "daiminkan" | "ankan" | "kakan" if actor == me => {
                for c in e["consumed"].as_array().into_iter().flatten() {
                    let c = c.as_str().unwrap_or_default().to_string();
                    self.remove(&c);
                }
                if kind == "kakan" {
                    let pai = e["pai"].as_str().unwrap_or_default().to_string();
                    self.remove(&pai);
                }
                if kind == "chi" || kind == "pon" {
                    return self.discard_any();
                }
            }
            "reach" if actor == me => return self.discard_last(),
            _ => {}
        }
        none
    }

    /// After a call: a tile it holds (the last one: may be one the swap-call ban forbids, an
    /// invalid answer haifu counts).
    fn discard_any(&self) -> Value {
        match self.hand.last() {
            Some(t) => json!({"type": "dahai", "actor": self.seat, "pai": t, "tsumogiri": false}),
            None => json!({"type": "none"}),
        }
    }

    /// After its riichi: the tile it drew last.
    fn discard_last(&self) -> Value {
        self.discard_any()
    }
}

/// True when an `actionable` bot answers `e`: its own `tsumo`, another seat's `dahai`/`kakan`.
fn asks(e: &Value, me: Option<u64>) -> bool {
    let actor = e["actor"].as_u64();
    match e["type"].as_str() {
        Some("tsumo") => actor == me,
        Some("dahai" | "kakan" | "nukidora" | "kita") => actor != me,
        _ => false,
    }
}

/// True when `e` asks the bot for a decision: its own `tsumo`, `chi`, `pon` or `reach` (the
/// discard that follows), another seat's `dahai`, `kakan` or `ankan`.
fn asks_anything(e: &Value, me: Option<u64>) -> bool {
    let mine = e["actor"].as_u64() == me;
    match e["type"].as_str() {
        Some("tsumo" | "chi" | "pon" | "reach") => mine,
        Some("dahai" | "kakan" | "ankan" | "nukidora" | "kita") => !mine,
        _ => false,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let mut bot = Bot {
        seat: value("--seat").and_then(|s| s.parse().ok()),
        fault: value("--fault"),
        ..Bot::default()
    };
    let (actionable, array) = (flag("--actionable"), flag("--array"));
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.expect("a line of input");
        let v: Value = serde_json::from_str(&line).expect("an mjai line");
        let reply = if array {
            // The answer to the last event that asks it something (a `dora` shown after its
            // replacement draw does not take back the discard it was asked for).
            let mut last = json!({"type": "none"});
            for e in v.as_array().into_iter().flatten() {
                let asked = asks_anything(e, bot.seat);
                let a = bot.event(e);
                if asked {
                    last = a;
                }
            }
            Some(last)
        } else if actionable {
            let ask = asks(&v, bot.seat);
            let a = bot.event(&v);
            ask.then(|| json!([a]))
        } else {
            Some(bot.event(&v))
        };
        if let Some(r) = reply {
            if r == json!("garbage") {
                writeln!(out, "this is not mjai").expect("writing");
            } else {
                writeln!(out, "{r}").expect("writing an answer");
            }
            out.flush().expect("writing an answer");
        }
    }
}
