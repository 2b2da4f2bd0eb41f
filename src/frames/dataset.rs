//! A frame on disk as one table whatever its layout: `DIR/<name>.parquet` (one file), or
//! `DIR/<name>/part-NNNNN.parquet` (parts, one Parquet file each, read in name order), or both
//! (the one file first). A glob `DIR/<name>/*.parquet` reads the parts in DuckDB or Spark.
//!
//! Every reader of a frame goes through this module ([`files`], [`require`], [`scan`],
//! [`Slices`]), so a directory reads the same in either layout.
//!
//! Invariants: a part exists under its final name only once it is complete (it is written
//! under a dot-name in the same directory and renamed); names starting with a dot are never
//! read; part numbers only grow, so a new part sorts after every part before it; the rows of a
//! frame are those of its files in reading order, whichever way they are read (scanned, or a
//! slice at a time, slices of the same rows whatever the files' boundaries).
//!
//! A directory changes under readers only by a join (an append, a merge: `ingest::join`):
//! every new file is made in the staging directory [`STAGING`], the renames that publish them
//! are written as a plan there, then run ([`publish`]). A directory whose plan did not run to
//! its end (a kill) is finished by the next read of one of its frames ([`settle`]), so no
//! reader sees part of a join.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use polars::io::parquet::metadata::FileMetadataRef;
use polars::prelude::*;

use crate::groups::Group;

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

/// Every file of frame `name` in `dir`, in reading order; when there is none, an error naming
/// the directory and the frame that says what writes it (an ingest, with the `--with` group of
/// a frame written on request).
pub(crate) fn require(dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
    let files = files(dir, name);
    if files.is_empty() {
        let to_do = match Group::writing(name) {
            Some(g) => format!("ingest with --with {}", g.name()),
            None => format!("run `haifu ingest ... --out {}` first", dir.display()),
        };
        return Err(anyhow!(
            "{} has no frame {name} ({name}.parquet or {name}/): {to_do}",
            dir.display()
        ));
    }
    Ok(files)
}

/// Frame `name` of `dir` as one lazy table; an error naming the directory when it is absent.
pub(crate) fn scan(dir: &Path, name: &str) -> Result<LazyFrame> {
    let files = require(dir, name)?;
    let paths = files
        .iter()
        .map(|p| PlRefPath::try_from_path(p))
        .collect::<PolarsResult<Vec<_>>>()?;
    LazyFrame::scan_parquet_files(paths.into_iter().collect(), ScanArgsParquet::default())
        .map_err(|e| anyhow::anyhow!("cannot read frame {name} of {}: {e}", dir.display()))
}

/// A frame's rows `rows` at a time, in reading order, across its files: every slice but the
/// last has `rows` rows (a slice that straddles two files is read from both), so what a reader
/// does per slice does not depend on the layout. A frame without rows still gives one empty
/// slice, with its columns. Each file's metadata is read once.
pub(crate) struct Slices {
    files: std::vec::IntoIter<PathBuf>,
    rows: usize,
    columns: Option<Vec<String>>,
    open: Option<Open>,
    /// The first file, read for its columns when the frame has no rows; `None` once a slice
    /// is given.
    first: Option<PathBuf>,
}

/// The file a [`Slices`] is reading.
struct Open {
    path: PathBuf,
    metadata: FileMetadataRef,
    rows: usize,
    offset: usize,
}

impl Slices {
    /// The rows of `files` (a frame's, in reading order) `rows` at a time (at least one).
    pub(crate) fn new(files: Vec<PathBuf>, rows: usize) -> Slices {
        Slices {
            first: files.first().cloned(),
            files: files.into_iter(),
            rows: rows.max(1),
            columns: None,
            open: None,
        }
    }

    /// Only `columns`, in that order.
    pub(crate) fn columns(mut self, columns: &[&str]) -> Slices {
        self.columns = Some(columns.iter().map(|c| c.to_string()).collect());
        self
    }

    /// The reader of `path` with the columns asked for.
    fn reader(&self, path: &Path) -> Result<ParquetReader<std::fs::File>> {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        Ok(ParquetReader::new(file).with_columns(self.columns.clone()))
    }

    /// The next file with rows left, opened; `None` after the last.
    fn next_open(&mut self) -> Result<Option<&mut Open>> {
        while self.open.as_ref().is_none_or(|o| o.offset >= o.rows) {
            let Some(path) = self.files.next() else {
                return Ok(None);
            };
            let mut reader = self.reader(&path)?;
            let metadata = reader.get_metadata()?.clone();
            let rows = reader.num_rows()?;
            self.open = Some(Open {
                path,
                metadata,
                rows,
                offset: 0,
            });
        }
        Ok(self.open.as_mut())
    }

    fn read_next(&mut self) -> Result<Option<DataFrame>> {
        let mut out: Option<DataFrame> = None;
        let mut wanted = self.rows;
        while wanted > 0 {
            let Some(open) = self.next_open()? else {
                break;
            };
            let (path, metadata, offset) = (open.path.clone(), open.metadata.clone(), open.offset);
            let take = wanted.min(open.rows - offset);
            open.offset += take;
            wanted -= take;
            let mut reader = self.reader(&path)?;
            reader.set_metadata(metadata);
            let df =
                Context::with_context(reader.with_slice(Some((offset, take))).finish(), || {
                    format!("cannot read {}", path.display())
                })?;
            match out.as_mut() {
                None => out = Some(df),
                Some(o) => {
                    o.vstack_mut(&df)?;
                }
            }
        }
        match (out, self.first.take()) {
            (Some(df), _) => Ok(Some(df)),
            (None, Some(first)) => Ok(Some(self.reader(&first)?.finish()?)),
            (None, None) => Ok(None),
        }
    }
}

impl Iterator for Slices {
    type Item = Result<DataFrame>;

    fn next(&mut self) -> Option<Result<DataFrame>> {
        self.read_next().transpose()
    }
}

/// The whole of frame `name` of `dir` (only `columns`, when given) in reading order; an error
/// as [`require`]'s when it is absent.
pub(crate) fn read(dir: &Path, name: &str, columns: Option<&[&str]>) -> Result<DataFrame> {
    let mut slices = Slices::new(require(dir, name)?, usize::MAX);
    if let Some(c) = columns {
        slices = slices.columns(c);
    }
    slices.next().expect("a frame with files gives a slice")
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
    remove_parts(dir, name)
}

/// Removes the parts of frame `name` from `dir`, leaving its one file: what a writer that
/// replaces a frame whole with one file does once that file is in place.
pub(crate) fn remove_parts(dir: &Path, name: &str) -> Result<()> {
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

    /// The `x` values of a slice.
    fn xs(df: &DataFrame) -> Vec<i32> {
        df.column("x")
            .unwrap()
            .i32()
            .unwrap()
            .into_no_null_iter()
            .collect()
    }

    /// Slices run across the files in reading order, every one but the last full whatever the
    /// files' boundaries (an empty part in between included); only the columns asked for; a
    /// frame without rows gives one empty slice with its columns; a whole frame reads at once.
    #[test]
    fn slices_run_across_files() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let df =
            |x: &[i32]| df!("x" => x, "y" => x.iter().map(|v| v * 10).collect::<Vec<_>>()).unwrap();
        ParquetWriter::new(std::fs::File::create(d.join("t.parquet")).unwrap())
            .finish(&mut df(&[1]))
            .unwrap();
        for (k, x) in [&[2][..], &[3, 4, 5], &[], &[6]].iter().enumerate() {
            write_part(d, "t", k, &mut df(x)).unwrap();
        }
        let slices = |rows: usize| -> Vec<Vec<i32>> {
            Slices::new(files(d, "t"), rows)
                .map(|s| xs(&s.unwrap()))
                .collect()
        };
        assert_eq!(slices(2), [vec![1, 2], vec![3, 4], vec![5, 6]]);
        assert_eq!(slices(4), [vec![1, 2, 3, 4], vec![5, 6]]);
        assert_eq!(slices(6), [vec![1, 2, 3, 4, 5, 6]]);
        assert_eq!(slices(0), (1..=6).map(|x| vec![x]).collect::<Vec<_>>());
        let only_y: Vec<DataFrame> = Slices::new(files(d, "t"), 5)
            .columns(&["y"])
            .map(Result::unwrap)
            .collect();
        assert_eq!(only_y.len(), 2);
        assert_eq!(only_y[0].get_column_names(), ["y"]);
        assert_eq!(only_y[1].height(), 1);
        assert_eq!(xs(&read(d, "t", None).unwrap()), [1, 2, 3, 4, 5, 6]);
        let y = read(d, "t", Some(&["y"])).unwrap();
        assert_eq!(y.get_column_names(), ["y"]);

        write_part(d, "empty", 0, &mut df(&[])).unwrap();
        let empty: Vec<DataFrame> = Slices::new(files(d, "empty"), 3)
            .map(Result::unwrap)
            .collect();
        assert_eq!(empty.len(), 1);
        assert_eq!((empty[0].height(), empty[0].width()), (0, 2));
        assert_eq!(Slices::new(Vec::new(), 3).count(), 0);
        let Err(e) = read(d, "absent", None) else {
            panic!("an absent frame reads")
        };
        let e = e.to_string();
        assert!(
            e.contains("no frame absent") && e.contains("haifu ingest"),
            "{e}"
        );
    }
}
