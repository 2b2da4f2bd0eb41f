//! §8 tenpai draws: every draw record whose drawer's concealed hand just before the draw has
//! at least one wait (§0), with what the tsumo-rate models need to predict whether it is a
//! hit: the waits, their held and visible copies per type, the outs and U.
//!
//! The wait test runs before every draw, so it is [`hand::wait_mask`] (most hands are turned
//! down from counts alone), and only when the hand changed since the seat's last draw (a hand
//! in riichi changes only by an ankan).

use crate::hand;
use crate::replay::{HandState, Observer};
use crate::tile::{self, KINDS};

/// One §8 unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TenpaiDraw {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The drawer's turn + 1 (§3).
    pub(crate) turn: u8,
    pub(crate) in_riichi: bool,
    /// 1 for the first draw after the seat's declaration, 2 for the next, …; 0 when the seat
    /// has not declared.
    pub(crate) draws_since_riichi: u8,
    /// Bit k set when kind k is a wait.
    pub(crate) waits: u64,
    /// The wait kinds' types (bit t set for type t; a five of a game with red fives is two
    /// types, the black and the red), and in the same order (ascending type) 3 bits each, the
    /// held and the publicly visible copies of each (§3's h and v).
    pub(crate) types: u64,
    pub(crate) held: u64,
    pub(crate) visible: u64,
    /// Σ over the wait kinds of their unseen copies (4 − held − visible, red and black
    /// together, never below 0).
    pub(crate) outs: u8,
    /// U: the tiles the drawer cannot see.
    pub(crate) unseen: u8,
    /// The drawn tile's kind.
    pub(crate) drawn: u8,
    pub(crate) hit: bool,
    /// A replacement draw after a kan.
    pub(crate) rinshan: bool,
}

/// The set bits of `m`, lowest first.
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            b
        })
    })
}

/// Collects §8 units of one game.
#[derive(Default)]
pub(crate) struct TenpaiDrawObserver {
    /// Draws each seat has made since its declaration: 0 until it declares (counted only
    /// while it is in riichi, and a seat declares at most once a hand).
    since_riichi: [u8; 4],
    /// Per seat, the concealed hand whose waits were last computed, and those waits: after a
    /// tsumogiri (every draw of a hand in riichi) the hand is the same at the next draw. The
    /// concealed counts alone are the key: they hold 13 − 3 · melds tiles, so equal counts
    /// mean equal meld counts.
    last: [Option<([u8; KINDS], u64)>; 4],
    pub(crate) rows: Vec<TenpaiDraw>,
}

impl TenpaiDrawObserver {
    /// The wait mask of `seat`'s concealed hand, computed again only when the hand changed.
    fn waits_of(&mut self, hand: &HandState, seat: usize) -> u64 {
        let st = &hand.seats[seat];
        if let Some((kinds, mask)) = &self.last[seat] {
            if *kinds == st.kinds {
                return *mask;
            }
        }
        let mask = hand::wait_mask(&st.kinds, st.melds.len() as u8);
        self.last[seat] = Some((st.kinds, mask));
        mask
    }
}

impl Observer for TenpaiDrawObserver {
    fn hand_start(&mut self, _hand: &HandState) {
        self.since_riichi = [0; 4];
        self.last = [None; 4];
    }

    fn before_draw(&mut self, hand: &HandState, seat: usize, drawn: u8) {
        let st = &hand.seats[seat];
        let in_riichi = st.riichi.has_declared();
        if in_riichi {
            self.since_riichi[seat] += 1;
        }
        // Shanten 0 ⇔ a wait (hand::shanten's docs): when the replay already knows the hand's
        // shanten (§11 computes it after every discard), most hands are turned down by it;
        // otherwise the wait mask's count test is cheaper than a shanten.
        if hand.known_shanten(seat).is_some_and(|s| s != 0) {
            return;
        }
        let waits = self.waits_of(hand, seat);
        if waits == 0 {
            return;
        }
        let mut types = waits;
        if hand.red {
            for (suit, &five) in tile::FIVES.iter().enumerate() {
                types |= (waits >> five & 1) << (KINDS + suit);
            }
        }
        let (mut held, mut visible, mut outs) = (0u64, 0u64, 0u8);
        hand.with_type_counts(seat, |h, v| {
            for (i, t) in bits(types).enumerate() {
                held |= u64::from(h[t].min(7)) << (3 * i);
                visible |= u64::from(v[t].min(7)) << (3 * i);
            }
        });
        for k in bits(waits) {
            outs += 4u8.saturating_sub(st.kinds[k] + hand.visible[k]);
        }
        let kind = tile::kind(drawn);
        self.rows.push(TenpaiDraw {
            hand: hand.index,
            seat: seat as u8,
            turn: st.turn + 1,
            in_riichi,
            draws_since_riichi: if in_riichi {
                self.since_riichi[seat]
            } else {
                0
            },
            waits,
            types,
            held,
            visible,
            outs,
            unseen: hand.unseen_by(seat),
            drawn: kind as u8,
            hit: waits >> kind & 1 == 1,
            rinshan: hand.drawing_replacement(),
        });
    }
}
