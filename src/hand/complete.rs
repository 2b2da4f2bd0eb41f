//! Complete-hand test and enumeration of standard-form decompositions.

use super::{complete_size, total, KindCounts, FIRST_HONOR, YAOCHU};
use crate::tile::KINDS;

/// One block of a standard-form decomposition. The payload is a tile kind
/// (`< 34`); for [`Block::Sequence`] it is the lowest kind, always a suited
/// kind with number 1..=7 (`kind % 9 <= 6`, `kind < 27`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Block {
    /// Two copies of the kind.
    Pair(u8),
    /// Three copies of the kind.
    Triplet(u8),
    /// The kind and the next two kinds of the same suit.
    Sequence(u8),
}

impl Block {
    /// True when the block holds at least one copy of kind `k`.
    #[inline]
    pub fn contains(self, k: usize) -> bool {
        match self {
            Block::Pair(x) | Block::Triplet(x) => usize::from(x) == k,
            Block::Sequence(s) => {
                let s = usize::from(s);
                s <= k && k <= s + 2
            }
        }
    }
}

/// True when `counts` (which must total `14 − 3·melds` tiles) forms
/// `4 − melds` sets plus one pair, or — only when `melds == 0` — seven
/// *distinct* pairs, or thirteen orphans. Any other tile total, or
/// `melds > 4`, gives `false`. Does not allocate.
pub fn is_complete(counts: &KindCounts, melds: u8) -> bool {
    if complete_size(melds) != Some(total(counts)) {
        return false;
    }
    is_standard(counts) || (melds == 0 && (is_seven_pairs(counts) || is_thirteen_orphans(counts)))
}

/// True when `counts` splits into sets (triplets and sequences) plus exactly
/// one pair, whatever the number of sets. Does not check the tile total
/// against a meld count.
pub fn is_standard(counts: &KindCounts) -> bool {
    let mut pairs = 0u32;
    for suit in 0..3 {
        let mut a = [0u8; 9];
        a.copy_from_slice(&counts[suit * 9..suit * 9 + 9]);
        let sum: u32 = a.iter().map(|&c| u32::from(c)).sum();
        match sum % 3 {
            0 => {
                if !suit_is_sets(a) {
                    return false;
                }
            }
            2 => {
                pairs += 1;
                if pairs > 1 || !suit_is_sets_plus_pair(a) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    for &c in &counts[FIRST_HONOR..] {
        match c {
            0 | 3 => {}
            2 => {
                pairs += 1;
                if pairs > 1 {
                    return false;
                }
            }
            _ => return false,
        }
    }
    pairs == 1
}

/// Greedy set check for one suit: at the lowest remaining number, triplets
/// are taken first (three equal sequences are interchangeable with three
/// triplets), and the remaining `count % 3` copies must each start a
/// sequence.
pub(super) fn suit_is_sets(mut a: [u8; 9]) -> bool {
    for i in 0..9 {
        let c = a[i] % 3;
        if c == 0 {
            continue;
        }
        if i + 2 >= 9 || a[i + 1] < c || a[i + 2] < c {
            return false;
        }
        a[i + 1] -= c;
        a[i + 2] -= c;
    }
    true
}

/// Sets plus exactly one pair within one suit.
pub(super) fn suit_is_sets_plus_pair(a: [u8; 9]) -> bool {
    (0..9).any(|i| {
        if a[i] < 2 {
            return false;
        }
        let mut b = a;
        b[i] -= 2;
        suit_is_sets(b)
    })
}

/// Seven distinct pairs: exactly seven kinds with count 2 and nothing else
/// (four of a kind is not two pairs).
pub fn is_seven_pairs(counts: &KindCounts) -> bool {
    let mut pairs = 0u32;
    for &c in counts {
        match c {
            0 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 7
}

/// Thirteen orphans: every terminal/honor kind present, exactly one of them
/// twice, and no other tiles (14 tiles in all).
pub fn is_thirteen_orphans(counts: &KindCounts) -> bool {
    let mut yaochu_tiles = 0u32;
    for &k in &YAOCHU {
        let c = counts[k];
        if c == 0 || c > 2 {
            return false;
        }
        yaochu_tiles += u32::from(c);
    }
    yaochu_tiles == 14 && total(counts) == 14
}

/// Calls `f` once for every distinct standard-form decomposition of `counts`
/// into `4 − melds` sets plus one pair (`counts` must total `14 − 3·melds`
/// tiles, otherwise `f` is never called). Blocks are passed in ascending order
/// of their lowest kind (pair before triplet before sequence at the same
/// kind). Distinct means distinct as multisets of blocks. Seven pairs and
/// thirteen orphans are not standard forms and are not visited. Does not
/// allocate; at most five blocks are ever on the stack.
pub fn for_each_decomposition<F: FnMut(&[Block])>(counts: &KindCounts, melds: u8, mut f: F) {
    if complete_size(melds) != Some(total(counts)) {
        return;
    }
    let mut c = *counts;
    let mut stack = [Block::Pair(0); 5];
    decompose(&mut c, 0, RANK_PAIR, false, &mut stack, 0, &mut f);
}

/// Block kinds in the canonical order used at one tile kind; blocks starting
/// at the same kind are taken in non-decreasing order of this rank so that
/// each multiset of blocks is produced once.
const RANK_PAIR: u8 = 0;
const RANK_TRIPLET: u8 = 1;
const RANK_SEQUENCE: u8 = 2;

/// Recursion invariant: kinds `< from` are all zero in `c`; `stack[..len]`
/// holds the blocks taken so far, in canonical order; `pair_used` tells
/// whether one of them is the pair; blocks still to be taken at kind `from`
/// must have rank `>= min_rank`.
fn decompose<F: FnMut(&[Block])>(
    c: &mut KindCounts,
    from: usize,
    min_rank: u8,
    pair_used: bool,
    stack: &mut [Block; 5],
    len: usize,
    f: &mut F,
) {
    let mut i = from;
    while i < KINDS && c[i] == 0 {
        i += 1;
    }
    if i == KINDS {
        if pair_used {
            f(&stack[..len]);
        }
        return;
    }
    if len == stack.len() {
        return;
    }
    let min_rank = if i == from { min_rank } else { RANK_PAIR };
    // Kinds are < 34, so the `as u8` cast is lossless.
    let kind = i as u8;
    if min_rank == RANK_PAIR && !pair_used && c[i] >= 2 {
        c[i] -= 2;
        stack[len] = Block::Pair(kind);
        decompose(c, i, RANK_TRIPLET, true, stack, len + 1, f);
        c[i] += 2;
    }
    if min_rank <= RANK_TRIPLET && c[i] >= 3 {
        c[i] -= 3;
        stack[len] = Block::Triplet(kind);
        decompose(c, i, RANK_TRIPLET, pair_used, stack, len + 1, f);
        c[i] += 3;
    }
    if i < FIRST_HONOR && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        stack[len] = Block::Sequence(kind);
        decompose(c, i, RANK_SEQUENCE, pair_used, stack, len + 1, f);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn h(s: &str) -> KindCounts {
        parse(s).expect("valid test hand")
    }

    fn decomps(counts: &KindCounts, melds: u8) -> Vec<Vec<Block>> {
        let mut out = Vec::new();
        for_each_decomposition(counts, melds, |b| out.push(b.to_vec()));
        out
    }

    #[test]
    fn standard_complete() {
        assert!(is_complete(&h("123m456p789s11z222z"), 0));
        assert!(is_complete(&h("11122233344455m"), 0));
        // 1112345678999m + 5m: 111 234 55 678 999.
        assert!(is_complete(&h("11123455678999m"), 0));
        assert!(!is_complete(&h("123m456p789s11z223z"), 0));
        // Honors never form sequences.
        assert!(!is_complete(&h("123m456p789s11z234z"), 0));
        // 123m 456p 789s + 11z 22z 3z: two pairs and a single, no fourth set.
        assert!(!is_complete(&h("123m456p789s11223z"), 0));
    }

    #[test]
    fn wrong_size_is_not_complete() {
        // 11 tiles complete as 3 sets + pair but melds = 0 needs 14.
        assert!(!is_complete(&h("123m456p789s11z"), 0));
        assert!(is_complete(&h("123m456p789s11z"), 1));
        assert!(!is_complete(&h("123m456p789s11z"), 2));
        assert!(!is_complete(&h("11z"), 5));
        assert!(is_complete(&h("11z"), 4));
    }

    #[test]
    fn seven_pairs() {
        let sp = h("1122m3344p5566s77z");
        assert!(is_seven_pairs(&sp));
        assert!(is_complete(&sp, 0));
        // Same tiles with a meld count: not 14 − 3 tiles, so false.
        assert!(!is_complete(&sp, 1));
        // Four of a kind is not two pairs.
        let quad = h("1111m3344p5566s77z");
        assert!(!is_seven_pairs(&quad));
        assert!(!is_complete(&quad, 0));
        // Ryanpeikou shape is both seven pairs and standard.
        let rp = h("112233m445566p77z");
        assert!(is_seven_pairs(&rp) && is_standard(&rp));
    }

    #[test]
    fn thirteen_orphans() {
        let k = h("119m19p19s1234567z");
        assert!(is_thirteen_orphans(&k));
        assert!(is_complete(&k, 0));
        assert!(!is_complete(&k, 1));
        // The pair may be any of the thirteen (here 7z).
        assert!(is_complete(&h("19m19p19s12345677z"), 0));
        // Missing 7z, two pairs.
        assert!(!is_thirteen_orphans(&h("1199m19p19s123456z")));
        // A non-yaochu tile instead of the pair.
        assert!(!is_thirteen_orphans(&h("159m19p19s1234567z")));
    }

    #[test]
    fn decompositions_are_enumerated() {
        // 111222333m 456p 77z: 111 222 333 or 123 123 123.
        let d = decomps(&h("111222333m456p77z"), 0);
        assert_eq!(d.len(), 2);
        assert!(d.contains(&vec![
            Block::Triplet(0),
            Block::Triplet(1),
            Block::Triplet(2),
            Block::Sequence(12),
            Block::Pair(33),
        ]));
        assert!(d.contains(&vec![
            Block::Sequence(0),
            Block::Sequence(0),
            Block::Sequence(0),
            Block::Sequence(12),
            Block::Pair(33),
        ]));
        // 111123m + 456p789p99s: 111 + 123 (reachable as triplet-then-sequence
        // or sequence-then-triplet, visited once); 11 + 1123 fails.
        let d = decomps(&h("111123m456p789p99s"), 0);
        assert_eq!(
            d,
            vec![vec![
                Block::Triplet(0),
                Block::Sequence(0),
                Block::Sequence(12),
                Block::Sequence(15),
                Block::Pair(26),
            ]]
        );
        // 11112345678999m (nine gates + 1m): 111 123 456 789 99 only.
        assert_eq!(decomps(&h("11112345678999m"), 0).len(), 1);
        // Honours make no sequences: 111z 222z 333z 555z 77z is four triplets and a pair only,
        // never three runs of East-South-West; 1z2z3z is not a set.
        assert_eq!(
            decomps(&h("111222333555z77z"), 0),
            vec![vec![
                Block::Triplet(27),
                Block::Triplet(28),
                Block::Triplet(29),
                Block::Triplet(31),
                Block::Pair(33),
            ]]
        );
        assert!(decomps(&h("123z456p789s11m"), 1).is_empty());
        // Not complete → no decompositions; wrong meld count → none.
        assert!(decomps(&h("123m456p789s11z223z"), 0).is_empty());
        assert!(decomps(&h("111222333m456p77z"), 1).is_empty());
        // With melds: 345m 77z (melds = 3).
        assert_eq!(
            decomps(&h("345m77z"), 3),
            vec![vec![Block::Sequence(2), Block::Pair(33)]]
        );
    }

    #[test]
    fn block_contains() {
        assert!(Block::Sequence(6).contains(8));
        assert!(!Block::Sequence(6).contains(9));
        assert!(Block::Pair(27).contains(27));
        assert!(!Block::Triplet(27).contains(28));
    }

    /// Greedy `is_standard` agrees with the exhaustive enumerator, which never
    /// repeats a decomposition.
    #[test]
    fn greedy_matches_enumeration() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let mut complete = 0;
        for round in 0..20_000 {
            // Alternate between one suit (dense, many complete hands) and all kinds.
            let span = if round % 2 == 0 { 9 } else { KINDS };
            let mut c = [0u8; KINDS];
            let mut n = 0;
            while n < 14 {
                let k = next() % span;
                if c[k] < 4 {
                    c[k] += 1;
                    n += 1;
                }
            }
            let mut all = decomps(&c, 0);
            let any = !all.is_empty();
            assert_eq!(is_standard(&c), any, "{c:?}");
            // Each multiset of blocks is visited once.
            let n = all.len();
            for d in &mut all {
                d.sort();
            }
            all.sort();
            all.dedup();
            assert_eq!(all.len(), n, "{c:?}");
            complete += usize::from(any);
        }
        assert!(complete > 100, "only {complete} complete hands generated");
    }
}
