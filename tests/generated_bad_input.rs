//! A bad-input suite generated from real games: truncation at every tag boundary, single-byte
//! flips (of the XML and of its gzip), attribute removals, tile-id corruption, duplicated
//! games, junk files (an HTML page, empty, random bytes, truncated gzip) and paths that cannot
//! be read as files (dangling and self-referential symlinks, a FIFO).
//!
//! Sources: the five fixture games (always; `fixtures/` holds f002 twice, as .xml and .mjlog,
//! and the copy is dropped by log id) and the first three files of `../shared/corpus/phoenix`
//! in sorted order (skipped loudly when the corpus is absent).
//!
//! The cases of one kind are written as files into one input directory and ingested by ONE
//! run. Every run is checked against the contract of docs/inputs.md (the manifest):
//! - no panic and no hang (a run that panics is bisected down to one file, which is reported;
//!   a run still going after [`HANG_LIMIT`] aborts the test binary);
//! - every input path is in `manifest.files` exactly once, and nothing else is;
//! - every non-ok entry has a reason `name: detail` with a name docs/inputs.md documents for its
//!   status (replay check names outside its list are listed in the table, not failed);
//! - totals agree with the entries, and `totals.games`/`totals.hands` with the heights of the
//!   `games`/`hands` frames;
//! - the exit status is 2 when a file failed, else 0 (runs of the binary check the real one);
//! - each case's own expectation ([`Expect`]): many mutations may legitimately still replay
//!   (a flipped byte in a player's name), so those are only counted.
//!
//! `cargo test --release --test generated_bad_input -- --nocapture` prints, per source, the
//! cases by kind and the outcomes by status and reason. Sampling keeps a run of the whole
//! suite to a few seconds in release: [`FLIPS`] flips per game, [`GZIP_FLIPS`] flips of the
//! gzip per game, attribute removals of the first [`ATTR_OCCURRENCES`] occurrences of each tag
//! (plus every INIT/AGARI/RYUUKYOKU), [`TILE_TAGS`] draws and discards per game (evenly
//! spaced), every INIT/DORA/AGARI/RYUUKYOKU tile attribute once per tag. Truncation is not
//! sampled: every tag boundary of every game is a case.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{fixtures, frame, run_ingest};
use haifu::ingest::{IngestSummary, RoomFilter};
use haifu::manifest::{FileEntry, ManifestDocument, Status};

/// Single-byte flips of each game's XML.
const FLIPS: usize = 300;
/// Single-byte flips of each game's gzip encoding.
const GZIP_FLIPS: usize = 60;
/// Attribute removals: every attribute of the first this-many occurrences of each tag name.
const ATTR_OCCURRENCES: usize = 3;
/// Tile-id corruption: this many draw tags and this many discard tags per game.
const TILE_TAGS: usize = 20;
/// An in-process run still going after this long is a hang: the test binary aborts.
const HANG_LIMIT: Duration = Duration::from_secs(180);
/// A run of the binary still going after this long is killed and reported as a hang.
const BINARY_LIMIT: Duration = Duration::from_secs(20);

/// Reason names docs/inputs.md documents for failed files.
const FAILURE_NAMES: &[&str] = &[
    "unreadable",
    "corrupt-gzip",
    "too-large",
    "empty",
    "not-mjlog",
    "xml",
    "bad-tile",
    "bad-attribute",
    "missing-attribute",
    "bad-meld",
    "no-go",
    "replay",
];
/// Reason names docs/inputs.md documents for skipped files.
const SKIP_NAMES: &[&str] = &["three-player", "room", "unknown-rules", "duplicate"];
/// Replay checks docs/inputs.md documents (`replay: hand N: <check>: detail`).
const REPLAY_CHECKS: &[&str] = &[
    "duplicate-tile",
    "hand-size",
    "out-of-turn",
    "not-in-hand",
    "bad-call",
    "bad-riichi",
    "agari-mismatch",
    "stick-mismatch",
    "score-mismatch",
    "win-score-mismatch",
    "shown-hand-mismatch",
    "truncated",
    "after-end",
    "after-owari",
];

// ---------------------------------------------------------------------------------------------
// Source games

/// One source game: its Tenhou log id and its (decompressed) XML.
struct Game {
    id: String,
    xml: Vec<u8>,
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a source game decompresses");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// The first `limit` distinct games (by log id) of `dir`, in sorted file order.
fn load_games(dir: &Path, limit: usize) -> Vec<Game> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let mut games: Vec<Game> = Vec::new();
    for p in paths {
        if games.len() == limit {
            break;
        }
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let id = haifu::input::find_log_id(&name)
            .unwrap_or_else(|| panic!("{}: no log id in the name", p.display()));
        if games.iter().any(|g| g.id == id) {
            continue; // fixtures/ holds f002 as .xml and .mjlog
        }
        let raw = std::fs::read(&p).unwrap();
        let xml = if haifu::input::is_gzip(&raw) {
            gunzip(&raw)
        } else {
            raw
        };
        games.push(Game { id, xml });
    }
    games
}

fn fixture_games() -> Vec<Game> {
    let games = load_games(&fixtures(), usize::MAX);
    assert_eq!(
        games.len(),
        10,
        "fixtures/ holds ten distinct games with a log id"
    );
    games
}

// ---------------------------------------------------------------------------------------------
// Cases

/// What a case must come out as.
#[derive(Clone, Debug, PartialEq)]
enum Expect {
    /// Anything (with a named reason when not ok): only counted.
    Any,
    /// Failed or skipped, with a named reason.
    NotOk,
    /// Failed; with this reason name when given.
    Failed(Option<&'static str>),
    Ok,
    /// Skipped as a duplicate of the file at this path.
    DuplicateOf(String),
}

impl Expect {
    fn accepts(&self, e: &FileEntry, name: &str) -> bool {
        match self {
            Expect::Any => true,
            Expect::NotOk => e.status != Status::Ok,
            Expect::Failed(want) => e.status == Status::Failed && want.is_none_or(|w| w == name),
            Expect::Ok => e.status == Status::Ok,
            Expect::DuplicateOf(first) => {
                e.status == Status::Skipped
                    && name == "duplicate"
                    && e.reason_text().is_some_and(|r| r.contains(first.as_str()))
            }
        }
    }
}

/// How a case's input path is made.
enum Make {
    Bytes(Vec<u8>),
    Symlink(PathBuf),
    Fifo,
}

struct Case {
    kind: &'static str,
    /// File name inside the run's input directory.
    file: String,
    make: Make,
    /// How to regenerate the input (source game and the exact mutation).
    what: String,
    /// Short mutation class (`INIT.hai0`, `draw dup`, …), to list the classes that stayed ok.
    label: String,
    expect: Expect,
}

/// A fresh log id per case, so that mutated copies of one game are not duplicates of each
/// other: the source's date and type, then the game index and case number.
fn case_id(game: &Game, g: usize, n: usize) -> String {
    format!("{}-0000-{g:02x}{n:06x}", &game.id[..17])
}

fn splice(xml: &[u8], (s, e): (usize, usize), new: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(xml.len() + new.len());
    out.extend_from_slice(&xml[..s]);
    out.extend_from_slice(new);
    out.extend_from_slice(&xml[e..]);
    out
}

fn lcg(x: u64) -> u64 {
    x.wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407)
}

/// `n` deterministic (position, non-zero XOR mask) pairs over `len` bytes.
fn flip_positions(seed: u64, len: usize, n: usize) -> Vec<(usize, u8)> {
    let mut x = seed ^ 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x = lcg(x);
            let pos = ((x >> 33) % len as u64) as usize;
            x = lcg(x);
            let mask = ((x >> 56) as u8 % 255) + 1;
            (pos, mask)
        })
        .collect()
}

/// An attribute occurrence: its name, the bytes removing it drops (leading space to closing
/// quote) and its value's range.
struct Attr {
    name: String,
    cut: (usize, usize),
    val: (usize, usize),
}

struct Tag {
    name: String,
    start: usize,
    attrs: Vec<Attr>,
}

impl Tag {
    fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// `(is_draw, seat, tile, range of the number)` of a `<T12/>`…`<G34/>` tag.
    fn tile_tag(&self) -> Option<(bool, usize, u8, (usize, usize))> {
        let (first, rest) = self.name.split_at_checked(1)?;
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (draw, seat) = match first {
            "T" => (true, 0),
            "U" => (true, 1),
            "V" => (true, 2),
            "W" => (true, 3),
            "D" => (false, 0),
            "E" => (false, 1),
            "F" => (false, 2),
            "G" => (false, 3),
            _ => return None,
        };
        let range = (self.start + 2, self.start + 1 + self.name.len());
        Some((draw, seat, rest.parse().ok()?, range))
    }
}

/// The start and empty tags of a Tenhou document (which has no text, comments or `>` inside
/// attribute values), with attribute positions.
fn scan(xml: &[u8]) -> Vec<Tag> {
    let mut tags = Vec::new();
    let mut i = 0;
    while let Some(off) = xml[i..].iter().position(|&b| b == b'<') {
        let start = i + off;
        let Some(len) = xml[start..].iter().position(|&b| b == b'>') else {
            break;
        };
        let end = start + len + 1;
        i = end;
        let inner = &xml[start + 1..end - 1];
        if matches!(inner.first(), Some(b'/' | b'?' | b'!')) {
            continue;
        }
        let name_len = inner
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'/')
            .unwrap_or(inner.len());
        let name = String::from_utf8_lossy(&inner[..name_len]).into_owned();
        let mut attrs = Vec::new();
        let mut j = start + 1 + name_len;
        loop {
            let ws = j;
            while j < end - 1 && xml[j].is_ascii_whitespace() {
                j += 1;
            }
            if j >= end - 1 || xml[j] == b'/' {
                break;
            }
            let Some(eq) = xml[j..end].iter().position(|&b| b == b'=') else {
                break;
            };
            let q = j + eq + 1;
            if xml[q] != b'"' {
                break;
            }
            let Some(close) = xml[q + 1..end].iter().position(|&b| b == b'"') else {
                break;
            };
            let close = q + 1 + close;
            attrs.push(Attr {
                name: String::from_utf8_lossy(&xml[j..j + eq]).trim().to_string(),
                cut: (ws, close + 1),
                val: (q + 1, close),
            });
            j = close + 1;
        }
        tags.push(Tag { name, start, attrs });
    }
    tags
}

/// The comma-separated items of a value: (start, end, text).
fn items(xml: &[u8], (s, e): (usize, usize)) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut a = s;
    for i in s..=e {
        if i == e || xml[i] == b',' {
            out.push((a, i, String::from_utf8_lossy(&xml[a..i]).into_owned()));
            a = i + 1;
        }
    }
    out
}

/// Truncation after every `>`. Cuts before the end of the tag carrying `owari` lose part of
/// the game and must fail; later cuts (only `</mjloggm>` missing) may replay; the last cut is
/// the whole document and must be ok.
fn truncations(g: usize, game: &Game) -> Vec<Case> {
    let xml = &game.xml;
    let complete = find(xml, b" owari=\"")
        .and_then(|i| xml[i..].iter().position(|&b| b == b'>').map(|j| i + j + 1))
        .unwrap_or(xml.len());
    let last = xml.iter().rposition(|&b| b == b'>').unwrap() + 1;
    xml.iter()
        .enumerate()
        .filter(|(_, &b)| b == b'>')
        .enumerate()
        .map(|(n, (i, _))| {
            let cut = i + 1;
            Case {
                kind: "truncate",
                file: format!("{}.cut{cut:06}.xml", case_id(game, g, n)),
                make: Make::Bytes(xml[..cut].to_vec()),
                what: format!("{}: first {cut} bytes (tag boundary {n})", game.id),
                label: String::new(),
                expect: if cut < complete {
                    Expect::Failed(None)
                } else if cut == last {
                    Expect::Ok
                } else {
                    Expect::Any
                },
            }
        })
        .collect()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn byte_flips(g: usize, game: &Game) -> Vec<Case> {
    flip_positions(g as u64, game.xml.len(), FLIPS)
        .into_iter()
        .enumerate()
        .map(|(n, (pos, mask))| {
            let mut b = game.xml.clone();
            b[pos] ^= mask;
            Case {
                kind: "byte-flip",
                file: format!("{}.flip{pos:06}.xml", case_id(game, g, n)),
                make: Make::Bytes(b),
                what: format!("{}: XML byte {pos} ^= 0x{mask:02x}", game.id),
                label: String::new(),
                expect: Expect::Any,
            }
        })
        .collect()
}

fn gzip_flips(g: usize, game: &Game) -> Vec<Case> {
    let gz = gzip(&game.xml);
    flip_positions(1000 + g as u64, gz.len(), GZIP_FLIPS)
        .into_iter()
        .enumerate()
        .map(|(n, (pos, mask))| {
            let mut b = gz.clone();
            b[pos] ^= mask;
            Case {
                kind: "gzip-byte-flip",
                file: format!("{}.gzflip{pos:05}.mjlog", case_id(game, g, n)),
                make: Make::Bytes(b),
                what: format!(
                    "{}: byte {pos} ^= 0x{mask:02x} of the XML gzipped by flate2 (default level)",
                    game.id
                ),
                label: String::new(),
                expect: Expect::Any,
            }
        })
        .collect()
}

/// What removing `attr` from a `tag` of a four-player game must give.
///
/// Attributes without which a game cannot be checked (docs/inputs.md, "The replay and its proof") must
/// not leave an ok game. An INIT without one of `hai0..3` in a game whose GO type says four
/// players is a corrupt log, not a three-player game to skip: it must fail (a skip would hide
/// it from the exit status and from `--strict`).
fn removal_expect(tag: &str, attr: &str) -> Expect {
    if tag == "INIT" && matches!(attr, "hai0" | "hai1" | "hai2" | "hai3") {
        return Expect::Failed(None);
    }
    if required(tag, attr) {
        Expect::NotOk
    } else {
        Expect::Any
    }
}

fn required(tag: &str, attr: &str) -> bool {
    match tag {
        "GO" => attr == "type",
        "INIT" => matches!(attr, "seed" | "ten" | "oya"),
        "AGARI" => matches!(
            attr,
            "ba" | "hai" | "m" | "machi" | "ten" | "who" | "fromWho" | "sc" | "owari"
        ),
        "RYUUKYOKU" => matches!(attr, "ba" | "sc" | "owari"),
        "N" => matches!(attr, "who" | "m"),
        "REACH" => matches!(attr, "who" | "step"),
        "DORA" => attr == "hai",
        "BYE" => attr == "who",
        _ => false,
    }
}

fn attr_removals(g: usize, game: &Game) -> Vec<Case> {
    let xml = &game.xml;
    let tags = scan(xml);
    // GO type bit 0x10 marks a three-player game.
    let four_player = tags
        .iter()
        .find(|t| t.name == "GO")
        .and_then(|t| t.attr("type"))
        .and_then(|a| {
            String::from_utf8_lossy(&xml[a.val.0..a.val.1])
                .parse::<u32>()
                .ok()
        })
        .is_some_and(|go| go & 0x10 == 0);
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut cases = Vec::new();
    for tag in &tags {
        let k = seen.entry(tag.name.as_str()).or_default();
        *k += 1;
        let every = matches!(tag.name.as_str(), "INIT" | "AGARI" | "RYUUKYOKU");
        if *k > ATTR_OCCURRENCES && !every {
            continue;
        }
        for a in &tag.attrs {
            let n = cases.len();
            let (s, e) = a.cut;
            cases.push(Case {
                kind: "attr-removal",
                file: format!("{}.no-{}-{}.xml", case_id(game, g, n), tag.name, a.name),
                make: Make::Bytes(splice(xml, a.cut, b"")),
                what: format!(
                    "{}: remove bytes {s}..{e} {:?} (<{}> #{k})",
                    game.id,
                    String::from_utf8_lossy(&xml[s..e]),
                    tag.name
                ),
                label: format!("{}.{}", tag.name, a.name),
                expect: if four_player {
                    removal_expect(&tag.name, &a.name)
                } else {
                    Expect::Any
                },
            });
        }
    }
    cases
}

/// The tiles of one hand: dealt hands and every id seen (deal, draws, dora indicators).
#[derive(Default)]
struct HandTiles {
    hai: [Vec<u8>; 4],
    used: BTreeSet<u8>,
}

impl HandTiles {
    /// The lowest id that appears nowhere in the hand.
    fn free(&self) -> u8 {
        (0..136u8).find(|t| !self.used.contains(t)).unwrap()
    }

    /// The first tile dealt to `seat` that is not in `not_in`.
    fn dealt(&self, seat: usize, not_in: &[u8]) -> Option<u8> {
        self.hai[seat % 4]
            .iter()
            .copied()
            .find(|t| !not_in.contains(t))
    }
}

/// One tile-id replacement: (label, range, new value, expectation).
type Spec = (String, (usize, usize), String, Expect);

/// The four replacements of one tile value: out of range (136, 999: `bad-tile`), a duplicate
/// of a tile dealt in the hand, and a tile id that appears nowhere in the hand.
fn tile_specs(
    specs: &mut Vec<Spec>,
    label: &str,
    range: (usize, usize),
    dup: Option<u8>,
    dup_expect: Expect,
    free: u8,
    free_expect: Expect,
) {
    for v in ["136", "999"] {
        specs.push((
            format!("{label} {v}"),
            range,
            v.into(),
            Expect::Failed(Some("bad-tile")),
        ));
    }
    if let Some(d) = dup {
        specs.push((format!("{label} dup"), range, d.to_string(), dup_expect));
    }
    specs.push((
        format!("{label} free"),
        range,
        free.to_string(),
        free_expect,
    ));
}

fn sample<T: Copy>(v: &[T], n: usize) -> Vec<T> {
    if v.len() <= n {
        return v.to_vec();
    }
    (0..n).map(|i| v[i * v.len() / n]).collect()
}

fn tile_corruptions(g: usize, game: &Game) -> Vec<Case> {
    let xml = &game.xml;
    let tags = scan(xml);
    let tiles_of = |a: &Attr| -> Vec<u8> {
        items(xml, a.val)
            .iter()
            .filter_map(|i| i.2.parse().ok())
            .collect()
    };
    // Pass 1: what each hand deals and uses.
    let mut hands: Vec<HandTiles> = Vec::new();
    let mut hand_of: Vec<Option<usize>> = Vec::with_capacity(tags.len());
    for tag in &tags {
        if tag.name == "INIT" {
            let mut h = HandTiles::default();
            for (k, hai) in h.hai.iter_mut().enumerate() {
                if let Some(a) = tag.attr(&format!("hai{k}")) {
                    *hai = tiles_of(a);
                }
            }
            let dealt: Vec<u8> = h.hai.iter().flatten().copied().collect();
            h.used.extend(dealt);
            if let Some(a) = tag.attr("seed") {
                if let Some(d) = items(xml, a.val).get(5).and_then(|i| i.2.parse().ok()) {
                    h.used.insert(d);
                }
            }
            hands.push(h);
        }
        let h = hands.len().checked_sub(1);
        if let Some(h) = h {
            if let Some((true, _, t, _)) = tag.tile_tag() {
                hands[h].used.insert(t);
            }
            if tag.name == "DORA" {
                if let Some(t) = tag.attr("hai").and_then(|a| tiles_of(a).first().copied()) {
                    hands[h].used.insert(t);
                }
            }
        }
        hand_of.push(h);
    }
    // Pass 2: the replacements.
    let mut specs: Vec<Spec> = Vec::new();
    let draws: Vec<usize> = (0..tags.len())
        .filter(|&t| matches!(tags[t].tile_tag(), Some((true, ..))))
        .collect();
    let discards: Vec<usize> = (0..tags.len())
        .filter(|&t| matches!(tags[t].tile_tag(), Some((false, ..))))
        .collect();
    let mut picked = sample(&draws, TILE_TAGS);
    picked.extend(sample(&discards, TILE_TAGS));
    for t in picked {
        let (Some((draw, seat, _, range)), Some(h)) = (tags[t].tile_tag(), hand_of[t]) else {
            continue;
        };
        let hand = &hands[h];
        // Drawing a tile another seat was dealt duplicates it; discarding it, or a tile that
        // is nowhere, discards a tile not in hand. Drawing a tile that is nowhere may replay.
        let (label, free_expect) = if draw {
            ("draw", Expect::Any)
        } else {
            ("discard", Expect::NotOk)
        };
        let dup = hand.dealt(seat + 1, &[]);
        tile_specs(
            &mut specs,
            label,
            range,
            dup,
            Expect::NotOk,
            hand.free(),
            free_expect,
        );
    }
    for (t, tag) in tags.iter().enumerate() {
        let Some(h) = hand_of[t] else { continue };
        let hand = &hands[h];
        let free = hand.free();
        match tag.name.as_str() {
            "INIT" => {
                for k in 0..4 {
                    let Some(a) = tag.attr(&format!("hai{k}")) else {
                        continue;
                    };
                    let its = items(xml, a.val);
                    if its.is_empty() || hand.hai[(k + 1) % 4].is_empty() {
                        continue;
                    }
                    let i = (h + k) % its.len();
                    let other = &hand.hai[(k + 1) % 4];
                    tile_specs(
                        &mut specs,
                        &format!("INIT.hai{k}"),
                        (its[i].0, its[i].1),
                        Some(other[i % other.len()]),
                        Expect::NotOk,
                        free,
                        Expect::Any,
                    );
                }
                if let Some(d) = tag
                    .attr("seed")
                    .and_then(|a| items(xml, a.val).get(5).cloned())
                {
                    // The dora indicator is a tile too: it may not also be in a hand.
                    tile_specs(
                        &mut specs,
                        "INIT.seed[5]",
                        (d.0, d.1),
                        hand.dealt(0, &[]),
                        Expect::NotOk,
                        free,
                        Expect::Any,
                    );
                }
            }
            "DORA" => {
                if let Some(a) = tag.attr("hai") {
                    tile_specs(
                        &mut specs,
                        "DORA.hai",
                        a.val,
                        hand.dealt(0, &[]),
                        Expect::NotOk,
                        free,
                        Expect::Any,
                    );
                }
            }
            "AGARI" => {
                let who: usize = tag
                    .attr("who")
                    .and_then(|a| String::from_utf8_lossy(&xml[a.val.0..a.val.1]).parse().ok())
                    .unwrap_or(0);
                // `hai` must be the winner's concealed hand plus the winning tile.
                if let Some(a) = tag.attr("hai") {
                    let its = items(xml, a.val);
                    let shown = tiles_of(a);
                    tile_specs(
                        &mut specs,
                        "AGARI.hai",
                        (its[0].0, its[0].1),
                        hand.dealt(who + 1, &shown),
                        Expect::NotOk,
                        free,
                        Expect::NotOk,
                    );
                }
                for key in ["machi", "doraHai", "doraHaiUra"] {
                    if let Some(a) = tag.attr(key) {
                        let its = items(xml, a.val);
                        tile_specs(
                            &mut specs,
                            &format!("AGARI.{key}"),
                            (its[0].0, its[0].1),
                            hand.dealt(who + 1, &[]),
                            Expect::Any,
                            free,
                            Expect::Any,
                        );
                    }
                }
            }
            "RYUUKYOKU" => {
                // A shown hand must equal the replayed one.
                for k in 0..4 {
                    let Some(a) = tag.attr(&format!("hai{k}")) else {
                        continue;
                    };
                    let its = items(xml, a.val);
                    let shown = tiles_of(a);
                    tile_specs(
                        &mut specs,
                        &format!("RYUUKYOKU.hai{k}"),
                        (its[0].0, its[0].1),
                        hand.dealt(k + 1, &shown),
                        Expect::NotOk,
                        free,
                        Expect::NotOk,
                    );
                }
            }
            _ => {}
        }
    }
    specs
        .into_iter()
        .enumerate()
        .map(|(n, (label, (s, e), new, expect))| Case {
            kind: "tile-id",
            file: format!("{}.tile{s:06}-{new}.xml", case_id(game, g, n)),
            make: Make::Bytes(splice(xml, (s, e), new.as_bytes())),
            what: format!(
                "{}: bytes {s}..{e} {:?} replaced by {new:?} ({label})",
                game.id,
                String::from_utf8_lossy(&xml[s..e]),
            ),
            label,
            expect,
        })
        .collect()
}

fn random_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = lcg(x);
            (x >> 56) as u8
        })
        .collect()
}

/// Duplicates, truncated gzip, junk files and unreadable paths, for one directory run by the
/// binary (so the real exit status is checked).
fn special_cases(games: &[Game], dir: &Path) -> Vec<Case> {
    let bytes_case = |kind, file: String, bytes, what: String, expect| Case {
        kind,
        file,
        make: Make::Bytes(bytes),
        what,
        label: String::new(),
        expect,
    };
    let mut cases = Vec::new();
    for (g, game) in games.iter().enumerate() {
        // The same log twice under two names carrying its id: the first in sorted order lands.
        let first = format!("a-{}.xml", game.id);
        let first_path = dir.join(&first).display().to_string();
        cases.push(bytes_case(
            "duplicate",
            first,
            game.xml.clone(),
            format!("{}: the XML as is", game.id),
            Expect::Ok,
        ));
        cases.push(bytes_case(
            "duplicate",
            format!("b-{}.mjlog", game.id),
            gzip(&game.xml),
            format!("{}: the XML gzipped, second copy", game.id),
            Expect::DuplicateOf(first_path),
        ));
        let gz = gzip(&game.xml);
        let cuts = [
            2,
            10,
            gz.len() / 4,
            gz.len() / 2,
            3 * gz.len() / 4,
            gz.len() - 8,
            gz.len() - 4,
            gz.len() - 1,
        ];
        for (n, cut) in cuts.into_iter().enumerate() {
            cases.push(bytes_case(
                "gzip-truncate",
                format!("{}.gzcut{cut:05}.mjlog", case_id(game, g, n)),
                gz[..cut].to_vec(),
                format!("{}: first {cut} of {} bytes of the gzip", game.id, gz.len()),
                Expect::Failed(Some("corrupt-gzip")),
            ));
        }
    }
    let page = b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n\
<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n";
    let junk: Vec<(&str, Vec<u8>, &str, Option<&'static str>)> = vec![
        (
            "2024041200gm-00a9-0000-0badc0de.mjlog",
            page.to_vec(),
            "an HTML 404 page saved under a log's name",
            Some("not-mjlog"),
        ),
        (
            "page-gzip.mjlog",
            gzip(page),
            "the HTML page gzipped",
            Some("not-mjlog"),
        ),
        (
            "error.xml",
            b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<error code=\"503\">busy</error>\n"
                .to_vec(),
            "XML with another root",
            Some("not-mjlog"),
        ),
        ("empty.mjlog", Vec::new(), "an empty file", Some("empty")),
        (
            "blank.xml",
            b" \n\t\r\n".to_vec(),
            "whitespace only",
            Some("empty"),
        ),
        (
            "random-1.bin",
            random_bytes(1, 1),
            "1 random byte (LCG seed 1)",
            None,
        ),
        (
            "random-4096.bin",
            random_bytes(2, 4096),
            "4096 random bytes (LCG seed 2)",
            None,
        ),
        (
            "random-65536.mjlog",
            random_bytes(3, 65536),
            "65536 random bytes (LCG seed 3)",
            None,
        ),
        (
            "gzip-of-random.mjlog",
            gzip(&random_bytes(4, 4096)),
            "4096 random bytes gzipped",
            None,
        ),
    ];
    for (file, bytes, what, name) in junk {
        cases.push(bytes_case(
            "junk",
            file.to_string(),
            bytes,
            what.to_string(),
            Expect::Failed(name),
        ));
    }
    for (file, target, what) in [
        (
            "dangling.mjlog",
            dir.join("no-such-file.mjlog"),
            "a symlink to nothing",
        ),
        (
            "self-loop.xml",
            dir.join("self-loop.xml"),
            "a symlink to itself",
        ),
    ] {
        cases.push(Case {
            kind: "unreadable",
            file: file.to_string(),
            make: Make::Symlink(target),
            what: what.to_string(),
            label: String::new(),
            expect: Expect::Failed(Some("unreadable")),
        });
    }
    cases
}

/// Writes the cases into `dir` (created).
fn materialise(dir: &Path, cases: &[Case]) {
    std::fs::create_dir_all(dir).unwrap();
    for c in cases {
        let p = dir.join(&c.file);
        match &c.make {
            Make::Bytes(b) => std::fs::write(&p, b).unwrap(),
            Make::Symlink(t) => std::os::unix::fs::symlink(t, &p).unwrap(),
            Make::Fifo => {
                let st = Command::new("mkfifo")
                    .arg(&p)
                    .status()
                    .expect("mkfifo runs");
                assert!(st.success(), "mkfifo {}", p.display());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Runs and checks

#[derive(Default)]
struct Report {
    /// kind → [cases, ok, skipped, failed]
    kinds: BTreeMap<&'static str, [u64; 4]>,
    /// (kind, "status reason") → count
    outcomes: BTreeMap<(&'static str, String), u64>,
    /// kind → mutation labels that stayed ok at least once
    accepted: BTreeMap<&'static str, BTreeSet<String>>,
    /// Replay check names docs/inputs.md does not list.
    undocumented: BTreeSet<String>,
    runs: Vec<String>,
    violations: Vec<String>,
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(non-string panic payload)".into())
}

/// `run_ingest` in this process, with panics caught and a watchdog against hangs.
fn ingest_catching(inputs: &[PathBuf], out: &Path) -> Result<IngestSummary, String> {
    let (tx, rx) = mpsc::channel::<()>();
    let what = out.display().to_string();
    std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(HANG_LIMIT) {
            eprintln!(
                "\n*** haifu ingest into {what} still running after {HANG_LIMIT:?}: a hang; aborting ***\n"
            );
            std::process::abort();
        }
    });
    let r = catch_unwind(AssertUnwindSafe(|| {
        run_ingest(inputs, out, RoomFilter::Any)
    }));
    drop(tx);
    r.map_err(|p| panic_message(p.as_ref()))
}

/// The one file of `files` an ingest panics on alone (bisection), with the panic message.
fn isolate_panic(files: &[PathBuf], scratch: &Path, runs: &mut usize) -> Option<(PathBuf, String)> {
    let mut try_run = |fs: &[PathBuf]| {
        *runs += 1;
        ingest_catching(fs, &scratch.join(format!("bisect-{runs}"))).err()
    };
    if files.len() == 1 {
        return try_run(files).map(|m| (files[0].clone(), m));
    }
    let (a, b) = files.split_at(files.len() / 2);
    if try_run(a).is_some() {
        return isolate_panic(a, scratch, runs);
    }
    if try_run(b).is_some() {
        return isolate_panic(b, scratch, runs);
    }
    None
}

/// `(name, key)` of an entry: `ok`, or its reason name (for `replay`, `replay: <check>`);
/// an error when the entry breaks the form docs/inputs.md gives.
fn entry_key(
    e: &FileEntry,
    undocumented: &mut BTreeSet<String>,
) -> Result<(String, String), String> {
    if e.status == Status::Ok {
        if e.reason.is_some() || e.games != 1 || e.hands == 0 || e.game_id.is_none() {
            return Err("an ok entry needs no reason, 1 game, some hands and a game id".into());
        }
        return Ok(("ok".into(), "ok".into()));
    }
    if e.games != 0 || e.hands != 0 {
        return Err("a non-ok entry counts games or hands".into());
    }
    let Some(reason) = e.reason_text() else {
        return Err("no reason".into());
    };
    let Some((name, detail)) = reason.split_once(": ") else {
        return Err("reason is not `name: detail`".into());
    };
    if detail.trim().is_empty() {
        return Err("reason has no detail".into());
    }
    let known = if e.status == Status::Failed {
        FAILURE_NAMES
    } else {
        SKIP_NAMES
    };
    if !known.contains(&name) {
        return Err(format!(
            "reason name {name:?} is not one docs/inputs.md documents for this status"
        ));
    }
    if name != "replay" {
        return Ok((name.into(), name.into()));
    }
    // `hand N: <check>: detail` or `<check>: detail`
    let rest = detail
        .strip_prefix("hand ")
        .and_then(|r| r.split_once(": "))
        .map_or(detail, |(_, r)| r);
    let check = rest.split_once(": ").map_or(rest, |(c, _)| c);
    if !REPLAY_CHECKS.contains(&check) {
        undocumented.insert(check.to_string());
    }
    Ok((name.into(), format!("replay: {check}")))
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Skipped => "skipped",
        Status::Failed => "failed",
    }
}

impl Report {
    fn violation(&mut self, v: String) {
        self.violations.push(v);
    }

    /// Checks one finished run whose inputs are exactly `cases` in `dir`.
    fn check_run(
        &mut self,
        run: &str,
        dir: &Path,
        cases: &[Case],
        m: &ManifestDocument,
        exit: Option<i32>,
        out: &Path,
    ) {
        let by_path: HashMap<String, &Case> = cases
            .iter()
            .map(|c| (dir.join(&c.file).display().to_string(), c))
            .collect();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for e in &m.files {
            *seen.entry(e.path.as_str()).or_default() += 1;
        }
        for (p, n) in &seen {
            if *n != 1 {
                self.violation(format!("{run}: {p} is in the manifest {n} times"));
            }
            if !by_path.contains_key(*p) {
                self.violation(format!("{run}: {p} is in the manifest but no input"));
            }
        }
        for (p, c) in &by_path {
            if !seen.contains_key(p.as_str()) {
                self.violation(format!(
                    "{run}: input {p} ({}) is not in the manifest",
                    c.what
                ));
            }
        }
        // Totals against the entries and the frames.
        let t = &m.totals;
        let count = |s: Status| m.files.iter().filter(|e| e.status == s).count() as u64;
        let games: u64 = m.files.iter().map(|e| e.games as u64).sum();
        let hands: u64 = m.files.iter().map(|e| e.hands as u64).sum();
        let from_entries = (
            m.files.len() as u64,
            count(Status::Ok),
            count(Status::Skipped),
            count(Status::Failed),
            games,
            hands,
        );
        if (t.files, t.ok, t.skipped, t.failed, t.games, t.hands) != from_entries {
            self.violation(format!(
                "{run}: totals {t:?} disagree with the entries (files, ok, skipped, failed, games, hands) = {from_entries:?}"
            ));
        }
        let rows = (
            frame(out, "games").height() as u64,
            frame(out, "hands").height() as u64,
        );
        if rows != (t.games, t.hands) {
            self.violation(format!(
                "{run}: totals games/hands ({}, {}) but the frames have {rows:?} rows",
                t.games, t.hands
            ));
        }
        let want_exit = if t.failed > 0 { 2 } else { 0 };
        if exit != Some(want_exit) {
            self.violation(format!(
                "{run}: exit status {exit:?}, docs/inputs.md says {want_exit} ({} failed)",
                t.failed
            ));
        }
        // Each entry: named reason, expectation, tallies.
        for e in &m.files {
            let Some(c) = by_path.get(e.path.as_str()) else {
                continue;
            };
            let (name, key) = match entry_key(e, &mut self.undocumented) {
                Ok(k) => k,
                Err(msg) => {
                    self.violation(format!("{run}: {} ({}): {msg}: {e:?}", c.file, c.what));
                    ("?".into(), format!("UNNAMED {:?}", e.reason))
                }
            };
            if !c.expect.accepts(e, &name) {
                self.violation(format!(
                    "{run}: {} ({}): expected {:?}, got {} {:?}",
                    c.file,
                    c.what,
                    c.expect,
                    status_word(e.status),
                    e.reason
                ));
            }
            let k = self.kinds.entry(c.kind).or_default();
            k[0] += 1;
            k[match e.status {
                Status::Ok => 1,
                Status::Skipped => 2,
                Status::Failed => 3,
            }] += 1;
            let key = match e.status {
                Status::Ok => "ok".to_string(),
                s => format!("{} {key}", status_word(s)),
            };
            *self.outcomes.entry((c.kind, key)).or_default() += 1;
            if e.status == Status::Ok && !c.label.is_empty() {
                self.accepted
                    .entry(c.kind)
                    .or_default()
                    .insert(c.label.clone());
            }
        }
    }

    /// One generated kind: all its cases in one directory, one in-process run.
    fn run_kind(&mut self, kind: &'static str, cases: &[Case], tmp: &Path) {
        let t0 = Instant::now();
        let dir = tmp.join(format!("in-{kind}"));
        materialise(&dir, cases);
        let out = tmp.join(format!("out-{kind}"));
        match ingest_catching(std::slice::from_ref(&dir), &out) {
            Ok(s) => {
                let exit = if s.failed() { 2 } else { 0 };
                match ManifestDocument::read(&out.join("manifest.json")) {
                    Ok(m) => self.check_run(kind, &dir, cases, &m, Some(exit), &out),
                    Err(e) => self.violation(format!("{kind}: manifest.json unreadable: {e}")),
                }
            }
            Err(msg) => {
                let files: Vec<PathBuf> = cases.iter().map(|c| dir.join(&c.file)).collect();
                let mut runs = 0;
                let found = isolate_panic(&files, &tmp.join(format!("bisect-{kind}")), &mut runs);
                let v = match found {
                    Some((p, m)) => {
                        let c = cases.iter().find(|c| dir.join(&c.file) == p).unwrap();
                        format!(
                            "{kind}: haifu PANICKED on {} ({}): {m} (the whole run: {msg})",
                            p.display(),
                            c.what
                        )
                    }
                    None => format!(
                        "{kind}: haifu PANICKED ({msg}) and no single file reproduces it ({runs} bisection runs)"
                    ),
                };
                self.violation(v);
                self.kinds.entry(kind).or_default()[0] += cases.len() as u64;
            }
        }
        self.runs.push(format!(
            "{kind}: {} files, {:.2} s",
            cases.len(),
            t0.elapsed().as_secs_f64()
        ));
    }

    /// The binary on one directory, killed after `limit`; then the usual checks.
    fn run_binary(&mut self, run: &str, cases: &[Case], tmp: &Path, dir: &Path) {
        let t0 = Instant::now();
        let out = tmp.join(format!("out-{run}"));
        let log = |n: &str| std::fs::File::create(tmp.join(format!("{run}.{n}"))).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_haifu"))
            .arg("ingest")
            .arg(dir)
            .arg("--out")
            .arg(&out)
            .args(["--room", "any", "--quiet"])
            .stdin(Stdio::null())
            .stdout(log("stdout"))
            .stderr(log("stderr"))
            .spawn()
            .expect("haifu starts");
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break Some(st);
            }
            if t0.elapsed() > BINARY_LIMIT {
                child.kill().unwrap();
                child.wait().unwrap();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let stderr = std::fs::read_to_string(tmp.join(format!("{run}.stderr"))).unwrap_or_default();
        let tail: String = stderr.lines().rev().take(5).collect::<Vec<_>>().join(" | ");
        self.runs.push(format!(
            "{run}: {} inputs, haifu binary, {:.2} s",
            cases.len(),
            t0.elapsed().as_secs_f64()
        ));
        let Some(status) = status else {
            self.violation(format!(
                "{run}: `haifu ingest {} --out {} --room any` HUNG: killed after {BINARY_LIMIT:?} (stderr: {tail})",
                dir.display(),
                out.display()
            ));
            self.kinds.entry(cases[0].kind).or_default()[0] += cases.len() as u64;
            return;
        };
        let manifest = std::fs::read_to_string(out.join("manifest.json"))
            .ok()
            .and_then(|s| serde_json::from_str::<ManifestDocument>(&s).ok());
        let Some(m) = manifest else {
            self.violation(format!(
                "{run}: haifu exited with {status} and no readable manifest (stderr: {tail})"
            ));
            return;
        };
        self.check_run(run, dir, cases, &m, status.code(), &out);
    }

    fn print(&self, source: &str, games: &[Game], elapsed: Duration) {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\n=== generated bad input from {source}: {} games ({}) — {:.1} s ===",
            games.len(),
            games
                .iter()
                .map(|g| g.id.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            elapsed.as_secs_f64()
        );
        let _ = writeln!(s, "runs: {}", self.runs.join("; "));
        let _ = writeln!(
            s,
            "{:<16} {:>7} {:>7} {:>8} {:>7}",
            "kind", "cases", "ok", "skipped", "failed"
        );
        let mut total = [0u64; 4];
        for (kind, k) in &self.kinds {
            let _ = writeln!(
                s,
                "{kind:<16} {:>7} {:>7} {:>8} {:>7}",
                k[0], k[1], k[2], k[3]
            );
            for (t, n) in total.iter_mut().zip(k) {
                *t += n;
            }
        }
        let _ = writeln!(
            s,
            "{:<16} {:>7} {:>7} {:>8} {:>7}",
            "total", total[0], total[1], total[2], total[3]
        );
        let mut overall: BTreeMap<&str, u64> = BTreeMap::new();
        for ((_, key), n) in &self.outcomes {
            *overall.entry(key.as_str()).or_default() += n;
        }
        let _ = writeln!(s, "outcomes by status and reason (all kinds):");
        for (key, n) in &overall {
            let _ = writeln!(s, "  {key:<40} {n:>7}");
        }
        let _ = writeln!(s, "outcomes by kind:");
        let mut last = "";
        for ((kind, key), n) in &self.outcomes {
            if *kind != last {
                let _ = write!(s, "\n  {kind}:");
                last = kind;
            }
            let _ = write!(s, " [{key}] {n}");
        }
        let _ = writeln!(s);
        for (kind, labels) in &self.accepted {
            let _ = writeln!(
                s,
                "mutations that stayed ok at least once ({kind}): {}",
                labels.iter().cloned().collect::<Vec<_>>().join(", ")
            );
        }
        if !self.undocumented.is_empty() {
            let _ = writeln!(
                s,
                "replay checks seen that docs/inputs.md does not list: {}",
                self.undocumented
                    .iter()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let _ = writeln!(s, "violations: {}", self.violations.len());
        for v in self.violations.iter().take(40) {
            let _ = writeln!(s, "  - {v}");
        }
        if self.violations.len() > 40 {
            let _ = writeln!(s, "  … and {} more", self.violations.len() - 40);
        }
        let _ = std::io::stderr().lock().write_all(s.as_bytes());
    }

    fn assert_clean(&self, source: &str) {
        assert!(
            self.violations.is_empty(),
            "{source}: {} violation(s) of the bad-input contract; first: {}",
            self.violations.len(),
            self.violations[0]
        );
    }
}

/// Every generated kind of `games`, one in-process run per kind, then the special directory
/// by the binary.
fn suite(source: &str, games: &[Game]) {
    let t0 = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let mut kinds: BTreeMap<&'static str, Vec<Case>> = BTreeMap::new();
    for (g, game) in games.iter().enumerate() {
        let all = truncations(g, game)
            .into_iter()
            .chain(byte_flips(g, game))
            .chain(gzip_flips(g, game))
            .chain(attr_removals(g, game))
            .chain(tile_corruptions(g, game));
        for c in all {
            kinds.entry(c.kind).or_default().push(c);
        }
    }
    let mut report = Report::default();
    for (kind, cases) in &kinds {
        report.run_kind(kind, cases, tmp.path());
    }
    let dir = tmp.path().join("in-special");
    let special = special_cases(games, &dir);
    materialise(&dir, &special);
    report.run_binary("special", &special, tmp.path(), &dir);
    report.print(source, games, t0.elapsed());
    report.assert_clean(source);
}

#[test]
fn generated_bad_input_from_fixture_games() {
    suite("fixtures", &fixture_games());
}

#[test]
fn generated_bad_input_from_phoenix_games() {
    let Some(dir) = common::corpus("phoenix") else {
        return;
    };
    let games = load_games(&dir, 3);
    assert_eq!(games.len(), 3);
    suite("../shared/corpus/phoenix", &games);
}

/// A FIFO cannot be read as a file (as root, chmod 000 does not stop reads, so this is the
/// unreadable file): the run must not block on it, must name it `unreadable`, ingest the
/// rest, and exit 2. Run by the binary, killed after [`BINARY_LIMIT`].
#[test]
fn a_fifo_among_the_inputs_is_reported_not_waited_on() {
    let t0 = Instant::now();
    let games = fixture_games();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in-fifo");
    let game = &games[0];
    let cases = vec![
        Case {
            kind: "fifo",
            file: format!("{}.xml", game.id),
            make: Make::Bytes(game.xml.clone()),
            what: format!("{}: the XML as is", game.id),
            label: String::new(),
            expect: Expect::Ok,
        },
        Case {
            kind: "fifo",
            file: "pipe.mjlog".into(),
            make: Make::Fifo,
            what: "a FIFO (mkfifo) nobody writes to".into(),
            label: String::new(),
            expect: Expect::Failed(Some("unreadable")),
        },
    ];
    materialise(&dir, &cases);
    let mut report = Report::default();
    report.run_binary("fifo", &cases, tmp.path(), &dir);
    report.print("a directory with a FIFO", &games[..1], t0.elapsed());
    report.assert_clean("fifo");
}
