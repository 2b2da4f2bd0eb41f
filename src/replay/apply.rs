//! The one function that changes a [`HandState`]: [`HandState::apply`], one decoded event at a
//! time, checked against the state (and, for terminal records, the state against the log);
//! the error context (the hand) is added once, there.

use super::proofs::{Proof, Proofs};
use super::state::{
    HandState, Loc, Next, RiichiState, RiverTile, Terminal, TerminalKind, WallCursor, WinRecord,
    UNKNOWN_SHANTEN,
};
use super::{Check, ReplayError};
use crate::hand;
use crate::mjlog::{kita_code, Agari, Event, Init, Meld, MeldKind, Ryuukyoku};
use crate::rules::{Players, NORTH};
use crate::tile::{self, TileId, IDS, KINDS};
use crate::wall::Wall;

/// What a step of the replay gives, or which check it failed and why.
type Step<T = ()> = Result<T, (Check, String)>;

fn fail(check: Check, detail: String) -> (Check, String) {
    (check, detail)
}

impl HandState {
    /// Applies one event of this hand. Events that change no hand state (SHUFFLE, GO, UN,
    /// BYE, TAIKYOKU, unknown tags) are accepted as they are; INIT starts a new hand
    /// ([`HandState::deal`]) and is the caller's.
    #[inline]
    pub(crate) fn apply(&mut self, ev: &Event) -> Result<(), ReplayError> {
        self.apply_observed(ev, |_| {})
    }

    /// [`HandState::apply`], calling `before` with the state just before a draw or a discard
    /// changes it, once the event has passed every check (so an observer of that moment sees a
    /// consistent state: the drawer about to take its tile, the discarder still holding it).
    #[inline]
    pub(crate) fn apply_observed(
        &mut self,
        ev: &Event,
        before: impl FnOnce(&HandState),
    ) -> Result<(), ReplayError> {
        let step = match ev {
            Event::Draw { seat, tile } => self.draw(*seat, *tile, before),
            Event::Discard { seat, tile } => self.discard(*seat, *tile, before),
            Event::Call { who, meld, m } => self.call(*who, meld, *m),
            Event::Kita { who, tile } => self.kita(*who, *tile),
            Event::Reach { who, step, ten } => self.reach(*who, *step, *ten),
            Event::Dora { tile } => self.dora(*tile),
            Event::Agari(a) => self.agari(a),
            Event::Ryuukyoku(r) => self.ryuukyoku(r),
            Event::Init(_)
            | Event::Shuffle { .. }
            | Event::Go { .. }
            | Event::Un(_)
            | Event::Bye { .. }
            | Event::Taikyoku { .. }
            | Event::Unknown(_) => Ok(()),
        };
        step.map_err(|(check, detail)| ReplayError {
            hand: Some(usize::from(self.index)),
            check,
            detail,
        })
    }

    /// Deals hand `hand_index` of a game of `players` (`red`: the game has red fives). The
    /// running scores come from INIT `ten`; the caller checks them against the previous hand's
    /// end. With the hand's `wall` (from the log's seed), the dealt tiles, the dice and the
    /// first indicator must be the wall's, and every later draw and indicator is checked
    /// against it. A three-player INIT deals nothing to the fourth seat, and no 2m–8m.
    pub(crate) fn deal(
        init: &Init,
        players: Players,
        red: bool,
        hand_index: usize,
        wall: Option<Wall>,
    ) -> Result<Self, ReplayError> {
        let fail = |check, detail: String| ReplayError {
            hand: Some(hand_index),
            check,
            detail,
        };
        let mut st = HandState {
            index: hand_index as u16,
            players,
            red,
            honba: init.honba,
            dealer: init.oya,
            round_wind: (init.round / 4) % 4,
            open_tanyao: true,
            proofs: Proofs::default(),
            wins_proved: 0,
            calls: 0,
            seats: Default::default(),
            loc: [Loc::Wall; IDS],
            visible: [0; KINDS],
            visible_red: [0; 3],
            visible_total: 0,
            indicators: Vec::with_capacity(5),
            live_wall: players.draws() as u8,
            draws: 0,
            scores: init.ten.map(|t| t * 100),
            terminals: Vec::new(),
            first_declaration: None,
            next: Next::Draw(init.oya),
            last_discard: None,
            last_kan_tile: None,
            last_kita: None,
            kyotaku: init.kyotaku,
            wall: None,
        };
        if usize::from(init.oya) >= players.seats() {
            return Err(fail(Check::BadInit, format!("dealer {}", init.oya)));
        }
        let seats = players.seats();
        if init.hai[seats..].iter().any(|h| !h.is_empty()) {
            return Err(fail(
                Check::ThreePlayer,
                "the INIT deals tiles to the fourth seat of a three-player game".into(),
            ));
        }
        for (s, hai) in init.hai.iter().enumerate().take(seats) {
            if hai.len() != 13 {
                return Err(fail(
                    Check::HandSize,
                    format!("seat {s} is dealt {} tiles, not 13", hai.len()),
                ));
            }
            for &t in hai {
                st.check_tile(t).map_err(|(c, d)| fail(c, d))?;
                if st.loc[t as usize] != Loc::Wall {
                    return Err(fail(Check::DuplicateTile, format!("tile {t} dealt twice")));
                }
                st.loc[t as usize] = Loc::Hand(s as u8);
                st.seats[s].kinds[tile::kind(t)] += 1;
            }
            st.seats[s].hand_len = 13;
            st.seats[s].shanten.set(UNKNOWN_SHANTEN);
        }
        st.check_tile(init.dora_indicator)
            .map_err(|(c, d)| fail(c, d))?;
        st.show_indicator(init.dora_indicator)
            .map_err(|d| fail(Check::DuplicateTile, d))?;
        if let Some(wall) = wall {
            check_deal(init, &wall).map_err(|d| fail(Check::WallMismatch, d))?;
            st.wall = Some(WallCursor {
                wall,
                live: 0,
                rinshan: 0,
                indicators: 1,
            });
        }
        Ok(st)
    }

    /// The wall's check of a draw by `seat` of `t`: the next live tile, or the next
    /// replacement tile after a kan. It changes nothing; `draw` advances the cursor once
    /// every check of the draw has passed.
    fn check_wall_draw(&self, seat: u8, t: TileId, rinshan: bool) -> Step {
        let Some(c) = &self.wall else { return Ok(()) };
        let want = if rinshan {
            c.wall.rinshan(c.rinshan as usize)
        } else {
            c.wall.live(c.live as usize, c.rinshan as usize)
        };
        if want == Some(t) {
            return Ok(());
        }
        let what = if rinshan {
            format!("replacement draw {} of seat {seat}", c.rinshan + 1)
        } else {
            format!("draw {} of seat {seat}", self.draws + 1)
        };
        Err(fail(
            Check::WallMismatch,
            format!(
                "{what} is {}, the wall has {}",
                tile_text(t),
                want.map_or("no tile left".into(), tile_text)
            ),
        ))
    }

    /// The wall's check of the `k`-th dora (or, with `ura`, ura-dora) indicator; `what` names
    /// the record.
    fn check_wall_indicator(&self, k: usize, t: TileId, ura: bool, what: &str) -> Step {
        let Some(c) = &self.wall else { return Ok(()) };
        let want = if ura { c.wall.ura(k) } else { c.wall.dora(k) };
        if want == Some(t) {
            return Ok(());
        }
        Err(fail(
            Check::WallMismatch,
            format!(
                "{what} {} is {}, the wall has {}",
                k + 1,
                tile_text(t),
                want.map_or("no such indicator".into(), tile_text)
            ),
        ))
    }

    /// A tile id the game has: with three players, not a 2m–8m (ids 4..32). (The checks on
    /// every event are inlined; their failures, built only when they fail, are not.)
    #[inline]
    fn check_tile(&self, t: TileId) -> Step {
        if self.players.has_tile(t) {
            return Ok(());
        }
        Err(not_a_tile(t))
    }

    /// A seat that plays: with three players, not the fourth.
    #[inline]
    fn check_seat(&self, seat: u8) -> Step {
        if usize::from(seat) < self.players.seats() {
            return Ok(());
        }
        Err(not_a_seat(seat))
    }

    fn make_visible(&mut self, t: TileId) {
        self.visible[tile::kind(t)] += 1;
        self.visible_total += 1;
        if tile::is_red(t, self.red) {
            self.visible_red[(t / 36) as usize] += 1;
        }
    }

    fn show_indicator(&mut self, t: TileId) -> Result<(), String> {
        if self.loc[t as usize] != Loc::Wall {
            return Err(format!(
                "dora indicator {t} is already at {:?}",
                self.loc[t as usize]
            ));
        }
        if self.indicators.len() >= 5 {
            return Err("a sixth dora indicator".into());
        }
        self.loc[t as usize] = Loc::Indicator;
        self.indicators.push(t);
        self.make_visible(t);
        Ok(())
    }

    #[inline]
    fn expect_size(&self, seat: usize, holding: bool) -> Step {
        let s = &self.seats[seat];
        let want = 13 - 3 * s.melds.len() as i32 + holding as i32;
        if s.hand_len as i32 != want {
            return Err(wrong_size(seat, s.hand_len, s.melds.len(), want));
        }
        Ok(())
    }

    fn check_in_hand(&self, seat: usize, t: TileId) -> Result<(), String> {
        if self.loc[t as usize] != Loc::Hand(seat as u8) {
            return Err(format!(
                "tile {t} ({}) is not in seat {seat}'s hand but at {:?}",
                tile::kind_name(tile::kind(t)),
                self.loc[t as usize]
            ));
        }
        Ok(())
    }

    fn take_from_hand(&mut self, seat: usize, t: TileId) -> Result<(), String> {
        self.check_in_hand(seat, t)?;
        let s = &mut self.seats[seat];
        s.kinds[tile::kind(t)] -= 1;
        s.hand_len -= 1;
        s.shanten.set(UNKNOWN_SHANTEN);
        Ok(())
    }

    /// Applies a draw record.
    #[inline]
    fn draw(&mut self, seat: u8, t: TileId, before: impl FnOnce(&HandState)) -> Step {
        self.check_seat(seat)?;
        self.check_tile(t)?;
        match self.next {
            Next::Draw(s) | Next::Rinshan(s) if s == seat => {}
            n => {
                return Err(fail(
                    Check::OutOfTurn,
                    format!("seat {seat} draws, but the state expects {n:?}"),
                ))
            }
        }
        if self.loc[t as usize] != Loc::Wall {
            return Err(fail(
                Check::DuplicateTile,
                format!(
                    "seat {seat} draws tile {t}, which is already at {:?}",
                    self.loc[t as usize]
                ),
            ));
        }
        if self.live_wall == 0 {
            return Err(fail(
                Check::WallExhausted,
                format!("seat {seat} draws from an empty wall"),
            ));
        }
        self.expect_size(seat as usize, false)?;
        let rinshan = matches!(self.next, Next::Rinshan(_));
        self.check_wall_draw(seat, t, rinshan)?;
        before(self);
        if let Some(c) = &mut self.wall {
            if rinshan {
                c.rinshan += 1;
            } else {
                c.live += 1;
            }
        }
        self.live_wall -= 1;
        self.draws += 1;
        if rinshan {
            // A kakan's kan (or a kita) stands once its replacement tile is drawn: no ippatsu
            // after it.
            for s in &mut self.seats {
                s.ippatsu = false;
            }
        }
        self.loc[t as usize] = Loc::Hand(seat);
        let s = &mut self.seats[seat as usize];
        s.kinds[tile::kind(t)] += 1;
        s.hand_len += 1;
        s.drawn = Some(t);
        s.drawn_rinshan = rinshan;
        s.shanten_before_draw = s.shanten.replace(UNKNOWN_SHANTEN);
        self.next = Next::Discard(seat);
        self.last_discard = None;
        self.last_kan_tile = None;
        self.last_kita = None;
        Ok(())
    }

    /// Applies a discard (a riichi declaration when the seat's REACH step 1 came before it).
    #[inline]
    fn discard(&mut self, seat: u8, t: TileId, before: impl FnOnce(&HandState)) -> Step {
        self.check_discard(seat, t)?;
        before(self);
        self.take_from_hand(seat as usize, t)
            .map_err(|d| fail(Check::NotInHand, d))?;
        self.loc[t as usize] = Loc::River(seat);
        self.make_visible(t);
        let s = &mut self.seats[seat as usize];
        // Throwing back the kind just drawn leaves the hand as it was before the draw (a kan's
        // replacement draw follows the kan: the hand before it has the kan's meld).
        if s.drawn.is_some_and(|d| tile::kind(d) == tile::kind(t)) {
            s.shanten.set(s.shanten_before_draw);
        }
        let declaration = s.riichi == RiichiState::Declaring;
        let river_index = s.river.len() as u8;
        s.river.push(RiverTile {
            tile: t,
            tsumogiri: s.drawn == Some(t),
            called: false,
            riichi: declaration,
        });
        s.turn += 1;
        s.drawn = None;
        s.drawn_rinshan = false;
        s.ippatsu = declaration;
        if declaration {
            s.double_riichi = river_index == 0 && self.calls == 0;
            s.riichi = RiichiState::Declared { river_index };
            s.riichi_waits = Some(hand::waits(&s.kinds, s.melds.len() as u8));
            if self.first_declaration.is_none() {
                self.first_declaration = Some(seat);
            }
        }
        self.next = Next::Draw(self.players.next(seat));
        self.last_discard = Some((seat, t));
        self.last_kan_tile = None;
        Ok(())
    }

    /// The checks of a discard, made before it changes anything.
    fn check_discard(&self, seat: u8, t: TileId) -> Step {
        self.check_seat(seat)?;
        if self.next != Next::Discard(seat) {
            return Err(fail(
                Check::OutOfTurn,
                format!(
                    "seat {seat} discards, but the state expects {:?}",
                    self.next
                ),
            ));
        }
        self.expect_size(seat as usize, true)?;
        self.check_in_hand(seat as usize, t)
            .map_err(|d| fail(Check::NotInHand, d))
    }

    /// Applies an `N` call.
    fn call(&mut self, who: u8, meld: &Meld, code: u32) -> Step {
        let w = who as usize;
        self.check_seat(who)?;
        if meld.kind == MeldKind::Chi && self.players == Players::Three {
            return Err(fail(
                Check::ThreePlayer,
                format!("seat {who} calls chi in a three-player game"),
            ));
        }
        for &x in meld.tiles() {
            self.check_tile(x)?;
        }
        self.note_call(meld.kind);
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                let Some((from, t)) = self.last_discard else {
                    return Err(fail(
                        Check::BadCall,
                        format!(
                            "seat {who} calls {} with no discard to call",
                            meld.kind.name()
                        ),
                    ));
                };
                if !matches!(self.next, Next::Draw(_)) || from == who {
                    return Err(fail(
                        Check::BadCall,
                        format!("seat {who} calls {} on its own discard", meld.kind.name()),
                    ));
                }
                if meld.called != Some(t) {
                    return Err(fail(
                        Check::BadCall,
                        format!(
                            "seat {who}'s {} takes tile {:?}, but the last discard is {t}",
                            meld.kind.name(),
                            meld.called
                        ),
                    ));
                }
                if (from + 4 - who) % 4 != meld.from_rel {
                    return Err(fail(
                        Check::BadCall,
                        format!(
                            "seat {who}'s {} says it came from relative seat {}, but seat {from} discarded it",
                            meld.kind.name(),
                            meld.from_rel
                        ),
                    ));
                }
                if self.seats[w].riichi.has_declared() {
                    return Err(fail(
                        Check::BadCall,
                        format!("seat {who} calls after riichi"),
                    ));
                }
                self.expect_size(w, false)?;
                for &x in meld.tiles() {
                    if x != t {
                        self.take_from_hand(w, x)
                            .map_err(|d| fail(Check::NotInHand, d))?;
                    }
                }
                // The called tile leaves the river: it stops counting as a river tile and
                // counts as a meld tile instead, so `visible` is unchanged for it.
                let river = &mut self.seats[from as usize].river;
                if let Some(last) = river.last_mut() {
                    last.called = true;
                }
                for &x in meld.tiles() {
                    if x != t {
                        self.make_visible(x);
                    }
                    self.loc[x as usize] = Loc::Meld(who);
                }
                let s = &mut self.seats[w];
                s.melds.push(*meld);
                s.meld_codes.push(code);
                s.called = true;
                self.last_discard = None;
                self.next = if meld.kind == MeldKind::Daiminkan {
                    Next::Rinshan(who)
                } else {
                    Next::Discard(who)
                };
            }
            MeldKind::Ankan | MeldKind::Kakan => {
                if self.next != Next::Discard(who) {
                    return Err(fail(
                        Check::OutOfTurn,
                        format!(
                            "seat {who} declares {} but the state expects {:?}",
                            meld.kind.name(),
                            self.next
                        ),
                    ));
                }
                self.expect_size(w, true)?;
                if meld.kind == MeldKind::Ankan {
                    for &x in meld.tiles() {
                        self.take_from_hand(w, x)
                            .map_err(|d| fail(Check::NotInHand, d))?;
                        self.loc[x as usize] = Loc::Meld(who);
                        self.make_visible(x);
                    }
                    let s = &mut self.seats[w];
                    s.melds.push(*meld);
                    s.meld_codes.push(code);
                    self.last_kan_tile = Some((who, meld.tiles[0]));
                } else {
                    let added = meld.added.unwrap_or(meld.tiles[3]);
                    let pos = self.seats[w].melds.iter().position(|m| {
                        m.kind == MeldKind::Pon && tile::kind(m.tiles[0]) == tile::kind(added)
                    });
                    let Some(pos) = pos else {
                        return Err(fail(
                            Check::BadCall,
                            format!("seat {who} adds tile {added} to a pon it does not have"),
                        ));
                    };
                    let pon_tiles = self.seats[w].melds[pos].tiles();
                    if meld
                        .tiles()
                        .iter()
                        .filter(|x| **x != added)
                        .ne(pon_tiles.iter())
                    {
                        return Err(fail(
                            Check::BadCall,
                            format!(
                                "seat {who}'s kakan tiles {:?} do not extend its pon {:?}",
                                meld.tiles(),
                                pon_tiles
                            ),
                        ));
                    }
                    self.take_from_hand(w, added)
                        .map_err(|d| fail(Check::NotInHand, d))?;
                    self.loc[added as usize] = Loc::Meld(who);
                    self.make_visible(added);
                    let s = &mut self.seats[w];
                    s.melds[pos] = *meld;
                    s.meld_codes[pos] = code;
                    self.last_kan_tile = Some((who, added));
                }
                self.seats[w].drawn = None;
                self.next = Next::Rinshan(who);
            }
            MeldKind::Nukidora => return self.kita(who, meld.tiles[0]),
        }
        Ok(())
    }

    /// Applies a kita (三麻 北抜き, §24): in the seat's own turn after a draw (not after a
    /// pon), with a draw left in the live wall, of a North it holds (in riichi only the North
    /// just drawn). The North goes to the seat's kita area, publicly visible; the seat draws a
    /// replacement tile next (a rinshan draw); another seat may ron on the North first. Like a
    /// call it breaks the first go-around, and every ippatsu at the replacement draw.
    fn kita(&mut self, who: u8, t: TileId) -> Step {
        let w = who as usize;
        if self.players != Players::Three {
            return Err(fail(
                Check::ThreePlayer,
                format!("seat {who} declares kita in a four-player game"),
            ));
        }
        self.check_seat(who)?;
        self.check_tile(t)?;
        let bad = |detail: String| Err(fail(Check::BadKita, detail));
        if tile::kind(t) != NORTH {
            return bad(format!(
                "seat {who}'s kita of {} is not a North",
                tile_text(t)
            ));
        }
        if self.next != Next::Discard(who) {
            return bad(format!(
                "seat {who} declares kita but the state expects {:?}",
                self.next
            ));
        }
        let s = &self.seats[w];
        if s.drawn.is_none() {
            return bad(format!(
                "seat {who} declares kita without a draw (after a call)"
            ));
        }
        if self.live_wall == 0 {
            return bad(format!("seat {who} declares kita with an empty live wall"));
        }
        if s.riichi.has_declared() && s.drawn != Some(t) {
            return bad(format!(
                "seat {who} declares kita in riichi of {}, not of the tile it drew",
                tile_text(t)
            ));
        }
        self.expect_size(w, true)?;
        self.take_from_hand(w, t)
            .map_err(|d| fail(Check::NotInHand, d))?;
        self.loc[t as usize] = Loc::Kita(who);
        self.make_visible(t);
        self.calls = self.calls.saturating_add(1);
        let s = &mut self.seats[w];
        s.kita.push(t);
        s.drawn = None;
        s.drawn_rinshan = false;
        self.next = Next::Rinshan(who);
        self.last_kita = Some((who, t));
        Ok(())
    }

    /// Counts a call of this hand (checked or not: a refused call ends the replay) and ends
    /// every ippatsu, but a kakan's, which ends at its replacement draw (it may be robbed).
    fn note_call(&mut self, kind: MeldKind) {
        self.calls = self.calls.saturating_add(1);
        if kind != MeldKind::Kakan {
            for s in &mut self.seats {
                s.ippatsu = false;
            }
        }
    }

    /// Applies `REACH step="1"` or `step="2"`. `ten` is the step-2 score check, in hundreds.
    fn reach(&mut self, who: u8, step: u8, ten: Option<[i32; 4]>) -> Step {
        let w = who as usize;
        self.check_seat(who)?;
        if step == 1 {
            if self.next != Next::Discard(who) || self.seats[w].riichi != RiichiState::None {
                return Err(fail(
                    Check::BadRiichi,
                    format!("seat {who} declares riichi out of turn or twice"),
                ));
            }
            if !self.seats[w].is_closed() {
                return Err(fail(
                    Check::BadRiichi,
                    format!("seat {who} declares riichi with an open hand"),
                ));
            }
            self.seats[w].riichi = RiichiState::Declaring;
            return Ok(());
        }
        let RiichiState::Declared { river_index } = self.seats[w].riichi else {
            return Err(fail(
                Check::BadRiichi,
                format!("REACH step 2 for seat {who}, who has no declaration discard"),
            ));
        };
        self.seats[w].riichi = RiichiState::Established { river_index };
        self.scores[w] -= 1000;
        self.kyotaku += 1;
        if let Some(ten) = ten {
            let want = ten.map(|t| t * 100);
            if want != self.scores {
                return Err(fail(
                    Check::ScoreMismatch,
                    format!(
                        "REACH step 2 says scores {want:?}, replay has {:?}",
                        self.scores
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Applies a DORA record.
    fn dora(&mut self, t: TileId) -> Step {
        self.check_tile(t)?;
        self.check_wall_indicator(self.indicators.len(), t, false, "dora indicator")?;
        if let Some(c) = &mut self.wall {
            c.indicators += 1;
        }
        self.show_indicator(t)
            .map_err(|detail| fail(Check::DuplicateTile, detail))
    }

    /// Applies a score record (`sc`: before, delta pairs in hundreds), checking the before
    /// scores against the replay.
    fn apply_sc(&mut self, sc: &[i32; 8], what: &str) -> Step<[i32; 4]> {
        let mut deltas = [0; 4];
        for s in 0..4 {
            if sc[2 * s] * 100 != self.scores[s] {
                return Err(fail(
                    Check::ScoreMismatch,
                    format!(
                        "{what} says seat {s} had {} before, replay has {}",
                        sc[2 * s] * 100,
                        self.scores[s]
                    ),
                ));
            }
            deltas[s] = sc[2 * s + 1] * 100;
        }
        for (score, d) in self.scores.iter_mut().zip(deltas) {
            *score += d;
        }
        Ok(deltas)
    }

    /// Applies an AGARI record, checking it against the replay.
    fn agari(&mut self, a: &Agari) -> Step {
        let who = a.who;
        let w = who as usize;
        self.check_seat(who)?;
        self.check_seat(a.from_who)?;
        let tsumo = a.who == a.from_who;
        let second = !self.terminals.is_empty();
        if second
            && (tsumo
                || self
                    .terminals
                    .iter()
                    .any(|t| t.kind != TerminalKind::Ron || t.from != a.from_who || t.who == who))
        {
            return Err(fail(
                Check::BadAgari,
                "a second AGARI that is not another ron on the same tile".into(),
            ));
        }
        // The winning tile must be the one just drawn, discarded, or added to a kan.
        let mut concealed = self.concealed_ids(w);
        if tsumo {
            if self.next != Next::Discard(who) || self.seats[w].drawn != Some(a.machi) {
                return Err(fail(
                    Check::AgariMismatch,
                    format!(
                        "seat {who} tsumo on {}, which it did not just draw",
                        a.machi
                    ),
                ));
            }
        } else {
            let on_discard = !second && self.last_discard == Some((a.from_who, a.machi));
            let on_kan = !second && self.last_kan_tile == Some((a.from_who, a.machi));
            let on_kita = !second && self.last_kita == Some((a.from_who, a.machi));
            let repeated = second && self.terminals[0].kind == TerminalKind::Ron;
            if !(on_discard || on_kan || on_kita || repeated) {
                return Err(fail(
                    Check::AgariMismatch,
                    format!(
                        "seat {who} ron on {} from seat {}, which is not the tile just discarded, added or set aside",
                        a.machi, a.from_who
                    ),
                ));
            }
            self.expect_size(w, false)?;
            concealed.push(a.machi);
            concealed.sort_unstable();
        }
        let mut hai = a.hai.clone();
        hai.sort_unstable();
        if hai != concealed {
            return Err(fail(
                Check::AgariMismatch,
                format!("AGARI hai {hai:?} but seat {who}'s hand + winning tile is {concealed:?}"),
            ));
        }
        // AGARI `m` lists the winner's melds and, in a three-player game, its kitas.
        let mut codes = a.m.clone();
        codes.sort_unstable();
        let mut mine = self.seats[w].meld_codes.clone();
        mine.extend(self.seats[w].kita.iter().map(|&t| kita_code(t)));
        mine.sort_unstable();
        if codes != mine {
            return Err(fail(
                Check::AgariMismatch,
                format!("AGARI m {codes:?} but seat {who}'s melds are {mine:?}"),
            ));
        }
        // The winning kind is a wait of the hand without it ⇔ the hand with it is complete
        // (the tile exists, so the hand without it held at most three).
        let mut full_hand = self.seats[w].kinds;
        if !tsumo {
            full_hand[tile::kind(a.machi)] += 1;
        }
        if !hand::is_complete(&full_hand, self.seats[w].melds.len() as u8) {
            return Err(fail(
                Check::AgariMismatch,
                format!(
                    "winning tile {} is not a wait of seat {who}'s hand",
                    tile::kind_name(tile::kind(a.machi))
                ),
            ));
        }
        if !second && (a.honba != self.honba || a.kyotaku != self.kyotaku) {
            return Err(fail(
                Check::StickMismatch,
                format!(
                    "AGARI ba {},{} but the table has {} honba and {} sticks",
                    a.honba, a.kyotaku, self.honba, self.kyotaku
                ),
            ));
        }
        for (k, &t) in a.dora_hai.iter().enumerate() {
            self.check_wall_indicator(k, t, false, "AGARI doraHai")?;
        }
        for (k, &t) in a.ura_hai.iter().enumerate() {
            self.check_wall_indicator(k, t, true, "AGARI doraHaiUra")?;
        }
        if let Some(c) = &mut self.wall {
            c.indicators += (a.dora_hai.len() + a.ura_hai.len()) as u16;
        }
        let scored = if self.proofs.scores() {
            let s = self.prove_score(a)?;
            self.wins_proved += 1;
            Some(s)
        } else {
            None
        };
        let deltas = self.apply_sc(&a.sc, "AGARI sc")?;
        let sum: i32 = deltas.iter().sum();
        let collected = if second {
            0
        } else {
            self.kyotaku as i32 * 1000
        };
        if sum != collected {
            return Err(fail(
                Check::ScoreMismatch,
                format!("AGARI deltas sum to {sum}, but {collected} was on the table"),
            ));
        }
        // Each seat's payment, from the proved score and the table's rules (a yakuman with a
        // liable seat, pao, is checked by its sum alone; so is any yakuman in a log that does
        // not name the liable seat).
        let paid = scored.filter(|s| {
            self.proofs.has(Proof::Payments)
                && a.pao_who.is_none()
                && !(self.proofs.no_pao && s.yakuman)
        });
        if let Some(s) = paid {
            // The first winner of a double ron collects the honba and the sticks (上家取り).
            let (honba, sticks) = if second {
                (0, 0)
            } else {
                (self.honba, self.kyotaku)
            };
            let want = self
                .players
                .win_deltas(who, a.from_who, self.dealer, s.base, honba, sticks);
            self.check_payments(&deltas, &want, "AGARI")?;
        }
        self.kyotaku = 0;
        self.terminals.push(Terminal {
            kind: if tsumo {
                TerminalKind::Tsumo
            } else {
                TerminalKind::Ron
            },
            who,
            from: a.from_who,
            deltas,
            shown: [false; 4],
            value: a.ten[1],
            win: Some(Box::new(WinRecord {
                ten: a.ten,
                yaku: a.yaku.clone(),
                yakuman: a.yakuman.clone(),
                pao: a.pao_who,
                machi: a.machi,
            })),
        });
        self.next = Next::Ended;
        Ok(())
    }

    /// The payments of a nagashi mangan: each seat whose river holds only terminals and
    /// honours, none of them called, is paid a mangan tsumo (no honba; the sticks stay on the
    /// table; no noten payments besides).
    fn nagashi_deltas(&self) -> [i32; 4] {
        let mut d = [0; 4];
        for s in 0..self.players.seats() {
            let river = &self.seats[s].river;
            if river
                .iter()
                .all(|r| !r.called && hand::is_yaochu(tile::kind(r.tile)))
            {
                let won = self
                    .players
                    .win_deltas(s as u8, s as u8, self.dealer, 2000, 0, 0);
                for (x, y) in d.iter_mut().zip(won) {
                    *x += y;
                }
            }
        }
        d
    }

    /// The `sc` deltas of a terminal record (`what`) against the payments the rules give.
    fn check_payments(&self, got: &[i32; 4], want: &[i32; 4], what: &str) -> Step {
        let Some(s) = (0..4).find(|&s| got[s] != want[s]) else {
            return Ok(());
        };
        let rules = match self.players {
            Players::Four => "four-player rules",
            Players::Three => "three-player rules (tsumo loss, honba 100 a payer)",
        };
        Err(fail(
            Check::ScoreMismatch,
            format!(
                "{what} sc gives seat {s} {:+}, the payments under {rules} give {:+} (all: {:?} against {:?})",
                got[s], want[s], &got[..self.players.seats()], &want[..self.players.seats()]
            ),
        ))
    }

    /// The score of AGARI `a` from the replay's state ([`HandState::score_win`]): with the
    /// `points` proof against the record's `yaku`, `yakuman` and `ten` (its fu only where the
    /// log records one, [`Proofs::some_fu`]); with `payments` alone, a hand that scores at all
    /// (its payments are then checked by the caller). Allocates only to describe a mismatch.
    fn prove_score(&self, a: &Agari) -> Step<Scored> {
        let mine = self.score_win(a);
        let fu_recorded = !self.proofs.some_fu || a.ten[0] != 0;
        let agrees = |s: &crate::score::Score| {
            if !self.proofs.has(Proof::Points) {
                return true;
            }
            let ten = if fu_recorded {
                a.ten
            } else {
                [i32::from(s.fu), a.ten[1], a.ten[2]]
            };
            s.matches(&a.yaku, &a.yakuman, ten)
        };
        if let Some(s) = mine.filter(agrees) {
            return Ok(Scored {
                base: s.base,
                yakuman: !s.yakuman().is_empty(),
            });
        }
        if !self.proofs.has(Proof::Points) {
            return Err(fail(
                Check::WinScoreMismatch,
                format!(
                    "seat {}'s win on {}: the hand has no yaku",
                    a.who,
                    tile::kind_name(tile::kind(a.machi)),
                ),
            ));
        }
        Err(fail(
            Check::WinScoreMismatch,
            format!(
                "seat {}'s win on {}: the AGARI has yaku {:?} yakuman {:?} ten {},{},{}; the hand scores {}",
                a.who,
                tile::kind_name(tile::kind(a.machi)),
                a.yaku,
                a.yakuman,
                a.ten[0],
                a.ten[1],
                a.ten[2],
                mine.map_or("no yaku".into(), |s| s.to_string())
            ),
        ))
    }

    /// Applies a RYUUKYOKU record, checking shown hands and score balance.
    fn ryuukyoku(&mut self, r: &Ryuukyoku) -> Step {
        if !self.terminals.is_empty() {
            return Err(fail(
                Check::BadRyuukyoku,
                "RYUUKYOKU after another terminal record".into(),
            ));
        }
        for (s, shown) in r.hai.iter().enumerate() {
            if let Some(shown) = shown {
                let mut shown = shown.clone();
                shown.sort_unstable();
                let mine = self.concealed_ids(s);
                if shown != mine {
                    return Err(fail(
                        Check::ShownHandMismatch,
                        format!("RYUUKYOKU hai{s} {shown:?} but the replay has {mine:?}"),
                    ));
                }
            }
        }
        if r.honba != self.honba || r.kyotaku != self.kyotaku {
            return Err(fail(
                Check::StickMismatch,
                format!(
                    "RYUUKYOKU ba {},{} but the table has {} honba and {} sticks",
                    r.honba, r.kyotaku, self.honba, self.kyotaku
                ),
            ));
        }
        if r.kind.is_none() && self.wall.is_some() && self.live_wall != 0 {
            return Err(fail(
                Check::WallMismatch,
                format!(
                    "an exhaustive draw with {} tiles left in the live wall",
                    self.live_wall
                ),
            ));
        }
        let name = self.draw_name(r);
        if self.players == Players::Three && matches!(name, "reach4" | "ron3" | "kaze4") {
            return Err(fail(
                Check::ThreePlayer,
                format!("an abortive draw {name} in a three-player game"),
            ));
        }
        let deltas = self.apply_sc(&r.sc, "RYUUKYOKU sc")?;
        let sum: i32 = deltas.iter().sum();
        if sum != 0 {
            return Err(fail(
                Check::ScoreMismatch,
                format!("RYUUKYOKU deltas sum to {sum}, not 0"),
            ));
        }
        if self.proofs.has(Proof::Payments) {
            let want = match name {
                "exhaustive" => {
                    // The tenpai hands: those the log shows, else those the replay holds.
                    let tenpai = if self.proofs.no_shown_hands {
                        [0, 1, 2, 3].map(|s| s < self.players.seats() && self.is_tenpai(s))
                    } else {
                        r.hai.each_ref().map(Option::is_some)
                    };
                    self.players.noten_deltas(tenpai)
                }
                "nm" => self.nagashi_deltas(),
                _ => [0; 4],
            };
            self.check_payments(&deltas, &want, "RYUUKYOKU")?;
        }
        self.terminals.push(Terminal {
            kind: TerminalKind::Draw(name.to_string()),
            who: 0,
            from: 0,
            deltas,
            shown: [0, 1, 2, 3].map(|i| r.hai[i].is_some()),
            value: 0,
            win: None,
        });
        self.next = Next::Ended;
        Ok(())
    }
}

#[cold]
fn not_a_tile(t: TileId) -> (Check, String) {
    fail(
        Check::ThreePlayer,
        format!("{} is not a tile of a three-player game", tile_text(t)),
    )
}

#[cold]
fn not_a_seat(seat: u8) -> (Check, String) {
    fail(
        Check::ThreePlayer,
        format!("seat {seat} acts in a three-player game"),
    )
}

#[cold]
fn wrong_size(seat: usize, held: u8, melds: usize, want: i32) -> (Check, String) {
    fail(
        Check::HandSize,
        format!("seat {seat} holds {held} concealed tiles with {melds} melds, expected {want}"),
    )
}

/// What the replay's score of a win gives its payments proof.
#[derive(Clone, Copy, Debug)]
struct Scored {
    /// Basic points ([`crate::score::Score::base`]).
    base: i32,
    yakuman: bool,
}

/// A tile as the wall check names it: `5p (id 53)`.
fn tile_text(t: TileId) -> String {
    format!("{} (id {t})", tile::kind_name(tile::kind(t)))
}

/// The INIT against its wall: each seat's 13 tiles in dealing order (dealer first), the
/// dice (INIT `seed` writes each die less one) and the first dora indicator.
fn check_deal(init: &Init, wall: &Wall) -> Result<(), String> {
    let n = wall.players.seats();
    for (s, hai) in init.hai.iter().enumerate().take(n) {
        let from_dealer = (s + n - init.oya as usize) % n;
        let dealt = wall.dealt(from_dealer);
        if hai[..] != dealt[..] {
            return Err(format!(
                "seat {s} is dealt {hai:?}, the wall deals it {dealt:?}"
            ));
        }
    }
    let dice = init.dice.map(|d| d.saturating_add(1));
    if dice != wall.dice {
        return Err(format!(
            "INIT dice {dice:?}, the wall's are {:?}",
            wall.dice
        ));
    }
    if wall.dora(0) != Some(init.dora_indicator) {
        return Err(format!(
            "INIT dora indicator is {}, the wall has {}",
            tile_text(init.dora_indicator),
            wall.dora(0).map_or("none".into(), tile_text)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mjlog::decode;

    /// f001's hand 0 (tools/fixtures/README.md) replayed through its AGARI: seat 2's pon ron
    /// on seat 1's 8p, sc 250,0,250,−20,250,+20,250,0.
    fn f001_hand0_ended() -> HandState {
        let log = decode(include_bytes!(
            "../../fixtures/2099010100gm-00a9-0000-0000f001.xml"
        ))
        .unwrap();
        let mut events = log
            .events
            .iter()
            .skip_while(|e| !matches!(e, Event::Init(_)));
        let Some(Event::Init(init)) = events.next() else {
            unreachable!()
        };
        let mut st = HandState::deal(init, Players::Four, true, 0, None).unwrap();
        for ev in events {
            st.apply(ev).unwrap();
            if matches!(ev, Event::Agari(_)) {
                return st;
            }
        }
        panic!("hand 0 has no AGARI")
    }

    /// The game's replay refuses any event but another AGARI once a hand has ended (after-end,
    /// src/replay/game.rs), so these refusals of `apply`'s own are reached by calling it: a
    /// RYUUKYOKU after the AGARI, and a draw (another AGARI: tests/bad_input.rs).
    #[test]
    fn an_ended_hand_takes_only_another_ron() {
        let mut st = f001_hand0_ended();
        assert_eq!(st.scores, [25000, 23000, 27000, 25000]);
        let draw = Ryuukyoku {
            kind: None,
            honba: 0,
            kyotaku: 0,
            sc: [250, 0, 230, 0, 270, 0, 250, 0],
            hai: Default::default(),
            owari: None,
        };
        let err = st.apply(&Event::Ryuukyoku(Box::new(draw))).unwrap_err();
        assert_eq!((err.hand, err.check), (Some(0), Check::BadRyuukyoku));
        // Seat 3 would draw next had seat 1's discard not been ronned; tile 1 is in the wall.
        let err = st.apply(&Event::Draw { seat: 3, tile: 1 }).unwrap_err();
        assert_eq!(err.check, Check::OutOfTurn);
        assert_eq!(st.terminals.len(), 1);
    }

    /// f001 (a Tenhou log, GO type 169) with its first AGARI's `ten` or `yaku` changed: the
    /// game replays no further than that win, refused with `win-score-mismatch` naming what
    /// the log says and what the hand scores. The win: pon of haku, 234m 678p 34s0s 88s, ron
    /// 8p (ryanmen): 20 + 4 (the open haku) = 24 → 30 fu; haku 1 + red 1 = 2 han: 30·2^4 =
    /// 480, ×4 = 1,920 → 2,000.
    #[test]
    fn a_win_scored_otherwise_than_its_log_is_refused() {
        struct Nop;
        impl crate::replay::Observer for Nop {}
        let text = std::str::from_utf8(include_bytes!(
            "../../fixtures/2099010100gm-00a9-0000-0000f001.xml"
        ))
        .unwrap();
        let log = decode(text.as_bytes()).unwrap();
        let g = crate::replay::replay_game(&log, &mut Nop).unwrap();
        assert_eq!(g.hands[0].wins_proved, 1);
        let want = "seat 2's win on 8p: the AGARI has yaku [(18, 1), (54, 1)] yakuman [] ten";
        for (from, to, log_ten) in [
            (
                r#"ten="30,2000,0" yaku="18,1,54,1""#,
                r#"ten="40,2000,0" yaku="18,1,54,1""#,
                "40,2000,0",
            ),
            (
                r#"ten="30,2000,0" yaku="18,1,54,1""#,
                r#"ten="30,2600,0" yaku="18,1,54,1""#,
                "30,2600,0",
            ),
        ] {
            assert_eq!(text.matches(from).count(), 1);
            let changed = decode(text.replace(from, to).as_bytes()).unwrap();
            let e = crate::replay::replay_game(&changed, &mut Nop).unwrap_err();
            assert_eq!((e.hand, e.check), (Some(0), Check::WinScoreMismatch), "{e}");
            assert_eq!(
                e.detail,
                format!("{want} {log_ten}; the hand scores yaku [(18, 1), (54, 1)] yakuman [] ten 30,2000,0")
            );
        }
        // A red five the hand does not hold.
        let changed = text.replace(r#"yaku="18,1,54,1""#, r#"yaku="18,1,54,2""#);
        let e =
            crate::replay::replay_game(&decode(changed.as_bytes()).unwrap(), &mut Nop).unwrap_err();
        assert_eq!(e.check, Check::WinScoreMismatch);
        assert!(e.detail.contains("yaku [(18, 1), (54, 2)]"), "{}", e.detail);
        assert_eq!(
            e.to_string(),
            format!("hand 0: win-score-mismatch: {}", e.detail)
        );
    }

    /// A wall from fixed words (any permutation will do) and the INIT it deals, dealer 1.
    fn walled_init() -> (Init, Wall) {
        use crate::wall::{Layout, Players};
        let mut words = [0u32; 144];
        for (i, w) in words.iter_mut().enumerate() {
            *w = (i as u32).wrapping_mul(2_654_435_761).rotate_left(7);
        }
        let wall = Wall::from_words(&words, Players::Four, Layout::Current);
        let oya = 1u8;
        let hai = [0, 1, 2, 3].map(|s: usize| wall.dealt((s + 3) % 4).to_vec());
        let init = Init {
            round: 1,
            honba: 0,
            kyotaku: 0,
            dice: wall.dice.map(|d| d - 1),
            dora_indicator: wall.dora(0).unwrap(),
            ten: [250; 4],
            oya,
            hai,
            shuffle: None,
        };
        (init, wall)
    }

    fn wall_error(r: Result<HandState, ReplayError>) -> String {
        let e = r.unwrap_err();
        assert_eq!((e.check, e.hand), (Check::WallMismatch, Some(3)), "{e}");
        e.detail
    }

    /// The INIT against its wall: the dealt tiles in dealing order, the dice (INIT writes
    /// each less one) and the first indicator; without a wall nothing of it is checked.
    #[test]
    fn the_deal_is_checked_against_the_wall() {
        let (init, wall) = walled_init();
        assert!(HandState::deal(&init, Players::Four, true, 3, Some(wall.clone())).is_ok());
        // Two of seat 0's tiles the other way round: the same tiles, not the same deal.
        let mut swapped = init.clone();
        swapped.hai[0].swap(0, 1);
        let detail = wall_error(HandState::deal(
            &swapped,
            Players::Four,
            true,
            3,
            Some(wall.clone()),
        ));
        assert!(detail.starts_with("seat 0 is dealt ["), "{detail}");
        assert!(HandState::deal(&swapped, Players::Four, true, 3, None).is_ok());
        // Seat 3's last tile from seat 2's.
        let mut moved = init.clone();
        let (a, b) = (moved.hai[2][12], moved.hai[3][12]);
        moved.hai[2][12] = b;
        moved.hai[3][12] = a;
        let detail = wall_error(HandState::deal(
            &moved,
            Players::Four,
            true,
            3,
            Some(wall.clone()),
        ));
        assert!(detail.starts_with("seat 2 is dealt"), "{detail}");
        for die in 0..2 {
            let mut dice = init.clone();
            dice.dice[die] = (dice.dice[die] + 1) % 6;
            let detail = wall_error(HandState::deal(
                &dice,
                Players::Four,
                true,
                3,
                Some(wall.clone()),
            ));
            assert_eq!(
                detail,
                format!(
                    "INIT dice {:?}, the wall's are {:?}",
                    dice.dice.map(|d| d + 1),
                    wall.dice
                )
            );
        }
        // The ura indicator under the dora indicator, shown in its place.
        let mut dora = init.clone();
        dora.dora_indicator = wall.ura(0).unwrap();
        let detail = wall_error(HandState::deal(
            &dora,
            Players::Four,
            true,
            3,
            Some(wall.clone()),
        ));
        assert_eq!(
            detail,
            format!(
                "INIT dora indicator is {}, the wall has {}",
                tile_text(wall.ura(0).unwrap()),
                tile_text(wall.dora(0).unwrap())
            )
        );
    }

    /// Every draw takes the next live tile (every seat discarding what it drew), an exhaustive
    /// draw comes exactly at haitei, and a draw of any other tile fails, naming the draw.
    #[test]
    fn draws_follow_the_wall_to_haitei() {
        let (init, wall) = walled_init();
        let deal = || HandState::deal(&init, Players::Four, true, 3, Some(wall.clone())).unwrap();
        let exhaustive = Event::Ryuukyoku(Box::new(Ryuukyoku {
            kind: None,
            honba: 0,
            kyotaku: 0,
            sc: [250, 0, 250, 0, 250, 0, 250, 0],
            hai: Default::default(),
            owari: None,
        }));
        let play = |st: &mut HandState, n: usize| {
            for i in 0..n {
                let seat = ((1 + i) % 4) as u8;
                let tile = wall.live(i, 0).unwrap();
                st.apply(&Event::Draw { seat, tile }).unwrap();
                st.apply(&Event::Discard { seat, tile }).unwrap();
            }
        };
        let mut st = deal();
        play(&mut st, 70);
        assert_eq!(st.wall.as_ref().map(|c| (c.live, c.rinshan)), Some((70, 0)));
        st.apply(&exhaustive).unwrap();
        // One draw short of haitei.
        let mut st = deal();
        play(&mut st, 69);
        let e = st.apply(&exhaustive).unwrap_err();
        assert_eq!(e.check, Check::WallMismatch);
        assert_eq!(
            e.detail,
            "an exhaustive draw with 1 tiles left in the live wall"
        );
        // Without a wall the same short hand is not questioned.
        let mut free = HandState::deal(&init, Players::Four, true, 3, None).unwrap();
        for i in 0..69 {
            let seat = ((1 + i) % 4) as u8;
            let tile = wall.live(i, 0).unwrap();
            free.apply(&Event::Draw { seat, tile }).unwrap();
            free.apply(&Event::Discard { seat, tile }).unwrap();
        }
        free.apply(&exhaustive).unwrap();
        // Draw 6 (seat 2) takes the tile after its own: the next seat's.
        let mut st = deal();
        play(&mut st, 5);
        let (want, got) = (wall.live(5, 0).unwrap(), wall.live(6, 0).unwrap());
        let e = st.apply(&Event::Draw { seat: 2, tile: got }).unwrap_err();
        assert_eq!((e.check, e.hand), (Check::WallMismatch, Some(3)));
        assert_eq!(
            e.detail,
            format!(
                "draw 6 of seat 2 is {}, the wall has {}",
                tile_text(got),
                tile_text(want)
            )
        );
        assert_eq!(st.draws, 5, "a refused draw changes nothing");
    }

    /// After a kan the replacement draws come from the dead wall in their order, each one
    /// shortening the live wall, and the kan dora indicators follow the first.
    #[test]
    fn replacement_draws_and_indicators_follow_the_dead_wall() {
        let (init, wall) = walled_init();
        let mut st = HandState::deal(&init, Players::Four, true, 3, Some(wall.clone())).unwrap();
        let first = wall.live(0, 0).unwrap();
        st.apply(&Event::Draw {
            seat: 1,
            tile: first,
        })
        .unwrap();
        // As after a kan by the dealer (the kan itself is the call's business).
        st.next = Next::Rinshan(1);
        st.seats[1].hand_len -= 1;
        let live = wall.live(1, 0).unwrap();
        let e = st
            .apply(&Event::Draw {
                seat: 1,
                tile: live,
            })
            .unwrap_err();
        assert_eq!(
            e.detail,
            format!(
                "replacement draw 1 of seat 1 is {}, the wall has {}",
                tile_text(live),
                tile_text(wall.rinshan(0).unwrap())
            )
        );
        let r0 = wall.rinshan(0).unwrap();
        st.apply(&Event::Draw { seat: 1, tile: r0 }).unwrap();
        assert_eq!(st.wall.as_ref().map(|c| (c.live, c.rinshan)), Some((1, 1)));
        // The second indicator is the next dora position, not its ura.
        let ura = wall.ura(1).unwrap();
        let e = st.apply(&Event::Dora { tile: ura }).unwrap_err();
        assert_eq!(
            e.detail,
            format!(
                "dora indicator 2 is {}, the wall has {}",
                tile_text(ura),
                tile_text(wall.dora(1).unwrap())
            )
        );
        st.apply(&Event::Dora {
            tile: wall.dora(1).unwrap(),
        })
        .unwrap();
        assert_eq!(st.wall.as_ref().map(|c| c.indicators), Some(2));
        st.apply(&Event::Discard { seat: 1, tile: r0 }).unwrap();
        // The live wall goes on where it was, one tile shorter at its end.
        st.apply(&Event::Draw {
            seat: 2,
            tile: live,
        })
        .unwrap();
        assert_eq!(wall.live(68, 1), Some(wall.yama[15]));
        assert_eq!(wall.live(69, 1), None);
    }

    /// A three-player hand without a wall (dealer 0): seat 0 holds the North 120 and 1m 9m
    /// tiles, seat 1 two 1p (36, 37) and the North 122, seat 2 four triplets (9s 3z 7z 9p) and
    /// a North tanki (121); the rest of the tiles (ids 44.. but those held) are left to draw.
    fn sanma_hand() -> HandState {
        let hai = [
            vec![120, 0, 1, 2, 32, 33, 34, 108, 109, 110, 112, 113, 114],
            vec![36, 37, 122, 3, 35, 40, 41, 42, 124, 125, 126, 128, 129],
            vec![104, 105, 106, 116, 117, 118, 132, 133, 134, 68, 69, 70, 121],
            vec![],
        ];
        let init = Init {
            round: 0,
            honba: 0,
            kyotaku: 0,
            dice: [0, 0],
            dora_indicator: 96,
            ten: [350, 350, 350, 0],
            oya: 0,
            hai,
            shuffle: None,
        };
        HandState::deal(&init, Players::Three, true, 0, None).unwrap()
    }

    fn refused(st: &mut HandState, ev: Event) -> (Check, String) {
        let e = st.apply(&ev).unwrap_err();
        (e.check, e.detail)
    }

    /// A kita (§24): the North leaves the hand for the kita area, publicly visible, the seat
    /// draws a replacement tile next (rinshan), the first go-around is broken, and another
    /// seat may ron on the North. Refused: a tile that is not a North, a North not held, a kita
    /// after a call (no draw), from an empty live wall, in riichi of a North not just drawn, in
    /// a four-player game; and a 2m–8m tile, a fourth seat, a chi.
    #[test]
    fn kita_rules() {
        let mut st = sanma_hand();
        assert_eq!(st.live_wall, 55);
        st.apply(&Event::Draw { seat: 0, tile: 44 }).unwrap();
        // Not a North; a North seat 0 does not hold.
        let (c, d) = refused(&mut st, Event::Kita { who: 0, tile: 44 });
        assert_eq!(c, Check::BadKita);
        assert_eq!(d, "seat 0's kita of 3p (id 44) is not a North");
        let (c, _) = refused(&mut st, Event::Kita { who: 0, tile: 123 });
        assert_eq!(c, Check::NotInHand);
        // Not its turn.
        let (c, _) = refused(&mut st, Event::Kita { who: 1, tile: 122 });
        assert_eq!(c, Check::BadKita);
        // From an empty live wall.
        let mut empty = st.clone();
        empty.live_wall = 0;
        let (c, d) = refused(&mut empty, Event::Kita { who: 0, tile: 120 });
        assert_eq!(
            (c, d.as_str()),
            (
                Check::BadKita,
                "seat 0 declares kita with an empty live wall"
            )
        );
        // In riichi, only of the North just drawn.
        let mut riichi = st.clone();
        riichi.seats[0].riichi = RiichiState::Declared { river_index: 0 };
        let (c, d) = refused(&mut riichi, Event::Kita { who: 0, tile: 120 });
        assert_eq!(c, Check::BadKita);
        assert!(d.contains("in riichi of 4z (id 120)"), "{d}");
        // The kita stands.
        let calls = st.calls;
        st.apply(&Event::Kita { who: 0, tile: 120 }).unwrap();
        assert_eq!(st.loc[120], Loc::Kita(0));
        assert_eq!(st.seats[0].kita, vec![120]);
        assert_eq!((st.visible[NORTH], st.visible_total), (1, 2));
        assert_eq!(st.seats[0].hand_len, 13);
        assert_eq!(st.next, Next::Rinshan(0));
        assert_eq!(st.calls, calls + 1);
        assert_eq!(st.claimable(), None);
        // The replacement draw is a rinshan draw; the seat plays on.
        st.apply(&Event::Draw { seat: 0, tile: 45 }).unwrap();
        assert!(st.seats[0].drawn_rinshan);
        assert_eq!((st.live_wall, st.draws), (53, 2));
        st.apply(&Event::Discard { seat: 0, tile: 38 }).unwrap_err();
        st.apply(&Event::Discard { seat: 0, tile: 45 }).unwrap();
        assert_eq!(st.next, Next::Draw(1), "the next seat of three");
        // Seat 1 pons seat 0's 1p and may not kita its North before a draw.
        let mut pon = st.clone();
        pon.apply(&Event::Draw { seat: 1, tile: 46 }).unwrap();
        pon.apply(&Event::Discard { seat: 1, tile: 46 }).unwrap();
        pon.apply(&Event::Draw { seat: 2, tile: 47 }).unwrap();
        pon.apply(&Event::Discard { seat: 2, tile: 47 }).unwrap();
        pon.apply(&Event::Draw { seat: 0, tile: 38 }).unwrap();
        pon.apply(&Event::Discard { seat: 0, tile: 38 }).unwrap();
        // Pon of 1p (kind 9): tiles 36 37 38 (the copy not in it 39), 38 called (index 2), from
        // seat 0: relative 3.
        let m = ((9 * 3 + 2) << 9) | (3 << 5) | 0x8 | 3;
        let meld = crate::mjlog::decode_meld(m).unwrap();
        assert_eq!(meld.kind, MeldKind::Pon);
        pon.apply(&Event::Call { who: 1, meld, m }).unwrap();
        let (c, d) = refused(&mut pon, Event::Kita { who: 1, tile: 122 });
        assert_eq!(
            (c, d.as_str()),
            (
                Check::BadKita,
                "seat 1 declares kita without a draw (after a call)"
            )
        );
        // A chi, a fourth seat, a 2m–8m tile.
        let mut chi = st.clone();
        let code = ((8 * 3) << 10) | (1 << 5) | (2 << 7) | 0x4 | 3;
        let meld = crate::mjlog::decode_meld(code).unwrap();
        assert_eq!(meld.kind, MeldKind::Chi);
        let (c, d) = refused(
            &mut chi,
            Event::Call {
                who: 1,
                meld,
                m: code,
            },
        );
        assert_eq!(
            (c, d.as_str()),
            (
                Check::ThreePlayer,
                "seat 1 calls chi in a three-player game"
            )
        );
        let (c, d) = refused(&mut chi, Event::Draw { seat: 3, tile: 48 });
        assert_eq!(
            (c, d.as_str()),
            (Check::ThreePlayer, "seat 3 acts in a three-player game")
        );
        let (c, d) = refused(&mut chi, Event::Draw { seat: 1, tile: 12 });
        assert_eq!(
            (c, d.as_str()),
            (
                Check::ThreePlayer,
                "4m (id 12) is not a tile of a three-player game"
            )
        );
        // A kita in a four-player game.
        let (init, _) = walled_init();
        let mut four = HandState::deal(&init, Players::Four, true, 3, None).unwrap();
        let t = init.hai[1][0];
        let (c, d) = refused(&mut four, Event::Kita { who: 1, tile: t });
        assert_eq!(
            (c, d.as_str()),
            (
                Check::ThreePlayer,
                "seat 1 declares kita in a four-player game"
            )
        );
    }

    /// A ron on a kita's North (robbing the kita): seat 2 wins on seat 0's North as on a
    /// discard, the kita seat the discarder; the kita's North was no discard to call.
    #[test]
    fn a_ron_on_a_kita_north() {
        let mut st = sanma_hand();
        st.apply(&Event::Draw { seat: 0, tile: 44 }).unwrap();
        st.apply(&Event::Kita { who: 0, tile: 120 }).unwrap();
        assert_eq!(st.claimable(), None, "a kita is not a discard to call");
        assert_eq!(st.last_kita, Some((0, 120)));
        let mut hai = st.concealed_ids(2);
        hai.push(120);
        let agari = |from_who: u8, machi: TileId| Agari {
            honba: 0,
            kyotaku: 0,
            hai: hai.clone(),
            m: vec![],
            machi,
            ten: [0, 0, 0],
            yaku: vec![],
            yakuman: vec![],
            dora_hai: vec![96],
            ura_hai: vec![],
            who: 2,
            from_who,
            pao_who: None,
            sc: [350, -20, 350, 0, 350, 20, 0, 0],
            owari: None,
        };
        // Not from seat 1, which set no North aside.
        let e = st
            .clone()
            .apply(&Event::Agari(Box::new(agari(1, 120))))
            .unwrap_err();
        assert_eq!(e.check, Check::AgariMismatch);
        st.apply(&Event::Agari(Box::new(agari(0, 120)))).unwrap();
        let t = &st.terminals[0];
        assert_eq!((t.kind.clone(), t.who, t.from), (TerminalKind::Ron, 2, 0));
        assert_eq!(t.deltas, [-2000, 0, 2000, 0]);
    }
}
