//! §23 agreement over every decision (docs/definitions.md §23): the built-in engines' answers
//! for every kind of decision (win or not, declare or stay dama, call or pass, kan or not,
//! abort or play on, and the discard), the request an external engine is sent, and the exact
//! tallies per kind of decision.
//!
//! A decision is the replay's own ([`crate::replay::Decision`]): a seat at a moment with two
//! or more legal actions. An answer is a set of legal actions; its agreement is 1/|set| when
//! the taken action is in it, else 0; an answer holding an action that is not legal (or none)
//! counts 0 and as invalid (§7's rule, in the same exact units, [`AGREEMENT_UNIT`]).
//! Unobserved decisions (another seat's higher-priority call or win kept the choice out of the
//! log) are counted per kind and never scored or sent to an engine.
//!
//! Invariants: [`EveryObserver`] changes nothing in the replay and sees each decision in the
//! order it closes; its items hold everything the tallies need, so the tallies of a game do
//! not depend on which thread replayed it, and totals add exactly ([`EveryTotals`]).

use std::fmt::Write as _;
use std::ops::AddAssign;

use super::{kinds_of, lowest_discards, Tally, AGREEMENT_UNIT};
use crate::hand::{self, KindCounts};
use crate::mjlog::MeldKind;
use crate::replay::legal::legal_kinds;
use crate::replay::legal::{Action, Actions, DecisionKind};
use crate::replay::{Decision, HandState, Observer};
use crate::rules::{Players, NORTH};
use crate::tile;

/// The built-in engines over every kind of decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum EveryBuiltin {
    /// The player's own action (agreement 1 by construction: a check of the harness).
    Player,
    /// Takes the win, declares (riichi, kyuushu), calls, kans and kitas whenever legal; a
    /// decision with none of those (a discard) it answers as `min-shanten`.
    Always,
    /// Passes every call and win, stays dama, never kans, kitas nor aborts; its discards are
    /// `min-shanten`'s.
    Never,
    /// The action that leaves the lowest shanten: a win (−1) first, then riichi when legal
    /// (declare when tenpai), then a call or kan only when it lowers the shanten below
    /// passing or the best discard, else a kita when setting the North aside leaves the
    /// lowest shanten a discard leaves (§24: it keeps the turn), else the pass or the
    /// lowest-shanten discards; never kyuushu. Shanten under the game's rules (§24).
    MinShanten,
}

impl EveryBuiltin {
    /// Every built-in engine over every kind, in report order.
    pub(crate) const ALL: [EveryBuiltin; 4] = [
        EveryBuiltin::Player,
        EveryBuiltin::Always,
        EveryBuiltin::Never,
        EveryBuiltin::MinShanten,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            EveryBuiltin::Player => "player",
            EveryBuiltin::Always => "always",
            EveryBuiltin::Never => "never",
            EveryBuiltin::MinShanten => "min-shanten",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<EveryBuiltin> {
        EveryBuiltin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The engine's answer to a decision: a set of legal actions (never empty).
    pub(crate) fn answer(self, s: &Situation, taken: Action) -> Vec<Action> {
        let legal = s.legal.actions();
        match self {
            EveryBuiltin::Player => vec![taken],
            EveryBuiltin::Always => {
                let wins: Vec<Action> = legal.iter().copied().filter(is_win).collect();
                if !wins.is_empty() {
                    return wins;
                }
                for one in [Action::Riichi, Action::Kyuushu] {
                    if s.legal.contains(one) {
                        return vec![one];
                    }
                }
                let calls: Vec<Action> = legal.iter().copied().filter(is_call).collect();
                if !calls.is_empty() {
                    return calls;
                }
                s.min_shanten_discards().1
            }
            EveryBuiltin::Never => {
                if s.legal.contains(Action::Pass) {
                    vec![Action::Pass]
                } else {
                    s.min_shanten_discards().1
                }
            }
            EveryBuiltin::MinShanten => s.min_shanten(),
        }
    }
}

/// A win: tsumo or ron.
fn is_win(a: &Action) -> bool {
    matches!(a, Action::Tsumo | Action::Ron)
}

/// A call, kan or kita: the actions `always` takes after wins and declarations.
fn is_call(a: &Action) -> bool {
    matches!(
        a,
        Action::Pon
            | Action::Daiminkan
            | Action::Chi(..)
            | Action::Ankan(_)
            | Action::Kakan(_)
            | Action::Kita
    )
}

/// What the built-in engines see of a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Situation {
    /// The seat's concealed copies of each kind (14 − 3·melds on its own turn, 13 − 3·melds
    /// on another seat's discard or kan).
    pub(crate) concealed: KindCounts,
    pub(crate) melds: u8,
    pub(crate) legal: Actions,
    /// The kind another seat's discard, kan or kita offers, for a decision on it.
    pub(crate) offered: Option<usize>,
    /// The table's rules: the shanten is the three-player one in a three-player game.
    pub(crate) players: Players,
}

impl Situation {
    /// The lowest shanten the legal discards leave and the kinds that leave it (empty when no
    /// discard is legal).
    fn min_shanten_discards(&self) -> (i8, Vec<Action>) {
        let legal = self.legal.discards();
        if legal == 0 {
            return (i8::MAX, Vec::new());
        }
        let (best, set) = lowest_discards(&self.concealed, self.melds, legal, self.players);
        (
            best,
            kinds_of(set).map(|k| Action::Discard(k as u8)).collect(),
        )
    }

    /// `min-shanten`'s answer ([`EveryBuiltin::MinShanten`]).
    fn min_shanten(&self) -> Vec<Action> {
        let legal = self.legal.actions();
        let wins: Vec<Action> = legal.iter().copied().filter(is_win).collect();
        if !wins.is_empty() {
            return wins;
        }
        if self.legal.contains(Action::Riichi) {
            return vec![Action::Riichi];
        }
        // Playing on: the pass (the hand as it is) or the best discards.
        let (base, mut answer) = if self.legal.contains(Action::Pass) {
            (
                hand::shanten_for(&self.concealed, self.melds, self.players),
                vec![Action::Pass],
            )
        } else {
            self.min_shanten_discards()
        };
        let mut best = base;
        for &a in legal.iter().filter(|a| is_call(a) && **a != Action::Kita) {
            let s = self.shanten_after(a);
            if s < best {
                best = s;
                answer.clear();
            }
            if s == best && s < base {
                answer.push(a);
            }
        }
        // No call lowers it: a kita that leaves the lowest shanten a discard leaves.
        if best == base
            && self.legal.contains(Action::Kita)
            && self.shanten_after(Action::Kita) <= base
        {
            return vec![Action::Kita];
        }
        answer
    }

    /// The shanten a call, kan or kita leaves: after a chi or pon the best discard the
    /// swap-call ban allows; after a daiminkan, ankan, kakan or kita the hand as it stands
    /// before its replacement draw.
    fn shanten_after(&self, a: Action) -> i8 {
        let mut h = self.concealed;
        let offered = self.offered.unwrap_or(0);
        match a {
            Action::Pon => {
                h[offered] -= 2;
                let legal = legal_kinds(&h, false, None, Some((MeldKind::Pon, offered, offered)));
                lowest_discards(&h, self.melds + 1, legal, self.players).0
            }
            Action::Chi(x, y) => {
                let (x, y) = (tile::type_kind(x.into()), tile::type_kind(y.into()));
                h[x] -= 1;
                h[y] -= 1;
                let lowest = x.min(y).min(offered);
                let call = Some((MeldKind::Chi, offered, lowest));
                let legal = legal_kinds(&h, false, None, call);
                lowest_discards(&h, self.melds + 1, legal, self.players).0
            }
            Action::Daiminkan => {
                h[offered] -= 3;
                hand::shanten_for(&h, self.melds + 1, self.players)
            }
            Action::Ankan(k) => {
                h[usize::from(k)] -= 4;
                hand::shanten_for(&h, self.melds + 1, self.players)
            }
            Action::Kakan(k) => {
                h[usize::from(k)] -= 1;
                hand::shanten_for(&h, self.melds, self.players)
            }
            // The North set aside, before the replacement draw (a kita is no meld).
            Action::Kita => {
                h[NORTH] -= 1;
                hand::shanten_for(&h, self.melds, self.players)
            }
            _ => i8::MAX,
        }
    }
}

/// One decision's agreement in units of 1/[`AGREEMENT_UNIT`], and whether the answer is
/// invalid (empty, or holding an action that is not legal). Repeats in the answer count once.
pub(crate) fn agreement(answer: &[Action], legal: &Actions, taken: Action) -> (u128, bool) {
    if answer.is_empty() || answer.iter().any(|a| !legal.contains(*a)) {
        return (0, true);
    }
    let mut distinct = 0u128;
    for (i, a) in answer.iter().enumerate() {
        distinct += u128::from(!answer[..i].contains(a));
    }
    if answer.contains(&taken) {
        (AGREEMENT_UNIT / distinct, false)
    } else {
        (0, false)
    }
}

/// The report's groups within a kind: (section, value), `all` first.
pub(crate) const EVERY_GROUPS: [(&str, &str); 6] = [
    ("all", "all"),
    ("turn", "1-6"),
    ("turn", "7-12"),
    ("turn", "13+"),
    ("riichi_opponents", "0"),
    ("riichi_opponents", "1+"),
];

/// The [`EVERY_GROUPS`] of a decision at the seat's `turn` (§23: discards so far; the group
/// is by turn + 1, as §7's) with `riichi_opponents` other seats declared.
pub(crate) fn every_groups_of(turn: u8, riichi_opponents: u8) -> [usize; 3] {
    let t = match turn + 1 {
        ..=6 => 1,
        7..=12 => 2,
        _ => 3,
    };
    [0, t, 4 + usize::from(riichi_opponents > 0)]
}

/// The index of a kind in [`DecisionKind::ALL`].
pub(crate) fn kind_index(k: DecisionKind) -> usize {
    DecisionKind::ALL
        .iter()
        .position(|&x| x == k)
        .expect("every kind is listed")
}

/// Every engine's tallies per (kind, group), and the decisions counted per kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EveryTotals {
    /// Observed decisions per kind (the ones scored).
    pub(crate) observed: [u64; DecisionKind::ALL.len()],
    /// Unobserved decisions per kind (counted, not scored).
    pub(crate) unobserved: [u64; DecisionKind::ALL.len()],
    /// Per engine, per kind, per group.
    pub(crate) engines: Vec<[[Tally; EVERY_GROUPS.len()]; DecisionKind::ALL.len()]>,
}

impl EveryTotals {
    pub(crate) fn new(engines: usize) -> EveryTotals {
        EveryTotals {
            observed: [0; DecisionKind::ALL.len()],
            unobserved: [0; DecisionKind::ALL.len()],
            engines: vec![
                [[Tally::default(); EVERY_GROUPS.len()]; DecisionKind::ALL.len()];
                engines
            ],
        }
    }

    /// Adds an observed decision of `kind` in `groups` and each engine's answer to it.
    pub(crate) fn add(
        &mut self,
        kind: DecisionKind,
        groups: &[usize; 3],
        legal: &Actions,
        taken: Action,
        answers: &[Vec<Action>],
    ) {
        let k = kind_index(kind);
        self.observed[k] += 1;
        for (tallies, answer) in self.engines.iter_mut().zip(answers) {
            let (units, invalid) = agreement(answer, legal, taken);
            for &g in groups {
                let t = &mut tallies[k][g];
                t.decisions += 1;
                t.units += units;
                t.invalid += u64::from(invalid);
            }
        }
    }

    /// Counts an unobserved decision of `kind`.
    pub(crate) fn add_unobserved(&mut self, kind: DecisionKind) {
        self.unobserved[kind_index(kind)] += 1;
    }

    /// Observed decisions over every kind.
    pub(crate) fn decisions(&self) -> u64 {
        self.observed.iter().sum()
    }
}

impl AddAssign<&EveryTotals> for EveryTotals {
    fn add_assign(&mut self, o: &EveryTotals) {
        for k in 0..DecisionKind::ALL.len() {
            self.observed[k] += o.observed[k];
            self.unobserved[k] += o.unobserved[k];
        }
        for (a, b) in self.engines.iter_mut().zip(&o.engines) {
            for (x, y) in a.iter_mut().zip(b) {
                for (t, u) in x.iter_mut().zip(y) {
                    *t += u;
                }
            }
        }
    }
}

/// One decision as [`EveryObserver`] records it.
#[derive(Clone, Debug)]
pub(crate) struct Item {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    pub(crate) turn: u8,
    /// Discards made in the hand before the decision (its key in an answer file).
    pub(crate) seq: u16,
    pub(crate) kind: DecisionKind,
    pub(crate) legal: Actions,
    /// `None` when unobserved.
    pub(crate) taken: Option<Action>,
    pub(crate) riichi_opponents: u8,
    /// Each built-in engine's answer (observed decisions only), in the order asked.
    pub(crate) answers: Vec<Vec<Action>>,
    /// The request object an external engine is sent (observed decisions, when asked),
    /// without its `id` (the driver numbers the requests it sends): the object's text after
    /// `{"id":N,`.
    pub(crate) request: Option<String>,
}

/// What a game's decisions are recorded with.
#[derive(Clone, Debug, Default)]
pub(crate) struct EveryOptions {
    pub(crate) builtins: Vec<EveryBuiltin>,
    /// Write each observed decision's request object.
    pub(crate) requests: bool,
    /// The game's id and its rules (GO type's hanchan bit).
    pub(crate) game_id: String,
    pub(crate) hanchan: bool,
}

/// Records every decision of a game with the built-in engines' answers and, on request, its
/// request object.
pub(crate) struct EveryObserver {
    opts: EveryOptions,
    /// Each hand's start: the four scores and the sticks on the table.
    start_scores: [i32; 4],
    start_kyotaku: u8,
    /// The seat of each discard of the hand, in order (a river entry's `seq` is its place).
    order: Vec<u8>,
    pub(crate) items: Vec<Item>,
    json: String,
}

impl EveryObserver {
    pub(crate) fn new(opts: EveryOptions) -> EveryObserver {
        EveryObserver {
            opts,
            start_scores: [0; 4],
            start_kyotaku: 0,
            order: Vec::with_capacity(80),
            items: Vec::new(),
            json: String::with_capacity(2048),
        }
    }
}

impl Observer for EveryObserver {
    fn wants_decisions(&self) -> bool {
        true
    }

    fn hand_start(&mut self, hand: &HandState) {
        self.start_scores = hand.scores;
        self.start_kyotaku = hand.kyotaku;
        self.order.clear();
    }

    fn after_discard(&mut self, _hand: &HandState, seat: usize, _tile: u8, _declaration: bool) {
        self.order.push(seat as u8);
    }

    fn decision(&mut self, hand: &HandState, d: &Decision) {
        let seat = usize::from(d.seat);
        let riichi_opponents = (0..4)
            .filter(|&s| s != seat && hand.seats[s].riichi.has_declared())
            .count() as u8;
        let mut item = Item {
            hand: d.hand,
            seat: d.seat,
            turn: d.turn,
            seq: self.order.len() as u16,
            kind: d.kind,
            legal: d.legal,
            taken: d.taken,
            riichi_opponents,
            answers: Vec::new(),
            request: None,
        };
        if let Some(taken) = d.taken {
            let st = &hand.seats[seat];
            // A seat deciding on another's discard or kan holds 13 − 3·melds tiles.
            let offered = offer(hand, seat).map(|(_, t, _)| tile::kind(t));
            let situation = Situation {
                concealed: st.kinds,
                melds: st.melds.len() as u8,
                legal: d.legal,
                offered,
                players: hand.players,
            };
            item.answers = self
                .opts
                .builtins
                .iter()
                .map(|b| b.answer(&situation, taken))
                .collect();
            if self.opts.requests {
                let mut json = std::mem::take(&mut self.json);
                json.clear();
                write_request(&mut json, self, hand, d, riichi_opponents);
                item.request = Some(json.clone());
                self.json = json;
            }
        }
        self.items.push(item);
    }
}

/// The `rules` entries a three-player game's request adds (§24): three seats, kita, no chi,
/// tsumo loss.
pub(crate) const THREE_PLAYER_RULES: &str =
    ",\"players\":3,\"kita\":true,\"chi\":false,\"tsumo_loss\":true";

/// What another seat's action offers a seat deciding on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offer {
    Discard,
    Kan,
    /// A kita North (three-player games, §24: only a ron may take it).
    Kita,
}

/// The tile another seat's discard, kan or kita offers `seat` (its seat, the tile and what
/// offers it), when `seat` decides on it (it holds no drawn tile).
fn offer(hand: &HandState, seat: usize) -> Option<(u8, u8, Offer)> {
    if hand.seats[seat].drawn.is_some() {
        return None;
    }
    let claim = hand.claimable().map(|(from, t, kan)| {
        let what = if kan { Offer::Kan } else { Offer::Discard };
        (from, t, what)
    });
    claim
        .or_else(|| hand.kita_on_offer().map(|(from, t)| (from, t, Offer::Kita)))
        .filter(|&(from, _, _)| usize::from(from) != seat)
}

/// The request object of decision `d` (docs/decisions.md), without its opening `{"id":N,`.
fn write_request(
    out: &mut String,
    obs: &EveryObserver,
    hand: &HandState,
    d: &Decision,
    riichi_opponents: u8,
) {
    let seat = usize::from(d.seat);
    let st = &hand.seats[seat];
    let red = hand.red;
    let name = |id: u8| tile::type_name(tile::tile_type(id, red));
    out.push_str("\"game_id\":");
    out.push_str(&serde_json::to_string(&obs.opts.game_id).expect("a string serialises"));
    let _ = write!(
        out,
        ",\"hand\":{},\"seat\":{},\"kind\":\"{}\",\"seq\":{},\"turn\":{},\"round\":{},\"honba\":{},\"kyotaku\":{},\"dealer\":{}",
        d.hand,
        d.seat,
        d.kind.as_str(),
        obs.order.len(),
        u16::from(d.turn) + 1,
        u16::from(hand.round_wind) * 4 + u16::from(hand.dealer),
        hand.honba,
        obs.start_kyotaku,
        hand.dealer,
    );
    // §24: a three-player game's request says so, with every seat's kitas and its rules.
    let three = hand.players == Players::Three;
    super::write_players(
        out,
        hand.players,
        std::array::from_fn(|s| hand.seats[s].kita.len() as u8),
    );
    let s = obs.start_scores;
    let n = hand.scores;
    let _ = write!(
        out,
        ",\"scores\":[{},{},{},{}],\"scores_now\":[{},{},{},{}],\"rules\":{{\"red\":{},\"open_tanyao\":{},\"hanchan\":{}{}}},\"live_left\":{},\"dora_indicators\":[",
        s[0], s[1], s[2], s[3], n[0], n[1], n[2], n[3], red, hand.open_tanyao, obs.opts.hanchan,
        if three { THREE_PLAYER_RULES } else { "" },
        hand.live_wall
    );
    for (i, &t) in hand.indicators.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{}\"", name(t));
    }
    out.push_str("],\"tiles\":[");
    for (i, t) in hand.concealed_ids(seat).into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{}\"", name(t));
    }
    out.push_str("],\"drawn\":");
    match st.drawn {
        Some(t) => {
            let _ = write!(out, "\"{}\"", name(t));
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"offered\":");
    match offer(hand, seat) {
        Some((from, t, Offer::Kita)) => {
            let _ = write!(
                out,
                "{{\"seat\":{from},\"tile\":\"{}\",\"kan\":false,\"kita\":true}}",
                name(t)
            );
        }
        Some((from, t, offer)) => {
            let _ = write!(
                out,
                "{{\"seat\":{from},\"tile\":\"{}\",\"kan\":{}}}",
                name(t),
                offer == Offer::Kan
            );
        }
        None => out.push_str("null"),
    }
    let _ = write!(out, ",\"declares\":{}", hand.declaring(seat));
    out.push_str(",\"melds\":[");
    for (s, seat_state) in hand.seats.iter().enumerate() {
        if s > 0 {
            out.push(',');
        }
        out.push('[');
        for (i, m) in seat_state.melds.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let kind = m.kind.name();
            let _ = write!(out, "{{\"kind\":\"{kind}\",\"tiles\":[");
            for (j, &t) in m.tiles().iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                let _ = write!(out, "\"{}\"", name(t));
            }
            let from = (s + usize::from(m.from_rel)) % 4;
            let _ = write!(out, "],\"from\":{from},\"called\":");
            match m.called {
                Some(t) if m.kind != MeldKind::Ankan => {
                    let _ = write!(out, "\"{}\"", name(t));
                }
                _ => out.push_str("null"),
            }
            if m.kind == MeldKind::Kakan {
                out.push_str(",\"added\":");
                match m.added {
                    Some(t) => {
                        let _ = write!(out, "\"{}\"", name(t));
                    }
                    None => out.push_str("null"),
                }
            }
            out.push('}');
        }
        out.push(']');
    }
    out.push_str("],\"rivers\":[");
    for (s, seat_state) in hand.seats.iter().enumerate() {
        if s > 0 {
            out.push(',');
        }
        out.push('[');
        // The i-th discard of seat s is the i-th time s appears in the hand's order.
        let mut seqs = obs
            .order
            .iter()
            .enumerate()
            .filter(|&(_, &x)| usize::from(x) == s)
            .map(|(q, _)| q);
        for (i, r) in seat_state.river.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"tile\":\"{}\",\"seq\":{},\"tsumogiri\":{},\"riichi\":{},\"called\":{}}}",
                name(r.tile),
                seqs.next().unwrap_or(0),
                r.tsumogiri,
                r.riichi,
                r.called
            );
        }
        out.push(']');
    }
    out.push_str("],\"riichi\":[");
    for s in 0..4 {
        if s > 0 {
            out.push(',');
        }
        out.push_str(if hand.seats[s].riichi.has_declared() {
            "true"
        } else {
            "false"
        });
    }
    let _ = write!(out, "],\"riichi_opponents\":{riichi_opponents},\"legal\":[");
    for (i, a) in d.legal.actions().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{a}\"");
    }
    out.push_str("]}");
}

/// Parses an action's text (`pon`, `discard:5p`, `chi:4m0m`, …: the forms of the legal sets)
/// against a decision's legal actions: the legal action it names, or `None` (a kind or tile
/// that names no legal action is `Err` with the reason only when the text is not an action
/// at all).
pub(crate) fn parse_action(text: &str) -> Result<Action, String> {
    let bad = || {
        format!("`{text}` is not an action (tsumo, riichi, ankan:<kind>, kakan:<kind>, kita, kyuushu, ron, pon, daiminkan, chi:<tile><tile>, pass, discard:<kind>)")
    };
    let kind = |s: &str| tile::parse_kind(s).map(|k| k as u8).ok_or_else(bad);
    Ok(match text.split_once(':') {
        None => match text {
            "tsumo" => Action::Tsumo,
            "riichi" => Action::Riichi,
            "kyuushu" => Action::Kyuushu,
            "ron" => Action::Ron,
            "pon" => Action::Pon,
            "daiminkan" => Action::Daiminkan,
            "kita" => Action::Kita,
            "pass" => Action::Pass,
            _ => return Err(bad()),
        },
        Some(("discard", k)) => Action::Discard(kind(k)?),
        Some(("ankan", k)) => Action::Ankan(kind(k)?),
        Some(("kakan", k)) => Action::Kakan(kind(k)?),
        Some(("chi", pair)) if pair.len() == 4 => {
            let a = tile::parse_type(&pair[..2]).ok_or_else(bad)? as u8;
            let b = tile::parse_type(&pair[2..]).ok_or_else(bad)? as u8;
            if tile::type_kind(a.into()) <= tile::type_kind(b.into()) {
                Action::Chi(a, b)
            } else {
                Action::Chi(b, a)
            }
        }
        _ => return Err(bad()),
    })
}

#[cfg(test)]
#[path = "every_tests.rs"]
mod tests;
