//! A frame on disk as one table whatever its layout: `DIR/<name>.parquet` (one file), or
//! `DIR/<name>/part-NNNNN.parquet` (parts, one Parquet file each, read in name order), or both
//! (the one file first). A glob `DIR/<name>/*.parquet` reads the parts in DuckDB or Spark.
//!
//! Invariants: a part exists under its final name only once it is complete (it is written
//! under a dot-name in the same directory and renamed); names starting with a dot are never
//! read; part numbers only grow, so a new part sorts after every part before it.
//!
//! A directory changes under readers only by a join (an append, a merge: `ingest::join`):
//! every new file is made in the staging directory [`STAGING`], the renames that publish them
//! are written as a plan there, then run ([`publish`]). A directory whose plan did not run to
//! its end (a kill) is finished by the next read of one of its frames ([`settle`]), so no
//! reader sees part of a join.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use polars::prelude::*;

/// The file of the one-file layout.
fn single(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.parquet"))
}

/// The directory of the parts layout.
fn parts_dir(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

/// Every file of frame `name` in `dir`, in reading order (empty when there is none), once a
/// join stopped in `dir` is finished.
pub(crate) fn files(dir: &Path, name: &str) -> Vec<PathBuf> {
    if let Err(e) = settle(dir) {
        eprintln!("warning: {e:#}");
    }
    let mut out: Vec<PathBuf> = Some(single(dir, name))
        .filter(|p| p.is_file())
        .into_iter()
        .collect();
    if let Ok(entries) = std::fs::read_dir(parts_dir(dir, name)) {
        let mut parts: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let n = p
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default();
                !n.starts_with('.') && n.ends_with(".parquet") && p.is_file()
            })
            .collect();
        parts.sort();
        out.extend(parts);
    }
    out
}

/// True when `dir` holds frame `name` in either layout.
pub(crate) fn exists(dir: &Path, name: &str) -> bool {
    !files(dir, name).is_empty()
}

/// Frame `name` of `dir` as one lazy table; an error naming the directory when it is absent.
pub(crate) fn scan(dir: &Path, name: &str) -> Result<LazyFrame> {
    let files = files(dir, name);
    if files.is_empty() {
        bail!(
            "{} has no frame {name} ({name}.parquet or {name}/)",
            dir.display()
        );
    }
    let paths = files
        .iter()
        .map(|p| PlRefPath::try_from_path(p))
        .collect::<PolarsResult<Vec<_>>>()?;
    LazyFrame::scan_parquet_files(paths.into_iter().collect(), ScanArgsParquet::default())
        .map_err(|e| anyhow::anyhow!("cannot read frame {name} of {}: {e}", dir.display()))
}

/// The number the next part of frame `name` takes: one more than the highest there.
pub(crate) fn next_part(dir: &Path, name: &str) -> usize {
    files(dir, name)
        .iter()
        .filter_map(|p| {
            p.file_stem()?
                .to_str()?
                .strip_prefix("part-")?
                .parse::<usize>()
                .ok()
        })
        .map(|k| k + 1)
        .max()
        .unwrap_or(0)
}

/// Writes `df` as part `k` of frame `name` (LZ4, as every frame), through a dot-name renamed
/// into place.
pub(crate) fn write_part(dir: &Path, name: &str, k: usize, df: &mut DataFrame) -> Result<()> {
    let parts = parts_dir(dir, name);
    std::fs::create_dir_all(&parts)
        .with_context(|| format!("cannot create {}", parts.display()))?;
    let path = parts.join(format!("part-{k:05}.parquet"));
    let tmp = parts.join(format!(".part-{k:05}.parquet.tmp-{}", std::process::id()));
    let file =
        std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    ParquetWriter::new(file)
        .with_compression(ParquetCompression::Lz4Raw)
        .finish(df)?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Removes frame `name` from `dir`, in either layout.
pub(crate) fn remove(dir: &Path, name: &str) -> Result<()> {
    for f in files(dir, name) {
        std::fs::remove_file(&f).with_context(|| format!("cannot remove {}", f.display()))?;
    }
    let parts = parts_dir(dir, name);
    if parts.is_dir() {
        // Left-over dot-files of an interrupted write go with it.
        std::fs::remove_dir_all(&parts)
            .with_context(|| format!("cannot remove {}", parts.display()))?;
    }
    Ok(())
}

/// The staging directory of a join, inside the directory it joins into.
pub(crate) const STAGING: &str = ".haifu-join";
/// The plan of a join, in its staging directory, once every new file is complete.
const PLAN: &str = "plan.json";

/// One step of a join's publication (paths relative to the directory).
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Step {
    /// Rename the first to the second (creating its directory).
    Rename(String, String),
    /// Remove the file.
    Remove(String),
}

/// Writes `steps` as the plan of the join into `dir` (its staging directory holds every new
/// file), then runs it.
pub(crate) fn publish(dir: &Path, steps: &[Step]) -> Result<()> {
    let plan = serde_json::to_vec(steps)?;
    super::write_atomically(&dir.join(STAGING).join(PLAN), &plan)
        .with_context(|| format!("cannot write in {}", dir.join(STAGING).display()))?;
    run_plan(dir)
}

/// Runs the plan of the join into `dir` from where it stopped (a rename already done is
/// passed over), then removes the staging directory.
fn run_plan(dir: &Path) -> Result<()> {
    let staging = dir.join(STAGING);
    let path = staging.join(PLAN);
    let plan: Vec<Step> = serde_json::from_slice(&std::fs::read(&path)?)
        .with_context(|| format!("{} is not a join plan", path.display()))?;
    // Tests stand in for a kill in the middle of the renames.
    let stop_at = std::env::var("HAIFU_TEST_STOP_PUBLISH")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    for (i, step) in plan.iter().enumerate() {
        if stop_at == Some(i) {
            std::process::exit(9);
        }
        match step {
            Step::Rename(from, to) => {
                let (from, to) = (dir.join(from), dir.join(to));
                if from.exists() {
                    if let Some(parent) = to.parent() {
                        std::fs::create_dir_all(parent)?;
                    }
                    std::fs::rename(&from, &to).with_context(|| {
                        format!("cannot rename {} to {}", from.display(), to.display())
                    })?;
                } else if !to.exists() {
                    bail!(
                        "the join into {} lost {} before it was published",
                        dir.display(),
                        from.display()
                    );
                }
            }
            Step::Remove(path) => {
                let path = dir.join(path);
                if path.exists() {
                    std::fs::remove_file(&path)
                        .with_context(|| format!("cannot remove {}", path.display()))?;
                }
            }
        }
    }
    std::fs::remove_dir_all(&staging)
        .with_context(|| format!("cannot remove {}", staging.display()))
}

/// Finishes a join into `dir` that stopped after its plan was written. A staging directory
/// without a plan is left (the directory reads as before that join; the next join removes it).
pub(crate) fn settle(dir: &Path) -> Result<()> {
    if dir.join(STAGING).join(PLAN).is_file() {
        eprintln!(
            "note: finishing the append or merge into {} that stopped while it renamed its files",
            dir.display()
        );
        run_plan(dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both layouts read as one table, the one file first, parts in number order; a dot-file
    /// (a part being written) is not read; the next part follows the highest.
    #[test]
    fn both_layouts_read_as_one_table() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert!(!exists(d, "t"));
        assert_eq!(next_part(d, "t"), 0);
        let Err(e) = scan(d, "t") else {
            panic!("an absent frame scans")
        };
        assert!(e.to_string().contains("no frame t"), "{e}");
        let df = |x: &[i32]| df!("x" => x).unwrap();
        write_part(d, "t", 1, &mut df(&[3, 4])).unwrap();
        write_part(d, "t", 0, &mut df(&[2])).unwrap();
        std::fs::write(d.join("t").join(".part-00002.parquet.tmp-1"), b"half").unwrap();
        assert_eq!(next_part(d, "t"), 2);
        ParquetWriter::new(std::fs::File::create(d.join("t.parquet")).unwrap())
            .finish(&mut df(&[1]))
            .unwrap();
        let read = scan(d, "t").unwrap().collect().unwrap();
        let x: Vec<i32> = read
            .column("x")
            .unwrap()
            .i32()
            .unwrap()
            .into_no_null_iter()
            .collect();
        assert_eq!(x, [1, 2, 3, 4]);
        remove(d, "t").unwrap();
        assert!(!exists(d, "t"));
        assert!(!d.join("t").exists());
    }
}
