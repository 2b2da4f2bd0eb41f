//! The scorer against every win of the shared corpus, and hand-worked wins.

use crate::mjlog::{decode, go_type, Event};
use crate::replay::HandState;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// `<corpus>/<sub>`: `$HAIFU_CORPUS` or `../shared/corpus` next to the repository. When
/// absent, says so loudly and returns `None`; with `HAIFU_REQUIRE_CORPUS=1` absence fails.
fn corpus(sub: &str) -> Option<PathBuf> {
    let root = match std::env::var_os("HAIFU_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    let p = root.join(sub);
    if p.is_dir() {
        return Some(p);
    }
    assert!(
        std::env::var("HAIFU_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "corpus {} is absent and HAIFU_REQUIRE_CORPUS=1",
        p.display()
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n*** SKIPPED: corpus {} is absent; this corpus test checks nothing ***\n",
        p.display()
    );
    None
}

/// What scoring one game's wins gave.
#[derive(Default)]
struct Tally {
    games: usize,
    wins: usize,
    proved: usize,
    /// Games the replay refused before their end (their wins after that are not counted).
    refused: usize,
    mismatches: Vec<String>,
}

/// Replays one log hand by hand (no wall check), scoring each AGARI from the state just
/// before it is applied and comparing with the record.
fn score_game(path: &Path) -> Tally {
    let mut t = Tally::default();
    let (mut raw, mut out) = (Vec::new(), Vec::new());
    let Ok(bytes) = crate::input::read_log(path, &mut raw, &mut out) else {
        return t;
    };
    let Ok(log) = decode(bytes) else { return t };
    let Some(go) = log.go_type else { return t };
    if go & go_type::THREE_PLAYER != 0 {
        return t;
    }
    t.games = 1;
    let red = go & go_type::NO_RED == 0;
    let mut st: Option<HandState> = None;
    let mut index = 0;
    for ev in &log.events {
        match ev {
            Event::Init(init) => {
                let Ok(mut h) = HandState::deal(init, red, index, None) else {
                    t.refused = 1;
                    return t;
                };
                h.open_tanyao = go & 0x04 == 0;
                st = Some(h);
                index += 1;
            }
            _ => {
                let Some(h) = st.as_mut() else { continue };
                if let Event::Agari(a) = ev {
                    t.wins += 1;
                    let got = h.score_win(a);
                    if got.is_some_and(|s| s.matches(&a.yaku, &a.yakuman, a.ten)) {
                        t.proved += 1;
                    } else {
                        let seat = &h.seats[a.who as usize];
                        let mut hai = a.hai.clone();
                        hai.sort_unstable();
                        let kinds: String = hai
                            .iter()
                            .map(|&x| crate::tile::kind_name(crate::tile::kind(x)))
                            .collect::<Vec<_>>()
                            .join(" ");
                        t.mismatches.push(format!(
                            "{} hand {}: who {} from {} machi {} hai [{kinds}] {hai:?} melds {:?} riichi {:?} log yaku {:?} yakuman {:?} ten {:?}; scored {}",
                            path.display(),
                            index - 1,
                            a.who,
                            a.from_who,
                            crate::tile::kind_name(crate::tile::kind(a.machi)),
                            seat.melds.iter().map(|m| (m.kind.name(), m.tiles().to_vec())).collect::<Vec<_>>(),
                            seat.riichi,
                            a.yaku,
                            a.yakuman,
                            a.ten,
                            got.map_or("nothing".into(), |s| s.to_string())
                        ));
                    }
                }
                if h.apply(ev).is_err() {
                    t.refused = 1;
                    return t;
                }
            }
        }
    }
    t
}

fn score_corpus(sub: &str) -> Option<Tally> {
    let dir = corpus(sub)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let tallies: Vec<Tally> = files.par_iter().map(|f| score_game(f)).collect();
    let mut all = Tally::default();
    for t in tallies {
        all.games += t.games;
        all.wins += t.wins;
        all.proved += t.proved;
        all.refused += t.refused;
        all.mismatches.extend(t.mismatches);
    }
    eprintln!(
        "{sub}: {} games ({} refused by the replay), {} wins, {} proved",
        all.games, all.refused, all.wins, all.proved
    );
    for m in all.mismatches.iter().take(40) {
        eprintln!("{m}");
    }
    Some(all)
}

/// Every win of the Phoenix corpus, scored from the replay's state, is the log's: yaku (as a
/// multiset of (id, han)), yakuman, fu, points and limit class.
#[test]
fn every_phoenix_win_is_scored_as_tenhou_writes_it() {
    let Some(t) = score_corpus("phoenix") else {
        return;
    };
    assert!(t.wins > 50_000, "{} wins", t.wins);
    assert_eq!(
        t.mismatches.len(),
        0,
        "{} of {} wins differ",
        t.mismatches.len(),
        t.wins
    );
    assert_eq!(t.proved, t.wins);
}

/// The same for the other rooms' games.
#[test]
fn every_other_win_is_scored_as_tenhou_writes_it() {
    let Some(t) = score_corpus("other") else {
        return;
    };
    assert!(t.wins > 30_000, "{} wins", t.wins);
    assert_eq!(
        t.mismatches.len(),
        0,
        "{} of {} wins differ",
        t.mismatches.len(),
        t.wins
    );
    assert_eq!(t.proved, t.wins);
}
