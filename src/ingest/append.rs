//! `haifu ingest --append`: the new games ingested into a staging directory inside the
//! frames directory (skipping every game already there, by log id or content), then joined
//! to it ([`super::join`]): the frames already written are renamed into parts, never
//! rewritten, and what depends on every game is built again from the summed run totals.
//!
//! Invariant: until the join publishes, the directory reads as before the append; a run
//! stopped before (a kill, a failed input under `--strict`, an error) leaves it so, and its
//! staging directory is removed by the next append.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::join::{join, FramesDir, Take};
use super::{ingest_into, IngestOptions, IngestSummary, Prior};
use crate::manifest::DEFINITIONS_VERSION;
use crate::runtime::timing;

/// The staging directory of the new games' ingest, inside the frames directory.
const NEW_GAMES: &str = ".haifu-append";

/// Appends the games of `opts.inputs` to the frames in `opts.out`.
pub(super) fn append(opts: &IngestOptions) -> Result<IngestSummary> {
    let t0 = std::time::Instant::now();
    let dir = FramesDir::open(&opts.out)?;
    dir.check_ingest(opts.observe, opts.room.name())?;
    let shard = opts.shard.map(|s| s.to_string());
    if dir.manifest.head.shard != shard {
        let says = |s: &Option<String>| {
            s.as_ref()
                .map_or("no --shard".into(), |s| format!("--shard {s}"))
        };
        bail!(
            "{} was ingested with {}, and this append has {}: append with the directory's shard",
            opts.out.display(),
            says(&dir.manifest.head.shard),
            says(&shard)
        );
    }
    debug_assert_eq!(dir.manifest.head.definitions_version, DEFINITIONS_VERSION);
    let mut prior = Prior {
        no_phoenix: true,
        ..Prior::default()
    };
    dir.for_each_landed(|key, path| {
        if !prior.landed.contains(key) {
            prior.landed.insert(key, path);
        }
    })?;
    let staging = opts.out.join(NEW_GAMES);
    remove(&staging)?;
    timing("append: the directory's games", t0.elapsed());
    // (`ingest_into` is the plain ingest whatever `append` says.)
    let sub = IngestOptions {
        out: staging.clone(),
        ..opts.clone()
    };
    let ingested = ingest_into(&sub, prior).and_then(|mut summary| {
        summary.out = opts.out.clone();
        if !summary.written {
            return Ok(summary);
        }
        if std::env::var_os("HAIFU_TEST_STOP_STAGED").is_some() {
            // Tests stand in for a kill after the new games are ingested, before they join.
            std::process::exit(9);
        }
        let new = FramesDir::open(&staging)?;
        let t1 = std::time::Instant::now();
        let games = join(
            &opts.out,
            Some(&dir),
            std::slice::from_ref(&new),
            Take::Move,
        )?;
        timing("append: join", t1.elapsed());
        summary.appended_to = Some(games);
        Ok(summary)
    });
    // The new games' files stay while a stopped join's plan still names them.
    if !opts.out.join(crate::frames::dataset::STAGING).exists() {
        remove(&staging)?;
    }
    ingested
}

/// Removes `dir` and everything in it, if it exists.
fn remove(dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    }
    Ok(())
}
