//! Joining frames directories: the new games of an append into their directory, or
//! `haifu merge`'s directories into one.
//!
//! A joined directory holds each per-game frame (and `draw_rate`, whose buckets the reports
//! sum) in parts, `<name>/part-NNNNN.parquet`: the target's own files first (a one-file frame
//! becomes part 0 by a rename, not a rewrite), then each source's in order. What depends on
//! every game is built again from the summed `run_totals.json`: the `phoenix-table` rows of
//! `danger_eval` (`danger_eval/phoenix-table.parquet`, scored over every situation),
//! `danger_calibration` and `danger_eval_summary`; the manifest lists the target's entries
//! then each source's, with the heads summed.
//!
//! Invariants: nothing in the target changes until every new file is complete in the staging
//! directory `.haifu-join` and the plan of renames (`.haifu-join/plan.json`) is written; then
//! the renames run in order, `run_totals.json` and `manifest.json` last. A join stopped before
//! its plan is written leaves the target as it was (the staging directory is removed by the
//! next join); one stopped after it is finished by the next command that reads the directory
//! ([`settle`]), so the target never reads as part of a join.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::*;

use super::merge::{table, TABLES};
use super::run_totals;
use crate::danger::Estimator;
use crate::frames::dataset::{self, Step, STAGING};
use crate::frames::{self, FrameWriter};
use crate::manifest::{self, ManifestDocument, Status, WrittenManifest, DEFINITIONS_VERSION};
use crate::report::danger::{evaluate_file_on, Among, SITUATION_ROWS};
use crate::rules::Players;
use crate::stats::{Observe, RunTotals};

/// The file of `danger_eval` that holds the `phoenix-table` rows in a joined directory (it
/// sorts after the parts, as in a one-file frame the rows come after the built-ins').
pub(crate) const PHOENIX_PART: &str = "phoenix-table.parquet";
const PHOENIX: &str = "phoenix-table";

/// A frames directory as a join reads it.
pub(crate) struct FramesDir {
    pub(crate) dir: PathBuf,
    pub(crate) manifest: WrittenManifest,
    totals: [RunTotals; 2],
    /// The on-request frames it holds (its `--with` groups').
    on_request: Vec<&'static str>,
}

impl FramesDir {
    /// Reads `dir`'s manifest head, run totals and frames (finishing a join stopped there).
    pub(crate) fn open(dir: &Path) -> Result<FramesDir> {
        dataset::settle(dir)?;
        let path = dir.join("manifest.json");
        if !path.is_file() {
            bail!(
                "{} has no manifest.json: it is not a frames directory (`haifu ingest --out DIR` \
                 makes one)",
                dir.display()
            );
        }
        let manifest = WrittenManifest::open(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let totals = run_totals::read(dir)?;
        let on_request = frames::ON_REQUEST_FRAMES
            .into_iter()
            .filter(|f| dataset::exists(dir, f))
            .collect();
        Ok(FramesDir {
            dir: dir.to_path_buf(),
            manifest,
            totals,
            on_request,
        })
    }

    /// Its `--with` groups, as the command line names them.
    fn groups(&self) -> String {
        groups_of(&self.on_request)
    }

    /// Refuses a directory that cannot join `self`: another definitions version, room filter
    /// or set of `--with` groups.
    pub(crate) fn check_joins(&self, other: &FramesDir) -> Result<()> {
        let (a, b) = (&self.manifest.head, &other.manifest.head);
        if a.definitions_version != b.definitions_version {
            bail!(
                "{} follows definitions version {} and {} version {}: frames of two versions \
                 do not join; ingest the logs of the older one again with this haifu",
                self.dir.display(),
                a.definitions_version,
                other.dir.display(),
                b.definitions_version
            );
        }
        if a.room_filter != b.room_filter {
            bail!(
                "{} was ingested with --room {} and {} with --room {}: give both the same room",
                self.dir.display(),
                a.room_filter,
                other.dir.display(),
                b.room_filter
            );
        }
        if self.on_request != other.on_request {
            bail!(
                "{} holds the frames of {} and {} those of {}: directories join only with the \
                 same --with groups",
                self.dir.display(),
                self.groups(),
                other.dir.display(),
                other.groups()
            );
        }
        Ok(())
    }

    /// Refuses an ingest with `observe` (and `room`) into this directory.
    pub(crate) fn check_ingest(&self, observe: Observe, room: &str) -> Result<()> {
        let head = &self.manifest.head;
        if head.definitions_version != DEFINITIONS_VERSION {
            bail!(
                "{} follows definitions version {}, and this haifu writes version {}: append to a \
                 new directory (or ingest the old logs again with this haifu)",
                self.dir.display(),
                head.definitions_version,
                DEFINITIONS_VERSION
            );
        }
        if head.room_filter != room {
            bail!(
                "{} was ingested with --room {}: append with --room {} too",
                self.dir.display(),
                head.room_filter,
                head.room_filter
            );
        }
        let wanted: Vec<&'static str> = frames::ON_REQUEST_FRAMES
            .into_iter()
            .filter(|f| observe.groups().iter().any(|g| g.info().frames.contains(f)))
            .collect();
        if wanted != self.on_request {
            bail!(
                "{} holds the frames of {}; this append asks for {}: append with the same --with \
                 groups as the directory's",
                self.dir.display(),
                self.groups(),
                groups_of(&wanted)
            );
        }
        Ok(())
    }

    /// Calls `f` with the identity of every game landed in the directory (its log id, and
    /// its content where it is known by it) and the input that landed it.
    pub(crate) fn for_each_landed(&self, mut f: impl FnMut(&str, &str)) -> Result<()> {
        self.manifest
            .for_each_entry(|e| {
                if e.status == Status::Ok {
                    if let Some(id) = &e.game_id {
                        f(id, &e.path);
                    }
                    if let Some(c) = &e.content {
                        f(c, &e.path);
                    }
                }
                Ok(())
            })
            .with_context(|| format!("cannot read the manifest of {}", self.dir.display()))
    }
}

/// `--with a,b` for the groups whose frames are `on_request`, or "no --with group".
fn groups_of(on_request: &[&str]) -> String {
    let mut names: Vec<&str> = crate::groups::GROUPS
        .iter()
        .filter(|g| !g.frames.is_empty() && g.frames.iter().all(|f| on_request.contains(f)))
        .map(|g| g.name)
        .collect();
    names.dedup();
    if names.is_empty() {
        "no --with group".to_string()
    } else {
        format!("--with {}", names.join(","))
    }
}

/// How a source's files reach the target.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Take {
    /// Renamed (an append's staging directory, inside the target).
    Move,
    /// Linked, or copied where a link cannot be made (`haifu merge`: its inputs stay).
    Copy,
}

/// The frames a join moves: every per-game frame the directories hold, and `draw_rate`.
fn moved_frames(on_request: &[&'static str]) -> Vec<&'static str> {
    frames::FRAMES
        .into_iter()
        .filter(|f| frames::is_per_game(f) || *f == "draw_rate")
        .chain(on_request.iter().copied())
        .collect()
}

/// Joins `sources` (in order) into `target` (its frames first, when it has them); returns
/// the games the target holds after.
pub(crate) fn join(
    target: &Path,
    target_dir: Option<&FramesDir>,
    sources: &[FramesDir],
    take: Take,
) -> Result<u64> {
    let first = target_dir.or(sources.first()).context("nothing to join")?;
    let staging = target.join(STAGING);
    if staging.exists() {
        fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot remove {}", staging.display()))?;
    }
    fs::create_dir_all(&staging).with_context(|| format!("cannot create {}", staging.display()))?;
    let joined = stage(target, target_dir, first, sources, take, &staging);
    let steps = match joined {
        Ok(s) => s,
        Err(e) => {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let t = std::time::Instant::now();
    dataset::publish(target, &steps.0)?;
    crate::runtime::timing("join: publish", t.elapsed());
    Ok(steps.1)
}

/// Writes every new file of the join into `staging` and returns the plan that publishes them,
/// and the games joined.
fn stage(
    target: &Path,
    target_dir: Option<&FramesDir>,
    first: &FramesDir,
    sources: &[FramesDir],
    take: Take,
    staging: &Path,
) -> Result<(Vec<Step>, u64)> {
    let rel = |p: &Path| -> Result<String> {
        Ok(p.strip_prefix(target)
            .with_context(|| format!("{} is not inside {}", p.display(), target.display()))?
            .to_string_lossy()
            .into_owned())
    };
    let mut steps = Vec::new();
    // Removals that wait until the renames of the frames are done.
    let mut steps_after = Vec::new();
    let mut staged = 0usize;
    let mut stage_file = |from: &Path| -> Result<PathBuf> {
        let to = staging.join(format!("file-{staged:06}.parquet"));
        staged += 1;
        if fs::hard_link(from, &to).is_err() {
            fs::copy(from, &to)
                .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
        }
        Ok(to)
    };
    let mut writer = FrameWriter::new(staging)?;
    // Files filtered into the staging directory, renamed there when `writer` commits.
    let mut filtered = 0usize;
    let mut without = |writer: &mut FrameWriter, f: &Path| -> Result<PathBuf> {
        filtered += 1;
        without_phoenix(writer, staging, f, &format!("danger_eval-{filtered}"))
    };
    // Every situation file, where it is now, in the joined order (`phoenix-table` reads them).
    let mut situations: Vec<PathBuf> = Vec::new();
    for frame in moved_frames(&first.on_request) {
        let part = |k: usize| target.join(frame).join(format!("part-{k:05}.parquet"));
        // (staged or current path, current path) of each file, in the joined order.
        let mut files: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut k = 0;
        if target_dir.is_some() {
            let single = target.join(format!("{frame}.parquet"));
            let existing = dataset::files(target, frame);
            if existing.first() == Some(&single) {
                if frame == frames::DANGER_EVAL {
                    files.push((without(&mut writer, &single)?, single.clone()));
                    steps_after.push(Step::Remove(rel(&single)?));
                } else {
                    files.push((single.clone(), single.clone()));
                }
            }
            k = dataset::next_part(target, frame);
            if frame == frames::DANGER_SITUATIONS {
                situations.extend(existing.iter().filter(|f| **f != single).cloned());
            }
        }
        for src in sources {
            let single = src.dir.join(format!("{frame}.parquet"));
            for f in dataset::files(&src.dir, frame) {
                if is_phoenix_part(&f) {
                    continue;
                }
                let from = if frame == frames::DANGER_EVAL && f == single && take == Take::Copy {
                    without(&mut writer, &f)?
                } else if take == Take::Copy {
                    stage_file(&f)?
                } else {
                    f.clone()
                };
                files.push((from, f));
            }
        }
        for (from, now) in files {
            if frame == frames::DANGER_SITUATIONS && !situations.contains(&now) {
                situations.push(now);
            }
            steps.push(Step::Rename(rel(&from)?, rel(&part(k))?));
            k += 1;
        }
    }
    steps.append(&mut steps_after);
    // The run-wide frames, from every game's totals.
    let mut totals: [RunTotals; 2] = Default::default();
    for d in target_dir.into_iter().chain(sources) {
        for (t, theirs) in totals.iter_mut().zip(&d.totals) {
            *t += theirs.clone();
        }
    }
    let mut bytes = Vec::new();
    run_totals::write(&mut bytes, &totals)?;
    let totals_file = staging.join(run_totals::FILE);
    fs::write(&totals_file, bytes)?;
    let mut present: Vec<Players> = TABLES
        .into_iter()
        .filter(|&p| totals[table(p)].games > 0)
        .collect();
    if present.is_empty() {
        present.push(Players::Four);
    }
    let mixed = present.len() > 1;
    let t = std::time::Instant::now();
    for players in &present {
        let phoenix = Estimator::Table(totals[table(*players)].phoenix_table(*players));
        let among = Among {
            keep: None,
            players: *players,
            only: mixed,
        };
        let (scored, _) = evaluate_file_on(
            &situations,
            std::slice::from_ref(&phoenix),
            Estimator::BUILTINS.len(),
            SITUATION_ROWS,
            among,
            |eval| Ok(writer.write_chunk(PHOENIX, eval)?),
        )?;
        totals[table(*players)].eval += scored;
    }
    crate::runtime::timing("join: phoenix-table", t.elapsed());
    let evals: Vec<(Players, &crate::danger::EvalTotals)> = present
        .iter()
        .map(|p| (*p, &totals[table(*p)].eval))
        .collect();
    frames::write_danger_totals(&mut writer, &evals)?;
    writer.finish()?;
    writer.commit("")?;
    let phoenix_file = staging.join(format!("{PHOENIX}.parquet"));
    if phoenix_file.exists() {
        steps.push(Step::Rename(
            rel(&phoenix_file)?,
            rel(&target.join(frames::DANGER_EVAL).join(PHOENIX_PART))?,
        ));
    }
    for f in ["danger_calibration", "danger_eval_summary"] {
        let name = format!("{f}.parquet");
        steps.push(Step::Rename(
            rel(&staging.join(&name))?,
            rel(&target.join(&name))?,
        ));
    }
    // The manifest: the target's entries, then each source's.
    let parts: Vec<&WrittenManifest> = target_dir
        .into_iter()
        .chain(sources)
        .map(|d| &d.manifest)
        .collect();
    let mut head: ManifestDocument = parts[0].head.clone();
    head.haifu_version = env!("CARGO_PKG_VERSION").to_string();
    for p in &parts[1..] {
        manifest::add_head(&mut head, &p.head);
        if p.head.shard != head.shard {
            head.shard = None;
        }
    }
    let t = std::time::Instant::now();
    let manifest_file = staging.join("manifest.json");
    let mut w = std::io::BufWriter::new(fs::File::create(&manifest_file)?);
    manifest::write_joined(&head, &parts, &mut w)?;
    w.flush()?;
    drop(w);
    crate::runtime::timing("join: manifest", t.elapsed());
    steps.push(Step::Rename(
        rel(&totals_file)?,
        rel(&target.join(run_totals::FILE))?,
    ));
    steps.push(Step::Rename(
        rel(&manifest_file)?,
        rel(&target.join("manifest.json"))?,
    ));
    Ok((steps, head.totals.games))
}

/// True for the `phoenix-table` file of a joined `danger_eval`.
fn is_phoenix_part(f: &Path) -> bool {
    f.file_name().is_some_and(|n| n == PHOENIX_PART)
}

/// A copy of the one-file `danger_eval` frame `file` without its `phoenix-table` rows,
/// written a slice at a time through `writer` as `name`; the staged file's path.
fn without_phoenix(
    writer: &mut FrameWriter,
    staging: &Path,
    file: &Path,
    name: &str,
) -> Result<PathBuf> {
    let rows = {
        let f = fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?;
        ParquetReader::new(f).num_rows()?
    };
    let mut offset = 0;
    loop {
        let f = fs::File::open(file)?;
        let slice = ParquetReader::new(f)
            .with_slice(Some((offset, SITUATION_ROWS)))
            .finish()?
            .lazy()
            .filter(col("estimator").neq(lit(PHOENIX)))
            .collect()?;
        writer.write(name, &slice)?;
        offset += SITUATION_ROWS;
        if offset >= rows {
            break;
        }
    }
    writer.finish_frame(name)?;
    // Where the writer's commit puts it.
    Ok(staging.join(format!("{name}.parquet")))
}

/// `haifu merge`: joins the frames directories `inputs` into `out` (after `out`'s own games,
/// when it already holds frames); refuses directories that share a game, or that differ in
/// definitions version, room filter or `--with` groups. Returns the games `out` then holds.
pub(crate) fn merge_dirs(out: &Path, inputs: &[PathBuf]) -> Result<u64> {
    if inputs.is_empty() {
        bail!("give the frames directories to merge");
    }
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    for (i, d) in inputs.iter().enumerate() {
        if canon(d) == canon(out) {
            bail!(
                "{} is both --out and an input: --out already keeps its games, so leave it out \
                 of the inputs",
                d.display()
            );
        }
        if inputs[..i].iter().any(|e| canon(e) == canon(d)) {
            bail!("{} is given twice", d.display());
        }
    }
    fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let target = if out.join("manifest.json").exists() {
        Some(FramesDir::open(out)?)
    } else {
        None
    };
    let sources = inputs
        .iter()
        .map(|d| FramesDir::open(d))
        .collect::<Result<Vec<_>>>()?;
    let first = target.as_ref().unwrap_or(&sources[0]);
    for s in &sources {
        first.check_joins(s)?;
    }
    refuse_overlaps(target.iter().chain(&sources))?;
    note_missing_shards(&sources);
    join(out, target.as_ref(), &sources, Take::Copy)
}

/// Refuses directories that hold the same game (same log id, or same content).
fn refuse_overlaps<'a>(dirs: impl Iterator<Item = &'a FramesDir>) -> Result<()> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut overlaps: Vec<(String, usize, usize)> = Vec::new();
    let dirs: Vec<&FramesDir> = dirs.collect();
    for (i, d) in dirs.iter().enumerate() {
        d.for_each_landed(|key, _| {
            if let Some(&j) = seen.get(key) {
                if j != i {
                    overlaps.push((key.to_string(), j, i));
                }
            } else {
                seen.insert(key.to_string(), i);
            }
        })?;
    }
    if let Some((key, a, b)) = overlaps.first() {
        bail!(
            "{} games are in more than one directory, e.g. {key} in {} and in {}: merge refuses \
             overlapping directories (ingest the shards of one run with --shard K/N and the \
             same N, or append the other logs with `haifu ingest --append`, which skips the \
             games already there)",
            overlaps.len(),
            dirs[*a].dir.display(),
            dirs[*b].dir.display()
        );
    }
    Ok(())
}

/// Says which shards of N are not among `sources` when every source is a shard of the same N.
fn note_missing_shards(sources: &[FramesDir]) {
    let specs: Vec<Option<super::Shard>> = sources
        .iter()
        .map(|s| {
            s.manifest
                .head
                .shard
                .as_deref()
                .and_then(|x| x.parse().ok())
        })
        .collect();
    let Some(Some(first)) = specs.first().copied() else {
        return;
    };
    let n = first.n();
    if specs.iter().all(|s| s.is_some_and(|s| s.n() == n)) {
        let missing: Vec<String> = (1..=n)
            .filter(|&k| !specs.iter().any(|s| s.is_some_and(|s| s.k() == k)))
            .map(|k| k.to_string())
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "note: shards {} of {n} are not merged: their inputs' games are not in the output",
                missing.join(", ")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups are named from the on-request frames a directory holds.
    #[test]
    fn groups_are_named_from_frames() {
        assert_eq!(groups_of(&[]), "no --with group");
        assert_eq!(groups_of(&["decisions", "walls"]), "--with decisions,walls");
    }
}
