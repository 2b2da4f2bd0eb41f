//! The 19 suji categories of docs/definitions.md §2 and their §6 names, and the 25 of a
//! three-player game (§24: 1m and 9m have no suji and are categorised as honours are, in a
//! group `19m` of their own).
//!
//! A category depends only on the riichi seat's river (as a set of kinds, so a
//! red five counts as its kind) and, for honours, on the number of publicly
//! visible copies. In §4 the genbutsu set (river at declaration plus every
//! later discard) stands for the river.

use std::fmt;

use crate::rules::Players;
use crate::tile::KINDS;

/// Danger category of a tile kind against one riichi seat (§2).
///
/// The declaration order is the order of §6 and of [`Category::ALL`];
/// [`Category::index`] is the position in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Honour not in the river, 0 publicly visible copies (生牌).
    Honor0,
    /// Honour not in the river, 1 publicly visible copy.
    Honor1,
    /// Honour not in the river, 2 publicly visible copies.
    Honor2,
    /// Honour not in the river, 3 publicly visible copies.
    Honor3,
    /// Honour not in the river, 4 publicly visible copies.
    Honor4,
    /// Honour in the river (現物).
    HonorGenbutsu,
    /// 1 or 9, not in the river, its suji (4 resp. 6) not in the river.
    N19Musuji,
    /// 1 or 9, not in the river, 4 (for 1) resp. 6 (for 9) in the river.
    N19Suji,
    /// 1 or 9 in the river.
    N19Genbutsu,
    /// 2 or 8, not in the river, 5 not in the river.
    N28Musuji,
    /// 2 or 8, not in the river, 5 in the river.
    N28Suji,
    /// 2 or 8 in the river.
    N28Genbutsu,
    /// 3 or 7, not in the river, 6 (for 3) resp. 4 (for 7) not in the river.
    N37Musuji,
    /// 3 or 7, not in the river, 6 (for 3) resp. 4 (for 7) in the river.
    N37Suji,
    /// 3 or 7 in the river.
    N37Genbutsu,
    /// 4, 5 or 6 (n), not in the river, neither n−3 nor n+3 in the river.
    N456Musuji,
    /// 4, 5 or 6 (n), not in the river, exactly one of n−3, n+3 in the river (片スジ).
    N456Katasuji,
    /// 4, 5 or 6 (n), not in the river, both n−3 and n+3 in the river (中スジ).
    N456Nakasuji,
    /// 4, 5 or 6 in the river.
    N456Genbutsu,
    /// Three players: 1m or 9m, not in the river, 0 publicly visible copies.
    Man19_0,
    /// Three players: 1m or 9m, not in the river, 1 publicly visible copy.
    Man19_1,
    /// Three players: 1m or 9m, not in the river, 2 publicly visible copies.
    Man19_2,
    /// Three players: 1m or 9m, not in the river, 3 publicly visible copies.
    Man19_3,
    /// Three players: 1m or 9m, not in the river, 4 publicly visible copies.
    Man19_4,
    /// Three players: 1m or 9m in the river.
    Man19Genbutsu,
}

impl Category {
    /// All 25 categories: the 19 of a four-player game in §6 order, then the six `19m-*` of
    /// a three-player one (§24); `ALL[c.index()] == c`.
    pub const ALL: [Category; 25] = [
        Category::Honor0,
        Category::Honor1,
        Category::Honor2,
        Category::Honor3,
        Category::Honor4,
        Category::HonorGenbutsu,
        Category::N19Musuji,
        Category::N19Suji,
        Category::N19Genbutsu,
        Category::N28Musuji,
        Category::N28Suji,
        Category::N28Genbutsu,
        Category::N37Musuji,
        Category::N37Suji,
        Category::N37Genbutsu,
        Category::N456Musuji,
        Category::N456Katasuji,
        Category::N456Nakasuji,
        Category::N456Genbutsu,
        Category::Man19_0,
        Category::Man19_1,
        Category::Man19_2,
        Category::Man19_3,
        Category::Man19_4,
        Category::Man19Genbutsu,
    ];

    /// The categories of a game of `players`: the first 19 of [`Category::ALL`] with four
    /// players, all 25 with three (1p/9p/1s/9s stay in `19-*`).
    pub fn of(players: Players) -> &'static [Category] {
        match players {
            Players::Four => &Category::ALL[..19],
            Players::Three => &Category::ALL,
        }
    }

    /// Position of `self` in [`Category::ALL`] (0..25).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The §6 name: `honor-0` … `honor-4`, `honor-genbutsu`, `19-musuji`,
    /// `19-suji`, `19-genbutsu`, `28-…`, `37-…`, `456-musuji`, `456-katasuji`,
    /// `456-nakasuji`, `456-genbutsu`.
    pub fn name(self) -> &'static str {
        match self {
            Category::Honor0 => "honor-0",
            Category::Honor1 => "honor-1",
            Category::Honor2 => "honor-2",
            Category::Honor3 => "honor-3",
            Category::Honor4 => "honor-4",
            Category::HonorGenbutsu => "honor-genbutsu",
            Category::N19Musuji => "19-musuji",
            Category::N19Suji => "19-suji",
            Category::N19Genbutsu => "19-genbutsu",
            Category::N28Musuji => "28-musuji",
            Category::N28Suji => "28-suji",
            Category::N28Genbutsu => "28-genbutsu",
            Category::N37Musuji => "37-musuji",
            Category::N37Suji => "37-suji",
            Category::N37Genbutsu => "37-genbutsu",
            Category::N456Musuji => "456-musuji",
            Category::N456Katasuji => "456-katasuji",
            Category::N456Nakasuji => "456-nakasuji",
            Category::N456Genbutsu => "456-genbutsu",
            Category::Man19_0 => "19m-0",
            Category::Man19_1 => "19m-1",
            Category::Man19_2 => "19m-2",
            Category::Man19_3 => "19m-3",
            Category::Man19_4 => "19m-4",
            Category::Man19Genbutsu => "19m-genbutsu",
        }
    }

    /// Inverse of [`Category::name`]; exact, case-sensitive match.
    pub fn from_name(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == s)
    }

    /// The §2 group row the category belongs to: `honor`, `19`, `28`, `37`, `456`, `19m`.
    pub fn group(self) -> &'static str {
        match self {
            Category::Honor0
            | Category::Honor1
            | Category::Honor2
            | Category::Honor3
            | Category::Honor4
            | Category::HonorGenbutsu => "honor",
            Category::N19Musuji | Category::N19Suji | Category::N19Genbutsu => "19",
            Category::N28Musuji | Category::N28Suji | Category::N28Genbutsu => "28",
            Category::N37Musuji | Category::N37Suji | Category::N37Genbutsu => "37",
            Category::N456Musuji
            | Category::N456Katasuji
            | Category::N456Nakasuji
            | Category::N456Genbutsu => "456",
            Category::Man19_0
            | Category::Man19_1
            | Category::Man19_2
            | Category::Man19_3
            | Category::Man19_4
            | Category::Man19Genbutsu => "19m",
        }
    }

    /// True for the five 現物 categories (kind in the river).
    pub fn is_genbutsu(self) -> bool {
        matches!(
            self,
            Category::HonorGenbutsu
                | Category::N19Genbutsu
                | Category::N28Genbutsu
                | Category::N37Genbutsu
                | Category::N456Genbutsu
                | Category::Man19Genbutsu
        )
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Category (§2) of kind `k` (0..34) for a riichi seat whose river, as a set of
/// kinds, is `river`; `visible[k]` is the number of publicly visible copies of
/// `k` and is read for honours only (values above 4 count as 4).
///
/// Only `river` decides suji and genbutsu, and only within `k`'s own suit.
/// Panics if `k >= 34`. The four-player categories ([`category_for`]).
pub fn category(k: usize, river: &[bool; KINDS], visible: &[u8; KINDS]) -> Category {
    category_for(k, river, visible, Players::Four)
}

/// [`category`] in a game of `players`: with three players 1m and 9m are categorised by
/// publicly visible copies as honours are (`19m-0` … `19m-4`, `19m-genbutsu`, §24).
pub fn category_for(
    k: usize,
    river: &[bool; KINDS],
    visible: &[u8; KINDS],
    players: Players,
) -> Category {
    if players == Players::Three && (k == 0 || k == 8) {
        if river[k] {
            return Category::Man19Genbutsu;
        }
        return match visible[k] {
            0 => Category::Man19_0,
            1 => Category::Man19_1,
            2 => Category::Man19_2,
            3 => Category::Man19_3,
            _ => Category::Man19_4,
        };
    }
    if k >= 27 {
        if river[k] {
            return Category::HonorGenbutsu;
        }
        return match visible[k] {
            0 => Category::Honor0,
            1 => Category::Honor1,
            2 => Category::Honor2,
            3 => Category::Honor3,
            _ => Category::Honor4,
        };
    }
    let base = k - k % 9;
    let n = k % 9 + 1; // 1..=9
    let in_river = |m: usize| river[base + m - 1];
    match n {
        1 | 9 => {
            let suji = if n == 1 { 4 } else { 6 };
            if river[k] {
                Category::N19Genbutsu
            } else if in_river(suji) {
                Category::N19Suji
            } else {
                Category::N19Musuji
            }
        }
        2 | 8 => {
            if river[k] {
                Category::N28Genbutsu
            } else if in_river(5) {
                Category::N28Suji
            } else {
                Category::N28Musuji
            }
        }
        3 | 7 => {
            let suji = if n == 3 { 6 } else { 4 };
            if river[k] {
                Category::N37Genbutsu
            } else if in_river(suji) {
                Category::N37Suji
            } else {
                Category::N37Musuji
            }
        }
        _ => {
            // n is 4, 5 or 6: both n−3 and n+3 lie in 1..=9.
            if river[k] {
                Category::N456Genbutsu
            } else {
                match (in_river(n - 3), in_river(n + 3)) {
                    (true, true) => Category::N456Nakasuji,
                    (false, false) => Category::N456Musuji,
                    _ => Category::N456Katasuji,
                }
            }
        }
    }
}

/// [`category`] for all 34 kinds: `categories(river, visible)[k] == category(k, river, visible)`.
pub fn categories(river: &[bool; KINDS], visible: &[u8; KINDS]) -> [Category; KINDS] {
    categories_for(river, visible, Players::Four)
}

/// [`category_for`] for all 34 kinds (with three players the absent 2m–8m get a category
/// too, which no unit of theirs ever reads).
pub fn categories_for(
    river: &[bool; KINDS],
    visible: &[u8; KINDS],
    players: Players,
) -> [Category; KINDS] {
    std::array::from_fn(|k| category_for(k, river, visible, players))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// River containing exactly the given kinds.
    fn river(kinds: &[usize]) -> [bool; KINDS] {
        let mut r = [false; KINDS];
        for &k in kinds {
            r[k] = true;
        }
        r
    }

    // Kind indices used below: 1m=0 … 9m=8, 1p=9 … 9p=17, 1s=18 … 9s=26, 1z=27 … 7z=33.

    #[test]
    fn names_round_trip_and_order() {
        for (i, c) in Category::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Category::from_name(c.name()), Some(c));
            assert_eq!(c.to_string(), c.name());
        }
        assert_eq!(Category::from_name("honor-5"), None);
        assert_eq!(Category::from_name("Honor-0"), None);
        assert_eq!(Category::ALL[0].name(), "honor-0");
        assert_eq!(Category::ALL[18].name(), "456-genbutsu");
        let genbutsu: Vec<_> = Category::ALL
            .into_iter()
            .filter(|c| c.is_genbutsu())
            .collect();
        assert_eq!(
            genbutsu,
            [
                Category::HonorGenbutsu,
                Category::N19Genbutsu,
                Category::N28Genbutsu,
                Category::N37Genbutsu,
                Category::N456Genbutsu,
                Category::Man19Genbutsu
            ]
        );
        assert_eq!(Category::Honor3.group(), "honor");
        assert_eq!(Category::N19Suji.group(), "19");
        assert_eq!(Category::N28Genbutsu.group(), "28");
        assert_eq!(Category::N37Musuji.group(), "37");
        assert_eq!(Category::N456Katasuji.group(), "456");
    }

    #[test]
    fn honours() {
        // 1z..7z with visible counts 0,1,2,3,4,4 (7 clamps to 4) and 6z in the river.
        let mut visible = [0u8; KINDS];
        visible[27..34].copy_from_slice(&[0, 1, 2, 3, 4, 7, 4]);
        let r = river(&[32]);
        assert_eq!(category(27, &r, &visible), Category::Honor0);
        assert_eq!(category(28, &r, &visible), Category::Honor1);
        assert_eq!(category(29, &r, &visible), Category::Honor2);
        // Honour with 3 visible → honor-3.
        assert_eq!(category(30, &r, &visible), Category::Honor3);
        assert_eq!(category(31, &r, &visible), Category::Honor4);
        // 6z is in the river: genbutsu although 7 copies are "visible".
        assert_eq!(category(32, &r, &visible), Category::HonorGenbutsu);
        assert_eq!(category(33, &r, &visible), Category::Honor4);
        // An honour in the river with 3 visible is still genbutsu.
        let r2 = river(&[30]);
        assert_eq!(category(30, &r2, &visible), Category::HonorGenbutsu);
    }

    #[test]
    fn terminals() {
        let v = [0u8; KINDS];
        // Manzu river {4m}: 1m is suji (4 in river), 9m is musuji.
        let r = river(&[3]);
        assert_eq!(category(0, &r, &v), Category::N19Suji);
        assert_eq!(category(8, &r, &v), Category::N19Musuji);
        // Pinzu river {6p}: 9p is suji (6 in river), 1p musuji.
        let r = river(&[14]);
        assert_eq!(category(17, &r, &v), Category::N19Suji);
        assert_eq!(category(9, &r, &v), Category::N19Musuji);
        // 1s in river and 4s in river: genbutsu wins.
        let r = river(&[18, 21]);
        assert_eq!(category(18, &r, &v), Category::N19Genbutsu);
        // 4m in the river does not make 1p suji (other suit).
        let r = river(&[3]);
        assert_eq!(category(9, &r, &v), Category::N19Musuji);
    }

    #[test]
    fn twos_eights_threes_sevens() {
        let v = [0u8; KINDS];
        // River {5s, 8s, 6p, 7m}.
        let r = river(&[22, 25, 14, 6]);
        // 2s, 8s: 5s in river → 2s suji, 8s genbutsu.
        assert_eq!(category(19, &r, &v), Category::N28Suji);
        assert_eq!(category(25, &r, &v), Category::N28Genbutsu);
        // 2m: 5m not in river → musuji.
        assert_eq!(category(1, &r, &v), Category::N28Musuji);
        // 3p: 6p in river → suji; 7p: 4p not in river → musuji.
        assert_eq!(category(11, &r, &v), Category::N37Suji);
        assert_eq!(category(15, &r, &v), Category::N37Musuji);
        // 7m in river → genbutsu.
        assert_eq!(category(6, &r, &v), Category::N37Genbutsu);
        // 7s: 4s not in river → musuji; 3s: 6s not in river → musuji.
        assert_eq!(category(24, &r, &v), Category::N37Musuji);
        // River {4s}: 7s suji.
        let r = river(&[21]);
        assert_eq!(category(24, &r, &v), Category::N37Suji);
    }

    #[test]
    fn middles() {
        let v = [0u8; KINDS];
        // River {2m, 8m, 1p, 6s}.
        let r = river(&[1, 7, 9, 23]);
        // 5m: 2m and 8m in river → nakasuji.
        assert_eq!(category(4, &r, &v), Category::N456Nakasuji);
        // 4p: 1p in river, 7p not → katasuji.
        assert_eq!(category(12, &r, &v), Category::N456Katasuji);
        // 6p: 3p and 9p not in river → musuji.
        assert_eq!(category(14, &r, &v), Category::N456Musuji);
        // 6s in river → genbutsu.
        assert_eq!(category(23, &r, &v), Category::N456Genbutsu);
        // 5m with only 8m → katasuji (the other side).
        let r = river(&[7]);
        assert_eq!(category(4, &r, &v), Category::N456Katasuji);
    }

    #[test]
    fn every_category_reached() {
        // River {4m, 5p, 2s, 8s, 6z}; visible: 1z 0, 2z 1, 3z 2, 4z 3, 5z 4.
        let r = river(&[3, 13, 19, 25, 32]);
        let mut visible = [0u8; KINDS];
        visible[27..32].copy_from_slice(&[0, 1, 2, 3, 4]);
        let cs = categories(&r, &visible);
        let expect: [(usize, Category); 19] = [
            (27, Category::Honor0),
            (28, Category::Honor1),
            (29, Category::Honor2),
            (30, Category::Honor3),
            (31, Category::Honor4),
            (32, Category::HonorGenbutsu),
            (8, Category::N19Musuji),     // 9m: 6m not in river
            (0, Category::N19Suji),       // 1m: 4m in river
            (19, Category::N28Genbutsu),  // 2s in river
            (1, Category::N28Musuji),     // 2m: 5m not in river
            (10, Category::N28Suji),      // 2p: 5p in river
            (6, Category::N37Suji),       // 7m: 4m in river
            (2, Category::N37Musuji),     // 3m: 6m not in river
            (4, Category::N456Musuji),    // 5m: 2m, 8m not in river
            (22, Category::N456Nakasuji), // 5s: 2s and 8s in river
            (3, Category::N456Genbutsu),  // 4m in river
            (13, Category::N456Genbutsu), // 5p in river
            (25, Category::N28Genbutsu),  // 8s in river
            (7, Category::N28Musuji),     // 8m
        ];
        for (k, c) in expect {
            assert_eq!(cs[k], c, "kind {k}");
        }
        // Remaining categories: 19-genbutsu, 37-genbutsu, 456-katasuji.
        let r2 = river(&[0, 2, 9]); // 1m, 3m, 1p
        let cs2 = categories(&r2, &visible);
        assert_eq!(cs2[0], Category::N19Genbutsu);
        assert_eq!(cs2[2], Category::N37Genbutsu);
        assert_eq!(cs2[12], Category::N456Katasuji); // 4p: 1p in river, 7p not
        let mut seen: Vec<Category> = cs.iter().chain(cs2.iter()).copied().collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, Category::of(Players::Four));
    }

    /// Three players (§24): 1m and 9m are categorised by publicly visible copies as honours
    /// are, whatever 4m or 6m (absent) would say; 1p, 9p, 1s, 9s and the other suited kinds
    /// keep their suji categories; honours are unchanged. Every one of the 25 is reached.
    #[test]
    fn three_player_categories() {
        let three = Players::Three;
        let mut visible = [0u8; KINDS];
        visible[8] = 2;
        visible[27..32].copy_from_slice(&[0, 1, 2, 3, 4]);
        let r = river(&[12]); // 4p
        assert_eq!(category_for(0, &r, &visible, three), Category::Man19_0);
        assert_eq!(category_for(8, &r, &visible, three), Category::Man19_2);
        assert_eq!(category_for(9, &r, &visible, three), Category::N19Suji);
        assert_eq!(category_for(27, &r, &visible, three), Category::Honor0);
        // The same kinds with four players.
        assert_eq!(
            category_for(0, &r, &visible, Players::Four),
            Category::N19Musuji
        );
        for (v, c) in [
            (0, Category::Man19_0),
            (1, Category::Man19_1),
            (2, Category::Man19_2),
            (3, Category::Man19_3),
            (4, Category::Man19_4),
            (7, Category::Man19_4),
        ] {
            visible[0] = v;
            assert_eq!(category_for(0, &r, &visible, three), c, "{v} visible");
        }
        let r = river(&[8, 3]); // 9m and 4m in the river
        assert_eq!(
            category_for(8, &r, &visible, three),
            Category::Man19Genbutsu
        );
        assert_eq!(category_for(0, &r, &visible, three), Category::Man19_4);
        assert_eq!(Category::Man19_3.group(), "19m");
        assert!(Category::Man19Genbutsu.is_genbutsu() && !Category::Man19_0.is_genbutsu());
        assert_eq!(Category::of(three).len(), 25);
        assert_eq!(Category::of(Players::Four).len(), 19);
        for c in Category::ALL {
            assert_eq!(Category::from_name(c.name()), Some(c));
            assert_eq!(Category::ALL[c.index()], c);
        }
        assert_eq!(Category::ALL[19].name(), "19m-0");
        assert_eq!(Category::ALL[24].name(), "19m-genbutsu");
    }
}
