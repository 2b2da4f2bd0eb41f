//! Structure-aware mutation of real logs for the `mutate` target.
//!
//! The fuzz input (decoded with `arbitrary`) picks one of the seed logs embedded below, which
//! is split into tags, and a list of [`Op`]s edits that tag list: drop, swap, move or
//! duplicate tags, splice in a tag of another seed, change, add or remove attributes and
//! list elements, replace tile ids (out of range, duplicated from elsewhere, nearby),
//! change a draw or discard's seat, rewrite meld codes, truncate. The result is serialised
//! back to XML and fed to decode + replay. Starting from games that replay cleanly, a few
//! edits reach the replay's deep checks (calls, riichi, agari and score verification) that
//! random bytes never reach.

use arbitrary::Arbitrary;

/// The hand-written seed logs (our own fixtures), embedded at build time. Their made-up
/// shuffle seeds are not Tenhou's, so they replay without the wall check; [`seeds`] adds a
/// made-up game whose walls the replay does check, so that edits reach the wall's checks.
const FIXTURE_SEEDS: [(&str, &[u8]); 5] = [
    (
        "f001",
        include_bytes!("../../fixtures/2099010100gm-00a9-0000-0000f001.xml"),
    ),
    (
        "f002",
        include_bytes!("../../fixtures/2099010200gm-00a9-0000-0000f002.xml"),
    ),
    (
        "f003",
        include_bytes!("../../fixtures/2099010300gm-00a9-0000-0000f003.xml"),
    ),
    (
        "f004",
        include_bytes!("../../fixtures/2099010400gm-00e1-0000-0000f004.xml"),
    ),
    (
        "f005",
        include_bytes!("../../fixtures/2099010500gm-00ab-0000-0000f005.xml"),
    ),
];

/// Every seed log: the fixtures and a three-hand game dealt and drawn from the walls of a
/// made-up seed (`haifu::wall::tsumogiri_log`), built once.
pub fn seeds() -> &'static [(&'static str, &'static [u8])] {
    static SEEDS: std::sync::OnceLock<Vec<(&'static str, &'static [u8])>> =
        std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut words = [0u32; 624];
        for (i, w) in words.iter_mut().enumerate() {
            *w = (i as u32).wrapping_mul(0x9E37_79B9) ^ 0x0F1E_2D3C;
        }
        let walled: &'static [u8] = haifu::wall::tsumogiri_log(&words, 3).into_bytes().leak();
        let mut all = FIXTURE_SEEDS.to_vec();
        all.push(("walled", walled));
        all
    })
}

/// At most this many operations are applied (keeps every run fast).
pub const MAX_OPS: usize = 24;

/// One fuzz case: a seed and the edits applied to it.
#[derive(Arbitrary, Debug, Clone)]
pub struct Case {
    pub seed: u8,
    pub ops: Vec<Op>,
}

/// A new attribute value (for `SetValue` and `AddAttr`).
#[derive(Arbitrary, Debug, Clone)]
pub enum Value {
    Empty,
    /// 20 nines: overflows every integer type the decoder parses into.
    Huge,
    /// `i64::MIN`, `u32::MAX + 1`, `255`, `256`, `-1`, `136`… picked by index.
    Edge(u8),
    Int(i64),
    /// A comma list of small numbers.
    List(Vec<i16>),
    Float(f64),
    /// Arbitrary text (bytes that would break the XML are escaped or dropped).
    Text(String),
}

/// Where a replacement tile id comes from.
#[derive(Arbitrary, Debug, Clone)]
pub enum TileChoice {
    /// 136 + n: out of range.
    OutOfRange(u8),
    /// A tile id already used elsewhere in the log (a duplicate tile).
    CopyFrom { tag: u16, elem: u8 },
    /// The current id ± n, within 0..136.
    Near(i8),
    /// Any id 0..136.
    Any(u8),
}

/// One edit of the tag list. Indices are taken modulo the current lengths.
#[derive(Arbitrary, Debug, Clone)]
pub enum Op {
    Drop(u16),
    Swap(u16, u16),
    /// Inserts a copy of tag `from` before position `to`.
    Duplicate {
        from: u16,
        to: u16,
    },
    Move {
        from: u16,
        to: u16,
    },
    /// Inserts tag `from` of seed `seed` before position `to`.
    Splice {
        seed: u8,
        from: u16,
        to: u16,
    },
    /// Adds `delta` to one element of a numeric attribute value (comma lists included).
    AddNum {
        tag: u16,
        attr: u8,
        elem: u8,
        delta: i32,
    },
    SetValue {
        tag: u16,
        attr: u8,
        value: Value,
    },
    RemoveAttr {
        tag: u16,
        attr: u8,
    },
    AddAttr {
        tag: u16,
        key: u8,
        value: Value,
    },
    /// Removes one element of a comma-list attribute value.
    DropElem {
        tag: u16,
        attr: u8,
        elem: u8,
    },
    /// Repeats one element of a comma-list attribute value.
    DupElem {
        tag: u16,
        attr: u8,
        elem: u8,
    },
    /// Replaces a tile id: a draw/discard tag's own id, or one in a tile attribute.
    SetTile {
        tag: u16,
        attr: u8,
        elem: u8,
        tile: TileChoice,
    },
    /// Turns a draw/discard tag into another seat's draw or discard (`T`..`W`, `D`..`G`).
    SetLetter {
        tag: u16,
        letter: u8,
    },
    /// XORs a meld code (`<N m>`) with `bits`.
    FlipMeld {
        tag: u16,
        bits: u16,
    },
    /// Keeps only the first `n` tags.
    Truncate(u16),
    /// Cuts the serialised document to `n` bytes (applied last).
    TruncateBytes(u16),
    /// Leaves out the closing `</mjloggm>`.
    DropClose,
    /// Edits the wall's seed: the SHUFFLE `seed`, or an INIT's per-hand `shuffle`.
    Seed(SeedEdit),
}

/// One edit of a seed (the replay rebuilds the wall from it and checks every draw).
#[derive(Arbitrary, Debug, Clone)]
pub enum SeedEdit {
    /// Replaces the character at `at` (modulo the length) of the SHUFFLE seed with `to`
    /// (printable ASCII, so base64 and hex digits and commas all come up).
    Char { at: u16, to: u8 },
    /// Cuts the SHUFFLE seed to `n` characters (modulo its length + 1).
    Cut(u16),
    /// Replaces the form name before the first comma with one of the known forms or another.
    Form(u8),
    /// Replaces the seed's words (after the form name) with these, in hex; a leading zero
    /// word is kept.
    HexWords(Vec<u32>),
    /// Gives INIT number `init` a per-hand `shuffle` seed of these words (and with `drop`,
    /// removes the SHUFFLE seed, so the per-hand path is taken).
    PerHand {
        init: u8,
        words: Vec<u32>,
        drop: bool,
    },
}

/// Form names a [`SeedEdit::Form`] picks from.
const FORMS: [&str; 4] = [
    "mt19937ar-sha512-n288-base64",
    "mt19937ar-sha512-n288",
    "mt19937ar",
    "mt19937ar-sha256",
];

/// Attribute names that `AddAttr` may add (every one the decoder reads, and a stranger).
const KEYS: [&str; 31] = [
    "type",
    "lobby",
    "n0",
    "n1",
    "n2",
    "n3",
    "dan",
    "rate",
    "sx",
    "who",
    "oya",
    "seed",
    "ten",
    "hai0",
    "hai1",
    "hai2",
    "hai3",
    "m",
    "step",
    "hai",
    "ba",
    "machi",
    "yaku",
    "yakuman",
    "doraHai",
    "doraHaiUra",
    "fromWho",
    "paoWho",
    "sc",
    "owari",
    "shuffle",
];

/// Attributes whose values are tile ids.
const TILE_KEYS: [&str; 8] = [
    "hai0",
    "hai1",
    "hai2",
    "hai3",
    "hai",
    "machi",
    "doraHai",
    "doraHaiUra",
];

/// One tag: `<name k="v" …/>`, or a raw piece kept as it was.
#[derive(Clone, Debug)]
struct Tag {
    name: Vec<u8>,
    attrs: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Tag {
    /// A draw or discard tag (`T12`, `G135`): its letter and tile id.
    fn draw_discard(&self) -> Option<(u8, u32)> {
        let (&first, rest) = self.name.split_first()?;
        if !b"TUVWDEFG".contains(&first) || rest.is_empty() || rest.len() > 6 {
            return None;
        }
        if !rest.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some((first, std::str::from_utf8(rest).ok()?.parse().ok()?))
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'<');
        out.extend_from_slice(&self.name);
        for (k, v) in &self.attrs {
            out.push(b' ');
            out.extend_from_slice(k);
            out.extend_from_slice(b"=\"");
            out.extend_from_slice(v);
            out.push(b'"');
        }
        out.extend_from_slice(b"/>");
    }
}

/// A seed split into its head (up to and including `<mjloggm …>`), tags and tail.
#[derive(Clone, Debug)]
struct Doc {
    head: Vec<u8>,
    tags: Vec<Tag>,
    tail: Vec<u8>,
}

fn parse_tag(inner: &[u8]) -> Tag {
    // `inner` is the text between `<` and `>`, without a trailing `/`.
    let inner = inner.strip_suffix(b"/").unwrap_or(inner);
    let end = inner
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(inner.len());
    let name = inner[..end].to_vec();
    let mut attrs = Vec::new();
    let mut rest = &inner[end..];
    while let Some(s) = rest.iter().position(|b| !b.is_ascii_whitespace()) {
        rest = &rest[s..];
        let Some(eq) = rest.iter().position(|&b| b == b'=') else {
            break;
        };
        let key = rest[..eq].trim_ascii().to_vec();
        let after = rest[eq + 1..].trim_ascii_start();
        let Some((&q, body)) = after.split_first() else {
            break;
        };
        let Some(close) = body.iter().position(|&b| b == q) else {
            break;
        };
        attrs.push((key, body[..close].to_vec()));
        rest = &body[close + 1..];
    }
    Tag { name, attrs }
}

fn split(doc: &[u8]) -> Doc {
    let mut head = Vec::new();
    let mut tags = Vec::new();
    let mut tail = Vec::new();
    let mut in_root = false;
    let mut i = 0;
    while let Some(lt) = doc[i..].iter().position(|&b| b == b'<') {
        let start = i + lt;
        let Some(gt) = doc[start..].iter().position(|&b| b == b'>') else {
            break;
        };
        let end = start + gt + 1;
        let raw = &doc[start..end];
        let inner = &raw[1..raw.len() - 1];
        if !in_root {
            head.extend_from_slice(&doc[i..end]);
            if inner.starts_with(b"mjloggm") {
                in_root = true;
            }
        } else if inner.starts_with(b"/mjloggm") {
            tail.extend_from_slice(raw);
        } else {
            tags.push(parse_tag(inner));
        }
        i = end;
    }
    Doc { head, tags, tail }
}

fn value_bytes(v: &Value) -> Vec<u8> {
    const EDGES: [&str; 12] = [
        "-9223372036854775808",
        "4294967296",
        "4294967295",
        "2147483648",
        "-2147483649",
        "255",
        "256",
        "-1",
        "136",
        "4",
        "0",
        "1e309",
    ];
    match v {
        Value::Empty => Vec::new(),
        Value::Huge => b"99999999999999999999".to_vec(),
        Value::Edge(i) => EDGES[*i as usize % EDGES.len()].as_bytes().to_vec(),
        Value::Int(n) => n.to_string().into_bytes(),
        Value::List(xs) => xs
            .iter()
            .take(40)
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
            .into_bytes(),
        Value::Float(f) => f.to_string().into_bytes(),
        Value::Text(s) => s
            .bytes()
            .take(64)
            .filter(|&b| b != b'"' && b != b'<' && b != b'>' && b != b'&')
            .collect(),
    }
}

/// Applies `f` to element `elem` (mod the count) of a comma list.
fn with_elem(v: &mut Vec<u8>, elem: u8, f: impl FnOnce(&[u8]) -> Vec<u8>) {
    let mut parts: Vec<Vec<u8>> = v.split(|&b| b == b',').map(<[u8]>::to_vec).collect();
    let i = elem as usize % parts.len();
    parts[i] = f(&parts[i]);
    *v = parts.join(&b","[..]);
}

fn parse_i64(p: &[u8]) -> Option<i64> {
    std::str::from_utf8(p).ok()?.trim().parse().ok()
}

/// Every tile id written in `doc`'s tags (draws, discards and tile attributes), in order.
fn tile_ids(doc: &Doc) -> Vec<i64> {
    let mut out = Vec::new();
    for t in &doc.tags {
        if let Some((_, id)) = t.draw_discard() {
            out.push(id as i64);
        }
        for (k, v) in &t.attrs {
            if TILE_KEYS.iter().any(|key| key.as_bytes() == k.as_slice()) {
                out.extend(v.split(|&b| b == b',').filter_map(parse_i64));
            }
        }
    }
    out
}

fn pick_tile(doc: &Doc, current: i64, choice: &TileChoice) -> i64 {
    match *choice {
        TileChoice::OutOfRange(n) => 136 + n as i64,
        TileChoice::CopyFrom { tag, elem } => {
            let ids = tile_ids(doc);
            if ids.is_empty() {
                return current;
            }
            ids[(tag as usize * 256 + elem as usize) % ids.len()]
        }
        TileChoice::Near(d) => current.saturating_add(d as i64).rem_euclid(136),
        TileChoice::Any(n) => n as i64 % 136,
    }
}

impl Doc {
    fn tag_index(&self, i: u16) -> Option<usize> {
        (!self.tags.is_empty()).then(|| i as usize % self.tags.len())
    }

    fn attr_index(&self, tag: usize, a: u8) -> Option<usize> {
        let n = self.tags[tag].attrs.len();
        (n > 0).then(|| a as usize % n)
    }

    fn apply(&mut self, op: &Op, cut: &mut Option<usize>) {
        match op {
            Op::Drop(i) => {
                if let Some(i) = self.tag_index(*i) {
                    self.tags.remove(i);
                }
            }
            Op::Swap(a, b) => {
                if let (Some(a), Some(b)) = (self.tag_index(*a), self.tag_index(*b)) {
                    self.tags.swap(a, b);
                }
            }
            Op::Duplicate { from, to } => {
                if let Some(f) = self.tag_index(*from) {
                    let t = self.tags[f].clone();
                    let to = *to as usize % (self.tags.len() + 1);
                    self.tags.insert(to, t);
                }
            }
            Op::Move { from, to } => {
                if let Some(f) = self.tag_index(*from) {
                    let t = self.tags.remove(f);
                    let to = *to as usize % (self.tags.len() + 1);
                    self.tags.insert(to, t);
                }
            }
            Op::Splice { seed, from, to } => {
                let seeds = seeds();
                let other = split(seeds[*seed as usize % seeds.len()].1);
                if let Some(f) = other.tag_index(*from) {
                    let to = *to as usize % (self.tags.len() + 1);
                    self.tags.insert(to, other.tags[f].clone());
                }
            }
            Op::AddNum {
                tag,
                attr,
                elem,
                delta,
            } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                if let Some((letter, id)) = self.tags[t].draw_discard() {
                    let id = (id as i64 + *delta as i64).max(0);
                    self.tags[t].name = format!("{}{id}", letter as char).into_bytes();
                    return;
                }
                let Some(a) = self.attr_index(t, *attr) else {
                    return;
                };
                with_elem(&mut self.tags[t].attrs[a].1, *elem, |p| {
                    let n = parse_i64(p).unwrap_or(0);
                    n.saturating_add(*delta as i64).to_string().into_bytes()
                });
            }
            Op::SetValue { tag, attr, value } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                let Some(a) = self.attr_index(t, *attr) else {
                    return;
                };
                self.tags[t].attrs[a].1 = value_bytes(value);
            }
            Op::RemoveAttr { tag, attr } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                let Some(a) = self.attr_index(t, *attr) else {
                    return;
                };
                self.tags[t].attrs.remove(a);
            }
            Op::AddAttr { tag, key, value } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                let key = KEYS[*key as usize % KEYS.len()].as_bytes().to_vec();
                let value = value_bytes(value);
                let attrs = &mut self.tags[t].attrs;
                match attrs.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => *v = value,
                    None => attrs.push((key, value)),
                }
            }
            Op::DropElem { tag, attr, elem } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                let Some(a) = self.attr_index(t, *attr) else {
                    return;
                };
                let v = &mut self.tags[t].attrs[a].1;
                let mut parts: Vec<&[u8]> = v.split(|&b| b == b',').collect();
                parts.remove(*elem as usize % parts.len());
                *v = parts.join(&b","[..]);
            }
            Op::DupElem { tag, attr, elem } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                let Some(a) = self.attr_index(t, *attr) else {
                    return;
                };
                let v = &mut self.tags[t].attrs[a].1;
                let mut parts: Vec<&[u8]> = v.split(|&b| b == b',').collect();
                let i = *elem as usize % parts.len();
                parts.insert(i, parts[i]);
                *v = parts.join(&b","[..]);
            }
            Op::SetTile {
                tag,
                attr,
                elem,
                tile,
            } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                if let Some((letter, id)) = self.tags[t].draw_discard() {
                    let id = pick_tile(self, id as i64, tile);
                    self.tags[t].name = format!("{}{id}", letter as char).into_bytes();
                    return;
                }
                let tile_attrs: Vec<usize> = (self.tags[t].attrs.iter().enumerate())
                    .filter(|(_, (k, _))| TILE_KEYS.iter().any(|key| key.as_bytes() == k))
                    .map(|(i, _)| i)
                    .collect();
                let a = if tile_attrs.is_empty() {
                    // INIT seed[5] and DORA hai are tiles too; else any attribute.
                    match self.attr_index(t, *attr) {
                        Some(a) => a,
                        None => return,
                    }
                } else {
                    tile_attrs[*attr as usize % tile_attrs.len()]
                };
                let snapshot = self.clone();
                with_elem(&mut self.tags[t].attrs[a].1, *elem, |p| {
                    let cur = parse_i64(p).unwrap_or(0);
                    pick_tile(&snapshot, cur, tile).to_string().into_bytes()
                });
            }
            Op::SetLetter { tag, letter } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                if let Some((_, id)) = self.tags[t].draw_discard() {
                    let l = b"TUVWDEFG"[*letter as usize % 8];
                    self.tags[t].name = format!("{}{id}", l as char).into_bytes();
                }
            }
            Op::FlipMeld { tag, bits } => {
                let Some(t) = self.tag_index(*tag) else {
                    return;
                };
                let tg = &mut self.tags[t];
                if tg.name != b"N" {
                    return;
                }
                if let Some((_, v)) = tg.attrs.iter_mut().find(|(k, _)| k == b"m") {
                    let m = parse_i64(v).unwrap_or(0);
                    *v = (m ^ *bits as i64).to_string().into_bytes();
                }
            }
            Op::Truncate(n) => {
                let n = *n as usize % (self.tags.len() + 1);
                self.tags.truncate(n);
            }
            Op::TruncateBytes(n) => *cut = Some(*n as usize),
            Op::DropClose => self.tail.clear(),
            Op::Seed(edit) => self.edit_seed(edit),
        }
    }

    /// The SHUFFLE tag's `seed` value, when the log has one.
    fn shuffle_seed(&mut self) -> Option<&mut Vec<u8>> {
        let t = self.tags.iter_mut().find(|t| t.name == b"SHUFFLE")?;
        t.attrs
            .iter_mut()
            .find(|(k, _)| k == b"seed")
            .map(|(_, v)| v)
    }

    fn edit_seed(&mut self, edit: &SeedEdit) {
        let hex = |words: &[u32]| -> Vec<u8> {
            let w: Vec<String> = words.iter().take(64).map(|w| format!("{w:08X}")).collect();
            w.join(",").into_bytes()
        };
        match edit {
            SeedEdit::Char { at, to } => {
                if let Some(v) = self.shuffle_seed().filter(|v| !v.is_empty()) {
                    let i = *at as usize % v.len();
                    v[i] = b' ' + to % 95;
                    if matches!(v[i], b'"' | b'&' | b'<') {
                        v[i] = b'A';
                    }
                }
            }
            SeedEdit::Cut(n) => {
                if let Some(v) = self.shuffle_seed() {
                    let n = *n as usize % (v.len() + 1);
                    v.truncate(n);
                }
            }
            SeedEdit::Form(f) => {
                if let Some(v) = self.shuffle_seed() {
                    let rest = match v.iter().position(|&b| b == b',') {
                        Some(c) => v[c..].to_vec(),
                        None => Vec::new(),
                    };
                    let mut name = FORMS[*f as usize % FORMS.len()].as_bytes().to_vec();
                    name.extend_from_slice(&rest);
                    *v = name;
                }
            }
            SeedEdit::HexWords(words) => {
                if let Some(v) = self.shuffle_seed() {
                    let c = v.iter().position(|&b| b == b',').unwrap_or(v.len());
                    v.truncate(c);
                    v.push(b',');
                    v.extend_from_slice(&hex(words));
                }
            }
            SeedEdit::PerHand { init, words, drop } => {
                if *drop {
                    self.tags.retain(|t| t.name != b"SHUFFLE");
                }
                let inits: Vec<usize> = (0..self.tags.len())
                    .filter(|&i| self.tags[i].name == b"INIT")
                    .collect();
                if inits.is_empty() {
                    return;
                }
                let t = &mut self.tags[inits[*init as usize % inits.len()]];
                let mut value = b"mt19937ar,".to_vec();
                value.extend_from_slice(&hex(words));
                match t.attrs.iter_mut().find(|(k, _)| k == b"shuffle") {
                    Some((_, v)) => *v = value,
                    None => t.attrs.push((b"shuffle".to_vec(), value)),
                }
            }
        }
    }

    fn render(&self, cut: Option<usize>) -> Vec<u8> {
        let mut out = self.head.clone();
        for t in &self.tags {
            t.write(&mut out);
        }
        out.extend_from_slice(&self.tail);
        if let Some(n) = cut {
            out.truncate(n % (out.len() + 1));
        }
        out
    }
}

/// The document a case describes: its seed with every edit applied.
pub fn render(case: &Case) -> Vec<u8> {
    let seeds = seeds();
    let mut doc = split(seeds[case.seed as usize % seeds.len()].1);
    let mut cut = None;
    for op in case.ops.iter().take(MAX_OPS) {
        doc.apply(op, &mut cut);
    }
    doc.render(cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unedited_seeds_round_trip_and_replay() {
        for (i, (name, bytes)) in seeds().iter().enumerate() {
            let doc = render(&Case {
                seed: i as u8,
                ops: Vec::new(),
            });
            let a = haifu::mjlog::decode(bytes).unwrap();
            let b = haifu::mjlog::decode(&doc).unwrap();
            assert_eq!(a.events, b.events, "{name}");
            haifu::stats::observe_game(&b, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// The walled seed is checked against its walls: one base64 character of its SHUFFLE seed
    /// changed makes another wall, and the replay refuses the deal.
    #[test]
    fn the_walled_seed_is_proved_by_its_wall() {
        let walled = seeds().iter().position(|(n, _)| *n == "walled").unwrap();
        let doc = render(&Case {
            seed: walled as u8,
            ops: vec![Op::Seed(SeedEdit::Char {
                at: 100,
                to: b'Q' - b' ',
            })],
        });
        let log = haifu::mjlog::decode(&doc).unwrap();
        let Err(e) = haifu::stats::observe_game(&log, &mut Vec::new()) else {
            panic!("another seed's wall fits");
        };
        assert_eq!(e.check, haifu::replay::Check::WallMismatch, "{e}");
    }
}
