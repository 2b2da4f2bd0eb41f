//! Waits of a tenpai hand and the shape of each wait.

use super::complete::{
    for_each_decomposition, is_seven_pairs, is_standard, is_thirteen_orphans, suit_is_sets,
    suit_is_sets_plus_pair,
};
use super::{complete_size, is_yaochu, total, Block, KindCounts, FIRST_HONOR};
use crate::tile::KINDS;

/// Wait shape, ordered so that the "highest" shape is the max:
/// `Tanki < Shanpon < Kanchan < Penchan < Ryanmen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WaitShape {
    /// Single-tile wait completing a pair (also every seven-pairs and
    /// thirteen-orphans wait).
    Tanki,
    /// Completing a triplet out of a pair.
    Shanpon,
    /// Completing a sequence in the middle.
    Kanchan,
    /// 12 waiting on 3, or 89 waiting on 7.
    Penchan,
    /// Completing a sequence at either end, other than penchan.
    Ryanmen,
}

impl WaitShape {
    /// Every shape, lowest first (`shape as usize` indexes this).
    pub const ALL: [WaitShape; 5] = [
        WaitShape::Tanki,
        WaitShape::Shanpon,
        WaitShape::Kanchan,
        WaitShape::Penchan,
        WaitShape::Ryanmen,
    ];

    /// Lower-case name: `"tanki"`, `"shanpon"`, `"kanchan"`, `"penchan"`,
    /// `"ryanmen"`.
    pub fn name(self) -> &'static str {
        match self {
            WaitShape::Tanki => "tanki",
            WaitShape::Shanpon => "shanpon",
            WaitShape::Kanchan => "kanchan",
            WaitShape::Penchan => "penchan",
            WaitShape::Ryanmen => "ryanmen",
        }
    }

    /// One capital letter (the `riichi` frame's `wait_shapes`): `T`, `S`, `K`, `P`, `R`.
    pub fn letter(self) -> u8 {
        match self {
            WaitShape::Tanki => b'T',
            WaitShape::Shanpon => b'S',
            WaitShape::Kanchan => b'K',
            WaitShape::Penchan => b'P',
            WaitShape::Ryanmen => b'R',
        }
    }

    /// Shape of `block` when the winning copy of kind `k` stands in it, or
    /// `None` if the block does not contain `k`.
    pub fn of_block(block: Block, k: usize) -> Option<WaitShape> {
        match block {
            Block::Pair(x) if usize::from(x) == k => Some(WaitShape::Tanki),
            Block::Triplet(x) if usize::from(x) == k => Some(WaitShape::Shanpon),
            Block::Sequence(s) if block.contains(k) => {
                let s = usize::from(s);
                let pos = k - s;
                Some(if pos == 1 {
                    WaitShape::Kanchan
                } else if (pos == 2 && s % 9 == 0) || (pos == 0 && s % 9 == 6) {
                    WaitShape::Penchan
                } else {
                    WaitShape::Ryanmen
                })
            }
            _ => None,
        }
    }
}

/// Waits of a concealed hand.
///
/// Invariants: `shapes[k]` is `Some` exactly for the wait kinds `k`, i.e. the
/// kinds with `concealed[k] < 4` such that `concealed + k` is complete for the
/// hand's meld count (standard form, or with no melds seven distinct pairs or
/// thirteen orphans); yaku, furiten and tile availability elsewhere are
/// ignored. `kokushi_only` is true exactly when there is at least one wait
/// and every wait completes only as thirteen orphans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waits {
    /// `Some(shape)` for each wait kind, `None` otherwise.
    pub shapes: [Option<WaitShape>; KINDS],
    /// Tenpai only through thirteen orphans.
    pub kokushi_only: bool,
}

impl Default for Waits {
    fn default() -> Self {
        Waits {
            shapes: [None; KINDS],
            kokushi_only: false,
        }
    }
}

impl Waits {
    /// True when kind `k` is a wait (`false` for `k >= 34`).
    #[inline]
    pub fn is_wait(&self, k: usize) -> bool {
        self.shape(k).is_some()
    }

    /// Shape of wait `k`, `None` if `k` is not a wait or `k >= 34`.
    #[inline]
    pub fn shape(&self, k: usize) -> Option<WaitShape> {
        self.shapes.get(k).copied().flatten()
    }

    /// True when there is no wait (not tenpai, or only waiting on kinds the
    /// hand holds all four copies of).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.shapes.iter().all(Option::is_none)
    }

    /// Wait kinds in ascending order.
    pub fn kinds(&self) -> impl Iterator<Item = usize> + '_ {
        self.shapes
            .iter()
            .enumerate()
            .filter_map(|(k, s)| s.map(|_| k))
    }

    /// Number of wait kinds.
    #[inline]
    pub fn count(&self) -> usize {
        self.shapes.iter().filter(|s| s.is_some()).count()
    }
}

/// Waits of a concealed hand of `13 − 3·melds` tiles (any other size, or
/// `melds > 4`, gives no waits).
///
/// The shape of wait `k` is the highest, over every standard decomposition of
/// `concealed + k` and every block of it that contains kind `k`, of
/// [`WaitShape::of_block`]; seven-pairs and thirteen-orphans completions count
/// as [`WaitShape::Tanki`]. Kinds already held four times are never waits.
///
/// Only the kinds of [`wait_mask`] are tried (it is exact: a property test holds it to adding
/// every kind and testing completion), so a hand that is not tenpai costs one wait mask, and a
/// tenpai hand one decomposition per wait instead of a completion test per kind it touches.
pub fn waits(concealed: &KindCounts, melds: u8) -> Waits {
    let mut w = Waits::default();
    let Some(full) = complete_size(melds) else {
        return w;
    };
    if total(concealed) + 1 != full {
        return w;
    }
    let candidates = wait_mask(concealed, melds);
    if candidates == 0 {
        return w;
    }
    let special = melds == 0;
    // Adding kind k changes only k's group, so the other groups' standard-form status is
    // computed once: a candidate is a standard wait exactly when every other group is whole
    // and the pairs add up to one.
    let status: [Option<u8>; 4] = std::array::from_fn(|g| group_pairs(concealed, g));
    let broken = status.iter().filter(|s| s.is_none()).count();
    let pairs: u8 = status.iter().flatten().sum();
    // Seven pairs needs six pairs and one single (the wait): with 13 tiles that leaves no
    // room for a third copy of anything. Thirteen orphans needs only yaochu.
    let seven_possible = special && {
        let (mut twos, mut ones) = (0, 0);
        for &c in concealed {
            match c {
                1 => ones += 1,
                2 => twos += 1,
                _ => {}
            }
        }
        (twos, ones) == (6, 1)
    };
    let kokushi_possible = special && (0..KINDS).all(|k| is_yaochu(k) || concealed[k] == 0);
    let mut hand = *concealed;
    let mut non_kokushi = false;
    for k in (0..KINDS).filter(|&k| candidates >> k & 1 == 1) {
        let g = group_of(k);
        let others_whole = broken == usize::from(status[g].is_none());
        let other_pairs = pairs - status[g].unwrap_or(0);
        hand[k] += 1;
        let mut best: Option<WaitShape> = None;
        if others_whole && other_pairs <= 1 && group_pairs(&hand, g) == Some(1 - other_pairs) {
            debug_assert!(is_standard(&hand));
            for_each_decomposition(&hand, melds, |blocks| {
                for &b in blocks {
                    best = best.max(WaitShape::of_block(b, k));
                }
            });
            non_kokushi = true;
        }
        if seven_possible && is_seven_pairs(&hand) {
            best = best.max(Some(WaitShape::Tanki));
            non_kokushi = true;
        }
        if kokushi_possible && best.is_none() && is_thirteen_orphans(&hand) {
            best = Some(WaitShape::Tanki);
        }
        hand[k] -= 1;
        w.shapes[k] = best;
    }
    w.kokushi_only = !non_kokushi && !w.is_empty();
    w
}

/// The wait kinds of a concealed hand of `13 − 3·melds` tiles as a bit set (bit k set when
/// kind k is a wait): [`waits`] without the shapes, for the per-draw test of §8.
///
/// It runs before every draw and almost every hand it sees is not tenpai, so it is written to
/// turn hands down fast and with few unpredictable branches:
/// - one more tile makes every group whole (sets, and one pair in all) only when the group
///   sizes, mod 3, are one group of 1 (the wait's group: it gets the pair) and the others 0,
///   or two groups of 2 (one gets the wait, the other already holds the pair) and the others 0;
/// - the groups that must already be whole are checked before any candidate tile is tried,
///   the honours first (the cheapest and the most often broken);
/// - in a suit, Σ i·a[i] ≡ 0 (mod 3) for sets (a sequence adds 3i + 3, a triplet 3i) and
///   ≡ 2j for sets and a pair of j, which rules out most candidate tiles and pairs unseen;
/// - two isolated singles (nothing within two numbers) rule out every form but thirteen
///   orphans;
/// - the counts are read as bit sets eight kinds at a time, and the sets test has no branch
///   per number.
///
/// Invariant (a property test holds it): equal to the kinds of [`waits`].
pub fn wait_mask(concealed: &KindCounts, melds: u8) -> u64 {
    let Some(full) = complete_size(melds) else {
        return 0;
    };
    // The kinds held, held once and held twice, as bit sets: the counts are read eight kinds
    // to a word (counts are 0..=4, so 3 bits each: 3 is `011`, 4 is `100`) and each byte's
    // flag is gathered into one bit.
    const LOW: u64 = 0x0101_0101_0101_0101;
    let gather = |x: u64| x.wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let (mut held, mut once, mut twice) = (0u64, 0u64, 0u64);
    for (i, chunk) in concealed.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let w = u64::from_le_bytes(bytes);
        let (b0, b1, b2) = (w & LOW, w >> 1 & LOW, w >> 2 & LOW);
        held |= gather(b0 | b1 | b2) << (8 * i);
        once |= gather(b0 & !b1 & !b2) << (8 * i);
        twice |= gather(b1 & !b0 & !b2) << (8 * i);
    }
    let suit = |g: usize| -> [u8; 9] {
        let mut a = [0u8; 9];
        a.copy_from_slice(&concealed[9 * g..9 * g + 9]);
        a
    };
    let suits = [suit(0), suit(1), suit(2)];
    // A single with no tile within two numbers of it joins no set, pair or partial set: it
    // can only be a tanki wait's tile (or one of thirteen orphans), so two of them leave only
    // thirteen orphans.
    let near = (held << 1 & NEAR[0])
        | (held << 2 & NEAR[1])
        | (held >> 1 & NEAR[2])
        | (held >> 2 & NEAR[3]);
    let isolated = once & !near;
    if isolated & isolated.wrapping_sub(1) != 0 {
        return if melds == 0 {
            thirteen_orphans_waits(&suits, concealed)
        } else {
            0
        };
    }
    let mut honors = [0u8; 7];
    honors.copy_from_slice(&concealed[FIRST_HONOR..]);
    let sum = |a: &[u8]| a.iter().map(|&x| u32::from(x)).sum::<u32>();
    let sums = [sum(&suits[0]), sum(&suits[1]), sum(&suits[2]), sum(&honors)];
    if sums.iter().sum::<u32>() + 1 != full {
        return 0;
    }
    // The groups of size 1 and of size 2 mod 3, as bit sets.
    let (mut ones, mut twos) = (0u32, 0u32);
    for (g, &s) in sums.iter().enumerate() {
        ones |= u32::from(s % 3 == 1) << g;
        twos |= u32::from(s % 3 == 2) << g;
    }
    // The residues sum to 1 mod 3 (the tile count, checked above), so with no group of size 1
    // there are exactly two of size 2.
    let mut mask = 0;
    if (ones.is_power_of_two() && twos == 0) || ones == 0 {
        mask = standard_wait_mask(&suits, &honors, ones, twos);
    }
    if melds == 0 {
        // Seven pairs: six pairs and a single, the wait (13 tiles, so nothing else: no kind
        // held three or four times).
        if once.is_power_of_two() && twice.count_ones() == 6 {
            mask |= once;
        }
        mask |= thirteen_orphans_waits(&suits, concealed);
    }
    mask
}

/// The suit kinds that have a kind 1 and 2 numbers below them in their suit, then 1 and 2
/// above (bit k; no honour: honours have no neighbours).
const NEAR: [u64; 4] = {
    const fn numbers(lo: usize, hi: usize) -> u64 {
        let mut m = 0u64;
        let mut k = 0;
        while k < FIRST_HONOR {
            if k % 9 >= lo && k % 9 <= hi {
                m |= 1 << k;
            }
            k += 1;
        }
        m
    }
    [numbers(1, 8), numbers(2, 8), numbers(0, 7), numbers(0, 6)]
};

/// The standard-form part of [`wait_mask`]: `ones` and `twos` are the groups (bit 3 the
/// honours) of size 1 and 2 mod 3, one of 1 or two of 2.
fn standard_wait_mask(suits: &[[u8; 9]; 3], honors: &[u8; 7], ones: u32, twos: u32) -> u64 {
    let whole = |g: usize, pair: bool| -> bool {
        if g == 3 {
            honors_whole(honors, pair)
        } else if pair {
            suit_sets_and_pair(&suits[g])
        } else {
            weighted_residue(&suits[g]) == 0 && suit_sets(&suits[g])
        }
    };
    let rest_are_sets = |skip: u32| {
        [3, 0, 1, 2]
            .iter()
            .all(|&h| skip >> h & 1 == 1 || whole(h, false))
    };
    let mut mask = 0u64;
    let mut waits_in = |g: usize, pair: bool| {
        if g == 3 {
            // An honour wait is a copy already held: a single becomes the pair, a pair a set.
            let mut h = *honors;
            for i in 0..7 {
                if h[i] == 0 || h[i] >= 4 {
                    continue;
                }
                h[i] += 1;
                if honors_whole(&h, pair) {
                    mask |= 1 << (FIRST_HONOR + i);
                }
                h[i] -= 1;
            }
            return;
        }
        let mut a = suits[g];
        let weight = weighted_residue(&a) as usize;
        for i in 0..9 {
            // Without the pair, weight + i ≡ 0 (mod 3); and a tile two or more numbers away
            // from every held one joins nothing.
            if a[i] >= 4
                || (!pair && !(weight + i).is_multiple_of(3))
                || a[i.saturating_sub(2)..=(i + 2).min(8)]
                    .iter()
                    .all(|&x| x == 0)
            {
                continue;
            }
            a[i] += 1;
            let ok = if pair {
                suit_sets_and_pair(&a)
            } else {
                suit_sets(&a)
            };
            a[i] -= 1;
            if ok {
                mask |= 1 << (9 * g + i);
            }
        }
    };
    if twos == 0 {
        if rest_are_sets(ones) {
            waits_in(ones.trailing_zeros() as usize, true);
        }
    } else {
        let a = twos.trailing_zeros() as usize;
        let b = (twos & (twos - 1)).trailing_zeros() as usize;
        if rest_are_sets(twos) {
            if whole(a, true) {
                waits_in(b, false);
            }
            if whole(b, true) {
                waits_in(a, false);
            }
        }
    }
    mask
}

/// A suit's counts are sets only: at each number the copies left after the sequences started
/// on the two numbers below make triplets, and the rest (mod 3) start sequences; none may
/// start on 8 or 9. [`suit_is_sets`] without a branch per number.
fn suit_sets(a: &[u8; 9]) -> bool {
    let (mut p1, mut p2, mut ok) = (0i32, 0i32, true);
    for &x in a {
        let left = i32::from(x) - p1 - p2;
        ok &= left >= 0;
        p2 = p1;
        p1 = left.max(0) % 3;
    }
    ok & (p1 == 0) & (p2 == 0)
}

/// Sets and one pair in a suit: the pair's number j has 2j ≡ Σ i·a[i] (mod 3).
fn suit_sets_and_pair(a: &[u8; 9]) -> bool {
    let mut j = (2 * weighted_residue(a) % 3) as usize;
    let mut any = false;
    while j < 9 {
        if a[j] >= 2 {
            let mut b = *a;
            b[j] -= 2;
            any |= suit_sets(&b);
        }
        j += 3;
    }
    any
}

/// Honours are whole: every count 0, 2 or 3, with one pair exactly when `pair`.
fn honors_whole(h: &[u8; 7], pair: bool) -> bool {
    let (mut pairs, mut broken) = (0u32, 0u32);
    for &c in h {
        pairs += u32::from(c == 2);
        broken += u32::from(c == 1 || c == 4);
    }
    broken == 0 && pairs == u32::from(pair)
}

/// Σ i·a[i] mod 3 over a suit's counts (i = number − 1).
fn weighted_residue(a: &[u8; 9]) -> u32 {
    let mut w = 0u32;
    for (i, &x) in a.iter().enumerate() {
        w += i as u32 * u32::from(x);
    }
    w % 3
}

/// The waits of a thirteen-orphans hand of 13 tiles, as a bit set.
fn thirteen_orphans_waits(suits: &[[u8; 9]; 3], concealed: &KindCounts) -> u64 {
    if suits.iter().any(|a| a[1..8].iter().any(|&c| c > 0)) {
        return 0;
    }
    let mut mask = 0;
    let mut hand = *concealed;
    for k in super::YAOCHU {
        hand[k] += 1;
        if is_thirteen_orphans(&hand) {
            mask |= 1 << k;
        }
        hand[k] -= 1;
    }
    mask
}

/// Group of a kind: 0..3 for the suits, 3 for the honours.
#[inline]
fn group_of(k: usize) -> usize {
    (k / 9).min(3)
}

/// Standard-form status of group `g` of `counts`: `Some(pairs)` when the group splits into
/// sets plus `pairs` pairs (a suit: 0 or 1 pair; the honours: any number of pairs, each
/// kind 0, 2 or 3 copies), `None` when it cannot be part of a standard form.
fn group_pairs(counts: &KindCounts, g: usize) -> Option<u8> {
    if g == 3 {
        let mut pairs = 0;
        for &c in &counts[FIRST_HONOR..] {
            match c {
                0 | 3 => {}
                2 => pairs += 1,
                _ => return None,
            }
        }
        return Some(pairs);
    }
    let mut a = [0u8; 9];
    a.copy_from_slice(&counts[g * 9..g * 9 + 9]);
    match a.iter().map(|&c| u32::from(c)).sum::<u32>() % 3 {
        0 => suit_is_sets(a).then_some(0),
        2 => suit_is_sets_plus_pair(a).then_some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{is_complete, parse, shanten};
    use super::WaitShape::*;
    use super::*;

    #[test]
    fn shape_codes_index_all() {
        for (i, s) in WaitShape::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        for (i, m) in crate::danger::Moment::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i);
        }
    }

    fn h(s: &str) -> KindCounts {
        parse(s).expect("valid test hand")
    }

    /// Waits as (kind, shape) pairs in ascending kind order.
    fn ws(s: &str, melds: u8) -> Vec<(usize, WaitShape)> {
        let w = waits(&h(s), melds);
        w.kinds().map(|k| (k, w.shapes[k].unwrap())).collect()
    }

    const M1: usize = 0;
    const P1: usize = 9;
    const S1: usize = 18;
    const Z1: usize = 27;

    #[test]
    fn names_and_order() {
        assert_eq!(
            [Tanki, Shanpon, Kanchan, Penchan, Ryanmen].map(WaitShape::name),
            ["tanki", "shanpon", "kanchan", "penchan", "ryanmen"]
        );
        assert!(Tanki < Shanpon && Shanpon < Kanchan && Kanchan < Penchan && Penchan < Ryanmen);
    }

    #[test]
    fn ryanmen() {
        // 123m 23m 456p 789s 11z: +1m = 112233m → 123 123 (11 22 33 would be
        // three pairs), 1m at the low end → ryanmen; +4m = 123 234, 4m at the
        // high end of 2-3-4 → ryanmen.
        assert_eq!(
            ws("12323m456p789s11z", 0),
            vec![(M1, Ryanmen), (M1 + 3, Ryanmen)]
        );
        let w = waits(&h("12323m456p789s11z"), 0);
        assert!(!w.kokushi_only);
        assert_eq!(w.count(), 2);
    }

    #[test]
    fn kanchan() {
        // 123m 456p 789s 11z + 46s waits on 5s only: 456s with 5 in the middle.
        assert_eq!(ws("123m456p789s46s11z", 0), vec![(S1 + 4, Kanchan)]);
    }

    #[test]
    fn penchan() {
        // 12p waits on 3p only (123p completed by the 3).
        assert_eq!(ws("123m456m789s12p11z", 0), vec![(P1 + 2, Penchan)]);
        // 89p waits on 7p only (789p completed by the 7).
        assert_eq!(ws("123m456m789s89p11z", 0), vec![(P1 + 6, Penchan)]);
    }

    #[test]
    fn shanpon() {
        // 123m 456p 789s + 11z 22z: 1z → 111z + 22z pair (shanpon on the 111z
        // triplet; the 22z pair doesn't contain 1z); likewise 2z.
        assert_eq!(
            ws("123m456p789s1122z", 0),
            vec![(Z1, Shanpon), (Z1 + 1, Shanpon)]
        );
    }

    #[test]
    fn tanki_and_nobetan() {
        // Plain tanki on 5z.
        assert_eq!(ws("123m456p789s111z5z", 0), vec![(Z1 + 4, Tanki)]);
        // Nobetan 2345m + 123p 456p 789p: +2m = 22 345 (pair holds the 2:
        // tanki; 234 + 5 leaves a single, not a decomposition); +5m = 234 55
        // (tanki). Nothing else: +3m = 23345 and +4m = 23445 have no pair
        // split leaving sets. So tanki on both ends, not ryanmen.
        assert_eq!(
            ws("2345m123456789p", 0),
            vec![(M1 + 1, Tanki), (M1 + 4, Tanki)]
        );
    }

    #[test]
    fn three_sided() {
        // 34567m + 123p 456p 11z: +2m = 234 567 (2 at the low end of 234:
        // ryanmen); +5m = 345 567 (5 at an end of both: ryanmen); +8m = 345 678
        // (ryanmen). +3m = 334567, +4m = 344567, +6m = 345667, +7m = 345677:
        // no pair leaves two sequences → not waits.
        assert_eq!(
            ws("34567m123p456p11z", 0),
            vec![(M1 + 1, Ryanmen), (M1 + 4, Ryanmen), (M1 + 7, Ryanmen)]
        );
    }

    #[test]
    fn kanchan_beats_tanki() {
        // 1223m + 456p 789p 111z: +2m = 12223m → 123 + 22 is the only split
        // (222 + 13 fails). Blocks holding 2m: 123 (middle: kanchan) and 22
        // (tanki) → max kanchan. +1m = 11223 → 11 + 223? no; 123 + 12? no:
        // not complete. +4m = 12234 → 22 + 134? no; 123 + 24? no → no.
        // +3m = 12233 → 123 + 23? no; 22 + 133 no → no.
        assert_eq!(ws("1223m456p789p111z", 0), vec![(M1 + 1, Kanchan)]);
    }

    /// `of_block` (public) answers `None` for a block without the kind. Inside `waits` every
    /// decomposition holds the winning kind somewhere, so only a direct call sees this.
    #[test]
    fn of_block_is_none_without_the_kind() {
        use crate::hand::Block;
        assert_eq!(WaitShape::of_block(Block::Pair(3), 3), Some(Tanki));
        assert_eq!(WaitShape::of_block(Block::Pair(3), 4), None);
        assert_eq!(WaitShape::of_block(Block::Triplet(3), 3), Some(Shanpon));
        assert_eq!(WaitShape::of_block(Block::Triplet(3), 2), None);
        assert_eq!(WaitShape::of_block(Block::Sequence(3), 4), Some(Kanchan));
        assert_eq!(WaitShape::of_block(Block::Sequence(3), 6), None);
    }

    #[test]
    fn shape_counts_every_block_holding_k() {
        // 11123m + 456p 789p 99s: +1m = 111123m → 111 + 123 only (11 pair
        // leaves 1123, no). Blocks holding 1m: 111 (shanpon) and 123 (1 at
        // the low end: ryanmen) → ryanmen. +4m = 111 234 → ryanmen.
        // +2m/+3m: 111223 and 111233 have no split → not waits.
        // +9s: 999s becomes a triplet and 11123m = 11 + 123 → the only block
        // holding 9s is 999s → shanpon.
        assert_eq!(
            ws("11123m456p789p99s", 0),
            vec![(M1, Ryanmen), (M1 + 3, Ryanmen), (S1 + 8, Shanpon)]
        );
    }

    #[test]
    fn seven_pairs_tanki() {
        // 1122m 3344p 5566s 7z: standard form impossible (7z single, pairs
        // 11 22 → 1122 is not sets). Waits: 7z only (seven pairs), tanki.
        assert_eq!(ws("1122m3344p5566s7z", 0), vec![(Z1 + 6, Tanki)]);
        // Same hand with 1111m instead of 1122m: four of a kind is one pair,
        // so seven pairs has 5 pairs over 6 kinds → 2 + 1 = 3 replacements
        // (shanten 2); no standard wait either (1111m forces 111 + a lone 1m).
        assert!(waits(&h("1111m3344p5566s7z"), 0).is_empty());
        assert_eq!(shanten(&h("1111m3344p5566s7z"), 0), 2);
    }

    #[test]
    fn seven_pairs_and_standard_together() {
        // 112233m 445566p 7z: +7z completes both as 123 123 456 456 77 and as
        // seven pairs; 7z is only ever in the pair → tanki.
        assert_eq!(ws("112233m445566p7z", 0), vec![(Z1 + 6, Tanki)]);
        // 1122334m 556677p: 556677p = 567 567, so the manzu must take a tile.
        // +4m = 11223344m: seven pairs (tanki), 123 123 44 (tanki) and
        // 11 234 234 (4m at the top of 2-3-4: ryanmen) → ryanmen.
        // +1m = 11122334m: 11 123 234 → pair 11 (tanki), 123 (1 at the low
        // end: ryanmen) → ryanmen; 111 + 22334 fails.
        // +2m = 11222334m, +3m = 11223334m, +5m = 11223345m: no split leaves
        // only sets and one pair. No pinzu wait (manzu would be 7 tiles).
        assert_eq!(
            ws("1122334m556677p", 0),
            vec![(M1, Ryanmen), (M1 + 3, Ryanmen)]
        );
    }

    #[test]
    fn kokushi_thirteen_sided() {
        let w = waits(&h("19m19p19s1234567z"), 0);
        assert_eq!(w.count(), 13);
        assert!(w.kokushi_only);
        for k in super::super::YAOCHU {
            assert_eq!(w.shapes[k], Some(Tanki), "kind {k}");
        }
        assert_eq!(shanten(&h("19m19p19s1234567z"), 0), 0);
    }

    #[test]
    fn kokushi_single_wait() {
        // 1m 9m 1p 9p 1s 9s 1z..6z + extra 1m: waits on 7z only.
        let w = waits(&h("119m19p19s123456z"), 0);
        assert_eq!(w.kinds().collect::<Vec<_>>(), vec![Z1 + 6]);
        assert_eq!(w.shapes[Z1 + 6], Some(Tanki));
        assert!(w.kokushi_only);
        // With a meld, thirteen orphans is impossible (and the size is wrong).
        assert!(waits(&h("119m19p19s123456z"), 1).is_empty());
    }

    #[test]
    fn nine_gates() {
        // 1112345678999m waits on every manzu. Shapes by the rule (max over
        // all decompositions of hand + k of blocks holding k):
        // +1: 111 123 456 789 99 only → 111 shanpon, 123 (1 at the low end)
        //     ryanmen → Ryanmen.
        // +2: 111 22 345 678 999 only (11 + 123 leaves a 2 that needs a 3)
        //     → Tanki.
        // +3: 11 123 345 678 999 only (111 + 234 leaves a 3 that needs the 4)
        //     → 123 penchan, 345 (3 at the low end) ryanmen → Ryanmen.
        // +4: 111 234 456 789 99 only → 234, 456 both ryanmen → Ryanmen.
        // +5: 111 234 55 678 999 only (11 123 456 leaves 5 78, 111 234 567
        //     leaves 5 8) → Tanki.
        // +6: 11 123 456 678 999 only (111 234 567 leaves 6 8) → 456 (6 at
        //     the top) and 678 (6 at the bottom) ryanmen → Ryanmen.
        // +7: 111 234 567 789 99 only → 567 ryanmen, 789 (7-8-9 completed by
        //     the 7) penchan → Ryanmen.
        // +8: 111 234 567 88 999 only → Tanki.
        // +9: 11 123 456 789 999 only → 789 (9 at the top: ryanmen), 999
        //     shanpon → Ryanmen.
        let got = ws("1112345678999m", 0);
        let kinds: Vec<usize> = got.iter().map(|&(k, _)| k).collect();
        assert_eq!(kinds, (0..9).collect::<Vec<_>>());
        assert_eq!(
            got.iter().map(|&(_, s)| s).collect::<Vec<_>>(),
            vec![Ryanmen, Tanki, Ryanmen, Ryanmen, Tanki, Ryanmen, Ryanmen, Tanki, Ryanmen]
        );
    }

    #[test]
    fn holding_all_four_of_the_only_wait() {
        // 123m 456m 789m 1111z: the only completion would be the fifth 1z.
        let hand = h("123456789m1111z");
        assert!(waits(&hand, 0).is_empty());
        assert_eq!(wait_mask(&hand, 0), 0);
        // xiangting accounts for the missing fifth copy: 1-shanten.
        assert_eq!(shanten(&hand, 0), 1);
        // xiangting's own example: 1111m 123p 112233s. In `wait_mask` 1111m is the group of
        // size 1 mod 3 and takes the pair: a fifth 1m would make 111m + 11m.
        let hand = h("1111m123p112233s");
        assert!(waits(&hand, 0).is_empty());
        assert_eq!(wait_mask(&hand, 0), 0);
        assert_eq!(shanten(&hand, 0), 1);
        // With three melds: 1111z alone (4 concealed tiles).
        assert!(waits(&h("1111z"), 3).is_empty());
        assert_eq!(wait_mask(&h("1111z"), 3), 0);
        assert_eq!(shanten(&h("1111z"), 3), 1);
    }

    #[test]
    fn four_copies_not_the_only_wait() {
        // 1111234m + 456p 789p. +1m: held four times, excluded (it would
        // otherwise complete 111 11234? no matter). +4m = 11112344m → 111 +
        // 12344 → 123 + 44: blocks with 4m: pair 44 → tanki. +2m = 11112234
        // → 11 + 112234 → 123 + 124 no; 111 + 12234 → 123 + 24 no → not
        // complete. +5m = 11112345 → 111 + 12345 no; 11 + 112345 → 123 + 145
        // no → not. +3m = 11112334 → 111 + 12334 → 123 + 34 no; 11 + 112334
        // → 123 + 134 no → not. So the only wait is 4m, tanki.
        let hand = h("1111234m456p789p");
        assert_eq!(ws("1111234m456p789p", 0), vec![(M1 + 3, Tanki)]);
        assert_eq!(shanten(&hand, 0), 0);
    }

    #[test]
    fn with_melds() {
        // melds = 2, 7 concealed tiles 3456m 789p: nobetan, +3m = 33 456 and
        // +6m = 345 66 → tanki on both.
        assert_eq!(ws("3456m789p", 2), vec![(M1 + 2, Tanki), (M1 + 5, Tanki)]);
        // melds = 2: 23p 55z 789s → 1p, 4p ryanmen.
        assert_eq!(ws("23p789s55z", 2), vec![(P1, Ryanmen), (P1 + 3, Ryanmen)]);
        // melds = 4, one tile: tanki on it.
        assert_eq!(ws("7z", 4), vec![(Z1 + 6, Tanki)]);
        // Seven pairs needs no melds: 1122m 33p 4p (7 tiles, melds = 2) + 4p
        // would be four pairs, not 2 sets + pair; +3m/+2m etc. leave no split
        // → no waits.
        assert!(waits(&h("1122m334p"), 2).is_empty());
        // Wrong size for the meld count → no waits.
        assert!(waits(&h("3456m789p"), 1).is_empty());
        assert!(waits(&h("3456m789p"), 5).is_empty());
    }

    #[test]
    fn not_tenpai() {
        let w = waits(&h("159m159p159s1234z"), 0);
        assert!(w.is_empty());
        assert_eq!(w.count(), 0);
        assert!(!w.kokushi_only);
        assert!(!w.is_wait(40));
    }

    use crate::hand::Lcg;

    /// A random hand of `n` tiles drawn from kinds `0..span` (≤ 4 copies).
    fn random_hand(rng: &mut Lcg, n: usize, span: usize) -> KindCounts {
        let mut c = [0u8; KINDS];
        let mut got = 0;
        while got < n {
            let k = rng.next() % span;
            if c[k] < 4 {
                c[k] += 1;
                got += 1;
            }
        }
        c
    }

    /// A random complete standard hand of `14 − 3·melds` tiles minus one
    /// random tile: tenpai on the removed kind (it is held ≤ 3 times after
    /// the removal), so always tenpai.
    fn random_tenpai(rng: &mut Lcg, melds: u8) -> KindCounts {
        loop {
            let mut c = [0u8; KINDS];
            let mut ok = true;
            for _ in 0..(4 - melds) {
                if rng.next().is_multiple_of(3) {
                    let k = rng.next() % KINDS;
                    c[k] += 3;
                } else {
                    let s = rng.next() % 3 * 9 + rng.next() % 7;
                    c[s] += 1;
                    c[s + 1] += 1;
                    c[s + 2] += 1;
                }
            }
            c[rng.next() % KINDS] += 2;
            if c.iter().any(|&x| x > 4) {
                ok = false;
            }
            if !ok {
                continue;
            }
            let held: Vec<usize> = (0..KINDS).filter(|&k| c[k] > 0).collect();
            let k = held[rng.next() % held.len()];
            c[k] -= 1;
            return c;
        }
    }

    /// The plain definition of [`waits`]: every candidate kind tested on the whole hand.
    fn reference_waits(concealed: &KindCounts, melds: u8) -> Waits {
        let mut w = Waits::default();
        if complete_size(melds) != Some(total(concealed) + 1) {
            return w;
        }
        let special = melds == 0;
        let mut non_kokushi = false;
        for k in 0..KINDS {
            let mut hand = *concealed;
            if hand[k] >= 4 {
                continue;
            }
            hand[k] += 1;
            let mut best: Option<WaitShape> = None;
            if is_standard(&hand) {
                for_each_decomposition(&hand, melds, |blocks| {
                    for &b in blocks {
                        best = best.max(WaitShape::of_block(b, k));
                    }
                });
                non_kokushi = true;
            }
            if special && is_seven_pairs(&hand) {
                best = best.max(Some(Tanki));
                non_kokushi = true;
            }
            if special && best.is_none() && is_thirteen_orphans(&hand) {
                best = Some(Tanki);
            }
            w.shapes[k] = best;
        }
        w.kokushi_only = !non_kokushi && !w.is_empty();
        w
    }

    fn check_consistency(hand: &KindCounts, melds: u8) -> bool {
        let w = waits(hand, melds);
        assert_eq!(w, reference_waits(hand, melds), "{hand:?} melds {melds}");
        let mask = w.kinds().fold(0u64, |m, k| m | 1 << k);
        assert_eq!(
            wait_mask(hand, melds),
            mask,
            "wait_mask {hand:?} melds {melds}"
        );
        for k in 0..KINDS {
            let mut c = *hand;
            if c[k] >= 4 {
                assert!(!w.is_wait(k));
                continue;
            }
            c[k] += 1;
            assert_eq!(w.is_wait(k), is_complete(&c, melds), "{hand:?} + {k}");
        }
        let s = shanten(hand, melds);
        assert!(s >= 0, "{hand:?}");
        assert_eq!(s == 0, !w.is_empty(), "{hand:?} melds {melds} shanten {s}");
        !w.is_empty()
    }

    #[test]
    fn property_waits_agree_with_shanten() {
        let mut rng = Lcg(0x9e37_79b9_7f4a_7c15);
        let mut tenpai = 0;
        for i in 0..3000 {
            let melds = (i % 5) as u8;
            let n = 13 - 3 * usize::from(melds);
            // Mix: uniform hands, one-suit hands (dense, many quads), and
            // constructed tenpai hands.
            let hand = match i % 3 {
                0 => random_hand(&mut rng, n, KINDS),
                1 => random_hand(&mut rng, n, 9),
                _ => random_tenpai(&mut rng, melds),
            };
            tenpai += usize::from(check_consistency(&hand, melds));
        }
        // The 1000 constructed hands are all tenpai.
        assert!(tenpai >= 1000, "{tenpai}");
    }

    /// The fact the legal riichi at every draw rests on (`replay::legal`): a hand of
    /// 14 − 3·melds tiles that is not complete has shanten 0 exactly when some discard leaves
    /// it a wait, and no discard does at shanten 1 or more. Drawn from every kind of hand:
    /// uniform, one-suit (many quads), and a tenpai hand plus a tile (tenpai after a discard,
    /// or complete).
    #[test]
    fn property_shanten_of_fourteen_is_its_best_discard() {
        let mut rng = Lcg(0x5851_f42d_4c95_7f2d);
        let (mut zero, mut more) = (0, 0);
        for i in 0..20_000 {
            let melds = (i / 3 % 5) as u8;
            let n = 13 - 3 * usize::from(melds);
            let mut hand = match i % 3 {
                0 => random_hand(&mut rng, n, KINDS),
                1 => random_hand(&mut rng, n, 9),
                _ => random_tenpai(&mut rng, melds),
            };
            let k = loop {
                let k = rng.next() % KINDS;
                if hand[k] < 4 {
                    break k;
                }
            };
            hand[k] += 1;
            let s = shanten(&hand, melds);
            if s < 0 {
                continue;
            }
            let some_wait = (0..KINDS).filter(|&d| hand[d] > 0).any(|d| {
                let mut h = hand;
                h[d] -= 1;
                wait_mask(&h, melds) != 0
            });
            assert_eq!(s == 0, some_wait, "{hand:?} melds {melds} shanten {s}");
            zero += usize::from(s == 0);
            more += usize::from(s > 0);
        }
        assert!(zero > 3000 && more > 3000, "{zero} at 0, {more} above");
    }

    /// [`wait_mask`] is the fast path of §8 (before every draw): against completion by brute
    /// force on many hands of every kind, including near-tenpai hands made by swapping one
    /// tile of a tenpai hand, which exercise the mod-3 filters hardest.
    #[test]
    fn property_wait_mask_is_completion() {
        let mut rng = Lcg(0x2545_f491_4f6c_dd1d);
        let (mut tenpai, mut hands) = (0, 0);
        for i in 0..60_000 {
            // Every kind of hand below with every meld count (i / 5, not i % 5).
            let melds = (i / 5 % 5) as u8;
            let n = 13 - 3 * usize::from(melds);
            let mut hand = match i % 5 {
                0 => random_hand(&mut rng, n, KINDS),
                1 => random_hand(&mut rng, n, 9),
                2 => random_hand(&mut rng, n, 18),
                _ => random_tenpai(&mut rng, melds),
            };
            if i % 5 == 4 {
                // Swap one tile for another kind.
                let held: Vec<usize> = (0..KINDS).filter(|&k| hand[k] > 0).collect();
                let out = held[rng.next() % held.len()];
                let into = rng.next() % KINDS;
                if hand[into] < 4 {
                    hand[out] -= 1;
                    hand[into] += 1;
                }
            }
            let brute = (0..KINDS).fold(0u64, |m, k| {
                let mut c = hand;
                c[k] += 1;
                m | u64::from(hand[k] < 4 && is_complete(&c, melds)) << k
            });
            assert_eq!(wait_mask(&hand, melds), brute, "{hand:?} melds {melds}");
            tenpai += usize::from(brute != 0);
            hands += 1;
        }
        // Every kind of hand was seen: at least the 24,000 constructed tenpai hands.
        assert!(tenpai > 24_000 && tenpai < hands, "{tenpai} of {hands}");
    }

    /// Hands whose only completions use a fifth copy: no waits, shanten 1.
    #[test]
    fn property_hold_all_four_only() {
        let mut rng = Lcg(7);
        let mut found = 0;
        for i in 0..20_000 {
            let melds = (i % 3) as u8;
            let hand = random_hand(&mut rng, 13 - 3 * usize::from(melds), 9);
            let fifth_only = waits(&hand, melds).is_empty()
                && (0..KINDS).any(|k| {
                    let mut c = hand;
                    c[k] += 1;
                    hand[k] == 4 && is_complete(&c, melds)
                });
            if fifth_only {
                found += 1;
                assert_eq!(shanten(&hand, melds), 1, "{hand:?} melds {melds}");
                assert_eq!(wait_mask(&hand, melds), 0, "{hand:?} melds {melds}");
            }
        }
        assert!(found > 10, "only {found} hold-all-four hands generated");
    }

    #[test]
    fn property_chiitoitsu_and_kokushi_near_misses() {
        let mut rng = Lcg(42);
        for _ in 0..500 {
            // Seven pairs minus one tile, pairs drawn from all kinds
            // (possibly repeated → quads, exercising the distinct rule).
            let mut c = [0u8; KINDS];
            for _ in 0..7 {
                let k = rng.next() % KINDS;
                if c[k] <= 2 {
                    c[k] += 2;
                } else {
                    c[(k + 1) % KINDS] += 1;
                    c[(k + 2) % KINDS] += 1;
                }
            }
            if c.iter().any(|&x| x > 4) {
                continue;
            }
            let held: Vec<usize> = (0..KINDS).filter(|&k| c[k] > 0).collect();
            c[held[rng.next() % held.len()]] -= 1;
            check_consistency(&c, 0);
            // Thirteen-orphans near misses: the 13 yaochu with one doubled,
            // then one or two tiles removed and topped up with a random tile.
            let mut c = [0u8; KINDS];
            for k in super::super::YAOCHU {
                c[k] = 1;
            }
            c[super::super::YAOCHU[rng.next() % 13]] += 1;
            c[super::super::YAOCHU[rng.next() % 13]] -= 1;
            let removed = super::super::YAOCHU[rng.next() % 13];
            if c[removed] > 0 {
                c[removed] -= 1;
                let add = rng.next() % KINDS;
                c[add] += 1;
            } else {
                let k = (0..KINDS).find(|&k| c[k] > 1).unwrap();
                c[k] -= 1;
            }
            let w = waits(&c, 0);
            if w.kokushi_only {
                // Kokushi waits are terminals/honors, tanki.
                assert!(w.kinds().all(is_yaochu));
                assert!(w.kinds().all(|k| w.shapes[k] == Some(Tanki)));
            }
            check_consistency(&c, 0);
        }
    }
}
