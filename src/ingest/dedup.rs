//! The log ids of the games landed so far, shared by the merger (which adds to them) and the
//! workers (which skip a later copy of a landed game).

use std::collections::HashMap;
use std::sync::Mutex;

/// The log ids of the games landed so far, and the input that landed each.
///
/// An id is kept as a 128-bit hash (two SipHash values), so an entry takes about 40 bytes
/// plus its path's bytes in one arena, instead of two strings: two different ids of a run
/// share a key with probability about n²/2¹²⁹ (1e-26 for 2.5 million games).
#[derive(Default)]
pub(super) struct LandedIds {
    /// Key of each landed id → its ordinal (index into `ends`).
    ordinal: HashMap<(u64, u64), u32>,
    /// The landing inputs' paths, one after another; path i ends at `ends[i]`.
    paths: String,
    ends: Vec<usize>,
}

impl LandedIds {
    fn key(id: &str) -> (u64, u64) {
        use std::hash::{Hash, Hasher};
        let mut a = std::hash::DefaultHasher::new();
        id.hash(&mut a);
        let mut b = std::hash::DefaultHasher::new();
        (0x9e37_79b9_7f4a_7c15_u64, id).hash(&mut b);
        (a.finish(), b.finish())
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub(super) fn contains(&self, id: &str) -> bool {
        self.ordinal.contains_key(&Self::key(id))
    }

    /// The path that landed `id`, if it landed.
    pub(super) fn path(&self, id: &str) -> Option<&str> {
        let i = *self.ordinal.get(&Self::key(id))? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.paths[start..self.ends[i]])
    }

    /// Records that `path` landed `id` (which has not landed yet).
    pub(super) fn insert(&mut self, id: &str, path: &str) {
        let i = u32::try_from(self.ends.len()).expect("fewer than 2^32 landed games");
        self.paths.push_str(path);
        self.ends.push(self.paths.len());
        self.ordinal.insert(Self::key(id), i);
    }
}

/// [`LandedIds`], shared by the merger and the workers.
pub(super) type Landed = Mutex<LandedIds>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Each landed id gives back the path that landed it; other ids are not landed.
    #[test]
    fn landed_ids_give_back_their_paths() {
        let mut landed = LandedIds::default();
        let ids = ["2024041200gm-00a9-0000-0123abcd", "x/y", ""];
        let paths = ["/logs/a.mjlog", "", "/db.sqlite#"];
        for (id, path) in ids.iter().zip(paths) {
            assert!(!landed.contains(id));
            landed.insert(id, path);
        }
        for (id, path) in ids.iter().zip(paths) {
            assert!(landed.contains(id));
            assert_eq!(landed.path(id), Some(path));
        }
        assert!(!landed.contains("2024041200gm-00a9-0000-0123abce"));
        assert_eq!(landed.path("x/z"), None);
    }
}
