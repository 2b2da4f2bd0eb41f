//! §23 every decision: one row per decision of every seat (a moment with two or more legal
//! actions, [`crate::replay::Decision`]), with its legal set and the action taken, for a
//! `choices` frame (one row per decision: game_id, hand, seat, turn, kind, legal, taken,
//! observed) written by the frame layer.
//!
//! Asking for these rows turns on the replay's second proof: a game where a seat took an
//! action outside its legal set is refused (`illegal-action`) and gives no rows.
//!
//! Invariants: rows are in the order the decisions close (event order; a ron's rivals at the
//! hand's end); `legal` holds two or more actions and, when `taken` is `Some`, holds it.
//! The report's splits (shanten before and after a call or kan, the riichi wait) are computed
//! only for the decisions of those kinds: a `discard` decision, three in four, costs none.

use crate::hand::{self, WaitShape};
use crate::replay::legal::{Action, DecisionKind};
use crate::replay::{Decision, HandState, Observer};
use crate::tile::{self, KINDS};

/// One §23 decision: the replay's own record of it (compact; text on request), and what the
/// `choices` report splits it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    pub(crate) d: Decision,
    /// The seat's shanten at the decision (§0): of its 14 − 3·melds tiles on its own turn (the
    /// lowest a discard leaves; −1 complete), of its 13 − 3·melds on another seat's tile.
    /// `None` for a `discard` decision (not asked).
    pub(crate) shanten: Option<i8>,
    /// A `chi`, `pon` or `daiminkan` decision: the lowest shanten the calls of its kind leave
    /// (a chi or pon: after the best discard that follows it; a daiminkan: before its
    /// replacement draw); an `ankan` or `kakan` decision: the lowest its kans leave.
    pub(crate) shanten_after: Option<i8>,
    /// A `riichi` decision: the wait of the tenpai discard with the most winning tiles unseen
    /// by the seat (4 − held − publicly visible, per wait kind; ties to the higher shape): its
    /// highest shape and that count.
    pub(crate) wait_shape: Option<WaitShape>,
    pub(crate) wait_count: Option<u8>,
}

impl Choice {
    /// The `kind` column: `discard`, `riichi`, `tsumo`, `ron`, `chi`, `pon`, `daiminkan`,
    /// `ankan`, `kakan` or `kyuushu`.
    pub(crate) fn kind_text(&self) -> &'static str {
        self.d.kind.as_str()
    }
}

/// Collects the §23 decisions of one game.
#[derive(Default)]
pub(crate) struct ChoiceObserver {
    pub(crate) rows: Vec<Choice>,
}

impl Observer for ChoiceObserver {
    fn wants_decisions(&self) -> bool {
        true
    }

    fn decision(&mut self, hand: &HandState, d: &Decision) {
        let mut c = Choice {
            d: d.clone(),
            shanten: None,
            shanten_after: None,
            wait_shape: None,
            wait_count: None,
        };
        if d.kind != DecisionKind::Discard {
            let seat = usize::from(d.seat);
            c.shanten = Some(hand.shanten(seat));
            match d.kind {
                DecisionKind::Chi
                | DecisionKind::Pon
                | DecisionKind::Daiminkan
                | DecisionKind::Ankan
                | DecisionKind::Kakan => {
                    c.shanten_after = d
                        .legal
                        .of_kind(d.kind)
                        .map(|a| shanten_after(hand, seat, a))
                        .min();
                }
                DecisionKind::Riichi => {
                    let (shape, count) = best_riichi_wait(hand, seat);
                    c.wait_shape = shape;
                    c.wait_count = Some(count);
                }
                _ => {}
            }
        }
        self.rows.push(c);
    }
}

/// The shanten `seat` is left with by call or kan `a` (§23's report split): after a chi or
/// pon, the lowest any discard leaves its 3n+2 tiles (one computation of the 3n+2 hand, 0 for
/// a complete one; the swap-call ban would change it only when the best discard is a banned
/// kind); after a daiminkan, ankan or kakan, of the hand before the replacement draw.
fn shanten_after(hand: &HandState, seat: usize, a: Action) -> i8 {
    let st = &hand.seats[seat];
    let melds = st.melds.len() as u8;
    let mut h = st.kinds;
    let offered = hand.claimable().map_or(0, |(_, t, _)| tile::kind(t));
    match a {
        // A complete hand's −1 is a discard away from tenpai: after its discard, 0.
        Action::Pon => {
            h[offered] -= 2;
            hand::shanten_for(&h, melds + 1, hand.players).max(0)
        }
        Action::Chi(x, y) => {
            h[tile::type_kind(x.into())] -= 1;
            h[tile::type_kind(y.into())] -= 1;
            hand::shanten_for(&h, melds + 1, hand.players).max(0)
        }
        Action::Daiminkan => {
            h[offered] -= 3;
            hand::shanten_for(&h, melds + 1, hand.players)
        }
        Action::Ankan(k) => {
            h[usize::from(k)] -= 4;
            hand::shanten_for(&h, melds + 1, hand.players)
        }
        Action::Kakan(k) => {
            h[usize::from(k)] -= 1;
            hand::shanten_for(&h, melds, hand.players)
        }
        _ => i8::MAX,
    }
}

/// The riichi wait of `seat` (holding 14 − 3·melds tiles) at a `riichi` decision: over its
/// discards that leave it tenpai, the one whose waits have the most copies unseen by the
/// seat, ties to the higher shape; its highest shape and that count. The wait masks find
/// the tenpai discards and their counts; the shapes are computed afterwards, for the discards
/// with the most copies only (one, mostly).
fn best_riichi_wait(hand: &HandState, seat: usize) -> (Option<WaitShape>, u8) {
    let st = &hand.seats[seat];
    let melds = st.melds.len() as u8;
    let mut h = st.kinds;
    // The discards that keep the lowest shanten (0: riichi is legal), each checked for a wait;
    // every kind held when the hand is complete (a riichi declared on a complete hand).
    let held = (0..KINDS).fold(0u64, |m, k| m | u64::from(st.kinds[k] > 0) << k);
    let candidates =
        hand::best_discards_for(&st.kinds, hand.players).map_or(held, |(_, m)| m & held);
    // The most unseen copies, and the discards (bit k) that leave that many.
    let (mut most, mut best) = (0u8, 0u64);
    for k in (0..KINDS).filter(|&k| candidates >> k & 1 == 1) {
        h[k] -= 1;
        let mask = hand::wait_mask(&h, melds);
        h[k] += 1;
        if mask == 0 {
            continue;
        }
        let unseen: u8 = (0..KINDS)
            .filter(|&x| mask >> x & 1 == 1)
            .map(|x| 4u8.saturating_sub(h[x] + hand.visible[x]))
            .sum();
        if unseen > most || best == 0 {
            (most, best) = (unseen, 1 << k);
        } else if unseen == most {
            best |= 1 << k;
        }
    }
    let shape = (0..KINDS)
        .filter(|&k| best >> k & 1 == 1)
        .filter_map(|k| {
            h[k] -= 1;
            let w = hand::waits(&h, melds);
            h[k] += 1;
            w.kinds().filter_map(|x| w.shape(x)).max()
        })
        .max();
    (shape, most)
}

#[cfg(test)]
mod tests {
    use crate::mjlog::decode;
    use crate::replay::legal::DecisionKind;

    /// f001 (tools/fixtures/README.md) through `observe_game_with` asking for choices: its
    /// rows are the decisions of the game, each with a legal set of two or more actions that
    /// holds the taken one; and its first hand's first decision is the dealer's first discard.
    #[test]
    fn choices_of_a_fixture() {
        let log = decode(include_bytes!(
            "../../fixtures/2099010100gm-00a9-0000-0000f001.xml"
        ))
        .unwrap();
        let mut draws = Vec::new();
        let obs = crate::stats::observe_game_with(
            &log,
            &mut draws,
            crate::stats::Observe {
                choices: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(!obs.choices.is_empty());
        for c in &obs.choices {
            let (c, extra) = (&c.d, c);
            assert!(c.legal.len() >= 2, "{c:?}");
            if let Some(t) = c.taken {
                assert!(c.legal.contains(t), "{c:?}");
            }
            assert_eq!(c.observed(), c.taken.is_some());
            // The splits are there for their kinds only.
            let kind = c.kind;
            assert_eq!(extra.shanten.is_some(), kind != DecisionKind::Discard);
            assert_eq!(extra.wait_count.is_some(), kind == DecisionKind::Riichi);
            if kind == DecisionKind::Riichi {
                assert_eq!(extra.shanten, Some(0), "riichi is legal only when tenpai");
                assert!(extra.wait_shape.is_some());
            }
            // The frame's text (plain pushes) is the actions' own forms, space-separated.
            let joined: Vec<String> = c.legal.actions().iter().map(|a| a.to_string()).collect();
            assert_eq!(c.legal.text(), joined.join(" "));
        }
        let first = &obs.choices[0].d;
        assert_eq!((first.hand, first.turn), (0, 0));
        assert_eq!(usize::from(first.seat), usize::from(log_dealer(&log)));
        // Without asking, no rows.
        let plain = crate::stats::observe_game(&log, &mut draws).unwrap();
        assert!(plain.choices.is_empty());
    }

    fn log_dealer(log: &crate::mjlog::GameLog) -> u8 {
        log.events
            .iter()
            .find_map(|e| match e {
                crate::mjlog::Event::Init(i) => Some(i.oya),
                _ => None,
            })
            .unwrap()
    }
}
