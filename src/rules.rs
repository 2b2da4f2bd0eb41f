//! The table's rules as one value: four players or three (statistics.md §24). The replay, the
//! scorer, the wall and every observer read the seats, the tiles, the kinds, the draws a hand
//! holds and the payments from [`Players`]; a three-player game is the same code driven by
//! [`Players::Three`], never a copy of it.
//!
//! Tenhou's three-player rules as its logs show them (every one proved on the 278 Phoenix
//! three-player games of the shared corpus by the replay, the scorer and the wall): 108 tiles,
//! no 2m–8m (ids 4..32 never occur), so 27 kinds; red fives only 5p and 5s; three seats; no
//! chi; the dora of a 1m indicator is 9m and of a 9m indicator 1m; 55 draws a hand at most
//! (replacement draws included); start 35,000; tsumo loss (the absent fourth seat's share is
//! not paid); honba 100 per payer; noten payments 2,000 in all; kita (北抜き) of a North.
//!
//! Invariants: every method is a pure function of the value; `Players::Four` gives the
//! four-player numbers every version before 5 used, so a four-player game replays exactly as
//! before.

use crate::tile::{self, TileId, KINDS};

/// Tiles in a four-player wall.
pub const TILES: usize = 136;
/// Tiles in the dead wall.
pub const DEAD: usize = 14;
/// The kind of the North wind (4z), the tile of a kita.
pub const NORTH: usize = 30;

/// Four players or three (三麻: 108 tiles, kita replacement draws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Players {
    #[default]
    Four,
    Three,
}

impl Players {
    /// The rules of GO type `go` (bit 0x10: three players).
    pub fn of_go_type(go: u32) -> Players {
        if go & crate::mjlog::go_type::THREE_PLAYER != 0 {
            Players::Three
        } else {
            Players::Four
        }
    }

    /// The rules of a table of `n` seats (3 or 4).
    pub fn of_count(n: usize) -> Option<Players> {
        match n {
            4 => Some(Players::Four),
            3 => Some(Players::Three),
            _ => None,
        }
    }

    /// Seats at the table.
    #[inline]
    pub fn seats(self) -> usize {
        match self {
            Players::Four => 4,
            Players::Three => 3,
        }
    }

    /// The seat that plays after `seat`.
    #[inline]
    pub fn next(self, seat: u8) -> u8 {
        (seat + 1) % self.seats() as u8
    }

    /// Tiles in the wall.
    pub fn tiles(self) -> usize {
        match self {
            Players::Four => TILES,
            Players::Three => TILES - 28,
        }
    }

    /// Tiles dealt (13 a seat).
    pub fn dealt(self) -> usize {
        13 * self.seats()
    }

    /// Tiles a hand can draw, live and replacement together (70 or 55).
    pub fn draws(self) -> usize {
        self.tiles() - self.dealt() - DEAD
    }

    /// Replacement draws the dead wall holds (4 kans; with three players 4 kita as well).
    pub fn replacements(self) -> usize {
        match self {
            Players::Four => 4,
            Players::Three => 8,
        }
    }

    /// True when tile id `t` is in the game (with three players: not a 2m–8m).
    #[inline]
    pub fn has_tile(self, t: TileId) -> bool {
        self == Players::Four || !(4..32).contains(&t)
    }

    /// True when kind `k` is in the game (with three players: not 2m–8m).
    #[inline]
    pub fn has_kind(self, k: usize) -> bool {
        k < KINDS && (self == Players::Four || !(1..8).contains(&k))
    }

    /// The kinds in the game, in kind order (34 or 27).
    pub fn kinds(self) -> impl Iterator<Item = usize> + Clone {
        (0..KINDS).filter(move |&k| self.has_kind(k))
    }

    /// The number of kinds in the game (34 or 27).
    pub fn kind_count(self) -> usize {
        match self {
            Players::Four => KINDS,
            Players::Three => KINDS - 7,
        }
    }

    /// True when tile type `t` (0..37: red fives 34..37) can occur in a game with red fives
    /// `red` (with three players there is no 5m, red or black).
    pub fn has_type(self, t: usize, red: bool) -> bool {
        if t >= KINDS {
            red && self.has_kind(tile::type_kind(t))
        } else {
            self.has_kind(t)
        }
    }

    /// The tile ids of the game, in id order.
    pub fn ids(self) -> impl Iterator<Item = TileId> {
        (0..TILES as TileId).filter(move |&t| self.has_tile(t))
    }

    /// Each seat's score at the start of a game (25,000 or 35,000).
    pub fn start_score(self) -> i32 {
        match self {
            Players::Four => 25_000,
            Players::Three => 35_000,
        }
    }

    /// The kind an indicator points to: the next in its suit, wind or dragon cycle; with three
    /// players 1m points to 9m and 9m to 1m (the manzu are 1m and 9m only).
    pub fn dora_of(self, indicator: TileId) -> usize {
        let k = tile::kind(indicator);
        match k {
            0 | 8 if self == Players::Three => 8 - k,
            0..=26 => k - k % 9 + (k % 9 + 1) % 9,
            27..=30 => 27 + (k - 27 + 1) % 4,
            _ => 31 + (k - 31 + 1) % 3,
        }
    }

    /// What a win of `base` basic points is worth to the winner (without honba and sticks):
    /// a ron ×4 (×6 by the dealer), a tsumo the sum of its payments, each rounded up to 100;
    /// with three players the absent fourth seat's share is not paid (ツモ損).
    pub fn win_points(self, base: i32, dealer: bool, tsumo: bool) -> i32 {
        let payers = self.seats() as i32 - 1;
        match (tsumo, dealer) {
            (false, false) => up(4 * base),
            (false, true) => up(6 * base),
            (true, false) => up(2 * base) + (payers - 1) * up(base),
            (true, true) => payers * up(2 * base),
        }
    }

    /// What each seat's payment for a tsumo of `base` basic points is: (the dealer's, every
    /// other loser's), each rounded up to 100 (a dealer's tsumo: both are the same).
    pub fn tsumo_payments(self, base: i32, dealer_wins: bool) -> (i32, i32) {
        if dealer_wins {
            (up(2 * base), up(2 * base))
        } else {
            (up(2 * base), up(base))
        }
    }

    /// The honba a ron's discarder pays per honba stick: 100 per payer a tsumo would have
    /// (300, or 200 with three players).
    pub fn honba_on_ron(self) -> i32 {
        100 * (self.seats() as i32 - 1)
    }

    /// The noten payments of an exhaustive draw, in all (3,000, or 2,000 with three players).
    pub fn noten_total(self) -> i32 {
        1000 * (self.seats() as i32 - 1)
    }

    /// Each seat's score delta, in points, for a win of `base` basic points by `who` on a
    /// discard (or a kan's or kita's tile) of `from` (`from == who`: a tsumo), `dealer` the
    /// hand's dealer, with `honba` honba sticks and `sticks` riichi sticks collected (the
    /// first winner of a double ron collects both, the second neither: 上家取り). A ron's
    /// discarder pays the points and [`Players::honba_on_ron`] a stick; on a tsumo each payer
    /// pays its share ([`Players::tsumo_payments`]) and 100 a stick.
    pub fn win_deltas(
        self,
        who: u8,
        from: u8,
        dealer: u8,
        base: i32,
        honba: u8,
        sticks: u8,
    ) -> [i32; 4] {
        let (w, f) = (usize::from(who), usize::from(from));
        let honba = i32::from(honba);
        let mut d = [0; 4];
        if who == from {
            let (by_dealer, by_other) = self.tsumo_payments(base, who == dealer);
            for s in (0..self.seats()).filter(|&s| s != w) {
                let pay = if s == usize::from(dealer) {
                    by_dealer
                } else {
                    by_other
                } + 100 * honba;
                d[s] -= pay;
                d[w] += pay;
            }
        } else {
            let pay = self.win_points(base, who == dealer, false) + self.honba_on_ron() * honba;
            d[f] -= pay;
            d[w] += pay;
        }
        d[w] += 1000 * i32::from(sticks);
        d
    }

    /// Each seat's delta at an exhaustive draw whose tenpai seats are `tenpai`: the noten
    /// seats pay [`Players::noten_total`] to the tenpai ones, split evenly on each side;
    /// nothing when every seat or none is tenpai.
    pub fn noten_deltas(self, tenpai: [bool; 4]) -> [i32; 4] {
        let n = self.seats();
        let t = tenpai[..n].iter().filter(|&&x| x).count() as i32;
        let mut d = [0; 4];
        if t == 0 || t == n as i32 {
            return d;
        }
        let total = self.noten_total();
        for (s, &ready) in tenpai.iter().enumerate().take(n) {
            d[s] = if ready {
                total / t
            } else {
                -total / (n as i32 - t)
            };
        }
        d
    }
}

/// Rounded up to the next 100.
#[inline]
fn up(x: i32) -> i32 {
    (x + 99) / 100 * 100
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of each table: seats, tiles, kinds, draws, replacement slots.
    #[test]
    fn the_two_tables() {
        let four = Players::Four;
        let three = Players::Three;
        assert_eq!((four.seats(), four.tiles(), four.draws()), (4, 136, 70));
        assert_eq!((three.seats(), three.tiles(), three.draws()), (3, 108, 55));
        assert_eq!((four.kind_count(), three.kind_count()), (34, 27));
        assert_eq!(four.kinds().count(), 34);
        let sanma: Vec<usize> = three.kinds().collect();
        assert_eq!(sanma.len(), 27);
        assert_eq!(&sanma[..3], &[0, 8, 9]);
        assert_eq!(three.ids().count(), 108);
        assert!(three.has_tile(3) && !three.has_tile(4) && !three.has_tile(31));
        assert!(three.has_tile(32) && three.has_tile(135));
        assert!(four.has_tile(16));
        // Red 5m is no type of a three-player game; red 5p and 5s are when it has reds.
        assert!(!three.has_type(34, true) && three.has_type(35, true) && three.has_type(36, true));
        assert!(!three.has_type(35, false) && four.has_type(34, true));
        assert_eq!(three.ids().filter(|&t| !three.has_tile(t)).count(), 0);
        assert_eq!((four.next(3), three.next(2), three.next(0)), (0, 0, 1));
        assert_eq!((four.start_score(), three.start_score()), (25_000, 35_000));
        assert_eq!((four.replacements(), three.replacements()), (4, 8));
        assert_eq!(Players::of_go_type(185), three);
        assert_eq!(Players::of_go_type(169), four);
        assert_eq!(Players::of_count(3), Some(three));
        assert_eq!(Players::of_count(2), None);
    }

    /// Indicators: 1m → 2m and 9m → 1m with four players; 1m → 9m and 9m → 1m with three;
    /// winds and dragons cycle in both.
    #[test]
    fn dora_of_indicators() {
        let id = |k: usize| (k * 4) as TileId;
        assert_eq!(Players::Four.dora_of(id(0)), 1);
        assert_eq!(Players::Four.dora_of(id(8)), 0);
        assert_eq!(Players::Three.dora_of(id(0)), 8);
        assert_eq!(Players::Three.dora_of(id(8)), 0);
        for p in [Players::Four, Players::Three] {
            assert_eq!(p.dora_of(id(9)), 10);
            assert_eq!(p.dora_of(id(17)), 9);
            assert_eq!(p.dora_of(id(26)), 18);
            assert_eq!(p.dora_of(id(29)), 30);
            assert_eq!(p.dora_of(id(30)), 27);
            assert_eq!(p.dora_of(id(33)), 31);
            assert_eq!(p.dora_of(id(31)), 32);
        }
    }

    /// Payments: a non-dealer mangan (base 2,000) tsumo is 2,000 + 4,000 with three players
    /// (tsumo loss) and 2,000 + 2,000 + 4,000 with four; a dealer's 4,000 from each payer; a
    /// ron is the same at both tables; honba and noten as the rules say.
    #[test]
    fn payments() {
        let (four, three) = (Players::Four, Players::Three);
        assert_eq!(three.win_points(2000, false, true), 6000);
        assert_eq!(four.win_points(2000, false, true), 8000);
        assert_eq!(three.win_points(2000, true, true), 8000);
        assert_eq!(four.win_points(2000, true, true), 12000);
        assert_eq!(three.win_points(2000, false, false), 8000);
        assert_eq!(three.win_points(2000, true, false), 12000);
        // 30 fu 1 han: base 240, a non-dealer's tsumo 500 + 300 (+ 300 with four).
        assert_eq!(three.win_points(240, false, true), 800);
        assert_eq!(four.win_points(240, false, true), 1100);
        assert_eq!(four.win_points(240, false, false), 1000);
        assert_eq!(four.win_points(240, true, false), 1500);
        assert_eq!(four.win_points(240, true, true), 1500);
        assert_eq!(three.tsumo_payments(240, false), (500, 300));
        assert_eq!(three.tsumo_payments(240, true), (500, 500));
        assert_eq!((four.honba_on_ron(), three.honba_on_ron()), (300, 200));
        assert_eq!((four.noten_total(), three.noten_total()), (3000, 2000));
    }

    /// A win's deltas per seat: seat 1 (not the dealer, seat 0) tsumos a mangan with 2 honba
    /// and 1 stick on the table: with three players the dealer pays 4,000 + 200 and seat 2
    /// 2,000 + 200, seat 1 gets 6,400 + 1,000; with four, seat 3 pays as seat 2. A ron of the
    /// same hand from seat 2: 8,000 + 2 × 200 (three players) or 2 × 300 (four).
    #[test]
    fn win_deltas_per_seat() {
        let (four, three) = (Players::Four, Players::Three);
        assert_eq!(
            three.win_deltas(1, 1, 0, 2000, 2, 1),
            [-4200, 7400, -2200, 0]
        );
        assert_eq!(
            four.win_deltas(1, 1, 0, 2000, 2, 1),
            [-4200, 9600, -2200, -2200]
        );
        assert_eq!(three.win_deltas(1, 2, 0, 2000, 2, 1), [0, 9400, -8400, 0]);
        assert_eq!(four.win_deltas(1, 2, 0, 2000, 2, 0), [0, 8600, -8600, 0]);
        // The dealer's tsumo: 4,000 from each payer (three players), honba 100 each.
        assert_eq!(
            three.win_deltas(0, 0, 0, 2000, 1, 0),
            [8200, -4100, -4100, 0]
        );
        assert_eq!(
            four.win_deltas(2, 2, 2, 2000, 0, 0),
            [-4000, -4000, 12000, -4000]
        );
    }

    /// Noten payments: 2,000 in all with three players (one tenpai +2,000, two tenpai +1,000
    /// each), 3,000 with four; nothing when all or none are tenpai.
    #[test]
    fn noten_payments() {
        let (four, three) = (Players::Four, Players::Three);
        let t = true;
        let f = false;
        assert_eq!(three.noten_deltas([t, f, f, f]), [2000, -1000, -1000, 0]);
        assert_eq!(three.noten_deltas([t, f, t, f]), [1000, -2000, 1000, 0]);
        assert_eq!(three.noten_deltas([t, t, t, f]), [0; 4]);
        assert_eq!(three.noten_deltas([f; 4]), [0; 4]);
        assert_eq!(four.noten_deltas([t, f, f, f]), [3000, -1000, -1000, -1000]);
        assert_eq!(four.noten_deltas([t, t, f, f]), [1500, 1500, -1500, -1500]);
        assert_eq!(four.noten_deltas([t, t, t, f]), [1000, 1000, 1000, -3000]);
        assert_eq!(four.noten_deltas([t; 4]), [0; 4]);
    }
}
