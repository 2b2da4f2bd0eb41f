//! Drives a whole decoded game through [`HandState`], hand by hand, and reports to observers.

use super::legal::Tracker;
use super::proofs::Proofs;
use super::{Check, HandState, Observer, ReplayError, TerminalKind};
use crate::mjlog::{go_type, lacks, room_of, Event, Format, GameLog};
use crate::rules::Players;
use crate::wall::{Seed, SeedForm, Walls};

/// What one replayed hand was, for the `hands` frame.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HandFacts {
    pub(crate) round: u8,
    pub(crate) honba: u8,
    pub(crate) kyotaku: u8,
    pub(crate) dealer: u8,
    /// Scores at the start of the hand (INIT `ten`), in points.
    pub(crate) start: [i32; 4],
    /// `tsumo`, `ron`, `double_ron` or the RYUUKYOKU type name.
    pub(crate) end: String,
    /// Sum of the terminal records' deltas, in points (riichi sticks not deducted).
    pub(crate) deltas: [i32; 4],
    /// Riichi declaration discards made (including one that dealt in).
    pub(crate) declarations: u8,
    /// Seats that made at least one chi, pon or daiminkan.
    pub(crate) callers: u8,
    /// AGARI records.
    pub(crate) wins: u8,
    /// AGARI records whose score the replay proved ([`GameFacts::proofs`]: their yaku, fu and
    /// points, or the payments they make; 0 in a game with no score proof).
    pub(crate) wins_proved: u8,
    /// Sum of AGARI `ten` second fields (points without honba and kyotaku).
    pub(crate) win_value: i32,
    /// Draw records.
    pub(crate) draws: u16,
}

/// How much of a game the wall check covered (`manifest.json`: `wall`, and the totals).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WallCoverage {
    /// Why the game was not checked (no seed, or one in no known form).
    pub(crate) unchecked: Option<String>,
    /// Hands, draws (live and replacement) and indicators checked.
    pub(crate) hands: u32,
    pub(crate) draws: u32,
    pub(crate) indicators: u32,
}

/// What one replayed game was, for the `games` frame.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GameFacts {
    pub(crate) format: Format,
    /// What the format does not record ([`crate::mjlog::lacks`] bits).
    pub(crate) lacks: u16,
    /// The GO type's room, or the room of a game from elsewhere ([`crate::mjlog::Origin`]).
    pub(crate) room: &'static str,
    pub(crate) go_type: u32,
    pub(crate) red: bool,
    pub(crate) names: [String; 4],
    /// Per seat `dan` and `rate` from `UN`, when the log has them.
    pub(crate) dan: Option<[i32; 4]>,
    pub(crate) rate: Option<[f64; 4]>,
    /// Final scores in points (from `owari`; when the format does not record them,
    /// [`lacks::FINAL_SCORES`], the replay's last scores with the sticks left on the table
    /// to the first place: [`derived_final_scores`]).
    pub(crate) final_scores: [i32; 4],
    /// Final placement 1..=4 (1..=3) per seat; ties go to the seat nearer the first dealer
    /// (seat 0); 0 for the absent fourth seat of a three-player game.
    pub(crate) places: [u8; 4],
    /// Four players or three.
    pub(crate) players: Players,
    pub(crate) hands: Vec<HandFacts>,
    pub(crate) wall: WallCoverage,
    /// The proofs the replay ran on the game (`manifest.json`: `proofs`).
    pub(crate) proofs: Proofs,
}

fn game_err(check: Check, detail: impl Into<String>) -> ReplayError {
    ReplayError {
        hand: None,
        check,
        detail: detail.into(),
    }
}

/// Replays every hand of `log`, telling `observers` about each step.
///
/// The game replays or fails whole: on `Err` the observers' rows for this game must be
/// discarded. A three-player game (GO type bit 0x10) replays under its own rules
/// ([`Players::Three`]).
pub(crate) fn replay_game<O: Observer>(
    log: &GameLog,
    observers: &mut O,
) -> Result<GameFacts, ReplayError> {
    let go = log
        .go_type
        .ok_or_else(|| game_err(Check::NoGo, "the log has no GO tag"))?;
    let players = Players::of_go_type(go);
    let red = go & go_type::NO_RED == 0;
    let mut walls = game_walls(log, players);
    let mut coverage = WallCoverage {
        unchecked: walls.as_ref().err().cloned(),
        ..WallCoverage::default()
    };
    let mut hands: Vec<HandFacts> = Vec::new();
    let mut state: Option<HandState> = None;
    // The second proof and the decisions (§23), when an observer wants them: in every
    // format, every game.
    let wants = observers.wants_decisions();
    let proofs = Proofs::of(log, go, wants);
    let mut tracker = wants.then(Tracker::default);
    let mut owari: Option<&Vec<f64>> = None;
    for (index, ev) in log.events.iter().enumerate() {
        observers.event(index);
        let h = hands.len().saturating_sub(1);
        if owari.is_some() && !matches!(ev, Event::Un(_) | Event::Bye { .. } | Event::Unknown(_)) {
            return Err(game_err(
                Check::AfterOwari,
                format!("{ev:?} after the final record"),
            ));
        }
        let need = |state: &mut Option<HandState>| -> Result<(), ReplayError> {
            match state {
                Some(st) if !st.is_over() => Ok(()),
                Some(_) => Err(ReplayError {
                    hand: Some(h),
                    check: Check::AfterEnd,
                    detail: format!("{ev:?} after the hand ended"),
                }),
                None => Err(game_err(
                    Check::NoInit,
                    format!("{ev:?} before the first INIT"),
                )),
            }
        };
        match ev {
            Event::Init(init) => {
                if init.hai[..players.seats()].iter().any(Vec::is_empty) {
                    return Err(ReplayError {
                        hand: Some(hands.len()),
                        check: Check::BadInit,
                        detail: match players {
                            Players::Four => {
                                "an INIT deals no tiles to a seat of a four-player game".into()
                            }
                            Players::Three => {
                                "an INIT deals no tiles to a seat of a three-player game".into()
                            }
                        },
                    });
                }
                if let Some(prev) = &state {
                    if !prev.is_over() {
                        return Err(ReplayError {
                            hand: Some(h),
                            check: Check::Truncated,
                            detail: "the hand has no AGARI or RYUUKYOKU".into(),
                        });
                    }
                    let want = init.ten.map(|t| t * 100);
                    if want != prev.scores {
                        return Err(ReplayError {
                            hand: Some(hands.len()),
                            check: Check::ScoreMismatch,
                            detail: format!(
                                "INIT ten {want:?} but the previous hand ended at {:?}",
                                prev.scores
                            ),
                        });
                    }
                }
                if let (Some(prev), Some(facts)) = (&state, hands.last_mut()) {
                    if let Some(t) = tracker.as_mut() {
                        t.end(prev, &mut |h, d| observers.decision(h, d));
                    }
                    finish_hand(prev, facts, &mut coverage, observers);
                }
                let wall = match &mut walls {
                    Ok((w, seeds)) => w.next(seeds.get(hands.len())),
                    Err(_) => None,
                };
                let mut st = HandState::deal(init, players, red, hands.len(), wall)?;
                st.open_tanyao = go & go_type::NO_OPEN_TANYAO == 0;
                st.proofs = proofs;
                hands.push(HandFacts {
                    round: init.round,
                    honba: init.honba,
                    kyotaku: init.kyotaku,
                    dealer: init.oya,
                    start: init.ten.map(|t| t * 100),
                    end: String::new(),
                    deltas: [0; 4],
                    declarations: 0,
                    callers: 0,
                    wins: 0,
                    wins_proved: 0,
                    win_value: 0,
                    draws: 0,
                });
                if let Some(t) = tracker.as_mut() {
                    t.start(&st);
                }
                observers.hand_start(&st);
                state = Some(st);
            }
            Event::Draw { seat, tile } => {
                need(&mut state)?;
                let st = state.as_mut().expect("checked");
                track_before(&mut tracker, st, ev, observers)?;
                st.apply_observed(ev, |st| {
                    observers.before_draw(st, *seat as usize, *tile);
                })?;
                track_after(&mut tracker, st, ev);
                observers.after_draw(st, *seat as usize, *tile);
            }
            Event::Discard { seat, tile } => {
                need(&mut state)?;
                let st = state.as_mut().expect("checked");
                track_before(&mut tracker, st, ev, observers)?;
                st.apply_observed(ev, |st| {
                    observers.before_discard(st, *seat as usize, *tile);
                })?;
                track_after(&mut tracker, st, ev);
                let declaration = st.seats[*seat as usize]
                    .river
                    .last()
                    .is_some_and(|r| r.riichi);
                observers.after_discard(st, *seat as usize, *tile, declaration);
            }
            Event::Call { who, .. } => {
                need(&mut state)?;
                let st = state.as_mut().expect("checked");
                track_before(&mut tracker, st, ev, observers)?;
                st.apply(ev)?;
                track_after(&mut tracker, st, ev);
                observers.after_call(st, *who as usize);
            }
            Event::Kita { who, .. } => {
                need(&mut state)?;
                let st = state.as_mut().expect("checked");
                track_before(&mut tracker, st, ev, observers)?;
                st.apply(ev)?;
                track_after(&mut tracker, st, ev);
                observers.after_kita(st, *who as usize);
            }
            Event::Reach { .. } | Event::Dora { .. } | Event::Ryuukyoku(_) => {
                need(&mut state)?;
                let st = state.as_mut().expect("checked");
                track_before(&mut tracker, st, ev, observers)?;
                st.apply(ev)?;
                track_after(&mut tracker, st, ev);
                if let Event::Ryuukyoku(r) = ev {
                    owari = r.owari.as_ref().or(owari);
                }
            }
            Event::Agari(a) => {
                let st = match state.as_mut() {
                    Some(st) => st,
                    None => return Err(game_err(Check::NoInit, "AGARI before the first INIT")),
                };
                track_before(&mut tracker, st, ev, observers)?;
                st.apply(ev)?;
                owari = a.owari.as_ref().or(owari);
            }
            Event::Shuffle { .. }
            | Event::Go { .. }
            | Event::Un(_)
            | Event::Bye { .. }
            | Event::Taikyoku { .. }
            | Event::Unknown(_) => {}
        }
    }
    let Some(last) = &state else {
        return Err(game_err(Check::NoHands, "the log has no INIT"));
    };
    if !last.is_over() {
        return Err(ReplayError {
            hand: Some(hands.len() - 1),
            check: Check::Truncated,
            detail: "the log ends inside a hand".into(),
        });
    }
    if let Some(t) = tracker.as_mut() {
        t.end(last, &mut |h, d| observers.decision(h, d));
    }
    finish_hand(
        last,
        hands.last_mut().expect("a hand was dealt"),
        &mut coverage,
        observers,
    );
    let (dan, rate) = log.player_ranks();
    let facts = |final_scores: [i32; 4]| GameFacts {
        format: log.origin.format,
        lacks: log.origin.lacks,
        room: log.origin.room.unwrap_or_else(|| room_of(go)),
        go_type: go,
        red,
        names: log.player_names(),
        dan,
        rate,
        final_scores,
        places: places(&final_scores, players),
        players,
        hands: Vec::new(),
        wall: WallCoverage::default(),
        proofs,
    };
    let Some(owari) = owari else {
        if log.origin.lacks(lacks::FINAL_SCORES) {
            return Ok(GameFacts {
                hands,
                wall: coverage,
                ..facts(derived_final_scores(last.scores, last.kyotaku, players))
            });
        }
        return Err(game_err(Check::Truncated, "the final record has no owari"));
    };
    if owari.len() < 8 {
        return Err(game_err(
            Check::BadOwari,
            format!("owari has {} values", owari.len()),
        ));
    }
    let final_scores = [0, 1, 2, 3].map(|s| (owari[2 * s] * 100.0).round() as i32);
    // Sticks left on the table at the end go to the winner of the game (Tenhou's rule), so
    // `owari` may exceed the replay by exactly that amount for one seat.
    let diff: Vec<(usize, i32)> = (0..4)
        .map(|s| (s, final_scores[s] - last.scores[s]))
        .filter(|&(_, d)| d != 0)
        .collect();
    let left = last.kyotaku as i32 * 1000;
    let consistent = match diff.as_slice() {
        [] => true,
        [(s, d)] => *d == left && places(&final_scores, players)[*s] == 1,
        _ => false,
    };
    if !consistent {
        return Err(game_err(
            Check::ScoreMismatch,
            format!(
                "owari scores {final_scores:?} but the replay ends at {:?} with {left} in sticks",
                last.scores
            ),
        ));
    }
    Ok(GameFacts {
        hands,
        wall: coverage,
        ..facts(final_scores)
    })
}

/// The tracker's check of `ev` before the replay applies it (a no-op without a tracker).
fn track_before<O: Observer>(
    tracker: &mut Option<Tracker>,
    st: &HandState,
    ev: &Event,
    observers: &mut O,
) -> Result<(), ReplayError> {
    match tracker {
        Some(t) => t.before(st, ev, &mut |h, d| observers.decision(h, d)),
        None => Ok(()),
    }
}

/// The tracker's new moment once `ev` is applied.
fn track_after(tracker: &mut Option<Tracker>, st: &HandState, ev: &Event) {
    if let Some(t) = tracker {
        t.after(st, ev);
    }
}

/// The walls of a game, from its SHUFFLE seed (one generator for the game) or, in logs of
/// 2008–2009 without one, from every INIT's own `shuffle` seed (returned in hand order); or
/// why the game has none and replays unchecked.
fn game_walls(log: &GameLog, players: Players) -> Result<(Walls, Vec<Seed>), String> {
    let shuffle = log.events.iter().find_map(|e| match e {
        // An empty `seed` (some hand-made logs) is no seed.
        Event::Shuffle { seed } => seed.as_deref().filter(|s| !s.trim().is_empty()),
        _ => None,
    });
    if let Some(text) = shuffle {
        let seed = Seed::parse(text).map_err(|e| format!("SHUFFLE seed: {e}"))?;
        if seed.form == SeedForm::PerHand {
            return Err("SHUFFLE seed in the per-hand form".into());
        }
        return Ok((Walls::new(&seed, players), Vec::new()));
    }
    let mut seeds = Vec::new();
    for (i, init) in log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Init(init) => Some(init),
            _ => None,
        })
        .enumerate()
    {
        let Some(text) = init.shuffle.as_deref() else {
            return Err(if i == 0 {
                "no seed".into()
            } else {
                format!("INIT {i} has no shuffle seed")
            });
        };
        let seed = Seed::parse(text).map_err(|e| format!("INIT {i} shuffle seed: {e}"))?;
        if seed.form != SeedForm::PerHand {
            return Err(format!("INIT {i} shuffle seed is not in the per-hand form"));
        }
        seeds.push(seed);
    }
    match seeds.first() {
        Some(first) => Ok((Walls::new(first, players), seeds)),
        None => Err("no seed".into()),
    }
}

/// Records a finished hand's facts and tells the observers it is over.
fn finish_hand<O: Observer>(
    st: &HandState,
    facts: &mut HandFacts,
    coverage: &mut WallCoverage,
    observers: &mut O,
) {
    if let Some(c) = &st.wall {
        coverage.hands += 1;
        coverage.draws += u32::from(c.live) + u32::from(c.rinshan);
        coverage.indicators += u32::from(c.indicators);
    }
    fill_facts(facts, st);
    observers.hand_end(st);
}

fn fill_facts(facts: &mut HandFacts, st: &HandState) {
    let t = &st.terminals;
    facts.end = match &t[0].kind {
        TerminalKind::Tsumo => "tsumo".into(),
        TerminalKind::Ron if t.len() > 1 => "double_ron".into(),
        TerminalKind::Ron => "ron".into(),
        TerminalKind::Draw(name) => name.clone(),
    };
    facts.deltas = [0; 4];
    for rec in t {
        for s in 0..4 {
            facts.deltas[s] += rec.deltas[s];
        }
    }
    facts.declarations = st.seats.iter().filter(|s| s.riichi.has_declared()).count() as u8;
    facts.callers = st.seats.iter().filter(|s| s.called).count() as u8;
    facts.wins = t
        .iter()
        .filter(|r| !matches!(r.kind, TerminalKind::Draw(_)))
        .count() as u8;
    facts.wins_proved = st.wins_proved;
    facts.win_value = t.iter().map(|r| r.value).sum();
    facts.draws = st.draws;
}

/// The final scores of a game whose format does not record them (mjai: no `owari`), as the
/// engines and Tenhou settle them: the scores after the last hand, and the riichi sticks left
/// on the table to the first place (ties to the seat nearer the first dealer).
pub(crate) fn derived_final_scores(last: [i32; 4], sticks: u8, players: Players) -> [i32; 4] {
    let mut scores = last;
    if let Some(first) = places(&last, players).iter().position(|&p| p == 1) {
        scores[first] += 1000 * i32::from(sticks);
    }
    scores
}

/// Placement per seat (1..=seats): higher score first, ties to the lower seat index; 0 for
/// the absent fourth seat of a three-player game.
pub(crate) fn places(scores: &[i32; 4], players: Players) -> [u8; 4] {
    let mut order = [0usize, 1, 2, 3];
    let order = &mut order[..players.seats()];
    order.sort_by_key(|&s| (-scores[s], s));
    let mut out = [0u8; 4];
    for (rank, &s) in order.iter().enumerate() {
        out[s] = rank as u8 + 1;
    }
    out
}
