//! Tenhou mjlog XML: the decoded events, one per tag, in log order.
//!
//! This module knows the format and nothing of statistics: it turns bytes into [`Event`]s and
//! checks only what the format itself says (tag names, attribute syntax, value ranges).

pub mod decode;
pub mod meld;

pub use decode::{decode, DecodeError};
pub use meld::{decode_meld, encode_meld, Meld, MeldKind};

use crate::tile::TileId;

/// GO `type` bits.
pub mod go_type {
    pub const NO_RED: u32 = 0x02;
    /// Tanyao does not count with an open hand (喰断なし).
    pub const NO_OPEN_TANYAO: u32 = 0x04;
    pub const HANCHAN: u32 = 0x08;
    pub const THREE_PLAYER: u32 = 0x10;
    pub const FAST: u32 = 0x40;
    /// The highest GO type of Tenhou's standard rules: the bits above are lobby rule sets
    /// (chip and ratio games, kiriage mangan), skipped as `unknown-rules`.
    pub const STANDARD_MAX: u32 = 0xFF;
}

/// The room of a GO type: bits 0x20 and 0x80.
pub fn room_of(go: u32) -> &'static str {
    match go & 0xA0 {
        0xA0 => "phoenix",
        0x20 => "tokujou",
        0x80 => "joukyuu",
        _ => "ippan",
    }
}

/// The `m` code Tenhou writes for a kita of `tile` (in its `N` tag and in AGARI `m`).
pub fn kita_code(tile: TileId) -> u32 {
    u32::from(tile) << 8 | 0x20
}

/// One decoded tag.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// SHUFFLE: its `seed` attribute as written (the wall's seed, [`crate::wall::Seed`]).
    Shuffle {
        seed: Option<String>,
    },
    Go {
        go_type: u32,
        /// The `lobby` attribute (0 for the public rooms), when written.
        lobby: Option<u32>,
    },
    /// Player names (URL-decoded) and ranks; a later `UN` with only names is a reconnect.
    Un(Box<Un>),
    Bye {
        who: u8,
    },
    Taikyoku {
        oya: u8,
    },
    Init(Box<Init>),
    Draw {
        seat: u8,
        tile: TileId,
    },
    Discard {
        seat: u8,
        tile: TileId,
    },
    Call {
        who: u8,
        meld: Meld,
        m: u32,
    },
    /// A kita (北抜き, three-player games only): `who` sets the North `tile` aside and draws a
    /// replacement tile. Tenhou writes it as an `N` whose `m` is `tile × 256 + 0x20`
    /// ([`kita_code`]); it is no meld (statistics.md §24).
    Kita {
        who: u8,
        tile: TileId,
    },
    Reach {
        who: u8,
        step: u8,
        ten: Option<[i32; 4]>,
    },
    Dora {
        tile: TileId,
    },
    Agari(Box<Agari>),
    Ryuukyoku(Box<Ryuukyoku>),
    /// A tag this decoder does not know; a warning, not an error.
    Unknown(String),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Un {
    pub names: [Option<String>; 4],
    pub dan: Option<[i32; 4]>,
    pub rate: Option<[f64; 4]>,
    pub sx: Option<[String; 4]>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Init {
    /// East 1 = 0 … (the first field of `seed`).
    pub round: u8,
    pub honba: u8,
    pub kyotaku: u8,
    pub dice: [u8; 2],
    pub dora_indicator: TileId,
    /// Scores in hundreds.
    pub ten: [i32; 4],
    pub oya: u8,
    pub hai: [Vec<TileId>; 4],
    /// The `shuffle` attribute of logs from 2008–2009 (a seed per hand), as written.
    pub shuffle: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Agari {
    pub honba: u8,
    pub kyotaku: u8,
    /// Winner's concealed tiles plus the winning tile.
    pub hai: Vec<TileId>,
    /// The winner's melds, as `m` codes.
    pub m: Vec<u32>,
    pub machi: TileId,
    /// fu, points (without honba and kyotaku), limit class.
    pub ten: [i32; 3],
    pub yaku: Vec<(u8, u8)>,
    pub yakuman: Vec<u8>,
    pub dora_hai: Vec<TileId>,
    pub ura_hai: Vec<TileId>,
    pub who: u8,
    pub from_who: u8,
    pub pao_who: Option<u8>,
    /// Score before, delta, per seat, in hundreds.
    pub sc: [i32; 8],
    pub owari: Option<Vec<f64>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ryuukyoku {
    /// `type` attribute; `None` for an exhaustive draw.
    pub kind: Option<String>,
    pub honba: u8,
    pub kyotaku: u8,
    pub sc: [i32; 8],
    /// Hands shown (tenpai hands, or the kyuushu hand).
    pub hai: [Option<Vec<TileId>>; 4],
    pub owari: Option<Vec<f64>>,
}

/// The `type` a reader gives a draw that did not exhaust the wall when its format does not
/// name it ([`lacks::DRAW_KIND`]); the replay names it from the state at the draw
/// (`HandState::unnamed_abortive_kind`).
pub const UNNAMED_ABORTIVE: &str = "abortive";

impl Ryuukyoku {
    /// The frame name of the draw type: `exhaustive` for no `type`, else Tenhou's name.
    pub(crate) fn end_name(&self) -> &str {
        self.kind.as_deref().unwrap_or("exhaustive")
    }
}

/// The format a log was read from: the `games.format` column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Mjlog,
    Tenhou6,
    Mjai,
    Majiang,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Mjlog => "mjlog",
            Format::Tenhou6 => "tenhou6",
            Format::Mjai => "mjai",
            Format::Majiang => "majiang",
        }
    }
}

/// What a log's format does not record: bits of [`Origin::lacks`]. The replay does not check
/// what is not recorded, and the frames write null for it (docs/formats.md's table, per format).
pub mod lacks {
    /// The rules beyond red fives (hanchan, room, GO type): `games.go_type`, `hanchan` null.
    pub const RULES: u16 = 1;
    /// The final scores (`owari`): `games.score_*` null; places come from the replay.
    pub const FINAL_SCORES: u16 = 1 << 1;
    /// A win's fu, points, limit and yaku: `wins` columns and `hands.win_value` null, no
    /// `win_yaku` rows.
    pub const WIN_VALUE: u16 = 1 << 2;
    /// The fu of some wins (tenhou.net/6: limit hands; majiang: yakuman hands): the reader
    /// gives 0, never a real fu, and `wins.fu` is null for those.
    pub const SOME_FU: u16 = 1 << 3;
    /// The type of an abortive draw, and all-tenpai against all-noten: `hands.end` null for
    /// a draw that did not exhaust the wall.
    pub const DRAW_KIND: u16 = 1 << 4;
    /// The winner's hand and melds as the log states them (the reader rebuilds them from the
    /// hand's play, so the replay's check of them holds by construction).
    pub const WIN_HAND: u16 = 1 << 5;
    /// The seat liable for a yakuman (pao): `wins.pao` is null, as for a win without one.
    pub const PAO: u16 = 1 << 6;
    /// The tenpai hands shown at an exhaustive draw (tenhou.net/6, mjai): the replay proves
    /// the noten payments against the hands it holds.
    pub const SHOWN_HANDS: u16 = 1 << 7;
}

/// Where a decoded log came from, and what it does not record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Origin {
    pub format: Format,
    /// [`lacks`] bits.
    pub lacks: u16,
    /// The room of a game that is not a Tenhou game (`mahjongsoul`, `engine`); Tenhou games
    /// have their GO type's.
    pub room: Option<&'static str>,
    /// The game id the log itself carries (a tenhou.net/6 `ref`, a majiang title's log id),
    /// which names the game instead of its file.
    pub game_id: Option<String>,
    /// The rule text of a game not from a Tenhou room, as its source wrote it (a
    /// tenhou.net/6 `rule.disp`, a majiang title's first line), for a writer to keep.
    pub rules_text: Option<String>,
}

impl Origin {
    pub fn lacks(&self, bit: u16) -> bool {
        self.lacks & bit != 0
    }
}

/// A whole decoded log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameLog {
    pub origin: Origin,
    pub go_type: Option<u32>,
    pub events: Vec<Event>,
    /// Unknown tags, by name, in order of first appearance, with their counts.
    pub unknown_tags: Vec<(String, u32)>,
}

impl GameLog {
    /// Player names from the first `UN` (URL-decoded), empty when absent.
    pub(crate) fn player_names(&self) -> [String; 4] {
        for e in &self.events {
            if let Event::Un(un) = e {
                if un.dan.is_some() || un.names.iter().all(Option::is_some) {
                    return un.names.clone().map(Option::unwrap_or_default);
                }
            }
        }
        Default::default()
    }

    /// Per seat `dan` (0 = 新人 … 20 = 天鳳位) and `rate` from the first `UN` that has them;
    /// `None` when no `UN` carries the attribute.
    pub(crate) fn player_ranks(&self) -> (Option<[i32; 4]>, Option<[f64; 4]>) {
        let uns = self.events.iter().filter_map(|e| match e {
            Event::Un(un) => Some(un),
            _ => None,
        });
        let (mut dan, mut rate) = (None, None);
        for un in uns {
            dan = dan.or(un.dan);
            rate = rate.or(un.rate);
        }
        (dan, rate)
    }
}
