//! Tile identities: Tenhou tile ids (0..136), the 34 kinds and the 37 types.
//!
//! Invariants: `kind(id) = id / 4`; ids 16, 52 and 88 are the red 5m, 5p and 5s in games with
//! red fives and ordinary fives otherwise. A *type* index is a kind index (0..34) except that,
//! in games with red fives, the red fives are types 34, 35, 36 and kinds 4, 13, 22 then name
//! the three black fives.

/// A Tenhou tile id, 0..136.
pub type TileId = u8;

/// Number of tile kinds (1m..9m, 1p..9p, 1s..9s, 1z..7z).
pub const KINDS: usize = 34;
/// Number of tile types when red fives are told apart.
pub const TYPES: usize = 37;
/// Number of tile ids.
pub const IDS: usize = 136;

/// Tile ids of the red 5m, 5p, 5s.
pub const RED_IDS: [TileId; 3] = [16, 52, 88];

/// Kinds (and black-five types) of 5m, 5p, 5s.
pub const FIVES: [usize; 3] = [4, 13, 22];

/// Kind (0..34) of a tile id.
#[inline]
pub fn kind(id: TileId) -> usize {
    (id / 4) as usize
}

/// True when `id` is a red five in a game that has red fives.
#[inline]
pub fn is_red(id: TileId, red_game: bool) -> bool {
    red_game && (id == 16 || id == 52 || id == 88)
}

/// Kind of a type (0..37): a red five is a five.
#[inline]
pub fn type_kind(t: usize) -> usize {
    if t >= KINDS {
        FIVES[t - KINDS]
    } else {
        t
    }
}

/// Type index (0..37) of a tile id: the kind, or 34 + suit for a red five in a red game.
#[inline]
pub fn tile_type(id: TileId, red_game: bool) -> usize {
    if is_red(id, red_game) {
        34 + (id / 36) as usize
    } else {
        kind(id)
    }
}

/// True for honour kinds (1z..7z).
#[inline]
pub fn is_honor(kind: usize) -> bool {
    kind >= 27
}

/// 1-based number of a suited kind (1..=9); meaningless for honours.
#[inline]
pub fn number(kind: usize) -> usize {
    kind % 9 + 1
}

/// Copies in a game of tile type `t`: 4 for a kind, 3 for a black five and 1 for a red five
/// when the game has red fives.
#[inline]
pub fn copies_of_type(t: usize, red_game: bool) -> u8 {
    match t {
        34..=36 => 1,
        4 | 13 | 22 if red_game => 3,
        _ => 4,
    }
}

const KIND_NAMES: [&str; KINDS] = [
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p", "6p", "7p",
    "8p", "9p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1z", "2z", "3z", "4z", "5z",
    "6z", "7z",
];
const RED_NAMES: [&str; 3] = ["0m", "0p", "0s"];

/// Name of a kind: `1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `1z`..`7z`.
pub fn kind_name(kind: usize) -> &'static str {
    KIND_NAMES[kind]
}

/// Name of a type: the kind name, or `0m`/`0p`/`0s` for the red fives.
pub fn type_name(t: usize) -> &'static str {
    if t >= KINDS {
        RED_NAMES[t - KINDS]
    } else {
        KIND_NAMES[t]
    }
}

/// Kind index for a kind name like `5p` (red names map to their five).
pub fn parse_kind(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() {
        return None;
    }
    let n = (b[0] - b'0') as usize;
    let suit = match b[1] {
        b'm' => 0,
        b'p' => 1,
        b's' => 2,
        b'z' => 3,
        _ => return None,
    };
    match (suit, n) {
        (3, 1..=7) => Some(27 + n - 1),
        (0..=2, 1..=9) => Some(suit * 9 + n - 1),
        (0..=2, 0) => Some(suit * 9 + 4),
        _ => None,
    }
}

/// Type index for a type name: a kind name, or `0m`/`0p`/`0s` for the red fives (34..37).
pub fn parse_type(name: &str) -> Option<usize> {
    let k = parse_kind(name)?;
    Some(if name.as_bytes()[0] == b'0' {
        KINDS + k / 9
    } else {
        k
    })
}

/// Tile class of a type for the §3 per-class split.
pub fn type_class(t: usize) -> &'static str {
    if t >= KINDS {
        "red5"
    } else if is_honor(t) {
        "honor"
    } else {
        match number(t) {
            1 | 9 => "terminal",
            2 | 8 => "28",
            _ => "3to7",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_types() {
        // id 16 is the first copy of 5m (kind 4): red in a red game, plain otherwise.
        assert_eq!(kind(16), 4);
        assert_eq!(tile_type(16, true), 34);
        assert_eq!(tile_type(16, false), 4);
        assert_eq!(tile_type(17, true), 4);
        // 5p red is id 52 = kind 13, type 35; 5s red id 88 = kind 22, type 36.
        assert_eq!(tile_type(52, true), 35);
        assert_eq!(tile_type(88, true), 36);
        assert_eq!(kind(135), 33);
        assert_eq!(kind_name(33), "7z");
        assert_eq!(type_name(36), "0s");
        assert_eq!(copies_of_type(4, true), 3);
        assert_eq!(copies_of_type(4, false), 4);
        assert_eq!(copies_of_type(35, true), 1);
        assert_eq!(parse_kind("9s"), Some(26));
        assert_eq!(parse_kind("0p"), Some(13));
        assert_eq!(parse_kind("8z"), None);
        assert_eq!(type_class(0), "terminal");
        assert_eq!(type_class(13), "3to7");
        assert_eq!(type_class(36), "red5");
    }
}
