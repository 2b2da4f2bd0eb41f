//! A frame on disk as one table whatever its layout: `DIR/<name>.parquet` (one file), or
//! `DIR/<name>/part-NNNNN.parquet` (parts, one Parquet file each, read in name order), or both
//! (the one file first). A glob `DIR/<name>/*.parquet` reads the parts in DuckDB or Spark.
//!
//! Invariants: a part exists under its final name only once it is complete (it is written
//! under a dot-name in the same directory and renamed); names starting with a dot are never
//! read; part numbers only grow, so a new part sorts after every part before it.

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

/// Every file of frame `name` in `dir`, in reading order (empty when there is none).
pub(crate) fn files(dir: &Path, name: &str) -> Vec<PathBuf> {
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
