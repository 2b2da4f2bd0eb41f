//! The games a frames directory was made from, read again from their logs: for analyses that
//! need every event of a game rather than its frame rows (`haifu agree --every-decision`).
//!
//! The directory's `manifest.json` names every input that landed (status `ok`) with its game
//! id, in run order: a file (any format), a log database's row (`<database>#<log id>`) or one
//! paipu of a file holding several (`<file>#<k>`). Each is read as the ingest read it, and
//! must decode to the game the manifest names; a log that moved or changed since is an error
//! naming it (the frames and the logs no longer agree).
//!
//! Invariants: [`games`] keeps the manifest's order (so every result built game by game in
//! that order is the same on any number of threads); a [`Reader`] holds one open database at
//! a time and its buffers, and is used by one thread.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::formats::decode_into;
use crate::input;
use crate::logdb::LogDb;
use crate::manifest::{ManifestDocument, Status};
use crate::mjlog::GameLog;

/// A game that landed in a frames directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Landed {
    /// The manifest's name of its input.
    pub(crate) name: String,
    pub(crate) game_id: String,
}

/// The games of `frames` (its manifest's landed inputs, in run order), only those whose log
/// ids `keep` holds when given (a §9 slice's games).
pub(crate) fn games(frames: &Path, keep: Option<&HashSet<String>>) -> Result<Vec<Landed>> {
    let path = frames.join("manifest.json");
    let doc =
        ManifestDocument::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(doc
        .files
        .into_iter()
        .filter(|f| f.status == Status::Ok)
        .filter_map(|f| {
            let game_id = f.game_id?;
            keep.is_none_or(|k| k.contains(&game_id)).then_some(Landed {
                name: f.path,
                game_id,
            })
        })
        .collect())
}

/// Reads landed games again; one per thread.
#[derive(Default)]
pub(crate) struct Reader {
    raw: Vec<u8>,
    inflated: Vec<u8>,
    db: Option<(PathBuf, LogDb)>,
}

impl Reader {
    /// Decodes `game` into `log`, or says why it cannot (naming the input).
    pub(crate) fn read(&mut self, game: &Landed, log: &mut GameLog) -> Result<()> {
        let named = || {
            format!(
                "{} (game {}, from the frames' manifest.json)",
                game.name, game.game_id
            )
        };
        self.decode(game, log).with_context(named)?;
        if let Some(id) = &log.origin.game_id {
            if id != &game.game_id {
                bail!(
                    "{}: the log now holds game {id}: the frames and the logs no longer agree",
                    named()
                );
            }
        }
        Ok(())
    }

    fn decode(&mut self, game: &Landed, log: &mut GameLog) -> Result<()> {
        let path = Path::new(&game.name);
        if path.is_file() {
            let bytes = input::read_log(path, &mut self.raw, &mut self.inflated)
                .map_err(|f| anyhow::anyhow!("{f}"))?;
            return decode_into(bytes, log).map_err(|f| anyhow::anyhow!("{f}"));
        }
        let Some((file, part)) = game.name.rsplit_once('#') else {
            bail!("cannot read it: no such file (run from the directory the ingest ran in)");
        };
        let file = Path::new(file);
        if !file.is_file() {
            bail!(
                "cannot read {}: no such file (run from the directory the ingest ran in)",
                file.display()
            );
        }
        if crate::logdb::is_sqlite(file) {
            if self.db.as_ref().is_none_or(|(p, _)| p != file) {
                let db = LogDb::open(file).map_err(|f| anyhow::anyhow!("{f}"))?;
                self.db = Some((file.to_path_buf(), db));
            }
            let (_, db) = self.db.as_ref().expect("opened above");
            let row = db
                .get(part)
                .map_err(|e| anyhow::anyhow!(e))?
                .with_context(|| format!("the database has no row {part} now"))?;
            let blob = row.content.map_err(|f| anyhow::anyhow!("{f}"))?;
            let bytes: &[u8] = if crate::logdb::is_bzip2(&blob) {
                crate::logdb::bunzip2(&blob, &mut self.inflated, input::MAX_LOG_BYTES)
                    .map_err(|e| anyhow::anyhow!(e))?;
                &self.inflated
            } else {
                input::decompress(&blob, &mut self.inflated).map_err(|f| anyhow::anyhow!("{f}"))?
            };
            return decode_into(bytes, log).map_err(|f| anyhow::anyhow!("{f}"));
        }
        let k: usize = part
            .parse()
            .with_context(|| format!("`{part}` names no game of {}", file.display()))?;
        let bytes = input::read_log(file, &mut self.raw, &mut self.inflated)
            .map_err(|f| anyhow::anyhow!("{f}"))?;
        let paipu = crate::formats::majiang::many(bytes)
            .with_context(|| format!("{} no longer holds several games", file.display()))?;
        let p = paipu
            .get(k)
            .with_context(|| format!("{} holds no game {k} now", file.display()))?;
        crate::formats::majiang::read_one(p, log).map_err(|f| anyhow::anyhow!("{f}"))
    }
}
