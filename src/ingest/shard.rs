//! `--shard K/N`: which inputs an ingest takes, so that N machines (or jobs of a batch
//! scheduler) each ingest a share and `haifu merge` joins their directories; and what
//! identifies a game's content where it has no log id.
//!
//! Invariants: an input's shard depends on nothing but its key, so every machine puts it in
//! the same shard, whatever else it was given; the key of a game with a Tenhou log id is that
//! id, so every copy of it (other files, other formats named by the id) goes to the same shard
//! and is found a duplicate there.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha512};

/// Shard K of N (K counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: u32,
    n: u32,
}

impl Shard {
    /// Shard `k` of `n`; `None` unless 1 ≤ k ≤ n.
    pub fn new(k: u32, n: u32) -> Option<Shard> {
        (1..=n).contains(&k).then_some(Shard { k, n })
    }

    /// K.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// N.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// True when the input whose key is `key` is this shard's: the first eight bytes of the
    /// SHA-512 of the key, as a big-endian number, modulo N, are K − 1.
    pub(crate) fn takes(&self, key: &str) -> bool {
        let d = Sha512::digest(key.as_bytes());
        let x = u64::from_be_bytes(d[..8].try_into().expect("8 bytes"));
        x % u64::from(self.n) == u64::from(self.k - 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let parsed = s.split_once('/').and_then(|(k, n)| {
            Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?))
        });
        let Some((k, n)) = parsed else {
            return Err(format!(
                "{s:?} is not K/N: give the shard as two numbers, e.g. --shard 1/4 (shard 1 of 4)"
            ));
        };
        Shard::new(k, n).ok_or_else(|| {
            if n == 0 {
                format!("shard {s}: N must be at least 1")
            } else {
                format!("shard {s}: K counts the shards from 1 to N, so K must be 1..={n}")
            }
        })
    }
}

/// What identifies a document's content: `sha512:` and the first 16 hex digits of the
/// SHA-512 of its (decompressed) bytes.
pub(crate) fn content_key(bytes: &[u8]) -> String {
    let d = Sha512::digest(bytes);
    let mut key = String::with_capacity(23);
    key.push_str("sha512:");
    for b in &d[..8] {
        key.push_str(&format!("{b:02x}"));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    /// K/N parses for 1 ≤ K ≤ N; 0/4, 5/4, 1/0 and text are refused saying what to give.
    #[test]
    fn shard_specs() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { k: 2, n: 4 }));
        assert_eq!(" 1 / 1 ".parse::<Shard>(), Ok(Shard { k: 1, n: 1 }));
        assert_eq!(Shard { k: 3, n: 8 }.to_string(), "3/8");
        let err = |s: &str| s.parse::<Shard>().unwrap_err();
        assert!(err("0/4").contains("K must be 1..=4"), "{}", err("0/4"));
        assert!(err("5/4").contains("K must be 1..=4"));
        assert!(err("1/0").contains("N must be at least 1"));
        assert!(err("two").contains("is not K/N"));
        assert!(err("1/x").contains("is not K/N"));
    }

    /// Every key falls in exactly one of N shards, and the shares are about even (the hash is
    /// SHA-512's first eight bytes: worked here for 4,000 log ids).
    #[test]
    fn every_key_in_one_shard() {
        let n = 4;
        let mut counts = [0u32; 4];
        for i in 0..4000u32 {
            let key = format!("2024010100gm-00a9-0000-{i:08x}");
            let owners: Vec<u32> = (1..=n)
                .filter(|&k| Shard::new(k, n).unwrap().takes(&key))
                .collect();
            assert_eq!(owners.len(), 1, "{key}");
            counts[(owners[0] - 1) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (900..1100).contains(&c)),
            "{counts:?}"
        );
        // The shard of a key is fixed by the definition: SHA-512("abc") starts ddaf35a1 93617aba,
        // and 0xddaf35a193617aba mod 4 = 2 (…ba = 186, 186 mod 4 = 2): shard 3 of 4.
        assert!(Shard::new(3, 4).unwrap().takes("abc"));
        assert_eq!(content_key(b"abc"), "sha512:ddaf35a193617aba");
    }
}
