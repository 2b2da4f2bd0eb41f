//! mjai JSON lines → the decoded events of one game (through [`Builder`]).
//!
//! Mortal's dialect (what Mortal-style arenas, mjai-reviewer's converter and RiichiEnv write)
//! is read whole: `start_game`, `start_kyoku` (`bakaze`, `kyoku`, `honba`, `kyotaku`, `oya`,
//! `scores`, `tehais`, `dora_marker`), `tsumo`, `dahai`, `chi`, `pon`, `daiminkan`, `kakan`,
//! `ankan`, `dora`, `reach`, `reach_accepted`, `hora` (`deltas`, `ura_markers`), `ryukyoku`
//! (`deltas`), `end_kyoku`, `end_game`. A line may hold an array of events (mjai.app's
//! protocol logs). A terminal record without `deltas` (akochan's dialect) takes them from the
//! next `start_kyoku`'s or `end_game`'s scores, when it is its hand's only one.
//!
//! Refused, with the line: a hidden tile `?` (one player's view), a `start_kyoku` without
//! `tehais` (the original mjai's per-player dialect), a line that is not JSON.
//!
//! What the format does not record ([`lacks`]): yaku, fu, han, points (Tenhou's `ten`); the
//! type of an abortive draw (a draw that leaves the live wall unexhausted), and all-tenpai
//! against all-noten; the rules beyond red fives and game length; dan, rate; final scores and
//! uma. An exhaustive draw whose payments are not tenpai payments is a nagashi mangan (`nm`).
//! Red fives: `aka_flag` where written, else whether any red five appears.

use serde_json::Value;

use crate::formats::build::{BuildError, Builder, Tile};
use crate::mjlog::{go_type, lacks, Format, GameLog, MeldKind, Un};
use crate::tile;

/// Live-wall tiles of a four-player hand (136 less 14 in the dead wall, less 52 dealt).
const LIVE_WALL: u32 = 70;

/// The tile type of an mjai tile name.
fn tile_of(v: &Value) -> Result<Tile, BuildError> {
    let name = v
        .as_str()
        .ok_or_else(|| format!("tile {v} is not a string"))?;
    if name == "?" {
        return Err("a hidden tile \"?\" (a log of one player's view cannot be replayed)".into());
    }
    const HONORS: [&str; 7] = ["E", "S", "W", "N", "P", "F", "C"];
    if let Some(i) = HONORS.iter().position(|&h| h == name) {
        return Ok(27 + i as Tile);
    }
    let b = name.as_bytes();
    let suit = |c: u8| match c {
        b'm' => Some(0),
        b'p' => Some(1),
        b's' => Some(2),
        _ => None,
    };
    let t = match b {
        [n @ b'1'..=b'9', s] => suit(*s).map(|s| s * 9 + (n - b'1')),
        [b'5', s, b'r'] => suit(*s).map(|s| 34 + s),
        _ => None,
    };
    t.ok_or_else(|| format!("tile {name:?}"))
}

fn tiles_of(v: &Value, what: &str) -> Result<Vec<Tile>, BuildError> {
    v.as_array()
        .ok_or_else(|| format!("{what} is not an array"))?
        .iter()
        .map(tile_of)
        .collect()
}

fn seat(e: &Value, key: &str) -> Result<u8, BuildError> {
    e[key]
        .as_u64()
        .filter(|&s| s < 4)
        .map(|s| s as u8)
        .ok_or_else(|| format!("{key} is not a seat: {}", e[key]))
}

fn small(e: &Value, key: &str) -> Result<u8, BuildError> {
    e[key]
        .as_u64()
        .and_then(|x| u8::try_from(x).ok())
        .ok_or_else(|| format!("{key} is not a small count: {}", e[key]))
}

fn four(v: &Value, what: &str) -> Result<[i32; 4], BuildError> {
    let a = v
        .as_array()
        .ok_or_else(|| format!("{what} is not an array"))?;
    if a.len() != 4 {
        return Err(format!("{what} has {} values, not 4", a.len()));
    }
    let mut out = [0; 4];
    for (o, x) in out.iter_mut().zip(a) {
        *o = x
            .as_i64()
            .and_then(|x| i32::try_from(x).ok())
            .ok_or_else(|| format!("{what} holds {x}"))?;
    }
    Ok(out)
}

/// Whether exhaustive-draw payments are tenpai payments (else a nagashi mangan's).
fn tenpai_payments(deltas: &[i32; 4]) -> bool {
    let tenpai = deltas.iter().filter(|&&d| d > 0).count();
    let want = match tenpai {
        0 => return deltas.iter().all(|&d| d == 0),
        1 => (3000, -1000),
        2 => (1500, -1500),
        3 => (1000, -3000),
        _ => return false,
    };
    deltas.iter().all(|&d| d == want.0 || d == want.1)
}

/// A terminal record waiting for its deltas (akochan's dialect).
struct Pending {
    line: usize,
    event: Value,
}

/// One game being read.
struct Reader<'a> {
    b: Builder<'a>,
    riichi: [bool; 4],
    tsumos: u32,
    pending: Option<Pending>,
    terminals: u32,
    /// The line being read.
    line: usize,
}

impl Reader<'_> {
    fn event(&mut self, e: &Value) -> Result<(), BuildError> {
        let kind = e["type"].as_str().ok_or("an event without a type")?;
        match kind {
            "start_kyoku" => {
                if e.get("tehais").is_none() {
                    return Err(
                        "start_kyoku without tehais (the original mjai's per-player dialect)"
                            .into(),
                    );
                }
                let tehais = e["tehais"]
                    .as_array()
                    .filter(|t| t.len() == 4)
                    .ok_or("tehais is not four hands")?;
                let mut hands: [Vec<Tile>; 4] = Default::default();
                for (h, t) in hands.iter_mut().zip(tehais) {
                    *h = tiles_of(t, "a tehai")?;
                    if h.len() != 13 {
                        return Err(format!("a tehai of {} tiles", h.len()));
                    }
                }
                let scores = four(&e["scores"], "scores")?;
                self.settle(Some(scores))?;
                let wind = match e["bakaze"].as_str() {
                    Some("E") => 0,
                    Some("S") => 1,
                    Some("W") => 2,
                    Some("N") => 3,
                    _ => return Err(format!("bakaze {}", e["bakaze"])),
                };
                let kyoku = small(e, "kyoku")?;
                if !(1..=4).contains(&kyoku) {
                    return Err(format!("kyoku {kyoku}"));
                }
                let oya = seat(e, "oya")?;
                if oya != kyoku - 1 {
                    return Err(format!("kyoku {kyoku} with dealer seat {oya}"));
                }
                self.b.start_hand(
                    wind * 4 + kyoku - 1,
                    small(e, "honba")?,
                    small(e, "kyotaku")?,
                    scores,
                    oya,
                    &hands,
                    tile_of(&e["dora_marker"])?,
                )?;
                self.riichi = [false; 4];
                self.tsumos = 0;
                self.terminals = 0;
            }
            "tsumo" => {
                self.b.draw(seat(e, "actor")?, tile_of(&e["pai"])?)?;
                self.tsumos += 1;
            }
            "dahai" => {
                let tsumogiri = e["tsumogiri"].as_bool().unwrap_or(false);
                self.b
                    .discard(seat(e, "actor")?, Some(tile_of(&e["pai"])?), tsumogiri)?;
            }
            "chi" | "pon" | "daiminkan" => {
                let meld = match kind {
                    "chi" => MeldKind::Chi,
                    "pon" => MeldKind::Pon,
                    _ => MeldKind::Daiminkan,
                };
                let consumed = tiles_of(&e["consumed"], "consumed")?;
                self.b.call(
                    seat(e, "actor")?,
                    meld,
                    seat(e, "target")?,
                    tile_of(&e["pai"])?,
                    &consumed,
                )?;
            }
            "kakan" => self.b.kakan(seat(e, "actor")?, tile_of(&e["pai"])?)?,
            "ankan" => {
                let consumed = tiles_of(&e["consumed"], "consumed")?;
                let first = *consumed.first().ok_or("an ankan with nothing consumed")?;
                self.b
                    .ankan(seat(e, "actor")?, tile::type_kind(usize::from(first)))?;
            }
            "dora" => self.b.dora(tile_of(&e["dora_marker"])?)?,
            "reach" => {
                let who = seat(e, "actor")?;
                self.b.reach(who);
                self.riichi[usize::from(who)] = true;
            }
            "reach_accepted" => self.b.reach_accepted(seat(e, "actor")?),
            "hora" | "ryukyoku" => {
                self.terminals += 1;
                if e.get("deltas").is_none() {
                    if self.pending.is_some() || self.terminals > 1 {
                        return Err("a hand with two results without deltas".into());
                    }
                    self.pending = Some(Pending {
                        line: self.line,
                        event: e.clone(),
                    });
                    return Ok(());
                }
                let deltas = four(&e["deltas"], "deltas")?;
                self.terminal(e, deltas)?;
            }
            "end_game" => {
                let scores = e.get("scores").map(|s| four(s, "scores")).transpose()?;
                self.settle(scores)?;
            }
            "start_game" | "end_kyoku" | "none" => {}
            other => return Err(format!("event type {other:?}")),
        }
        Ok(())
    }

    /// A terminal record with its deltas.
    fn terminal(&mut self, e: &Value, deltas: [i32; 4]) -> Result<(), BuildError> {
        let b = &mut self.b;
        if e["type"] == "hora" {
            let who = seat(e, "actor")?;
            let from = seat(e, "target")?;
            let ura = match e.get("ura_markers").or_else(|| e.get("uradora_markers")) {
                Some(u) => tiles_of(u, "ura_markers")?,
                None => Vec::new(),
            };
            let riichi = self.riichi[usize::from(who)];
            b.win(
                who,
                from,
                deltas,
                [0; 3],
                Vec::new(),
                Vec::new(),
                &ura,
                riichi,
                None,
            )?;
            if let Some(pai) = e.get("pai") {
                let t = tile_of(pai)?;
                let won = if who == from {
                    b.drawn(who)
                } else {
                    b.last_discard()
                };
                if won != Some(t) {
                    return Err(format!(
                        "hora on {}, which is not the tile won on",
                        tile::type_name(usize::from(t))
                    ));
                }
            }
        } else {
            let exhausted = self.tsumos >= LIVE_WALL;
            let kind = match (exhausted, tenpai_payments(&deltas)) {
                (true, true) => None,
                (true, false) => Some("nm"),
                (false, _) => Some("abortive"),
            };
            b.ryuukyoku(kind, deltas, [false; 4])?;
        }
        Ok(())
    }

    /// The pending terminal record, with deltas from the scores that follow it.
    fn settle(&mut self, scores: Option<[i32; 4]>) -> Result<(), BuildError> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let Some(after) = scores else {
            return Err(format!(
                "the result on line {} has no deltas, and no scores follow it",
                p.line
            ));
        };
        let before = self.b.scores();
        let deltas = [0, 1, 2, 3].map(|s| after[s] - before[s]);
        self.terminal(&p.event, deltas)
    }
}

/// Reads an mjai game (its events, in order, with their line numbers) into `log`.
pub(crate) fn read(events: &[(usize, Value)], log: &mut GameLog) -> Result<(), String> {
    let start = events
        .iter()
        .find(|(_, e)| e["type"] == "start_game")
        .map(|(_, e)| e.clone())
        .unwrap_or(Value::Null);
    let red = match start["aka_flag"].as_bool() {
        Some(r) => r,
        None => events.iter().any(|(_, e)| has_red(e)),
    };
    let hanchan = start["kyoku_first"].as_u64() != Some(4);
    let mut go = 0x01;
    if hanchan {
        go |= go_type::HANCHAN;
    }
    if !red {
        go |= go_type::NO_RED;
    }
    let mut un = Un::default();
    if let Some(names) = start["names"].as_array().filter(|n| n.len() == 4) {
        for (s, n) in names.iter().enumerate() {
            un.names[s] = Some(n.as_str().unwrap_or("").to_string());
        }
    }
    log.origin.format = Format::Mjai;
    log.origin.room = Some("engine");
    let mut r = Reader {
        b: Builder::new(log, go, un),
        riichi: [false; 4],
        tsumos: 0,
        pending: None,
        terminals: 0,
        line: 0,
    };
    let mut kyoku = 0;
    for (line, e) in events {
        if e["type"] == "start_kyoku" {
            kyoku += 1;
        }
        r.line = *line;
        r.event(e).map_err(|err| {
            if kyoku > 0 {
                format!("line {line} (kyoku {kyoku}): {err}")
            } else {
                format!("line {line}: {err}")
            }
        })?;
    }
    r.settle(None)?;
    r.b.finish(None)?;
    log.origin.lacks |= lacks::RULES
        | lacks::FINAL_SCORES
        | lacks::WIN_VALUE
        | lacks::DRAW_KIND
        | lacks::WIN_HAND
        | lacks::PAO;
    Ok(())
}

/// Whether a red five (`5mr`) appears.
fn has_red(e: &Value) -> bool {
    crate::formats::any_string(e, &|s| {
        s.len() == 3 && s.ends_with('r') && s.starts_with('5')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One hand, worked by hand: the dealer (seat 0) holds 1-9m 1-3p 5p, draws the other
    /// 5p and wins at once (tenhou): +48000, the others -16000. In a red game the black fives
    /// are copies 1-3, so its 5m is id 17 (kind 4), its 5p id 53 and the drawn 5p id 54.
    const TENHOU: &str = r#"{"type":"start_game","names":["a","b","c","d"],"kyoku_first":0,"aka_flag":true}
{"type":"start_kyoku","bakaze":"E","dora_marker":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","2p","3p","5p"],["1s","2s","3s","4s","6s","7s","8s","9s","S","S","S","W","W"],["1m","2m","3m","4m","6m","7m","8m","9m","N","N","N","P","P"],["1p","2p","3p","4p","6p","7p","8p","9p","F","F","F","C","C"]]}
{"type":"tsumo","actor":0,"pai":"5p"}
{"type":"hora","actor":0,"target":0,"deltas":[48000,-16000,-16000,-16000],"ura_markers":[]}
{"type":"end_kyoku"}
{"type":"end_game"}
"#;

    fn agari(log: &GameLog) -> &crate::mjlog::Agari {
        log.events
            .iter()
            .find_map(|e| match e {
                crate::mjlog::Event::Agari(a) => Some(&**a),
                _ => None,
            })
            .expect("a win")
    }

    #[test]
    fn a_hand_by_hand() {
        let mut log = GameLog::default();
        crate::formats::decode_into(TENHOU.as_bytes(), &mut log).unwrap();
        assert_eq!(log.go_type, Some(0x01 | go_type::HANCHAN));
        assert_eq!(log.origin.format, Format::Mjai);
        assert_eq!(log.origin.room, Some("engine"));
        let init = log
            .events
            .iter()
            .find_map(|e| match e {
                crate::mjlog::Event::Init(i) => Some(&**i),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            init.hai[0],
            vec![0, 4, 8, 12, 17, 20, 24, 28, 32, 36, 40, 44, 53]
        );
        assert_eq!(init.dora_indicator, 108);
        let a = agari(&log);
        assert_eq!((a.who, a.from_who, a.machi), (0, 0, 54));
        assert_eq!(a.sc, [250, 480, 250, -160, 250, -160, 250, -160]);
        assert_eq!(a.hai.len(), 14);
        // The replay proves it.
        crate::stats::prove_game(&log).unwrap();
    }

    /// akochan's dialect: no deltas on `hora`; they come from `end_game`'s scores.
    #[test]
    fn deltas_from_the_scores_that_follow() {
        let text = TENHOU
            .replace(
                r#","deltas":[48000,-16000,-16000,-16000],"ura_markers":[]"#,
                "",
            )
            .replace(
                r#"{"type":"end_game"}"#,
                r#"{"type":"end_game","scores":[73000,9000,9000,9000]}"#,
            );
        let mut log = GameLog::default();
        crate::formats::decode_into(text.as_bytes(), &mut log).unwrap();
        assert_eq!(agari(&log).sc, [250, 480, 250, -160, 250, -160, 250, -160]);
        let cut = text.replace(r#","scores":[73000,9000,9000,9000]"#, "");
        let err = crate::formats::decode_into(cut.as_bytes(), &mut log).unwrap_err();
        assert!(
            err.detail
                .contains("has no deltas, and no scores follow it"),
            "{err:?}"
        );
    }

    #[test]
    fn tile_names() {
        let t = |s: &str| tile_of(&Value::from(s));
        assert_eq!(t("1m").unwrap(), 0);
        assert_eq!(t("9s").unwrap(), 26);
        assert_eq!(t("C").unwrap(), 33);
        assert_eq!(t("5pr").unwrap(), 35);
        assert!(t("?").unwrap_err().contains("one player's view"));
        assert!(t("0m").is_err() && t("5zr").is_err() && t("").is_err());
    }

    /// Tenpai payments of 1, 2, 3 and 0 or 4 tenpai seats; a nagashi mangan's are not.
    #[test]
    fn tenpai_payment_patterns() {
        assert!(tenpai_payments(&[3000, -1000, -1000, -1000]));
        assert!(tenpai_payments(&[1500, -1500, 1500, -1500]));
        assert!(tenpai_payments(&[-3000, 1000, 1000, 1000]));
        assert!(tenpai_payments(&[0; 4]));
        assert!(!tenpai_payments(&[8000, -4000, -2000, -2000]));
        assert!(!tenpai_payments(&[12000, -4000, -4000, -4000]));
    }
}
