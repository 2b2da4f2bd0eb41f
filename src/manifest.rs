//! `manifest.json`: every input accounted for, with totals and versions (docs/definitions.md §6).
//!
//! A run accumulates a [`Manifest`]; its per-input entries go to a temporary file as they
//! come, so the memory a run needs does not grow with the number of inputs. The written
//! document reads back as a [`ManifestDocument`].

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::reason::Failure;

/// Version of the statistics definitions (docs/definitions.md) these frames follow.
pub const DEFINITIONS_VERSION: &str = "2";

/// Failed inputs a [`Manifest`] keeps in memory for the end-of-run message; every one of
/// them is in the written manifest.
pub(crate) const FAILURES_KEPT: usize = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Skipped,
    Failed,
}

/// One input file (or database row).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    pub path: String,
    pub status: Status,
    /// `null` when ok; else written `reason-name: detail`.
    #[serde(serialize_with = "write_reason", deserialize_with = "read_reason")]
    pub reason: Option<Failure>,
    pub game_id: Option<String>,
    pub games: u32,
    pub hands: u32,
    /// The wall check of a game that replayed: `checked` (every hand against the wall of its
    /// seed) or `unchecked` (see `wall_reason`); `null` for an input that did not replay.
    #[serde(default)]
    pub wall: Option<WallStatus>,
    /// Why an `unchecked` game was not checked (`no seed`, or what is wrong with its seed).
    #[serde(default)]
    pub wall_reason: Option<String>,
    /// The proofs the replay ran on a game that replayed, beyond the checks every game gets
    /// (`yaku`, `fu`, `points`, `payments`, `legal`: docs/inputs.md, "Which proofs run on
    /// which logs"); `null` for an input that did not replay.
    #[serde(default)]
    pub proofs: Option<Vec<String>>,
    /// For a landed game without a Tenhou log id, what identifies its content: `sha512:` and
    /// the first 16 hex digits of the SHA-512 of its decompressed document (`#k` after them
    /// for the k-th paipu of an array). Another input with the same content is the same game
    /// (`duplicate`), here or in a later `--append`. Absent for every other entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// Whether a replayed game was checked against the wall of its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WallStatus {
    Checked,
    Unchecked,
}

impl FileEntry {
    /// The reason as written in the manifest (`reason: detail`), if any.
    pub fn reason_text(&self) -> Option<String> {
        self.reason.as_ref().map(Failure::to_string)
    }
}

fn write_reason<S: Serializer>(r: &Option<Failure>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(f) => s.collect_str(f),
        None => s.serialize_none(),
    }
}

fn read_reason<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Failure>, D::Error> {
    match Option::<String>::deserialize(d)? {
        None => Ok(None),
        Some(s) => Failure::parse(&s)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown reason in {s:?}"))),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub files: u64,
    pub ok: u64,
    pub skipped: u64,
    pub failed: u64,
    pub games: u64,
    pub hands: u64,
    /// Replayed games checked against their wall, and not (no seed in a known form).
    #[serde(default)]
    pub wall_checked: u64,
    #[serde(default)]
    pub wall_unchecked: u64,
    /// Hands, draws (live and replacement) and dora/ura indicators checked against the wall.
    #[serde(default)]
    pub wall_hands: u64,
    #[serde(default)]
    pub wall_draws: u64,
    #[serde(default)]
    pub wall_indicators: u64,
    /// AGARI records of the landed games, and those whose score the replay proved: their
    /// yaku, fu and points, or (mjai, which records none of them) the payments they make
    /// (docs/inputs.md, "Every win scored"; a game under rules not known to be Tenhou's is not
    /// scored).
    #[serde(default)]
    pub wins: u64,
    #[serde(default)]
    pub wins_proved: u64,
    /// Landed games per proof the replay ran on them (`yaku`, `fu`, `points`, `payments`,
    /// `legal`; a proof no game had is absent).
    #[serde(default)]
    pub games_by_proof: BTreeMap<String, u64>,
    /// Inputs a `--shard K/N` ingest left to the other shards (no entry of theirs is here);
    /// absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other_shards: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What the ingested games are: for parameter files and reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Corpus {
    /// Earliest and latest game date (`YYYY-MM-DD` from the log ids), when known.
    pub first_date: Option<String>,
    pub last_date: Option<String>,
    /// Games per room.
    pub rooms: BTreeMap<String, u64>,
    /// Draw records replayed.
    pub draws: u64,
}

/// The manifest of a run in progress; [`Manifest::write_json`] writes the document
/// [`ManifestDocument`] reads (the field order here is the key order of `manifest.json`).
#[derive(Debug)]
pub struct Manifest {
    pub haifu_version: String,
    pub definitions_version: String,
    /// The `--room` filter of the run.
    pub room_filter: String,
    /// `K/N` for an ingest of shard K of N (`--shard`).
    pub shard: Option<String>,
    /// Every input's entry, in the order pushed (on disk; see [`Manifest::files`]).
    files: FileLog,
    pub totals: Totals,
    /// Failed files by reason name.
    pub failures_by_reason: BTreeMap<String, u64>,
    /// Skipped files by reason name.
    pub skips_by_reason: BTreeMap<String, u64>,
    /// Replayed games the wall check did not cover, by `wall_reason`.
    pub walls_unchecked_by_reason: BTreeMap<String, u64>,
    /// Tags the decoder did not know, with how many times they occurred (warnings).
    pub unknown_tags: BTreeMap<String, u64>,
    pub corpus: Corpus,
    /// The first [`FAILURES_KEPT`] failed entries.
    first_failures: Vec<FileEntry>,
}

/// `manifest.json` as read back, entries in memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestDocument {
    pub haifu_version: String,
    pub definitions_version: String,
    pub room_filter: String,
    /// `K/N` for an ingest of shard K of N (`--shard`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    pub files: Vec<FileEntry>,
    pub totals: Totals,
    pub failures_by_reason: BTreeMap<String, u64>,
    pub skips_by_reason: BTreeMap<String, u64>,
    #[serde(default)]
    pub walls_unchecked_by_reason: BTreeMap<String, u64>,
    pub unknown_tags: BTreeMap<String, u64>,
    pub corpus: Corpus,
}

impl ManifestDocument {
    pub fn read(path: &Path) -> io::Result<Self> {
        let reader = BufReader::new(File::open(path)?);
        serde_json::from_reader(reader).map_err(io::Error::from)
    }
}

impl Manifest {
    /// An empty manifest whose entries are kept in a temporary file in `spill_dir` (removed
    /// at once where the system allows it, else when the manifest is dropped).
    pub fn new(room_filter: &str, spill_dir: &Path) -> io::Result<Self> {
        Ok(Manifest {
            haifu_version: env!("CARGO_PKG_VERSION").to_string(),
            definitions_version: DEFINITIONS_VERSION.to_string(),
            room_filter: room_filter.to_string(),
            shard: None,
            files: FileLog::create_in(spill_dir)?,
            totals: Totals::default(),
            failures_by_reason: BTreeMap::new(),
            skips_by_reason: BTreeMap::new(),
            walls_unchecked_by_reason: BTreeMap::new(),
            unknown_tags: BTreeMap::new(),
            corpus: Corpus::default(),
            first_failures: Vec::new(),
        })
    }

    /// Records one input and updates the totals.
    pub fn push(&mut self, entry: FileEntry) -> io::Result<()> {
        let t = &mut self.totals;
        t.files += 1;
        t.games += entry.games as u64;
        t.hands += entry.hands as u64;
        let reason_name = entry.reason.as_ref().map(|r| r.reason.as_str().to_string());
        match entry.wall {
            Some(WallStatus::Checked) => t.wall_checked += 1,
            Some(WallStatus::Unchecked) => {
                t.wall_unchecked += 1;
                *self
                    .walls_unchecked_by_reason
                    .entry(entry.wall_reason.clone().unwrap_or_default())
                    .or_default() += 1;
            }
            None => {}
        }
        for p in entry.proofs.iter().flatten() {
            *t.games_by_proof.entry(p.clone()).or_default() += 1;
        }
        match entry.status {
            Status::Ok => t.ok += 1,
            Status::Skipped => {
                t.skipped += 1;
                *self
                    .skips_by_reason
                    .entry(reason_name.unwrap_or_default())
                    .or_default() += 1;
            }
            Status::Failed => {
                t.failed += 1;
                *self
                    .failures_by_reason
                    .entry(reason_name.unwrap_or_default())
                    .or_default() += 1;
                if self.first_failures.len() < FAILURES_KEPT {
                    self.first_failures.push(entry.clone());
                }
            }
        }
        self.files.push(&entry)
    }

    /// Every entry, in the order pushed, read back from the temporary file (one `FileEntry`
    /// in memory per input: for tests and small runs).
    pub fn files(&self) -> io::Result<Vec<FileEntry>> {
        self.files.entries()
    }

    /// The first [`FAILURES_KEPT`] failed entries (`totals.failed` counts them all).
    pub(crate) fn first_failures(&self) -> &[FileEntry] {
        &self.first_failures
    }

    /// Adds a landed game's wall-check counts to the totals (its entry says whether it was
    /// checked).
    pub(crate) fn note_wall(&mut self, hands: u32, draws: u32, indicators: u32) {
        let t = &mut self.totals;
        t.wall_hands += u64::from(hands);
        t.wall_draws += u64::from(draws);
        t.wall_indicators += u64::from(indicators);
    }

    /// Adds a landed game's wins and the wins whose score the replay proved to the totals.
    pub(crate) fn note_wins(&mut self, wins: u32, proved: u32) {
        self.totals.wins += u64::from(wins);
        self.totals.wins_proved += u64::from(proved);
    }

    /// Notes a landed game's date (from its log id) and room.
    pub(crate) fn note_game(&mut self, game_id: &str, room: &str, draws: u64) {
        *self.corpus.rooms.entry(room.to_string()).or_default() += 1;
        self.corpus.draws += draws;
        if let Some(date) = crate::input::date_of(game_id) {
            let c = &mut self.corpus;
            if c.first_date.as_deref().is_none_or(|d| date.as_str() < d) {
                c.first_date = Some(date.clone());
            }
            if c.last_date.as_deref().is_none_or(|d| date.as_str() > d) {
                c.last_date = Some(date);
            }
        }
    }

    /// The manifest as pretty-printed JSON (byte for byte what `serde_json` pretty-prints
    /// for the [`ManifestDocument`]), written straight to `w`, the entries copied from the
    /// temporary file where they are kept already formatted.
    pub(crate) fn write_json(&self, w: &mut impl Write) -> io::Result<()> {
        let head = ManifestDocument {
            haifu_version: self.haifu_version.clone(),
            definitions_version: self.definitions_version.clone(),
            room_filter: self.room_filter.clone(),
            shard: self.shard.clone(),
            files: Vec::new(),
            totals: self.totals.clone(),
            failures_by_reason: self.failures_by_reason.clone(),
            skips_by_reason: self.skips_by_reason.clone(),
            walls_unchecked_by_reason: self.walls_unchecked_by_reason.clone(),
            unknown_tags: self.unknown_tags.clone(),
            corpus: self.corpus.clone(),
        };
        write_document(&head, w, |w| {
            self.files.copy_to(w)?;
            Ok(self.files.len > 0)
        })
    }
}

impl std::ops::AddAssign<&Totals> for Totals {
    fn add_assign(&mut self, o: &Totals) {
        self.files += o.files;
        self.ok += o.ok;
        self.skipped += o.skipped;
        self.failed += o.failed;
        self.games += o.games;
        self.hands += o.hands;
        self.wall_checked += o.wall_checked;
        self.wall_unchecked += o.wall_unchecked;
        self.wall_hands += o.wall_hands;
        self.wall_draws += o.wall_draws;
        self.wall_indicators += o.wall_indicators;
        self.wins += o.wins;
        self.wins_proved += o.wins_proved;
        add_counts(&mut self.games_by_proof, &o.games_by_proof);
        self.other_shards += o.other_shards;
    }
}

impl std::ops::AddAssign<&Corpus> for Corpus {
    fn add_assign(&mut self, o: &Corpus) {
        let earliest = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y).clone()),
            _ => a.clone().or_else(|| b.clone()),
        };
        let latest = |a: &Option<String>, b: &Option<String>| match (a, b) {
            (Some(x), Some(y)) => Some(x.max(y).clone()),
            _ => a.clone().or_else(|| b.clone()),
        };
        self.first_date = earliest(&self.first_date, &o.first_date);
        self.last_date = latest(&self.last_date, &o.last_date);
        add_counts(&mut self.rooms, &o.rooms);
        self.draws += o.draws;
    }
}

fn add_counts(a: &mut BTreeMap<String, u64>, b: &BTreeMap<String, u64>) {
    for (k, n) in b {
        *a.entry(k.clone()).or_default() += n;
    }
}

/// A `manifest.json` that haifu wrote, read without holding its entries: the document with
/// an empty `files` (its head), and where the entries' text lies in the file, to read them one
/// at a time or copy them into a joined manifest (an append, a merge). Memory does not grow
/// with the number of entries.
///
/// Invariant: haifu writes the document pretty-printed, so its `files` array opens with the
/// line `  "files": [` and closes with the first line `  ],` after it (an entry's own lines are
/// indented further), or is the line `  "files": [],`.
pub(crate) struct WrittenManifest {
    path: PathBuf,
    /// The document without its entries.
    pub(crate) head: ManifestDocument,
    /// Byte range of the entries' text: `\n    {…},\n    {…}` (empty without entries).
    entries: (u64, u64),
}

impl WrittenManifest {
    /// Reads the head of `path` and finds its entries.
    pub(crate) fn open(path: &Path) -> io::Result<Self> {
        use io::BufRead;
        let bad = |why: &str| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a manifest haifu wrote: {why}", path.display()),
            )
        };
        let mut reader = BufReader::with_capacity(1 << 16, File::open(path)?);
        let mut head = Vec::new();
        let mut line = Vec::new();
        let mut offset = 0u64;
        let mut entries = None;
        let mut start = None;
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line)? as u64;
            if n == 0 {
                break;
            }
            match (start, entries) {
                (None, None) if line == b"  \"files\": [\n" => {
                    // The entries start at the newline after the bracket.
                    start = Some(offset + n - 1);
                    head.extend_from_slice(b"  \"files\": [],\n");
                }
                (Some(s), None) if line == b"  ],\n" => {
                    entries = Some((s, offset - 1));
                    start = None;
                }
                (Some(_), None) => {}
                _ => {
                    if line == b"  \"files\": [],\n" {
                        entries = Some((offset, offset));
                    }
                    head.extend_from_slice(&line);
                }
            }
            offset += n;
        }
        let entries = entries.ok_or_else(|| bad("no `files` array"))?;
        let head: ManifestDocument =
            serde_json::from_slice(&head).map_err(|e| bad(&e.to_string()))?;
        Ok(WrittenManifest {
            path: path.to_path_buf(),
            head,
            entries,
        })
    }

    /// The entries' text.
    fn entries_text(&self) -> io::Result<impl io::BufRead> {
        let mut file = File::open(&self.path)?;
        file.seek(SeekFrom::Start(self.entries.0))?;
        Ok(BufReader::with_capacity(
            1 << 16,
            file.take(self.entries.1 - self.entries.0),
        ))
    }

    /// Calls `f` with every entry, in order.
    pub(crate) fn for_each_entry(
        &self,
        mut f: impl FnMut(FileEntry) -> io::Result<()>,
    ) -> io::Result<()> {
        use io::BufRead;
        let mut text = self.entries_text()?;
        let mut line = Vec::new();
        let mut entry = Vec::new();
        loop {
            line.clear();
            if text.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            if line.starts_with(b"    {") {
                entry.clear();
            }
            entry.extend_from_slice(&line);
            if line.starts_with(b"    }") {
                let end = entry.iter().rposition(|&b| b == b'}').unwrap_or(0) + 1;
                let e: FileEntry = serde_json::from_slice(&entry[..end]).map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("{}: an entry does not read: {e}", self.path.display()),
                    )
                })?;
                f(e)?;
            }
        }
        Ok(())
    }
}

/// Adds the head of another manifest (its totals, counts by reason, tags and corpus) to
/// `into`.
pub(crate) fn add_head(into: &mut ManifestDocument, other: &ManifestDocument) {
    into.totals += &other.totals;
    add_counts(&mut into.failures_by_reason, &other.failures_by_reason);
    add_counts(&mut into.skips_by_reason, &other.skips_by_reason);
    add_counts(
        &mut into.walls_unchecked_by_reason,
        &other.walls_unchecked_by_reason,
    );
    add_counts(&mut into.unknown_tags, &other.unknown_tags);
    into.corpus += &other.corpus;
}

/// Writes the manifest with head `head` whose entries are those of `parts`, one after another
/// (byte for byte what `serde_json` pretty-prints for the joined document).
pub(crate) fn write_joined(
    head: &ManifestDocument,
    parts: &[&WrittenManifest],
    w: &mut impl Write,
) -> io::Result<()> {
    write_document(head, w, |w| {
        let mut any = false;
        for p in parts.iter().filter(|p| p.entries.1 > p.entries.0) {
            if any {
                w.write_all(b",")?;
            }
            io::copy(&mut p.entries_text()?, w)?;
            any = true;
        }
        Ok(any)
    })
}

/// Writes the document `head` pretty-printed, its `files` written by `entries` (the entries'
/// text, each preceded by a newline, or a comma and a newline after the first; true when it
/// wrote any).
fn write_document<W: Write>(
    head: &ManifestDocument,
    w: &mut W,
    entries: impl FnOnce(&mut W) -> io::Result<bool>,
) -> io::Result<()> {
    w.write_all(b"{\n")?;
    write_field(w, "haifu_version", &head.haifu_version)?;
    write_field(w, "definitions_version", &head.definitions_version)?;
    write_field(w, "room_filter", &head.room_filter)?;
    if let Some(shard) = &head.shard {
        write_field(w, "shard", shard)?;
    }
    w.write_all(b"  \"files\": [")?;
    let any = entries(w)?;
    w.write_all(if any { b"\n  ],\n" } else { b"],\n" })?;
    write_field(w, "totals", &head.totals)?;
    write_field(w, "failures_by_reason", &head.failures_by_reason)?;
    write_field(w, "skips_by_reason", &head.skips_by_reason)?;
    write_field(
        w,
        "walls_unchecked_by_reason",
        &head.walls_unchecked_by_reason,
    )?;
    write_field(w, "unknown_tags", &head.unknown_tags)?;
    w.write_all(b"  \"corpus\": ")?;
    write_indented(w, &head.corpus, 1)?;
    w.write_all(b"\n}")
}

/// `  "key": value,` and a newline, the value pretty-printed one level in.
fn write_field(w: &mut impl Write, key: &str, value: &impl Serialize) -> io::Result<()> {
    write!(w, "  \"{key}\": ")?;
    write_indented(w, value, 1)?;
    w.write_all(b",\n")
}

/// `value` pretty-printed as if nested `level` deep in a pretty-printed document: every line
/// after the first indented by two spaces per level (JSON strings hold no raw newline).
fn write_indented(w: &mut impl Write, value: &impl Serialize, level: usize) -> io::Result<()> {
    let text = serde_json::to_vec_pretty(value).map_err(io::Error::from)?;
    let indent = "  ".repeat(level);
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            w.write_all(b"\n")?;
            w.write_all(indent.as_bytes())?;
        }
        w.write_all(line)?;
    }
    Ok(())
}

/// File entries as they appear inside the document's `files` array (each preceded by `\n`,
/// or `,\n` after the first, and pretty-printed two levels in): the last few in memory, the
/// rest in an unnamed temporary file. Invariant: the file holds exactly `flushed` bytes, all
/// of them whole entries, and `pending` the entries after them.
#[derive(Debug)]
struct FileLog {
    file: File,
    /// Set when the file could not be unlinked at creation; removed on drop.
    path: Option<PathBuf>,
    flushed: u64,
    pending: Vec<u8>,
    len: usize,
}

/// Bytes of entries held in memory before they are written to the file.
const PENDING_BYTES: usize = 1 << 16;

impl FileLog {
    fn create_in(dir: &Path) -> io::Result<Self> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".manifest-files.tmp-{}-{n}", std::process::id()));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        // Unlinked while open (Unix): nothing is left behind, whatever ends the run.
        let path = fs::remove_file(&path).is_err().then_some(path);
        Ok(FileLog {
            file,
            path,
            flushed: 0,
            pending: Vec::with_capacity(PENDING_BYTES),
            len: 0,
        })
    }

    fn push(&mut self, entry: &FileEntry) -> io::Result<()> {
        self.pending
            .extend_from_slice(if self.len == 0 { b"\n    " } else { b",\n    " });
        write_indented(&mut self.pending, entry, 2)?;
        self.len += 1;
        if self.pending.len() >= PENDING_BYTES {
            // At the end whatever a reader left the position at (one seek per 64 KiB).
            let mut file = &self.file;
            file.seek(SeekFrom::End(0))?;
            file.write_all(&self.pending)?;
            self.flushed += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }

    /// The formatted entries, in order.
    fn reader(&self) -> io::Result<impl Read + '_> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0))?;
        Ok(BufReader::with_capacity(1 << 16, file.take(self.flushed)).chain(&self.pending[..]))
    }

    fn copy_to(&self, w: &mut impl Write) -> io::Result<()> {
        io::copy(&mut self.reader()?, w).map(|_| ())
    }

    /// Every entry, parsed back (as a JSON array: the separators are already in place).
    fn entries(&self) -> io::Result<Vec<FileEntry>> {
        let array = (&b"["[..]).chain(self.reader()?).chain(&b"]"[..]);
        serde_json::from_reader(BufReader::new(array)).map_err(io::Error::from)
    }
}

impl Drop for FileLog {
    fn drop(&mut self) {
        if let Some(p) = &self.path {
            let _ = fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reason::Reason;

    fn entry(i: usize, status: Status) -> FileEntry {
        FileEntry {
            // Long enough that a few thousand entries pass through the file, with characters
            // JSON escapes.
            path: format!("logs/\"quoted\"\\dir/{i:06}-{}.mjlog", "x".repeat(60)),
            status,
            reason: (status != Status::Ok).then(|| {
                let reason = [Reason::Xml, Reason::Replay, Reason::UnreadableDatabase][i % 3];
                Failure::new(reason, format!("detail {i}: a: b"))
            }),
            game_id: (!i.is_multiple_of(5)).then(|| format!("2024010100gm-00a9-0000-{i:08x}")),
            games: (status == Status::Ok) as u32,
            hands: (i % 11) as u32,
            wall: (status == Status::Ok).then_some(if i.is_multiple_of(7) {
                WallStatus::Unchecked
            } else {
                WallStatus::Checked
            }),
            wall_reason: (status == Status::Ok && i.is_multiple_of(7))
                .then(|| "no seed".to_string()),
            proofs: (status == Status::Ok).then(|| {
                let all = ["yaku", "fu", "points", "payments", "legal"];
                all[i % 3..].iter().map(|p| p.to_string()).collect()
            }),
            content: (status == Status::Ok && i.is_multiple_of(5))
                .then(|| format!("sha512:{i:016x}")),
        }
    }

    #[test]
    fn entries_spilled_to_disk_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Manifest::new("phoenix", dir.path()).unwrap();
        let statuses = [Status::Ok, Status::Skipped, Status::Failed];
        let want: Vec<FileEntry> = (0..3000).map(|i| entry(i, statuses[i % 3])).collect();
        for e in &want {
            m.push(e.clone()).unwrap();
        }
        // More bytes than one pending buffer: part of them is in the file.
        assert!(m.files.flushed > 0 && !m.files.pending.is_empty());
        assert_eq!(m.files().unwrap(), want);
        // Reading leaves the file ready for more entries.
        let more = entry(3000, Status::Ok);
        m.push(more.clone()).unwrap();
        assert_eq!(m.files().unwrap().last(), Some(&more));
        assert_eq!(m.totals.failed, 1000);
        assert_eq!(m.first_failures().len(), FAILURES_KEPT);
        assert_eq!(m.first_failures()[1], want[5]);
        // Nothing is left in the directory (the file was unlinked when created).
        #[cfg(unix)]
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn empty_manifest_is_what_serde_prints() {
        let dir = tempfile::tempdir().unwrap();
        let m = Manifest::new("phoenix", dir.path()).unwrap();
        let mut bytes = Vec::new();
        m.write_json(&mut bytes).unwrap();
        let doc: ManifestDocument = serde_json::from_slice(&bytes).unwrap();
        assert!(doc.files.is_empty());
        assert_eq!(bytes, serde_json::to_vec_pretty(&doc).unwrap());
    }

    #[test]
    fn written_document_reads_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Manifest::new("any", dir.path()).unwrap();
        let statuses = [Status::Ok, Status::Failed];
        let want: Vec<FileEntry> = (0..1500).map(|i| entry(i, statuses[i % 2])).collect();
        for e in &want {
            m.push(e.clone()).unwrap();
        }
        m.note_game("2024010100gm-00a9-0000-00000001", "phoenix", 7);
        let mut bytes = Vec::new();
        m.write_json(&mut bytes).unwrap();
        let doc: ManifestDocument = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(doc.files, want);
        assert_eq!(doc.totals, m.totals);
        // The 750 landed entries (even i): all five proofs from i % 3 on, so yaku for i % 6
        // = 0, fu for i % 6 = 0 or 4, the others for all.
        let by: Vec<(&str, u64)> = m
            .totals
            .games_by_proof
            .iter()
            .map(|(k, &v)| (k.as_str(), v))
            .collect();
        assert_eq!(
            by,
            [
                ("fu", 500),
                ("legal", 750),
                ("payments", 750),
                ("points", 750),
                ("yaku", 250)
            ]
        );
        assert_eq!(doc.room_filter, "any");
        assert_eq!(doc.failures_by_reason, m.failures_by_reason);
        assert_eq!(doc.corpus, m.corpus);
        // Byte for byte what serde_json pretty-prints for the document.
        assert_eq!(bytes, serde_json::to_vec_pretty(&doc).unwrap());
        // Keys in the documented order, entries pretty-printed one field per line.
        let text = String::from_utf8(bytes).unwrap();
        let at = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
        assert!(at("room_filter") < at("files") && at("files") < at("totals"));
        assert!(text.contains("\n      \"status\": \"failed\",\n"));
    }

    /// A written manifest reads back its head and its entries one at a time without holding
    /// them; two manifests joined are byte for byte what serde prints for the document with
    /// both entry lists and the summed heads, and an empty one joins as nothing.
    #[test]
    fn written_manifests_join() {
        let dir = tempfile::tempdir().unwrap();
        let statuses = [Status::Ok, Status::Skipped, Status::Failed];
        let write = |name: &str, range: std::ops::Range<usize>, shard: Option<&str>| {
            let mut m = Manifest::new("phoenix", dir.path()).unwrap();
            m.shard = shard.map(str::to_string);
            for i in range {
                m.push(entry(i, statuses[i % 3])).unwrap();
                m.note_game(
                    &format!("20240{}0100gm-00a9-0000-00000001", i % 9 + 1),
                    "phoenix",
                    3,
                );
            }
            let path = dir.path().join(name);
            let mut f = File::create(&path).unwrap();
            m.write_json(&mut f).unwrap();
            path
        };
        let a = WrittenManifest::open(&write("a.json", 0..700, Some("1/2"))).unwrap();
        let b = WrittenManifest::open(&write("b.json", 700..1000, Some("2/2"))).unwrap();
        let empty = WrittenManifest::open(&write("e.json", 0..0, None)).unwrap();
        assert_eq!(a.head.shard.as_deref(), Some("1/2"));
        assert!(a.head.files.is_empty() && empty.head.files.is_empty());
        let mut read = Vec::new();
        a.for_each_entry(|e| {
            read.push(e);
            Ok(())
        })
        .unwrap();
        let want: Vec<FileEntry> = (0..700).map(|i| entry(i, statuses[i % 3])).collect();
        assert_eq!(read, want);
        let mut head = a.head.clone();
        head.shard = None;
        add_head(&mut head, &empty.head);
        add_head(&mut head, &b.head);
        assert_eq!(head.totals.files, 1000);
        assert_eq!(head.corpus.draws, 3000);
        assert_eq!(head.corpus.first_date.as_deref(), Some("2024-01-01"));
        assert_eq!(head.corpus.last_date.as_deref(), Some("2024-09-01"));
        let mut bytes = Vec::new();
        write_joined(&head, &[&a, &empty, &b], &mut bytes).unwrap();
        let doc: ManifestDocument = serde_json::from_slice(&bytes).unwrap();
        let all: Vec<FileEntry> = (0..1000).map(|i| entry(i, statuses[i % 3])).collect();
        assert_eq!(doc.files, all);
        assert_eq!(bytes, serde_json::to_vec_pretty(&doc).unwrap());
        let mut none = Vec::new();
        write_joined(&empty.head, &[&empty], &mut none).unwrap();
        assert_eq!(none, serde_json::to_vec_pretty(&empty.head).unwrap());
    }
}
