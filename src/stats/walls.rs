//! The `walls` frame's rows (written on request, `--with walls`): each hand's wall as the replay
//! checked it against the log, and how much of it the hand used. Only hands of games whose
//! seed gave a wall have a row.

use super::Observer;
use crate::replay::HandState;
use crate::tile::TileId;
use crate::wall::{Layout, TILES};

/// One hand's wall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WallRow {
    pub(crate) hand: u16,
    /// The tiles in the order they are taken ([`crate::wall::Wall::in_order`]).
    pub(crate) tiles: [TileId; TILES],
    pub(crate) dice: [u8; 2],
    pub(crate) layout: Layout,
    /// The game has red fives.
    pub(crate) red: bool,
    /// Live draws and replacement draws the hand took, and dora indicators shown.
    pub(crate) live_draws: u8,
    pub(crate) rinshan_draws: u8,
    pub(crate) indicators: u8,
}

/// Collects a [`WallRow`] at the end of every hand that has a wall.
#[derive(Default)]
pub(crate) struct WallObserver {
    pub(crate) rows: Vec<WallRow>,
}

impl Observer for WallObserver {
    fn hand_end(&mut self, hand: &HandState) {
        let Some(c) = &hand.wall else { return };
        // The replay is of four-player games, whose walls all have an order.
        if let Some(tiles) = c.wall.in_order() {
            self.rows.push(WallRow {
                hand: hand.index,
                tiles,
                dice: c.wall.dice,
                layout: c.wall.layout,
                red: hand.red,
                live_draws: c.live,
                rinshan_draws: c.rinshan,
                indicators: hand.indicators.len() as u8,
            });
        }
    }
}
