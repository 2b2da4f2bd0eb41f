//! The Parquet frames of statistics.md §6: column builders filled game by game, turned into
//! polars DataFrames a batch at a time, and written as row groups of one Parquet file each.
//!
//! Invariant: a frame file exists under its final name only once it is complete; until then
//! it is written under a temporary name in the same directory.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use polars::prelude::*;

use crate::danger::{Category, Scores};
use crate::danger_eval::{EvalKey, EvalRows};
use crate::hand::WaitShape;
use crate::mjlog::room_of;
use crate::replay::GameFacts;
use crate::stats::draw_rate::{cell_key, DrawRateCells, DrawRecord};
use crate::stats::{DangerSituation, RiichiResponseRow, WaitDangerRow};
use crate::tile::{self, KINDS};

/// Everything one game contributes to the frames.
#[derive(Debug)]
pub struct GameRows {
    pub game_id: String,
    pub source: String,
    pub facts: GameFacts,
    pub riichi_response: Vec<RiichiResponseRow>,
    pub wait_danger: Vec<WaitDangerRow>,
    pub danger_situations: Vec<DangerSituation>,
    /// Scores of the built-in estimators, one entry per situation not excluded, in order.
    pub danger_scores: Vec<[Scores; 5]>,
    /// The game's draw records when its draw-rate units are left to the merger (a log id
    /// another input also has); empty otherwise.
    pub draws: Vec<DrawRecord>,
}

/// Every frame an ingest writes (each `<name>.parquet` next to `manifest.json`).
pub const FRAMES: [&str; 9] = [
    "games",
    "hands",
    "riichi_response",
    "wait_danger",
    "draw_rate",
    "danger_situations",
    "danger_eval",
    "danger_calibration",
    "danger_eval_summary",
];

/// Names of the per-game frames, in the order they are written.
pub const GAME_FRAMES: [&str; 6] = [
    "games",
    "hands",
    "riichi_response",
    "wait_danger",
    "danger_situations",
    "danger_eval",
];

#[derive(Default)]
struct GamesColumns {
    game_id: Vec<String>,
    go_type: Vec<i32>,
    room: Vec<&'static str>,
    hanchan: Vec<bool>,
    red: Vec<bool>,
    hands: Vec<i32>,
    source: Vec<String>,
    names: [Vec<String>; 4],
    scores: [Vec<i32>; 4],
    places: [Vec<i32>; 4],
}

#[derive(Default)]
struct HandsColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    round: Vec<i32>,
    honba: Vec<i32>,
    kyotaku: Vec<i32>,
    dealer: Vec<i32>,
    end: Vec<String>,
    deltas: [Vec<i32>; 4],
    declarations: Vec<i32>,
    callers: Vec<i32>,
    wins: Vec<i32>,
    win_value: Vec<i32>,
    draws: Vec<i32>,
}

#[derive(Default)]
struct RiichiResponseColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    seat: Vec<i32>,
    riichi_seat: Vec<i32>,
    outcome: Vec<&'static str>,
    income: Vec<i32>,
    shanten: Vec<i32>,
    seat_is_dealer: Vec<bool>,
    riichi_is_dealer: Vec<bool>,
    riichi_turn: Vec<i32>,
}

#[derive(Default)]
struct WaitDangerColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    /// Kind index (0..34).
    kind: Vec<u32>,
    /// [`Category::index`].
    category: Vec<u32>,
    is_wait: Vec<bool>,
    /// Index into [`WAIT_SHAPES`]; `WAIT_SHAPES.len()` for a kind that is not a wait.
    wait_shape: Vec<u32>,
}

#[derive(Default)]
struct DangerSituationColumns {
    game_id: Vec<u32>,
    hand: Vec<i32>,
    riichi_seat: Vec<i32>,
    observer_seat: Vec<i32>,
    moment: Vec<&'static str>,
    riichi_turn: Vec<i32>,
    riichi_is_dealer: Vec<bool>,
    excluded: Vec<Option<&'static str>>,
    /// [`kind_digits`] of each per-kind array.
    visible: Vec<[u8; KINDS]>,
    observer_holds: Vec<[u8; KINDS]>,
    genbutsu: Vec<[u8; KINDS]>,
    waits: Vec<[u8; KINDS]>,
}

/// The wait shapes in discriminant order (`shape as u32` indexes this).
const WAIT_SHAPES: [WaitShape; 5] = [
    WaitShape::Tanki,
    WaitShape::Shanpon,
    WaitShape::Kanchan,
    WaitShape::Penchan,
    WaitShape::Ryanmen,
];

/// A string column whose rows are `labels[code]`, null where the code is `labels.len()`;
/// made by a gather, so rows share the labels' bytes and no string is built per row.
pub fn label_col(name: &str, labels: &[&str], codes: Vec<IdxSize>) -> PolarsResult<Column> {
    let null_code = labels.len() as IdxSize;
    let null_label = codes.contains(&null_code).then_some(None);
    let labels = StringChunked::from_iter_options(
        name.into(),
        labels.iter().map(|&l| Some(l)).chain(null_label),
    );
    Ok(labels
        .take(&IdxCa::from_vec("code".into(), codes))?
        .into_series()
        .into_column())
}

/// A per-kind array as 34 digits in kind order (1m..9m, 1p..9p, 1s..9s, 1z..7z); a value
/// above 9 is written as 9.
pub fn kind_digits<T: Copy + Into<u32>>(a: &[T; KINDS]) -> [u8; KINDS] {
    a.map(|v| b'0' + v.into().min(9) as u8)
}

/// A string column of [`kind_digits`] rows.
fn digits_col(name: &str, rows: &[[u8; KINDS]]) -> Column {
    StringChunked::from_iter_values(
        name.into(),
        rows.iter()
            .map(|d| std::str::from_utf8(d).expect("ASCII digits")),
    )
    .into_series()
    .into_column()
}

/// Inverse of [`kind_digits`] (as text); None unless `s` is 34 decimal digits.
pub fn parse_kind_digits(s: &str) -> Option<[u8; KINDS]> {
    let b = s.as_bytes();
    if b.len() != KINDS || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(std::array::from_fn(|k| b[k] - b'0'))
}

/// Column builders for the per-game frames of one batch of games.
#[derive(Default)]
pub struct FrameBatch {
    /// Game ids of the batch; other frames' rows refer to them by index.
    ids: Vec<String>,
    games: GamesColumns,
    hands: HandsColumns,
    riichi: RiichiResponseColumns,
    waits: WaitDangerColumns,
    situations: DangerSituationColumns,
    /// Built-in estimator rows of `danger_eval` (`phoenix-table` is added once the run is
    /// complete).
    eval: EvalRows,
}

fn col<T, P: ?Sized>(name: &str, values: T) -> Column
where
    Series: NamedFrom<T, P>,
{
    Column::new(name.into(), values)
}

impl FrameBatch {
    /// Appends one replayed game.
    pub fn push(&mut self, g: &GameRows) {
        let f = &g.facts;
        let gi = self.ids.len() as u32;
        self.ids.push(g.game_id.clone());
        let gc = &mut self.games;
        gc.game_id.push(g.game_id.clone());
        gc.go_type.push(f.go_type as i32);
        gc.room.push(room_of(f.go_type));
        gc.hanchan
            .push(f.go_type & crate::mjlog::go_type::HANCHAN != 0);
        gc.red.push(f.red);
        gc.hands.push(f.hands.len() as i32);
        gc.source.push(g.source.clone());
        for s in 0..4 {
            gc.names[s].push(f.names[s].clone());
            gc.scores[s].push(f.final_scores[s]);
            gc.places[s].push(f.places[s] as i32);
        }
        let hc = &mut self.hands;
        for (i, h) in f.hands.iter().enumerate() {
            hc.game_id.push(gi);
            hc.hand.push(i as i32);
            hc.round.push(h.round as i32);
            hc.honba.push(h.honba as i32);
            hc.kyotaku.push(h.kyotaku as i32);
            hc.dealer.push(h.dealer as i32);
            hc.end.push(h.end.clone());
            for s in 0..4 {
                hc.deltas[s].push(h.deltas[s]);
            }
            hc.declarations.push(h.declarations as i32);
            hc.callers.push(h.callers as i32);
            hc.wins.push(h.wins as i32);
            hc.win_value.push(h.win_value);
            hc.draws.push(h.draws as i32);
        }
        let rc = &mut self.riichi;
        for r in &g.riichi_response {
            rc.game_id.push(gi);
            rc.hand.push(r.hand as i32);
            rc.seat.push(r.seat as i32);
            rc.riichi_seat.push(r.riichi_seat as i32);
            rc.outcome.push(r.outcome.name());
            rc.income.push(r.income);
            rc.shanten.push(r.shanten as i32);
            rc.seat_is_dealer.push(r.seat_is_dealer);
            rc.riichi_is_dealer.push(r.riichi_is_dealer);
            rc.riichi_turn.push(r.riichi_turn as i32);
        }
        let wc = &mut self.waits;
        for w in &g.wait_danger {
            for k in 0..KINDS {
                wc.game_id.push(gi);
                wc.hand.push(w.hand as i32);
                wc.riichi_seat.push(w.riichi_seat as i32);
                wc.kind.push(k as u32);
                wc.category.push(w.category[k].index() as u32);
                wc.is_wait.push(w.shape[k].is_some());
                wc.wait_shape
                    .push(w.shape[k].map_or(WAIT_SHAPES.len() as u32, |s| s as u32));
            }
        }
        let included = g.danger_situations.iter().filter(|d| d.excluded.is_none());
        for (d, scores) in included.zip(&g.danger_scores) {
            let key = EvalKey::of(gi, d);
            for (e, s) in scores.iter().enumerate() {
                self.eval.push(&key, e as u8, s);
            }
        }
        let sc = &mut self.situations;
        for d in &g.danger_situations {
            sc.game_id.push(gi);
            sc.hand.push(d.hand as i32);
            sc.riichi_seat.push(d.riichi_seat as i32);
            sc.observer_seat.push((d.riichi_seat as i32 + 1) % 4);
            sc.moment.push(d.moment.name());
            sc.riichi_turn.push(d.riichi_turn as i32);
            sc.riichi_is_dealer.push(d.riichi_is_dealer);
            sc.excluded.push(d.excluded);
            sc.visible.push(kind_digits(&d.visible));
            sc.observer_holds.push(kind_digits(&d.observer_holds));
            sc.genbutsu.push(kind_digits(&d.genbutsu));
            sc.waits.push(kind_digits(&d.waits));
        }
    }

    /// True when no game was pushed since the last `take`.
    pub fn is_empty(&self) -> bool {
        self.games.game_id.is_empty()
    }

    /// The batch as DataFrames in [`GAME_FRAMES`] order; the builders are left empty.
    pub fn take(&mut self) -> PolarsResult<Vec<DataFrame>> {
        let ids = StringChunked::from_iter_values(
            "game_id".into(),
            std::mem::take(&mut self.ids).iter().map(String::as_str),
        );
        // Rows refer to their game by index: gathering copies views, not strings.
        let id_col = |idx: Vec<u32>| -> PolarsResult<Column> {
            Ok(ids
                .take(&IdxCa::from_vec("game".into(), idx))?
                .into_series()
                .into_column())
        };
        let g = std::mem::take(&mut self.games);
        let h = std::mem::take(&mut self.hands);
        let r = std::mem::take(&mut self.riichi);
        let w = std::mem::take(&mut self.waits);
        let d = std::mem::take(&mut self.situations);
        let [n0, n1, n2, n3] = g.names;
        let [s0, s1, s2, s3] = g.scores;
        let [p0, p1, p2, p3] = g.places;
        let games = DataFrame::new_infer_height(vec![
            col("game_id", g.game_id),
            col("go_type", g.go_type),
            col("room", g.room),
            col("hanchan", g.hanchan),
            col("red", g.red),
            col("hands", g.hands),
            col("source", g.source),
            col("name_0", n0),
            col("name_1", n1),
            col("name_2", n2),
            col("name_3", n3),
            col("score_0", s0),
            col("score_1", s1),
            col("score_2", s2),
            col("score_3", s3),
            col("place_0", p0),
            col("place_1", p1),
            col("place_2", p2),
            col("place_3", p3),
        ])?;
        let [d0, d1, d2, d3] = h.deltas;
        let hands = DataFrame::new_infer_height(vec![
            id_col(h.game_id)?,
            col("hand", h.hand),
            col("round", h.round),
            col("honba", h.honba),
            col("kyotaku", h.kyotaku),
            col("dealer", h.dealer),
            col("end", h.end),
            col("delta_0", d0),
            col("delta_1", d1),
            col("delta_2", d2),
            col("delta_3", d3),
            col("declarations", h.declarations),
            col("callers", h.callers),
            col("wins", h.wins),
            col("win_value", h.win_value),
            col("draws", h.draws),
        ])?;
        let riichi = DataFrame::new_infer_height(vec![
            id_col(r.game_id)?,
            col("hand", r.hand),
            col("seat", r.seat),
            col("riichi_seat", r.riichi_seat),
            col("outcome", r.outcome),
            col("income", r.income),
            col("shanten", r.shanten),
            col("seat_is_dealer", r.seat_is_dealer),
            col("riichi_is_dealer", r.riichi_is_dealer),
            col("riichi_turn", r.riichi_turn),
        ])?;
        let kind_names: Vec<&str> = (0..KINDS).map(tile::kind_name).collect();
        let mut category_names = [""; Category::ALL.len()];
        for c in Category::ALL {
            category_names[c.index()] = c.name();
        }
        let shape_names = WAIT_SHAPES.map(WaitShape::name);
        let waits = DataFrame::new_infer_height(vec![
            id_col(w.game_id)?,
            col("hand", w.hand),
            col("riichi_seat", w.riichi_seat),
            label_col("kind", &kind_names, w.kind)?,
            label_col("category", &category_names, w.category)?,
            col("is_wait", w.is_wait),
            label_col("wait_shape", &shape_names, w.wait_shape)?,
        ])?;
        let situations = DataFrame::new_infer_height(vec![
            id_col(d.game_id)?,
            col("hand", d.hand),
            col("riichi_seat", d.riichi_seat),
            col("observer_seat", d.observer_seat),
            col("moment", d.moment),
            col("riichi_turn", d.riichi_turn),
            col("riichi_is_dealer", d.riichi_is_dealer),
            col("excluded", d.excluded),
            digits_col("visible", &d.visible),
            digits_col("observer_holds", &d.observer_holds),
            digits_col("genbutsu", &d.genbutsu),
            digits_col("waits", &d.waits),
        ])?;
        let eval = self
            .eval
            .take_frame(&ids, &crate::danger_eval::DEFAULT_ESTIMATORS)?;
        Ok(vec![games, hands, riichi, waits, situations, eval])
    }
}

/// The `draw_rate` frame from run-wide cell counts (cells with no units are left out).
pub fn draw_rate_frame(cells: &DrawRateCells) -> PolarsResult<DataFrame> {
    let mut tile_type = Vec::new();
    let mut tile_class = Vec::new();
    let mut held = Vec::new();
    let mut visible = Vec::new();
    let mut turn = Vec::new();
    let mut units = Vec::new();
    let mut hits = Vec::new();
    let mut naive = Vec::new();
    for (c, counts) in cells.nonzero() {
        let (t, h, v, tu) = cell_key(c);
        tile_type.push(tile::type_name(t));
        tile_class.push(tile::type_class(t));
        held.push(h as i32);
        visible.push(v as i32);
        turn.push(tu as i32);
        units.push(counts.units as i64);
        hits.push(counts.hits as i64);
        naive.push(counts.naive_hits);
    }
    DataFrame::new_infer_height(vec![
        col("tile_type", tile_type),
        col("tile_class", tile_class),
        col("held", held),
        col("visible", visible),
        col("turn", turn),
        col("units", units),
        col("hits", hits),
        col("naive_hits", naive),
    ])
}

/// A buffered file shared between a Parquet writer and its owner, so that the owner can
/// flush it (and see the error) once the writer has written the footer.
#[derive(Clone)]
struct SharedFile(Arc<Mutex<BufWriter<File>>>);

impl std::io::Write for SharedFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().expect("not poisoned").flush()
    }
}

/// One frame's open Parquet writer and the buffered file under it.
struct OpenFrame {
    writer: polars::io::parquet::write::BatchedWriter<SharedFile>,
    file: SharedFile,
}

impl OpenFrame {
    /// Writes the footer and flushes the file.
    fn finish(mut self) -> PolarsResult<()> {
        self.writer.finish()?;
        Ok(self.file.flush()?)
    }
}

/// Writes frames as Parquet under temporary names in `dir`, renamed into place by
/// [`FrameWriter::commit`].
pub struct FrameWriter {
    dir: PathBuf,
    tag: String,
    writers: Vec<(String, Option<OpenFrame>)>,
}

impl FrameWriter {
    pub fn new(dir: &Path) -> std::io::Result<Self> {
        fs::create_dir_all(dir)?;
        Ok(FrameWriter {
            dir: dir.to_path_buf(),
            tag: format!("tmp-{}", std::process::id()),
            writers: Vec::new(),
        })
    }

    /// Temporary path of a frame or file being written.
    pub fn temp_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!(".{name}.{}", self.tag))
    }

    /// Appends `df` as row groups of frame `name`; an error once the frame is finished.
    pub fn write(&mut self, name: &str, df: &DataFrame) -> PolarsResult<()> {
        let idx = match self.writers.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None => {
                // Buffered: the writer emits many small pieces (page headers, metadata).
                let file = SharedFile(Arc::new(Mutex::new(BufWriter::with_capacity(
                    1 << 20,
                    File::create(self.temp_path(&format!("{name}.parquet")))?,
                ))));
                let writer = ParquetWriter::new(file.clone())
                    .with_compression(ParquetCompression::Lz4Raw)
                    .with_statistics(StatisticsOptions::default())
                    .batched(df.schema())?;
                self.writers
                    .push((name.to_string(), Some(OpenFrame { writer, file })));
                self.writers.len() - 1
            }
        };
        match self.writers[idx].1.as_mut() {
            Some(w) => w.writer.write_batch(df),
            None => polars_bail!(InvalidOperation: "frame {name} is already finished"),
        }
    }

    /// True once frame `name` has been given at least one batch.
    pub fn has_rows(&self, name: &str) -> bool {
        self.writers.iter().any(|(n, _)| n == name)
    }

    /// Finishes the Parquet file of frame `name` (if open), so that it can be read back.
    pub fn finish_frame(&mut self, name: &str) -> PolarsResult<()> {
        for (n, w) in &mut self.writers {
            if n == name {
                if let Some(w) = w.take() {
                    w.finish()?;
                }
            }
        }
        Ok(())
    }

    /// Finishes every Parquet file; nothing is under its final name yet.
    pub fn finish(&mut self) -> PolarsResult<()> {
        for (_, w) in &mut self.writers {
            if let Some(w) = w.take() {
                w.finish()?;
            }
        }
        Ok(())
    }

    /// Writes a temporary file for `name` (renamed by `commit`) through `write`.
    pub fn write_file(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut file = BufWriter::new(File::create(self.temp_path(name))?);
        write(&mut file)?;
        file.flush()?;
        if !self.writers.iter().any(|(n, _)| n == name) {
            self.writers.push((name.to_string(), None));
        }
        Ok(())
    }

    /// Renames every temporary file to its final name, `last` (the manifest) last.
    pub fn commit(&mut self, last: &str) -> std::io::Result<()> {
        let mut names: Vec<String> = self
            .writers
            .iter()
            .map(|(n, _)| {
                if n.contains('.') {
                    n.clone()
                } else {
                    format!("{n}.parquet")
                }
            })
            .collect();
        names.sort_by_key(|n| n == last);
        for n in names {
            fs::rename(self.temp_path(&n), self.dir.join(&n))?;
        }
        Ok(())
    }

    /// Removes the temporary files (a refused or failed run).
    pub fn abandon(&mut self) {
        for (n, w) in self.writers.drain(..) {
            drop(w);
            let n = if n.contains('.') {
                n
            } else {
                format!("{n}.parquet")
            };
            let _ = fs::remove_file(self.dir.join(format!(".{n}.{}", self.tag)));
        }
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so
/// `path` never holds a partial file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes index the label lists: `shape as u32` and `moment as u32`.
    #[test]
    fn label_codes_match_label_order() {
        for (i, s) in WAIT_SHAPES.iter().enumerate() {
            assert_eq!(*s as usize, i);
        }
        for (i, m) in crate::stats::Moment::ALL.iter().enumerate() {
            assert_eq!(*m as usize, i);
        }
    }
}
