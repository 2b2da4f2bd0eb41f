//! The public state of each §7 decision, rebuilt from the `decisions` frame's rows in order:
//! every seat's river (the hand's earlier rows), every seat's melds (each row carries its own
//! seat's; another seat's are those of its latest row, since a seat's melds change only just
//! before its own discard), who has declared riichi, the dora indicators, and the publicly
//! visible copies of each kind (§0: indicators, uncalled river tiles, every meld tile).

use crate::stats::decisions::MeldText;
use crate::tile::{self, KINDS};

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
}

impl Row {
    /// Kind of the discard (a red five is a five).
    pub fn discard_kind(&self) -> usize {
        kind_of(usize::from(self.discard))
    }
}

/// Kind of a type.
pub fn kind_of(t: usize) -> usize {
    if t >= KINDS {
        tile::FIVES[t - KINDS]
    } else {
        t
    }
}

/// A tile of a river.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverTile {
    /// Type (37 types).
    pub tile: u8,
    pub tsumogiri: bool,
    pub riichi: bool,
    pub called: bool,
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
}

impl Default for Table {
    fn default() -> Self {
        Table {
            key: None,
            rivers: Default::default(),
            melds: Default::default(),
            riichi: [false; 4],
            river_kinds: [0; KINDS],
        }
    }
}

impl Table {
    /// Moves to `row`'s decision: a new hand starts afresh; the deciding seat's melds are the
    /// row's. Call [`Table::discard`] after looking at the decision.
    pub fn enter(&mut self, row: &Row) {
        if self.key.as_ref().map(|(g, h)| (g.as_str(), *h)) != Some((&row.game_id, row.hand)) {
            *self = Table {
                key: Some((row.game_id.clone(), row.hand)),
                ..Table::default()
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
        });
        if !row.called {
            self.river_kinds[row.discard_kind()] += 1;
        }
        self.riichi[seat] |= row.riichi;
    }
}
