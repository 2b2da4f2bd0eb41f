//! Log formats other than Tenhou's mjlog XML (`crate::mjlog`). Each module knows its format
//! and nothing of statistics.
//!
//! - [`mjai`]: mjai JSON lines (Mortal's dialect), written from a decoded mjlog game
//!   (`haifu convert --to mjai`);
//! - [`tenhou6`]: tenhou.net/6 JSON, written from a decoded mjlog game (`--to tenhou6`).

pub mod mjai;
pub mod tenhou6;

use std::fmt::Write as _;

/// `s` as a JSON string.
pub(crate) fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    /// A player's name as JSON: quotes, backslashes and control characters escaped, the rest
    /// (Japanese included) as is.
    #[test]
    fn names_as_json_strings() {
        let mut out = String::new();
        super::json_str(&mut out, "a\"b\\c\u{1}\n鬼ヅモ");
        assert_eq!(out, "\"a\\\"b\\\\c\\u0001\\u000a鬼ヅモ\"");
    }
}
