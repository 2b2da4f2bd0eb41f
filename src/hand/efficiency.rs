//! Tile efficiency (牌効率) of a discard, docs/definitions.md §7: the shanten after discarding a
//! kind, and its ukeire (受け入れ), the unseen copies of the kinds that would lower it.

#[cfg(test)]
use super::shanten;
use super::shanten::player_count;
use super::{shanten_for, KindCounts};
use crate::rules::Players;
use crate::tile::KINDS;

/// Shanten (§0) of `hand` (14 − 3·melds concealed tiles) after one copy of kind `k` leaves it.
pub fn shanten_after(hand: &KindCounts, melds: u8, k: usize) -> i8 {
    shanten_after_for(hand, melds, k, Players::Four)
}

/// [`shanten_after`] under the rules of `players` (§24: with three players 1m and 9m form no
/// sequence).
pub fn shanten_after_for(hand: &KindCounts, melds: u8, k: usize, players: Players) -> i8 {
    let mut h = *hand;
    h[k] -= 1;
    shanten_for(&h, melds, players)
}

/// The kinds whose one more copy lowers the shanten of `hand` (13 − 3·melds tiles), as a bit
/// set (bit x): the xiangting crate's necessary tiles (a test holds them equal to trying every
/// kind, a kind held four times and the best discard of the 14 tiles included).
pub fn improving_kinds(hand: &KindCounts) -> u64 {
    improving_kinds_for(hand, Players::Four)
}

/// [`improving_kinds`] under the rules of `players` (with three players never a 2m–8m, which
/// the game has not).
pub fn improving_kinds_for(hand: &KindCounts, players: Players) -> u64 {
    xiangting::calculate_necessary_tiles(hand, player_count(players)).map_or(0, |(_, f)| f)
}

/// The discards of `hand` (14 − 3·melds tiles) that keep its lowest shanten, as a bit set, and
/// that shanten: the xiangting crate's unnecessary tiles (a test holds them equal to trying
/// every kind). `None` for a complete hand (every discard raises its shanten: try them one by
/// one) or an invalid one.
pub fn best_discards(hand: &KindCounts) -> Option<(i8, u64)> {
    best_discards_for(hand, Players::Four)
}

/// [`best_discards`] under the rules of `players`.
pub fn best_discards_for(hand: &KindCounts, players: Players) -> Option<(i8, u64)> {
    match xiangting::calculate_unnecessary_tiles(hand, player_count(players)) {
        Ok((r, f)) if r > 0 => Some((r as i8 - 1, f)),
        _ => None,
    }
}

/// Ukeire (§7) of discarding kind `k` from `hand` (14 − 3·melds tiles, before the discard):
/// Σ over the kinds x that lower the shanten of the 13-tile hand left, of
/// 4 − `hand[x]` (the discarded tile included) − `visible[x]`, never below 0.
pub fn ukeire(hand: &KindCounts, k: usize, visible: &KindCounts) -> u32 {
    ukeire_for(hand, k, visible, Players::Four)
}

/// [`ukeire`] under the rules of `players` (with three players the improving kinds are of the
/// 27 the game has; `visible` holds the kita Norths, §24).
pub fn ukeire_for(hand: &KindCounts, k: usize, visible: &KindCounts, players: Players) -> u32 {
    let mut h = *hand;
    h[k] -= 1;
    let improving = improving_kinds_for(&h, players);
    (0..KINDS)
        .filter(|&x| improving >> x & 1 == 1)
        .map(|x| u32::from(4u8.saturating_sub(hand[x] + visible[x])))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use crate::hand::Lcg;

    /// The brute-force definition under the rules of `players`: every kind of the game tried.
    fn improving_brute(hand: &KindCounts, melds: u8, players: Players) -> u64 {
        let base = shanten_for(hand, melds, players);
        players.kinds().fold(0, |m, x| {
            let mut h = *hand;
            if h[x] >= 4 {
                return m;
            }
            h[x] += 1;
            m | u64::from(shanten_for(&h, melds, players) < base) << x
        })
    }

    /// A random hand of `n` tiles of the kinds of `pool` (at most 4 of a kind).
    fn random_hand(rng: &mut Lcg, pool: &[usize], n: usize) -> KindCounts {
        let mut h = [0u8; KINDS];
        let mut got = 0;
        while got < n {
            let k = pool[rng.next() % pool.len()];
            if h[k] < 4 {
                h[k] += 1;
                got += 1;
            }
        }
        h
    }

    /// Checks `h` (13 − 3·melds tiles) under `players`: its improving kinds against trying
    /// every kind, and the best discards of `h` plus one `x` against trying every discard.
    /// Returns the improving kinds.
    fn check(h: &KindCounts, melds: u8, x: usize, players: Players) -> u64 {
        let improving = improving_kinds_for(h, players);
        assert_eq!(
            improving,
            improving_brute(h, melds, players),
            "{h:?} {melds}"
        );
        let mut h14 = *h;
        if h14[x] < 4 {
            h14[x] += 1;
            let brute: Vec<i8> = (0..KINDS)
                .map(|k| {
                    if h14[k] > 0 {
                        shanten_after_for(&h14, melds, k, players)
                    } else {
                        i8::MAX
                    }
                })
                .collect();
            let best = *brute.iter().min().unwrap();
            let set = (0..KINDS).fold(0u64, |m, k| m | u64::from(brute[k] == best) << k);
            let complete = shanten_for(&h14, melds, players) < 0;
            let want = (!complete).then_some((best, set));
            assert_eq!(best_discards_for(&h14, players), want, "{h14:?} {melds}");
        }
        improving
    }

    /// Improving kinds and best discards against trying every kind, on random hands of every
    /// meld count, one-suit hands (quads), pair-heavy and terminal-heavy hands; the
    /// four-player functions are the `_for` ones of four players.
    #[test]
    fn improving_kinds_and_best_discards_equal_brute_force() {
        let mut rng = Lcg(7);
        for i in 0..20_000 {
            let melds = (i % 5) as u8;
            let pool: Vec<usize> = match i % 4 {
                0 => (0..KINDS).collect(),
                1 => (0..9).collect(),
                2 => (0..KINDS).step_by(3).collect(),
                _ => super::super::YAOCHU.to_vec(),
            };
            let h = random_hand(&mut rng, &pool, 13 - 3 * usize::from(melds));
            let x = pool[rng.next() % pool.len()];
            assert_eq!(improving_kinds(&h), check(&h, melds, x, Players::Four));
            let mut h14 = h;
            h14[x] = (h14[x] + 1).min(4);
            assert_eq!(best_discards(&h14), best_discards_for(&h14, Players::Four));
            assert_eq!(shanten(&h, melds), shanten_for(&h, melds, Players::Four));
        }
    }

    /// Three players (§24): on random hands of the 27 kinds (every meld count, and hands of
    /// 1m, 9m and the pinzu, where a four-player count would build 1m–3m sequences), the
    /// improving kinds and best discards equal trying every kind of the game with the
    /// three-player shanten, and no 2m–8m is ever among them.
    #[test]
    fn three_player_efficiency_equals_brute_force() {
        let mut rng = Lcg(11);
        let three = Players::Three;
        let all: Vec<usize> = three.kinds().collect();
        let narrow: Vec<usize> = [0, 8].into_iter().chain(9..18).collect();
        let mut differs = 0;
        for i in 0..5_000 {
            let melds = (i % 5) as u8;
            let pool = if i % 2 == 0 { &all } else { &narrow };
            let h = random_hand(&mut rng, pool, 13 - 3 * usize::from(melds));
            let x = pool[rng.next() % pool.len()];
            let improving = check(&h, melds, x, three);
            assert_eq!(improving & 0b1111_1110, 0, "2m-8m in {h:?}");
            differs += usize::from(improving != improving_kinds(&h));
        }
        // The rules matter: many of these hands improve differently with four players.
        assert!(differs > 500, "{differs}");
    }

    /// `1m 9m 11p 23456789p 11z`, nothing visible, discarding 9m: four players count 2m or 3m
    /// among the kinds that improve the 13 tiles left (1m builds a sequence with them); three
    /// players have no 2m–8m, so none of those is counted and the ukeire is smaller; every
    /// kind three players count, four players count too.
    #[test]
    fn three_player_ukeire_leaves_out_absent_kinds() {
        let hand = parse("19m1123456789p11z").unwrap();
        let visible = [0u8; KINDS];
        let four = ukeire(&hand, 8, &visible);
        let three = ukeire_for(&hand, 8, &visible, Players::Three);
        let mut h = hand;
        h[8] -= 1;
        let imp4 = improving_kinds(&h);
        let imp3 = improving_kinds_for(&h, Players::Three);
        assert_eq!(imp3 & 0b1111_1110, 0);
        assert_eq!(imp3 & !imp4, 0);
        assert!(
            imp4 & 0b110 != 0,
            "four players build 1m with 2m or 3m: {imp4:b}"
        );
        assert!(three < four, "{three} {four}");
    }

    /// EXPECTED_V2.md §3.4 D6: seat 1 after its chi, `11366m 229p 678s` + 345m, nothing else
    /// visible of these kinds: discarding 9p leaves shanten 1 improved by 1m, 2m, 6m, 2p
    /// (2 + 4 + 2 + 2 = 10); discarding 1m by 2m, 6m, 2p (8).
    #[test]
    fn ukeire_worked_by_hand() {
        let hand = parse("11366m229p678s").unwrap();
        let visible = [0u8; KINDS];
        assert_eq!(shanten_after(&hand, 1, 17), 1);
        assert_eq!(ukeire(&hand, 17, &visible), 10);
        assert_eq!(shanten_after(&hand, 1, 0), 1);
        assert_eq!(ukeire(&hand, 0, &visible), 8);
        // D17: `8m 234789p 123s 3z` + pon: discarding 8m waits on 3z, one held and one visible.
        let hand = parse("8m234789p123s3z").unwrap();
        let mut visible = [0u8; KINDS];
        visible[29] = 1;
        assert_eq!(shanten_after(&hand, 1, 7), 0);
        assert_eq!(ukeire(&hand, 7, &visible), 2);
        assert_eq!(ukeire(&hand, 29, &visible), 3);
    }
}
