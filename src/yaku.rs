//! The yaku of docs/definitions.md §10: Tenhou's yaku ids, their keys and names, in one table that
//! the replay, the frames and the reports all read.
//!
//! Invariants: [`YAKU`] is indexed by Tenhou id (entry `i` has id `i`); keys are unique,
//! lower-case ASCII with `-`. An id outside the table is not an error: it is kept as
//! `yaku-<id>` ([`key`]) and counted like any other.

use std::borrow::Cow;

/// A yaku: its key (frames and reports) and its Japanese name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Yaku {
    pub key: &'static str,
    pub name: &'static str,
}

const fn y(key: &'static str, name: &'static str) -> Yaku {
    Yaku { key, name }
}

/// Every yaku of §10 by Tenhou id.
pub const YAKU: [Yaku; 55] = [
    y("menzen-tsumo", "門前清自摸和"),
    y("riichi", "立直"),
    y("ippatsu", "一発"),
    y("chankan", "槍槓"),
    y("rinshan", "嶺上開花"),
    y("haitei", "海底摸月"),
    y("houtei", "河底撈魚"),
    y("pinfu", "平和"),
    y("tanyao", "断幺九"),
    y("iipeikou", "一盃口"),
    y("seat-wind-east", "自風 東"),
    y("seat-wind-south", "自風 南"),
    y("seat-wind-west", "自風 西"),
    y("seat-wind-north", "自風 北"),
    y("round-wind-east", "場風 東"),
    y("round-wind-south", "場風 南"),
    y("round-wind-west", "場風 西"),
    y("round-wind-north", "場風 北"),
    y("haku", "役牌 白"),
    y("hatsu", "役牌 發"),
    y("chun", "役牌 中"),
    y("double-riichi", "両立直"),
    y("chiitoitsu", "七対子"),
    y("chanta", "混全帯幺九"),
    y("ittsu", "一気通貫"),
    y("sanshoku", "三色同順"),
    y("sanshoku-doukou", "三色同刻"),
    y("sankantsu", "三槓子"),
    y("toitoi", "対々和"),
    y("sanankou", "三暗刻"),
    y("shousangen", "小三元"),
    y("honroutou", "混老頭"),
    y("ryanpeikou", "二盃口"),
    y("junchan", "純全帯幺九"),
    y("honitsu", "混一色"),
    y("chinitsu", "清一色"),
    y("renhou", "人和"),
    y("tenhou", "天和"),
    y("chiihou", "地和"),
    y("daisangen", "大三元"),
    y("suuankou", "四暗刻"),
    y("suuankou-tanki", "四暗刻単騎"),
    y("tsuuiisou", "字一色"),
    y("ryuuiisou", "緑一色"),
    y("chinroutou", "清老頭"),
    y("chuuren", "九蓮宝燈"),
    y("junsei-chuuren", "純正九蓮宝燈"),
    y("kokushi", "国士無双"),
    y("kokushi-13", "国士無双十三面"),
    y("daisuushii", "大四喜"),
    y("shousuushii", "小四喜"),
    y("suukantsu", "四槓子"),
    y("dora", "ドラ"),
    y("ura-dora", "裏ドラ"),
    y("aka-dora", "赤ドラ"),
];

/// Tenhou ids of dora, ura dora and red dora: a win's entry of these counts its han (§10).
pub const DORA: u8 = 52;
pub const URA_DORA: u8 = 53;
pub const AKA_DORA: u8 = 54;

/// The ids pooled as `yakuhai` 翻牌 in the `yaku` report (seat and round winds, dragons).
pub const YAKUHAI: std::ops::RangeInclusive<u8> = 10..=20;

/// The key of Tenhou yaku `id`: the table's, or `yaku-<id>` for an id it does not have.
pub fn key(id: u8) -> Cow<'static, str> {
    match YAKU.get(id as usize) {
        Some(y) => Cow::Borrowed(y.key),
        None => Cow::Owned(format!("yaku-{id}")),
    }
}

/// The Japanese name of Tenhou yaku `id` as Tenhou writes it, or `yaku-<id>` for an id the
/// table does not have.
pub fn name(id: u8) -> Cow<'static, str> {
    match YAKU.get(id as usize) {
        Some(y) => Cow::Borrowed(y.name),
        None => Cow::Owned(format!("yaku-{id}")),
    }
}

/// The §10 count of one entry of a win's `yaku` (id, han): its han for the dora ids (tiles),
/// else 1.
pub fn count(id: u8, han: u8) -> u32 {
    if matches!(id, DORA | URA_DORA | AKA_DORA) {
        u32::from(han)
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spot checks against §10's list (its numbering), keys unique.
    #[test]
    fn ids_keys_and_names_as_listed() {
        assert_eq!(key(0), "menzen-tsumo");
        assert_eq!(key(7), "pinfu");
        assert_eq!(key(13), "seat-wind-north");
        assert_eq!(key(17), "round-wind-north");
        assert_eq!(key(21), "double-riichi");
        assert_eq!(key(26), "sanshoku-doukou");
        assert_eq!(key(41), "suuankou-tanki");
        assert_eq!(key(46), "junsei-chuuren");
        assert_eq!(key(48), "kokushi-13");
        assert_eq!(key(51), "suukantsu");
        assert_eq!(key(54), "aka-dora");
        assert_eq!(YAKU[39].name, "大三元");
        let mut keys: Vec<_> = YAKU.iter().map(|y| y.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), YAKU.len());
    }

    /// An id the table does not have is kept under a key of its own.
    #[test]
    fn unknown_ids_are_kept() {
        assert_eq!(key(55), "yaku-55");
        assert_eq!(key(255), "yaku-255");
    }

    /// Dora entries count their han (tiles), even 0; every other entry counts 1.
    #[test]
    fn dora_entries_count_their_han() {
        assert_eq!(count(DORA, 3), 3);
        assert_eq!(count(URA_DORA, 0), 0);
        assert_eq!(count(AKA_DORA, 2), 2);
        assert_eq!(count(1, 1), 1);
        assert_eq!(count(35, 6), 1);
        assert_eq!(count(55, 2), 1);
    }
}
