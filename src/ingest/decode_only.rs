//! `--decode-only`: read, decompress and decode every file with the same reader and
//! parallelism as a run, and nothing else (the speed floor of `make bench`).

use std::fmt;
use std::path::PathBuf;

use rayon::prelude::*;

use super::BATCH_FILES;
use crate::formats::decode_into;
use crate::input;
use crate::mjlog::GameLog;

/// What a decode-only pass saw.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct DecodeOnly {
    pub(crate) files: u64,
    pub(crate) games: u64,
    pub(crate) events: u64,
    /// Inputs that could not be listed, read or decoded.
    pub(crate) failed: u64,
    pub(crate) seconds: f64,
}

impl fmt::Display for DecodeOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "decode-only: {} files, {} games, {} events, {} undecodable in {:.2} s ({:.0} games/s)",
            self.files,
            self.games,
            self.events,
            self.failed,
            self.seconds,
            self.games as f64 / self.seconds.max(1e-9)
        )
    }
}

/// Reads, decompresses and decodes every file under `inputs`.
pub(crate) fn decode_only(inputs: &[PathBuf]) -> DecodeOnly {
    let start = std::time::Instant::now();
    let (files, errors) = input::collect_files(inputs);
    let mut totals = DecodeOnly {
        files: files.len() as u64 + errors.len() as u64,
        failed: errors.len() as u64,
        ..DecodeOnly::default()
    };
    for chunk in files.chunks(BATCH_FILES) {
        let per: Vec<Option<u64>> = chunk
            .par_iter()
            .map_init(
                || (Vec::new(), Vec::new(), GameLog::default()),
                |(raw, inflated, log), p| {
                    let bytes = input::read_log(p, raw, inflated).ok()?;
                    decode_into(bytes, log).ok()?;
                    Some(log.events.len() as u64)
                },
            )
            .collect();
        for r in per {
            match r {
                Some(ev) => {
                    totals.games += 1;
                    totals.events += ev;
                }
                None => totals.failed += 1,
            }
        }
    }
    totals.seconds = start.elapsed().as_secs_f64();
    totals
}
