//! The Parquet frames of docs/definitions.md §6.
//!
//! - One file per frame. A *per-game* frame implements [`GameFrame`]: it takes each landed
//!   game's rows ([`GameRows`]) and hands them over a row group at a time as a
//!   [`FrameChunk`] (Arrow arrays, `chunk.rs`); [`PendingFrames`] holds them all until they
//!   fill a row group. A *run-wide* frame (`draw_rate`, `danger_calibration`,
//!   `danger_eval_summary`) is built once from the run's totals.
//! - [`FrameWriter`] (`writer.rs`) writes every file under a temporary name and renames them
//!   together.
//!
//! Adding a per-game frame is a file implementing [`GameFrame`] and a line in [`GAME_FRAMES`].
//!
//! Invariant: every pending row of a per-game frame refers to its game by sequence number
//! (games pushed so far); [`PendingFrames`] keeps the ids of every game a pending row refers
//! to, and a chunk's game ids are dictionary codes into the ids of its own games.

mod chunk;
pub(crate) mod dataset;
mod writer;

mod by_turn;
mod calls;
mod choices;
mod danger_by_turn;
mod danger_calibration;
mod danger_eval;
mod danger_eval_summary;
mod danger_moments;
mod danger_situations;
mod decisions;
mod draw_rate;
mod games;
mod hand_ends;
mod hand_reading;
mod hand_reading_moments;
mod hands;
mod kita;
mod riichi;
mod riichi_response;
mod seats;
mod tables;
mod tenpai_draws;
mod tiles_at_end;
mod wait_danger;
mod walls;
mod wins;

pub use chunk::FrameChunk;
pub(crate) use danger_eval::EvalRows;
pub(crate) use writer::{write_atomically, FrameWriter};

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use polars::prelude::{DataFrame, PolarsResult};

use crate::danger::EvalTotals;
use crate::groups::Group;
use crate::hand::WaitShape;
use crate::rules::Players;
use crate::stats::{DrawRateCells, DrawRecord, GameObservations, Observe};
use crate::tile::KINDS;

/// Everything one landed game contributes to the frames.
pub(crate) struct GameRows {
    pub(crate) game_id: String,
    /// The input it came from (a path, or `<db>#<log id>`).
    pub(crate) source: String,
    /// What identifies the game's content, for a game not named by a log id
    /// (`FileEntry::content`).
    pub(crate) content: Option<String>,
    pub(crate) obs: GameObservations,
    /// The game's draw records when its draw-rate units are left to the merger (a log id
    /// another input also has); empty otherwise.
    pub(crate) draws: Vec<DrawRecord>,
    /// The game in another format, gzip'd (`haifu convert`), written instead of its rows.
    pub(crate) converted: Option<Vec<u8>>,
}

/// A frame with one batch of rows per game.
pub(crate) trait GameFrame: Send {
    /// The file name without `.parquet`, and the SQL table name.
    fn name(&self) -> &'static str;
    /// The fewest rows a row group holds (except the file's last): enough to amortise
    /// polars' per-row-group footer metadata (about 2 KB per column, kept until the file is
    /// finished), few enough that pending rows take a few MiB.
    fn row_group_rows(&self) -> usize;
    /// Appends the rows of game number `game` (its sequence number in the run).
    fn push(&mut self, game: u32, rows: &GameRows);
    /// Rows appended since the last [`GameFrame::take`].
    fn pending(&self) -> usize;
    /// The pending rows as a chunk, the builder left empty; a row of game n has game id
    /// `ids[n - first]`.
    fn take(&mut self, ids: &[&str], first: u32) -> FrameChunk;
}

/// A per-game frame's builder.
pub(crate) type NewFrame = fn() -> Box<dyn GameFrame>;

/// The §8 frame's name (the ingest scores it as it finishes).
pub(crate) const TENPAI_DRAWS: &str = tenpai_draws::NAME;
/// The §4 situations' frame (the ingest scores `phoenix-table` over it as it finishes).
pub(crate) const DANGER_SITUATIONS: &str = danger_situations::NAME;
/// The §4 scores' frame (the `phoenix-table` rows are appended to it as the ingest finishes).
pub(crate) const DANGER_EVAL: &str = danger_eval::NAME;

/// Row groups a file of a per-game frame holds at most: an ingest writes a larger frame in
/// parts (`<name>/part-NNNNN.parquet`), so that a report reads files of a bounded size. polars
/// maps a file into memory and its pages stay resident while the file is read: over one file
/// of 51,584 games, `hand-reading` peaked at 598 MiB, against 160 over 6,448 games and 161 over
/// the same 51,584 games in 8 parts. The big frames take a row group per batch of games (about
/// 500), so 16 keeps the 6,448 Phoenix games in one file per frame.
pub(crate) const PART_ROW_GROUPS: usize = 16;

/// True for a per-game frame an ingest may write in parts: every one but `danger_eval`, whose
/// one file an append or a merge reads without its `phoenix-table` rows (`ingest::join`).
pub(crate) fn rolls(name: &str) -> bool {
    name != DANGER_EVAL
}

/// The per-game frames, in the order they are written: name and constructor.
pub(crate) const GAME_FRAMES: [(&str, NewFrame); 9] = [
    (games::NAME, games::new),
    (hands::NAME, hands::new),
    (riichi_response::NAME, riichi_response::new),
    (wait_danger::NAME, wait_danger::new),
    (danger_situations::NAME, danger_situations::new),
    (danger_eval::NAME, danger_eval::new),
    (tenpai_draws::NAME, tenpai_draws::new),
    (seats::NAME, seats::new),
    (kita::NAME, kita::new),
];

/// The per-game frames written only when asked for (`haifu ingest --with NAME`, the groups of
/// [`crate::groups::GROUPS`]): after [`GAME_FRAMES`], in this order.
const ON_REQUEST: [(&str, NewFrame); 17] = [
    (decisions::NAME, decisions::new),
    (choices::NAME, choices::new),
    (walls::NAME, walls::new),
    (danger_by_turn::NAME, danger_by_turn::new),
    (danger_moments::NAME, danger_moments::new),
    (hand_reading::NAME, hand_reading::new),
    (hand_reading_moments::NAME, hand_reading_moments::new),
    (wins::NAME, wins::new),
    (wins::YAKU_NAME, wins::new_yaku),
    (riichi::NAME, riichi::new),
    (calls::NAME, calls::new),
    (by_turn::NAME, by_turn::new),
    (tiles_at_end::NAME, tiles_at_end::new),
    (hand_ends::NAME, hand_ends::new),
    (tables::DISCARDS, tables::new_discards),
    (tables::PLACEMENT, tables::new_placement),
    (tables::WIN_KINDS, tables::new_win_kinds),
];

/// The §15 per-moment frame's name.
pub(crate) const DANGER_MOMENTS: &str = danger_moments::NAME;

pub(crate) use danger_by_turn::split;
pub(crate) use tables::order_seats;
pub use tables::{akochan_order, order_number};

/// The §16 per-moment frame's name.
pub(crate) const HAND_READING_MOMENTS: &str = hand_reading_moments::NAME;

/// The §7 frame's name.
pub(crate) const DECISIONS: &str = decisions::NAME;

/// The option that writes on-request frame `name` (`--with NAME`, [`crate::groups`]).
pub(crate) fn flag_of(name: &str) -> String {
    let group = Group::writing(name).expect("an on-request frame belongs to a group");
    format!("--with {}", group.name())
}

/// The per-game frames a run with `observe` writes, in order: every run's, then the on-request
/// frames of its groups in [`ON_REQUEST`] order.
fn game_frames(observe: Observe) -> Vec<(&'static str, NewFrame)> {
    let groups = observe.groups();
    let wanted = |frame: &str| groups.iter().any(|g| g.info().frames.contains(&frame));
    let mut frames = GAME_FRAMES.to_vec();
    frames.extend(ON_REQUEST.iter().filter(|(name, _)| wanted(name)));
    frames
}

/// The frames built once per run from its totals.
const RUN_FRAMES: [&str; 3] = [
    draw_rate::NAME,
    danger_calibration::NAME,
    danger_eval_summary::NAME,
];

/// Every frame a run writes (each `<name>.parquet` next to `manifest.json`; each a table of
/// the SQL reports).
pub const FRAMES: [&str; GAME_FRAMES.len() + RUN_FRAMES.len()] = {
    let mut all = [""; GAME_FRAMES.len() + RUN_FRAMES.len()];
    let mut i = 0;
    while i < GAME_FRAMES.len() {
        all[i] = GAME_FRAMES[i].0;
        i += 1;
    }
    let mut k = 0;
    while k < RUN_FRAMES.len() {
        all[i + k] = RUN_FRAMES[k];
        k += 1;
    }
    all
};

/// The frames a run writes only when asked for (`--with NAME`), besides [`FRAMES`].
pub const ON_REQUEST_FRAMES: [&str; ON_REQUEST.len()] = {
    let mut all = [""; ON_REQUEST.len()];
    let mut i = 0;
    while i < ON_REQUEST.len() {
        all[i] = ON_REQUEST[i].0;
        i += 1;
    }
    all
};

/// True for a frame with rows of games (each row has a `game_id`), false for a run-wide one.
pub(crate) fn is_per_game(name: &str) -> bool {
    GAME_FRAMES
        .iter()
        .chain(&ON_REQUEST)
        .any(|(n, _)| *n == name)
}

/// The `draw_rate` frame.
pub(crate) fn draw_rate_frame(cells: &DrawRateCells) -> PolarsResult<DataFrame> {
    draw_rate::frame(cells)
}

/// The `danger_calibration` frame of each table's totals.
pub(crate) fn danger_calibration_frame(
    totals: &[(Players, &EvalTotals)],
) -> PolarsResult<DataFrame> {
    danger_calibration::frame(totals)
}

/// The `danger_eval_summary` frame of each table's totals.
pub(crate) fn danger_eval_summary_frame(
    totals: &[(Players, &EvalTotals)],
) -> PolarsResult<DataFrame> {
    danger_eval_summary::frame(totals)
}

/// Writes the `danger_calibration` and `danger_eval_summary` frames of each table's totals.
pub(crate) fn write_danger_totals(
    writer: &mut FrameWriter,
    totals: &[(Players, &EvalTotals)],
) -> PolarsResult<()> {
    writer.write("danger_calibration", &danger_calibration::frame(totals)?)?;
    writer.write("danger_eval_summary", &danger_eval_summary::frame(totals)?)
}

/// Game sequence numbers `codes` rebased to start at `first` (indices into a chunk's ids).
fn rebase(mut codes: Vec<u32>, first: u32) -> Vec<u32> {
    codes.iter_mut().for_each(|c| *c -= first);
    codes
}

/// A per-kind array as 34 digits in kind order (1m..9m, 1p..9p, 1s..9s, 1z..7z); a value
/// above 9 is written as 9.
pub(crate) fn kind_digits<T: Copy + Into<u32>>(a: &[T; KINDS]) -> [u8; KINDS] {
    a.map(|v| b'0' + v.into().min(9) as u8)
}

/// A multiplicative hash of a `u64` key (the keys are bit sets and packed digits, not chosen by
/// anyone: no need for SipHash's resistance, and this is several times cheaper).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, k: u64) {
        // Several keys in a row (a tuple) mix as one.
        self.0 = (self.0 ^ k)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// Dictionary codes of `keys`, and the label of each distinct key (`label` builds it once).
fn intern<K: Copy + Eq + Hash>(keys: &[K], label: impl Fn(K) -> String) -> (Vec<String>, Vec<u32>) {
    let mut index: HashMap<K, u32, BuildHasherDefault<KeyHasher>> = HashMap::default();
    let mut labels = Vec::new();
    let codes = keys
        .iter()
        .map(|&k| {
            *index.entry(k).or_insert_with(|| {
                labels.push(label(k));
                labels.len() as u32 - 1
            })
        })
        .collect();
    (labels, codes)
}

/// The `kitas` column's text (`decisions`, `hand_reading_moments`) of packed counts `k` (a
/// byte per seat, `u32::from_le_bytes`): four digits, seats 0..3.
fn kitas_label(k: u32) -> String {
    (0..4)
        .map(|s| char::from(b'0' + (k >> (8 * s) & 0xff).min(9) as u8))
        .collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Rows of 34 ASCII characters ([`kind_digits`], [`shape_letters`]) as text.
fn digits(rows: &[[u8; KINDS]]) -> Vec<&str> {
    rows.iter()
        .map(|d| std::str::from_utf8(d).expect("ASCII"))
        .collect()
}

/// Waits as 34 digits in kind order: 1 for a wait, 0 otherwise (text by [`digits`]).
fn shape_digits(waits: &[Option<WaitShape>; KINDS]) -> [u8; KINDS] {
    waits.map(|w| if w.is_some() { b'1' } else { b'0' })
}

/// Waits as 34 letters in kind order: `-` not a wait, else the shape's ([`WaitShape::letter`];
/// text by [`digits`]).
fn shape_letters(waits: &[Option<WaitShape>; KINDS]) -> [u8; KINDS] {
    waits.map(|w| w.map_or(b'-', WaitShape::letter))
}

/// Inverse of [`kind_digits`] (as text); None unless `s` is 34 decimal digits.
pub fn parse_kind_digits(s: &str) -> Option<[u8; KINDS]> {
    let b = s.as_bytes();
    if b.len() != KINDS || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(std::array::from_fn(|k| b[k] - b'0'))
}

/// Inverse of the `kitas` column's text ([`kitas_label`]): every seat's kita Norths; None
/// unless `s` is four digits 0–4.
pub(crate) fn parse_kitas(s: &str) -> Option<[u8; 4]> {
    let b = s.as_bytes();
    if b.len() != 4 || !b.iter().all(|d| (b'0'..=b'4').contains(d)) {
        return None;
    }
    Some(std::array::from_fn(|j| b[j] - b'0'))
}

/// The per-game frames' builders, holding each frame's rows until they fill a row group.
pub(crate) struct PendingFrames {
    frames: Vec<Box<dyn GameFrame>>,
    /// Each frame's row-group size ([`GameFrame::row_group_rows`]; other values in tests).
    row_group_rows: Vec<usize>,
    /// Game ids from sequence number `ids_base` on.
    ids: VecDeque<String>,
    ids_base: u32,
    /// Sequence number of the next game pushed.
    next_game: u32,
    /// Per frame, the sequence number of the first game its pending rows may refer to.
    first: Vec<u32>,
}

impl Default for PendingFrames {
    fn default() -> Self {
        PendingFrames::new(Observe::default())
    }
}

impl PendingFrames {
    /// Builders of the per-game frames a run with `observe` writes.
    pub(crate) fn new(observe: Observe) -> Self {
        let frames = game_frames(observe);
        let rows = frames
            .iter()
            .map(|(_, new)| new().row_group_rows())
            .collect();
        PendingFrames::with_frames(&frames, rows)
    }

    /// Builders of the frames of `list` that write frame f's rows once they reach `rows[f]` rows.
    fn with_frames(list: &[(&'static str, NewFrame)], rows: Vec<usize>) -> Self {
        let frames: Vec<Box<dyn GameFrame>> = list.iter().map(|(_, new)| new()).collect();
        debug_assert_eq!(rows.len(), frames.len());
        PendingFrames {
            first: vec![0; frames.len()],
            frames,
            row_group_rows: rows,
            ids: VecDeque::new(),
            ids_base: 0,
            next_game: 0,
        }
    }

    /// Appends one landed game.
    pub(crate) fn push(&mut self, g: &GameRows) {
        let game = self.next_game;
        self.next_game += 1;
        self.ids.push_back(g.game_id.clone());
        for f in &mut self.frames {
            f.push(game, g);
        }
    }

    /// The frames whose pending rows fill a row group, or, with `all`, every frame with
    /// pending rows, as (index into [`GAME_FRAMES`], chunk); their builders are left empty.
    pub(crate) fn take_ready(&mut self, all: bool) -> Vec<(usize, FrameChunk)> {
        self.take_ready_of(all, |_| true)
    }

    /// [`PendingFrames::take_ready`] of the frames whose name `which` accepts.
    pub(crate) fn take_ready_of(
        &mut self,
        all: bool,
        which: impl Fn(&str) -> bool,
    ) -> Vec<(usize, FrameChunk)> {
        let mut chunks = Vec::new();
        for f in 0..self.frames.len() {
            let pending = self.frames[f].pending();
            if pending > 0
                && which(self.frames[f].name())
                && (all || pending >= self.row_group_rows[f])
            {
                chunks.push((f, self.take_frame(f)));
            }
        }
        // A frame without pending rows refers to no game before the next one; the ids no
        // pending row refers to are dropped.
        for (f, first) in self.first.iter_mut().enumerate() {
            if self.frames[f].pending() == 0 {
                *first = self.next_game;
            }
        }
        let oldest = self.first.iter().copied().min().unwrap_or(self.next_game);
        self.ids.drain(..(oldest - self.ids_base) as usize);
        self.ids_base = oldest;
        chunks
    }

    /// The name of frame `f` ([`GAME_FRAMES`] order).
    pub(crate) fn name(&self, f: usize) -> &'static str {
        self.frames[f].name()
    }

    /// Frame `f`'s pending rows as a chunk (its builder is left empty).
    fn take_frame(&mut self, f: usize) -> FrameChunk {
        let first = self.first[f];
        self.first[f] = self.next_game;
        let ids: Vec<&str> = self
            .ids
            .range((first - self.ids_base) as usize..)
            .map(String::as_str)
            .collect();
        self.frames[f].take(&ids, first)
    }

    /// Every per-game frame's chunk without rows (each frame's schema), with its name, for
    /// the frames a run with `observe` writes.
    pub(crate) fn empty_chunks(observe: Observe) -> Vec<(&'static str, FrameChunk)> {
        game_frames(observe)
            .iter()
            .map(|(name, new)| (*name, new().take(&[], 0)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seat 1 with two kitas, seat 2 with one: "0210"; none: "0000".
    #[test]
    fn kita_digits_are_per_seat() {
        assert_eq!(kitas_label(u32::from_le_bytes([0, 2, 1, 0])), "0210");
        assert_eq!(kitas_label(0), "0000");
        assert_eq!(parse_kitas("0210"), Some([0, 2, 1, 0]));
        assert_eq!(parse_kitas("0000"), Some([0; 4]));
        for bad in ["0500", "021", "02100", "0a10", ""] {
            assert_eq!(parse_kitas(bad), None, "{bad}");
        }
    }

    /// A slice filters the per-game frames by their games: those are every frame but the three
    /// of run totals (§6: `draw_rate`'s buckets are summed over the run; `danger_calibration`
    /// and `danger_eval_summary` are the §4 totals), the on-request `decisions` included.
    #[test]
    fn per_game_frames_are_all_but_the_run_totals() {
        let run_wide = ["draw_rate", "danger_calibration", "danger_eval_summary"];
        for t in FRAMES.iter().chain(&ON_REQUEST_FRAMES) {
            assert_eq!(is_per_game(t), !run_wide.contains(t), "{t}");
        }
        assert!(is_per_game(DECISIONS));
        assert!(!is_per_game("no_such_frame"));
    }

    /// The 34-digit columns read back (`haifu agree`, the §4 re-scoring of a slice): the digits
    /// of `kind_digits`, and None for anything else a foreign frame could hold.
    #[test]
    fn kind_digits_round_trip_and_refusals() {
        let mut a = [0u8; KINDS];
        a[0] = 4;
        a[33] = 12; // written as 9
        let d = kind_digits(&a);
        let text = std::str::from_utf8(&d).unwrap();
        assert_eq!(&text[..3], "400");
        a[33] = 9;
        assert_eq!(parse_kind_digits(text), Some(a));
        assert_eq!(parse_kind_digits(&text[1..]), None); // 33 digits
        assert_eq!(parse_kind_digits(&format!("{text}0")), None); // 35
        assert_eq!(parse_kind_digits(&text.replace('4', "x")), None);
        assert_eq!(parse_kind_digits(&text.replace('4', " ")), None);
    }

    /// The rows of every fixture game and of a made-up game the wall check proves (the
    /// fixtures' seeds are not Tenhou's, so only it has `walls` rows), each game given twice
    /// under two ids (so that row groups span games with and without rows in a frame).
    fn fixture_rows() -> Vec<GameRows> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        // The four-player fixtures and the three-player ones (the `kita` frame's rows).
        let mut paths: Vec<_> = ["fixtures", "fixtures-sanma"]
            .iter()
            .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect();
        paths.sort();
        let mut words = [0u32; 624];
        for (i, w) in words.iter_mut().enumerate() {
            *w = (i as u32).wrapping_mul(0x2545_F491) ^ 0x5bd1_e995;
        }
        let walled = crate::wall::tsumogiri_log(&words, 6);
        let mut rows = Vec::new();
        for copy in 0..2 {
            for p in paths.iter().map(Some).chain([None]) {
                let bytes = match p {
                    Some(p) => std::fs::read(p).unwrap(),
                    None => walled.clone().into_bytes(),
                };
                let p = p.cloned().unwrap_or_else(|| "made-up.xml".into());
                let log = crate::mjlog::decode(&bytes).unwrap();
                let all: Vec<_> = crate::groups::GROUPS.iter().map(|g| g.group).collect();
                let observe = Observe::with(&all);
                let Ok(obs) = crate::stats::observe_game_with(&log, &mut Vec::new(), observe)
                else {
                    continue;
                };
                rows.push(GameRows {
                    game_id: format!("{copy}/{}", p.display()),
                    source: p.display().to_string(),
                    content: None,
                    obs,
                    draws: Vec::new(),
                    converted: None,
                });
            }
        }
        rows
    }

    /// Every on-request frame is written by a group, every group's frames are on-request
    /// frames, and the frames of all groups together are all of them, each once.
    #[test]
    fn the_groups_write_exactly_the_on_request_frames() {
        let mut listed: Vec<&str> = crate::groups::GROUPS
            .iter()
            .flat_map(|g| g.frames.iter().copied())
            .collect();
        listed.sort_unstable();
        listed.dedup();
        let mut on_request = ON_REQUEST_FRAMES.to_vec();
        on_request.sort_unstable();
        assert_eq!(listed, on_request);
        let all: Vec<_> = crate::groups::GROUPS.iter().map(|g| g.group).collect();
        let written: Vec<&str> = game_frames(Observe::with(&all))
            .iter()
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(written.len(), GAME_FRAMES.len() + ON_REQUEST.len());
        let only = game_frames(Observe::with(&[Group::HandReadingMoments]));
        let names: Vec<&str> = only
            .iter()
            .skip(GAME_FRAMES.len())
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(names, ["hand_reading", "hand_reading_moments"]);
        assert_eq!(flag_of("win_yaku"), "--with development");
        assert_eq!(flag_of("hand_reading"), "--with hand-reading");
    }

    /// Rows held across pushes and written a row group at a time read back as the same frames
    /// as one chunk per frame: each row keeps its own game id, whichever games the row
    /// group spans; every row group but a frame's last has at least its minimum of rows.
    /// Every per-game frame, the on-request ones included.
    #[test]
    fn row_groups_span_games_and_keep_each_rows_game_id() {
        let games = fixture_rows();
        assert!(games.len() >= 8, "the fixtures replay");
        let frames: Vec<_> = GAME_FRAMES.iter().chain(&ON_REQUEST).copied().collect();
        let mut whole = PendingFrames::with_frames(&frames, vec![usize::MAX; frames.len()]);
        for g in &games {
            whole.push(g);
        }
        let whole = whole.take_ready(true);
        assert_eq!(whole.len(), frames.len(), "every frame has rows");
        // Small minimums, different per frame, so that row groups end mid-game.
        let minimum: Vec<usize> = (0..frames.len())
            .map(|f| {
                if f == 3 {
                    100
                } else {
                    [3, 7, 5, 4, 2, 6][f % 6]
                }
            })
            .collect();
        let mut grouped = PendingFrames::with_frames(&frames, minimum.clone());
        let mut chunks: Vec<Vec<FrameChunk>> = vec![Vec::new(); frames.len()];
        for g in &games {
            grouped.push(g);
            for (f, c) in grouped.take_ready(false) {
                assert!(
                    c.height() >= minimum[f],
                    "{} row group too small",
                    frames[f].0
                );
                chunks[f].push(c);
            }
        }
        for (f, c) in grouped.take_ready(true) {
            chunks[f].push(c);
        }
        assert!(grouped.take_ready(true).is_empty(), "nothing left pending");
        for (f, one) in whole {
            assert!(
                chunks[f].len() > 1,
                "{} spans several row groups",
                frames[f].0
            );
            let mut parts = chunks[f]
                .iter()
                .map(|c| c.clone().into_dataframe().unwrap());
            let mut got = parts.next().unwrap();
            for p in parts {
                got.vstack_mut(&p).unwrap();
            }
            let want = one.into_dataframe().unwrap();
            assert!(got.equals_missing(&want), "{} differs", frames[f].0);
        }
    }

    /// Every frame is listed once, and each per-game frame's builder answers to its name.
    #[test]
    fn frame_names_are_listed_once() {
        let mut names: Vec<&str> = FRAMES.iter().chain(&ON_REQUEST_FRAMES).copied().collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
        for (name, new) in GAME_FRAMES.iter().chain(&ON_REQUEST) {
            assert_eq!(new().name(), *name);
        }
    }
}
