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
const LOG_EXTENSIONS: [&str; 10] = [
    "gz", "mjlog", "xml", "txt", "log", "html", "json", "jsonl", "mjson", "mjai",
];

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

/// True when `s` is a Tenhou log id in its plain form (as [`find_log_id`] gives it).
pub(crate) fn is_log_id(s: &str) -> bool {
    find_log_id(s).is_some_and(|id| id == s)
}

/// `YYYY-MM-DD` of a Tenhou log id (`2024041200gm-…`), from its first eight digits.
pub(crate) fn date_of(game_id: &str) -> Option<String> {
    let b = game_id.as_bytes();
    (b.len() >= 12 && b[..10].iter().all(u8::is_ascii_digit) && &b[10..12] == b"gm")
        .then(|| format!("{}-{}-{}", &game_id[..4], &game_id[4..6], &game_id[6..8]))
}

/// The GO type a Tenhou log id names (its third field, four hex digits: `00a9` for Phoenix
/// hanchan with red fives), when `game_id` is one.
pub(crate) fn go_type_of(game_id: &str) -> Option<u32> {
    let id = find_log_id(game_id)?;
    u32::from_str_radix(&id[13..17], 16).ok()
}

/// Finds a Tenhou log id in `s` (a file name, a URL) and returns it in its plain form.
///
/// Tenhou writes a log id as `YYYYMMDDHHgm-TTTT-LLLL-HHHHHHHH`: ten digits of date and hour,
/// `gm`, the rule type in four hex digits, the lobby in four digits (`0000`, `7447`) or five
/// (`10011`, championship lobbies), and eight hex digits. Its viewer URLs and some downloads
/// carry the last field obfuscated instead, as `x` and twelve hex digits
/// (`2012060420gm-0009-10011-x87ee6e5d3b7a`); that form is turned back into the eight hex
/// digits the way Tenhou's own viewer does ([`deobfuscate`]), so both forms name one game.
pub fn find_log_id(s: &str) -> Option<String> {
    let b = s.as_bytes();
    (0..b.len()).find_map(|i| {
        let rest = &b[i..];
        let digits = |w: &[u8]| w.iter().all(u8::is_ascii_digit);
        let hex = |w: &[u8]| w.iter().all(u8::is_ascii_hexdigit);
        if rest.len() < 10 + 3 + 4 + 1 + 4 + 1 + 8
            || !digits(&rest[..10])
            || &rest[10..13] != b"gm-"
            || !hex(&rest[13..17])
            || rest[17] != b'-'
        {
            return None;
        }
        let lobby = rest[18..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(4..=5).contains(&lobby) || rest.get(18 + lobby) != Some(&b'-') {
            return None;
        }
        let head = &s[i..i + 18 + lobby + 1];
        let tail = &rest[18 + lobby + 1..];
        if tail.len() >= 13 && tail[0] == b'x' && hex(&tail[1..13]) {
            let code = std::str::from_utf8(&tail[1..13]).expect("hex digits are ASCII");
            return Some(format!("{head}{}", deobfuscate(&head[..10], code)));
        }
        (tail.len() >= 8 && hex(&tail[..8])).then(|| format!("{head}{}", &s[i + head.len()..][..8]))
    })
}

/// The plain last field of an obfuscated log id: `code` is the twelve hex digits after `x`,
/// `date_hour` the id's first ten digits. Tenhou's viewer splits the code into three 16-bit
/// words a, b, c and, with t = [`OBFUSCATION_TABLE`] and i = 0 for ids before
/// `2010041111gm`, else i = int("3" + digits 4..10) mod (33 − digit 9), writes
/// hex4(a ^ b ^ t[i]) + hex4(b ^ c ^ t[i] ^ t[i + 1]).
fn deobfuscate(date_hour: &str, code: &str) -> String {
    let word = |k: usize| u16::from_str_radix(&code[4 * k..4 * k + 4], 16).expect("hex digits");
    let (a, b, c) = (word(0), word(1), word(2));
    let i = if format!("{date_hour}gm").as_str() >= "2010041111gm" {
        let x: u64 = format!("3{}", &date_hour[4..10]).parse().expect("digits");
        let y = u64::from(date_hour.as_bytes()[9] - b'0');
        (x % (33 - y)) as usize
    } else {
        0
    };
    let t = OBFUSCATION_TABLE;
    format!("{:04x}{:04x}", a ^ b ^ t[i], b ^ c ^ t[i] ^ t[i + 1])
}

/// The key table of Tenhou's log-id obfuscation (from its viewer).
const OBFUSCATION_TABLE: [u16; 34] = [
    22136, 52719, 55146, 42104, 59591, 46934, 9248, 28891, 49597, 52974, 62844, 4015, 18311, 50730,
    43056, 17939, 64838, 38145, 27008, 39128, 35652, 63407, 65535, 23473, 35164, 55230, 27536,
    4386, 64920, 29075, 42617, 17294, 18868, 2081,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every log-id form Tenhou writes.
    #[test]
    fn log_id_forms() {
        let id = |s: &str| find_log_id(s);
        // Plain, four-digit lobby.
        let plain = "2024041200gm-00a9-0000-0123abcd";
        assert_eq!(id(plain).as_deref(), Some(plain));
        // A private lobby.
        assert_eq!(
            id("2016031512gm-0009-7447-e3a85a5c.mjlog").as_deref(),
            Some("2016031512gm-0009-7447-e3a85a5c")
        );
        // Five-digit (championship) lobby.
        let five = "2019020120gm-0009-10011-215330df";
        assert_eq!(id(&format!("{five}.mjlog")).as_deref(), Some(five));
        // In a viewer URL, with the seat suffix.
        assert_eq!(
            id(&format!("https://tenhou.net/0/?log={plain}&tw=2")).as_deref(),
            Some(plain)
        );
        // Obfuscated: `x` and 12 hex digits. For 2012060421gm the key index is
        // int("3" + "060421") mod (33 − 1) = 3060421 mod 32 = 3060421 − 32 · 95638 = 5; with
        // a, b, c = 0x87ee, 0x6e5d, 0x3b7a and t[5] = 46934 (0xb756), t[6] = 9248 (0x2420):
        // a ^ b ^ t[5] = 0xe9b3 ^ 0xb756 = 0x5ee5,
        // b ^ c ^ t[5] ^ t[6] = 0x5527 ^ 0xb756 ^ 0x2420 = 0xc651.
        assert_eq!(
            id("2012060421gm-0009-10011-x87ee6e5d3b7a").as_deref(),
            Some("2012060421gm-0009-10011-5ee5c651")
        );
        // Before 2010-04-11 11h the key index is 0: t[0] = 0x5678, t[1] = 0xcdef;
        // 0x0001 ^ 0x0002 ^ 0x5678 = 0x567b, 0x0002 ^ 0x0003 ^ 0x5678 ^ 0xcdef = 0x9b96.
        assert_eq!(
            id("2009082713gm-00e1-0000-x000100020003").as_deref(),
            Some("2009082713gm-00e1-0000-567b9b96")
        );
        // Not log ids: a three- or six-digit lobby, a short hash, no `gm`.
        for bad in [
            "2024041200gm-00a9-000-0123abcd",
            "2024041200gm-00a9-000000-0123abcd",
            "2024041200gm-00a9-0000-0123abc",
            "2024041200xx-00a9-0000-0123abcd",
            "20240412gm-00a9-0000-0123abcd",
        ] {
            assert_eq!(id(bad), None, "{bad}");
        }
        assert_eq!(date_of(five).as_deref(), Some("2019-02-01"));
        assert_eq!(date_of("misc/local-game"), None);
    }

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
