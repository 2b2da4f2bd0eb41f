//! A cursor over JSON text for the readers' fast paths (mjai's lines, majiang's paipu): each
//! reads the usual shape of its format by hand and leaves anything else to serde, which then
//! gives the same value or the error. Every method returns `None` on anything it does not read
//! (an escape where a borrowed string is wanted, a number out of range or with a fraction, a
//! value of another type).
//!
//! Invariant: where a method returns `Some`, serde reading the same text into the same Rust
//! type gives the same value (the readers' tests compare the two on every corpus file).

use std::borrow::Cow;

/// A position in a JSON text.
pub(crate) struct Scan<'a> {
    s: &'a str,
    b: &'a [u8],
    pub(crate) i: usize,
}

impl<'a> Scan<'a> {
    pub(crate) fn new(s: &'a str) -> Self {
        Scan {
            s,
            b: s.as_bytes(),
            i: 0,
        }
    }

    /// The keys of an object in turn, each value read by `value` (which returns `None` for a
    /// key it does not know or a value it cannot read); `None` on a duplicate of a key `value`
    /// numbered (below 32), or on anything that is not an object; else the set of keys numbered
    /// below 32 that it had, as bits.
    pub(crate) fn object(
        &mut self,
        mut value: impl FnMut(&mut Self, &str) -> Option<u32>,
    ) -> Option<u32> {
        self.ws();
        self.eat(b'{')?;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(0);
        }
        let mut seen = 0u32;
        loop {
            self.ws();
            let key = self.string()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            let field = value(self, key)?;
            if field < 32 {
                if seen & (1 << field) != 0 {
                    return None;
                }
                seen |= 1 << field;
            }
            self.ws();
            match self.next()? {
                b',' => continue,
                b'}' => return Some(seen),
                _ => return None,
            }
        }
    }

    /// The bytes not yet read.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.b[self.i..]
    }

    /// The text between two byte offsets, if they are character boundaries.
    pub(crate) fn text(&self, start: usize, end: usize) -> Option<&'a str> {
        self.s.get(start..end)
    }

    /// Whether the whole text has been read.
    pub(crate) fn at_end(&self) -> bool {
        self.i == self.b.len()
    }

    /// A string, borrowed when it has no escape, else decoded (by serde) into an owned one.
    pub(crate) fn cow(&mut self) -> Option<Cow<'a, str>> {
        let at = self.i;
        if let Some(s) = self.string() {
            return Some(Cow::Borrowed(s));
        }
        self.i = at;
        self.eat(b'"')?;
        loop {
            match self.next()? {
                b'"' => break,
                b'\\' => self.i += 1,
                c if c < 0x20 => return None,
                _ => {}
            }
        }
        let text = self.s.get(at..self.i)?;
        serde_json::from_str::<String>(text).ok().map(Cow::Owned)
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    pub(crate) fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    pub(crate) fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    pub(crate) fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// A string without escapes or control characters.
    pub(crate) fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        // mjai's strings are short (a tile, a key): a plain loop beats a vectorised search's
        // call.
        let len = self.b[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        self.i = start + len;
        self.eat(b'"')?;
        self.s.get(start..start + len)
    }

    pub(crate) fn int(&mut self) -> Option<i64> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let digits = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        // JSON has no leading zeros; a fraction or exponent is not an integer.
        let leading_zero = digits > 1 && self.b[self.i] == b'0';
        if digits == 0
            || digits > 15
            || leading_zero
            || matches!(self.b.get(self.i + digits), Some(b'.' | b'e' | b'E'))
        {
            return None;
        }
        let value = self.b[self.i..self.i + digits]
            .iter()
            .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
        self.i += digits;
        Some(if negative { -value } else { value })
    }

    pub(crate) fn small(&mut self) -> Option<u8> {
        u8::try_from(self.int()?).ok()
    }

    pub(crate) fn boolean(&mut self) -> Option<bool> {
        for (word, v) in [(&b"true"[..], true), (b"false", false)] {
            if self.b[self.i..].starts_with(word) {
                self.i += word.len();
                return Some(v);
            }
        }
        None
    }

    /// `null` as `None`, else the value.
    pub(crate) fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.b[self.i..].starts_with(b"null") {
            self.i += 4;
            return Some(None);
        }
        f(self).map(Some)
    }

    pub(crate) fn list<T>(&mut self, mut f: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut out = Vec::new();
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(out);
        }
        loop {
            self.ws();
            out.push(f(self)?);
            self.ws();
            match self.next()? {
                b',' => continue,
                b']' => return Some(out),
                _ => return None,
            }
        }
    }

    /// An unknown key's value: a string, a number, a boolean, null, or a list of those.
    pub(crate) fn skip_simple(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'[' => self.list(|s| s.skip_simple()).map(drop),
            b't' | b'f' => self.boolean().map(drop),
            b'n' => self
                .opt(|_| None::<()>)
                .and_then(|o| o.is_none().then_some(())),
            _ => self.int().map(drop),
        }
    }
}

/// The start of a usual event in one of two exact byte forms: `a` or `b`, one decimal digit,
/// then `then`. Whether it began with `a`, the digit, and the bytes after `then`.
pub(crate) fn two_forms<'b>(
    bytes: &'b [u8],
    a: &[u8],
    b: &[u8],
    then: &[u8],
) -> Option<(bool, u8, &'b [u8])> {
    let (first, rest) = match bytes.strip_prefix(a) {
        Some(r) => (true, r),
        None => (false, bytes.strip_prefix(b)?),
    };
    let (&digit, rest) = rest.split_first()?;
    if !digit.is_ascii_digit() {
        return None;
    }
    Some((first, digit - b'0', rest.strip_prefix(then)?))
}
