//! The legal actions of a seat at every moment of a hand (statistics.md §23), the decisions
//! they make, and the second proof: every action a player took is in the legal set computed
//! just before it (`illegal-action`).
//!
//! **Moments.** A seat acts (1) after its own draw (rinshan included): `tsumo`, `riichi`,
//! `ankan:<kind>`, `kakan:<kind>`, `kyuushu`, `kita`, `discard:<kind>`; (2) after its own chi or pon:
//! `discard:<kind>` under the swap-call ban (§7); (3) after its own `REACH step="1"`: the
//! declaration tile, `discard:<kind>` of the kinds that leave it tenpai; (4) after another
//! seat's discard: `ron`, `pon`, `daiminkan`, `chi:<tile><tile>`, `pass`; (5) after another
//! seat's kakan: `ron` (chankan) and `pass`. A closed kan (ankan) is robbed by no hand,
//! thirteen orphans included (Tenhou's rule; Mahjong Soul's differs): it makes no moment.
//!
//! **Tenhou's rules as coded** (each checked on the corpus: every Phoenix and other-room
//! action is in its legal set):
//! - a win (tsumo, ron) needs a yaku other than dora, scored by [`crate::score`] from the
//!   state as the AGARI would be (first-draw wins count tenhou/chiihou, houtei, chankan…);
//! - furiten forbids ron, never tsumo: a wait (§0) in the seat's own river (called tiles
//!   included); a wait passed (another seat's discard or kakan of a kind it waits on, whether
//!   a yaku made it winnable or not) since its own last discard; a wait passed after its own
//!   declaration discard (for the rest of the hand);
//! - riichi: closed hand (ankan allowed), not declared, ≥ 1,000 points, as many draws left in
//!   the live wall as seats (≥ 4; ≥ 3 with three players: a draw of its own to come), and some
//!   discard leaves a wait (§0);
//! - with three players (§24): no chi; `kita` after the seat's own draw when it holds a North
//!   (in riichi: the North just drawn) and the live wall is not empty; `ron` and `pass` on
//!   another seat's kita North (no chankan); passing a North one waits on is furiten as
//!   passing a discard is; kitas do not count toward the four kans;
//! - a kan (ankan, kakan, daiminkan) needs a draw left in the live wall and fewer than four
//!   kans on the table; in riichi an ankan only of the drawn tile's kind and only when the
//!   waits of the hand stay the same; no kakan, pon, chi or daiminkan in riichi;
//! - no call on the last tile of the wall, nor on the discard right after the fourth kan when
//!   two or more seats made the four (四槓散了: the hand ends after that discard unless it is
//!   won, so only `ron` and `pass`); a chi or pon only when some discard is still legal
//!   after it (the swap-call ban could forbid them all);
//! - `kyuushu` on the seat's first draw (no discard yet, not a replacement draw) when no call
//!   has been made in the hand, with nine or more distinct terminal and honour kinds.
//!
//! What the corpus shows of these edges (phoenix, 6,448 games): 65 riichi declared with
//! exactly 4 draws left and none with fewer; 707 ankan in riichi, each of the drawn kind with
//! the waits unchanged; 663 kyuushu taken and 137 declined; 333 wins passed (a ron
//! passed, or a tsumo not taken), some by players who then declared riichi for a bigger hand.
//!
//! **Decisions.** A decision is a moment where the seat has two or more legal actions; its
//! **taken** action is what the log shows next ([`Tracker`]); a seat whose call was
//! overtaken by a higher-priority one (ron > pon/daiminkan > chi) is **unobserved**. Its
//! **kind** is the kind of the taken action when that is neither `pass` nor a discard;
//! otherwise (a pass, a discard, unobserved) the first kind the legal set holds in the order
//! `tsumo`, `ron`, `riichi`, `kyuushu`, `ankan`, `kakan`, `daiminkan`, `pon`, `chi`,
//! `discard`. So a draw with riichi legal on which the seat discards is a `riichi` decision
//! taken `discard:…`, and the declaration tile that follows a `riichi` is a `discard`
//! decision of its own; a discard both pon and chi could take that the seat passes is a `pon`
//! decision; one it chis is a `chi` decision.
//!
//! Invariants: an [`Actions`] is a few bit sets (no allocation); text is made only on
//! request ([`Actions::text`], [`Action`]'s `Display`). The tracker is fed every event of a
//! hand before and after the replay applies it; it changes nothing in the [`HandState`].
//! It runs only when an observer asks for decisions ([`super::Observer::wants_decisions`]):
//! it costs the replay about 2.3× its own time (the corpus test prints the measure).

use std::fmt;

use super::state::HandState;
use super::{Check, ReplayError};
use crate::hand::{self, KindCounts};
use crate::mjlog::{Event, Meld, MeldKind};
use crate::rules::{Players, NORTH};
use crate::tile::{self, TileId, KINDS};

/// The legal kinds of a decision (§7): in riichi the drawn tile's kind; otherwise every kind
/// held, except after a call the swap-call kinds (喰い替え): after a pon the called kind, after
/// a chi the called kind and, when the called tile is the lowest of the sequence n, n+1, n+2,
/// the kind n+3, or when it is the highest, the kind n−3 (inside the suit).
pub(crate) fn legal_kinds(
    concealed: &[u8; KINDS],
    in_riichi: bool,
    drawn: Option<usize>,
    call: Option<(MeldKind, usize, usize)>,
) -> u64 {
    if let (true, Some(k)) = (in_riichi, drawn) {
        return 1 << k;
    }
    let mut legal = concealed
        .iter()
        .enumerate()
        .fold(0u64, |m, (k, &c)| m | u64::from(c > 0) << k);
    if let Some((kind, called, lowest)) = call {
        legal &= !(1 << called);
        if kind == MeldKind::Chi {
            let number = called % 9;
            if called == lowest && number + 3 < 9 {
                legal &= !(1 << (called + 3));
            } else if called == lowest + 2 && number >= 3 {
                legal &= !(1 << (called - 3));
            }
        }
    }
    legal
}

/// One action of a seat (text forms in the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Action {
    Tsumo,
    Riichi,
    Ankan(u8),
    Kakan(u8),
    Kyuushu,
    /// Set a North aside (three-player games, §24).
    Kita,
    Discard(u8),
    Ron,
    Pon,
    Daiminkan,
    /// The seat's two tiles as types (37 types: red fives apart), lower kind first.
    Chi(u8, u8),
    Pass,
}

impl Action {
    /// Appends the action's text form (module docs) to `out`: plain string pushes, no
    /// formatting machinery (a `choices` frame renders some 50 million of them).
    pub(crate) fn write_to(&self, out: &mut String) {
        let kind = |out: &mut String, prefix: &str, k: u8| {
            out.push_str(prefix);
            out.push_str(tile::kind_name(k.into()));
        };
        match *self {
            Action::Tsumo => out.push_str("tsumo"),
            Action::Riichi => out.push_str("riichi"),
            Action::Ankan(k) => kind(out, "ankan:", k),
            Action::Kakan(k) => kind(out, "kakan:", k),
            Action::Kyuushu => out.push_str("kyuushu"),
            Action::Kita => out.push_str("kita"),
            Action::Discard(k) => kind(out, "discard:", k),
            Action::Ron => out.push_str("ron"),
            Action::Pon => out.push_str("pon"),
            Action::Daiminkan => out.push_str("daiminkan"),
            Action::Chi(a, b) => {
                out.push_str("chi:");
                out.push_str(tile::type_name(a.into()));
                out.push_str(tile::type_name(b.into()));
            }
            Action::Pass => out.push_str("pass"),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(12);
        self.write_to(&mut s);
        f.write_str(&s)
    }
}

/// The kind of a decision (module docs: how it is chosen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum DecisionKind {
    Tsumo,
    Ron,
    Riichi,
    Kyuushu,
    Ankan,
    Kakan,
    Kita,
    Daiminkan,
    Pon,
    Chi,
    Discard,
}

impl DecisionKind {
    /// Every kind, in the order that picks a decision's kind.
    pub(crate) const ALL: [DecisionKind; 11] = [
        DecisionKind::Tsumo,
        DecisionKind::Ron,
        DecisionKind::Riichi,
        DecisionKind::Kyuushu,
        DecisionKind::Ankan,
        DecisionKind::Kakan,
        DecisionKind::Kita,
        DecisionKind::Daiminkan,
        DecisionKind::Pon,
        DecisionKind::Chi,
        DecisionKind::Discard,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            DecisionKind::Tsumo => "tsumo",
            DecisionKind::Ron => "ron",
            DecisionKind::Riichi => "riichi",
            DecisionKind::Kyuushu => "kyuushu",
            DecisionKind::Ankan => "ankan",
            DecisionKind::Kakan => "kakan",
            DecisionKind::Kita => "kita",
            DecisionKind::Daiminkan => "daiminkan",
            DecisionKind::Pon => "pon",
            DecisionKind::Chi => "chi",
            DecisionKind::Discard => "discard",
        }
    }

    /// The kind of a decision `a` makes when taken (`None` for `pass` and discards).
    fn of_action(a: Action) -> Option<DecisionKind> {
        Some(match a {
            Action::Tsumo => DecisionKind::Tsumo,
            Action::Riichi => DecisionKind::Riichi,
            Action::Ankan(_) => DecisionKind::Ankan,
            Action::Kakan(_) => DecisionKind::Kakan,
            Action::Kyuushu => DecisionKind::Kyuushu,
            Action::Kita => DecisionKind::Kita,
            Action::Ron => DecisionKind::Ron,
            Action::Pon => DecisionKind::Pon,
            Action::Daiminkan => DecisionKind::Daiminkan,
            Action::Chi(..) => DecisionKind::Chi,
            Action::Discard(_) | Action::Pass => return None,
        })
    }
}

const TSUMO: u8 = 1;
const RIICHI: u8 = 2;
const KYUUSHU: u8 = 4;
const RON: u8 = 8;
const PON: u8 = 16;
const DAIMINKAN: u8 = 32;
const PASS: u8 = 64;
const KITA: u8 = 128;

/// The set bits of `m`, lowest first.
fn bits(mut m: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let k = m.trailing_zeros() as u8;
            m &= m - 1;
            k
        })
    })
}

/// The legal actions of a seat at a moment: bit sets, no allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Actions {
    /// `TSUMO`, `RIICHI`, `KYUUSHU`, `RON`, `PON`, `DAIMINKAN`, `PASS`, `KITA`.
    flags: u8,
    /// Kinds (bit k) that may be discarded, closed-kanned, added to a pon.
    discard: u64,
    ankan: u64,
    kakan: u64,
    /// Chi options, bit `2·j + red`: j = 0 the called tile is the lowest of the sequence, 1
    /// the middle, 2 the highest; `red` when the seat's five in the pair is the red one.
    chi: u8,
    /// The kind of the tile a chi would take.
    chi_kind: u8,
    /// Whether the game has red fives (for the chi tiles' types).
    red_game: bool,
}

impl Actions {
    /// Number of legal actions.
    pub(crate) fn len(&self) -> u32 {
        self.flags.count_ones()
            + self.discard.count_ones()
            + self.ankan.count_ones()
            + self.kakan.count_ones()
            + self.chi.count_ones()
    }

    /// The set holding exactly `actions` (tests of the engines that answer decisions);
    /// `chi_kind` is the kind a chi among them would take.
    #[cfg(test)]
    pub(crate) fn of(actions: &[Action], chi_kind: u8) -> Actions {
        let mut a = Actions {
            chi_kind,
            red_game: true,
            ..Actions::default()
        };
        for &x in actions {
            match x {
                Action::Tsumo => a.flags |= TSUMO,
                Action::Riichi => a.flags |= RIICHI,
                Action::Kyuushu => a.flags |= KYUUSHU,
                Action::Kita => a.flags |= KITA,
                Action::Ron => a.flags |= RON,
                Action::Pon => a.flags |= PON,
                Action::Daiminkan => a.flags |= DAIMINKAN,
                Action::Pass => a.flags |= PASS,
                Action::Discard(k) => a.discard |= 1 << k,
                Action::Ankan(k) => a.ankan |= 1 << k,
                Action::Kakan(k) => a.kakan |= 1 << k,
                Action::Chi(x, y) => {
                    let lowest = tile::type_kind(x.into()).min(tile::type_kind(y.into())) as u8;
                    let j = match lowest {
                        l if l == chi_kind + 1 => 0,
                        l if l + 1 == chi_kind => 1,
                        _ => 2,
                    };
                    let red = u8::from(usize::from(x) >= KINDS || usize::from(y) >= KINDS);
                    a.chi |= 1 << (2 * j + red);
                }
            }
        }
        debug_assert!(actions.iter().all(|&x| a.contains(x)));
        a
    }

    /// The calls and kans of decision kind `k` in the set, without allocating (a chi
    /// decision's chi options, a pon's pon, …; none for another kind).
    pub(crate) fn of_kind(&self, k: DecisionKind) -> impl Iterator<Item = Action> + '_ {
        let chis = (k == DecisionKind::Chi).then(|| self.chi_actions());
        let one = match k {
            DecisionKind::Pon if self.flags & PON != 0 => Some(Action::Pon),
            DecisionKind::Daiminkan if self.flags & DAIMINKAN != 0 => Some(Action::Daiminkan),
            _ => None,
        };
        let ankans = bits(if k == DecisionKind::Ankan {
            self.ankan
        } else {
            0
        })
        .map(Action::Ankan);
        let kakans = bits(if k == DecisionKind::Kakan {
            self.kakan
        } else {
            0
        })
        .map(Action::Kakan);
        chis.into_iter()
            .flatten()
            .chain(one)
            .chain(ankans)
            .chain(kakans)
    }

    /// The kinds that may be discarded (bit k).
    pub(crate) fn discards(&self) -> u64 {
        self.discard
    }

    /// True when `a` is legal.
    pub(crate) fn contains(&self, a: Action) -> bool {
        let bit = |m: u64, k: u8| k < KINDS as u8 && m >> k & 1 == 1;
        match a {
            Action::Tsumo => self.flags & TSUMO != 0,
            Action::Riichi => self.flags & RIICHI != 0,
            Action::Kyuushu => self.flags & KYUUSHU != 0,
            Action::Kita => self.flags & KITA != 0,
            Action::Ron => self.flags & RON != 0,
            Action::Pon => self.flags & PON != 0,
            Action::Daiminkan => self.flags & DAIMINKAN != 0,
            Action::Pass => self.flags & PASS != 0,
            Action::Discard(k) => bit(self.discard, k),
            Action::Ankan(k) => bit(self.ankan, k),
            Action::Kakan(k) => bit(self.kakan, k),
            Action::Chi(..) => self.chi_actions().any(|c| c == a),
        }
    }

    /// True when a non-pass action other than a discard is legal (a seat whose only legal
    /// action after another's discard is `pass` has no set at all).
    fn any_claim(&self) -> bool {
        self.flags & (RON | PON | DAIMINKAN) != 0 || self.chi != 0
    }

    fn chi_actions(&self) -> impl Iterator<Item = Action> + '_ {
        (0..6u8).filter(move |b| self.chi >> b & 1 == 1).map(|b| {
            let k = self.chi_kind;
            let (x, y) = match b / 2 {
                0 => (k + 1, k + 2),
                1 => (k - 1, k + 1),
                _ => (k - 2, k - 1),
            };
            let ty = |kind: u8| {
                if b % 2 == 1 && tile::FIVES.contains(&usize::from(kind)) {
                    (KINDS + usize::from(kind) / 9) as u8
                } else {
                    kind
                }
            };
            Action::Chi(ty(x), ty(y))
        })
    }

    /// Every legal action, in the text order: tsumo, riichi, ankan, kakan, kyuushu, kita, ron,
    /// pon, daiminkan, chi, pass, discards (kinds ascending).
    pub(crate) fn actions(&self) -> Vec<Action> {
        let mut v = Vec::with_capacity(self.len() as usize);
        let kinds = |m: u64| (0..KINDS as u8).filter(move |k| m >> k & 1 == 1);
        if self.flags & TSUMO != 0 {
            v.push(Action::Tsumo);
        }
        if self.flags & RIICHI != 0 {
            v.push(Action::Riichi);
        }
        v.extend(kinds(self.ankan).map(Action::Ankan));
        v.extend(kinds(self.kakan).map(Action::Kakan));
        if self.flags & KYUUSHU != 0 {
            v.push(Action::Kyuushu);
        }
        if self.flags & KITA != 0 {
            v.push(Action::Kita);
        }
        for (flag, a) in [
            (RON, Action::Ron),
            (PON, Action::Pon),
            (DAIMINKAN, Action::Daiminkan),
        ] {
            if self.flags & flag != 0 {
                v.push(a);
            }
        }
        v.extend(self.chi_actions());
        if self.flags & PASS != 0 {
            v.push(Action::Pass);
        }
        v.extend(kinds(self.discard).map(Action::Discard));
        v
    }

    /// The legal set as text: its actions space-separated ([`Actions::actions`]' order).
    pub(crate) fn text(&self) -> String {
        let mut s = String::with_capacity(16 * self.len() as usize);
        self.write_text(&mut s);
        s
    }

    /// Appends [`Actions::text`] to `out` without allocating: the actions in
    /// [`Actions::actions`]' order.
    pub(crate) fn write_text(&self, out: &mut String) {
        let start = out.len();
        let mut put = |a: Action| {
            if out.len() > start {
                out.push(' ');
            }
            a.write_to(out);
        };
        if self.flags & TSUMO != 0 {
            put(Action::Tsumo);
        }
        if self.flags & RIICHI != 0 {
            put(Action::Riichi);
        }
        bits(self.ankan).for_each(|k| put(Action::Ankan(k)));
        bits(self.kakan).for_each(|k| put(Action::Kakan(k)));
        for (flag, a) in [
            (KYUUSHU, Action::Kyuushu),
            (KITA, Action::Kita),
            (RON, Action::Ron),
            (PON, Action::Pon),
            (DAIMINKAN, Action::Daiminkan),
        ] {
            if self.flags & flag != 0 {
                put(a);
            }
        }
        self.chi_actions().for_each(&mut put);
        if self.flags & PASS != 0 {
            put(Action::Pass);
        }
        // The common case, a discard decision: one reservation, then plain pushes.
        out.reserve(11 * self.discard.count_ones() as usize);
        for k in bits(self.discard) {
            if out.len() > start {
                out.push(' ');
            }
            out.push_str("discard:");
            out.push_str(tile::kind_name(k.into()));
        }
    }

    /// The kind of a decision on this set taken `taken` (module docs).
    pub(crate) fn kind(&self, taken: Option<Action>) -> DecisionKind {
        if let Some(k) = taken.and_then(DecisionKind::of_action) {
            return k;
        }
        let has = |k: DecisionKind| match k {
            DecisionKind::Tsumo => self.flags & TSUMO != 0,
            DecisionKind::Ron => self.flags & RON != 0,
            DecisionKind::Riichi => self.flags & RIICHI != 0,
            DecisionKind::Kyuushu => self.flags & KYUUSHU != 0,
            DecisionKind::Ankan => self.ankan != 0,
            DecisionKind::Kakan => self.kakan != 0,
            DecisionKind::Kita => self.flags & KITA != 0,
            DecisionKind::Daiminkan => self.flags & DAIMINKAN != 0,
            DecisionKind::Pon => self.flags & PON != 0,
            DecisionKind::Chi => self.chi != 0,
            DecisionKind::Discard => true,
        };
        DecisionKind::ALL
            .into_iter()
            .find(|&k| has(k))
            .unwrap_or(DecisionKind::Discard)
    }
}

/// One decision (module docs): a moment with two or more legal actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The seat's discards so far in the hand (§0's turn).
    pub(crate) turn: u8,
    pub(crate) kind: DecisionKind,
    pub(crate) legal: Actions,
    /// What the log shows the seat doing; `None` when unobserved.
    pub(crate) taken: Option<Action>,
}

impl Decision {
    pub(crate) fn observed(&self) -> bool {
        self.taken.is_some()
    }
}

/// Kans on the table (ankan, daiminkan, kakan of every seat).
fn kans(st: &HandState) -> usize {
    st.seats.iter().map(|s| s.kan_count()).sum()
}

/// Four kans on the table, not all of one seat: the next discard ends the hand unless it is
/// won (四槓散了), so nothing but a ron may claim it.
fn four_kans_apart(st: &HandState) -> bool {
    kans(st) == 4 && st.seats.iter().all(|s| s.kan_count() < 4)
}

fn mask(counts: &KindCounts) -> u64 {
    counts
        .iter()
        .enumerate()
        .fold(0u64, |m, (k, &c)| m | u64::from(c > 0) << k)
}

/// The action a call is (for the seat that made it).
fn call_action(meld: &Meld, red_game: bool) -> Action {
    let k = tile::kind(meld.tiles[0]) as u8;
    match meld.kind {
        MeldKind::Chi => {
            let mut own = meld
                .tiles()
                .iter()
                .filter(|&&t| Some(t) != meld.called)
                .map(|&t| tile::tile_type(t, red_game) as u8);
            let a = own.next().unwrap_or(0);
            let b = own.next().unwrap_or(0);
            if tile::type_kind(a.into()) <= tile::type_kind(b.into()) {
                Action::Chi(a, b)
            } else {
                Action::Chi(b, a)
            }
        }
        MeldKind::Pon => Action::Pon,
        MeldKind::Daiminkan => Action::Daiminkan,
        MeldKind::Ankan => Action::Ankan(k),
        MeldKind::Kakan => Action::Kakan(k),
        MeldKind::Nukidora => Action::Pass,
    }
}

impl HandState {
    /// The legal actions of `seat` just after its own draw (`next` is its discard and it holds
    /// the drawn tile).
    #[cfg(test)]
    pub(crate) fn actions_after_draw(&self, seat: usize) -> Actions {
        self.actions_after_draw_with(seat, None)
    }

    /// [`HandState::actions_after_draw`], given the wait mask of the hand before the draw when
    /// the caller knows it (the [`Tracker`] does, but after a kan).
    pub(crate) fn actions_after_draw_with(
        &self,
        seat: usize,
        waits_before: Option<u64>,
    ) -> Actions {
        let s = &self.seats[seat];
        let melds = s.melds.len() as u8;
        let mut a = Actions {
            red_game: self.red,
            ..Actions::default()
        };
        let Some(drawn) = s.drawn else {
            return a;
        };
        let dk = tile::kind(drawn);
        let in_riichi = s.riichi.has_declared();
        let waits_before = waits_before.unwrap_or_else(|| {
            let mut before = s.kinds;
            before[dk] -= 1;
            hand::wait_mask(&before, melds)
        });
        // Complete ⇔ the drawn kind is a wait of the hand before the draw.
        if waits_before >> dk & 1 == 1
            && self
                .score_win_on(seat as u8, seat as u8, drawn, &[])
                .is_some()
        {
            a.flags |= TSUMO;
        }
        let kan_ok = self.live_wall > 0 && kans(self) < 4;
        // A kita of a North held (in riichi, of the North just drawn) while the live wall has
        // a replacement draw to give.
        if self.players == Players::Three
            && self.live_wall > 0
            && s.kinds[NORTH] > 0
            && (!in_riichi || dk == NORTH)
        {
            a.flags |= KITA;
        }
        if in_riichi {
            a.discard = 1 << dk;
            if kan_ok && s.kinds[dk] == 4 {
                let mut after = s.kinds;
                after[dk] = 0;
                let w = waits_before;
                if w != 0 && hand::wait_mask(&after, melds + 1) == w {
                    a.ankan = 1 << dk;
                }
            }
            return a;
        }
        a.discard = mask(&s.kinds);
        if kan_ok {
            for (k, &c) in s.kinds.iter().enumerate() {
                if c == 4 {
                    a.ankan |= 1 << k;
                }
            }
            for m in s.melds.iter().filter(|m| m.kind == MeldKind::Pon) {
                let k = tile::kind(m.tiles[0]);
                if s.kinds[k] >= 1 {
                    a.kakan |= 1 << k;
                }
            }
        }
        // Tenpai after some discard: the drawn tile's when the hand was tenpai before the draw;
        // never when it was two or more from it (a draw lowers shanten by one at most).
        let far =
            s.shanten_before_draw != super::state::UNKNOWN_SHANTEN && s.shanten_before_draw >= 2;
        if s.riichi == super::RiichiState::None
            && s.is_closed()
            && self.scores[seat] >= 1000
            && usize::from(self.live_wall) >= self.players.seats()
            && (waits_before != 0 || (!far && self.tenpai_after_some_discard(seat)))
        {
            a.flags |= RIICHI;
        }
        if s.turn == 0 && self.calls == 0 && !s.drawn_rinshan {
            let distinct = hand::YAOCHU.iter().filter(|&&k| s.kinds[k] > 0).count();
            if distinct >= 9 {
                a.flags |= KYUUSHU;
            }
        }
        a
    }

    /// Whether some discard leaves `seat` (holding 14 − 3·melds tiles) with a wait (§0): one
    /// shanten of the 14 tiles rather than a wait of each discard ([`tenpai_discards`]), which
    /// a riichi's legality at every draw needs no more than. Exact by two facts of
    /// [`hand::shanten`]: of 14 − 3·melds tiles not complete it is the lowest any discard
    /// leaves, and 13 − 3·melds tiles are at shanten 0 exactly when they have a wait. A
    /// complete hand (−1) is asked of its discards one by one.
    ///
    /// [`tenpai_discards`]: HandState::tenpai_discards
    fn tenpai_after_some_discard(&self, seat: usize) -> bool {
        match self.shanten(seat) {
            0 => true,
            -1 => self.tenpai_discards(seat) != 0,
            _ => false,
        }
    }

    /// The kinds `seat` (holding 14 − 3·melds tiles) may discard and leave a wait (§0).
    fn tenpai_discards(&self, seat: usize) -> u64 {
        let s = &self.seats[seat];
        let melds = s.melds.len() as u8;
        if self.shanten(seat) > 0 {
            return 0;
        }
        let mut out = 0;
        let mut h = s.kinds;
        for k in 0..KINDS {
            if h[k] > 0 {
                h[k] -= 1;
                if hand::wait_mask(&h, melds) != 0 {
                    out |= 1 << k;
                }
                h[k] += 1;
            }
        }
        out
    }

    /// The legal declaration tiles of `seat` after its `REACH step="1"`.
    pub(crate) fn actions_declaring(&self, seat: usize) -> Actions {
        Actions {
            discard: self.tenpai_discards(seat),
            red_game: self.red,
            ..Actions::default()
        }
    }

    /// The legal discards of `seat` just after its chi or pon `meld` (swap-call ban).
    pub(crate) fn actions_after_call(&self, seat: usize, meld: &Meld) -> Actions {
        let s = &self.seats[seat];
        let call = meld.called.map(|c| {
            let lowest = meld
                .tiles()
                .iter()
                .map(|&t| tile::kind(t))
                .min()
                .unwrap_or(0);
            (meld.kind, tile::kind(c), lowest)
        });
        Actions {
            discard: legal_kinds(&s.kinds, false, None, call),
            red_game: self.red,
            ..Actions::default()
        }
    }

    /// True when `seat` may ron tile `t` from `from` now, but for furiten (which the
    /// [`Tracker`] knows): `t` is one of its waits and the win has a yaku.
    fn can_win_on(&self, seat: usize, from: u8, t: TileId, waits: u64) -> bool {
        waits >> tile::kind(t) & 1 == 1 && self.score_win_on(seat as u8, from, t, &[]).is_some()
    }

    /// The legal actions of `seat` on the discard `t` of `from` (just applied); `furiten` as the
    /// tracker knows it, `waits` the seat's wait mask.
    pub(crate) fn actions_on_discard(
        &self,
        seat: usize,
        from: u8,
        t: TileId,
        waits: u64,
        furiten: bool,
    ) -> Actions {
        let s = &self.seats[seat];
        let mut a = self.actions_on_kita(seat, from, t, waits, furiten);
        let k = tile::kind(t);
        // No call on the last tile, from a riichi hand, or on the discard after four kans of
        // two or more seats (the hand ends unless it is won).
        if self.live_wall == 0 || s.riichi.has_declared() || four_kans_apart(self) {
            return a;
        }
        // A call is legal when some discard stays legal after it (swap-call ban).
        let callable = |kind: MeldKind, take: &[usize], lowest: usize| {
            let mut h = s.kinds;
            for &x in take {
                h[x] -= 1;
            }
            legal_kinds(&h, false, None, Some((kind, k, lowest))) != 0
        };
        if s.kinds[k] >= 2 && callable(MeldKind::Pon, &[k, k], k) {
            a.flags |= PON;
        }
        if s.kinds[k] >= 3 && kans(self) < 4 {
            a.flags |= DAIMINKAN;
        }
        if self.players == Players::Four && seat as u8 == (from + 1) % 4 && !tile::is_honor(k) {
            let n = k % 9;
            a.chi_kind = k as u8;
            for j in 0..3u8 {
                let (x, y, lowest) = match j {
                    0 if n <= 6 => (k + 1, k + 2, k),
                    1 if (1..=7).contains(&n) => (k - 1, k + 1, k - 1),
                    2 if n >= 2 => (k - 2, k - 1, k - 2),
                    _ => continue,
                };
                if s.kinds[x] == 0 || s.kinds[y] == 0 || !callable(MeldKind::Chi, &[x, y], lowest) {
                    continue;
                }
                // The five in the pair, if any: black and red copies are two options.
                let five = [x, y].into_iter().find(|f| tile::FIVES.contains(f));
                match five {
                    Some(f) => {
                        let red_held = self.red && self.is_in_hand(tile::RED_IDS[f / 9], seat);
                        let black = s.kinds[f] - u8::from(red_held);
                        if black > 0 {
                            a.chi |= 1 << (2 * j);
                        }
                        if red_held {
                            a.chi |= 1 << (2 * j + 1);
                        }
                    }
                    None => a.chi |= 1 << (2 * j),
                }
            }
        }
        a
    }

    /// The legal actions of `seat` on the North `t` of `from`'s kita (just applied): a ron on
    /// it (no chankan) and `pass` (what any claim of a tile starts from).
    pub(crate) fn actions_on_kita(
        &self,
        seat: usize,
        from: u8,
        t: TileId,
        waits: u64,
        furiten: bool,
    ) -> Actions {
        let mut a = Actions {
            flags: PASS,
            red_game: self.red,
            ..Actions::default()
        };
        if !furiten && self.can_win_on(seat, from, t, waits) {
            a.flags |= RON;
        }
        a
    }

    /// The legal actions of `seat` on the kan tile `t` of `from` (just applied): a chankan ron
    /// on a kakan. An ankan is robbed by no hand under Tenhou's rules, thirteen orphans
    /// included (docs/definitions.md §23): `seat` may only pass it.
    pub(crate) fn actions_on_kan(
        &self,
        seat: usize,
        from: u8,
        t: TileId,
        ankan: bool,
        waits: u64,
        furiten: bool,
    ) -> Actions {
        let mut a = Actions {
            flags: PASS,
            red_game: self.red,
            ..Actions::default()
        };
        if !ankan && !furiten && self.can_win_on(seat, from, t, waits) {
            a.flags |= RON;
        }
        a
    }
}

/// What other seats may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claimed {
    /// A discard (ron, pon, daiminkan, chi).
    Discard,
    /// A kakan's added tile (chankan) or an ankan's tile (which nothing may claim).
    Kan { ankan: bool },
    /// A kita's North (ron only).
    Kita,
}

/// Who may act now, and on what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moment {
    None,
    /// One seat to act on its own turn (after a draw, a call, a `REACH step="1"`).
    Own(u8),
    /// Other seats may claim the discard or robbable kan tile of seat `from`.
    Claim {
        from: u8,
    },
}

/// Follows a hand's events and knows, before each, every seat's legal set: refuses an action
/// that is not in it, and hands each decision to `sink` (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Tracker {
    moment: Moment,
    /// Legal set per seat at the moment; `None` for a seat with nothing to choose.
    pending: [Option<Actions>; 4],
    /// Wait mask of each seat's hand between its turns (set at the deal and at its discards).
    waits: [u64; 4],
    /// Kinds in each seat's river (bit k; called tiles included).
    river: [u64; 4],
    /// Temporary furiten: a wait passed since the seat's last discard.
    passed: [bool; 4],
    /// Riichi furiten: a wait passed after its declaration.
    riichi_furiten: [bool; 4],
    /// The seat made a call or kan since `waits` was set: its hand is not the one of its last
    /// discard plus a draw.
    called: [bool; 4],
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker {
            moment: Moment::None,
            pending: [None; 4],
            waits: [0; 4],
            river: [0; 4],
            passed: [false; 4],
            riichi_furiten: [false; 4],
            called: [false; 4],
        }
    }
}

fn illegal(st: &HandState, seat: u8, a: Action, legal: Option<&Actions>) -> ReplayError {
    ReplayError {
        hand: Some(usize::from(st.index)),
        check: Check::IllegalAction,
        detail: format!(
            "seat {seat} took {a}; its legal actions were: {}",
            legal.map_or("none".into(), |l| if l.len() == 0 {
                "none".into()
            } else {
                l.text()
            })
        ),
    }
}

impl Tracker {
    /// A new hand: `st` just dealt.
    pub(crate) fn start(&mut self, st: &HandState) {
        *self = Tracker::default();
        for s in 0..st.players.seats() {
            let seat = &st.seats[s];
            self.waits[s] = hand::wait_mask(&seat.kinds, seat.melds.len() as u8);
        }
    }

    /// Emits the pending seats' decisions: `taken[s]` per seat (`None` unobserved).
    fn resolve(
        &mut self,
        st: &HandState,
        taken: [Option<Action>; 4],
        sink: &mut impl FnMut(&HandState, &Decision),
    ) {
        for (s, &t) in taken.iter().enumerate() {
            let Some(legal) = self.pending[s].take() else {
                continue;
            };
            if legal.len() < 2 {
                continue;
            }
            sink(
                st,
                &Decision {
                    hand: st.index,
                    seat: s as u8,
                    turn: st.seats[s].turn,
                    kind: legal.kind(t),
                    legal,
                    taken: t,
                },
            );
        }
        self.moment = Moment::None;
    }

    /// Checks that `seat` may take `a` now.
    fn check(&self, st: &HandState, seat: u8, a: Action) -> Result<(), ReplayError> {
        let legal = self.pending[usize::from(seat)].as_ref();
        if legal.is_some_and(|l| l.contains(a)) {
            return Ok(());
        }
        Err(illegal(st, seat, a, legal))
    }

    /// Before the replay applies `ev` to `st`: the taken action of every seat that had a
    /// choice, checked against its legal set, and the decisions it closes.
    pub(crate) fn before(
        &mut self,
        st: &HandState,
        ev: &Event,
        sink: &mut impl FnMut(&HandState, &Decision),
    ) -> Result<(), ReplayError> {
        match self.moment {
            Moment::None => {}
            Moment::Own(p) => {
                let a = match ev {
                    Event::Agari(x) if x.who == p && x.from_who == p => Some(Action::Tsumo),
                    Event::Reach { who, step: 1, .. } if *who == p => Some(Action::Riichi),
                    Event::Call { who, meld, .. }
                        if *who == p && matches!(meld.kind, MeldKind::Ankan | MeldKind::Kakan) =>
                    {
                        Some(call_action(meld, st.red))
                    }
                    Event::Discard { seat, tile } if *seat == p => {
                        Some(Action::Discard(tile::kind(*tile) as u8))
                    }
                    Event::Kita { who, .. } if *who == p => Some(Action::Kita),
                    Event::Ryuukyoku(r) if st.draw_name(r) == "yao9" => Some(Action::Kyuushu),
                    Event::Dora { .. } => return Ok(()),
                    _ => None,
                };
                if let Some(a) = a {
                    self.check(st, p, a)?;
                }
                let mut taken = [None; 4];
                taken[usize::from(p)] = a;
                self.resolve(st, taken, sink);
            }
            Moment::Claim { from } => {
                let mut taken = [None; 4];
                match ev {
                    Event::Dora { .. } | Event::Reach { step: 2, .. } => return Ok(()),
                    Event::Agari(x) if x.who != x.from_who && x.from_who == from => {
                        // A ron: further AGARIs may follow (a double ron); the others' choices
                        // are settled at the hand's end ([`Tracker::end`]).
                        self.check(st, x.who, Action::Ron)?;
                        let legal = self.pending[usize::from(x.who)].take();
                        self.emit_one(st, x.who, legal, Some(Action::Ron), sink);
                        return Ok(());
                    }
                    Event::Call { who, meld, .. }
                        if matches!(
                            meld.kind,
                            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan
                        ) =>
                    {
                        let a = call_action(meld, st.red);
                        self.check(st, *who, a)?;
                        let chi = meld.kind == MeldKind::Chi;
                        for (s, t) in taken.iter_mut().enumerate() {
                            let Some(l) = &self.pending[s] else { continue };
                            *t = if s == usize::from(*who) {
                                Some(a)
                            } else if l.flags & RON != 0
                                || (chi && l.flags & (PON | DAIMINKAN) != 0)
                            {
                                // It outranked the call: it passed.
                                Some(Action::Pass)
                            } else {
                                None
                            };
                        }
                    }
                    Event::Ryuukyoku(r) if st.draw_name(r) == "ron3" => {
                        taken = self
                            .pending
                            .map(|p| p.filter(|l| l.flags & RON != 0).map(|_| Action::Ron));
                    }
                    _ => {
                        taken = self.pending.map(|p| p.map(|_| Action::Pass));
                    }
                }
                self.resolve(st, taken, sink);
                return Ok(());
            }
        }
        // An action by a seat that had no choice to make now.
        match ev {
            Event::Agari(x) if x.who != x.from_who => {
                return Err(illegal(st, x.who, Action::Ron, None));
            }
            Event::Call { who, meld, .. }
                if matches!(
                    meld.kind,
                    MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan
                ) =>
            {
                return Err(illegal(st, *who, call_action(meld, st.red), None));
            }
            _ => {}
        }
        Ok(())
    }

    fn emit_one(
        &self,
        st: &HandState,
        seat: u8,
        legal: Option<Actions>,
        taken: Option<Action>,
        sink: &mut impl FnMut(&HandState, &Decision),
    ) {
        let Some(legal) = legal.filter(|l| l.len() >= 2) else {
            return;
        };
        sink(
            st,
            &Decision {
                hand: st.index,
                seat,
                turn: st.seats[usize::from(seat)].turn,
                kind: legal.kind(taken),
                legal,
                taken,
            },
        );
    }

    /// The hand is over: the seats still pending after a ron passed theirs if they could ron
    /// too (a ron is not outranked), and are unobserved otherwise.
    pub(crate) fn end(&mut self, st: &HandState, sink: &mut impl FnMut(&HandState, &Decision)) {
        let taken = self
            .pending
            .map(|p| p.filter(|l| l.flags & RON != 0).map(|_| Action::Pass));
        self.resolve(st, taken, sink);
    }

    /// After the replay applied `ev` to `st`: the new moment and every seat's legal set, and
    /// the furiten the event makes.
    pub(crate) fn after(&mut self, st: &HandState, ev: &Event) {
        match ev {
            Event::Draw { seat, .. } => {
                let s = usize::from(*seat);
                // After a kan the hand before the replacement draw is not the one of its
                // last discard.
                let known = (!st.seats[s].drawn_rinshan).then_some(self.waits[s]);
                self.own(*seat, st.actions_after_draw_with(s, known));
            }
            Event::Reach { who, step: 1, .. } => {
                self.own(*who, st.actions_declaring(usize::from(*who)));
            }
            Event::Discard { seat, tile } => {
                let d = usize::from(*seat);
                let sd = &st.seats[d];
                // A tsumogiri with no call or kan since the seat's last discard leaves the hand
                // of that discard, and its waits (a third of all discards: not computed again).
                let same = !self.called[d] && sd.river.last().is_some_and(|r| r.tsumogiri);
                if !same {
                    self.waits[d] = hand::wait_mask(&sd.kinds, sd.melds.len() as u8);
                }
                self.called[d] = false;
                self.river[d] |= 1 << tile::kind(*tile);
                self.passed[d] = false;
                self.claim(st, *seat, *tile, Claimed::Discard);
            }
            Event::Kita { who, tile } => {
                self.called[usize::from(*who)] = true;
                self.claim(st, *who, *tile, Claimed::Kita);
            }
            Event::Call { who, meld, .. } => {
                self.called[usize::from(*who)] = true;
                match meld.kind {
                    MeldKind::Chi | MeldKind::Pon => {
                        self.own(*who, st.actions_after_call(usize::from(*who), meld));
                    }
                    MeldKind::Kakan => {
                        let t = meld.added.unwrap_or(meld.tiles[3]);
                        self.claim(st, *who, t, Claimed::Kan { ankan: false });
                    }
                    MeldKind::Ankan => {
                        self.claim(st, *who, meld.tiles[0], Claimed::Kan { ankan: true });
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn own(&mut self, seat: u8, a: Actions) {
        self.moment = Moment::Own(seat);
        self.pending = [None; 4];
        self.pending[usize::from(seat)] = Some(a);
    }

    /// Seat `from` discarded `t`, made a kan of `t` or set the North `t` aside: each other
    /// seat's legal set, then the furiten of a wait not taken.
    fn claim(&mut self, st: &HandState, from: u8, t: TileId, what: Claimed) {
        self.moment = Moment::Claim { from };
        self.pending = [None; 4];
        let k = tile::kind(t);
        for s in 0..st.players.seats() {
            if s == usize::from(from) {
                continue;
            }
            let seat = &st.seats[s];
            let furiten =
                self.river[s] & self.waits[s] != 0 || self.passed[s] || self.riichi_furiten[s];
            let a = match what {
                Claimed::Discard => st.actions_on_discard(s, from, t, self.waits[s], furiten),
                Claimed::Kan { ankan } => {
                    st.actions_on_kan(s, from, t, ankan, self.waits[s], furiten)
                }
                Claimed::Kita => st.actions_on_kita(s, from, t, self.waits[s], furiten),
            };
            if a.any_claim() {
                self.pending[s] = Some(a);
            }
            // An ankan's tile cannot be robbed: letting it go is no pass, and no furiten.
            let robbable = what != (Claimed::Kan { ankan: true });
            if robbable && self.waits[s] >> k & 1 == 1 {
                self.passed[s] = true;
                if seat.riichi.has_declared() {
                    self.riichi_furiten[s] = true;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "legal_tests.rs"]
mod tests;
