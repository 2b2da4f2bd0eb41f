//! Input discovery and reading: paths → sorted file list → decompressed bytes.
//!
//! A file is recognised by its content, never its name: gzip magic (1f 8b) means gzip,
//! anything else is taken as plain XML and left to the decoder to accept or refuse.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::reason::{Failure, Reason};

/// Largest decompressed log accepted; real mjlogs are under 100 KiB.
pub(crate) const MAX_LOG_BYTES: u64 = 64 << 20;

/// An input that could not even be listed (a missing path, an unreadable directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListingError {
    pub(crate) path: PathBuf,
    pub(crate) reason: Failure,
}

/// Expands files and directories (recursively) into a sorted, de-duplicated list of regular
/// files. Paths that cannot be listed or read as files (missing paths, unreadable
/// directories, FIFOs, sockets, devices, directory symlink loops) are returned as errors so
/// the caller can account for them; nothing is ever opened that could block.
pub(crate) fn collect_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<ListingError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        walk(input, &mut Vec::new(), &mut files, &mut errors);
    }
    files.sort();
    files.dedup();
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    errors.dedup();
    (files, errors)
}

/// `ancestors` are the canonical paths of the directories being walked above `path`; a
/// directory that is its own ancestor (through a symlink) is a loop, not walked again. The
/// same directory reached by two separate paths is walked twice, as given.
fn walk(
    path: &Path,
    ancestors: &mut Vec<PathBuf>,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<ListingError>,
) {
    let unreadable = |errors: &mut Vec<ListingError>, why: String| {
        errors.push(ListingError {
            path: path.to_path_buf(),
            reason: Failure::new(Reason::Unreadable, why),
        })
    };
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return unreadable(errors, e.to_string()),
    };
    if meta.is_file() {
        files.push(path.to_path_buf());
        return;
    }
    if !meta.is_dir() {
        return unreadable(
            errors,
            "not a regular file or directory (a FIFO, socket or device)".into(),
        );
    }
    let canonical = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if ancestors.contains(&canonical) {
        return unreadable(errors, "a directory symlink loop".into());
    }
    let entries = match fs::read_dir(path) {
        Ok(rd) => rd,
        Err(e) => return unreadable(errors, format!("directory: {e}")),
    };
    // (path, known to be a regular file): the directory entry's own type spares a stat per
    // file; symbolic links and anything else are looked at through `walk`.
    let mut children: Vec<(PathBuf, bool)> = Vec::new();
    for entry in entries {
        match entry {
            Ok(e) => {
                let regular = e.file_type().is_ok_and(|t| t.is_file());
                children.push((e.path(), regular));
            }
            Err(e) => unreadable(errors, format!("directory entry: {e}")),
        }
    }
    children.sort_unstable();
    ancestors.push(canonical);
    for (c, regular) in children {
        if regular {
            files.push(c);
        } else {
            walk(&c, ancestors, files, errors);
        }
    }
    ancestors.pop();
}

/// True when `bytes` start with the gzip magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// Reads `path` into `raw` and, when it is gzip, decompresses into `out`; returns the
/// document bytes (one of the two buffers).
pub fn read_log<'a>(
    path: &Path,
    raw: &'a mut Vec<u8>,
    out: &'a mut Vec<u8>,
) -> Result<&'a [u8], Failure> {
    raw.clear();
    let unreadable = |e: std::io::Error| Failure::new(Reason::Unreadable, e.to_string());
    let mut f = fs::File::open(path).map_err(unreadable)?;
    f.read_to_end(raw).map_err(unreadable)?;
    decompress(raw, out)
}

/// The document inside `raw`: gunzipped into `out` when gzip, else `raw` itself.
pub fn decompress<'a>(raw: &'a [u8], out: &'a mut Vec<u8>) -> Result<&'a [u8], Failure> {
    if !is_gzip(raw) {
        if raw.len() as u64 > MAX_LOG_BYTES {
            return Err(Failure::new(
                Reason::TooLarge,
                format!("{} bytes", raw.len()),
            ));
        }
        return Ok(raw);
    }
    out.clear();
    let mut dec = MultiGzDecoder::new(raw).take(MAX_LOG_BYTES + 1);
    dec.read_to_end(out)
        .map_err(|e| Failure::new(Reason::CorruptGzip, e.to_string()))?;
    if out.len() as u64 > MAX_LOG_BYTES {
        return Err(Failure::new(
            Reason::TooLarge,
            format!("decompresses to more than {MAX_LOG_BYTES} bytes"),
        ));
    }
    Ok(out)
}

/// The frame `game_id` of a file: its Tenhou log id, or `<parent>/<stem>` when the name has none.
pub fn game_id_for(path: &Path) -> String {
    if let Some(id) = path
        .file_name()
        .and_then(|n| find_log_id(&n.to_string_lossy()))
    {
        return id;
    }
    let stem = game_id_from_path(path);
    match path.parent().and_then(Path::file_name) {
        Some(p) => format!("{}/{stem}", p.to_string_lossy()),
        None => stem,
    }
}

/// Extensions log files are saved under; stripped from a name to make a game id.
const LOG_EXTENSIONS: [&str; 6] = ["gz", "mjlog", "xml", "txt", "log", "html"];

/// The Tenhou log id in a file name (`2024041200gm-00a9-0000-0123abcd`), or the name without
/// its log extensions (`.xml`, `.mjlog.gz`, …) when it carries none.
pub(crate) fn game_id_from_path(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(id) = find_log_id(&name) {
        return id;
    }
    let mut stem = name.as_str();
    while let Some((head, ext)) = stem.rsplit_once('.') {
        if head.is_empty() || !LOG_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) {
            break;
        }
        stem = head;
    }
    stem.to_string()
}

/// `YYYY-MM-DD` of a Tenhou log id (`2024041200gm-…`), from its first eight digits.
pub(crate) fn date_of(game_id: &str) -> Option<String> {
    let b = game_id.as_bytes();
    (b.len() >= 12 && b[..10].iter().all(u8::is_ascii_digit) && &b[10..12] == b"gm")
        .then(|| format!("{}-{}-{}", &game_id[..4], &game_id[4..6], &game_id[6..8]))
}

/// Finds `\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}` in `s`.
pub fn find_log_id(s: &str) -> Option<String> {
    let b = s.as_bytes();
    const LEN: usize = 10 + 3 + 4 + 1 + 4 + 1 + 8;
    if b.len() < LEN {
        return None;
    }
    (0..=b.len() - LEN).find_map(|i| {
        let w = &b[i..i + LEN];
        let digits = |r: std::ops::Range<usize>| w[r].iter().all(u8::is_ascii_digit);
        let hex = |r: std::ops::Range<usize>| w[r].iter().all(u8::is_ascii_hexdigit);
        let ok = digits(0..10)
            && &w[10..13] == b"gm-"
            && hex(13..17)
            && w[17] == b'-'
            && digits(18..22)
            && w[22] == b'-'
            && hex(23..31);
        ok.then(|| s[i..i + LEN].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ids() {
        assert_eq!(
            game_id_from_path(Path::new("/x/2024041200gm-00a9-0000-0123abcd.mjlog")),
            "2024041200gm-00a9-0000-0123abcd"
        );
        assert_eq!(
            game_id_from_path(Path::new("log=2024041200gm-00a9-0000-0123abcd&tw=1.xml")),
            "2024041200gm-00a9-0000-0123abcd"
        );
        assert_eq!(game_id_from_path(Path::new("dir/example.xml")), "example");
        assert_eq!(
            game_id_from_path(Path::new("log.d5260162.mjlog.gz")),
            "log.d5260162"
        );
    }

    #[test]
    fn gzip_is_sniffed_and_corruption_reported() {
        use flate2::write::GzEncoder;
        use std::io::Write;
        let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"<mjloggm/>").unwrap();
        let gz = enc.finish().unwrap();
        let mut out = Vec::new();
        assert_eq!(decompress(&gz, &mut out).unwrap(), b"<mjloggm/>");
        assert_eq!(decompress(b"<mjloggm/>", &mut out).unwrap(), b"<mjloggm/>");
        let cut = &gz[..gz.len() - 6];
        assert_eq!(
            decompress(cut, &mut out).unwrap_err().reason,
            Reason::CorruptGzip
        );
    }
}
