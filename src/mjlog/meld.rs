//! The `m` bitfield of Tenhou's `<N>` tag (and of AGARI's `m` list).
//!
//! Layout, by the low bits: bit 2 set → chi; else bit 3 → pon; else bit 4 → kakan (added
//! kan); else bit 5 → nukidora (three-player only); else daiminkan, or ankan when the two
//! "from" bits are 0. The two lowest bits give the seat the tile came from, relative to the
//! caller (1 = shimocha, 2 = toimen, 3 = kamicha).

use crate::tile::TileId;

/// What kind of call a meld is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    Chi,
    Pon,
    /// Added kan: a pon upgraded with the fourth copy from the hand.
    Kakan,
    /// Open kan on another player's discard.
    Daiminkan,
    /// Concealed kan.
    Ankan,
    /// Three-player north extraction; never valid in a four-player game.
    Nukidora,
}

impl MeldKind {
    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Chi => "chi",
            MeldKind::Pon => "pon",
            MeldKind::Kakan => "kakan",
            MeldKind::Daiminkan => "daiminkan",
            MeldKind::Ankan => "ankan",
            MeldKind::Nukidora => "nukidora",
        }
    }
}

/// A decoded meld. `tiles[..len]` holds its tile ids in ascending order.
///
/// `called` is the tile taken from another seat (chi, pon, daiminkan; for a kakan the tile of
/// the original pon that was called) and `added` the kakan's fourth tile. `from_rel` is the
/// relative seat the called tile came from (0 for ankan and nukidora).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meld {
    pub kind: MeldKind,
    pub tiles: [TileId; 4],
    pub len: u8,
    pub called: Option<TileId>,
    pub added: Option<TileId>,
    pub from_rel: u8,
}

impl Meld {
    /// The meld's tile ids, ascending.
    pub fn tiles(&self) -> &[TileId] {
        &self.tiles[..self.len as usize]
    }
}

/// Why an `m` value is not a meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadMeld(pub u32);

/// Decodes an `m` value.
///
/// Chi: bits 10.. = (suit·7 + lowest number − 1)·3 + called index, bits 3-4/5-6/7-8 = copy of
/// each of the three tiles. Pon/kakan: bits 9.. = kind·3 + called index, bits 5-6 = the copy
/// not in the pon (the added copy for kakan). Kan: bits 8.. = tile id (the called one for
/// daiminkan).
pub fn decode_meld(m: u32) -> Result<Meld, BadMeld> {
    let from_rel = (m & 3) as u8;
    if m & 0x4 != 0 {
        let mut base = m >> 10;
        let called_idx = (base % 3) as usize;
        base /= 3;
        if base >= 21 {
            return Err(BadMeld(m));
        }
        let first_kind = (base / 7) * 9 + base % 7;
        let copies = [(m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3];
        let mut tiles = [0u8; 4];
        for i in 0..3 {
            tiles[i] = ((first_kind + i as u32) * 4 + copies[i]) as u8;
        }
        return Ok(Meld {
            kind: MeldKind::Chi,
            tiles,
            len: 3,
            called: Some(tiles[called_idx]),
            added: None,
            from_rel,
        });
    }
    if m & 0x18 != 0 {
        let mut base = m >> 9;
        let called_idx = (base % 3) as usize;
        base /= 3;
        if base >= 34 {
            return Err(BadMeld(m));
        }
        let other = (m >> 5) & 3;
        let mut pon = [0u8; 4];
        let mut n = 0;
        for c in 0..4 {
            if c != other {
                pon[n] = (base * 4 + c) as u8;
                n += 1;
            }
        }
        let called = Some(pon[called_idx]);
        if m & 0x8 != 0 {
            return Ok(Meld {
                kind: MeldKind::Pon,
                tiles: pon,
                len: 3,
                called,
                added: None,
                from_rel,
            });
        }
        let added = (base * 4 + other) as u8;
        let mut tiles = [pon[0], pon[1], pon[2], added];
        tiles.sort_unstable();
        return Ok(Meld {
            kind: MeldKind::Kakan,
            tiles,
            len: 4,
            called,
            added: Some(added),
            from_rel,
        });
    }
    if m & 0x20 != 0 {
        let id = m >> 8;
        if id >= 136 {
            return Err(BadMeld(m));
        }
        return Ok(Meld {
            kind: MeldKind::Nukidora,
            tiles: [id as u8, 0, 0, 0],
            len: 1,
            called: None,
            added: None,
            from_rel: 0,
        });
    }
    let id = m >> 8;
    if id >= 136 {
        return Err(BadMeld(m));
    }
    let base = (id / 4) * 4;
    let tiles = [base as u8, base as u8 + 1, base as u8 + 2, base as u8 + 3];
    if from_rel == 0 {
        Ok(Meld {
            kind: MeldKind::Ankan,
            tiles,
            len: 4,
            called: None,
            added: None,
            from_rel,
        })
    } else {
        Ok(Meld {
            kind: MeldKind::Daiminkan,
            tiles,
            len: 4,
            called: Some(id as u8),
            added: None,
            from_rel,
        })
    }
}

/// The mjlog `m` code of `meld`: the inverse of [`decode_meld`] (`decode_meld(encode_meld(m))
/// == m` for every meld it decodes; an ankan is written with the lowest id of its kind, as
/// Tenhou's viewer reads any of the four).
pub fn encode_meld(meld: &Meld) -> u32 {
    let from = u32::from(meld.from_rel);
    let called_at = |tiles: &[TileId]| -> u32 {
        let called = meld.called.expect("a called meld has its called tile");
        tiles
            .iter()
            .position(|&t| t == called)
            .expect("the called tile is one of the meld's") as u32
    };
    match meld.kind {
        MeldKind::Chi => {
            let mut t = [meld.tiles[0], meld.tiles[1], meld.tiles[2]];
            t.sort_unstable();
            let kind = u32::from(t[0]) / 4;
            let base = (kind / 9) * 7 + kind % 9;
            let copies = t.map(|x| u32::from(x) % 4);
            ((base * 3 + called_at(&t)) << 10)
                | copies[0] << 3
                | copies[1] << 5
                | copies[2] << 7
                | 0x4
                | from
        }
        MeldKind::Pon | MeldKind::Kakan => {
            let kind = u32::from(meld.tiles[0]) / 4;
            let (three, other, flag): (Vec<TileId>, u32, u32) = match meld.added {
                Some(added) => (
                    meld.tiles()
                        .iter()
                        .copied()
                        .filter(|&t| t != added)
                        .collect(),
                    u32::from(added) % 4,
                    0x10,
                ),
                None => {
                    let mut three: Vec<TileId> = meld.tiles().to_vec();
                    three.sort_unstable();
                    let other = (0..4)
                        .find(|c| !three.iter().any(|&t| u32::from(t) % 4 == *c))
                        .expect("a pon leaves one copy out");
                    (three, other, 0x8)
                }
            };
            let mut three = three;
            three.sort_unstable();
            ((kind * 3 + called_at(&three)) << 9) | other << 5 | flag | from
        }
        MeldKind::Daiminkan => u32::from(meld.called.expect("a called tile")) << 8 | from,
        MeldKind::Ankan => (u32::from(meld.tiles[0]) / 4 * 4) << 8,
        MeldKind::Nukidora => u32::from(meld.tiles[0]) << 8 | 0x20,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each expected value below is worked out by hand from the layout in `decode_meld`.

    /// Every meld code of the module's tests, and every chi, pon and kakan code there is,
    /// decodes to a meld that encodes back to it (an ankan to its kind's lowest id).
    #[test]
    fn encode_is_the_inverse_of_decode() {
        for m in [29135, 33322, 33330, 34051, 26624, 30752, 41489, 28722] {
            assert_eq!(encode_meld(&decode_meld(m).unwrap()), m, "m {m}");
        }
        let mut checked = 0;
        for m in 0..(1u32 << 16) {
            let Ok(meld) = decode_meld(m) else { continue };
            if matches!(meld.kind, MeldKind::Chi | MeldKind::Pon | MeldKind::Kakan) {
                let back = encode_meld(&meld);
                assert_eq!(decode_meld(back).unwrap(), meld, "m {m}");
                checked += 1;
            }
        }
        assert!(checked > 10_000);
        // An ankan written with another id of its kind encodes to the lowest.
        assert_eq!(encode_meld(&decode_meld(105 << 8).unwrap()), 104 << 8);
    }

    #[test]
    fn chi() {
        // 3p-4p-5p (lowest kind 11: suit 1, number 3), the 4p called (index 1), copies 1, 2, 3:
        // base = (1·7 + 2)·3 + 1 = 28; m = 28 << 10 | 3 << 7 | 2 << 5 | 1 << 3 | 4 | 3
        //      = 28672 + 384 + 64 + 8 + 4 + 3 = 29135.
        let m = decode_meld(29135).unwrap();
        assert_eq!(m.kind, MeldKind::Chi);
        // ids: 3p (kind 11) copy 1 = 45, 4p (kind 12) copy 2 = 50, 5p (kind 13) copy 3 = 55.
        assert_eq!(m.tiles(), &[45, 50, 55]);
        assert_eq!(m.called, Some(50));
        assert_eq!(m.from_rel, 3);
    }

    #[test]
    fn pon() {
        // m = 33322: bit 2 clear, bit 3 set (33322 & 8 = 8) → pon. from = 33322 & 3 = 2
        // (toimen). base = 33322 >> 9 = 65; called index = 65 % 3 = 2; kind = 65 / 3 = 21
        // (4s). unused copy = (33322 >> 5) & 3 = 1041 & 3 = 1. pon ids: 84, 86, 87; called 87.
        let m = decode_meld(33322).unwrap();
        assert_eq!(m.kind, MeldKind::Pon);
        assert_eq!(m.tiles(), &[84, 86, 87]);
        assert_eq!(m.called, Some(87));
        assert_eq!(m.from_rel, 2);
    }

    #[test]
    fn kakan() {
        // Same fields as the pon above but bit 4 instead of bit 3: 33322 − 8 + 16 = 33330.
        // The added tile is the unused copy 1 → id 85.
        let m = decode_meld(33330).unwrap();
        assert_eq!(m.kind, MeldKind::Kakan);
        assert_eq!(m.tiles(), &[84, 85, 86, 87]);
        assert_eq!(m.called, Some(87));
        assert_eq!(m.added, Some(85));
    }

    #[test]
    fn daiminkan_and_ankan() {
        // Daiminkan of 7z (kind 33, ids 132..135) called id 133 from kamicha:
        // m = 133 << 8 | 3 = 34048 + 3 = 34051.
        let m = decode_meld(34051).unwrap();
        assert_eq!(m.kind, MeldKind::Daiminkan);
        assert_eq!(m.tiles(), &[132, 133, 134, 135]);
        assert_eq!(m.called, Some(133));
        // Ankan of 1m: m = 0 << 8 | 0 → but 0 is "ankan of id 0": tiles 0..3.
        // A real ankan of 9s (kind 26, ids 104..107) as Tenhou writes it: 104 << 8 = 26624.
        let m = decode_meld(26624).unwrap();
        assert_eq!(m.kind, MeldKind::Ankan);
        assert_eq!(m.tiles(), &[104, 105, 106, 107]);
        assert_eq!(m.called, None);
    }

    #[test]
    fn nukidora_and_out_of_range() {
        // Nukidora of north id 120: 120 << 8 | 0x20 = 30720 + 32 = 30752.
        let m = decode_meld(30752).unwrap();
        assert_eq!(m.kind, MeldKind::Nukidora);
        assert_eq!(m.tiles(), &[120]);
        // A pon of "kind 34" (does not exist): base = 34·3 = 102 → 102 << 9 | 8.
        assert!(decode_meld((102 << 9) | 8).is_err());
        // A kan of id 136.
        assert!(decode_meld((136 << 8) | 1).is_err());
        // A chi starting at "suit 3" (honours can't form runs): base = 21·3 → error.
        assert!(decode_meld((63 << 10) | 4 | 3).is_err());
    }
}
