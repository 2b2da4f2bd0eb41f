//! `manifest.json`: every input accounted for, with totals and versions (statistics.md §6).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Version of the statistics definitions (statistics.md) these frames follow.
pub const DEFINITIONS_VERSION: &str = "1";

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
    /// `null` when ok; else `reason-name: detail`.
    pub reason: Option<String>,
    pub game_id: Option<String>,
    pub games: u32,
    pub hands: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub files: u64,
    pub ok: u64,
    pub skipped: u64,
    pub failed: u64,
    pub games: u64,
    pub hands: u64,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub haifu_version: String,
    pub definitions_version: String,
    /// The `--room` filter of the run.
    pub room_filter: String,
    pub files: Vec<FileEntry>,
    pub totals: Totals,
    /// Failed files by reason name (the part of `reason` before the first colon).
    pub failures_by_reason: BTreeMap<String, u64>,
    /// Skipped files by reason name.
    pub skips_by_reason: BTreeMap<String, u64>,
    /// Tags the decoder did not know, with how many times they occurred (warnings).
    pub unknown_tags: BTreeMap<String, u64>,
    pub corpus: Corpus,
}

impl Manifest {
    pub fn new(room_filter: &str) -> Self {
        Manifest {
            haifu_version: env!("CARGO_PKG_VERSION").to_string(),
            definitions_version: DEFINITIONS_VERSION.to_string(),
            room_filter: room_filter.to_string(),
            files: Vec::new(),
            totals: Totals::default(),
            failures_by_reason: BTreeMap::new(),
            skips_by_reason: BTreeMap::new(),
            unknown_tags: BTreeMap::new(),
            corpus: Corpus::default(),
        }
    }

    /// Records one input and updates the totals.
    pub fn push(&mut self, entry: FileEntry) {
        let t = &mut self.totals;
        t.files += 1;
        t.games += entry.games as u64;
        t.hands += entry.hands as u64;
        let reason_name = entry
            .reason
            .as_deref()
            .map(|r| r.split(':').next().unwrap_or(r).to_string());
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
            }
        }
        self.files.push(entry);
    }

    /// Notes a landed game's date (from its log id) and room.
    pub fn note_game(&mut self, game_id: &str, room: &str, draws: u64) {
        *self.corpus.rooms.entry(room.to_string()).or_default() += 1;
        self.corpus.draws += draws;
        if let Some(date) = date_of(game_id) {
            let c = &mut self.corpus;
            if c.first_date.as_deref().is_none_or(|d| date.as_str() < d) {
                c.first_date = Some(date.clone());
            }
            if c.last_date.as_deref().is_none_or(|d| date.as_str() > d) {
                c.last_date = Some(date);
            }
        }
    }

    /// The manifest as pretty-printed JSON, written straight to `w` (it holds one entry per
    /// input, so it is not built as one string first).
    pub fn write_json(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(w, self).map_err(std::io::Error::from)
    }
}

/// `YYYY-MM-DD` of a Tenhou log id (`2024041200gm-…`).
fn date_of(game_id: &str) -> Option<String> {
    let b = game_id.as_bytes();
    (b.len() >= 12 && b[..10].iter().all(u8::is_ascii_digit) && &b[10..12] == b"gm")
        .then(|| format!("{}-{}-{}", &game_id[..4], &game_id[4..6], &game_id[6..8]))
}
