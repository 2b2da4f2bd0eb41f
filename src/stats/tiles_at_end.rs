//! §12 where the tiles are at a hand's end, summed over one game's hands (the `tiles_at_end`
//! frame: one row per game and type), and §14's river and meld counts of each hand's end.
//!
//! Every tile id is in one place ([`HandState::loc`]): a concealed hand (a tsumo winner's
//! holds its winning tile), a meld (a called tile, and a robbed kakan tile, are there), a
//! river (uncalled discards, ron tiles included), a kita area (three-player games' Norths,
//! §24; a robbed North included), or else the wall (live, dead, indicators), which is what the
//! others leave of the copies (a three-player game has no 2m–8m copies at all). The hands are counted from the seats'
//! kind counts and the rivers and melds tile by tile (a few dozen tiles, not 136 places). In a
//! game with red fives a red five counts for its kind's five and for its red type.

use crate::mjlog::MeldKind;
use crate::replay::{HandState, Loc, Observer};
use crate::rules::Players;
use crate::tile::{self, TYPES};

/// One game's counts per type (37: the kinds, then red 5m, 5p, 5s), summed over its hands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TilesAtEnd {
    /// Hands counted.
    pub(crate) hands: u32,
    /// Whether the game has red fives (the red types' copies are 0 without).
    pub(crate) red: bool,
    /// The game's table (its types' copies).
    pub(crate) players: Players,
    pub(crate) hand: [u32; TYPES],
    pub(crate) melds: [u32; TYPES],
    pub(crate) river: [u32; TYPES],
    /// Kita Norths (three-player games).
    pub(crate) kita: [u32; TYPES],
    /// The 2025 split: concealed and meld tiles but each meld's called tile …
    pub(crate) in_hands: [u32; TYPES],
    /// … and every river tile, called ones included.
    pub(crate) in_rivers: [u32; TYPES],
}

impl Default for TilesAtEnd {
    fn default() -> Self {
        TilesAtEnd {
            hands: 0,
            red: false,
            players: Players::Four,
            hand: [0; TYPES],
            melds: [0; TYPES],
            river: [0; TYPES],
            kita: [0; TYPES],
            in_hands: [0; TYPES],
            in_rivers: [0; TYPES],
        }
    }
}

impl TilesAtEnd {
    /// Copies of type `t` summed over the hands: 4 a kind, 1 a red five (0 without reds, and
    /// 0 for the 2m–8m and the red 5m of a three-player game).
    pub(crate) fn copies(&self, t: usize) -> u32 {
        if !self.players.has_type(t, true) {
            return 0;
        }
        match t {
            0..tile::KINDS => 4 * self.hands,
            _ if self.red => self.hands,
            _ => 0,
        }
    }

    /// The tiles of type `t` in no hand, meld, river or kita area: the wall's, live and dead.
    pub(crate) fn wall(&self, t: usize) -> u32 {
        self.copies(t) - self.hand[t] - self.melds[t] - self.river[t] - self.kita[t]
    }
}

/// §14's counts of one hand's end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HandEnd {
    /// The most uncalled discards in one river, the first seat with them, and how many
    /// rivers have them.
    pub(crate) longest_river: u8,
    pub(crate) longest_river_seat: u8,
    pub(crate) longest_rivers: u8,
    /// Melds on the table, all seats.
    pub(crate) melds: u8,
}

/// Collects one game's tiles at the end of each hand.
#[derive(Default)]
pub(crate) struct TilesAtEndObserver {
    pub(crate) tiles: TilesAtEnd,
    /// One per hand.
    pub(crate) ends: Vec<HandEnd>,
}

impl Observer for TilesAtEndObserver {
    fn hand_end(&mut self, hand: &HandState) {
        let c = &mut self.tiles;
        c.hands += 1;
        c.red = hand.red;
        c.players = hand.players;
        // A tile id and the types it counts for: its kind, and its red type if it is one.
        let types = |t: u8| {
            let red = tile::is_red(t, hand.red).then(|| tile::tile_type(t, true));
            std::iter::once(tile::kind(t)).chain(red)
        };
        for st in &hand.seats {
            for (k, &n) in st.kinds.iter().enumerate() {
                c.hand[k] += u32::from(n);
                c.in_hands[k] += u32::from(n);
            }
            for r in &st.river {
                for t in types(r.tile) {
                    // A called tile is in its meld (counted there) but is a river tile in
                    // the 2025 split.
                    if !r.called {
                        c.river[t] += 1;
                    }
                    c.in_rivers[t] += 1;
                }
            }
            for &id in &st.kita {
                c.kita[tile::kind(id)] += 1;
            }
            for m in &st.melds {
                let called = m.called.filter(|_| m.kind != MeldKind::Ankan);
                for &id in m.tiles() {
                    for t in types(id) {
                        c.melds[t] += 1;
                        if called != Some(id) {
                            c.in_hands[t] += 1;
                        }
                    }
                }
            }
        }
        if hand.red {
            for id in tile::RED_IDS {
                if matches!(hand.loc[id as usize], Loc::Hand(_)) {
                    let t = tile::tile_type(id, true);
                    c.hand[t] += 1;
                    c.in_hands[t] += 1;
                }
            }
        }
        let mut end = HandEnd::default();
        for (s, st) in hand.seats.iter().enumerate().take(hand.players.seats()) {
            let uncalled = st.river.iter().filter(|r| !r.called).count() as u8;
            if uncalled > end.longest_river || s == 0 {
                end.longest_river = uncalled;
                end.longest_river_seat = s as u8;
                end.longest_rivers = 1;
            } else if uncalled == end.longest_river {
                end.longest_rivers += 1;
            }
            end.melds += st.melds.len() as u8;
        }
        self.ends.push(end);
    }
}
