//! The legal actions on hand-worked positions and real logs, and the second proof on the
//! corpus.

use super::*;
use crate::mjlog::decode;
use crate::replay::{replay_game, Observer};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Counts decisions per (kind, observed) and taken actions (their text up to `:`).
#[derive(Default)]
struct Count {
    kinds: BTreeMap<(&'static str, bool), u64>,
    taken: BTreeMap<String, u64>,
    rows: Vec<Decision>,
    keep: bool,
}

impl Observer for Count {
    fn wants_decisions(&self) -> bool {
        true
    }
    fn decision(&mut self, _: &HandState, d: &Decision) {
        *self
            .kinds
            .entry((d.kind.as_str(), d.observed()))
            .or_default() += 1;
        let t = d.taken.map_or("(unobserved)".into(), |a| {
            let s = a.to_string();
            s.split(':').next().unwrap_or("").to_string()
        });
        *self.taken.entry(t).or_default() += 1;
        if self.keep {
            self.rows.push(d.clone());
        }
    }
}

/// A no-op observer that asks for decisions or not.
struct Plain(bool);
impl Observer for Plain {
    fn wants_decisions(&self) -> bool {
        self.0
    }
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn read(f: &Path) -> Option<crate::mjlog::GameLog> {
    let (mut raw, mut out) = (Vec::new(), Vec::new());
    let bytes = crate::input::read_log(f, &mut raw, &mut out).ok()?;
    decode(bytes).ok()
}

/// Every action of every Phoenix and other-room game is in its legal set, and the counts of
/// decisions per kind. Prints the cost of the check: the replay of every game with and
/// without the tracker.
#[test]
fn every_corpus_action_is_legal() {
    for sub in ["phoenix", "other"] {
        let Some(dir) = crate::score::tests::corpus(sub) else {
            continue;
        };
        let logs: Vec<_> = listing(&dir)
            .par_iter()
            .filter_map(|f| read(f).map(|l| (f.clone(), l)))
            .filter(|(_, l)| l.go_type.is_some_and(|g| g & 0x10 == 0))
            .collect();
        let t0 = std::time::Instant::now();
        let plain: usize = logs
            .par_iter()
            .map(|(_, l)| usize::from(replay_game(l, &mut Plain(false)).is_ok()))
            .sum();
        let t_plain = t0.elapsed();
        let t0 = std::time::Instant::now();
        let checked: usize = logs
            .par_iter()
            .map(|(_, l)| usize::from(replay_game(l, &mut Plain(true)).is_ok()))
            .sum();
        let t_checked = t0.elapsed();
        let out: Vec<Result<Count, String>> = logs
            .par_iter()
            .map(|(f, l)| {
                let mut c = Count::default();
                replay_game(l, &mut c)
                    .map(|_| c)
                    .map_err(|e| format!("{}: {e}", f.display()))
            })
            .collect();
        let mut all = Count::default();
        let mut refused = Vec::new();
        for o in out {
            match o {
                Ok(c) => {
                    for (k, n) in c.kinds {
                        *all.kinds.entry(k).or_default() += n;
                    }
                    for (k, n) in c.taken {
                        *all.taken.entry(k).or_default() += n;
                    }
                }
                Err(e) => refused.push(e),
            }
        }
        eprintln!(
            "{sub}: {} games; replay alone {:.2?} ({plain} replay), with the legal actions {:.2?} ({checked} replay)",
            logs.len(),
            t_plain,
            t_checked
        );
        for ((k, obs), n) in &all.kinds {
            eprintln!(
                "{sub}: decisions {k} {} {n}",
                if *obs { "observed" } else { "unobserved" }
            );
        }
        for (k, n) in &all.taken {
            eprintln!("{sub}: taken {k} {n}");
        }
        for e in refused.iter().take(30) {
            eprintln!("REFUSED {e}");
        }
        assert!(refused.is_empty(), "{sub}: {} games refused", refused.len());
        assert_eq!(plain, logs.len(), "{sub}");
    }
}

/// The edge corpus (logs of other projects, some broken on purpose): which files the second
/// proof refuses that the replay alone accepts.
#[test]
fn edge_files_newly_refused() {
    let Some(edge) = crate::score::tests::corpus("edge") else {
        return;
    };
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&edge).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            files.extend(listing(&dir));
        }
    }
    let mut newly = Vec::new();
    let mut checked = 0;
    for f in &files {
        let Some(log) = read(f) else { continue };
        if replay_game(&log, &mut Plain(false)).is_err() {
            continue;
        }
        checked += 1;
        if let Err(e) = replay_game(&log, &mut Plain(true)) {
            newly.push(format!("{}: {e}", f.display()));
        }
    }
    eprintln!("edge: {checked} files replay; newly refused by the second proof:");
    for n in &newly {
        eprintln!("  {n}");
    }
    assert!(newly.is_empty(), "{} edge files newly refused", newly.len());
}
