//! The wall check (src/wall; README, "The wall check"): every hand of a log with a seed is
//! replayed against the wall Tenhou's shuffle makes of that seed. A draw changed to another
//! tile that nothing else in the replay can notice fails with `wall-mismatch`, naming the hand
//! and the draw; real logs of every seed form, with a chankan and with four kans, are checked
//! and pass; the three-player walls put every dealt tile, draw and indicator of the sanma
//! corpus where they were.

mod common;

use std::path::{Path, PathBuf};

use common::{corpus, fixtures, run_ingest};
use haifu::ingest::RoomFilter;
use haifu::manifest::{FileEntry, Status, WallStatus};
use haifu::mjlog::{Event, GameLog, MeldKind};
use haifu::replay::Check;
use haifu::wall::{Players, Seed, Walls};

fn read(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    haifu::input::decompress(&raw, &mut out).unwrap().to_vec()
}

/// A tsumogiri draw of `log` (the drawn tile discarded at once, so no later record refers to
/// it) and another id of the same kind that appears nowhere in that hand: the edit swaps one
/// unseen copy for another, which every check but the wall's accepts. Returns (hand, 1-based
/// draw number within the hand, seat, old id, new id, index of the draw among all draw
/// events of the log).
fn swappable_draw(log: &GameLog) -> (usize, usize, u8, u8, u8, usize) {
    let mut hand = usize::MAX;
    let mut draws_in_hand = 0;
    let mut draw_index = 0;
    let mut seen: Vec<Vec<u8>> = Vec::new();
    // Tile ids of each hand, every place they can appear.
    for ev in &log.events {
        match ev {
            Event::Init(init) => {
                let mut s: Vec<u8> = init.hai.iter().flatten().copied().collect();
                s.push(init.dora_indicator);
                seen.push(s);
            }
            Event::Draw { tile, .. } | Event::Discard { tile, .. } | Event::Dora { tile } => {
                seen.last_mut().unwrap().push(*tile)
            }
            Event::Call { meld, .. } => seen.last_mut().unwrap().extend(meld.tiles()),
            Event::Agari(a) => {
                let s = seen.last_mut().unwrap();
                s.extend(&a.hai);
                s.extend(&a.dora_hai);
                s.extend(&a.ura_hai);
            }
            _ => {}
        }
    }
    let events = &log.events;
    for (i, ev) in events.iter().enumerate() {
        match ev {
            Event::Init(_) => {
                hand = hand.wrapping_add(1);
                draws_in_hand = 0;
            }
            Event::Draw { seat, tile } => {
                draws_in_hand += 1;
                draw_index += 1;
                let tsumogiri = matches!(events.get(i + 1),
                    Some(Event::Discard { seat: s, tile: t }) if s == seat && t == tile);
                // Red fives stay out of it (a red five for a black one is a different type).
                let kind = tile / 4;
                if !tsumogiri || [4, 13, 22].contains(&kind) || draws_in_hand < 5 {
                    continue;
                }
                let other = (kind * 4..kind * 4 + 4).find(|t| !seen[hand].contains(t));
                if let Some(new) = other {
                    return (hand, draws_in_hand, *seat, *tile, new, draw_index - 1);
                }
            }
            _ => {}
        }
    }
    panic!("no tsumogiri draw with an unseen copy of its kind")
}

/// `xml` with the `n`-th draw tag (0-based, among `<T…>`..`<W…>`) and the discard right after
/// it changed from `old` to `new`.
fn swap_draw(xml: &str, n: usize, old: u8, new: u8) -> String {
    let mut out = String::with_capacity(xml.len());
    let mut count = 0;
    let mut rest = xml;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find('>').unwrap() + 1;
        let tag = &rest[..end];
        let letter = tag.as_bytes()[1];
        let is_draw =
            b"TUVW".contains(&letter) && tag[2..end - 2].bytes().all(|b| b.is_ascii_digit());
        if is_draw && count == n {
            let draw = format!("<{}{old}/>", letter as char);
            assert_eq!(tag, draw);
            out.push_str(&format!("<{}{new}/>", letter as char));
            rest = &rest[end..];
            // The discard that follows.
            let d_end = rest.find('>').unwrap() + 1;
            let discard = &rest[..d_end];
            let d_letter = discard.as_bytes()[1] as char;
            assert_eq!(discard, format!("<{d_letter}{old}/>"));
            out.push_str(&format!("<{d_letter}{new}/>"));
            rest = &rest[d_end..];
            count += 1;
            continue;
        }
        count += is_draw as usize;
        out.push_str(tag);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Changes one draw of `path` and checks that the replay fails at it with `wall-mismatch`,
/// and that the same edit without the seed replays: only the wall can tell.
fn changed_draw_fails_at_that_draw(path: &Path) {
    let xml = String::from_utf8(read(path)).unwrap();
    let log = haifu::mjlog::decode(xml.as_bytes()).unwrap();
    haifu::stats::observe_game(&log, &mut Vec::new()).expect("the log replays as it is");
    let (hand, draw, seat, old, new, n) = swappable_draw(&log);
    let edited = swap_draw(&xml, n, old, new);
    let bad = haifu::mjlog::decode(edited.as_bytes()).unwrap();
    let Err(err) = haifu::stats::observe_game(&bad, &mut Vec::new()) else {
        panic!("the changed draw replays")
    };
    let kind = haifu::tile::kind_name(usize::from(old / 4));
    assert_eq!(err.check, Check::WallMismatch, "{err}");
    assert_eq!(err.hand, Some(hand));
    assert_eq!(
        err.detail,
        format!("draw {draw} of seat {seat} is {kind} (id {new}), the wall has {kind} (id {old})")
    );
    // Without its seed the edited log replays: the edit is invisible to every other check.
    let start = edited.find("<SHUFFLE").unwrap();
    let end = start + edited[start..].find("/>").unwrap() + 2;
    let unseeded = format!("{}{}", &edited[..start], &edited[end..]);
    let unseeded = haifu::mjlog::decode(unseeded.as_bytes()).unwrap();
    haifu::stats::observe_game(&unseeded, &mut Vec::new()).expect("no other check notices");
}

#[test]
fn a_changed_draw_of_a_real_log_fails_with_wall_mismatch() {
    let Some(dir) = corpus("phoenix") else { return };
    changed_draw_fails_at_that_draw(&dir.join("2024041313gm-00a9-0000-c0094cae.mjlog"));
    changed_draw_fails_at_that_draw(&dir.join("2009090100gm-00a9-0000-6920f1ac.mjlog"));
}

/// Through the ingest: the edited game fails with its reason in the manifest, the batch goes
/// on, and the untouched log is `checked`; the same log without its seed, and a fixture whose
/// made-up seed is 288 words where Tenhou's base64 form has 624, are `unchecked` with why.
#[test]
fn the_manifest_says_which_games_the_wall_checked() {
    let Some(phoenix) = corpus("phoenix") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let real = phoenix.join("2024041313gm-00a9-0000-c0094cae.mjlog");
    let xml = String::from_utf8(read(&real)).unwrap();
    let log = haifu::mjlog::decode(xml.as_bytes()).unwrap();
    let (hand, draw, seat, old, new, n) = swappable_draw(&log);
    let edited = dir.path().join("2024041313gm-00a9-0000-c0094caf.xml");
    std::fs::write(&edited, swap_draw(&xml, n, old, new)).unwrap();
    let start = xml.find("<SHUFFLE").unwrap();
    let end = start + xml[start..].find("/>").unwrap() + 2;
    let unseeded = dir.path().join("2024041313gm-00a9-0000-c0094cb0.xml");
    std::fs::write(&unseeded, format!("{}{}", &xml[..start], &xml[end..])).unwrap();
    let f001 = fixtures().join("2099010100gm-00a9-0000-0000f001.xml");
    let out = tempfile::tempdir().unwrap();
    let s = run_ingest(&[real, edited, unseeded, f001], out.path(), RoomFilter::Any);
    let files = s.manifest.files().unwrap();
    let by_name =
        |name: &str| -> &FileEntry { files.iter().find(|f| f.path.ends_with(name)).unwrap() };
    let good = by_name("c0094cae.mjlog");
    assert_eq!(
        (good.status, good.wall),
        (Status::Ok, Some(WallStatus::Checked))
    );
    assert_eq!(good.wall_reason, None);
    let bad = by_name("c0094caf.xml");
    assert_eq!((bad.status, bad.wall), (Status::Failed, None));
    let kind = haifu::tile::kind_name(usize::from(old / 4));
    assert_eq!(
        bad.reason_text().unwrap(),
        format!(
            "replay: hand {hand}: wall-mismatch: draw {draw} of seat {seat} is {kind} (id {new}), the wall has {kind} (id {old})"
        )
    );
    let none = by_name("c0094cb0.xml");
    assert_eq!(
        (none.status, none.wall),
        (Status::Ok, Some(WallStatus::Unchecked))
    );
    assert_eq!(none.wall_reason.as_deref(), Some("no seed"));
    let fixture = by_name("0000f001.xml");
    assert_eq!(
        (fixture.status, fixture.wall),
        (Status::Ok, Some(WallStatus::Unchecked))
    );
    let why = "SHUFFLE seed: base64 seed has 1152 bytes, not 2496";
    assert_eq!(fixture.wall_reason.as_deref(), Some(why));
    let t = &s.manifest.totals;
    assert_eq!((t.wall_checked, t.wall_unchecked), (1, 2));
    assert_eq!(t.wall_hands, u64::from(good.hands));
    let draws = log
        .events
        .iter()
        .filter(|e| matches!(e, Event::Draw { .. }))
        .count() as u64;
    assert_eq!(t.wall_draws, draws);
    let reasons = &s.manifest.walls_unchecked_by_reason;
    assert_eq!((reasons["no seed"], reasons[why], reasons.len()), (1, 1, 2));
}

/// One real log of each case the issue names, each checked and passing: 2009's hex seed,
/// 2008's per-hand seeds, a chankan (no replacement draw follows the robbed kan), and a hand
/// with four kans (four replacement draws, the live wall four tiles shorter).
#[test]
fn real_logs_of_every_seed_form_and_kan_case_are_checked() {
    let (Some(phoenix), Some(other)) = (corpus("phoenix"), corpus("other")) else {
        return;
    };
    let cases: [(PathBuf, &str); 5] = [
        (
            phoenix.join("2009090100gm-00a9-0000-6920f1ac.mjlog"),
            "hex seed",
        ),
        (
            other.join("2008092000gm-0009-0000-10db094d.mjlog"),
            "per-hand seeds",
        ),
        (
            other.join("2016022509gm-0009-0000-b327da61.mjlog"),
            "base64 seed",
        ),
        (
            phoenix.join("2010081709gm-00a9-0000-fe3371ad.mjlog"),
            "chankan in hand 4",
        ),
        (
            phoenix.join("2024041313gm-00a9-0000-c0094cae.mjlog"),
            "four kans in hand 0",
        ),
    ];
    for (path, what) in &cases {
        let out = tempfile::tempdir().unwrap();
        let s = run_ingest(std::slice::from_ref(path), out.path(), RoomFilter::Any);
        let files = s.manifest.files().unwrap();
        assert_eq!(files.len(), 1);
        let e = &files[0];
        assert_eq!(
            (e.status, e.wall, e.wall_reason.as_deref()),
            (Status::Ok, Some(WallStatus::Checked), None),
            "{what}: {:?}",
            e.reason_text()
        );
        assert_eq!(s.manifest.totals.wall_hands, u64::from(e.hands), "{what}");
    }
    // The chankan and the four kans really are there.
    let kans = |path: &Path, hand: usize| {
        let log = haifu::mjlog::decode(&read(path)).unwrap();
        let mut h = usize::MAX;
        let mut n = 0;
        for ev in &log.events {
            match ev {
                Event::Init(_) => h = h.wrapping_add(1),
                Event::Call { meld, .. } if h == hand && meld.kind.name().contains("kan") => n += 1,
                _ => {}
            }
        }
        n
    };
    assert_eq!(kans(&cases[4].0, 0), 4);
    assert!(kans(&cases[3].0, 4) >= 1);
}

/// Every Phoenix and other-room game is checked against its wall: hands and draws equal the
/// replay's, and no game is unchecked; and every win is scored and proved.
#[test]
fn every_phoenix_and_other_room_game_is_checked() {
    for (sub, room, games, hands, wins) in [
        ("phoenix", RoomFilter::Phoenix, 6448, 65139, 55387),
        ("other", RoomFilter::Any, 4141, 43520, 37082),
    ] {
        let Some(dir) = corpus(sub) else { return };
        let out = tempfile::tempdir().unwrap();
        let s = run_ingest(&[dir], out.path(), room);
        let t = &s.manifest.totals;
        assert_eq!((t.ok, t.failed), (games, 0), "{sub}");
        assert_eq!((t.wall_checked, t.wall_unchecked), (games, 0), "{sub}");
        assert_eq!(t.wall_hands, hands, "{sub}");
        assert_eq!(t.wall_draws, s.manifest.corpus.draws, "{sub}");
        // Every AGARI of the corpus, and every one proved (docs/inputs.md, "Every win scored").
        assert_eq!((t.wins, t.wins_proved), (wins, wins), "{sub}");
        // At least the INIT indicator of every hand, and the AGARI lists.
        assert!(
            t.wall_indicators > 2 * hands,
            "{sub}: {}",
            t.wall_indicators
        );
        eprintln!(
            "wall check, {sub}: {} games, {} hands, {} draws, {} indicators",
            t.wall_checked, t.wall_hands, t.wall_draws, t.wall_indicators
        );
    }
}

/// Three-player walls (108 tiles, eight replacement draws for kans and kita): every hand of
/// the sanma corpus is dealt, draws and shows its indicators where its wall puts them, checked
/// here on their own (the replay checks them too: `corpus.rs`).
#[test]
fn three_player_walls_match_every_sanma_hand() {
    let Some(dir) = corpus("sanma") else { return };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let (mut hands, mut draws, mut replacements, mut indicators) = (0, 0, 0, 0);
    for path in &paths {
        let log = haifu::mjlog::decode(&read(path)).unwrap();
        let seed = log
            .events
            .iter()
            .find_map(|e| match e {
                Event::Shuffle { seed } => seed.clone(),
                _ => None,
            })
            .expect("every sanma log has a seed");
        let mut walls = Walls::new(&Seed::parse(&seed).unwrap(), Players::Three);
        let mut wall = None;
        let (mut live, mut repl, mut shown) = (0, 0, 0);
        let mut replacement_next = false;
        let at = |ev: &Event| format!("{}: {ev:?}", path.display());
        for ev in &log.events {
            match ev {
                Event::Init(init) => {
                    let w = walls.next(None).unwrap();
                    assert_eq!(w.tiles().len(), 108);
                    for s in 0..3 {
                        let from_dealer = (s + 3 - usize::from(init.oya)) % 3;
                        assert_eq!(init.hai[s], w.dealt(from_dealer), "{}", at(ev));
                    }
                    assert!(init.hai[3].is_empty());
                    assert_eq!(init.dice.map(|d| d + 1), w.dice, "{}", at(ev));
                    assert_eq!(Some(init.dora_indicator), w.dora(0), "{}", at(ev));
                    wall = Some(w);
                    (live, repl, shown) = (0, 0, 1);
                    // A hand can end on a kan or a kita (a robbed kan, four kans).
                    replacement_next = false;
                    hands += 1;
                    indicators += 1;
                }
                Event::Call { meld, .. } => {
                    replacement_next = matches!(
                        meld.kind,
                        MeldKind::Ankan | MeldKind::Kakan | MeldKind::Daiminkan
                    )
                }
                Event::Kita { .. } => replacement_next = true,
                Event::Draw { tile, .. } => {
                    let w = wall.as_ref().unwrap();
                    if replacement_next {
                        assert_eq!(w.rinshan(repl), Some(*tile), "{}", at(ev));
                        repl += 1;
                        replacements += 1;
                    } else {
                        assert_eq!(w.live(live, repl), Some(*tile), "{}", at(ev));
                        live += 1;
                    }
                    draws += 1;
                    replacement_next = false;
                }
                Event::Dora { tile } => {
                    assert_eq!(
                        wall.as_ref().unwrap().dora(shown),
                        Some(*tile),
                        "{}",
                        at(ev)
                    );
                    shown += 1;
                    indicators += 1;
                }
                Event::Agari(a) => {
                    let w = wall.as_ref().unwrap();
                    for (k, t) in a.dora_hai.iter().enumerate() {
                        assert_eq!(w.dora(k), Some(*t), "{}", at(ev));
                    }
                    for (k, t) in a.ura_hai.iter().enumerate() {
                        assert_eq!(w.ura(k), Some(*t), "{}", at(ev));
                    }
                    indicators += a.dora_hai.len() + a.ura_hai.len();
                }
                Event::Ryuukyoku(r) if r.kind.is_none() => {
                    // An exhaustive draw ends at haitei: 55 draws, live and replacement.
                    assert_eq!(live + repl, 55, "{}", at(ev));
                }
                _ => {}
            }
        }
    }
    assert_eq!((paths.len(), hands), (278, 2534));
    eprintln!(
        "three-player walls: {hands} hands, {draws} draws ({replacements} replacement), {indicators} indicators"
    );
    assert!(replacements > 5000, "{replacements}");
}

/// The `walls` frame of a made-up game the check proves (three hands, each 70 tsumogiri draws
/// and an exhaustive draw): one row per hand whose `tiles` and `ids` are the wall in the order
/// it is taken, as `Wall::in_order` gives it, with its dice and what the hand used.
#[test]
fn the_walls_frame_holds_each_hand_s_wall_in_the_order_taken() {
    let mut words = [0u32; 624];
    for (i, w) in words.iter_mut().enumerate() {
        *w = (i as u32).wrapping_mul(0x0123_4567).rotate_left(5) ^ 0xdead_beef;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("2099030100gm-00a9-0000-0000a002.xml");
    std::fs::write(&log, haifu::wall::tsumogiri_log(&words, 3)).unwrap();
    let out = tempfile::tempdir().unwrap();
    let s = haifu::ingest::ingest(&haifu::ingest::IngestOptions {
        inputs: vec![log],
        out: out.path().to_path_buf(),
        room: RoomFilter::Any,
        dates: Default::default(),
        strict: true,
        progress: false,
        observe: haifu::stats::Observe {
            walls: true,
            ..Default::default()
        },
        tsumo_validation: false,
        convert: None,
        append: false,
        shard: None,
    })
    .unwrap();
    assert_eq!(s.manifest.totals.wall_checked, 1);
    let frame = common::frame(out.path(), "walls");
    assert_eq!(frame.height(), 3);
    let text = |c: &str| -> Vec<String> {
        let col = frame.column(c).unwrap().str().unwrap().clone();
        col.iter().map(|v| v.unwrap().to_string()).collect()
    };
    let int = |c: &str| -> Vec<i64> {
        let col = frame
            .column(c)
            .unwrap()
            .cast(&polars::prelude::DataType::Int64)
            .unwrap();
        col.i64().unwrap().iter().map(Option::unwrap).collect()
    };
    let (tiles, ids) = (text("tiles"), text("ids"));
    let (hand, d1, d2) = (int("hand"), int("dice_1"), int("dice_2"));
    let (live, rinshan, indicators) = (int("live_draws"), int("rinshan_draws"), int("indicators"));
    let text_seed = {
        use base64::Engine;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
        format!("mt19937ar-sha512-n288-base64,{b64}")
    };
    let mut walls = Walls::new(&Seed::parse(&text_seed).unwrap(), Players::Four);
    for h in 0..3 {
        let wall = walls.next(None).unwrap();
        let order = wall.in_order().unwrap();
        assert_eq!(hand[h], h as i64);
        assert_eq!([d1[h], d2[h]], wall.dice.map(i64::from));
        assert_eq!((live[h], rinshan[h], indicators[h]), (70, 0, 1));
        assert_eq!(text("dead_wall")[h], "current");
        assert_eq!(tiles[h].len(), 272);
        assert_eq!(ids[h].len(), 408);
        for (i, &t) in order.iter().enumerate() {
            assert_eq!(
                ids[h][3 * i..3 * i + 3].parse::<u8>().unwrap(),
                t,
                "hand {h} tile {i}"
            );
            let kind = haifu::tile::kind_name(usize::from(t / 4));
            let want = if [16, 52, 88].contains(&t) {
                format!("0{}", &kind[1..])
            } else {
                kind.to_string()
            };
            assert_eq!(&tiles[h][2 * i..2 * i + 2], want, "hand {h} tile {i}");
        }
        // The deal first: the dealer's first four tiles (hand h's dealer is seat h).
        assert_eq!(order[..4], wall.dealt(0)[..4]);
        assert_eq!(order[126], wall.dora(0).unwrap());
    }
}
