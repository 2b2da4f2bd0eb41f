//! The public state of each §7 decision, rebuilt from the `decisions` frame's rows in order:
//! every seat's river (the hand's earlier rows), every seat's melds (each row carries its own
//! seat's; another seat's are those of its latest row, since a seat's melds change only just
//! before its own discard), who has declared riichi, the dora indicators, and the publicly
//! visible copies of each kind (§0: indicators, uncalled river tiles, every meld tile, and
//! every seat's kita Norths in a three-player game, §24: the row's `kitas`).

use crate::rules::{Players, NORTH};
use crate::stats::decisions::MeldText;
use crate::tile::KINDS;

use super::Position;

/// One row of the `decisions` frame, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Game id and hand index: a change starts a new hand.
    pub game_id: String,
    pub hand: u16,
    pub seat: u8,
    pub turn: u8,
    pub after_call: bool,
    pub concealed: [u8; KINDS],
    /// Bit s: the red five of suit s held.
    pub red: u8,
    /// Type (37 types) of the drawn tile.
    pub drawn: Option<u8>,
    /// Type of the discard.
    pub discard: u8,
    pub tsumogiri: bool,
    pub riichi: bool,
    pub in_riichi: bool,
    pub riichi_opponents: u8,
    pub legal: u64,
    pub forced: bool,
    pub called: bool,
    pub melds: Vec<MeldText>,
    /// Dora indicators shown so far, as types.
    pub dora: Vec<usize>,
    /// Every seat's kita Norths at the decision (three-player games; 0 otherwise).
    pub kitas: [u8; 4],
}

impl Row {
    /// Kind of the discard (a red five is a five).
    pub fn discard_kind(&self) -> usize {
        kind_of(usize::from(self.discard))
    }
}

/// Kind of a type.
pub use crate::tile::type_kind as kind_of;

/// A tile of a river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverTile {
    /// Type (37 types).
    pub tile: u8,
    pub tsumogiri: bool,
    pub riichi: bool,
    pub called: bool,
    /// Its place in the hand's order of discards (every seat's), when known.
    pub seq: Option<u16>,
}

/// The public state of a hand, as of the decision being looked at.
#[derive(Clone, Debug)]
pub struct Table {
    key: Option<(String, u16)>,
    pub rivers: [Vec<RiverTile>; 4],
    pub melds: [Vec<MeldText>; 4],
    /// Seats that have made a declaration discard before the decision.
    pub riichi: [bool; 4],
    /// Uncalled river tiles per kind.
    river_kinds: [u8; KINDS],
    /// Discards of the hand so far (every seat's).
    pub discards: u16,
    /// The table's rules (the built-in engines' shanten and ukeire).
    pub players: Players,
}

impl Default for Table {
    fn default() -> Self {
        Table::of(Players::Four)
    }
}

impl Table {
    /// The state before any decision of a table of `players`.
    pub fn of(players: Players) -> Table {
        Table {
            key: None,
            rivers: Default::default(),
            melds: Default::default(),
            riichi: [false; 4],
            river_kinds: [0; KINDS],
            discards: 0,
            players,
        }
    }

    /// Moves to `row`'s decision: a new hand starts afresh; the deciding seat's melds are the
    /// row's. Call [`Table::discard`] after looking at the decision.
    pub fn enter(&mut self, row: &Row) {
        if self.key.as_ref().map(|(g, h)| (g.as_str(), *h)) != Some((&row.game_id, row.hand)) {
            *self = Table {
                key: Some((row.game_id.clone(), row.hand)),
                ..Table::of(self.players)
            };
        }
        self.melds[usize::from(row.seat)] = row.melds.clone();
    }

    /// Publicly visible copies of each kind at `row`'s decision (§0).
    pub fn visible(&self, row: &Row) -> [u8; KINDS] {
        let mut v = self.river_kinds;
        for &t in &row.dora {
            v[kind_of(t)] += 1;
        }
        for m in self.melds.iter().flatten() {
            for &t in &m.tiles {
                v[kind_of(t)] += 1;
            }
        }
        v[NORTH] += row.kitas.iter().sum::<u8>();
        v
    }

    /// The position the built-in engines see at `row`'s decision.
    pub fn position(&self, row: &Row) -> Position {
        Position {
            concealed: row.concealed,
            melds: self.melds[usize::from(row.seat)].len() as u8,
            legal: row.legal,
            drawn: row.drawn.map(|t| kind_of(usize::from(t)) as u8),
            visible: self.visible(row),
            players: self.players,
        }
    }

    /// Adds `row`'s discard to its seat's river, after the decision.
    pub fn discard(&mut self, row: &Row) {
        let seat = usize::from(row.seat);
        self.rivers[seat].push(RiverTile {
            tile: row.discard,
            tsumogiri: row.tsumogiri,
            riichi: row.riichi,
            called: row.called,
            seq: Some(self.discards),
        });
        self.discards += 1;
        if !row.called {
            self.river_kinds[row.discard_kind()] += 1;
        }
        self.riichi[seat] |= row.riichi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: &str, hand: u16, seat: u8, discard: u8) -> Row {
        Row {
            game_id: game.to_string(),
            hand,
            seat,
            turn: 1,
            after_call: false,
            concealed: [0; KINDS],
            red: 0,
            drawn: None,
            discard,
            tsumogiri: false,
            riichi: false,
            in_riichi: false,
            riichi_opponents: 0,
            legal: 0,
            forced: false,
            called: false,
            melds: Vec::new(),
            dora: vec![27], // 1z shown
            kitas: [0; 4],
        }
    }

    /// Three players (§24): seat 1 has set two Norths aside and seat 2 one by seat 0's
    /// decision (`kitas` 0210): with the 1z indicator, visible 4z 3 and 1z 1; the position is
    /// a three-player one; the next hand keeps the table's rules.
    #[test]
    fn kita_norths_are_visible() {
        let mut t = Table::of(Players::Three);
        let mut r = row("g", 0, 0, 0);
        r.kitas = [0, 2, 1, 0];
        t.enter(&r);
        let v = t.visible(&r);
        assert_eq!((v[NORTH], v[27], v.iter().sum::<u8>()), (3, 1, 4));
        assert_eq!(t.position(&r).players, Players::Three);
        t.discard(&r);
        let next = row("g", 1, 0, 0);
        t.enter(&next);
        assert_eq!(t.players, Players::Three);
        assert_eq!(t.visible(&next)[NORTH], 0);
    }

    /// Hand 0 of game g: seat 0 discards 1m declaring riichi, seat 1 discards 0p (the red 5p,
    /// type 35 → kind 13) which seat 2 calls (`called`: it leaves the visible river tiles) with
    /// a pon of 5p (2 of its own tiles, kinds 13 13, and the called 0p). At seat 2's decision:
    /// visible 1m 1 (river), 5p 3 (the meld's three tiles: the called tile counts once, in the
    /// meld), 1z 1 (indicator). The next hand, and another game's hand 0, start afresh.
    #[test]
    fn each_hand_starts_afresh() {
        let mut t = Table::default();
        let mut r = row("g", 0, 0, 0);
        r.riichi = true;
        t.enter(&r);
        t.discard(&r);
        let mut r = row("g", 0, 1, 35);
        r.called = true;
        t.enter(&r);
        t.discard(&r);
        let mut r = row("g", 0, 2, 9);
        r.melds = vec![MeldText {
            kind: "pon",
            tiles: vec![35, 13, 13],
            from: 1,
        }];
        t.enter(&r);
        let v = t.visible(&r);
        assert_eq!((v[0], v[13], v[27], v.iter().sum::<u8>()), (1, 3, 1, 5));
        assert_eq!(t.position(&r).melds, 1);
        assert_eq!(t.riichi, [true, false, false, false]);
        assert_eq!((t.rivers[0].len(), t.rivers[1].len()), (1, 1));
        assert_eq!((t.rivers[0][0].seq, t.rivers[1][0].seq), (Some(0), Some(1)));
        assert_eq!(t.discards, 2);
        t.discard(&r);
        for next in [row("g", 1, 3, 0), row("h", 0, 3, 0)] {
            t.enter(&next);
            // Only the indicator; no river, meld or riichi from the hand before.
            assert_eq!(t.visible(&next).iter().sum::<u8>(), 1, "{}", next.game_id);
            assert!(t.rivers.iter().all(Vec::is_empty));
            assert!(t.melds.iter().all(Vec::is_empty));
            assert_eq!(t.riichi, [false; 4]);
            assert_eq!(t.discards, 0);
            let mut again = next.clone();
            again.seat = 0;
            t.discard(&next);
            t.enter(&again);
            assert_eq!(t.rivers[3].len(), 1, "same hand: its river stays");
        }
    }
}
