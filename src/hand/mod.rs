//! Pure hand algorithms over tile-kind count arrays.
//!
//! Tile kinds are indices `0..34`: `0..=8` = 1m..9m, `9..=17` = 1p..9p,
//! `18..=26` = 1s..9s, `27..=33` = 1z..7z (E, S, W, N, haku, hatsu, chun).
//! A hand is a [`KindCounts`] of the *concealed* tiles only; `melds` is the
//! number of declared sets (chi, pon, daiminkan, shouminkan, ankan — each one
//! set). A waiting concealed hand holds `13 − 3·melds` tiles, a complete one
//! `14 − 3·melds`.
//!
//! Everything here ignores yaku, furiten and which tiles are still live: a
//! wait whose remaining copies are all visible elsewhere (karaten) is still a
//! wait. The only availability rule applied is that the hand cannot draw a
//! fifth copy of a kind it already holds four of.
//!
//! No function here allocates on the heap.

use crate::tile::KINDS;

pub mod complete;
pub mod efficiency;
pub mod shanten;
pub mod waits;

pub use complete::{for_each_decomposition, is_complete, Block};
pub use efficiency::{
    best_discards, best_discards_for, improving_kinds, improving_kinds_for, shanten_after,
    shanten_after_for, ukeire, ukeire_for,
};
pub use shanten::{shanten, shanten_for, INVALID_SHANTEN};
pub use waits::{wait_mask, waits, WaitShape, Waits};

/// Counts per tile kind; index convention in the module docs.
pub type KindCounts = [u8; KINDS];

/// First honor kind (1z, East).
pub const FIRST_HONOR: usize = 27;

/// The thirteen terminal and honor kinds (1m 9m 1p 9p 1s 9s 1z..7z).
pub const YAOCHU: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// True for terminals (1, 9 of a suit) and honors. `k` must be `< 34`.
#[inline]
pub const fn is_yaochu(k: usize) -> bool {
    k >= FIRST_HONOR || k.is_multiple_of(9) || k % 9 == 8
}

/// Total number of tiles in `counts`.
#[inline]
pub fn total(counts: &KindCounts) -> u32 {
    counts.iter().map(|&c| u32::from(c)).sum()
}

/// Concealed tile count expected for a *complete* hand with `melds` declared
/// sets (`14 − 3·melds`), or `None` if `melds > 4`.
#[inline]
pub const fn complete_size(melds: u8) -> Option<u32> {
    if melds > 4 {
        None
    } else {
        Some(14 - 3 * melds as u32)
    }
}

/// Parses compact notation like `"123m456p789s11z"` into counts (test helper).
/// Digits accumulate until a suit letter (`m`, `p`, `s`, `z`); `0` is read as 5
/// (red five). Returns `None` on malformed input or more than 4 copies.
#[cfg(test)]
pub(crate) fn parse(s: &str) -> Option<KindCounts> {
    let mut counts = [0u8; KINDS];
    let mut digits: [usize; 14] = [0; 14];
    let mut n = 0usize;
    for ch in s.chars() {
        match ch {
            '0'..='9' => {
                if n == digits.len() {
                    return None;
                }
                let d = ch.to_digit(10)? as usize;
                digits[n] = if d == 0 { 5 } else { d };
                n += 1;
            }
            'm' | 'p' | 's' | 'z' => {
                let (base, max) = match ch {
                    'm' => (0, 9),
                    'p' => (9, 9),
                    's' => (18, 9),
                    _ => (27, 7),
                };
                for &d in &digits[..n] {
                    if d > max {
                        return None;
                    }
                    counts[base + d - 1] += 1;
                }
                n = 0;
            }
            ' ' => {}
            _ => return None,
        }
    }
    if n != 0 || counts.iter().any(|&c| c > 4) {
        return None;
    }
    Some(counts)
}

/// A tiny deterministic LCG for the hand algorithms' property tests.
#[cfg(test)]
pub(crate) struct Lcg(pub(crate) u64);

#[cfg(test)]
impl Lcg {
    pub(crate) fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_notation() {
        let h = parse("123m456p789s11z").unwrap();
        assert_eq!(total(&h), 11);
        assert_eq!(h[0], 1);
        assert_eq!(h[12], 1);
        assert_eq!(h[26], 1);
        assert_eq!(h[27], 2);
        assert_eq!(parse("0m").unwrap()[4], 1);
        assert!(parse("11111m").is_none());
        assert!(parse("8z").is_none());
        assert!(parse("12").is_none());
    }

    #[test]
    fn yaochu_table_matches_predicate() {
        for k in 0..KINDS {
            assert_eq!(is_yaochu(k), YAOCHU.contains(&k), "kind {k}");
        }
    }
}
