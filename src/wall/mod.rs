//! Tenhou's wall, rebuilt from a log's own shuffle seed (Tenhou published the algorithm).
//!
//! - `seed.rs`: the three seed forms and the words they generate, per hand
//!   ([`Seed`], [`Generator`]).
//! - here: the shuffle of those words into a [`Wall`] and where every tile of a hand is taken
//!   from: the deal, the live draws, the replacement draws, the dora and ura-dora indicators.
//! - `synthetic.rs`: a made-up log dealt and drawn from the walls of a seed
//!   ([`tsumogiri_log`]), for tests that need a game the check proves.
//!
//! Invariants (n = 136 tiles with four players, 108 with three: no 2m–8m, ids 4..32).
//! `Wall::yama[..n]` is a permutation of the game's tile ids, shuffled as Tenhou does (for
//! i in 0..n−1, swap `yama[i]` with `yama[i + rnd[i] % (n − i)]`), in Tenhou's order: the deal
//! takes `yama[n−1]`, `yama[n−2]`, … (four tiles a seat, dealer first, three times round, then
//! one each), the live draws go on down to `yama[14]`, and `yama[0..14]` is the dead wall,
//! seven stacks of two (`yama[2s]`, `yama[2s + 1]`). With r replacement slots (4 with four
//! players; 8 with three, whose kita draws are replacement draws too) the replacement draws are
//! `yama[1]`, `yama[0]`, `yama[3]`, `yama[2]`, … (`yama[j ^ 1]`), the k-th dora indicator
//! `yama[r + 1 + 2k]` and its ura `yama[r + 2k]`. In logs before 2010 ([`Layout::Old`]) the
//! two tiles of every dead-wall stack are the other way round (position `p` reads `p ^ 1`:
//! replacement draws `yama[0..4]` in order, dora `yama[4 + 2k]`, ura `yama[5 + 2k]`). A hand
//! takes at most n − dealt − 14 tiles (70, or 55 with three players) from the live wall and the
//! replacement draws together: the last live draw (haitei) is `yama[14 + replacements]`. (With
//! three players the fourth and fifth dora indicators lie past `yama[14]`, where four
//! replacement draws have already cut the live wall short.) Dice are 1..=6, from `rnd[135]`
//! and `rnd[136]` for both tables.
//!
//! Measured on the corpus (docs/inputs.md, "The wall check"): every dealt tile, draw, replacement
//! draw, indicator and die of 65,139 Phoenix hands, 43,520 other-room hands and 2,534
//! three-player hands sits where these rules put it.

mod seed;
mod synthetic;

pub use seed::{Generator, Seed, SeedError, SeedForm};
pub use synthetic::tsumogiri_log;

pub use crate::rules::{Players, DEAD, TILES};
use crate::tile::TileId;

/// Which way round the two tiles of each dead-wall stack are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// 2010 on (the base64 seed form).
    Current,
    /// Before 2010 (the hex and per-hand seed forms).
    Old,
}

impl Layout {
    /// The dead-wall layout of a seed form.
    pub fn of(form: SeedForm) -> Layout {
        if form.old_dead_wall() {
            Layout::Old
        } else {
            Layout::Current
        }
    }

    /// The yama index of dead-wall position `p` as the current layout numbers it.
    #[inline]
    fn dead(self, p: usize) -> usize {
        match self {
            Layout::Current => p,
            Layout::Old => p ^ 1,
        }
    }
}

/// ⌈2^64 / d⌉ for d = 1..=136 (index d; 0 unused): the multipliers of [`remainder`].
const REMAINDER_MULTIPLIERS: [u64; TILES + 1] = {
    let mut m = [0u64; TILES + 1];
    let mut d = 1;
    while d <= TILES {
        m[d] = (u64::MAX / d as u64).wrapping_add(1);
        d += 1;
    }
    m
};

/// `r % d` for 1 ≤ d ≤ 136 by multiplication (Lemire, Kaser and Kurz, "Faster remainder by
/// direct computation", 2019: exact for every 32-bit `r` with a 64-bit multiplier), as a
/// compiler does for a constant divisor: the shuffle's divisor changes at every swap, and a
/// division per swap was most of the shuffle's time.
#[inline]
fn remainder(r: u32, d: usize) -> usize {
    let low = REMAINDER_MULTIPLIERS[d].wrapping_mul(u64::from(r));
    ((u128::from(low) * d as u128) >> 64) as usize
}

/// One hand's wall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wall {
    /// Tile ids in Tenhou's order (module docs); the first `players.tiles()` are the wall.
    pub yama: [TileId; TILES],
    pub players: Players,
    /// The two dice, 1..=6.
    pub dice: [u8; 2],
    pub layout: Layout,
}

impl Wall {
    /// Shuffles the game's ids with a hand's words; the dice are `rnd[135] % 6 + 1` and
    /// `rnd[136] % 6 + 1`.
    pub fn from_words(rnd: &[u32; 144], players: Players, layout: Layout) -> Wall {
        let n = players.tiles();
        let mut yama = [0 as TileId; TILES];
        for (y, t) in yama.iter_mut().zip(players.ids()) {
            *y = t;
        }
        for (i, &r) in rnd.iter().enumerate().take(n - 1) {
            let j = i + remainder(r, n - i);
            yama.swap(i, j);
        }
        Wall {
            yama,
            players,
            dice: [(rnd[135] % 6 + 1) as u8, (rnd[136] % 6 + 1) as u8],
            layout,
        }
    }

    /// The wall's tiles (the first `players.tiles()` of `yama`).
    pub fn tiles(&self) -> &[TileId] {
        &self.yama[..self.players.tiles()]
    }

    /// The tiles dealt to the seat `from_dealer` places after the dealer, in dealing order.
    pub fn dealt(&self, from_dealer: usize) -> [TileId; 13] {
        let top = self.players.tiles() - 1;
        let round = 4 * self.players.seats();
        let mut out = [0; 13];
        for r in 0..3 {
            for k in 0..4 {
                out[r * 4 + k] = self.yama[top - r * round - from_dealer * 4 - k];
            }
        }
        out[12] = self.yama[top - 3 * round - from_dealer];
        out
    }

    /// The `i`-th live draw of the hand (0-based), or `None` past the end of a wall from which
    /// `replacements` replacement draws were taken (haitei).
    pub fn live(&self, i: usize, replacements: usize) -> Option<TileId> {
        let p = self.players;
        (i + replacements < p.draws()).then(|| self.yama[p.tiles() - 1 - p.dealt() - i])
    }

    /// The `j`-th replacement draw (0-based).
    pub fn rinshan(&self, j: usize) -> Option<TileId> {
        (j < self.players.replacements()).then(|| self.yama[self.layout.dead(j ^ 1)])
    }

    /// The `k`-th dora indicator (0..5; 0 is the INIT's).
    pub fn dora(&self, k: usize) -> Option<TileId> {
        let r = self.players.replacements();
        (k < 5).then(|| self.yama[self.layout.dead(r + 1 + 2 * k)])
    }

    /// The `k`-th ura-dora indicator (0..5).
    pub fn ura(&self, k: usize) -> Option<TileId> {
        let r = self.players.replacements();
        (k < 5).then(|| self.yama[self.layout.dead(r + 2 * k)])
    }

    /// The four-player wall in the order its tiles are taken: the 52 dealt (dealer's first
    /// four, the next seat's four, …, as [`Wall::dealt`] interleaves them), the 70 of the live
    /// wall (the last `kans` of them never drawn in a hand with that many kans), then the dead
    /// wall: the four replacement draws, and the five dora indicators each followed by its ura
    /// (position `126 + 2k`: dora k, `127 + 2k`: its ura). `None` for a three-player wall,
    /// whose last indicators lie inside its live wall.
    pub fn in_order(&self) -> Option<[TileId; TILES]> {
        if self.players != Players::Four {
            return None;
        }
        let mut out = [0; TILES];
        let (live, dead) = out.split_at_mut(TILES - DEAD);
        for (o, &t) in live.iter_mut().zip(self.yama.iter().rev()) {
            *o = t;
        }
        for (j, d) in dead.iter_mut().take(4).enumerate() {
            *d = self.rinshan(j)?;
        }
        for k in 0..5 {
            dead[4 + 2 * k] = self.dora(k)?;
            dead[5 + 2 * k] = self.ura(k)?;
        }
        Some(out)
    }
}

/// The walls of a game, hand after hand, from its seed.
pub struct Walls {
    generator: Option<Generator>,
    form: SeedForm,
    players: Players,
}

impl Walls {
    /// The walls of a game of `players` whose seed is `seed`: a SHUFFLE seed (one generator
    /// for the whole game), or the first INIT's per-hand seed (then [`Walls::next`] takes each
    /// INIT's own).
    pub fn new(seed: &Seed, players: Players) -> Walls {
        Walls {
            generator: (seed.form != SeedForm::PerHand).then(|| Generator::new(seed)),
            form: seed.form,
            players,
        }
    }

    /// The seed form the walls come from.
    pub fn form(&self) -> SeedForm {
        self.form
    }

    /// The next hand's wall: from the game's generator, or from `per_hand` (that INIT's own
    /// seed) in the per-hand form. `None` when the per-hand form has no seed for the hand.
    pub fn next(&mut self, per_hand: Option<&Seed>) -> Option<Wall> {
        let rnd = match (&mut self.generator, per_hand) {
            (Some(g), _) => g.next_hand(),
            (None, Some(seed)) => Generator::new(seed).next_hand(),
            (None, None) => return None,
        };
        Some(Wall::from_words(&rnd, self.players, Layout::of(self.form)))
    }
}

#[cfg(test)]
mod tests;
