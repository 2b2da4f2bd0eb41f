//! Tile efficiency (牌効率) of a discard, docs/definitions.md §7: the shanten after discarding a
//! kind, and its ukeire (受け入れ), the unseen copies of the kinds that would lower it.

use super::{shanten, KindCounts};
use crate::tile::KINDS;

/// Shanten (§0) of `hand` (14 − 3·melds concealed tiles) after one copy of kind `k` leaves it.
pub fn shanten_after(hand: &KindCounts, melds: u8, k: usize) -> i8 {
    let mut h = *hand;
    h[k] -= 1;
    shanten(&h, melds)
}

/// The kinds whose one more copy lowers the shanten of `hand` (13 − 3·melds tiles), as a bit
/// set (bit x): the xiangting crate's necessary tiles (a test holds them equal to trying every
/// kind, a kind held four times and the best discard of the 14 tiles included).
pub fn improving_kinds(hand: &KindCounts) -> u64 {
    xiangting::calculate_necessary_tiles(hand, xiangting::PlayerCount::Four).map_or(0, |(_, f)| f)
}

/// The discards of `hand` (14 − 3·melds tiles) that keep its lowest shanten, as a bit set, and
/// that shanten: the xiangting crate's unnecessary tiles (a test holds them equal to trying
/// every kind). `None` for a complete hand (every discard raises its shanten: try them one by
/// one) or an invalid one.
pub fn best_discards(hand: &KindCounts) -> Option<(i8, u64)> {
    match xiangting::calculate_unnecessary_tiles(hand, xiangting::PlayerCount::Four) {
        Ok((r, f)) if r > 0 => Some((r as i8 - 1, f)),
        _ => None,
    }
}

/// Ukeire (§7) of discarding kind `k` from `hand` (14 − 3·melds tiles, before the discard):
/// Σ over the kinds x that lower the shanten of the 13-tile hand left, of
/// 4 − `hand[x]` (the discarded tile included) − `visible[x]`, never below 0.
pub fn ukeire(hand: &KindCounts, k: usize, visible: &KindCounts) -> u32 {
    let mut h = *hand;
    h[k] -= 1;
    let improving = improving_kinds(&h);
    (0..KINDS)
        .filter(|&x| improving >> x & 1 == 1)
        .map(|x| u32::from(4u8.saturating_sub(hand[x] + visible[x])))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    /// The brute-force definition: every kind tried.
    fn improving_brute(hand: &KindCounts, melds: u8) -> u64 {
        let base = shanten(hand, melds);
        (0..KINDS).fold(0, |m, x| {
            let mut h = *hand;
            if h[x] >= 4 {
                return m;
            }
            h[x] += 1;
            m | u64::from(shanten(&h, melds) < base) << x
        })
    }

    use crate::hand::Lcg;

    /// Improving kinds and best discards against trying every kind, on random hands of every
    /// meld count, one-suit hands (quads), pair-heavy and terminal-heavy hands.
    #[test]
    fn improving_kinds_and_best_discards_equal_brute_force() {
        let mut rng = Lcg(7);
        for i in 0..20_000 {
            let melds = (i % 5) as u8;
            let n = 13 - 3 * usize::from(melds);
            let pool: Vec<usize> = match i % 4 {
                0 => (0..KINDS).collect(),
                1 => (0..9).collect(),
                2 => (0..KINDS).step_by(3).collect(),
                _ => super::super::YAOCHU.to_vec(),
            };
            let mut h = [0u8; KINDS];
            let mut got = 0;
            while got < n {
                let k = pool[rng.next() % pool.len()];
                if h[k] < 4 {
                    h[k] += 1;
                    got += 1;
                }
            }
            assert_eq!(
                improving_kinds(&h),
                improving_brute(&h, melds),
                "{h:?} {melds}"
            );
            // The same hand plus one more tile: its best discards.
            let mut h14 = h;
            let x = pool[rng.next() % pool.len()];
            if h14[x] < 4 {
                h14[x] += 1;
                let brute: Vec<i8> = (0..KINDS)
                    .map(|k| {
                        if h14[k] > 0 {
                            shanten_after(&h14, melds, k)
                        } else {
                            i8::MAX
                        }
                    })
                    .collect();
                let best = *brute.iter().min().unwrap();
                let set = (0..KINDS).fold(0u64, |m, k| m | u64::from(brute[k] == best) << k);
                let complete = shanten(&h14, melds) < 0;
                let want = (!complete).then_some((best, set));
                assert_eq!(best_discards(&h14), want, "{h14:?} {melds}");
            }
        }
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
