//! Shanten (deficiency number) via the `xiangting` crate.
//!
//! `xiangting::calculate_replacement_number` returns the *replacement number*
//! (= shanten + 1, so 0 means complete) as the minimum over standard form,
//! seven pairs and thirteen orphans. It takes only the concealed counts and
//! infers the number of sets still needed as `tiles / 3`, so the meld count is
//! implicit in the tile total; it only considers seven pairs and thirteen
//! orphans when the hand has 13 or 14 tiles (no melds). It rejects totals that
//! are a multiple of 3 or above 14, and counts above 4.
//!
//! Hold-all-four case: `xiangting` never counts a fifth copy of a kind as
//! obtainable. A hand whose only completing tile is a kind it already holds
//! four of (e.g. `123456789m1111z`, or its own test case `1111m123p112233s`)
//! gets replacement number 2, i.e. shanten **1**, not 0; the same holds for
//! seven pairs, where it counts distinct kinds (four of a kind is one pair).
//! This matches [`waits`](super::waits()), which leaves such kinds out, so for
//! every valid `13 − 3·melds` hand `shanten(h, m) == 0` exactly when
//! `!waits(h, m).is_empty()` — there is no exception to document beyond this
//! agreement (checked by a randomised test in `waits`).

use super::{complete_size, total, KindCounts};
use crate::rules::Players;
use xiangting::{calculate_replacement_number, PlayerCount};

/// Returned by [`shanten`] for input that is not a valid hand.
pub const INVALID_SHANTEN: i8 = i8::MAX;

/// The xiangting crate's rules of `players` (with three, no 2m–8m and no sequence through 1m
/// or 9m).
pub(crate) fn player_count(players: Players) -> PlayerCount {
    match players {
        Players::Four => PlayerCount::Four,
        Players::Three => PlayerCount::Three,
    }
}

/// Shanten of a concealed hand with `melds` declared sets: the minimum over
/// standard form, seven pairs and thirteen orphans (the latter two only when
/// `melds == 0`). `0` = tenpai, `−1` = complete (only possible with
/// `14 − 3·melds` tiles; for such a hand any other value is the shanten after
/// the best discard). Tile availability outside the hand is ignored, but a
/// fifth copy of a kind held four times is never assumed (see module docs).
///
/// Returns [`INVALID_SHANTEN`] when `melds > 4`, when the tile total is
/// neither `13 − 3·melds` nor `14 − 3·melds`, or when a count exceeds 4.
pub fn shanten(concealed: &KindCounts, melds: u8) -> i8 {
    shanten_for(concealed, melds, Players::Four)
}

/// [`shanten`] under the rules of `players`: with three players 1m and 9m cannot form or wait
/// on a sequence (there is no 2m–8m), as the `xiangting` crate's three-player count has it
/// (statistics.md §24), so a hand such as `1111m` + … is further from complete than with four.
pub fn shanten_for(concealed: &KindCounts, melds: u8, players: Players) -> i8 {
    let Some(full) = complete_size(melds) else {
        return INVALID_SHANTEN;
    };
    let n = total(concealed);
    if n != full && n + 1 != full {
        return INVALID_SHANTEN;
    }
    match calculate_replacement_number(concealed, player_count(players)) {
        Ok(r) => i8::try_from(r).map_or(INVALID_SHANTEN, |r| r - 1),
        Err(_) => INVALID_SHANTEN,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use crate::tile::KINDS;

    fn sh(s: &str, melds: u8) -> i8 {
        shanten(&parse(s).expect("valid test hand"), melds)
    }

    /// Three-player rules (§24): 1m and 9m cannot form a sequence, so `1111m 123p 11s 7777z`
    /// (the fourth 1m and the fourth 7z dead) is 2-shanten, where four-player rules count
    /// 1111m as 111m + a 1m waiting for 2m3m: 1-shanten; the xiangting crate's own example
    /// `1111m111122233z` likewise.
    #[test]
    fn three_player_shanten() {
        let h = parse("1111m123p11s7777z").unwrap();
        assert_eq!(shanten(&h, 0), 1);
        assert_eq!(shanten_for(&h, 0, Players::Three), 2);
        assert_eq!(shanten_for(&h, 0, Players::Four), 1);
        // Nothing with 2m–8m in it changes: a hand of other suits has the same shanten.
        let h = parse("123p456p789s1122z").unwrap();
        assert_eq!(shanten_for(&h, 0, Players::Three), shanten(&h, 0));
        assert_eq!(
            shanten_for(&parse("1m").unwrap(), 5, Players::Three),
            INVALID_SHANTEN
        );
    }

    #[test]
    fn tenpai_and_complete() {
        // 123m 456p 789s 11z + 23m: ryanmen tenpai.
        assert_eq!(sh("12323m456p789s11z", 0), 0);
        // Same + 1m: complete.
        assert_eq!(sh("112323m456p789s11z", 0), -1);
    }

    #[test]
    fn standard_shanten() {
        // 123m 456p 45s 78s 11z 5z: 2 sets, 2 ryanmen taatsu, a pair, one
        // floating tile: 8 − 2·2 − 2 − 1 = 1.
        assert_eq!(sh("123m456p4578s115z", 0), 1);
        // 123m 456p 147s 1234z: 2 sets, no taatsu (1-4-7 are 3 apart), no
        // pair: 8 − 2·2 = 4. Seven pairs: 0 pairs, 11 kinds → 7 replacements;
        // thirteen orphans: 1m 1s 1z..4z = 6 kinds → 8. Min 4.
        assert_eq!(sh("123m456p147s1234z", 0), 4);
    }

    #[test]
    fn chiitoitsu_one_shanten() {
        // 11m 99m 11p 99p 1s 9s 11z 7z: seven pairs has 5 pairs over 8 kinds
        // → 2 replacements → shanten 1. Standard: no sequences or taatsu
        // beyond the pairs (1-9 gaps), so at best 0 sets + 4 pairs used as
        // 1 pair + 3 taatsu: 8 − 3 − 1 = 4. Thirteen orphans: 1m 9m 1p 9p 1s
        // 9s 1z 7z = 8 kinds + pair → 14 − 8 − 1 = 5 → shanten 4.
        assert_eq!(sh("1199m1199p19s117z", 0), 1);
        // Six pairs + a single 1s: seven-pairs tenpai.
        assert_eq!(sh("1199m1199p1s1177z", 0), 0);
    }

    #[test]
    fn kokushi() {
        assert_eq!(sh("19m19p19s1234567z", 0), 0);
        assert_eq!(sh("119m19p19s123456z", 0), 0);
        // 19m 19p 19s 12345z (11 kinds, no pair) + 5m 5p: 14 − 11 − 0 = 3
        // replacements → shanten 2 (standard and seven pairs are far worse).
        assert_eq!(sh("159m159p19s12345z", 0), 2);
    }

    #[test]
    fn with_melds() {
        // melds = 2: 23p 789s 55z → tenpai.
        assert_eq!(sh("23p789s55z", 2), 0);
        // melds = 3: 57m 1z 2z: one kanchan taatsu, no pair → needs the 6m
        // and a pair partner: 1-shanten.
        assert_eq!(sh("57m12z", 3), 1);
        // melds = 4: a single tile is always tenpai; a pair is complete.
        assert_eq!(sh("7z", 4), 0);
        assert_eq!(sh("77z", 4), -1);
        // melds = 2, 1122m 33p 4p: seven pairs does not apply. Needs 2 sets +
        // pair; best is 11m pair + 22m + 34p taatsu (or 12m 12m): no wait
        // yet, but one draw (2m) gives 11m 222m 34p → tenpai → 1-shanten.
        assert_eq!(sh("1122m334p", 2), 1);
    }

    #[test]
    fn invalid_input() {
        assert_eq!(sh("123m", 0), INVALID_SHANTEN);
        assert_eq!(sh("7z", 5), INVALID_SHANTEN);
        assert_eq!(sh("123m456p789s11z", 0), INVALID_SHANTEN);
        let mut five = [0u8; KINDS];
        five[0] = 5;
        five[1] = 5;
        five[2] = 3;
        assert_eq!(shanten(&five, 0), INVALID_SHANTEN);
    }
}
