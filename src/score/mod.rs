//! The score of a win (statistics.md §23, "Score of a win"): the yaku with their han, the fu
//! and the points of an AGARI, computed from the winner's hand the way Tenhou computes them,
//! so that a replay can prove every win of a log (yaku as a multiset of (Tenhou id, han), fu,
//! `ten` points and limit class equal the AGARI's).
//!
//! Tenhou's rules as the corpus shows them (every win of `phoenix` and `other` is proved by
//! the corpus test below):
//! - han and fu: kiriage mangan is off (30 fu 4 han and 60 fu 3 han are 7,700 / 11,600);
//!   13 han or more is a counted (kazoe) yakuman, written with its yaku and limit class 5;
//!   fu are rounded up to 10, except seven pairs (25 fixed) and thirteen orphans (written 0);
//!   pinfu tsumo is 20 fu, an open hand with no fu beyond its 20 is 30; a pair of the seat
//!   wind that is also the round wind counts 4 fu;
//! - yakuman count 13 han each and add up (daisangen + tsuuiisou is 64,000 for a non-dealer);
//!   suuankou tanki (41) and kokushi 13-sided (48) are single yakuman (32,000 in the corpus),
//!   and so, by the same rule, are junsei chuuren (46) and daisuushii (49), which the corpus
//!   does not hold; renhou does not exist; yakuman wins list no dora;
//! - dora (52) and red dora (54) are listed only when the hand has some, ura dora (53) on
//!   every riichi win, with 0 han when there is none;
//! - among the ways to read a hand (decompositions, which block the winning tile completes,
//!   seven pairs), Tenhou writes the one worth the most points, then the most han, then the
//!   most fu;
//! - limit class (`ten`'s third number): 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman,
//!   5 yakuman (counted ones included); points exclude honba and riichi sticks, and a tsumo's
//!   points are the sum of its payments, each rounded up to 100.
//!
//! Crates tried before writing this (the issue asks for a maintained crate if one is exact):
//! `agari` 0.27 (the most complete): it scores suuankou tanki, kokushi 13-sided, junsei
//! chuuren and daisuushii as double yakuman (26 han in its yaku table), where the corpus
//! shows Tenhou writing 32,000 for suuankou tanki and kokushi 13-sided; it has no Tenhou yaku ids and no open-tanyao switch, and
//! allocates its decompositions per call. `riichi` 0.1 (riichi-rs) scores only inside its own
//! game engine (its state, its steps), treats a double ron as an abortive draw (Tenhou pays
//! both), and has had no release since 0.1. `mahc` needs the caller to give the decomposition
//! with the winning group last (the choice Tenhou makes is the point here) and knows no red
//! fives by tile id. None was run on the corpus: the first two contradict it by their own
//! documented behaviour, the third leaves to the caller the choice this module must make.
//!
//! Invariants: [`score`] does not allocate; its result is `None` exactly when the tiles do not
//! make a complete hand with at least one yaku that is not a dora. Tiles are Tenhou ids, so
//! red fives are known by id (16, 52, 88 when the game has them).

use crate::hand::{self, Block, KindCounts};
use crate::mjlog::{Meld, MeldKind};
use crate::rules::{Players, NORTH};
use crate::tile::{self, TileId, KINDS};

#[cfg(test)]
pub(crate) mod tests;

/// Everything a win's score depends on (statistics.md §23).
#[derive(Clone, Copy, Debug)]
pub struct Win<'a> {
    /// The concealed tiles, the winning tile included (14 − 3·melds ids).
    pub concealed: &'a [TileId],
    /// Chi, pon, kans (ankan included) as the log decodes them.
    pub melds: &'a [Meld],
    pub win_tile: TileId,
    pub tsumo: bool,
    /// 0 east .. 3 north.
    pub seat_wind: u8,
    pub round_wind: u8,
    pub dealer: bool,
    pub dora_indicators: &'a [TileId],
    pub ura_indicators: &'a [TileId],
    /// Riichi declared (the declaration discard made); with `double_riichi` the declaration
    /// was the seat's first discard with no call before it.
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    /// Tsumo on the last live tile (not a replacement draw) / ron on the last discard.
    pub haitei: bool,
    pub houtei: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    /// The game has red fives (GO type bit 0x02 clear).
    pub red: bool,
    /// Tanyao counts with an open hand (GO type bit 0x04 clear).
    pub open_tanyao: bool,
    /// Four players or three: the indicators' dora (1m → 9m with three) and the payments of
    /// a tsumo (tsumo loss with three).
    pub players: Players,
    /// The winner's kitas (three-player games): each is a dora, and one more for every
    /// indicator (ura indicator) whose dora is North; Tenhou counts them in yaku 52 (53).
    pub kita: u8,
}

/// Yaku entries a win can hold at most, whatever its flags: 7 of the situation, pinfu,
/// peikou, 8 yakuhai (4 triplets, each a seat and a round wind), 3 of the tiles' colours, 9 of
/// the shape (chanta … shousangen) and 3 dora entries.
pub const MAX_YAKU: usize = 32;
/// Yakuman a win can hold at most: tenhou, chiihou, daisangen, suuankou, 4 of the tiles
/// (tsuuiisou, ryuuiisou, chinroutou, chuuren), a suushii, suukantsu.
pub const MAX_YAKUMAN: usize = 10;

/// A win's score as Tenhou writes it in an AGARI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    yaku: [(u8, u8); MAX_YAKU],
    yaku_len: u8,
    yakuman: [u8; MAX_YAKUMAN],
    yakuman_len: u8,
    /// Han of the yaku, dora included (13 per yakuman for a yakuman win).
    pub han: u8,
    /// `ten`'s first number.
    pub fu: u8,
    /// `ten`'s second number: points without honba and riichi sticks.
    pub points: i32,
    /// `ten`'s third number: 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman.
    pub limit: u8,
    /// The basic points (基本点) the payments are made of: fu × 2^(han + 2) below mangan,
    /// 2,000 a mangan … 8,000 a yakuman.
    pub base: i32,
}

impl Score {
    fn empty() -> Score {
        Score {
            yaku: [(0, 0); MAX_YAKU],
            yaku_len: 0,
            yakuman: [0; MAX_YAKUMAN],
            yakuman_len: 0,
            han: 0,
            fu: 0,
            points: 0,
            limit: 0,
            base: 0,
        }
    }

    /// `yaku`: (Tenhou id, han), sorted (empty for a yakuman win, as Tenhou writes it).
    pub fn yaku(&self) -> &[(u8, u8)] {
        &self.yaku[..self.yaku_len as usize]
    }

    /// `yakuman`: Tenhou ids, sorted.
    pub fn yakuman(&self) -> &[u8] {
        &self.yakuman[..self.yakuman_len as usize]
    }

    fn push(&mut self, id: u8, han: u8) {
        self.yaku[self.yaku_len as usize] = (id, han);
        self.yaku_len += 1;
    }

    fn push_yakuman(&mut self, id: u8) {
        self.yakuman[self.yakuman_len as usize] = id;
        self.yakuman_len += 1;
    }

    /// True when this score equals an AGARI's `yaku` (pairs in any order), `yakuman` (in any
    /// order) and `ten`. Does not allocate.
    pub fn matches(&self, yaku: &[(u8, u8)], yakuman: &[u8], ten: [i32; 3]) -> bool {
        if ten != [i32::from(self.fu), self.points, i32::from(self.limit)]
            || yaku.len() != self.yaku().len()
            || yakuman.len() != self.yakuman().len()
        {
            return false;
        }
        // Both lists are short (≤ MAX_YAKU): count each own entry among the log's.
        let same = |a: &[(u8, u8)], b: &[(u8, u8)]| {
            a.iter().all(|x| {
                a.iter().filter(|y| *y == x).count() == b.iter().filter(|y| *y == x).count()
            })
        };
        let same_ids = |a: &[u8], b: &[u8]| {
            a.iter().all(|x| {
                a.iter().filter(|y| *y == x).count() == b.iter().filter(|y| *y == x).count()
            })
        };
        same(self.yaku(), yaku) && same_ids(self.yakuman(), yakuman)
    }
}

impl std::fmt::Display for Score {
    /// `yaku [(id, han), ..] yakuman [..] ten fu,points,limit`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "yaku {:?} yakuman {:?} ten {},{},{}",
            self.yaku(),
            self.yakuman(),
            self.fu,
            self.points,
            self.limit
        )
    }
}

/// Tenhou yaku ids used here (the table is [`crate::yaku::YAKU`]).
mod id {
    pub(super) const TSUMO: u8 = 0;
    pub(super) const RIICHI: u8 = 1;
    pub(super) const IPPATSU: u8 = 2;
    pub(super) const CHANKAN: u8 = 3;
    pub(super) const RINSHAN: u8 = 4;
    pub(super) const HAITEI: u8 = 5;
    pub(super) const HOUTEI: u8 = 6;
    pub(super) const PINFU: u8 = 7;
    pub(super) const TANYAO: u8 = 8;
    pub(super) const IIPEIKOU: u8 = 9;
    pub(super) const SEAT_WIND: u8 = 10;
    pub(super) const ROUND_WIND: u8 = 14;
    pub(super) const HAKU: u8 = 18;
    pub(super) const DOUBLE_RIICHI: u8 = 21;
    pub(super) const CHIITOITSU: u8 = 22;
    pub(super) const CHANTA: u8 = 23;
    pub(super) const ITTSU: u8 = 24;
    pub(super) const SANSHOKU: u8 = 25;
    pub(super) const DOUKOU: u8 = 26;
    pub(super) const SANKANTSU: u8 = 27;
    pub(super) const TOITOI: u8 = 28;
    pub(super) const SANANKOU: u8 = 29;
    pub(super) const SHOUSANGEN: u8 = 30;
    pub(super) const HONROUTOU: u8 = 31;
    pub(super) const RYANPEIKOU: u8 = 32;
    pub(super) const JUNCHAN: u8 = 33;
    pub(super) const HONITSU: u8 = 34;
    pub(super) const CHINITSU: u8 = 35;
    pub(super) const TENHOU: u8 = 37;
    pub(super) const CHIIHOU: u8 = 38;
    pub(super) const DAISANGEN: u8 = 39;
    pub(super) const SUUANKOU: u8 = 40;
    pub(super) const SUUANKOU_TANKI: u8 = 41;
    pub(super) const TSUUIISOU: u8 = 42;
    pub(super) const RYUUIISOU: u8 = 43;
    pub(super) const CHINROUTOU: u8 = 44;
    pub(super) const CHUUREN: u8 = 45;
    pub(super) const JUNSEI_CHUUREN: u8 = 46;
    pub(super) const KOKUSHI: u8 = 47;
    pub(super) const KOKUSHI_13: u8 = 48;
    pub(super) const DAISUUSHII: u8 = 49;
    pub(super) const SHOUSUUSHII: u8 = 50;
    pub(super) const SUUKANTSU: u8 = 51;
    pub(super) const DORA: u8 = crate::yaku::DORA;
    pub(super) const URA_DORA: u8 = crate::yaku::URA_DORA;
    pub(super) const AKA_DORA: u8 = crate::yaku::AKA_DORA;
}

/// A set of a standard-form reading: a sequence (by its lowest kind), a triplet or a kan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Set {
    kind: u8,
    shape: Shape,
    /// An open meld, or a triplet completed by a ron (it counts as open for fu and ankou).
    open: bool,
    /// From a call (chi, pon, kans but ankan): the hand is open.
    called: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Sequence,
    Triplet,
    Kan,
}

/// How the winning tile completed the hand in one reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Ryanmen,
    Kanchan,
    Penchan,
    Shanpon,
    Tanki,
}

/// What every reading of one win shares.
struct Common {
    /// All the hand's tiles by kind (melds' four kan tiles included).
    all: KindCounts,
    closed: bool,
    win_kind: usize,
    /// Dora, ura dora, red dora tiles.
    dora: u8,
    ura: u8,
    aka: u8,
    /// Yaku of the situation (riichi, tsumo, ippatsu, haitei …), han.
    situational: [(u8, u8); 8],
    situational_len: usize,
    /// Yaku of the whole hand's tiles (tanyao, honroutou, honitsu, chinitsu), han: the same
    /// in every reading, so worked out once.
    colour: [(u8, u8); 3],
    colour_len: usize,
    /// Yakuman of the whole hand's tiles (tsuuiisou, ryuuiisou, chinroutou, chuuren).
    colour_yakuman: [u8; 4],
    colour_yakuman_len: usize,
}

/// Kinds all of one suit's greens: 2s 3s 4s 6s 8s and hatsu.
fn is_green(k: usize) -> bool {
    matches!(k, 19 | 20 | 21 | 23 | 25 | 32)
}

fn is_terminal(k: usize) -> bool {
    k < 27 && (k.is_multiple_of(9) || k % 9 == 8)
}

/// The score of `win` as Tenhou writes it, or `None` when its tiles are not a complete hand
/// with a yaku (module docs: the rules).
pub fn score(win: &Win<'_>) -> Option<Score> {
    let mut counts: KindCounts = [0; KINDS];
    for &t in win.concealed {
        counts[tile::kind(t)] += 1;
    }
    let mut all = counts;
    let mut sets = [Set {
        kind: 0,
        shape: Shape::Sequence,
        open: false,
        called: false,
    }; 4];
    let n_melds = win.melds.len();
    if n_melds > 4 {
        return None;
    }
    for (m, set) in win.melds.iter().zip(sets.iter_mut()) {
        let k = tile::kind(m.tiles[0]);
        for &t in m.tiles() {
            all[tile::kind(t)] += 1;
        }
        let called = m.kind != MeldKind::Ankan;
        *set = Set {
            kind: k as u8,
            shape: match m.kind {
                MeldKind::Chi => Shape::Sequence,
                MeldKind::Pon => Shape::Triplet,
                MeldKind::Kakan | MeldKind::Daiminkan | MeldKind::Ankan => Shape::Kan,
                MeldKind::Nukidora => return None,
            },
            open: called,
            called,
        };
    }
    let closed = sets[..n_melds].iter().all(|s| !s.called);
    let is_red = |t: &TileId| tile::is_red(*t, win.red);
    let aka = win.concealed.iter().filter(|t| is_red(t)).count()
        + win
            .melds
            .iter()
            .map(|m| m.tiles().iter().filter(|t| is_red(t)).count())
            .sum::<usize>();
    // Saturating: a record may list any number of indicators. Each kita North is a dora of
    // its own and counts as a North for the indicators.
    let kita = u32::from(win.kita);
    let count_dora = |inds: &[TileId]| -> u32 {
        inds.iter()
            .map(|&i| {
                let k = win.players.dora_of(i);
                u32::from(all[k]) + if k == NORTH { kita } else { 0 }
            })
            .sum()
    };
    let mut common = Common {
        all,
        closed,
        win_kind: tile::kind(win.win_tile),
        dora: (kita + count_dora(win.dora_indicators)).min(99) as u8,
        ura: count_dora(win.ura_indicators).min(99) as u8,
        aka: aka as u8,
        situational: [(0, 0); 8],
        situational_len: 0,
        colour: [(0, 0); 3],
        colour_len: 0,
        colour_yakuman: [0; 4],
        colour_yakuman_len: 0,
    };
    {
        let mut s = Score::empty();
        colour_yaku(&mut s, &common, win);
        common.colour_len = s.yaku().len();
        common.colour[..common.colour_len].copy_from_slice(s.yaku());
        let mut y = Score::empty();
        colour_yakuman(&mut y, &common);
        if let Some(junsei) = chuuren(win, &common) {
            y.push_yakuman(if junsei {
                id::JUNSEI_CHUUREN
            } else {
                id::CHUUREN
            });
        }
        common.colour_yakuman_len = y.yakuman().len();
        common.colour_yakuman[..common.colour_yakuman_len].copy_from_slice(y.yakuman());
    }
    {
        let mut push = |id: u8, han: u8| {
            common.situational[common.situational_len] = (id, han);
            common.situational_len += 1;
        };
        if win.double_riichi {
            push(id::DOUBLE_RIICHI, 2);
        } else if win.riichi {
            push(id::RIICHI, 1);
        }
        if win.ippatsu {
            push(id::IPPATSU, 1);
        }
        if closed && win.tsumo {
            push(id::TSUMO, 1);
        }
        if win.chankan {
            push(id::CHANKAN, 1);
        }
        if win.rinshan {
            push(id::RINSHAN, 1);
        }
        if win.haitei {
            push(id::HAITEI, 1);
        }
        if win.houtei {
            push(id::HOUTEI, 1);
        }
    }
    let mut best: Option<Score> = None;
    let mut consider = |s: Score| {
        let better = match &best {
            None => true,
            Some(b) => (s.points, s.han, s.fu) > (b.points, b.han, b.fu),
        };
        if better {
            best = Some(s);
        }
    };
    if n_melds == 0 && hand::complete::is_thirteen_orphans(&counts) {
        let mut s = Score::empty();
        // Thirteen-sided when the thirteen tiles before the win were all different.
        s.push_yakuman(if counts[common.win_kind] == 2 {
            id::KOKUSHI_13
        } else {
            id::KOKUSHI
        });
        add_first_turn(&mut s, win);
        consider(finish_yakuman(s, 0, win));
        return best;
    }
    if n_melds == 0 && hand::complete::is_seven_pairs(&counts) {
        if let Some(s) = seven_pairs(win, &common) {
            consider(s);
        }
    }
    hand::for_each_decomposition(&counts, n_melds as u8, |blocks| {
        let mut own = sets;
        let mut n = n_melds;
        let mut pair = 0u8;
        for b in blocks {
            match *b {
                Block::Pair(k) => pair = k,
                Block::Triplet(k) => {
                    own[n] = Set {
                        kind: k,
                        shape: Shape::Triplet,
                        open: false,
                        called: false,
                    };
                    n += 1;
                }
                Block::Sequence(k) => {
                    own[n] = Set {
                        kind: k,
                        shape: Shape::Sequence,
                        open: false,
                        called: false,
                    };
                    n += 1;
                }
            }
        }
        let wk = common.win_kind;
        // The winning tile as the pair's.
        if usize::from(pair) == wk {
            if let Some(s) = reading(win, &common, &own, pair, Wait::Tanki) {
                consider(s);
            }
        }
        // The winning tile in one of the concealed sets (each distinct set once).
        for i in n_melds..4 {
            let set = own[i];
            if own[n_melds..i].contains(&set) {
                continue;
            }
            let k = usize::from(set.kind);
            let wait = match set.shape {
                Shape::Sequence if (k..k + 3).contains(&wk) => {
                    let pos = wk - k;
                    if pos == 1 {
                        Wait::Kanchan
                    } else if (pos == 2 && k % 9 == 0) || (pos == 0 && k % 9 == 6) {
                        Wait::Penchan
                    } else {
                        Wait::Ryanmen
                    }
                }
                Shape::Triplet if k == wk => Wait::Shanpon,
                _ => continue,
            };
            let mut read = own;
            if wait == Wait::Shanpon && !win.tsumo {
                read[i].open = true;
            }
            if let Some(s) = reading(win, &common, &read, pair, wait) {
                consider(s);
            }
        }
    });
    best
}

/// Tenhou (dealer) or chiihou: yakuman of the first draw.
fn add_first_turn(s: &mut Score, win: &Win<'_>) {
    if win.tenhou {
        s.push_yakuman(id::TENHOU);
    }
    if win.chiihou {
        s.push_yakuman(id::CHIIHOU);
    }
}

/// Points of `base` (basic points) for the winner: a ron ×4 (×6 dealer), a tsumo the sum of
/// the payments, each rounded up to 100 (with three players, without the absent fourth
/// seat's: [`Players::win_points`]).
fn points(base: i32, win: &Win<'_>) -> i32 {
    win.players.win_points(base, win.dealer, win.tsumo)
}

/// A yakuman score from its yakuman list (`fu` as Tenhou writes it alongside).
fn finish_yakuman(mut s: Score, fu: u8, win: &Win<'_>) -> Score {
    let units = s.yakuman_len;
    s.yakuman[..units as usize].sort_unstable();
    s.yaku_len = 0;
    s.han = 13 * units;
    s.fu = fu;
    s.limit = 5;
    s.base = 8000 * i32::from(units);
    s.points = points(s.base, win);
    s
}

/// A non-yakuman score from its yaku (dora not yet added); `None` without a yaku.
fn finish(mut s: Score, fu: u8, common: &Common, win: &Win<'_>) -> Option<Score> {
    if s.yaku_len == 0 {
        return None;
    }
    if common.dora > 0 {
        s.push(id::DORA, common.dora);
    }
    if win.riichi || win.double_riichi {
        s.push(id::URA_DORA, common.ura);
    }
    if common.aka > 0 {
        s.push(id::AKA_DORA, common.aka);
    }
    let han: u32 = s.yaku().iter().map(|&(_, h)| u32::from(h)).sum();
    s.yaku[..s.yaku_len as usize].sort_unstable();
    s.han = han.min(255) as u8;
    s.fu = fu;
    let raw = i32::from(fu) << (han.min(13) + 2);
    let (base, limit) = match han {
        13.. => (8000, 5),
        11..=12 => (6000, 4),
        8..=10 => (4000, 3),
        6..=7 => (3000, 2),
        _ if han == 5 || raw >= 2000 => (2000, 1),
        _ => (raw, 0),
    };
    s.limit = limit;
    s.base = base;
    s.points = points(base, win);
    Some(s)
}

/// Yaku of the whole hand's colours and terminals, shared by both forms: tanyao, honroutou,
/// honitsu, chinitsu (chanta and junchan are the standard form's).
fn colour_yaku(s: &mut Score, common: &Common, win: &Win<'_>) {
    let all = &common.all;
    let has = |f: &dyn Fn(usize) -> bool| (0..KINDS).any(|k| all[k] > 0 && f(k));
    let yaochu = has(&hand::is_yaochu);
    let simple = has(&|k| !hand::is_yaochu(k));
    let honors = has(&tile::is_honor);
    if !yaochu && (common.closed || win.open_tanyao) {
        s.push(id::TANYAO, 1);
    }
    if !simple {
        s.push(id::HONROUTOU, 2);
    }
    let suits = (0..3)
        .filter(|&su| all[9 * su..9 * su + 9].iter().any(|&c| c > 0))
        .count();
    if suits == 1 {
        let open = u8::from(!common.closed);
        if honors {
            s.push(id::HONITSU, 3 - open);
        } else {
            s.push(id::CHINITSU, 6 - open);
        }
    }
}

/// Whole-hand yakuman independent of the reading: tsuuiisou, ryuuiisou, chinroutou.
fn colour_yakuman(s: &mut Score, common: &Common) {
    let all = &common.all;
    let only = |f: &dyn Fn(usize) -> bool| (0..KINDS).all(|k| all[k] == 0 || f(k));
    if only(&tile::is_honor) {
        s.push_yakuman(id::TSUUIISOU);
    }
    if only(&is_green) {
        s.push_yakuman(id::RYUUIISOU);
    }
    if only(&is_terminal) {
        s.push_yakuman(id::CHINROUTOU);
    }
}

/// The seven-pairs reading.
fn seven_pairs(win: &Win<'_>, common: &Common) -> Option<Score> {
    let mut y = Score::empty();
    for &i in &common.colour_yakuman[..common.colour_yakuman_len] {
        y.push_yakuman(i);
    }
    add_first_turn(&mut y, win);
    if y.yakuman_len > 0 {
        return Some(finish_yakuman(y, 25, win));
    }
    let mut s = Score::empty();
    for &(i, h) in &common.situational[..common.situational_len] {
        s.push(i, h);
    }
    s.push(id::CHIITOITSU, 2);
    for &(i, h) in &common.colour[..common.colour_len] {
        s.push(i, h);
    }
    finish(s, 25, common, win)
}

/// One standard-form reading: `sets` (melds first), the pair's kind, the wait.
fn reading(win: &Win<'_>, common: &Common, sets: &[Set; 4], pair: u8, wait: Wait) -> Option<Score> {
    let pair = usize::from(pair);
    let seat_wind = 27 + usize::from(win.seat_wind);
    let round_wind = 27 + usize::from(win.round_wind);
    let is_triplet = |s: &Set| s.shape != Shape::Sequence;
    let triplets = sets.iter().filter(|s| is_triplet(s)).count();
    let kans = sets.iter().filter(|s| s.shape == Shape::Kan).count();
    let concealed_triplets = sets.iter().filter(|s| is_triplet(s) && !s.open).count();
    let has_triplet = |k: usize| {
        sets.iter()
            .any(|s| is_triplet(s) && usize::from(s.kind) == k)
    };
    let dragon_triplets = (31..34).filter(|&k| has_triplet(k)).count();
    let wind_triplets = (27..31).filter(|&k| has_triplet(k)).count();

    // Yakuman of this reading.
    let mut y = Score::empty();
    add_first_turn(&mut y, win);
    if dragon_triplets == 3 {
        y.push_yakuman(id::DAISANGEN);
    }
    if concealed_triplets == 4 {
        y.push_yakuman(if wait == Wait::Tanki {
            id::SUUANKOU_TANKI
        } else {
            id::SUUANKOU
        });
    }
    for &i in &common.colour_yakuman[..common.colour_yakuman_len] {
        y.push_yakuman(i);
    }
    if wind_triplets == 4 {
        y.push_yakuman(id::DAISUUSHII);
    } else if wind_triplets == 3 && (27..31).contains(&pair) {
        y.push_yakuman(id::SHOUSUUSHII);
    }
    if kans == 4 {
        y.push_yakuman(id::SUUKANTSU);
    }

    // Fu.
    let yakuhai_pair = |k: usize| k >= 31 || k == seat_wind || k == round_wind;
    let pinfu = common.closed && triplets == 0 && wait == Wait::Ryanmen && !yakuhai_pair(pair);
    let mut fu: u32 = 20;
    if common.closed && !win.tsumo {
        fu += 10;
    }
    for s in sets {
        if s.shape == Shape::Sequence {
            continue;
        }
        let mut f = 2;
        if hand::is_yaochu(usize::from(s.kind)) {
            f *= 2;
        }
        if !s.open {
            f *= 2;
        }
        if s.shape == Shape::Kan {
            f *= 4;
        }
        fu += f;
    }
    if pair >= 31 {
        fu += 2;
    }
    if pair == seat_wind {
        fu += 2;
    }
    if pair == round_wind {
        fu += 2;
    }
    if matches!(wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
        fu += 2;
    }
    if win.tsumo && !pinfu {
        fu += 2;
    }
    if !common.closed && fu == 20 {
        fu = 30;
    }
    let fu = (fu.div_ceil(10) * 10) as u8;

    if y.yakuman_len > 0 {
        return Some(finish_yakuman(y, fu, win));
    }

    // Yaku.
    let mut s = Score::empty();
    for &(i, h) in &common.situational[..common.situational_len] {
        s.push(i, h);
    }
    let open = u8::from(!common.closed);
    if pinfu {
        s.push(id::PINFU, 1);
    }
    if common.closed {
        let mut peikou = 0;
        for (i, a) in sets.iter().enumerate() {
            if a.shape == Shape::Sequence && sets[..i].iter().filter(|b| *b == a).count() % 2 == 1 {
                peikou += 1;
            }
        }
        match peikou {
            1 => s.push(id::IIPEIKOU, 1),
            2.. => s.push(id::RYANPEIKOU, 3),
            _ => {}
        }
    }
    for set in sets.iter().filter(|s| is_triplet(s)) {
        let k = usize::from(set.kind);
        if k >= 31 {
            s.push(id::HAKU + (k - 31) as u8, 1);
        }
        if k == seat_wind {
            s.push(id::SEAT_WIND + win.seat_wind, 1);
        }
        if k == round_wind {
            s.push(id::ROUND_WIND + win.round_wind, 1);
        }
    }
    for &(i, h) in &common.colour[..common.colour_len] {
        s.push(i, h);
    }
    let honroutou = s.yaku().iter().any(|&(i, _)| i == id::HONROUTOU);
    let sequences = 4 - triplets;
    let with_yaochu = |set: &Set| {
        let k = usize::from(set.kind);
        match set.shape {
            Shape::Sequence => k % 9 == 0 || k % 9 == 6,
            _ => hand::is_yaochu(k),
        }
    };
    if !honroutou && sequences > 0 && hand::is_yaochu(pair) && sets.iter().all(with_yaochu) {
        let honors = (27..KINDS).any(|k| common.all[k] > 0);
        if honors {
            s.push(id::CHANTA, 2 - open);
        } else {
            s.push(id::JUNCHAN, 3 - open);
        }
    }
    let has_seq = |k: usize| {
        sets.iter()
            .any(|s| s.shape == Shape::Sequence && usize::from(s.kind) == k)
    };
    if (0..3).any(|su| has_seq(9 * su) && has_seq(9 * su + 3) && has_seq(9 * su + 6)) {
        s.push(id::ITTSU, 2 - open);
    }
    if (0..7).any(|n| has_seq(n) && has_seq(9 + n) && has_seq(18 + n)) {
        s.push(id::SANSHOKU, 2 - open);
    }
    if (0..9).any(|n| has_triplet(n) && has_triplet(9 + n) && has_triplet(18 + n)) {
        s.push(id::DOUKOU, 2);
    }
    if kans == 3 {
        s.push(id::SANKANTSU, 2);
    }
    if triplets == 4 {
        s.push(id::TOITOI, 2);
    }
    if concealed_triplets == 3 {
        s.push(id::SANANKOU, 2);
    }
    if dragon_triplets == 2 && pair >= 31 {
        s.push(id::SHOUSANGEN, 2);
    }
    finish(s, fu, common, win)
}

/// Chuuren of a closed hand without melds: `Some(junsei)` when the hand is 1112345678999 of
/// one suit plus one more; junsei when the thirteen tiles before the win were exactly that.
fn chuuren(win: &Win<'_>, common: &Common) -> Option<bool> {
    if !win.melds.is_empty() {
        return None;
    }
    let all = &common.all;
    let suit = (0..3).find(|&su| all[9 * su..9 * su + 9].iter().sum::<u8>() == 14)?;
    let c = &all[9 * suit..9 * suit + 9];
    const BASE: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    if c.iter().zip(BASE).any(|(&x, b)| x < b) {
        return None;
    }
    let w = common.win_kind;
    let junsei = w / 9 == suit && c[w % 9] == BASE[w % 9] + 1;
    Some(junsei)
}
