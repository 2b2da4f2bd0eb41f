//! A game's decoded events rebuilt from a format that names tiles by type (tenhou.net/6, mjai,
//! majiang): what every reader drives, so that the replay, its proof and every observer are
//! shared with mjlog.
//!
//! Tile ids are given per kind as tiles appear in a hand (dealt, drawn, shown as an indicator):
//! a red five its Tenhou id (16, 52, 88), the other copies of a kind in order, the lowest copy
//! first (a red game's fives from copy 1). Each seat's tiles and melds are kept, so that a
//! discard or a call names ids the seat holds (a tedashi of a kind the seat just drew takes
//! another copy when it holds one), and the scores are kept, so that riichi and terminal
//! records carry Tenhou's `ten` and `sc`.
//!
//! Invariants: an id is given at most once per hand (a fifth copy, a second red five or a red
//! five in a game without them is an error); a seat discards or melds only ids it holds; the
//! winner's hand and melds of an AGARI are the builder's own (formats that record them are
//! checked against them by their reader).

use crate::mjlog::{
    encode_meld, go_type, kita_code, Agari, Event, GameLog, Init, Meld, MeldKind, Ryuukyoku, Un,
};
use crate::rules::{Players, NORTH};
use crate::tile::{self, TileId, KINDS};

/// A tile type: 0..34 the kinds, 34..37 the red fives (5m, 5p, 5s), as [`tile::tile_type`].
pub(crate) type Tile = u8;

/// Why a game cannot be rebuilt (the reader adds where).
pub(crate) type BuildError = String;

/// The name of a tile type as the frames write it (`0s` a red five), for error messages.
pub(crate) fn tile_text(t: Tile) -> &'static str {
    tile::type_name(usize::from(t))
}

/// The events of one game being rebuilt into `log`.
pub(crate) struct Builder<'a> {
    log: &'a mut GameLog,
    red: bool,
    /// Four players or three (GO type bit 0x10): a three-player hand deals nothing to the
    /// fourth seat and has no 2m–8m.
    players: Players,
    /// Per kind, a bit per copy given this hand.
    used: [u8; KINDS],
    held: [Vec<TileId>; 4],
    melds: [Vec<Meld>; 4],
    /// The Norths each seat has set aside by kita this hand (three-player games).
    kitas: [Vec<TileId>; 4],
    drawn: [Option<TileId>; 4],
    /// The last tile discarded, added to a kan or set aside by kita (a ron's or a call's
    /// tile), and its seat.
    last: Option<(u8, TileId)>,
    /// Scores in points.
    scores: [i32; 4],
    honba: u8,
    kyotaku: u8,
    /// The hand's sticks when its first terminal record was written (a second ron's `ba`).
    ba_kyotaku: u8,
    dora: Vec<TileId>,
    ura: Option<Vec<TileId>>,
    terminals: usize,
}

impl<'a> Builder<'a> {
    /// Starts `log` afresh: GO `go_type`, the players, and the game's start.
    pub(crate) fn new(log: &'a mut GameLog, go_type: u32, un: Un) -> Self {
        log.events.clear();
        log.unknown_tags.clear();
        log.go_type = Some(go_type);
        log.events.push(Event::Go {
            go_type,
            lobby: None,
        });
        log.events.push(Event::Un(Box::new(un)));
        log.events.push(Event::Taikyoku { oya: 0 });
        Builder {
            log,
            red: go_type & go_type::NO_RED == 0,
            players: Players::of_go_type(go_type),
            used: [0; KINDS],
            held: Default::default(),
            melds: Default::default(),
            kitas: Default::default(),
            drawn: [None; 4],
            last: None,
            scores: [0; 4],
            honba: 0,
            kyotaku: 0,
            ba_kyotaku: 0,
            dora: Vec::new(),
            ura: None,
            terminals: 0,
        }
    }

    /// Makes the game a three-player one (a format that says so only in its first hand, as
    /// mjai's three-element `tehais`), before any hand is dealt.
    pub(crate) fn three_player(&mut self) -> Result<(), BuildError> {
        if self.players == Players::Three {
            return Ok(());
        }
        if self.log.events.iter().any(|e| matches!(e, Event::Init(_))) {
            return Err("a three-player hand in a four-player game".into());
        }
        self.players = Players::Three;
        let go = self.log.go_type.unwrap_or(0) | go_type::THREE_PLAYER;
        self.log.go_type = Some(go);
        for e in &mut self.log.events {
            if let Event::Go { go_type, .. } = e {
                *go_type = go;
            }
        }
        Ok(())
    }

    /// Four players or three.
    pub(crate) fn players(&self) -> Players {
        self.players
    }

    fn give(&mut self, t: Tile) -> Result<TileId, BuildError> {
        let t = usize::from(t);
        if t >= tile::TYPES {
            return Err(format!("tile type {t} out of range"));
        }
        let kind = tile::type_kind(t);
        if !self.players.has_kind(kind) {
            return Err(format!(
                "a {} in a three-player game (it has no 2m–8m)",
                tile_text(t as Tile)
            ));
        }
        let copy = if t >= KINDS {
            if !self.red {
                return Err(format!(
                    "a red {} in a game without red fives",
                    tile::kind_name(kind)
                ));
            }
            Some(0)
        } else {
            let first = usize::from(self.red && tile::FIVES.contains(&kind));
            (first..4).find(|&c| self.used[kind] & (1 << c) == 0)
        };
        match copy {
            Some(c) if self.used[kind] & (1 << c) == 0 => {
                self.used[kind] |= 1 << c;
                Ok((kind * 4 + c) as TileId)
            }
            _ if t >= KINDS => Err(format!("a second {}", tile_text(t as Tile))),
            _ if self.red && tile::FIVES.contains(&kind) => Err(format!(
                "a fourth black {} in a game with red fives",
                tile::kind_name(kind)
            )),
            _ => Err(format!("a fifth {}", tile::kind_name(kind))),
        }
    }

    /// Removes from `seat`'s tiles one of type `t`, another than `avoid` when it can.
    fn take(&mut self, seat: u8, t: Tile, avoid: Option<TileId>) -> Result<TileId, BuildError> {
        let red = self.red;
        let held = &mut self.held[usize::from(seat)];
        let of_type = |id: &TileId| tile::tile_type(*id, red) == usize::from(t);
        let at = held
            .iter()
            .position(|id| of_type(id) && Some(*id) != avoid)
            .or_else(|| held.iter().position(of_type))
            .ok_or_else(|| format!("seat {seat} has no {} in hand", tile_text(t)))?;
        Ok(held.swap_remove(at))
    }

    /// The types of `seat`'s concealed tiles, sorted.
    pub(crate) fn concealed(&self, seat: u8) -> Vec<Tile> {
        let mut v: Vec<Tile> = self.held[usize::from(seat & 3)]
            .iter()
            .map(|&id| tile::tile_type(id, self.red) as Tile)
            .collect();
        v.sort_unstable();
        v
    }

    /// Scores in points, as the builder keeps them.
    pub(crate) fn scores(&self) -> [i32; 4] {
        self.scores
    }

    /// An INIT: scores in points, each seat's 13 tiles.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start_hand(
        &mut self,
        round: u8,
        honba: u8,
        kyotaku: u8,
        scores: [i32; 4],
        oya: u8,
        hands: &[Vec<Tile>; 4],
        dora_indicator: Tile,
    ) -> Result<(), BuildError> {
        if self.terminals == 0 && self.log.events.iter().any(|e| matches!(e, Event::Init(_))) {
            return Err("a hand starts before the previous one ended".into());
        }
        self.used = [0; KINDS];
        self.melds = Default::default();
        self.kitas = Default::default();
        self.drawn = [None; 4];
        self.last = None;
        self.dora.clear();
        self.ura = None;
        self.terminals = 0;
        self.scores = scores;
        self.honba = honba;
        self.kyotaku = kyotaku;
        let mut hai: [Vec<TileId>; 4] = Default::default();
        for (s, tiles) in hands.iter().enumerate() {
            let want = if s < self.players.seats() { 13 } else { 0 };
            if tiles.len() != want {
                return Err(format!(
                    "seat {s} is dealt {} tiles, not {want}",
                    tiles.len()
                ));
            }
            for &t in tiles {
                let id = self.give(t)?;
                hai[s].push(id);
            }
        }
        self.held = hai.clone();
        let indicator = self.give(dora_indicator)?;
        self.dora.push(indicator);
        if usize::from(oya) >= self.players.seats() {
            return Err(format!("dealer seat {oya}"));
        }
        self.log.events.push(Event::Init(Box::new(Init {
            round,
            honba,
            kyotaku,
            dice: [0, 0],
            dora_indicator: indicator,
            ten: scores.map(|p| p / 100),
            oya,
            hai,
            shuffle: None,
        })));
        Ok(())
    }

    pub(crate) fn draw(&mut self, seat: u8, t: Tile) -> Result<(), BuildError> {
        let tile = self.give(t)?;
        let s = usize::from(seat & 3);
        self.held[s].push(tile);
        self.drawn[s] = Some(tile);
        self.log.events.push(Event::Draw { seat, tile });
        Ok(())
    }

    /// The tile type `seat` just drew, if its last action was a draw.
    pub(crate) fn drawn(&self, seat: u8) -> Option<Tile> {
        self.drawn[usize::from(seat & 3)].map(|id| tile::tile_type(id, self.red) as Tile)
    }

    /// A discard: `t` from the hand, or (`t` `None`, or `tsumogiri`) the tile just drawn.
    pub(crate) fn discard(
        &mut self,
        seat: u8,
        t: Option<Tile>,
        tsumogiri: bool,
    ) -> Result<(), BuildError> {
        let s = usize::from(seat & 3);
        let drawn = self.drawn[s].take();
        let tile = match (t, tsumogiri, drawn) {
            (None, _, None) | (_, true, None) => {
                return Err(format!(
                    "seat {seat} discards the tile just drawn, but drew none"
                ))
            }
            (Some(t), true, Some(d)) if tile::tile_type(d, self.red) != usize::from(t) => {
                return Err(format!(
                    "seat {seat} discards {} as the tile just drawn, which was {}",
                    tile_text(t),
                    tile::type_name(tile::tile_type(d, self.red))
                ))
            }
            (None, _, Some(d)) | (_, true, Some(d)) => {
                let at = self.held[s]
                    .iter()
                    .position(|&x| x == d)
                    .expect("drawn is held");
                self.held[s].swap_remove(at)
            }
            (Some(t), false, d) => self.take(seat, t, d)?,
        };
        self.last = Some((seat, tile));
        self.log.events.push(Event::Discard { seat, tile });
        Ok(())
    }

    /// The type of the last tile discarded or added to a kan.
    pub(crate) fn last_discard(&self) -> Option<Tile> {
        self.last
            .map(|(_, id)| tile::tile_type(id, self.red) as Tile)
    }

    /// A kita (三麻 北抜き): `seat` sets a North aside (the one it just drew when it drew one,
    /// as riichi requires); its replacement draw follows, unless another seat robs it.
    pub(crate) fn kita(&mut self, seat: u8) -> Result<(), BuildError> {
        if self.players != Players::Three {
            return Err(format!("seat {seat} declares kita in a four-player game"));
        }
        let s = usize::from(seat & 3);
        let north = NORTH as Tile;
        let drawn = self.drawn[s].take();
        let tile = match drawn {
            Some(d) if tile::kind(d) == NORTH => {
                let at = self.held[s]
                    .iter()
                    .position(|&x| x == d)
                    .expect("drawn is held");
                self.held[s].swap_remove(at)
            }
            _ => self.take(seat, north, None)?,
        };
        self.kitas[s].push(tile);
        self.last = Some((seat, tile));
        self.log.events.push(Event::Kita { who: seat, tile });
        Ok(())
    }

    pub(crate) fn reach(&mut self, who: u8) {
        self.log.events.push(Event::Reach {
            who,
            step: 1,
            ten: None,
        });
    }

    /// The riichi stick laid (REACH step 2).
    pub(crate) fn reach_accepted(&mut self, who: u8) {
        self.scores[usize::from(who & 3)] -= 1000;
        self.kyotaku = self.kyotaku.saturating_add(1);
        self.log.events.push(Event::Reach {
            who,
            step: 2,
            ten: Some(self.scores.map(|p| p / 100)),
        });
    }

    fn push_meld(&mut self, who: u8, meld: Meld) {
        let m = encode_meld(&meld);
        let s = usize::from(who & 3);
        self.drawn[s] = None;
        self.log.events.push(Event::Call { who, meld, m });
    }

    /// A chi, pon or daiminkan of the last discard (of type `called`, by seat `from`), with
    /// `consumed` from the hand.
    pub(crate) fn call(
        &mut self,
        who: u8,
        kind: MeldKind,
        from: u8,
        called: Tile,
        consumed: &[Tile],
    ) -> Result<(), BuildError> {
        let (by, id) = self
            .last
            .take()
            .ok_or_else(|| format!("seat {who} calls {} with no discard to call", kind.name()))?;
        if by != from || tile::tile_type(id, self.red) != usize::from(called) {
            return Err(format!(
                "seat {who} calls {} {} from seat {from}, but the last discard was {} by seat {by}",
                kind.name(),
                tile_text(called),
                tile::type_name(tile::tile_type(id, self.red))
            ));
        }
        let want = if kind == MeldKind::Daiminkan { 3 } else { 2 };
        if consumed.len() != want || who == from {
            return Err(format!(
                "seat {who}'s {} from seat {from} uses {} tiles",
                kind.name(),
                consumed.len()
            ));
        }
        let mut tiles = [0; 4];
        tiles[0] = id;
        for (i, &t) in consumed.iter().enumerate() {
            tiles[i + 1] = self.take(who, t, None)?;
        }
        let len = want as u8 + 1;
        tiles[..usize::from(len)].sort_unstable();
        let meld = Meld {
            kind,
            tiles,
            len,
            called: Some(id),
            added: None,
            from_rel: (from + 4 - who) % 4,
        };
        if !meld_is_whole(&meld) {
            return Err(format!(
                "seat {who}'s {} is not one: {:?}",
                kind.name(),
                meld.tiles()
                    .iter()
                    .map(|&t| tile::kind_name(tile::kind(t)))
                    .collect::<Vec<_>>()
            ));
        }
        self.melds[usize::from(who & 3)].push(meld);
        self.push_meld(who, meld);
        Ok(())
    }

    /// An added kan of `t` onto the seat's pon of its kind.
    pub(crate) fn kakan(&mut self, who: u8, t: Tile) -> Result<(), BuildError> {
        let kind = tile::type_kind(usize::from(t));
        let s = usize::from(who & 3);
        let at = self.melds[s]
            .iter()
            .position(|m| m.kind == MeldKind::Pon && tile::kind(m.tiles[0]) == kind)
            .ok_or_else(|| format!("seat {who} adds {} to a pon it does not have", tile_text(t)))?;
        let added = self.take(who, t, None)?;
        let pon = self.melds[s][at];
        let mut tiles = [pon.tiles[0], pon.tiles[1], pon.tiles[2], added];
        tiles.sort_unstable();
        let meld = Meld {
            kind: MeldKind::Kakan,
            tiles,
            len: 4,
            called: pon.called,
            added: Some(added),
            from_rel: pon.from_rel,
        };
        self.melds[s][at] = meld;
        self.last = Some((who, added));
        self.push_meld(who, meld);
        Ok(())
    }

    /// A concealed kan of `kind`'s four tiles.
    pub(crate) fn ankan(&mut self, who: u8, kind: usize) -> Result<(), BuildError> {
        let s = usize::from(who & 3);
        if self.held[s]
            .iter()
            .filter(|&&id| tile::kind(id) == kind)
            .count()
            != 4
        {
            return Err(format!(
                "seat {who} makes a concealed kan of {} without its four tiles",
                tile::kind_name(kind)
            ));
        }
        self.held[s].retain(|&id| tile::kind(id) != kind);
        let base = (kind * 4) as TileId;
        let meld = Meld {
            kind: MeldKind::Ankan,
            tiles: [base, base + 1, base + 2, base + 3],
            len: 4,
            called: None,
            added: None,
            from_rel: 0,
        };
        self.melds[s].push(meld);
        self.last = None;
        self.push_meld(who, meld);
        Ok(())
    }

    /// A new dora indicator shown.
    pub(crate) fn dora(&mut self, t: Tile) -> Result<(), BuildError> {
        let tile = self.give(t)?;
        self.dora.push(tile);
        self.log.events.push(Event::Dora { tile });
        Ok(())
    }

    /// Dora indicators shown so far.
    pub(crate) fn dora_count(&self) -> usize {
        self.dora.len()
    }

    fn sc(&mut self, deltas: [i32; 4]) -> Result<[i32; 8], BuildError> {
        let mut sc = [0; 8];
        for s in 0..4 {
            if deltas[s] % 100 != 0 {
                return Err(format!("a score change of {} points", deltas[s]));
            }
            sc[2 * s] = self.scores[s] / 100;
            sc[2 * s + 1] = deltas[s] / 100;
            self.scores[s] += deltas[s];
        }
        Ok(sc)
    }

    /// A win by `who` from `from` (itself for a tsumo) on the tile just drawn, discarded or
    /// added; `ura` the hand's ura indicators (given once per hand, written for a winner in
    /// riichi only).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn win(
        &mut self,
        who: u8,
        from: u8,
        deltas: [i32; 4],
        ten: [i32; 3],
        yaku: Vec<(u8, u8)>,
        yakuman: Vec<u8>,
        ura: &[Tile],
        riichi: bool,
        pao: Option<u8>,
    ) -> Result<(), BuildError> {
        let w = usize::from(who & 3);
        let machi = if who == from {
            self.drawn[w].ok_or_else(|| format!("seat {who} wins by tsumo without a draw"))?
        } else {
            match self.last {
                Some((by, id)) if by == from => id,
                _ => {
                    return Err(format!(
                    "seat {who} wins on seat {from}'s tile, which seat {from} did not just discard"
                ))
                }
            }
        };
        let mut hai = self.held[w].clone();
        if who != from {
            hai.push(machi);
        }
        let ura_hai = if riichi {
            match &self.ura {
                Some(ids) => ids.clone(),
                None => {
                    let ids = ura
                        .iter()
                        .map(|&t| self.give(t))
                        .collect::<Result<Vec<_>, _>>()?;
                    self.ura = Some(ids.clone());
                    ids
                }
            }
        } else {
            Vec::new()
        };
        if self.terminals == 0 {
            self.ba_kyotaku = self.kyotaku;
        }
        let sc = self.sc(deltas)?;
        self.kyotaku = 0;
        self.terminals += 1;
        // AGARI `m`: the melds, then (three-player games) the kitas, as Tenhou writes them.
        let m = self.melds[w]
            .iter()
            .map(encode_meld)
            .chain(self.kitas[w].iter().map(|&t| kita_code(t)))
            .collect();
        self.log.events.push(Event::Agari(Box::new(Agari {
            honba: self.honba,
            kyotaku: self.ba_kyotaku,
            hai,
            m,
            machi,
            ten,
            yaku,
            yakuman,
            dora_hai: self.dora.clone(),
            ura_hai,
            who,
            from_who: from,
            pao_who: pao,
            sc,
            owari: None,
        })));
        Ok(())
    }

    /// A draw: `kind` Tenhou's type name (`None` exhaustive), the seats whose hands are shown.
    pub(crate) fn ryuukyoku(
        &mut self,
        kind: Option<&str>,
        deltas: [i32; 4],
        shown: [bool; 4],
    ) -> Result<(), BuildError> {
        let sc = self.sc(deltas)?;
        self.terminals += 1;
        let hai = [0, 1, 2, 3].map(|s| {
            shown[s].then(|| {
                let mut h = self.held[s].clone();
                h.sort_unstable();
                h
            })
        });
        self.log.events.push(Event::Ryuukyoku(Box::new(Ryuukyoku {
            kind: kind.map(str::to_string),
            honba: self.honba,
            kyotaku: self.kyotaku,
            sc,
            hai,
            owari: None,
        })));
        Ok(())
    }

    /// Whether the hand has its terminal record.
    pub(crate) fn hand_over(&self) -> bool {
        self.terminals > 0
    }

    /// The game's end: `owari` (scores in hundreds and uma, per seat) on the last record.
    pub(crate) fn finish(self, owari: Option<Vec<f64>>) -> Result<(), BuildError> {
        let last = self.log.events.iter_mut().rev().find_map(|e| match e {
            Event::Agari(a) => Some(&mut a.owari),
            Event::Ryuukyoku(r) => Some(&mut r.owari),
            _ => None,
        });
        match last {
            Some(slot) => {
                *slot = owari;
                Ok(())
            }
            None => Err("the log ends before any hand has a result (a fragment of a game)".into()),
        }
    }
}

/// Whether a chi is three consecutive kinds of one suit, a pon or kan one kind.
fn meld_is_whole(m: &Meld) -> bool {
    let kinds: Vec<usize> = m.tiles().iter().map(|&t| tile::kind(t)).collect();
    match m.kind {
        MeldKind::Chi => {
            kinds[0] < 27
                && kinds[0] / 9 == kinds[2] / 9
                && kinds[1] == kinds[0] + 1
                && kinds[2] == kinds[0] + 2
        }
        _ => kinds.iter().all(|&k| k == kinds[0]),
    }
}

/// The three-player hand both readers' tests read (tenhou.net/6's and mjai's forms of it):
/// the dealer draws 1s (copy 2, id 74: it holds two), sets its North (id 120) aside, draws its
/// replacement 9s (copy 1, id 105: it holds copy 0) and wins by tsumo, a dealer's mangan paid
/// 4000 by each of the two others and nothing by the absent seat; the replay proves it.
/// Returns the replay's facts.
#[cfg(test)]
pub(crate) fn check_sanma_hand(log: &GameLog) -> crate::replay::GameFacts {
    assert_eq!(
        log.go_type.map(|g| g & go_type::THREE_PLAYER),
        Some(go_type::THREE_PLAYER)
    );
    let play: Vec<&Event> = log
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Draw { .. } | Event::Kita { .. } | Event::Discard { .. }
            )
        })
        .collect();
    assert_eq!(
        play,
        [
            &Event::Draw { seat: 0, tile: 74 },
            &Event::Kita { who: 0, tile: 120 },
            &Event::Draw { seat: 0, tile: 105 },
        ]
    );
    let Some(Event::Agari(a)) = log.events.iter().find(|e| matches!(e, Event::Agari(_))) else {
        panic!("a win")
    };
    // The kita is in the winner's `m`, as Tenhou writes it.
    assert_eq!(a.m, [kita_code(120)]);
    assert_eq!(a.sc, [350, 80, 350, -40, 350, -40, 0, 0]);
    crate::stats::prove_game(log).unwrap().facts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(kinds: &[u8]) -> Vec<Tile> {
        kinds.to_vec()
    }

    /// Four seats' 13 tiles of distinct kinds where they can be: seat s holds kinds
    /// 0..13 shifted by s, so every kind appears at most twice over the four hands.
    fn deal() -> [Vec<Tile>; 4] {
        [0u8, 1, 2, 3].map(|s| hand(&(0..13).map(|k| (k + 7 * s) % 34).collect::<Vec<_>>()))
    }

    /// Ids by kind, the lowest copy first, a red game's black fives from copy 1; the errors
    /// of a fifth copy, a second red five, a red five in a game without, and a fourth black
    /// five in a game with them.
    #[test]
    fn ids_by_kind_and_their_limits() {
        let mut log = GameLog::default();
        let mut b = Builder::new(&mut log, 0xA9, Un::default());
        b.start_hand(0, 0, 0, [25000; 4], 0, &deal(), 33).unwrap();
        // Seat 0 holds kinds 0..13 (copy 0 each, 5m as copy 1 in a red game: id 17).
        let Event::Init(init) = &b.log.events[3] else {
            panic!()
        };
        assert_eq!(init.hai[0][..6], [0, 4, 8, 12, 17, 20]);
        // Seat 3 holds 7z (kinds 21..33) as id 132: the indicator is the next copy.
        assert_eq!(init.dora_indicator, 133);
        // 1m: seat 0 holds copy 0; copies 1 to 3 can be drawn, a fifth not.
        b.draw(1, 0).unwrap();
        let err = (0..3).find_map(|_| b.draw(1, 0).err()).unwrap();
        assert_eq!(err, "a fifth 1m");
        // Red 5p (type 35): one, then no second.
        b.draw(2, 35).unwrap();
        assert_eq!(
            b.log.events.last(),
            Some(&Event::Draw { seat: 2, tile: 52 })
        );
        assert_eq!(b.draw(2, 35).unwrap_err(), "a second 0p");
        // 5s: a red game's three black copies are 89, 90, 91; seats 2 and 3 hold the first
        // two.
        let got: Vec<TileId> = (0..1)
            .map(|_| {
                b.draw(3, 22).unwrap();
                match b.log.events.last() {
                    Some(Event::Draw { tile, .. }) => *tile,
                    _ => panic!(),
                }
            })
            .collect();
        assert_eq!(got, [91]);
        assert_eq!(
            b.draw(3, 22).unwrap_err(),
            "a fourth black 5s in a game with red fives"
        );
        // Without red fives, a red five is refused and 5s has four black copies.
        let mut log = GameLog::default();
        let mut b = Builder::new(&mut log, 0xAB, Un::default());
        b.start_hand(0, 0, 0, [25000; 4], 0, &deal(), 33).unwrap();
        assert_eq!(
            b.draw(0, 36).unwrap_err(),
            "a red 5s in a game without red fives"
        );
        // Seats 2 and 3 hold copies 0 and 1.
        for _ in 0..2 {
            b.draw(0, 22).unwrap();
        }
        assert_eq!(b.draw(0, 22).unwrap_err(), "a fifth 5s");
    }

    /// A call names the last discard, its seat and the right number of tiles from the hand.
    #[test]
    fn calls_name_the_last_discard() {
        let mut log = GameLog::default();
        let mut b = Builder::new(&mut log, 0xA9, Un::default());
        b.start_hand(0, 0, 0, [25000; 4], 0, &deal(), 33).unwrap();
        // Seat 0 discards 8m (kind 7); seat 1 holds 8m, 9m (kinds 7..19).
        b.draw(0, 33).unwrap();
        b.discard(0, Some(7), false).unwrap();
        let pon = |b: &mut Builder, who, from, called, n: usize| {
            let consumed = vec![7; n];
            b.call(who, MeldKind::Pon, from, called, &consumed)
        };
        // Each refusal puts the discard back for the next try.
        let again = |b: &mut Builder| b.last = Some((0, 28));
        assert!(pon(&mut b, 1, 2, 7, 2)
            .unwrap_err()
            .contains("but the last discard was 8m by seat 0"));
        again(&mut b);
        assert!(pon(&mut b, 1, 0, 8, 2)
            .unwrap_err()
            .contains("calls pon 9m from seat 0"));
        again(&mut b);
        assert!(pon(&mut b, 1, 0, 7, 1)
            .unwrap_err()
            .contains("uses 1 tiles"));
        again(&mut b);
        assert!(pon(&mut b, 0, 0, 7, 2)
            .unwrap_err()
            .contains("uses 2 tiles"));
        again(&mut b);
        // A chi of 7m-8m-9m from the left seat: seat 1 holds 7m? No (kinds 7..19): 9m and the
        // 8m called need 7m, which it lacks.
        let chi = b.call(1, MeldKind::Chi, 0, 7, &[6, 8]);
        assert_eq!(chi.unwrap_err(), "seat 1 has no 7m in hand");
        again(&mut b);
        // 8m-9m-1p is no run.
        assert!(b
            .call(1, MeldKind::Chi, 0, 7, &[8, 9])
            .unwrap_err()
            .contains("is not one"));
        // With nothing discarded, no call.
        assert!(b
            .call(1, MeldKind::Pon, 0, 7, &[7, 7])
            .unwrap_err()
            .contains("no discard to call"));
    }

    /// A discard of a kind just drawn takes another copy when the seat holds one (a tedashi);
    /// a tsumogiri takes the drawn id; a discard of a tile not held is refused.
    #[test]
    fn discards_name_held_ids() {
        let mut log = GameLog::default();
        let mut b = Builder::new(&mut log, 0xA9, Un::default());
        b.start_hand(0, 0, 0, [25000; 4], 0, &deal(), 33).unwrap();
        b.draw(0, 0).unwrap(); // a second 1m: id 1
        b.discard(0, Some(0), false).unwrap();
        assert_eq!(
            b.log.events.last(),
            Some(&Event::Discard { seat: 0, tile: 0 })
        );
        b.draw(1, 1).unwrap(); // 2m for seat 1: id 5
        b.discard(1, Some(1), true).unwrap();
        assert_eq!(
            b.log.events.last(),
            Some(&Event::Discard { seat: 1, tile: 5 })
        );
        assert_eq!(
            b.discard(2, Some(30), false).unwrap_err(),
            "seat 2 has no 4z in hand"
        );
        // A tsumogiri names the tile drawn: another is refused.
        b.draw(2, 2).unwrap();
        assert_eq!(b.drawn(2), Some(2));
        assert_eq!(
            b.discard(2, Some(3), true).unwrap_err(),
            "seat 2 discards 4m as the tile just drawn, which was 3m"
        );
        assert!(b.discard(2, None, true).unwrap_err().contains("drew none"));
    }
}
