//! The state of one hand: plain data, arrays indexed by tile id or kind. The one function
//! that changes it is [`HandState::apply`] (`apply.rs`); read-only views are in `view.rs`.
//!
//! Invariants (checked by `apply` at every event): every tile id is in exactly one place
//! ([`HandState::loc`]); `seats[s].kinds` counts the ids at `Loc::Hand(s)` and `hand_len` is
//! their number, 13 − 3·melds between turns and one more while the seat is to discard;
//! `visible` counts, per kind, the dora indicators shown, the uncalled river tiles and every
//! meld tile (§0's publicly visible copies), `visible_red` the red fives among them and
//! `visible_total` their sum.

use std::cell::Cell;

use super::proofs::Proofs;
use crate::hand;
use crate::mjlog::{Meld, MeldKind};
use crate::rules::Players;
use crate::tile::{TileId, IDS, KINDS};
use crate::wall::Wall;

/// Where a tile id is. `Wall` means not yet seen (live wall or dead wall).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Wall,
    Hand(u8),
    /// In a river, not called.
    River(u8),
    /// In a meld (called tiles move here from the river).
    Meld(u8),
    Indicator,
    /// Set aside by a kita (three-player games: a North in the seat's kita area, face up).
    Kita(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RiverTile {
    pub(crate) tile: TileId,
    /// The tile just drawn, thrown back (ツモ切り).
    pub(crate) tsumogiri: bool,
    /// Taken by another player's chi, pon or daiminkan.
    pub(crate) called: bool,
    /// The riichi declaration tile.
    pub(crate) riichi: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum RiichiState {
    #[default]
    None,
    /// `REACH step="1"` seen; the next discard is the declaration.
    Declaring,
    /// The declaration tile is in the river (index into the river); no stick yet.
    Declared { river_index: u8 },
    /// `REACH step="2"` seen: the stick is on the table.
    Established { river_index: u8 },
}

impl RiichiState {
    /// True once the declaration discard has been made.
    pub(crate) fn has_declared(self) -> bool {
        matches!(
            self,
            RiichiState::Declared { .. } | RiichiState::Established { .. }
        )
    }
}

#[derive(Clone, Debug)]
pub(crate) struct SeatState {
    /// Concealed tiles by kind.
    pub(crate) kinds: [u8; KINDS],
    /// Number of concealed tiles.
    pub(crate) hand_len: u8,
    pub(crate) melds: Vec<Meld>,
    /// `m` code of each meld (the kakan code replaces its pon's).
    pub(crate) meld_codes: Vec<u32>,
    /// The Norths set aside by kita, in order (three-player games; no meld, §24).
    pub(crate) kita: Vec<TileId>,
    pub(crate) river: Vec<RiverTile>,
    /// Discards made this hand (the turn of §0).
    pub(crate) turn: u8,
    pub(crate) riichi: RiichiState,
    /// Made a chi, pon or daiminkan this hand.
    pub(crate) called: bool,
    /// The tile just drawn, while the seat holds it.
    pub(crate) drawn: Option<TileId>,
    /// The tile held in `drawn` is a replacement draw after a kan or a kita (rinshan).
    pub(crate) drawn_rinshan: bool,
    /// Its riichi may still win ippatsu: from its declaration discard until its next discard
    /// or any call (a kakan's at its replacement draw: the kan may be robbed first).
    pub(crate) ippatsu: bool,
    /// Its declaration was its first discard with no call before it (double riichi).
    pub(crate) double_riichi: bool,
    /// Waits of the concealed hand right after its riichi declaration discard (a riichi hand
    /// cannot change its waits afterwards); `None` before a declaration.
    pub(crate) riichi_waits: Option<hand::Waits>,
    /// The shanten of the concealed hand as it is, once a view has computed it
    /// ([`HandState::shanten`]); [`UNKNOWN_SHANTEN`] until then. `apply` forgets it whenever
    /// the hand changes.
    pub(crate) shanten: Cell<i8>,
    /// The shanten known of the hand before the seat's last draw: a discard of the drawn
    /// kind leaves that hand again, and its shanten with it.
    pub(crate) shanten_before_draw: i8,
}

/// [`SeatState::shanten`] before a view has computed it.
pub(crate) const UNKNOWN_SHANTEN: i8 = i8::MIN;

impl Default for SeatState {
    fn default() -> Self {
        SeatState {
            kinds: [0; KINDS],
            hand_len: 0,
            melds: Vec::with_capacity(4),
            meld_codes: Vec::with_capacity(4),
            kita: Vec::new(),
            river: Vec::with_capacity(24),
            turn: 0,
            riichi: RiichiState::None,
            called: false,
            drawn: None,
            drawn_rinshan: false,
            ippatsu: false,
            double_riichi: false,
            riichi_waits: None,
            shanten: Cell::new(UNKNOWN_SHANTEN),
            shanten_before_draw: UNKNOWN_SHANTEN,
        }
    }
}

impl SeatState {
    /// Its kans: ankan, daiminkan and kakan.
    pub(crate) fn kan_count(&self) -> usize {
        self.melds
            .iter()
            .filter(|m| {
                matches!(
                    m.kind,
                    MeldKind::Ankan | MeldKind::Daiminkan | MeldKind::Kakan
                )
            })
            .count()
    }

    /// True when the hand has no open meld (an ankan keeps it closed).
    pub(crate) fn is_closed(&self) -> bool {
        self.melds.iter().all(|m| m.kind == MeldKind::Ankan)
    }
}

/// How a hand ended, one record at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TerminalKind {
    Tsumo,
    Ron,
    /// RYUUKYOKU with its frame name (`exhaustive`, `yao9`, …).
    Draw(String),
}

/// A terminal record reduced to what statistics need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Terminal {
    pub(crate) kind: TerminalKind,
    /// Winner (for a draw: unused, 0).
    pub(crate) who: u8,
    /// Discarder for a ron; the winner for a tsumo.
    pub(crate) from: u8,
    /// Score deltas in points (not hundreds).
    pub(crate) deltas: [i32; 4],
    /// Seats whose hand a RYUUKYOKU shows (`hai0`..`hai3`: the tenpai hands of an exhaustive
    /// draw); all false for an AGARI.
    pub(crate) shown: [bool; 4],
    /// AGARI `ten` second field (points without honba and kyotaku); 0 for a draw.
    pub(crate) value: i32,
    /// What an AGARI says of its win (§10); `None` for a draw.
    pub(crate) win: Option<Box<WinRecord>>,
}

/// An AGARI's own account of its win, as the log writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WinRecord {
    /// `ten`: fu, points (without honba and kyotaku), limit class.
    pub(crate) ten: [i32; 3],
    /// `yaku`: (Tenhou id, han), in the log's order.
    pub(crate) yaku: Vec<(u8, u8)>,
    /// `yakuman`: Tenhou ids.
    pub(crate) yakuman: Vec<u8>,
    /// `paoWho`.
    pub(crate) pao: Option<u8>,
    /// The winning tile.
    pub(crate) machi: TileId,
}

/// The wall of a hand, rebuilt from the log's seed, and how much of it the hand has taken.
#[derive(Clone, Debug)]
pub(crate) struct WallCursor {
    pub(crate) wall: Wall,
    /// Live draws taken.
    pub(crate) live: u8,
    /// Replacement draws taken.
    pub(crate) rinshan: u8,
    /// Indicators checked: shown (INIT, DORA) and listed by AGARI (`doraHai`, `doraHaiUra`).
    pub(crate) indicators: u16,
}

/// Who is to act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Seat must draw from the live wall (or someone may call / ron the last discard).
    Draw(u8),
    /// Seat must discard (or kan, tsumo, riichi, kyuushu).
    Discard(u8),
    /// Seat must draw a replacement tile after a kan.
    Rinshan(u8),
    Ended,
}

/// One hand being replayed (module docs: the invariants).
#[derive(Clone, Debug)]
pub(crate) struct HandState {
    /// 0-based index of the hand in its game.
    pub(crate) index: u16,
    /// Four players or three: the seats, tiles, draws and payments ([`Players`]).
    pub(crate) players: Players,
    pub(crate) red: bool,
    pub(crate) honba: u8,
    pub(crate) dealer: u8,
    /// Round wind, 0 east .. 3 north (INIT `seed`'s round / 4).
    pub(crate) round_wind: u8,
    /// Tanyao counts with an open hand (GO type bit 0x04 clear); set by the game's replay.
    pub(crate) open_tanyao: bool,
    /// What the replay proves of this game's wins and draws ([`Proofs`]): with `yaku`, `fu`
    /// and `points` every AGARI is scored and must equal the log's (`win-score-mismatch`);
    /// with `payments` every terminal record's deltas must be the rules' (`score-mismatch`).
    /// Set by the game's replay; none in a hand dealt alone.
    pub(crate) proofs: Proofs,
    /// AGARI records of this hand scored and found equal to the log's (their points, or the
    /// payments they make when the log records no points).
    pub(crate) wins_proved: u8,
    /// Calls made this hand (chi, pon, kans, ankan included) and kitas (which break the first
    /// go-around as a call does, §24): none before a first-turn win or a double riichi.
    pub(crate) calls: u8,
    pub(crate) seats: [SeatState; 4],
    pub(crate) loc: [Loc; IDS],
    /// Publicly visible copies per kind (§0): indicators, uncalled river tiles, meld tiles.
    pub(crate) visible: [u8; KINDS],
    /// Publicly visible red fives (5m, 5p, 5s).
    pub(crate) visible_red: [u8; 3],
    /// Sum of `visible`.
    pub(crate) visible_total: u16,
    pub(crate) indicators: Vec<TileId>,
    /// Draws left in the live wall.
    pub(crate) live_wall: u8,
    /// Draw records applied so far.
    pub(crate) draws: u16,
    /// Scores in points, as they stand (riichi sticks paid, terminal deltas applied).
    pub(crate) scores: [i32; 4],
    pub(crate) terminals: Vec<Terminal>,
    /// Seat of the hand's first riichi declaration discard.
    pub(crate) first_declaration: Option<u8>,
    pub(super) next: Next,
    /// The last discard, while it can still be called or ronned: (seat, tile).
    pub(super) last_discard: Option<(u8, TileId)>,
    /// The tile of the last kakan (or ankan), while it can be robbed.
    pub(super) last_kan_tile: Option<(u8, TileId)>,
    /// The North of the last kita, while another seat may ron on it (three-player games).
    pub(super) last_kita: Option<(u8, TileId)>,
    /// Sticks on the table now (start + established this hand − collected).
    pub(crate) kyotaku: u8,
    /// The wall every draw and indicator is checked against; `None` when the log carries no
    /// seed in a known form (the hand replays unchecked).
    pub(crate) wall: Option<WallCursor>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only an ankan keeps a hand closed (the replay refuses a riichi of an open hand).
    #[test]
    fn closed_unless_an_open_meld() {
        let meld = |kind: MeldKind| Meld {
            kind,
            tiles: [0, 1, 2, 3],
            len: if kind == MeldKind::Ankan { 4 } else { 3 },
            called: None,
            added: None,
            from_rel: 0,
        };
        let mut seat = SeatState::default();
        assert!(seat.is_closed());
        seat.melds.push(meld(MeldKind::Ankan));
        assert!(seat.is_closed());
        seat.melds.push(meld(MeldKind::Pon));
        assert!(!seat.is_closed());
        seat.melds.remove(0);
        assert!(!seat.is_closed());
    }
}
