//! §7 discard engines scored against the players' choices (何切る一致率): the position of a
//! decision, its tile-efficiency analysis, the built-in engines, and exact agreement tallies.
//!
//! Agreement of one decision is 1/|answer| when the player's kind is in the answered set, else
//! 0; an answer with a kind that is not legal counts 0 and as invalid. Sums are kept exactly,
//! in units of 1/lcm(1..=34) (every |answer| divides it), so totals do not depend on the order
//! in which decisions are added or on the number of threads.
//!
//! `replay` rebuilds each decision's public state (rivers, every seat's melds, the visible
//! copies) from the `decisions` frame's own rows.

pub(crate) mod every;
pub mod replay;

use std::fmt::Write as _;
use std::ops::AddAssign;

use crate::hand::{best_discards_for, shanten_after_for, ukeire_for, KindCounts};
use crate::rules::Players;
use crate::tile::KINDS;

/// What an engine sees of a decision, reduced to what the built-in engines need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The seat's concealed copies of each kind before the discard (14 − 3·melds tiles).
    pub concealed: KindCounts,
    pub melds: u8,
    /// Legal kinds (bit k).
    pub legal: u64,
    /// Kind of the tile just drawn (`None` after a call).
    pub drawn: Option<u8>,
    /// Publicly visible copies (§0) at the decision (every seat's kita Norths included, §24).
    pub visible: KindCounts,
    /// The table's rules: shanten and ukeire are the three-player ones in a three-player game.
    pub players: Players,
}

/// The tile efficiency of every legal discard: the lowest shanten any gives, the kinds that
/// give it, and among those the kinds with the most ukeire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub best_shanten: i8,
    pub min_shanten: u64,
    pub max_ukeire: u64,
    /// The ukeire of the `max_ukeire` kinds.
    pub ukeire: u32,
}

/// The kinds of bit set `m`, lowest first.
pub fn kinds_of(m: u64) -> impl Iterator<Item = usize> {
    (0..KINDS).filter(move |&k| m >> k & 1 == 1)
}

/// Analyses a position (its legal discards' shanten, [`lowest_discards`], then the ukeire of
/// the best ones).
pub fn analyse(p: &Position) -> Analysis {
    let (best, min_shanten) = lowest_discards(&p.concealed, p.melds, p.legal, p.players);
    let mut most = 0u32;
    let mut max_ukeire = 0u64;
    for k in kinds_of(min_shanten) {
        let u = ukeire_for(&p.concealed, k, &p.visible, p.players);
        if u > most || max_ukeire == 0 {
            most = u;
            max_ukeire = 0;
        }
        if u == most {
            max_ukeire |= 1 << k;
        }
    }
    Analysis {
        best_shanten: best,
        min_shanten,
        max_ukeire,
        ukeire: most,
    }
}

/// The lowest shanten a discard among `legal` (bit k) leaves `hand` (14 − 3·melds tiles), and
/// the legal kinds that leave it; `(i8::MAX, 0)` when `legal` is empty. When a discard that
/// keeps the hand's lowest shanten is legal (almost always), they come from one call;
/// otherwise every legal kind is tried.
pub(crate) fn lowest_discards(
    hand: &KindCounts,
    melds: u8,
    legal: u64,
    players: Players,
) -> (i8, u64) {
    if let Some((best, set)) = best_discards_for(hand, players) {
        if set & legal != 0 {
            return (best, set & legal);
        }
    }
    let mut best = i8::MAX;
    let mut set = 0u64;
    for k in kinds_of(legal) {
        let s = shanten_after_for(hand, melds, k, players);
        if s < best {
            best = s;
            set = 0;
        }
        if s == best {
            set |= 1 << k;
        }
    }
    (best, set)
}

/// The built-in engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// The player's own choice (agreement 1 by construction: a check of the harness).
    Player,
    /// The drawn kind after a draw, the lowest legal kind after a call.
    Tsumogiri,
    /// The legal kinds whose discard gives the lowest shanten.
    MinShanten,
    /// Among those, the kinds with the most ukeire (牌効率).
    MaxUkeire,
}

impl Builtin {
    /// Every built-in engine, in report order.
    pub const ALL: [Builtin; 4] = [
        Builtin::Player,
        Builtin::Tsumogiri,
        Builtin::MinShanten,
        Builtin::MaxUkeire,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::Player => "player",
            Builtin::Tsumogiri => "tsumogiri",
            Builtin::MinShanten => "min-shanten",
            Builtin::MaxUkeire => "max-ukeire",
        }
    }

    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The engine's answer (a set of kinds) to a decision whose player discarded `discard`.
    pub fn answer(self, p: &Position, a: &Analysis, discard: usize) -> u64 {
        match self {
            Builtin::Player => 1 << discard,
            Builtin::Tsumogiri => match p.drawn {
                Some(k) => 1 << k,
                None => p.legal & p.legal.wrapping_neg(),
            },
            Builtin::MinShanten => a.min_shanten,
            Builtin::MaxUkeire => a.max_ukeire,
        }
    }
}

/// lcm(1, 2, …, 34): one decision's agreement 1/n is `AGREEMENT_UNIT / n` units exactly.
pub const AGREEMENT_UNIT: u128 = 144_403_552_893_600;

/// One decision's agreement in units of 1/[`AGREEMENT_UNIT`], and whether the answer was invalid
/// (empty, or holding a kind that is not legal).
pub fn agreement(answer: u64, legal: u64, discard: usize) -> (u128, bool) {
    if answer == 0 || answer & !legal != 0 {
        return (0, true);
    }
    if answer >> discard & 1 == 1 {
        (AGREEMENT_UNIT / u128::from(answer.count_ones()), false)
    } else {
        (0, false)
    }
}

/// An engine's decisions, exact agreement sum and invalid answers over a group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub decisions: u64,
    /// Σ agreement in units of 1/[`AGREEMENT_UNIT`].
    pub units: u128,
    pub invalid: u64,
}

impl Tally {
    /// Mean agreement (NaN without decisions).
    pub fn mean(&self) -> f64 {
        self.sum() / self.decisions as f64
    }

    /// Σ agreement.
    pub fn sum(&self) -> f64 {
        (self.units / AGREEMENT_UNIT) as f64
            + (self.units % AGREEMENT_UNIT) as f64 / AGREEMENT_UNIT as f64
    }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, o: &Tally) {
        self.decisions += o.decisions;
        self.units += o.units;
        self.invalid += o.invalid;
    }
}

/// The report's groups: (section, value) in report order. A decision is in `all`, one value of
/// each other section.
pub const GROUPS: [(&str, &str); 12] = [
    ("all", "all"),
    ("after", "draw"),
    ("after", "call"),
    ("best_shanten", "0"),
    ("best_shanten", "1"),
    ("best_shanten", "2"),
    ("best_shanten", "3+"),
    ("riichi_opponents", "0"),
    ("riichi_opponents", "1+"),
    ("turn", "1-6"),
    ("turn", "7-12"),
    ("turn", "13+"),
];

/// The [`GROUPS`] a decision belongs to (`all` first).
pub fn groups_of(after_call: bool, best_shanten: i8, riichi_opponents: u8, turn: u8) -> [usize; 5] {
    let shanten = 3 + best_shanten.clamp(0, 3) as usize;
    let opponents = 7 + usize::from(riichi_opponents > 0);
    let turn = match turn {
        ..=6 => 9,
        7..=12 => 10,
        _ => 11,
    };
    [0, 1 + usize::from(after_call), shanten, opponents, turn]
}

/// Everything the §7 report counts: decisions, forced ones, the players' own efficiency and
/// every engine's tallies per group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Totals {
    pub decisions: u64,
    pub forced: u64,
    /// Unforced decisions per group, and how many of them discarded a lowest-shanten kind and
    /// a most-ukeire kind.
    pub unforced: [u64; GROUPS.len()],
    pub player_min_shanten: [u64; GROUPS.len()],
    pub player_max_ukeire: [u64; GROUPS.len()],
    /// Per engine (in the order given), per group.
    pub engines: Vec<[Tally; GROUPS.len()]>,
}

impl Totals {
    pub fn new(engines: usize) -> Totals {
        Totals {
            decisions: 0,
            forced: 0,
            unforced: [0; GROUPS.len()],
            player_min_shanten: [0; GROUPS.len()],
            player_max_ukeire: [0; GROUPS.len()],
            engines: vec![[Tally::default(); GROUPS.len()]; engines],
        }
    }

    /// Adds one unforced decision: its groups, the player's kind, its analysis and each
    /// engine's answer.
    pub fn add_unforced(
        &mut self,
        groups: &[usize; 5],
        discard: usize,
        legal: u64,
        analysis: &Analysis,
        answers: &[u64],
    ) {
        self.decisions += 1;
        for &g in groups {
            self.unforced[g] += 1;
            self.player_min_shanten[g] += analysis.min_shanten >> discard & 1;
            self.player_max_ukeire[g] += analysis.max_ukeire >> discard & 1;
        }
        for (tallies, &answer) in self.engines.iter_mut().zip(answers) {
            let (units, invalid) = agreement(answer, legal, discard);
            for &g in groups {
                let t = &mut tallies[g];
                t.decisions += 1;
                t.units += units;
                t.invalid += u64::from(invalid);
            }
        }
    }

    /// Adds one forced decision (counted, not scored).
    pub fn add_forced(&mut self) {
        self.decisions += 1;
        self.forced += 1;
    }
}

impl AddAssign<&Totals> for Totals {
    fn add_assign(&mut self, o: &Totals) {
        self.decisions += o.decisions;
        self.forced += o.forced;
        for g in 0..GROUPS.len() {
            self.unforced[g] += o.unforced[g];
            self.player_min_shanten[g] += o.player_min_shanten[g];
            self.player_max_ukeire[g] += o.player_max_ukeire[g];
        }
        for (a, b) in self.engines.iter_mut().zip(&o.engines) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

/// A three-player game's `,"players":3,"kitas":[…]` (every seat's kita Norths, §24) in an
/// engine request (§7's decisions, §16's moments, §23's decisions); nothing for a four-player
/// game.
pub(crate) fn write_players(out: &mut String, players: Players, kitas: [u8; 4]) {
    if players == Players::Three {
        let k = kitas;
        let _ = write!(
            out,
            ",\"players\":3,\"kitas\":[{},{},{},{}]",
            k[0], k[1], k[2], k[3]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_is_the_lcm_of_one_to_34() {
        fn gcd(a: u128, b: u128) -> u128 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let lcm = (1..=34u128).fold(1, |l, n| l / gcd(l, n) * n);
        assert_eq!(AGREEMENT_UNIT, lcm);
    }

    #[test]
    fn agreement_of_sets_and_invalid_answers() {
        let legal = 0b1110;
        assert_eq!(agreement(0b0010, legal, 1), (AGREEMENT_UNIT, false));
        assert_eq!(agreement(0b0110, legal, 1), (AGREEMENT_UNIT / 2, false));
        assert_eq!(agreement(0b0100, legal, 1), (0, false));
        // A kind that is not legal makes the whole answer invalid; so does an empty one.
        assert_eq!(agreement(0b0011, legal, 1), (0, true));
        assert_eq!(agreement(0, legal, 1), (0, true));
        let t = Tally {
            decisions: 3,
            units: AGREEMENT_UNIT + AGREEMENT_UNIT / 2 + AGREEMENT_UNIT / 3,
            invalid: 0,
        };
        assert!((t.sum() - 11.0 / 6.0).abs() < 1e-15);
    }

    fn counts(s: &str) -> KindCounts {
        crate::hand::parse(s).unwrap()
    }

    /// EXPECTED_V2.md §3.4 D9: seat 0 after its pon of 1z, `05m8m 234789p 237s` (the red 5m);
    /// visible: 9s (indicator), 6z 4z 1p 9m 5z (rivers), 345m 789p 111z (melds). Lowest shanten
    /// 1 by 5m, 8m or 7s; ukeire 14, 13, 13 (the visible black 5m costs 8m and 7s one), so
    /// max-ukeire answers 5m.
    #[test]
    fn analysis_worked_by_hand() {
        let p = Position {
            concealed: counts("58m234789p237s"),
            melds: 1,
            legal: kinds_mask("5m 8m 2p 3p 4p 7p 8p 9p 2s 3s 7s"),
            drawn: None,
            visible: counts("345m9m1p789p9s111456z"),
            players: Players::Four,
        };
        let a = analyse(&p);
        assert_eq!(a.best_shanten, 1);
        assert_eq!(a.min_shanten, kinds_mask("5m 8m 7s"));
        assert_eq!((a.max_ukeire, a.ukeire), (kinds_mask("5m"), 14));
        assert_eq!(Builtin::Tsumogiri.answer(&p, &a, 4), kinds_mask("5m"));
        // D8, the declaration: `234m 567p 2234678s 1z` drawn 3s; lowest shanten 0 by 2s or 1z;
        // ukeire 6 (2s 5s) and 3 (1z): max-ukeire answers 1z.
        let p = Position {
            concealed: counts("234m567p2234678s1z"),
            melds: 0,
            legal: kinds_mask("2m 3m 4m 5p 6p 7p 2s 3s 4s 6s 7s 8s 1z"),
            drawn: Some(20),
            visible: counts("345m9m1p789p9s456z"),
            players: Players::Four,
        };
        let a = analyse(&p);
        assert_eq!((a.best_shanten, a.min_shanten), (0, kinds_mask("2s 1z")));
        assert_eq!((a.max_ukeire, a.ukeire), (kinds_mask("1z"), 6));
        assert_eq!(Builtin::Tsumogiri.answer(&p, &a, 27), kinds_mask("3s"));
    }

    /// Three players (§24): `1111m 123p 5p 11s 7777z` after a draw (14 tiles, every held kind
    /// legal). Discarding 1m leaves `111m 123p 5p 11s 7777z`: three sets, the 11s pair and
    /// the singles 5p and 7z: 1-shanten under both rules; discarding 7z likewise (`1111m
    /// 123p 5p 11s 777z`). Discarding 5p leaves `1111m 123p 11s 7777z`: 1-shanten with four
    /// players (the fourth 1m may become 12m or 13m), 2 with three, where 1m forms no
    /// sequence and the fourth 1m and 7z are dead (`hand::shanten`'s example). So
    /// min-shanten answers 1m, 5p, 7z with four players and 1m, 7z with three.
    #[test]
    fn three_player_analysis_uses_three_player_shanten() {
        let mut p = Position {
            concealed: counts("1111m1235p11s7777z"),
            melds: 0,
            legal: kinds_mask("1m 1p 2p 3p 5p 1s 7z"),
            drawn: Some(13),
            visible: [0; KINDS],
            players: Players::Four,
        };
        assert_eq!(analyse(&p).min_shanten, kinds_mask("1m 5p 7z"));
        p.players = Players::Three;
        let a = analyse(&p);
        assert_eq!((a.best_shanten, a.min_shanten), (1, kinds_mask("1m 7z")));
        assert_eq!(Builtin::MinShanten.answer(&p, &a, 13), kinds_mask("1m 7z"));
    }

    /// When no discard keeping the lowest shanten is legal (swap-calling forbids it after a
    /// call), every legal kind is tried. `123p 456p 78s 11z 9m` after a call (1 meld, 11
    /// tiles): only 9m keeps shanten 0 (`123p 456p 78s 11z`, waiting on 6s-9s); say 9m is
    /// forbidden and 7s, 2p, 1z, 8s are legal. Each of those leaves shanten 1 (7s or 8s: three
    /// sets and the 1z pair with the meld, 9m and one s single, 8 − 2·3 − 1 = 1; 2p: 13p and 78s
    /// partial, 456p set, 1z pair, 8 − 2·2 − 2 − 1 = 1; 1z: three sets, 78s, no pair, 8 − 2·3
    /// − 1 = 1), so min-shanten is all four of them at shanten 1.
    #[test]
    fn analysis_when_no_lowest_discard_is_legal() {
        let concealed = counts("123456p78s9m11z");
        assert_eq!(
            crate::hand::best_discards(&concealed),
            Some((0, kinds_mask("9m")))
        );
        let p = Position {
            concealed,
            melds: 1,
            legal: kinds_mask("7s 2p 1z 8s"),
            drawn: None,
            visible: [0; KINDS],
            players: Players::Four,
        };
        let a = analyse(&p);
        assert_eq!(a.best_shanten, 1);
        assert_eq!(a.min_shanten, kinds_mask("2p 7s 8s 1z"));
        // With 9m legal as well, only 9m (shanten 0).
        let a = analyse(&Position {
            legal: p.legal | kinds_mask("9m"),
            ..p.clone()
        });
        assert_eq!((a.best_shanten, a.min_shanten), (0, kinds_mask("9m")));
    }

    fn kinds_mask(names: &str) -> u64 {
        names
            .split(' ')
            .map(|n| crate::tile::parse_kind(n).unwrap())
            .fold(0, |m, k| m | 1 << k)
    }

    #[test]
    fn groups() {
        assert_eq!(groups_of(false, 0, 0, 1), [0, 1, 3, 7, 9]);
        assert_eq!(groups_of(true, 5, 2, 13), [0, 2, 6, 8, 11]);
        assert_eq!(groups_of(false, 2, 1, 12), [0, 1, 5, 8, 10]);
    }

    /// `haifu agree` tallies batches of decisions apart and adds them: the sum of two batches
    /// is the tally of both at once. Legal kinds 0-3 (1m-4m); engine 0 answers {1m}, engine 1
    /// {1m, 2m}, engine 2 {9m} (not legal). Batch a: an unforced decision after a draw,
    /// best shanten 1, no riichi, turn 3 (groups all, draw, 1, 0, 1-6), the player discarding
    /// 1m (both lowest shanten and most ukeire); and a forced one. Batch b: an unforced one
    /// after a call, shanten 0, one riichi, turn 8 (all, call, 0, 1+, 7-12), discarding 2m
    /// (lowest shanten, not most ukeire). Over both, in `all`: 2 unforced decisions; the
    /// players 2 lowest-shanten and 1 most-ukeire discards; engine 0: agreement 1 + 0 = 1;
    /// engine 1: 1/2 + 1/2 = 1; engine 2: 0 and 2 invalid answers.
    #[test]
    fn totals_add_as_one_batch() {
        let legal = 0b1111;
        let answers = [0b1, 0b11, 1 << 8];
        let a1 = Analysis {
            best_shanten: 1,
            min_shanten: 0b11,
            max_ukeire: 0b1,
            ukeire: 20,
        };
        let a2 = Analysis {
            best_shanten: 0,
            ..a1
        };
        let (g1, g2) = (groups_of(false, 1, 0, 3), groups_of(true, 0, 1, 8));
        let mut a = Totals::new(3);
        a.add_unforced(&g1, 0, legal, &a1, &answers);
        a.add_forced();
        let mut b = Totals::new(3);
        b.add_unforced(&g2, 1, legal, &a2, &answers);
        let mut both = Totals::new(3);
        both.add_unforced(&g1, 0, legal, &a1, &answers);
        both.add_forced();
        both.add_unforced(&g2, 1, legal, &a2, &answers);
        let mut sum = Totals::new(3);
        sum += &a;
        sum += &b;
        assert_eq!(sum, both);
        assert_eq!((sum.decisions, sum.forced), (3, 1));
        assert_eq!(sum.unforced[0], 2);
        assert_eq!(
            (sum.player_min_shanten[0], sum.player_max_ukeire[0]),
            (2, 1)
        );
        let unit = AGREEMENT_UNIT;
        let tally = |decisions, units, invalid| Tally {
            decisions,
            units,
            invalid,
        };
        assert_eq!(sum.engines[0][0], tally(2, unit, 0));
        assert_eq!(sum.engines[1][0], tally(2, unit, 0));
        assert_eq!(sum.engines[2][0], tally(2, 0, 2));
        // The call group holds batch b's decision alone: engine 0 missed it, engine 1 half.
        assert_eq!(sum.engines[0][2], tally(1, 0, 0));
        assert_eq!(sum.engines[1][2], tally(1, unit / 2, 0));
    }
}
