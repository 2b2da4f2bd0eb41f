//! The pieces of the engine protocols' request objects (§7's decisions, §16's moments): the
//! hand's context read from the `hands` frame, and tiles, melds and rivers as JSON, written by
//! hand into one reused buffer (a request costs no allocation but its text).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};
use polars::prelude::*;

use crate::agree::replay::RiverTile;
use crate::frames::dataset::{self, Slices};
use crate::stats::decisions::MeldText;
use crate::tile;

/// Rows of `hands` read at a time.
const SLICE_ROWS: usize = 1 << 16;

/// What the `hands` frame says of a hand: round, honba, kyotaku, dealer, scores at its start.
#[derive(Clone, Debug, Default)]
pub(crate) struct HandContext {
    round: i32,
    honba: i32,
    kyotaku: i32,
    dealer: i32,
    scores: [i32; 4],
}

/// Reads `hands` in step with a frame of requests (both are in game order, hands in order).
pub(crate) struct HandsCursor {
    slices: Slices,
    buffer: Vec<(String, u16, HandContext)>,
    at: usize,
}

impl HandsCursor {
    pub(crate) fn open(frames: &Path) -> Result<HandsCursor> {
        Ok(HandsCursor {
            slices: Slices::new(dataset::require(frames, "hands")?, SLICE_ROWS),
            buffer: Vec::new(),
            at: 0,
        })
    }

    /// The context of (game, hand), advancing (never back).
    pub(crate) fn find(&mut self, game: &str, hand: u16) -> Result<HandContext> {
        loop {
            while self.at < self.buffer.len() {
                let (g, h, ctx) = &self.buffer[self.at];
                if g == game && *h == hand {
                    return Ok(ctx.clone());
                }
                self.at += 1;
            }
            let Some(df) = self.slices.next().transpose()? else {
                bail!("hands has no hand {hand} of game {game} (frames of two ingests?)");
            };
            let ids = df.column("game_id")?.str()?.clone();
            let int = |c: &str| -> Result<Int32Chunked> { Ok(df.column(c)?.i32()?.clone()) };
            let (hands, round, honba, kyotaku, dealer) = (
                int("hand")?,
                int("round")?,
                int("honba")?,
                int("kyotaku")?,
                int("dealer")?,
            );
            let start: Vec<Int32Chunked> = (0..4)
                .map(|s| int(&format!("start_{s}")))
                .collect::<Result<_>>()
                .context("hands has no start_0..3 (written before haifu agree): ingest again")?;
            self.buffer = (0..df.height())
                .map(|i| {
                    (
                        ids.get(i).unwrap_or_default().to_string(),
                        hands.get(i).unwrap_or(0) as u16,
                        HandContext {
                            round: round.get(i).unwrap_or(0),
                            honba: honba.get(i).unwrap_or(0),
                            kyotaku: kyotaku.get(i).unwrap_or(0),
                            dealer: dealer.get(i).unwrap_or(0),
                            scores: std::array::from_fn(|s| start[s].get(i).unwrap_or(0)),
                        },
                    )
                })
                .collect();
            self.at = 0;
        }
    }
}

/// The rules of each game (`games` frame): red fives, open tanyao, hanchan, and for a
/// three-player game §24's (three seats, kita, no chi, tsumo loss), as a request's `rules`
/// object.
pub(crate) struct GameRules(std::collections::HashMap<String, String>);

impl GameRules {
    pub(crate) fn read(frames: &Path) -> Result<GameRules> {
        // Frames written before version 5 have no `players` column: four players.
        let has_players = dataset::scan(frames, "games")?
            .collect_schema()
            .map_err(|e| anyhow::anyhow!("cannot read the games of {}: {e}", frames.display()))?
            .contains("players");
        let mut columns = vec!["game_id", "go_type", "hanchan", "red"];
        if has_players {
            columns.push("players");
        }
        let df = dataset::read(frames, "games", Some(&columns))?;
        let ids = df.column("game_id")?.str()?.clone();
        let go = df.column("go_type")?.i32()?.clone();
        let hanchan = df.column("hanchan")?.bool()?.clone();
        let red = df.column("red")?.bool()?.clone();
        let players = if has_players {
            Some(df.column("players")?.cast(&DataType::Int32)?.i32()?.clone())
        } else {
            None
        };
        let mut map = std::collections::HashMap::with_capacity(df.height());
        for i in 0..df.height() {
            // A format that records no rules: Tenhou's (open tanyao, hanchan) stand.
            let open_tanyao = go
                .get(i)
                .is_none_or(|g| g as u32 & crate::mjlog::go_type::NO_OPEN_TANYAO == 0);
            let three = players.as_ref().and_then(|p| p.get(i)) == Some(3);
            map.insert(
                ids.get(i).unwrap_or_default().to_string(),
                format!(
                    "{{\"red\":{},\"open_tanyao\":{open_tanyao},\"hanchan\":{}{}}}",
                    red.get(i).unwrap_or(true),
                    hanchan.get(i).unwrap_or(true),
                    if three {
                        crate::agree::every::THREE_PLAYER_RULES
                    } else {
                        ""
                    }
                ),
            );
        }
        Ok(GameRules(map))
    }

    /// The `rules` object of `game_id` (`null` for a game the frame does not hold).
    pub(crate) fn of(&self, game_id: &str) -> &str {
        self.0.get(game_id).map_or("null", String::as_str)
    }
}

/// A JSON string of ASCII-safe text (tile names, ids).
pub(crate) fn json_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).expect("a string serialises"));
}

/// Tile types (37 types) as an array of names.
pub(crate) fn json_tiles(out: &mut String, tiles: impl IntoIterator<Item = usize>) {
    out.push('[');
    for (i, t) in tiles.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(tile::type_name(t));
        out.push('"');
    }
    out.push(']');
}

/// `{"id":…,"game_id":…,"hand":…,"seat":…,"round":…,"honba":…,"kyotaku":…,"dealer":…,
/// "scores":[…],"dora_indicators":` (the indicators' array follows).
pub(crate) fn json_head(
    out: &mut String,
    id: u64,
    game_id: &str,
    hand: u16,
    seat: u8,
    ctx: &HandContext,
) {
    let _ = write!(out, "{{\"id\":{id},\"game_id\":");
    json_str(out, game_id);
    let _ = write!(
        out,
        ",\"hand\":{hand},\"seat\":{seat},\"round\":{},\"honba\":{},\"kyotaku\":{},\"dealer\":{},\"scores\":[{},{},{},{}],\"dora_indicators\":",
        ctx.round, ctx.honba, ctx.kyotaku, ctx.dealer, ctx.scores[0], ctx.scores[1], ctx.scores[2], ctx.scores[3]
    );
}

/// Every seat's melds: `[[{"kind":"pon","tiles":["5p","5p","5p"],"from":2}],[],[],[]]`.
pub(crate) fn json_melds(out: &mut String, melds: &[Vec<MeldText>; 4]) {
    out.push('[');
    for (s, melds) in melds.iter().enumerate() {
        if s > 0 {
            out.push(',');
        }
        out.push('[');
        for (i, m) in melds.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{{\"kind\":\"{}\",\"tiles\":", m.kind);
            json_tiles(out, m.tiles.iter().copied());
            let _ = write!(out, ",\"from\":{}}}", m.from);
        }
        out.push(']');
    }
    out.push(']');
}

/// Every seat's river:
/// `[[{"tile":"4z","tsumogiri":true,"riichi":false,"called":false,"seq":0}],[],[],[]]` (`seq`
/// only when known).
pub(crate) fn json_rivers(out: &mut String, rivers: &[Vec<RiverTile>; 4]) {
    out.push('[');
    for (s, river) in rivers.iter().enumerate() {
        if s > 0 {
            out.push(',');
        }
        out.push('[');
        for (i, r) in river.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"tile\":\"");
            out.push_str(tile::type_name(usize::from(r.tile)));
            out.push_str("\",\"tsumogiri\":");
            out.push_str(if r.tsumogiri { "true" } else { "false" });
            out.push_str(",\"riichi\":");
            out.push_str(if r.riichi { "true" } else { "false" });
            out.push_str(",\"called\":");
            out.push_str(if r.called { "true" } else { "false" });
            if let Some(q) = r.seq {
                let _ = write!(out, ",\"seq\":{q}");
            }
            out.push('}');
        }
        out.push(']');
    }
    out.push(']');
}
