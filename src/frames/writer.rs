//! Frames written as Parquet under temporary names, renamed into place together.
//!
//! Invariants: a frame file exists under its final name only once it is complete; until then
//! it is written under a temporary name in the same directory. A frame [`FrameWriter::roll`]ed
//! into several files is committed in the parts layout (`<name>/part-NNNNN.parquet`, in the
//! order written), one written to one file as `<name>.parquet`; either replaces the frame's
//! other layout.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use polars::prelude::*;
use polars_parquet::write::{CompressionOptions, Version, WriteOptions};

use super::FrameChunk;

/// How the chunks' pages are encoded: what `ParquetWriter` makes of the settings given in
/// [`FrameWriter::open`] (LZ4, polars' default statistics, Parquet format 1), so that row groups
/// from a chunk and from a DataFrame are written alike.
fn write_options() -> WriteOptions {
    WriteOptions {
        statistics: StatisticsOptions::default(),
        version: Version::V1,
        compression: CompressionOptions::Lz4Raw,
        data_page_size: None,
    }
}

/// A buffered file shared between a Parquet writer and its owner, so that the owner can
/// flush it (and see the error) once the writer has written the footer.
#[derive(Clone)]
struct SharedFile(Arc<Mutex<BufWriter<File>>>);

impl Write for SharedFile {
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

/// A frame (or another file) being written.
struct Entry {
    name: String,
    /// The file open for writing; `None` once finished (or for a file of `write_file`).
    open: Option<OpenFrame>,
    /// The frame's files so far, the open one included (0 for a file of `write_file`).
    files: usize,
    /// Row groups written by `write_chunk` into the open file.
    row_groups: usize,
    /// Rolled: the next write opens the frame's next file.
    rolled: bool,
}

/// Writes frames as Parquet under temporary names in `dir`, renamed into place by
/// [`FrameWriter::commit`].
pub(crate) struct FrameWriter {
    dir: PathBuf,
    tag: String,
    writers: Vec<Entry>,
}

impl FrameWriter {
    pub(crate) fn new(dir: &Path) -> std::io::Result<Self> {
        fs::create_dir_all(dir)?;
        Ok(FrameWriter {
            dir: dir.to_path_buf(),
            tag: format!("tmp-{}", std::process::id()),
            writers: Vec::new(),
        })
    }

    /// Temporary path of a frame or file being written.
    pub(crate) fn temp_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!(".{name}.{}", self.tag))
    }

    /// Temporary path of file `k` of frame `name` (the first is [`Self::temp_path`]'s).
    fn part_path(&self, name: &str, k: usize) -> PathBuf {
        if k == 0 {
            self.temp_path(&format!("{name}.parquet"))
        } else {
            self.temp_path(&format!("{name}.part-{k:05}.parquet"))
        }
    }

    /// The temporary files of frame `name` written so far, in order (the open one last).
    pub(crate) fn temp_files(&self, name: &str) -> Vec<PathBuf> {
        let files = self
            .writers
            .iter()
            .find(|e| e.name == name)
            .map_or(0, |e| e.files);
        (0..files).map(|k| self.part_path(name, k)).collect()
    }

    /// Opens file `k` of frame `name` with `schema`.
    fn create(&self, name: &str, k: usize, schema: &Schema) -> PolarsResult<OpenFrame> {
        // Buffered: the writer emits many small pieces (page headers, metadata).
        let file = SharedFile(Arc::new(Mutex::new(BufWriter::with_capacity(
            1 << 20,
            File::create(self.part_path(name, k))?,
        ))));
        // The same settings as `write_options` (polars spells the compression its own way).
        let writer = ParquetWriter::new(file.clone())
            .with_compression(ParquetCompression::Lz4Raw)
            .with_statistics(write_options().statistics)
            .batched(schema)?;
        Ok(OpenFrame { writer, file })
    }

    /// The index of frame `name`'s entry, its file opened with `schema` if it has none yet or
    /// was rolled.
    fn open(&mut self, name: &str, schema: &Schema) -> PolarsResult<usize> {
        let Some(i) = self.writers.iter().position(|e| e.name == name) else {
            let open = self.create(name, 0, schema)?;
            self.writers.push(Entry {
                name: name.to_string(),
                open: Some(open),
                files: 1,
                row_groups: 0,
                rolled: false,
            });
            return Ok(self.writers.len() - 1);
        };
        if self.writers[i].rolled {
            let open = self.create(name, self.writers[i].files, schema)?;
            let e = &mut self.writers[i];
            (e.open, e.files, e.row_groups, e.rolled) = (Some(open), e.files + 1, 0, false);
        }
        Ok(i)
    }

    /// The open writer of frame `name`; an error once the frame is finished.
    fn open_frame(&mut self, name: &str, schema: &Schema) -> PolarsResult<&mut OpenFrame> {
        let idx = self.open(name, schema)?;
        match self.writers[idx].open.as_mut() {
            Some(w) => Ok(w),
            None => polars_bail!(InvalidOperation: "frame {name} is already finished"),
        }
    }

    /// Row groups `write_chunk` wrote into frame `name`'s open file (0 when none is open).
    pub(crate) fn row_groups(&self, name: &str) -> usize {
        self.writers
            .iter()
            .find(|e| e.name == name && e.open.is_some())
            .map_or(0, |e| e.row_groups)
    }

    /// Finishes frame `name`'s open file; its next rows go to a new file, and the frame is
    /// committed in parts. Nothing happens to a frame without an open file.
    pub(crate) fn roll(&mut self, name: &str) -> PolarsResult<()> {
        if let Some(e) = self
            .writers
            .iter_mut()
            .find(|e| e.name == name && e.open.is_some())
        {
            e.open.take().expect("open").finish()?;
            e.rolled = true;
        }
        Ok(())
    }

    /// Appends `df` as row groups of frame `name`; an error once the frame is finished.
    pub(crate) fn write(&mut self, name: &str, df: &DataFrame) -> PolarsResult<()> {
        self.open_frame(name, df.schema())?.writer.write_batch(df)
    }

    /// Appends `chunk` as one row group of frame `name` (a chunk without rows only opens the
    /// file with its schema); an error once the frame is finished or when the schema differs
    /// from the frame's.
    pub(crate) fn write_chunk(&mut self, name: &str, chunk: &FrameChunk) -> PolarsResult<()> {
        // A rolled frame already has its schema in a file: no empty file after it.
        if chunk.height() == 0 && self.writers.iter().any(|e| e.name == name && e.rolled) {
            return Ok(());
        }
        let frame = self.open_frame(name, chunk.schema())?;
        let fields = frame.writer.parquet_schema().fields().to_vec();
        let expected = polars_parquet::write::to_parquet_schema(&chunk.arrow_schema())?;
        polars_ensure!(
            expected.fields() == fields.as_slice(),
            SchemaMismatch: "frame {name}: a chunk's columns differ from the frame's"
        );
        if chunk.height() == 0 {
            return Ok(());
        }
        let row_group = chunk.row_group(&fields, write_options())?;
        frame.writer.write_row_groups(vec![row_group])?;
        if let Some(e) = self.writers.iter_mut().find(|e| e.name == name) {
            e.row_groups += 1;
        }
        Ok(())
    }

    /// Finishes the Parquet file of frame `name` (if open), so that it can be read back.
    pub(crate) fn finish_frame(&mut self, name: &str) -> PolarsResult<()> {
        for e in &mut self.writers {
            if e.name == name {
                if let Some(w) = e.open.take() {
                    w.finish()?;
                }
            }
        }
        Ok(())
    }

    /// Finishes every Parquet file; nothing is under its final name yet.
    pub(crate) fn finish(&mut self) -> PolarsResult<()> {
        for e in &mut self.writers {
            if let Some(w) = e.open.take() {
                w.finish()?;
            }
        }
        Ok(())
    }

    /// Writes a temporary file for `name` (renamed by `commit`) through `write`.
    pub(crate) fn write_file(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut file = BufWriter::new(File::create(self.temp_path(name))?);
        write(&mut file)?;
        file.flush()?;
        if !self.writers.iter().any(|e| e.name == name) {
            self.writers.push(Entry {
                name: name.to_string(),
                open: None,
                files: 0,
                row_groups: 0,
                rolled: false,
            });
        }
        Ok(())
    }

    /// Renames every temporary file to its final name, `last` (the manifest) last: a frame
    /// written to several files into its parts directory (replacing its one file and its
    /// earlier parts), a frame written to one file as `<name>.parquet`.
    pub(crate) fn commit(&mut self, last: &str) -> std::io::Result<()> {
        let single = |e: &Entry| {
            if e.name.contains('.') {
                e.name.clone()
            } else {
                format!("{}.parquet", e.name)
            }
        };
        let mut names: Vec<String> = self
            .writers
            .iter()
            .filter(|e| e.files <= 1)
            .map(single)
            .collect();
        names.sort_by_key(|n| n == last);
        // An ingest (the writer that ends with the manifest) replaces the whole output: a
        // frame written only on request by an earlier ingest (`decisions`, ingested again
        // without --with decisions) would be out of step with the new frames, so it goes. A writer
        // of a few frames (`haifu danger-eval`) leaves the others alone.
        let written = |f: &str| self.writers.iter().any(|e| e.name == f);
        if last == "manifest.json" {
            for f in super::ON_REQUEST_FRAMES {
                if !written(f) {
                    let _ = fs::remove_file(self.dir.join(format!("{f}.parquet")));
                }
            }
        }
        // The frames in parts first: the manifest still describes the output until it is
        // renamed, last.
        for e in self.writers.iter().filter(|e| e.files > 1) {
            let one = self.dir.join(single(e));
            if one.exists() {
                fs::remove_file(&one)?;
            }
            super::dataset::remove_parts(&self.dir, &e.name).map_err(std::io::Error::other)?;
            let parts = self.dir.join(&e.name);
            fs::create_dir_all(&parts)?;
            for k in 0..e.files {
                fs::rename(
                    self.part_path(&e.name, k),
                    parts.join(format!("part-{k:05}.parquet")),
                )?;
            }
        }
        for n in names {
            fs::rename(self.temp_path(&n), self.dir.join(&n))?;
        }
        // An ingest into a directory that an append or a merge left in parts: the frames'
        // new files replace their parts (else both would be read), and `phoenix-table`'s.
        if last == "manifest.json" {
            for f in super::FRAMES.iter().chain(&super::ON_REQUEST_FRAMES) {
                if self.writers.iter().any(|e| e.name == *f && e.files > 1) {
                    continue;
                }
                super::dataset::remove_parts(&self.dir, f).map_err(std::io::Error::other)?;
            }
        }
        Ok(())
    }

    /// Removes the temporary files (a refused or failed run).
    pub(crate) fn abandon(&mut self) {
        for e in std::mem::take(&mut self.writers) {
            drop(e.open);
            if e.files == 0 {
                let _ = fs::remove_file(self.temp_path(&e.name));
            }
            for k in 0..e.files {
                let _ = fs::remove_file(self.part_path(&e.name, k));
            }
        }
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so
/// `path` never holds a partial file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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

    /// A frame's file reports the error of its last flush, after the footer (a disk that
    /// fills then would otherwise leave a truncated frame and no error). `/dev/full` takes
    /// the buffered writes and fails the flush.
    #[test]
    fn finishing_a_frame_reports_a_failed_flush() {
        let Ok(dev_full) = File::options().write(true).open("/dev/full") else {
            eprintln!("no /dev/full here: skipped");
            return;
        };
        let file = SharedFile(Arc::new(Mutex::new(BufWriter::with_capacity(
            1 << 20,
            dev_full,
        ))));
        let df = df!("x" => [1i32, 2, 3]).unwrap();
        let mut writer = ParquetWriter::new(file.clone())
            .batched(df.schema())
            .unwrap();
        writer.write_batch(&df).unwrap();
        let frame = OpenFrame { writer, file };
        assert!(frame.finish().is_err());
    }

    /// An ingest (its writer ends with the manifest) replaces the whole output: a frame that an
    /// earlier ingest wrote on request and this one did not is removed. A writer of a few
    /// frames (`haifu danger-eval`) leaves it; an ingest that writes it again replaces it.
    #[test]
    fn an_ingest_removes_an_earlier_on_request_frame() {
        let dir = tempfile::tempdir().unwrap();
        let earlier = dir
            .path()
            .join(format!("{}.parquet", super::super::DECISIONS));
        let commit = |files: &[&str], last: &str| {
            let mut w = FrameWriter::new(dir.path()).unwrap();
            for name in files {
                w.write_file(name, |f| f.write_all(b"new")).unwrap();
            }
            w.commit(last).unwrap();
        };
        fs::write(&earlier, b"earlier").unwrap();
        commit(
            &["danger_eval_summary.parquet"],
            "danger_eval_summary.parquet",
        );
        assert_eq!(fs::read(&earlier).unwrap(), b"earlier");
        commit(&["manifest.json"], "manifest.json");
        assert!(!earlier.exists());
        fs::write(&earlier, b"earlier").unwrap();
        commit(&["decisions.parquet", "manifest.json"], "manifest.json");
        assert_eq!(fs::read(&earlier).unwrap(), b"new");
    }

    /// A refused or failed run leaves nothing behind: `abandon` removes every temporary file,
    /// frames (open or finished) and other files alike.
    #[test]
    fn abandon_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = FrameWriter::new(dir.path()).unwrap();
        let df = df!("x" => [1i32]).unwrap();
        w.write("games", &df).unwrap();
        w.write("hands", &df).unwrap();
        w.finish_frame("hands").unwrap();
        w.write_file("manifest.json", |f| f.write_all(b"{}"))
            .unwrap();
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
        w.abandon();
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// A rolled frame is committed in parts, in the order written, replacing its one file and
    /// its earlier parts; an empty chunk after a roll opens no file; a frame never rolled
    /// stays one file; `abandon` removes every part.
    #[test]
    fn a_rolled_frame_is_committed_in_parts() {
        let dir = tempfile::tempdir().unwrap();
        let read = |p: &Path| -> Vec<i32> {
            let df = ParquetReader::new(File::open(p).unwrap()).finish().unwrap();
            df.column("n")
                .unwrap()
                .i32()
                .unwrap()
                .into_no_null_iter()
                .collect()
        };
        let chunk = |v: Vec<i32>| FrameChunk::default().int("n", v);
        fs::write(dir.path().join("t.parquet"), b"earlier").unwrap();
        fs::create_dir(dir.path().join("t")).unwrap();
        fs::write(dir.path().join("t").join("part-00007.parquet"), b"earlier").unwrap();
        let mut w = FrameWriter::new(dir.path()).unwrap();
        // `u`, opened first, is never rolled: rolling `t` (or a frame without a file) leaves it.
        w.write_chunk("u", &chunk(vec![5])).unwrap();
        w.roll("absent").unwrap();
        w.write_chunk("t", &chunk(vec![1, 2])).unwrap();
        w.write_chunk("t", &chunk(vec![3])).unwrap();
        assert_eq!(w.row_groups("t"), 2);
        assert_eq!(w.row_groups("u"), 1);
        w.roll("t").unwrap();
        assert_eq!(w.row_groups("t"), 0);
        w.write_chunk("t", &chunk(vec![4])).unwrap();
        assert_eq!(w.row_groups("t"), 1);
        w.roll("t").unwrap();
        w.write_chunk("t", &chunk(vec![])).unwrap();
        w.write_chunk("u", &chunk(vec![6])).unwrap();
        assert_eq!(w.temp_files("u").len(), 1);
        let temp = w.temp_files("t");
        assert_eq!(temp.len(), 2);
        assert_eq!(read(&temp[0]), [1, 2, 3]);
        assert_eq!(read(&temp[1]), [4]);
        w.finish().unwrap();
        w.commit("manifest.json").unwrap();
        assert!(!dir.path().join("t.parquet").exists());
        let mut parts: Vec<PathBuf> = fs::read_dir(dir.path().join("t"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        parts.sort();
        let names: Vec<_> = parts.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["part-00000.parquet", "part-00001.parquet"]);
        assert_eq!(read(&parts[0]), [1, 2, 3]);
        assert_eq!(read(&parts[1]), [4]);
        assert_eq!(read(&dir.path().join("u.parquet")), [5, 6]);
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "t/ and u only"
        );

        let other = tempfile::tempdir().unwrap();
        let mut w = FrameWriter::new(other.path()).unwrap();
        w.write_chunk("t", &chunk(vec![1])).unwrap();
        w.roll("t").unwrap();
        w.write_chunk("t", &chunk(vec![2])).unwrap();
        w.abandon();
        assert_eq!(fs::read_dir(other.path()).unwrap().count(), 0);
    }

    /// The manifest is renamed into place last: when a rename before it fails, the output has
    /// no new manifest (which would describe frames that are not there).
    #[test]
    fn the_manifest_is_committed_last() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = FrameWriter::new(dir.path()).unwrap();
        for name in ["manifest.json", "a.csv", "b.csv"] {
            w.write_file(name, |f| f.write_all(name.as_bytes()))
                .unwrap();
        }
        fs::remove_file(w.temp_path("b.csv")).unwrap();
        assert!(w.commit("manifest.json").is_err());
        assert!(dir.path().join("a.csv").exists());
        assert!(!dir.path().join("manifest.json").exists());
    }
}
