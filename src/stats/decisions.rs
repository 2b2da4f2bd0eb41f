//! §7 discard decisions: one row per discard record of every seat, with what an engine needs
//! to choose a discard (the seat's concealed hand, its melds, the dora indicators, whether it
//! follows a draw or a call) and the legal kinds, with what the seat chose.
//!
//! The rivers are not copied into each row: they are the rows themselves (every discard of a
//! hand, in order, with its tsumogiri, riichi and called flags), so a reader rebuilds them.
//! A seat's melds change only just before its own discard (a chi or pon is followed by the
//! caller's discard; a kan by its replacement draw and then the kanner's discard), so each
//! row carries its own seat's melds and the other seats' are those of their latest row.
//!
//! Invariants: rows are in event order; `legal` is never empty and holds the discard's kind
//! (a log's discard is always legal: Tenhou enforces the rules this encodes).

use crate::mjlog::MeldKind;
use crate::replay::legal::legal_kinds;
use crate::replay::{HandState, Observer};
use crate::tile::{self, KINDS};

/// A seat's melds packed 16 bits each (meld i in bits 16i..16i+16, in the order made): bit 15
/// set for a meld, bits 12..15 the kind ([`meld_kind_code`]), bits 6..12 the lowest kind of its
/// tiles, bits 4..6 the seat it was called from (its own seat for an ankan), bit 3 set when one
/// of its tiles is a red five.
pub(crate) type PackedMelds = u64;

/// Dora indicators shown so far, 7 bits each in log order (type + 1, 0 = none; at most 5).
pub(crate) type PackedIndicators = u64;

/// One §7 decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The seat's turn + 1 (its discards so far, this one excluded, + 1).
    pub(crate) turn: u8,
    /// The seat's previous event was a chi or pon (`after` = `call`), else a draw.
    pub(crate) after_call: bool,
    /// Concealed copies of each kind just before the discard (14 − 3·melds tiles).
    pub(crate) concealed: [u8; KINDS],
    /// Bit s set when the seat holds the red five of suit s (m, p, s).
    pub(crate) red: u8,
    /// Type (37 types) of the tile just drawn; `None` after a call.
    pub(crate) drawn: Option<u8>,
    /// Type of the discarded tile.
    pub(crate) discard: u8,
    pub(crate) tsumogiri: bool,
    /// This discard is a riichi declaration.
    pub(crate) riichi: bool,
    /// The seat made a declaration discard earlier in the hand.
    pub(crate) in_riichi: bool,
    /// Other seats that made a declaration discard earlier in the hand.
    pub(crate) riichi_opponents: u8,
    /// Legal kinds (bit k).
    pub(crate) legal: u64,
    /// The discard was then taken by a chi, pon or daiminkan.
    pub(crate) called: bool,
    pub(crate) melds: PackedMelds,
    pub(crate) indicators: PackedIndicators,
    /// Every seat's kita Norths at the decision (three-player games, §24; 0 otherwise).
    pub(crate) kitas: [u8; 4],
}

impl Decision {
    /// Exactly one legal kind.
    pub(crate) fn forced(&self) -> bool {
        self.legal.count_ones() == 1
    }
}

/// The code of a meld kind in [`PackedMelds`] (1..=5).
pub(crate) fn meld_kind_code(kind: MeldKind) -> u64 {
    match kind {
        MeldKind::Chi => 1,
        MeldKind::Pon => 2,
        MeldKind::Kakan => 3,
        MeldKind::Daiminkan => 4,
        MeldKind::Ankan | MeldKind::Nukidora => 5,
    }
}

/// A meld as the `decisions` frame and the engine objects write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeldText {
    /// `chi`, `pon`, `kakan`, `daiminkan` or `ankan`.
    pub kind: &'static str,
    /// Its tiles' types in kind order, a red five before the black ones of its kind.
    pub tiles: Vec<usize>,
    /// The seat it was called from (its own seat for an ankan).
    pub from: u8,
}

/// Meld kind names by [`meld_kind_code`] (0 unused).
pub(crate) const MELD_KINDS: [&str; 6] = ["", "chi", "pon", "kakan", "daiminkan", "ankan"];

/// The melds packed in `p` ([`PackedMelds`]).
pub fn unpack_melds(p: u64) -> Vec<MeldText> {
    (0..4)
        .map(|i| (p >> (16 * i)) & 0xffff)
        .take_while(|m| m >> 15 == 1)
        .map(|m| {
            let code = ((m >> 12) & 7) as usize;
            let lowest = ((m >> 6) & 63) as usize;
            let from = ((m >> 4) & 3) as u8;
            let red = (m >> 3) & 1 == 1;
            let mut tiles: Vec<usize> = match code {
                1 => vec![lowest, lowest + 1, lowest + 2],
                2 => vec![lowest; 3],
                _ => vec![lowest; 4],
            };
            // The red five is the first five: first among the fives of its kind.
            if red {
                if let Some(five) = tiles.iter_mut().find(|k| tile::FIVES.contains(k)) {
                    *five = KINDS + *five / 9;
                }
            }
            MeldText {
                kind: MELD_KINDS[code.min(5)],
                tiles,
                from,
            }
        })
        .collect()
}

/// `kind:tiles:from` of each meld, space-separated (`pon:0p5p5p:2 chi:3m4m5m:3`).
pub fn melds_label(p: u64) -> String {
    let mut out = String::new();
    for (i, m) in unpack_melds(p).iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(m.kind);
        out.push(':');
        for &t in &m.tiles {
            out.push_str(tile::type_name(t));
        }
        out.push(':');
        out.push(char::from(b'0' + m.from));
    }
    out
}

/// Inverse of [`melds_label`].
pub fn parse_melds(label: &str) -> Option<Vec<MeldText>> {
    if label.is_empty() {
        return Some(Vec::new());
    }
    label
        .split(' ')
        .map(|item| {
            let mut parts = item.split(':');
            let name = parts.next()?;
            let kind = *MELD_KINDS[1..].iter().find(|&&k| k == name)?;
            let tiles = parse_types(parts.next()?)?;
            let from = parts.next()?.parse::<u8>().ok().filter(|&f| f < 4)?;
            (parts.next().is_none() && (3..=4).contains(&tiles.len())).then_some(MeldText {
                kind,
                tiles,
                from,
            })
        })
        .collect()
}

/// The types of a run of two-character type names (`3m4m0m`).
pub fn parse_types(s: &str) -> Option<Vec<usize>> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks(2)
        .map(|c| std::str::from_utf8(c).ok().and_then(tile::parse_type))
        .collect()
}

/// The indicators packed in `p` ([`PackedIndicators`]), as types.
pub fn unpack_indicators(p: u64) -> Vec<usize> {
    (0..5)
        .map(|i| ((p >> (7 * i)) & 127) as usize)
        .take_while(|&t| t > 0)
        .map(|t| t - 1)
        .collect()
}

/// The indicators' type names, space-separated (`3z 0p`).
pub fn indicators_label(p: u64) -> String {
    unpack_indicators(p)
        .iter()
        .map(|&t| tile::type_name(t))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Collects §7 decisions of one game.
#[derive(Default)]
pub(crate) struct DecisionObserver {
    /// Per seat, the chi or pon it has just made (kind, called kind, lowest kind), until its
    /// discard. Not reset between hands: the replay lets a seat that has just called do
    /// nothing but discard (or kan, then draw and discard), and an entry left over from a hand
    /// that ended otherwise is read only after a call, which replaces it (after a draw the
    /// `drawn.is_none()` filter drops it).
    call: [Option<(MeldKind, usize, usize)>; 4],
    pub(crate) rows: Vec<Decision>,
}

impl Observer for DecisionObserver {
    fn before_discard(&mut self, hand: &HandState, seat: usize, tile: u8) {
        let st = &hand.seats[seat];
        let drawn = st.drawn;
        let in_riichi = st.riichi.has_declared();
        let call = self.call[seat].take();
        let mut red = 0u8;
        if hand.red {
            for (suit, &id) in tile::RED_IDS.iter().enumerate() {
                red |= u8::from(hand.is_in_hand(id, seat)) << suit;
            }
        }
        let mut melds: PackedMelds = 0;
        for (i, m) in st.melds.iter().take(4).enumerate() {
            let tiles = m.tiles();
            let lowest = tiles.iter().map(|&t| tile::kind(t)).min().unwrap_or(0) as u64;
            let from = (seat as u64 + u64::from(m.from_rel)) % 4;
            let has_red = tiles.iter().any(|&t| tile::is_red(t, hand.red));
            let packed = 1 << 15
                | meld_kind_code(m.kind) << 12
                | lowest << 6
                | from << 4
                | u64::from(has_red) << 3;
            melds |= packed << (16 * i);
        }
        let mut indicators: PackedIndicators = 0;
        for (i, &t) in hand.indicators.iter().take(5).enumerate() {
            indicators |= (tile::tile_type(t, hand.red) as u64 + 1) << (7 * i);
        }
        let riichi_opponents = (0..4)
            .filter(|&s| s != seat && hand.seats[s].riichi.has_declared())
            .count() as u8;
        self.rows.push(Decision {
            hand: hand.index,
            seat: seat as u8,
            turn: st.turn + 1,
            after_call: drawn.is_none(),
            concealed: st.kinds,
            red,
            drawn: drawn.map(|d| tile::tile_type(d, hand.red) as u8),
            discard: tile::tile_type(tile, hand.red) as u8,
            tsumogiri: drawn == Some(tile),
            riichi: hand.declaring(seat),
            in_riichi,
            riichi_opponents,
            legal: legal_kinds(
                &st.kinds,
                in_riichi,
                drawn.map(tile::kind),
                call.filter(|_| drawn.is_none()),
            ),
            called: false,
            melds,
            indicators,
            kitas: std::array::from_fn(|s| hand.seats[s].kita.len() as u8),
        });
    }

    fn after_call(&mut self, hand: &HandState, seat: usize) {
        // A chi, pon or daiminkan takes the last discard: mark its row.
        if let Some(last) = self.rows.last_mut() {
            let discarder = &hand.seats[usize::from(last.seat)];
            if last.hand == hand.index && discarder.river.last().is_some_and(|r| r.called) {
                last.called = true;
            }
        }
        let Some(m) = hand.seats[seat].melds.last() else {
            return;
        };
        if matches!(m.kind, MeldKind::Chi | MeldKind::Pon) {
            if let Some(called) = m.called {
                let lowest = m.tiles().iter().map(|&t| tile::kind(t)).min().unwrap_or(0);
                self.call[seat] = Some((m.kind, tile::kind(called), lowest));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::parse;

    fn kinds(s: &str) -> [u8; KINDS] {
        parse(s).unwrap()
    }

    fn names(mask: u64) -> String {
        (0..KINDS)
            .filter(|&k| mask >> k & 1 == 1)
            .map(tile::kind_name)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Melds packed as `before_discard` packs them, 16 bits each: 1<<15 | kind code<<12 |
    /// lowest kind<<6 | from<<4 | red<<3. By hand:
    /// chi 3m4m0m from seat 3: 0x8000 | 1<<12 | 2<<6 | 3<<4 | 1<<3 = 0x90b8;
    /// pon 0p5p5p from 1: 0x8000 | 2<<12 | 13<<6 | 1<<4 | 1<<3 = 0xa358;
    /// kakan 0s5s5s5s from 2: 0x8000 | 3<<12 | 22<<6 | 2<<4 | 1<<3 = 0xb5a8;
    /// ankan 7z by seat 1: 0x8000 | 5<<12 | 33<<6 | 1<<4 = 0xd850;
    /// daiminkan 1z from 0: 0x8000 | 4<<12 | 27<<6 = 0xc6c0.
    /// Indicators (type + 1, 7 bits each): 4z (30), 0m (34), 9m (8): 31 | 35<<7 | 9<<14 =
    /// 0x2519f.
    #[test]
    fn packed_melds_and_indicators_read_back() {
        let p: u64 = 0xd850_b5a8_a358_90b8;
        let label = "chi:3m4m0m:3 pon:0p5p5p:1 kakan:0s5s5s5s:2 ankan:7z7z7z7z:1";
        assert_eq!(melds_label(p), label);
        let melds = unpack_melds(p);
        assert_eq!(melds[1].tiles, [KINDS + 1, 13, 13]);
        assert_eq!((melds[3].kind, melds[3].from), ("ankan", 1));
        assert_eq!(parse_melds(label), Some(melds));
        assert_eq!(melds_label(0xc6c0), "daiminkan:1z1z1z1z:0");
        // An empty slot ends the melds: nothing is read after it.
        assert_eq!(melds_label(0xc6c0 << 16), "");
        assert_eq!(parse_melds(""), Some(Vec::new()));
        for bad in [
            "chi:3m4m5m",
            "chi:3m4m5m:4",
            "chi:3m4m5m:1:x",
            "pung:5p5p5p:1",
            ":3m4m5m:1",
            "pon:5p5p:1",
            "kakan:5p5p5p5p5p:1",
            "chi:3m4m5:1",
            "chi:3m4m5x:1",
            "chi:3m4m5m:1 pon",
        ] {
            assert_eq!(parse_melds(bad), None, "{bad}");
        }
        assert_eq!(unpack_indicators(0x2519f), [30, KINDS, 8]);
        assert_eq!(indicators_label(0x2519f), "4z 0m 9m");
        // A zero slot ends the indicators.
        assert_eq!(unpack_indicators(31 | 9 << 14), [30]);
        assert_eq!(indicators_label(0), "");
    }

    #[test]
    fn legal_kinds_follow_the_swap_call_rule() {
        let hand = kinds("23456m123p5578s");
        // After a draw: every kind held.
        assert_eq!(
            names(legal_kinds(&hand, false, Some(1), None)),
            "2m 3m 4m 5m 6m 1p 2p 3p 5s 7s 8s"
        );
        // In riichi: the drawn kind only.
        assert_eq!(names(legal_kinds(&hand, true, Some(24), None)), "7s");
        // Chi of 3m with 45m (3m lowest): not 3m, not 6m.
        let chi_low = Some((MeldKind::Chi, 2, 2));
        assert_eq!(
            names(legal_kinds(&hand, false, None, chi_low)),
            "2m 4m 5m 1p 2p 3p 5s 7s 8s"
        );
        // Chi of 4m with 56m (4m lowest, 4m+3 = 7m still in the suit): not 4m, not 7m.
        let chi_low_mid = Some((MeldKind::Chi, 3, 3));
        assert_eq!(
            names(legal_kinds(
                &kinds("237m123p5578s"),
                false,
                None,
                chi_low_mid
            )),
            "2m 3m 1p 2p 3p 5s 7s 8s"
        );
        // Chi of 6m with 45m (6m highest): not 6m, not 3m.
        let chi_high = Some((MeldKind::Chi, 5, 3));
        assert_eq!(
            names(legal_kinds(&hand, false, None, chi_high)),
            "2m 4m 5m 1p 2p 3p 5s 7s 8s"
        );
        // Chi of 5m in 456m (middle): only 5m.
        let chi_mid = Some((MeldKind::Chi, 4, 3));
        assert_eq!(
            names(legal_kinds(&hand, false, None, chi_mid)),
            "2m 3m 4m 6m 1p 2p 3p 5s 7s 8s"
        );
        // Chi of 7s as the lowest of 789s: 7s+3 is outside the suit.
        let chi_edge = Some((MeldKind::Chi, 24, 24));
        assert_eq!(
            names(legal_kinds(&hand, false, None, chi_edge)),
            "2m 3m 4m 5m 6m 1p 2p 3p 5s 8s"
        );
        // Chi of 3p as the highest of 123p: 3p−3 is outside the suit.
        let chi_low_edge = Some((MeldKind::Chi, 11, 9));
        assert_eq!(
            names(legal_kinds(&hand, false, None, chi_low_edge)),
            "2m 3m 4m 5m 6m 1p 2p 5s 7s 8s"
        );
        // Pon of 5s: not 5s.
        let pon = Some((MeldKind::Pon, 22, 22));
        assert_eq!(
            names(legal_kinds(&hand, false, None, pon)),
            "2m 3m 4m 5m 6m 1p 2p 3p 7s 8s"
        );
    }
}
