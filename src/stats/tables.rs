//! §17–§20, the tables engines load (written with `--with tables`): one [`DiscardUnit`] per
//! discard (§17's units are those that are neither a riichi declaration nor made after the
//! discarder's own declaration; §18's are all of them) and one [`WinKind`] per AGARI record
//! (§20). §19's units are the game's hands ([`crate::replay::GameFacts`]), read by the frame.

use crate::replay::{HandState, Observer, TerminalKind};
use crate::tile::{self, KINDS};

/// One discard, with what §17 and §18 ask of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiscardUnit {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    /// The hand's draws (70, or 55 with three players, §24) − its draw records so far.
    pub(crate) live_left: u8,
    /// floor(live_left / the seats): 17 (18 with three players) at the dealer's first discard.
    pub(crate) turns_left: u8,
    /// The discarder's discards so far, this one included.
    pub(crate) turn: u8,
    /// Chi, pon and daiminkan (a kakan's pon counts once).
    pub(crate) open_melds: u8,
    pub(crate) ankan: u8,
    /// Discards so far (this one included) that were not the tile just drawn.
    pub(crate) tedashi: u8,
    /// Discards so far (this one included) made after another seat's first declaration.
    pub(crate) after_riichi: u8,
    /// akochan's count: `after_riichi`, except when the seat called (chi or pon) after
    /// another seat's declaration: then its discards after its last such call, minus 1.
    pub(crate) after_riichi_ako: u8,
    /// Other seats that have declared riichi.
    pub(crate) riichi_others: u8,
    /// Distinct honour and terminal kinds, and distinct 2–8 kinds, in the river so far.
    pub(crate) honor_terminal_kinds: u8,
    pub(crate) simple_kinds: u8,
    pub(crate) dealer: bool,
    /// Shanten after the discard (§0), clamped to 0..=6.
    pub(crate) shanten: u8,
    /// The discard is a declaration or follows the seat's own declaration (not a §17 unit).
    pub(crate) in_riichi: bool,
    /// The seat wins this hand.
    pub(crate) won: bool,
    /// It wins by tsumo on its next or second-next draw, or by ron having drawn at most once.
    pub(crate) won_within_2: bool,
    /// The hand ends in an exhaustive draw.
    pub(crate) exhaustive: bool,
    /// The hand is exhaustive and the seat shows a tenpai hand then.
    pub(crate) tenpai_at_end: bool,
    /// The seat's draws so far (to find `won_within_2` at the hand's end).
    draws: u8,
}

/// One AGARI record (§20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WinKind {
    pub(crate) hand: u16,
    pub(crate) seat: u8,
    pub(crate) dealer: bool,
    /// `riichi`, `dama` or `open`.
    pub(crate) state: &'static str,
    /// The winning kind.
    pub(crate) tile: u8,
    pub(crate) ron: bool,
    /// `ten[1]`, `ten[2]`.
    pub(crate) points: i32,
    pub(crate) limit: i32,
}

/// The class of a kind (§20): `honour`, `1/9`, `2/8`, `3/7`, `4/6`, `5`.
pub(crate) fn kind_class(kind: usize) -> &'static str {
    if tile::is_honor(kind) {
        return "honour";
    }
    match tile::number(kind) {
        1 | 9 => "1/9",
        2 | 8 => "2/8",
        3 | 7 => "3/7",
        4 | 6 => "4/6",
        _ => "5",
    }
}

/// Collects one game's §17, §18 and §20 units.
#[derive(Default)]
pub(crate) struct TablesObserver {
    pub(crate) discards: Vec<DiscardUnit>,
    pub(crate) wins: Vec<WinKind>,
    /// The first unit of the current hand.
    hand_first: usize,
    draws: [u8; 4],
    tedashi: [u8; 4],
    after_riichi: [u8; 4],
    /// Discards since the seat's last chi or pon made after another seat's declaration.
    since_call: [Option<u8>; 4],
    /// Melds of each seat at its last call (a chi or pon adds one; a kakan replaces its pon).
    melds: [usize; 4],
    /// Kinds in each seat's river, as bits.
    river: [u64; 4],
}

/// Room for a game's discards at once (about 480 a game on the Phoenix corpus), rather than
/// grown and copied a doubling at a time (a capacity, never a value).
const DISCARDS_A_GAME: usize = 640;

impl TablesObserver {
    pub(crate) fn new() -> Self {
        TablesObserver {
            discards: Vec::with_capacity(DISCARDS_A_GAME),
            ..TablesObserver::default()
        }
    }
}

/// Honour and 1/9 kinds, as bits.
const YAOCHU: u64 = {
    let mut m = 0u64;
    let mut k = 0;
    while k < KINDS {
        if k >= 27 || k % 9 == 0 || k % 9 == 8 {
            m |= 1 << k;
        }
        k += 1;
    }
    m
};

impl Observer for TablesObserver {
    fn hand_start(&mut self, _hand: &HandState) {
        self.hand_first = self.discards.len();
        self.draws = [0; 4];
        self.tedashi = [0; 4];
        self.after_riichi = [0; 4];
        self.since_call = [None; 4];
        self.melds = [0; 4];
        self.river = [0; 4];
    }

    fn after_draw(&mut self, _hand: &HandState, seat: usize, _tile: u8) {
        self.draws[seat] += 1;
    }

    fn after_call(&mut self, hand: &HandState, seat: usize) {
        let st = &hand.seats[seat];
        let others = (0..4).any(|s| s != seat && hand.seats[s].riichi.has_declared());
        let added = st.melds.len() > self.melds[seat];
        self.melds[seat] = st.melds.len();
        let chi_pon = added
            && st.melds.last().is_some_and(|m| {
                matches!(
                    m.kind,
                    crate::mjlog::MeldKind::Chi | crate::mjlog::MeldKind::Pon
                )
            });
        if others && chi_pon {
            self.since_call[seat] = Some(0);
        }
    }

    fn after_discard(&mut self, hand: &HandState, seat: usize, tile: u8, declaration: bool) {
        let st = &hand.seats[seat];
        let last = st.river.last();
        if !last.is_some_and(|r| r.tile == tile && r.tsumogiri) {
            self.tedashi[seat] += 1;
        }
        let riichi_others = (0..4)
            .filter(|&s| s != seat && hand.seats[s].riichi.has_declared())
            .count() as u8;
        if riichi_others > 0 {
            self.after_riichi[seat] += 1;
        }
        if let Some(n) = &mut self.since_call[seat] {
            *n += 1;
        }
        let ankan = st
            .melds
            .iter()
            .filter(|m| m.kind == crate::mjlog::MeldKind::Ankan)
            .count() as u8;
        self.river[seat] |= 1 << tile::kind(tile);
        let river = self.river[seat];
        let live_left = (hand.players.draws() as u16).saturating_sub(hand.draws) as u8;
        self.discards.push(DiscardUnit {
            hand: hand.index,
            seat: seat as u8,
            live_left,
            turns_left: live_left / hand.players.seats() as u8,
            turn: st.turn,
            open_melds: st.melds.len() as u8 - ankan,
            ankan,
            tedashi: self.tedashi[seat],
            after_riichi: self.after_riichi[seat],
            after_riichi_ako: self.since_call[seat]
                .map_or(self.after_riichi[seat], |n| n.saturating_sub(1)),
            riichi_others,
            honor_terminal_kinds: (river & YAOCHU).count_ones() as u8,
            simple_kinds: (river & !YAOCHU).count_ones() as u8,
            dealer: hand.dealer as usize == seat,
            shanten: hand.shanten(seat).clamp(0, 6) as u8,
            in_riichi: declaration || st.riichi.has_declared(),
            won: false,
            won_within_2: false,
            exhaustive: false,
            tenpai_at_end: false,
            draws: self.draws[seat],
        });
    }

    fn hand_end(&mut self, hand: &HandState) {
        let exhaustive = hand
            .terminals
            .iter()
            .any(|t| matches!(&t.kind, TerminalKind::Draw(n) if n == "exhaustive"));
        let shown = hand.terminals.last().map_or([false; 4], |t| t.shown);
        for u in &mut self.discards[self.hand_first..] {
            let s = u.seat as usize;
            for t in &hand.terminals {
                if t.who as usize != s {
                    continue;
                }
                let since = self.draws[s] - u.draws;
                match t.kind {
                    TerminalKind::Tsumo => {
                        u.won = true;
                        u.won_within_2 |= (1..=2).contains(&since);
                    }
                    TerminalKind::Ron => {
                        u.won = true;
                        u.won_within_2 |= since <= 1;
                    }
                    TerminalKind::Draw(_) => {}
                }
            }
            u.exhaustive = exhaustive;
            u.tenpai_at_end = exhaustive && shown[s];
        }
        for t in &hand.terminals {
            let Some(win) = &t.win else { continue };
            let st = &hand.seats[t.who as usize];
            let state = if st.riichi.has_declared() {
                "riichi"
            } else if st.called {
                "open"
            } else {
                "dama"
            };
            self.wins.push(WinKind {
                hand: hand.index,
                seat: t.who,
                dealer: t.who == hand.dealer,
                state,
                tile: tile::kind(win.machi) as u8,
                ron: t.kind == TerminalKind::Ron,
                points: win.ten[1],
                limit: win.ten[2],
            });
        }
    }
}
