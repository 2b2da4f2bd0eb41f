//! The legal actions on hand-worked positions and real logs, and the second proof on the
//! corpus.

use super::*;
use crate::mjlog::decode;
use crate::replay::{replay_game, Observer};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Counts decisions per (kind, observed) and taken actions (their text up to `:`).
#[derive(Default)]
struct Count {
    kinds: BTreeMap<(&'static str, bool), u64>,
    taken: BTreeMap<String, u64>,
    rows: Vec<Decision>,
    keep: bool,
    /// Rules at their edge, as taken in the corpus: riichi declared with exactly 4 draws left,
    /// with under 2,000 points; an ankan declared in riichi.
    edges: [u64; 3],
}

impl Observer for Count {
    fn wants_decisions(&self) -> bool {
        true
    }
    fn decision(&mut self, st: &HandState, d: &Decision) {
        let seat = &st.seats[usize::from(d.seat)];
        match d.taken {
            Some(Action::Riichi) if st.live_wall == 4 => self.edges[0] += 1,
            Some(Action::Riichi) if st.scores[usize::from(d.seat)] < 2000 => self.edges[1] += 1,
            Some(Action::Ankan(_)) if seat.riichi.has_declared() => self.edges[2] += 1,
            _ => {}
        }
        *self
            .kinds
            .entry((d.kind.as_str(), d.observed()))
            .or_default() += 1;
        let t = d.taken.map_or("(unobserved)".into(), |a| {
            let s = a.to_string();
            s.split(':').next().unwrap_or("").to_string()
        });
        *self.taken.entry(t).or_default() += 1;
        if self.keep {
            self.rows.push(d.clone());
        }
    }
}

/// A no-op observer that asks for decisions or not.
struct Plain(bool);
impl Observer for Plain {
    fn wants_decisions(&self) -> bool {
        self.0
    }
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn read(f: &Path) -> Option<crate::mjlog::GameLog> {
    let (mut raw, mut out) = (Vec::new(), Vec::new());
    let bytes = crate::input::read_log(f, &mut raw, &mut out).ok()?;
    decode(bytes).ok()
}

/// Every action of every Phoenix and other-room game is in its legal set, and the counts of
/// decisions per kind. Prints the cost of the check: the replay of every game with and
/// without the tracker.
#[test]
fn every_corpus_action_is_legal() {
    for sub in ["phoenix", "other"] {
        let Some(dir) = crate::score::tests::corpus(sub) else {
            continue;
        };
        let logs: Vec<_> = listing(&dir)
            .par_iter()
            .filter_map(|f| read(f).map(|l| (f.clone(), l)))
            .filter(|(_, l)| l.go_type.is_some_and(|g| g & 0x10 == 0))
            .collect();
        let replay = |check: bool| {
            let t0 = std::time::Instant::now();
            let ok: usize = logs
                .par_iter()
                .map(|(_, l)| usize::from(replay_game(l, &mut Plain(check)).is_ok()))
                .sum();
            (t0.elapsed(), ok)
        };
        let (mut t_plain, mut t_checked) = (std::time::Duration::MAX, std::time::Duration::MAX);
        let (mut plain, mut checked) = (0, 0);
        for _ in 0..3 {
            let (t, n) = replay(false);
            (t_plain, plain) = (t_plain.min(t), n);
            let (t, n) = replay(true);
            (t_checked, checked) = (t_checked.min(t), n);
        }
        // The cost in the default run: every observer of `observe_game`, with and without the
        // choices (and so the legal sets).
        let observe = |choices: bool| {
            let t0 = std::time::Instant::now();
            let ok: usize = logs
                .par_iter()
                .map(|(_, l)| {
                    let mut draws = Vec::new();
                    let o = crate::stats::Observe {
                        choices,
                        ..Default::default()
                    };
                    usize::from(crate::stats::observe_game_with(l, &mut draws, o).is_ok())
                })
                .sum();
            (t0.elapsed(), ok)
        };
        // Alternating, the best of three each (the machine is shared).
        let (mut t_default, mut t_choices) = (std::time::Duration::MAX, std::time::Duration::MAX);
        for _ in 0..3 {
            t_default = t_default.min(observe(false).0);
            t_choices = t_choices.min(observe(true).0);
        }
        eprintln!(
            "{sub}: every default observer {t_default:.2?}, with the choices {t_choices:.2?} (×{:.2})",
            t_choices.as_secs_f64() / t_default.as_secs_f64()
        );
        let out: Vec<Result<Count, String>> = logs
            .par_iter()
            .map(|(f, l)| {
                let mut c = Count::default();
                replay_game(l, &mut c)
                    .map(|_| c)
                    .map_err(|e| format!("{}: {e}", f.display()))
            })
            .collect();
        let mut all = Count::default();
        let mut refused = Vec::new();
        for o in out {
            match o {
                Ok(c) => {
                    for (k, n) in c.kinds {
                        *all.kinds.entry(k).or_default() += n;
                    }
                    for (e, n) in all.edges.iter_mut().zip(c.edges) {
                        *e += n;
                    }
                    for (k, n) in c.taken {
                        *all.taken.entry(k).or_default() += n;
                    }
                }
                Err(e) => refused.push(e),
            }
        }
        eprintln!(
            "{sub}: {} games; replay alone {:.2?} ({plain} replay), with the legal actions {:.2?} ({checked} replay)",
            logs.len(),
            t_plain,
            t_checked
        );
        for ((k, obs), n) in &all.kinds {
            eprintln!(
                "{sub}: decisions {k} {} {n}",
                if *obs { "observed" } else { "unobserved" }
            );
        }
        eprintln!(
            "{sub}: riichi with 4 draws left {}, riichi under 2,000 points {}, ankan in riichi {}",
            all.edges[0], all.edges[1], all.edges[2]
        );
        for (k, n) in &all.taken {
            eprintln!("{sub}: taken {k} {n}");
        }
        for e in refused.iter().take(30) {
            eprintln!("REFUSED {e}");
        }
        assert!(refused.is_empty(), "{sub}: {} games refused", refused.len());
        assert_eq!(plain, logs.len(), "{sub}");
    }
}

/// The edge corpus (logs of other projects, some broken on purpose): which files the second
/// proof refuses that the replay alone accepts.
#[test]
fn edge_files_newly_refused() {
    let Some(edge) = crate::score::tests::corpus("edge") else {
        return;
    };
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&edge).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            files.extend(listing(&dir));
        }
    }
    let mut newly = Vec::new();
    let mut checked = 0;
    for f in &files {
        let Some(log) = read(f) else { continue };
        if replay_game(&log, &mut Plain(false)).is_err() {
            continue;
        }
        checked += 1;
        if let Err(e) = replay_game(&log, &mut Plain(true)) {
            newly.push(format!("{}: {e}", f.display()));
        }
    }
    eprintln!("edge: {checked} files replay; newly refused by the second proof:");
    for n in &newly {
        eprintln!("  {n}");
    }
    assert!(newly.is_empty(), "{} edge files newly refused", newly.len());
}

// ---- Hand-worked positions -------------------------------------------------------------

use crate::mjlog::{Init, Meld, MeldKind};
use crate::replay::{Check, ReplayError};
use crate::tile::TileId;

/// A scripted hand: tiles by name (`0m` the red five), each a fresh id; every event goes
/// through the tracker and the replay as `replay_game` sends it.
struct Script {
    /// Copies of each kind handed out ([`fresh`]).
    used: [u8; 34],
    st: HandState,
    tr: Tracker,
    rows: Vec<Decision>,
}

fn kind_of(name: &str) -> (usize, bool) {
    (tile::parse_kind(name).unwrap(), name.starts_with('0'))
}

/// Single tile names of compact notation: `23p 55z` → 2p 3p 5z 5z.
fn names(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut digits = Vec::new();
    for ch in s.chars() {
        match ch {
            '0'..='9' => digits.push(ch),
            'm' | 'p' | 's' | 'z' => out.extend(digits.drain(..).map(|d| format!("{d}{ch}"))),
            _ => {}
        }
    }
    out
}

/// A fresh id of tile `name` (`used`: copies of each kind handed out; black fives use copies
/// 1..3, the red one copy 0).
fn fresh(used: &mut [u8; 34], name: &str) -> TileId {
    let (k, red) = kind_of(name);
    let five = tile::FIVES.contains(&k);
    let copy = if red {
        0
    } else {
        used[k] += 1;
        if five {
            used[k]
        } else {
            used[k] - 1
        }
    };
    assert!(copy < 4, "a fifth {name}");
    (4 * k) as u8 + copy
}

impl Script {
    /// Deals `hands` (13 tiles each): seat 0 the dealer, scores 25,000, indicator the last 7z.
    fn new(hands: [&str; 4]) -> Script {
        let mut used = [0; 34];
        // The indicator is 7z's copy 3: no hand below holds four chun.
        let hai: [Vec<TileId>; 4] = std::array::from_fn(|seat| {
            names(hands[seat])
                .iter()
                .map(|n| fresh(&mut used, n))
                .collect()
        });
        let init = Init {
            round: 0,
            honba: 0,
            kyotaku: 0,
            dice: [0, 0],
            dora_indicator: 4 * 33 + 3,
            ten: [250; 4],
            oya: 0,
            hai,
            shuffle: None,
        };
        let st = HandState::deal(&init, Players::Four, true, 0, None).unwrap();
        let mut tr = Tracker::default();
        tr.start(&st);
        Script {
            used,
            st,
            tr,
            rows: Vec::new(),
        }
    }

    fn ev(&mut self, e: Event) -> Result<(), ReplayError> {
        let rows = &mut self.rows;
        self.tr
            .before(&self.st, &e, &mut |_, d| rows.push(d.clone()))?;
        self.st.apply(&e)?;
        self.tr.after(&self.st, &e);
        Ok(())
    }

    fn draw(&mut self, seat: u8, name: &str) {
        let tile = fresh(&mut self.used, name);
        self.ev(Event::Draw { seat, tile }).unwrap();
    }

    /// The id of a `name` tile in `seat`'s hand (a red five only for `0m/0p/0s`).
    fn held(&self, seat: u8, name: &str) -> TileId {
        let (k, red) = kind_of(name);
        (4 * k as u8..4 * k as u8 + 4)
            .find(|&t| {
                self.st.is_in_hand(t, seat.into())
                    && tile::is_red(t, true) == (red && tile::FIVES.contains(&k))
            })
            .unwrap_or_else(|| panic!("seat {seat} holds no {name}"))
    }

    fn discard(&mut self, seat: u8, name: &str) -> Result<(), ReplayError> {
        let tile = self.held(seat, name);
        self.ev(Event::Discard { seat, tile })
    }

    /// Draws `name` and throws it back.
    fn tsumogiri(&mut self, seat: u8, name: &str) {
        self.draw(seat, name);
        self.discard(seat, name).unwrap();
    }

    fn reach(&mut self, who: u8) {
        self.ev(Event::Reach {
            who,
            step: 1,
            ten: None,
        })
        .unwrap();
    }

    /// A chi or pon by `who` of the last discard with its tiles `own`.
    fn call(&mut self, who: u8, kind: MeldKind, own: &[&str]) -> Result<(), ReplayError> {
        let (from, called) = self.st.last_discard.unwrap();
        let mut t: Vec<TileId> = own.iter().map(|n| self.held(who, n)).collect();
        t.push(called);
        t.sort_unstable();
        let mut tiles = [0; 4];
        tiles[..t.len()].copy_from_slice(&t);
        let meld = Meld {
            kind,
            tiles,
            len: t.len() as u8,
            called: Some(called),
            added: None,
            from_rel: (from + 4 - who) % 4,
        };
        self.ev(Event::Call { who, meld, m: 0 })
    }

    /// `seat`'s legal set now, as text ("" when it has no choice to make).
    fn legal(&self, seat: usize) -> String {
        self.tr.pending[seat].map_or(String::new(), |a| a.text())
    }

    /// The AGARI of a ron by `who` on the last discard (only its who, from and tile matter
    /// before the tracker refuses it).
    fn ron(&mut self, who: u8) -> Result<(), ReplayError> {
        let (from, machi) = self.st.last_discard.unwrap();
        self.ron_on(who, from, machi)
    }

    /// The AGARI of a ron by `who` on tile `machi` of seat `from` (a discard, a kan's tile).
    fn ron_on(&mut self, who: u8, from: u8, machi: TileId) -> Result<(), ReplayError> {
        self.ev(Event::Agari(Box::new(crate::mjlog::Agari {
            honba: 0,
            kyotaku: 0,
            hai: Vec::new(),
            m: Vec::new(),
            machi,
            ten: [0; 3],
            yaku: Vec::new(),
            yakuman: Vec::new(),
            dora_hai: Vec::new(),
            ura_hai: Vec::new(),
            who,
            from_who: from,
            pao_who: None,
            sc: [0; 8],
            owari: None,
        })))
    }

    /// An ankan by `who` of the four `name` tiles it holds.
    fn ankan(&mut self, who: u8, name: &str) -> Result<(), ReplayError> {
        let k = kind_of(name).0 as u8;
        let meld = Meld {
            kind: MeldKind::Ankan,
            tiles: [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3],
            len: 4,
            called: None,
            added: None,
            from_rel: 0,
        };
        self.ev(Event::Call { who, meld, m: 0 })
    }
}

fn refused(r: Result<(), ReplayError>) -> String {
    let e = r.unwrap_err();
    assert_eq!(e.check, Check::IllegalAction, "{e}");
    e.detail
}

/// Seat 1 waits on 1p-4p with pinfu (and tanyao on 4p): `23p 456m 678m 234s 88s`. The other
/// seats hold tiles the script never discards but honours, so no one else can call.
const WAITER: &str = "23p 456m 678m 234s 88s";
const S0: &str = "19m 19p 555z 77z 3567s";
const S2: &str = "11m 99m 11p 99p 11s 99s 6z";
const S3: &str = "22m 33m 77m 77p 88p 77s 6z";

/// Seat 0 and seat 1 throw back honours nobody holds twice, so no call is legal.
fn quiet_round(s: &mut Script, names: [&str; 2]) {
    s.tsumogiri(0, names[0]);
    s.tsumogiri(1, names[1]);
}

/// Own-river furiten: seat 1 (`23p 456m 678m 234s 88s`, waits 1p 4p) threw 4p, so seat 2's 1p
/// offers it nothing and its ron is refused; with 2z thrown instead, `ron pass`.
#[test]
fn furiten_by_own_river() {
    let mut s = Script::new([S0, WAITER, S2, S3]);
    s.tsumogiri(0, "1z");
    s.draw(1, "4p");
    // 23p + 4p complete: tsumo (pinfu tanyao menzen tsumo) is legal; throwing 4p back too.
    assert!(
        s.legal(1).starts_with("tsumo riichi discard:4m"),
        "{}",
        s.legal(1)
    );
    s.discard(1, "4p").unwrap();
    s.tsumogiri(2, "1p");
    assert_eq!(s.legal(1), "");
    let d = refused(s.ron(1));
    assert_eq!(d, "seat 1 took ron; its legal actions were: none");

    let mut s = Script::new([S0, WAITER, S2, S3]);
    quiet_round(&mut s, ["1z", "2z"]);
    s.tsumogiri(2, "1p");
    assert_eq!(s.legal(1), "ron pass");
    s.ron(1).unwrap_err(); // the AGARI is empty: the replay refuses it, not the tracker
}

/// Temporary furiten: seat 1 passes seat 2's 1p, then cannot ron seat 3's 4p in the same go
/// round; its own discard ends it, and seat 2's 4p is `ron pass` again.
#[test]
fn furiten_after_passing_a_win() {
    let mut s = Script::new([S0, WAITER, S2, S3]);
    quiet_round(&mut s, ["1z", "2z"]);
    s.tsumogiri(2, "1p");
    assert_eq!(s.legal(1), "ron pass");
    s.draw(3, "4p");
    // Seat 3's draw shows seat 1 passed: a `ron` decision taken `pass`.
    let d = s.rows.last().unwrap();
    assert_eq!(
        (d.seat, d.kind, d.taken),
        (1, DecisionKind::Ron, Some(Action::Pass))
    );
    assert_eq!(d.legal.text(), "ron pass");
    s.discard(3, "4p").unwrap();
    assert_eq!(s.legal(1), "");
    refused(s.ron(1));
    quiet_round(&mut s, ["3z", "4z"]);
    s.tsumogiri(2, "4p");
    assert_eq!(s.legal(1), "ron pass");
}

/// Riichi furiten: seat 1 declares on 2z (its only tenpai-keeping discard: a forced
/// declaration tile), passes seat 2's 1p, discards again, and still cannot ron 4p; it may
/// still tsumo.
#[test]
fn furiten_after_riichi() {
    let mut s = Script::new([S0, WAITER, S2, S3]);
    s.tsumogiri(0, "1z");
    s.draw(1, "2z");
    assert!(s.legal(1).starts_with("riichi discard:"), "{}", s.legal(1));
    s.reach(1);
    assert_eq!(s.legal(1), "discard:2z");
    s.discard(1, "2z").unwrap();
    let d = s.rows.last().unwrap();
    assert_eq!(
        (d.kind, d.taken),
        (DecisionKind::Riichi, Some(Action::Riichi))
    );
    s.tsumogiri(2, "1p");
    assert_eq!(s.legal(1), "ron pass");
    s.tsumogiri(3, "3z");
    s.tsumogiri(0, "4z");
    s.draw(1, "1z");
    // In riichi only the drawn tile may go.
    assert_eq!(s.legal(1), "discard:1z");
    s.discard(1, "1z").unwrap();
    s.tsumogiri(2, "4p");
    assert_eq!(s.legal(1), "");
    refused(s.ron(1));
    s.tsumogiri(3, "3z");
    s.tsumogiri(0, "4z");
    s.draw(1, "4p");
    assert_eq!(s.legal(1), "tsumo discard:4p");
}

/// The swap-call ban: seat 1 (`234p 456m 678m 23s 88s`) chis seat 0's 1p with 2p3p; 1p and 4p
/// may not follow (1p is not held; 4p is refused), 8s may.
#[test]
fn swap_call_refused() {
    let mut s = Script::new([S0, "234p 456m 678m 23s 88s", S2, S3]);
    s.draw(0, "1z");
    s.discard(0, "1p").unwrap();
    assert_eq!(s.legal(1), "chi:2p3p pass");
    // Seat 2 (11p) could pon it: outranking the chi, it passed.
    assert_eq!(s.legal(2), "pon pass");
    s.call(1, MeldKind::Chi, &["2p", "3p"]).unwrap();
    let taken: Vec<_> = s.rows.iter().map(|d| (d.seat, d.kind, d.taken)).collect();
    assert_eq!(
        taken,
        [
            // Seat 0's own discard of 1p (kind 9) among the 14 tiles it held.
            (0, DecisionKind::Discard, Some(Action::Discard(9))),
            (1, DecisionKind::Chi, Some(Action::Chi(10, 11))),
            (2, DecisionKind::Pon, Some(Action::Pass))
        ]
    );
    assert_eq!(
        s.legal(1),
        "discard:4m discard:5m discard:6m discard:7m discard:8m discard:2s discard:3s discard:8s"
    );
    let d = refused(s.discard(1, "4p"));
    assert!(
        d.starts_with("seat 1 took discard:4p; its legal actions were: discard:4m"),
        "{d}"
    );
    s.discard(1, "8s").unwrap();
}

/// Riichi needs 1,000 points and 4 draws left in the live wall: seat 1 tenpai after its draw
/// of 2z (68 draws left) may declare; not with 900 points, yes with 1,000; not with 3 draws
/// left, yes with 4.
#[test]
fn riichi_needs_points_and_draws() {
    let mut s = Script::new([S0, WAITER, S2, S3]);
    s.tsumogiri(0, "1z");
    s.draw(1, "2z");
    assert_eq!(s.st.live_wall, 68);
    let riichi = |s: &Script| s.st.actions_after_draw(1).contains(Action::Riichi);
    assert!(riichi(&s));
    s.st.scores[1] = 900;
    assert!(!riichi(&s));
    s.st.scores[1] = 1000;
    assert!(riichi(&s));
    s.st.live_wall = 3;
    assert!(!riichi(&s));
    s.st.live_wall = 4;
    assert!(riichi(&s));
}

/// Kyuushu: the dealer with 1m 9m 1p 9p 1s 9s 1z 2z 3z (nine kinds) draws 4z: offered; it
/// discards 4z (a `kyuushu` decision declined); on its next draw no longer offered.
#[test]
fn kyuushu_offered_and_declined() {
    let s0 = "19m 19p 19s 123z 55s 67s";
    let mut s = Script::new([s0, WAITER, S2, S3]);
    s.draw(0, "4z");
    assert!(s.legal(0).contains("kyuushu"), "{}", s.legal(0));
    s.discard(0, "4z").unwrap();
    let d = s.rows.last().unwrap();
    assert_eq!(
        (d.seat, d.kind, d.taken),
        (0, DecisionKind::Kyuushu, Some(Action::Discard(30)))
    );
    s.tsumogiri(1, "4z");
    s.tsumogiri(2, "4z");
    s.tsumogiri(3, "4z");
    s.draw(0, "7z");
    assert!(!s.legal(0).contains("kyuushu"), "{}", s.legal(0));
}

/// Chi pairs, red and black fives apart: seat 1 holds 3m 0m 5m 6m and seat 0 throws 4m:
/// 5m6m, 0m6m, 3m5m, 3m0m. Seat 1 takes 3m0m.
#[test]
fn chi_pairs_with_a_red_five() {
    let mut s = Script::new([
        S0,
        "3m 0m 5m 6m 456p 789p 88s 1z",
        S2,
        "22m 77m 77p 88p 77s 66z 4s",
    ]);
    s.tsumogiri(0, "4m");
    assert_eq!(s.legal(1), "chi:5m6m chi:0m6m chi:3m5m chi:3m0m pass");
    s.call(1, MeldKind::Chi, &["3m", "0m"]).unwrap();
    let d = s.rows.last().unwrap();
    assert_eq!(d.taken.unwrap().to_string(), "chi:3m0m");
    assert_eq!(d.kind, DecisionKind::Chi);
}

/// No call on the last tile (houtei): seat 0's 8s offers seat 1 (88s) `pon pass` with a draw
/// left, nothing when the live wall is empty; a wait on the last tile is still a ron.
#[test]
fn no_call_on_the_last_tile() {
    for (left, want) in [(1, "pon pass"), (0, "")] {
        let mut s = Script::new([S0, WAITER, S2, S3]);
        s.draw(0, "8s");
        s.st.live_wall = left;
        s.discard(0, "8s").unwrap();
        assert_eq!(s.legal(1), want, "{left} left");
    }
    let mut s = Script::new([S0, WAITER, S2, S3]);
    s.draw(0, "2z");
    s.st.live_wall = 0;
    s.discard(0, "1p").unwrap();
    assert_eq!(s.legal(1), "ron pass");
}

/// Ankan in riichi only when the waits stay the same: `111m 456p 789p 234s 5s` (waits 2s 5s)
/// draws the fourth 1m: the kan leaves 2s 5s, legal; `111m 23m 456p 789p 55s` (waits 1m 4m
/// 5s) draws it: the kan leaves 1m 4m only, not legal (the tsumo is).
#[test]
fn ankan_in_riichi_only_with_the_same_waits() {
    let others = [
        "2233z 4455z 66z 77z 9m",
        "2233p 2233s 99p 99s 8m",
        "6z 66p 6s 88p 88m 7m 234z 9m",
    ];
    for (hand, want) in [
        ("111m 456p 789p 234s 5s", "ankan:1m discard:1m"),
        ("111m 23m 456p 789p 55s", "tsumo discard:1m"),
    ] {
        let mut s = Script::new([others[0], hand, others[1], others[2]]);
        s.tsumogiri(0, "1z");
        s.draw(1, "1z");
        s.reach(1);
        s.discard(1, "1z").unwrap();
        s.tsumogiri(2, "1z");
        s.tsumogiri(3, "1z");
        s.tsumogiri(0, "4p");
        s.draw(1, "1m");
        assert_eq!(s.legal(1), want, "{hand}");
    }
}

/// Chankan: seat 2 pons seat 0's 3p (seat 1's chi of it, outranked, is unobserved), later
/// draws the fourth 3p and adds it: seat 1 (`12p 456m 678m 234s 88s`, no yaku on 3p but
/// robbing the kan) is offered `ron pass`.
#[test]
fn chankan_offered_on_a_kakan() {
    let mut s = Script::new([
        S0,
        "12p 456m 678m 234s 88s",
        "33p 11m 99m 99p 11s 99s 6z",
        S3,
    ]);
    s.draw(0, "3p");
    s.discard(0, "3p").unwrap();
    // No yaku on a 3p ron (penchan, a terminal): chi only.
    assert_eq!(s.legal(1), "chi:1p2p pass");
    assert_eq!(s.legal(2), "pon pass");
    s.call(2, MeldKind::Pon, &["3p", "3p"]).unwrap();
    let chi = s.rows.iter().find(|d| d.seat == 1).unwrap();
    assert_eq!((chi.kind, chi.taken), (DecisionKind::Chi, None));
    s.discard(2, "6z").unwrap();
    s.tsumogiri(3, "1z");
    quiet_round(&mut s, ["2z", "3z"]);
    s.draw(2, "3p");
    assert!(s.legal(2).starts_with("kakan:3p"), "{}", s.legal(2));
    let pon = s.st.seats[2].melds[0];
    let added = s.held(2, "3p");
    let mut t: Vec<TileId> = pon.tiles().to_vec();
    t.push(added);
    t.sort_unstable();
    let meld = Meld {
        kind: MeldKind::Kakan,
        tiles: [t[0], t[1], t[2], t[3]],
        len: 4,
        called: pon.called,
        added: Some(added),
        from_rel: pon.from_rel,
    };
    s.ev(Event::Call { who: 2, meld, m: 0 }).unwrap();
    assert_eq!(s.legal(1), "ron pass");
}

/// Investigation aid (ignored): the declined wins of the Phoenix corpus.
#[test]
#[ignore]
fn print_declined_wins() {
    struct Declined(Vec<String>);
    impl Observer for Declined {
        fn wants_decisions(&self) -> bool {
            true
        }
        fn decision(&mut self, st: &HandState, d: &Decision) {
            if matches!(d.kind, DecisionKind::Ron | DecisionKind::Tsumo)
                && d.taken
                    .is_some_and(|a| a != Action::Ron && a != Action::Tsumo)
            {
                let s = &st.seats[usize::from(d.seat)];
                let last = st.last_discard.or(st.last_kan_tile);
                self.0.push(format!(
                    "hand {} seat {} turn {} kind {} taken {} legal [{}] hand {:?} melds {} riichi {:?} last {:?} terminals {:?} live {}",
                    d.hand,
                    d.seat,
                    d.turn,
                    d.kind.as_str(),
                    d.taken.unwrap(),
                    d.legal.text(),
                    st.concealed_ids(usize::from(d.seat)).iter().map(|&t| tile::kind_name(tile::kind(t))).collect::<Vec<_>>().join(""),
                    s.melds.len(),
                    s.riichi,
                    last.map(|(w, t)| (w, tile::kind_name(tile::kind(t)))),
                    st.terminals.iter().map(|t| (t.who, t.from)).collect::<Vec<_>>(),
                    st.live_wall,
                ));
            }
        }
    }
    let dir = crate::score::tests::corpus("phoenix").unwrap();
    let mut n = 0;
    for f in listing(&dir) {
        let Some(log) = read(&f) else { continue };
        let mut o = Declined(Vec::new());
        if replay_game(&log, &mut o).is_ok() {
            for l in o.0 {
                n += 1;
                if n <= 60 {
                    eprintln!("{}: {l}", f.file_name().unwrap().to_string_lossy());
                }
            }
        }
    }
    eprintln!("{n} declined");
}

/// A real declined win: `phoenix/2020010100gm-00e1-0000-a6745dcf.xml`, hand 4 (East 4), seat 2
/// at 10,400 points holds `123m 88m 345p 234s 45s` (pinfu, waits 3s 6s) from its turn 5 and
/// passes seat 0's 3s and then its 6s three times (turns 5, 6, 7, 9; its own discards between
/// end each temporary furiten), then draws 6s and declares riichi on 1m instead of the tsumo
/// (aiming at 234 sanshoku) at turn 11: four `ron` decisions taken `pass`, and one with
/// `tsumo` legal taken `riichi`. (It was tenpai and could declare from turn 1: `riichi` decisions taken
/// `discard:1s`.)
#[test]
fn a_real_declined_win() {
    let Some(dir) = crate::score::tests::corpus("phoenix") else {
        return;
    };
    let log = read(&dir.join("2020010100gm-00e1-0000-a6745dcf.xml")).unwrap();
    let mut c = Count {
        keep: true,
        ..Count::default()
    };
    replay_game(&log, &mut c).unwrap();
    let seat2: Vec<(u8, &str, String, String)> = c
        .rows
        .iter()
        .filter(|d| {
            d.hand == 4
                && d.seat == 2
                && (d.kind == DecisionKind::Ron || d.legal.contains(Action::Tsumo))
        })
        .map(|d| {
            (
                d.turn,
                d.kind.as_str(),
                d.legal.text(),
                d.taken.unwrap().to_string(),
            )
        })
        .collect();
    let ron = |turn| (turn, "ron", "ron pass".to_string(), "pass".to_string());
    assert_eq!(seat2[..4], [ron(5), ron(6), ron(7), ron(9)]);
    // Taken `riichi`, the decision is a `riichi` one (the taken action's kind).
    let (turn, kind, legal, taken) = &seat2[4];
    assert_eq!((*turn, *kind, taken.as_str()), (11, "riichi", "riichi"));
    assert!(legal.starts_with("tsumo riichi discard:1m"), "{legal}");
    assert_eq!(seat2.len(), 5);
}

/// No hand robs a closed kan under Tenhou's rules, thirteen orphans included: seat 1 waits on
/// 1m with kokushi (`9m 19p 199s 1234567z`) and seat 2 makes an ankan of the four 1m. Seat 1
/// has no decision there (a table that lets kokushi rob an ankan would offer `ron pass`), and
/// a ron on the kan's tile is refused.
#[test]
fn no_ron_on_an_ankan_even_for_kokushi() {
    let kokushi = "9m 19p 199s 1234567z";
    let hands = [
        "2233m 4455p 66s 77s 8p",
        kokushi,
        "1111m 234p 567p 88m 6s",
        "2233s 4455s 66m 77m 8s",
    ];
    let mut s = Script::new(hands);
    s.tsumogiri(0, "1z");
    s.tsumogiri(1, "2z");
    s.draw(2, "3z");
    assert!(s.legal(2).starts_with("ankan:1m"), "{}", s.legal(2));
    s.ankan(2, "1m").unwrap();
    assert_eq!(s.legal(1), "");
    assert!(s
        .rows
        .iter()
        .all(|d| d.seat != 1 || d.kind != DecisionKind::Ron));
    // The AGARI of a kokushi ron on the kan's 1m is not in seat 1's (empty) legal set.
    let machi = s.st.seats[2].melds[0].tiles[0];
    let d = refused(s.ron_on(1, 2, machi));
    assert_eq!(d, "seat 1 took ron; its legal actions were: none");
    // Letting the kan go is no pass: seat 1 is not furiten for it.
    s.draw(2, "4z");
    s.discard(2, "4z").unwrap();
    assert!(!s.tr.passed[1]);
}

/// Four kans by two seats (四槓散了): the discard after the fourth ends the hand unless it is
/// won, so only `ron` may claim it. Seat 0 makes two ankans (1m, 2m) and discards 9s: seat 1
/// (99s) may pon it. Seat 1 then makes two ankans (3m, 4m) and discards 4p: seat 2 (44p) may
/// not pon it; seat 3 (`23p 567m 678m 234s 88s`, pinfu on 1p-4p) may ron it. A pon of it is
/// refused.
#[test]
fn only_ron_on_the_discard_after_four_kans_of_two_seats() {
    let hands = [
        "1111m 2222m 55p 66p 9s",
        "3333m 4444m 4p 88s 99s",
        "44p 11s 22s 33s 77z 6z 5s 6s",
        "23p 567m 678m 234s 88s",
    ];
    let mut s = Script::new(hands);
    s.draw(0, "3z");
    s.ankan(0, "1m").unwrap();
    s.draw(0, "4z");
    s.ankan(0, "2m").unwrap();
    s.draw(0, "5z");
    s.discard(0, "9s").unwrap();
    assert_eq!(s.legal(1), "pon pass");
    s.draw(1, "6z");
    s.ankan(1, "3m").unwrap();
    s.draw(1, "1z");
    assert_eq!(kans(&s.st), 3);
    assert!(!four_kans_apart(&s.st));
    s.ankan(1, "4m").unwrap();
    assert!(four_kans_apart(&s.st));
    s.draw(1, "2z");
    s.discard(1, "4p").unwrap();
    assert_eq!(s.legal(2), "");
    assert_eq!(s.legal(3), "ron pass");
    let d = refused(s.call(2, MeldKind::Pon, &["4p", "4p"]));
    assert_eq!(d, "seat 2 took pon; its legal actions were: none");
    // Four kans of one seat (its suukantsu tenpai) leave the calls: only the kans of two
    // seats or more end the hand.
    let mut one = s.st.clone();
    let moved: Vec<_> = one.seats[1].melds.drain(..).collect();
    one.seats[0].melds.extend(moved);
    assert_eq!(kans(&one), 4);
    assert!(!four_kans_apart(&one));
}
