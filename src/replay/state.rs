//! The state of one hand and the event that updates it.

use super::ReplayError;
use crate::hand;
use crate::mjlog::{Agari, Init, Meld, MeldKind, Ryuukyoku};
use crate::tile::{self, TileId, IDS, KINDS};

/// Where a tile id is. `Wall` means not yet seen (live wall or dead wall).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Wall,
    Hand(u8),
    /// In a river, not called.
    River(u8),
    /// In a meld (called tiles move here from the river).
    Meld(u8),
    Indicator,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverTile {
    pub tile: TileId,
    /// Taken by another player's chi, pon or daiminkan.
    pub called: bool,
    /// Discarded straight after drawing it.
    pub tsumogiri: bool,
    /// The riichi declaration tile.
    pub riichi: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RiichiState {
    #[default]
    None,
    /// `REACH step="1"` seen; the next discard is the declaration.
    Declaring,
    /// The declaration tile is in the river (index into the river); no stick yet.
    Declared { river_index: u8 },
    /// `REACH step="2"` seen: the stick is on the table.
    Established { river_index: u8 },
}

impl RiichiState {
    /// True once the declaration discard has been made.
    pub fn has_declared(self) -> bool {
        matches!(
            self,
            RiichiState::Declared { .. } | RiichiState::Established { .. }
        )
    }
}

#[derive(Clone, Debug)]
pub struct SeatState {
    /// Concealed tiles by kind.
    pub kinds: [u8; KINDS],
    /// Number of concealed tiles.
    pub hand_len: u8,
    pub melds: Vec<Meld>,
    /// `m` code of each meld (the kakan code replaces its pon's).
    pub meld_codes: Vec<u32>,
    pub river: Vec<RiverTile>,
    /// Discards made this hand (the turn of §0).
    pub turn: u8,
    pub riichi: RiichiState,
    /// Made a chi, pon or daiminkan this hand.
    pub called: bool,
    /// The tile just drawn, while the seat holds it.
    pub drawn: Option<TileId>,
    /// Waits of the concealed hand right after its riichi declaration discard (a riichi hand
    /// cannot change its waits afterwards); `None` before a declaration.
    pub riichi_waits: Option<hand::Waits>,
}

impl Default for SeatState {
    fn default() -> Self {
        SeatState {
            kinds: [0; KINDS],
            hand_len: 0,
            melds: Vec::with_capacity(4),
            meld_codes: Vec::with_capacity(4),
            river: Vec::with_capacity(24),
            turn: 0,
            riichi: RiichiState::None,
            called: false,
            drawn: None,
            riichi_waits: None,
        }
    }
}

impl SeatState {
    /// True when the hand has no open meld (an ankan keeps it closed).
    pub fn is_closed(&self) -> bool {
        self.melds.iter().all(|m| m.kind == MeldKind::Ankan)
    }
}

/// How a hand ended, one record at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TerminalKind {
    Tsumo,
    Ron,
    /// RYUUKYOKU with its frame name (`exhaustive`, `yao9`, …).
    Draw(String),
}

/// A terminal record reduced to what statistics need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terminal {
    pub kind: TerminalKind,
    /// Winner (for a draw: unused, 0).
    pub who: u8,
    /// Discarder for a ron; the winner for a tsumo.
    pub from: u8,
    /// Score deltas in points (not hundreds).
    pub deltas: [i32; 4],
    /// AGARI `ten` second field (points without honba and kyotaku); 0 for a draw.
    pub value: i32,
}

/// Who is to act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Seat must draw from the live wall (or someone may call / ron the last discard).
    Draw(u8),
    /// Seat must discard (or kan, tsumo, riichi, kyuushu).
    Discard(u8),
    /// Seat must draw a replacement tile after a kan.
    Rinshan(u8),
    Ended,
}

/// One hand being replayed. Plain arrays indexed by tile id or kind; see the module docs of
/// [`crate::replay`].
#[derive(Clone, Debug)]
pub struct HandState {
    /// 0-based index of the hand in its game.
    pub index: u16,
    pub red: bool,
    pub round: u8,
    pub honba: u8,
    /// Sticks on the table at the start of the hand.
    pub kyotaku_start: u8,
    pub dealer: u8,
    pub seats: [SeatState; 4],
    pub loc: [Loc; IDS],
    /// Publicly visible copies per kind (§0): indicators, uncalled river tiles, meld tiles.
    pub visible: [u8; KINDS],
    /// Publicly visible red fives (5m, 5p, 5s).
    pub visible_red: [u8; 3],
    /// Sum of `visible`.
    pub visible_total: u16,
    pub indicators: Vec<TileId>,
    /// Draws left in the live wall.
    pub live_wall: u8,
    /// Draw records applied so far.
    pub draws: u16,
    /// Scores in points, as they stand (riichi sticks paid, terminal deltas applied).
    pub scores: [i32; 4],
    pub terminals: Vec<Terminal>,
    /// Seat of the first riichi declaration discard, with the index of that discard in the
    /// hand's discard sequence.
    pub first_declaration: Option<u8>,
    /// Total discards by all seats so far.
    pub discards: u16,
    next: Next,
    /// The last discard, while it can still be called or ronned: (seat, tile).
    last_discard: Option<(u8, TileId)>,
    /// The tile of the last kakan (or ankan), while it can be robbed.
    last_kan_tile: Option<(u8, TileId)>,
    /// Sticks on the table now (start + established this hand − collected).
    pub kyotaku: u8,
}

impl HandState {
    /// Deals the hand. `scores` are the running scores in points (checked against INIT `ten`
    /// by the caller).
    pub fn deal(init: &Init, red: bool, hand_index: usize) -> Result<Self, ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(hand_index),
            reason,
            detail,
        };
        let mut st = HandState {
            index: hand_index as u16,
            red,
            round: init.round,
            honba: init.honba,
            kyotaku_start: init.kyotaku,
            dealer: init.oya,
            seats: Default::default(),
            loc: [Loc::Wall; IDS],
            visible: [0; KINDS],
            visible_red: [0; 3],
            visible_total: 0,
            indicators: Vec::with_capacity(5),
            live_wall: 70,
            draws: 0,
            scores: init.ten.map(|t| t * 100),
            terminals: Vec::new(),
            first_declaration: None,
            discards: 0,
            next: Next::Draw(init.oya),
            last_discard: None,
            last_kan_tile: None,
            kyotaku: init.kyotaku,
        };
        if init.oya > 3 {
            return Err(fail("bad-init", format!("dealer {}", init.oya)));
        }
        for (s, hai) in init.hai.iter().enumerate() {
            if hai.len() != 13 {
                return Err(fail(
                    "hand-size",
                    format!("seat {s} is dealt {} tiles, not 13", hai.len()),
                ));
            }
            for &t in hai {
                if st.loc[t as usize] != Loc::Wall {
                    return Err(fail("duplicate-tile", format!("tile {t} dealt twice")));
                }
                st.loc[t as usize] = Loc::Hand(s as u8);
                st.seats[s].kinds[tile::kind(t)] += 1;
            }
            st.seats[s].hand_len = 13;
        }
        st.show_indicator(init.dora_indicator)
            .map_err(|d| fail("duplicate-tile", d))?;
        Ok(st)
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

    /// Publicly visible copies of tile type `t` (0..37; §0 with red fives apart).
    pub fn visible_of_type(&self, t: usize) -> u8 {
        if t >= KINDS {
            self.visible_red[t - KINDS]
        } else if self.red && matches!(t, 4 | 13 | 22) {
            self.visible[t] - self.visible_red[t / 9]
        } else {
            self.visible[t]
        }
    }

    /// Copies of tile type `t` in `seat`'s concealed hand.
    pub fn held_of_type(&self, seat: usize, t: usize) -> u8 {
        let red_held =
            |suit: usize| (self.loc[tile::RED_IDS[suit] as usize] == Loc::Hand(seat as u8)) as u8;
        if t >= KINDS {
            red_held(t - KINDS)
        } else if self.red && matches!(t, 4 | 13 | 22) {
            self.seats[seat].kinds[t] - red_held(t / 9)
        } else {
            self.seats[seat].kinds[t]
        }
    }

    /// `seat`'s concealed tile ids, ascending.
    pub fn concealed_ids(&self, seat: usize) -> Vec<TileId> {
        // Only the kinds the seat holds are looked at (`kinds` counts its concealed ids).
        let me = Loc::Hand(seat as u8);
        let mut ids = Vec::with_capacity(14);
        for (k, &n) in self.seats[seat].kinds.iter().enumerate() {
            if n > 0 {
                ids.extend((4 * k as u8..4 * k as u8 + 4).filter(|&t| self.loc[t as usize] == me));
            }
        }
        debug_assert_eq!(
            ids,
            (0..IDS as u8)
                .filter(|&t| self.loc[t as usize] == me)
                .collect::<Vec<_>>()
        );
        ids
    }

    /// The set of kinds in `seat`'s river (called tiles included).
    pub fn river_kinds(&self, seat: usize) -> [bool; KINDS] {
        let mut set = [false; KINDS];
        for r in &self.seats[seat].river {
            set[tile::kind(r.tile)] = true;
        }
        set
    }

    /// True once the hand's terminal records are all applied.
    pub fn is_over(&self) -> bool {
        self.next == Next::Ended
    }

    fn expect_size(
        &self,
        seat: usize,
        holding: bool,
        hand_index: usize,
    ) -> Result<(), ReplayError> {
        let s = &self.seats[seat];
        let want = 13 - 3 * s.melds.len() as i32 + holding as i32;
        if s.hand_len as i32 != want {
            return Err(ReplayError {
                hand: Some(hand_index),
                reason: "hand-size",
                detail: format!(
                    "seat {seat} holds {} concealed tiles with {} melds, expected {want}",
                    s.hand_len,
                    s.melds.len()
                ),
            });
        }
        Ok(())
    }

    fn take_from_hand(&mut self, seat: usize, t: TileId) -> Result<(), String> {
        if self.loc[t as usize] != Loc::Hand(seat as u8) {
            return Err(format!(
                "tile {t} ({}) is not in seat {seat}'s hand but at {:?}",
                tile::kind_name(tile::kind(t)),
                self.loc[t as usize]
            ));
        }
        let s = &mut self.seats[seat];
        s.kinds[tile::kind(t)] -= 1;
        s.hand_len -= 1;
        Ok(())
    }

    /// Applies a draw record.
    pub fn draw(&mut self, seat: u8, t: TileId, h: usize) -> Result<(), ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(h),
            reason,
            detail,
        };
        match self.next {
            Next::Draw(s) | Next::Rinshan(s) if s == seat => {}
            n => {
                return Err(fail(
                    "out-of-turn",
                    format!("seat {seat} draws, but the state expects {n:?}"),
                ))
            }
        }
        if self.loc[t as usize] != Loc::Wall {
            return Err(fail(
                "duplicate-tile",
                format!(
                    "seat {seat} draws tile {t}, which is already at {:?}",
                    self.loc[t as usize]
                ),
            ));
        }
        if self.live_wall == 0 {
            return Err(fail(
                "wall-exhausted",
                format!("seat {seat} draws from an empty wall"),
            ));
        }
        self.expect_size(seat as usize, false, h)?;
        self.live_wall -= 1;
        self.draws += 1;
        self.loc[t as usize] = Loc::Hand(seat);
        let s = &mut self.seats[seat as usize];
        s.kinds[tile::kind(t)] += 1;
        s.hand_len += 1;
        s.drawn = Some(t);
        self.next = Next::Discard(seat);
        self.last_discard = None;
        self.last_kan_tile = None;
        Ok(())
    }

    /// Applies a discard; returns true when it is a riichi declaration.
    pub fn discard(&mut self, seat: u8, t: TileId, h: usize) -> Result<bool, ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(h),
            reason,
            detail,
        };
        if self.next != Next::Discard(seat) {
            return Err(fail(
                "out-of-turn",
                format!(
                    "seat {seat} discards, but the state expects {:?}",
                    self.next
                ),
            ));
        }
        self.expect_size(seat as usize, true, h)?;
        self.take_from_hand(seat as usize, t)
            .map_err(|d| fail("not-in-hand", d))?;
        self.loc[t as usize] = Loc::River(seat);
        self.make_visible(t);
        let s = &mut self.seats[seat as usize];
        let declaration = s.riichi == RiichiState::Declaring;
        let river_index = s.river.len() as u8;
        s.river.push(RiverTile {
            tile: t,
            called: false,
            tsumogiri: s.drawn == Some(t),
            riichi: declaration,
        });
        s.turn += 1;
        s.drawn = None;
        if declaration {
            s.riichi = RiichiState::Declared { river_index };
            s.riichi_waits = Some(hand::waits(&s.kinds, s.melds.len() as u8));
            if self.first_declaration.is_none() {
                self.first_declaration = Some(seat);
            }
        }
        self.discards += 1;
        self.next = Next::Draw((seat + 1) % 4);
        self.last_discard = Some((seat, t));
        self.last_kan_tile = None;
        Ok(declaration)
    }

    /// Applies an `N` call.
    pub fn call(&mut self, who: u8, meld: &Meld, code: u32, h: usize) -> Result<(), ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(h),
            reason,
            detail,
        };
        let w = who as usize;
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                let Some((from, t)) = self.last_discard else {
                    return Err(fail(
                        "bad-call",
                        format!(
                            "seat {who} calls {} with no discard to call",
                            meld.kind.name()
                        ),
                    ));
                };
                if !matches!(self.next, Next::Draw(_)) || from == who {
                    return Err(fail(
                        "bad-call",
                        format!("seat {who} calls {} on its own discard", meld.kind.name()),
                    ));
                }
                if meld.called != Some(t) {
                    return Err(fail(
                        "bad-call",
                        format!(
                            "seat {who}'s {} takes tile {:?}, but the last discard is {t}",
                            meld.kind.name(),
                            meld.called
                        ),
                    ));
                }
                if (from + 4 - who) % 4 != meld.from_rel {
                    return Err(fail(
                        "bad-call",
                        format!(
                            "seat {who}'s {} says it came from relative seat {}, but seat {from} discarded it",
                            meld.kind.name(),
                            meld.from_rel
                        ),
                    ));
                }
                if self.seats[w].riichi.has_declared() {
                    return Err(fail("bad-call", format!("seat {who} calls after riichi")));
                }
                self.expect_size(w, false, h)?;
                for &x in meld.tiles() {
                    if x != t {
                        self.take_from_hand(w, x)
                            .map_err(|d| fail("not-in-hand", d))?;
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
                        "out-of-turn",
                        format!(
                            "seat {who} declares {} but the state expects {:?}",
                            meld.kind.name(),
                            self.next
                        ),
                    ));
                }
                self.expect_size(w, true, h)?;
                if meld.kind == MeldKind::Ankan {
                    for &x in meld.tiles() {
                        self.take_from_hand(w, x)
                            .map_err(|d| fail("not-in-hand", d))?;
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
                            "bad-call",
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
                            "bad-call",
                            format!(
                                "seat {who}'s kakan tiles {:?} do not extend its pon {:?}",
                                meld.tiles(),
                                pon_tiles
                            ),
                        ));
                    }
                    self.take_from_hand(w, added)
                        .map_err(|d| fail("not-in-hand", d))?;
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
            MeldKind::Nukidora => {
                return Err(fail(
                    "three-player",
                    "nukidora in a four-player game".to_string(),
                ))
            }
        }
        Ok(())
    }

    /// Applies `REACH step="1"` or `step="2"`. `ten` is the step-2 score check, in hundreds.
    pub fn reach(
        &mut self,
        who: u8,
        step: u8,
        ten: Option<[i32; 4]>,
        h: usize,
    ) -> Result<(), ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(h),
            reason,
            detail,
        };
        let w = who as usize;
        if step == 1 {
            if self.next != Next::Discard(who) || self.seats[w].riichi != RiichiState::None {
                return Err(fail(
                    "bad-riichi",
                    format!("seat {who} declares riichi out of turn or twice"),
                ));
            }
            if !self.seats[w].is_closed() {
                return Err(fail(
                    "bad-riichi",
                    format!("seat {who} declares riichi with an open hand"),
                ));
            }
            self.seats[w].riichi = RiichiState::Declaring;
            return Ok(());
        }
        let RiichiState::Declared { river_index } = self.seats[w].riichi else {
            return Err(fail(
                "bad-riichi",
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
                    "score-mismatch",
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
    pub fn dora(&mut self, t: TileId, h: usize) -> Result<(), ReplayError> {
        self.show_indicator(t).map_err(|detail| ReplayError {
            hand: Some(h),
            reason: "duplicate-tile",
            detail,
        })
    }

    /// Applies a score record (`sc`: before, delta pairs in hundreds), checking the before
    /// scores against the replay.
    fn apply_sc(&mut self, sc: &[i32; 8], what: &str, h: usize) -> Result<[i32; 4], ReplayError> {
        let mut deltas = [0; 4];
        for s in 0..4 {
            if sc[2 * s] * 100 != self.scores[s] {
                return Err(ReplayError {
                    hand: Some(h),
                    reason: "score-mismatch",
                    detail: format!(
                        "{what} says seat {s} had {} before, replay has {}",
                        sc[2 * s] * 100,
                        self.scores[s]
                    ),
                });
            }
            deltas[s] = sc[2 * s + 1] * 100;
        }
        for (score, d) in self.scores.iter_mut().zip(deltas) {
            *score += d;
        }
        Ok(deltas)
    }

    /// Applies an AGARI record, checking it against the replay.
    pub fn agari(&mut self, a: &Agari, h: usize) -> Result<(), ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(h),
            reason,
            detail,
        };
        let who = a.who;
        let w = who as usize;
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
                "bad-agari",
                "a second AGARI that is not another ron on the same tile".into(),
            ));
        }
        // The winning tile must be the one just drawn, discarded, or added to a kan.
        let mut concealed = self.concealed_ids(w);
        if tsumo {
            if self.next != Next::Discard(who) || self.seats[w].drawn != Some(a.machi) {
                return Err(fail(
                    "agari-mismatch",
                    format!(
                        "seat {who} tsumo on {}, which it did not just draw",
                        a.machi
                    ),
                ));
            }
        } else {
            let on_discard = !second && self.last_discard == Some((a.from_who, a.machi));
            let on_kan = !second && self.last_kan_tile == Some((a.from_who, a.machi));
            let repeated = second && self.terminals[0].kind == TerminalKind::Ron;
            if !(on_discard || on_kan || repeated) {
                return Err(fail(
                    "agari-mismatch",
                    format!(
                        "seat {who} ron on {} from seat {}, which is not the tile just discarded or added",
                        a.machi, a.from_who
                    ),
                ));
            }
            self.expect_size(w, false, h)?;
            concealed.push(a.machi);
            concealed.sort_unstable();
        }
        let mut hai = a.hai.clone();
        hai.sort_unstable();
        if hai != concealed {
            return Err(fail(
                "agari-mismatch",
                format!("AGARI hai {hai:?} but seat {who}'s hand + winning tile is {concealed:?}"),
            ));
        }
        let mut codes = a.m.clone();
        codes.sort_unstable();
        let mut mine = self.seats[w].meld_codes.clone();
        mine.sort_unstable();
        if codes != mine {
            return Err(fail(
                "agari-mismatch",
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
                "agari-mismatch",
                format!(
                    "winning tile {} is not a wait of seat {who}'s hand",
                    tile::kind_name(tile::kind(a.machi))
                ),
            ));
        }
        if !second && (a.honba != self.honba || a.kyotaku != self.kyotaku) {
            return Err(fail(
                "stick-mismatch",
                format!(
                    "AGARI ba {},{} but the table has {} honba and {} sticks",
                    a.honba, a.kyotaku, self.honba, self.kyotaku
                ),
            ));
        }
        let deltas = self.apply_sc(&a.sc, "AGARI sc", h)?;
        let sum: i32 = deltas.iter().sum();
        let collected = if second {
            0
        } else {
            self.kyotaku as i32 * 1000
        };
        if sum != collected {
            return Err(fail(
                "score-mismatch",
                format!("AGARI deltas sum to {sum}, but {collected} was on the table"),
            ));
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
            value: a.ten[1],
        });
        self.next = Next::Ended;
        Ok(())
    }

    /// Applies a RYUUKYOKU record, checking shown hands and score balance.
    pub fn ryuukyoku(&mut self, r: &Ryuukyoku, h: usize) -> Result<(), ReplayError> {
        let fail = |reason, detail: String| ReplayError {
            hand: Some(h),
            reason,
            detail,
        };
        if !self.terminals.is_empty() {
            return Err(fail(
                "bad-ryuukyoku",
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
                        "shown-hand-mismatch",
                        format!("RYUUKYOKU hai{s} {shown:?} but the replay has {mine:?}"),
                    ));
                }
            }
        }
        if r.honba != self.honba || r.kyotaku != self.kyotaku {
            return Err(fail(
                "stick-mismatch",
                format!(
                    "RYUUKYOKU ba {},{} but the table has {} honba and {} sticks",
                    r.honba, r.kyotaku, self.honba, self.kyotaku
                ),
            ));
        }
        let deltas = self.apply_sc(&r.sc, "RYUUKYOKU sc", h)?;
        let sum: i32 = deltas.iter().sum();
        if sum != 0 {
            return Err(fail(
                "score-mismatch",
                format!("RYUUKYOKU deltas sum to {sum}, not 0"),
            ));
        }
        self.terminals.push(Terminal {
            kind: TerminalKind::Draw(r.end_name().to_string()),
            who: 0,
            from: 0,
            deltas,
            value: 0,
        });
        self.next = Next::Ended;
        Ok(())
    }
}
