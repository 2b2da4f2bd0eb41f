//! The scorer against every win of the shared corpus, and hand-worked wins.

use crate::mjlog::{decode, go_type, Event};
use crate::replay::HandState;
use crate::rules::Players;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// `<corpus>/<sub>`: `$HAIFU_CORPUS` or `../shared/corpus` next to the repository. When
/// absent, says so loudly and returns `None`; with `HAIFU_REQUIRE_CORPUS=1` absence fails.
pub(crate) fn corpus(sub: &str) -> Option<PathBuf> {
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
                let Ok(mut h) = HandState::deal(init, Players::Four, red, index, None) else {
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

// ---- Hand-worked wins. Tile notation: `123m456p789s1234567z`; in `ids` a `0` is the red
// five (id 16, 52 or 88) and other fives take the black copies first.

use super::{score, Score, Win};
use crate::mjlog::{decode_meld, Meld, MeldKind};
use crate::tile::TileId;

/// Tile ids of compact notation, each kind's copies in order (black fives first).
fn ids(s: &str) -> Vec<TileId> {
    let mut used = [0u8; 34];
    let mut out = Vec::new();
    let mut digits = Vec::new();
    for ch in s.chars() {
        match ch {
            '0'..='9' => digits.push(ch.to_digit(10).unwrap() as usize),
            'm' | 'p' | 's' | 'z' => {
                let base = match ch {
                    'm' => 0,
                    'p' => 9,
                    's' => 18,
                    _ => 27,
                };
                for d in digits.drain(..) {
                    let k = base + if d == 0 { 4 } else { d - 1 };
                    let copy = if d == 0 {
                        0
                    } else if base < 27 && d == 5 {
                        // Black fives: copies 1, 2, 3 (copy 0 is the red one).
                        used[k] += 1;
                        used[k] % 4
                    } else {
                        used[k] += 1;
                        used[k] - 1
                    };
                    out.push((4 * k) as u8 + copy);
                }
            }
            _ => panic!("bad notation {s}"),
        }
    }
    out
}

fn meld(kind: MeldKind, s: &str) -> Meld {
    let mut t = ids(s);
    t.sort_unstable();
    let mut tiles = [0; 4];
    tiles[..t.len()].copy_from_slice(&t);
    Meld {
        kind,
        tiles,
        len: t.len() as u8,
        called: (kind != MeldKind::Ankan).then_some(t[0]),
        added: None,
        from_rel: u8::from(kind != MeldKind::Ankan) * 3,
    }
}

/// Scores `concealed` (winning tile included) with `melds`, won on the last copy of `win`
/// in `concealed`: a non-dealer south seat in the east round, red fives and open tanyao on,
/// no dora; `f` changes the rest.
fn play(
    concealed: &str,
    melds: &[Meld],
    win: &str,
    tsumo: bool,
    f: impl FnOnce(&mut Win<'_>),
) -> Option<Score> {
    play_dora(concealed, melds, win, tsumo, "", f)
}

/// [`play`] with the dora indicators of `dora` (notation).
fn play_dora(
    concealed: &str,
    melds: &[Meld],
    win: &str,
    tsumo: bool,
    dora: &str,
    f: impl FnOnce(&mut Win<'_>),
) -> Option<Score> {
    let dora = ids(dora);
    let concealed = ids(concealed);
    let wk = ids(win)[0] / 4;
    let win_tile = *concealed
        .iter()
        .rev()
        .find(|&&t| t / 4 == wk)
        .expect("winning tile held");
    let mut w = Win {
        concealed: &concealed,
        melds,
        win_tile,
        tsumo,
        seat_wind: 1,
        round_wind: 0,
        dealer: false,
        dora_indicators: &dora,
        ura_indicators: &[],
        riichi: false,
        double_riichi: false,
        ippatsu: false,
        haitei: false,
        houtei: false,
        rinshan: false,
        chankan: false,
        tenhou: false,
        chiihou: false,
        red: true,
        open_tanyao: true,
        players: Players::Four,
        kita: 0,
    };
    f(&mut w);
    score(&w)
}

fn list<T: std::str::FromStr>(s: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    s.split(',')
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap())
        .collect()
}

/// Scores a real AGARI from its attributes (`hai`, `m`, `machi`, `who`, `fromWho`, the
/// INIT's `oya` and round, `doraHai`, `doraHaiUra`): riichi when it lists ura indicators;
/// `f` sets what else the replay knew (ippatsu, haitei …).
#[allow(clippy::too_many_arguments)]
fn real(
    hai: &str,
    m: &str,
    machi: TileId,
    who: u8,
    from: u8,
    oya: u8,
    round: u8,
    dora: &str,
    ura: &str,
    f: impl FnOnce(&mut Win<'_>),
) -> Option<Score> {
    let hai: Vec<TileId> = list(hai);
    let melds: Vec<Meld> = list::<u32>(m)
        .into_iter()
        .map(|c| decode_meld(c).unwrap())
        .collect();
    let (dora, ura): (Vec<TileId>, Vec<TileId>) = (list(dora), list(ura));
    let mut w = Win {
        concealed: &hai,
        melds: &melds,
        win_tile: machi,
        tsumo: who == from,
        seat_wind: (who + 4 - oya) % 4,
        round_wind: round / 4,
        dealer: who == oya,
        dora_indicators: &dora,
        ura_indicators: &ura,
        riichi: !ura.is_empty(),
        double_riichi: false,
        ippatsu: false,
        haitei: false,
        houtei: false,
        rinshan: false,
        chankan: false,
        tenhou: false,
        chiihou: false,
        red: true,
        open_tanyao: true,
        players: Players::Four,
        kita: 0,
    };
    f(&mut w);
    score(&w)
}

#[track_caller]
fn expect(s: Option<Score>, yaku: &[(u8, u8)], yakuman: &[u8], ten: [i32; 3]) {
    let s = s.expect("a complete hand with a yaku");
    assert!(
        s.matches(yaku, yakuman, ten),
        "scored {s}, expected yaku {yaku:?} yakuman {yakuman:?} ten {ten:?}"
    );
}

/// `matches` reads the log's lists in any order and compares every number.
#[test]
fn a_score_matches_the_log_in_any_order_and_only_exactly() {
    // 123m 456m 234p 678s 99p, ron 1m: pinfu alone, 30 fu, 1,000.
    let s = play("123m456m234p678s99p", &[], "1m", false, |_| {}).unwrap();
    assert!(s.matches(&[(7, 1)], &[], [30, 1000, 0]));
    assert!(!s.matches(&[(7, 1)], &[], [40, 1000, 0]));
    assert!(!s.matches(&[(7, 1), (52, 1)], &[], [30, 1000, 0]));
    assert!(!s.matches(&[(8, 1)], &[], [30, 1000, 0]));
    assert!(!s.matches(&[(7, 1)], &[40], [30, 1000, 0]));
    let r = play("123m456m234p678s99p", &[], "1m", true, |w| w.riichi = true).unwrap();
    // Riichi, tsumo, pinfu, ura 0 in another order: 3 han 20 fu.
    assert!(r.matches(&[(53, 0), (7, 1), (0, 1), (1, 1)], &[], [20, 2700, 0]));
}

/// Pinfu: tsumo 20 fu, ron 30 fu; an open hand of the same shape is 30 fu.
#[test]
fn pinfu_fu_and_the_open_pinfu_shape() {
    // 123m 456m 234p 678s 99p, 23m waiting on 1m-4m. Tsumo: menzen tsumo 1 + pinfu 1, 20 fu
    // (no tsumo fu): base 20·2^4 = 320; the dealer pays 700, the others 400 each: 1,500.
    expect(
        play("123m456m234p678s99p", &[], "1m", true, |_| {}),
        &[(0, 1), (7, 1)],
        &[],
        [20, 1500, 0],
    );
    // Ron: 20 + 10 closed ron = 30 fu, 1 han: 240·4 = 960 → 1,000.
    expect(
        play("123m456m234p678s99p", &[], "1m", false, |_| {}),
        &[(7, 1)],
        &[],
        [30, 1000, 0],
    );
    // Chi 234p, 234m 567m 678s 55s, ron 2m: no fu at all (20) is written 30; open tanyao 1
    // han: 1,000. Without open tanyao the hand has no yaku.
    let chi = [meld(MeldKind::Chi, "234p")];
    expect(
        play("234m567m678s55s", &chi, "2m", false, |_| {}),
        &[(8, 1)],
        &[],
        [30, 1000, 0],
    );
    assert_eq!(
        play("234m567m678s55s", &chi, "2m", false, |w| w.open_tanyao =
            false),
        None
    );
}

/// Seven pairs is 25 fu whatever it holds; ryanpeikou is preferred when it scores more.
#[test]
fn chiitoitsu_25_fu_and_ryanpeikou_over_it() {
    // phoenix/2010081709gm-00a9-0000-fe3371ad.mjlog hand 5: 33p 11s 22s 66s 88s 99s NN,
    // riichi, dealer ron on 9s: riichi 1 + chiitoitsu 2 + ura 0 (4p → 5p), 25 fu:
    // 25·2^5 = 800, ×6 = 4,800.
    expect(
        real(
            "46,47,73,74,76,77,93,94,100,102,104,106,121,122",
            "",
            104,
            2,
            0,
            2,
            2,
            "82",
            "51",
            |_| {},
        ),
        &[(1, 1), (22, 2), (53, 0)],
        &[],
        [25, 4800, 0],
    );
    // phoenix/2020010100gm-00e1-0000-b17e8df8.xml hand 2: 44m 66m 77m 88m 0p5p 66p 77p, ron
    // 6p. As 678m 678m 567p 567p 44m the 6p is a kanchan: 20 + 10 + 2 = 32 → 40 fu,
    // ryanpeikou 3 + tanyao 1 + red 1 = 5 han, mangan 8,000; as seven pairs 4 han 25 fu
    // would be 6,400.
    expect(
        real(
            "13,14,22,23,24,27,28,29,52,54,57,59,60,62",
            "",
            59,
            3,
            0,
            1,
            1,
            "37",
            "",
            |_| {},
        ),
        &[(8, 1), (32, 3), (54, 1)],
        &[],
        [40, 8000, 1],
    );
}

/// Of two readings worth the same points, Tenhou writes the one with more han, then more fu.
#[test]
fn equal_points_go_to_more_han_then_more_fu() {
    // phoenix/2017042323gm-00a9-0000-2e214b25.mjlog hand 2: 222p 333p 444p 55p 678p, tsumo
    // 6p. As triplets: tsumo 1 + sanankou 2 + tanyao 1 + chinitsu 6 = 10 han, 20 + 3·4 + 2 =
    // 34 → 40 fu; as 234p ×3: tsumo, pinfu, iipeikou, tanyao, chinitsu = 10 han, 20 fu. Both
    // baiman (16,000): the log has the 40-fu sanankou reading.
    expect(
        real(
            "40,42,43,44,45,47,48,49,51,54,55,57,60,67",
            "",
            57,
            2,
            2,
            1,
            1,
            "118",
            "",
            |_| {},
        ),
        &[(0, 1), (8, 1), (29, 2), (35, 6)],
        &[],
        [40, 16000, 3],
    );
    // 111m 222m 333m 456p 77s, tsumo 4p: as three concealed triplets, tsumo 1 + sanankou 2,
    // 20 + 8 + 4 + 4 + 2 = 38 → 40 fu: 1,280 → 2,600 + 1,300 + 1,300 = 5,200; as 123m ×3
    // with pinfu and iipeikou only 3 han 20 fu (2,700).
    expect(
        play("111222333m456p77s", &[], "4p", true, |_| {}),
        &[(0, 1), (29, 2)],
        &[],
        [40, 5200, 0],
    );
}

/// Kan fu: a simple kan 8 open / 16 closed, a terminal or honour kan 16 / 32; a tanki on a
/// dragon pair 2 + 2; a pair of the seat wind that is also the round wind 4.
#[test]
fn kan_pair_and_wait_fu() {
    // Ankan 2m, 456p 678s 345m 77p, riichi ron 7p tanki: 20 + 10 + 16 + 2 = 48 → 50 fu,
    // riichi + tanyao + ura 0 = 2 han: 800·4 = 3,200.
    let ankan = [meld(MeldKind::Ankan, "2222m")];
    expect(
        play("456p678s345m77p", &ankan, "7p", false, |w| w.riichi = true),
        &[(1, 1), (8, 1), (53, 0)],
        &[],
        [50, 3200, 0],
    );
    // Daiminkan 9m, pon haku, 234s 678p 55s, ron 4s: 20 + 16 + 4 = 40 fu, haku 1 han:
    // 320·4 = 1,280 → 1,300.
    let open = [
        meld(MeldKind::Daiminkan, "9999m"),
        meld(MeldKind::Pon, "555z"),
    ];
    expect(
        play("234s678p55s", &open, "4s", false, |_| {}),
        &[(18, 1)],
        &[],
        [40, 1300, 0],
    );
    // Ankan of east (the round wind), 234m 567p 88s 345s, riichi ron 3s: 20 + 10 + 32 = 62
    // → 70 fu, riichi + round wind east = 2 han: 1,120·4 = 4,480 → 4,500.
    let east = [meld(MeldKind::Ankan, "1111z")];
    expect(
        play("234m567p88s345s", &east, "3s", false, |w| w.riichi = true),
        &[(1, 1), (14, 1), (53, 0)],
        &[],
        [70, 4500, 0],
    );
    // 234m 567m 345p 678s + chun tanki, riichi ron: 20 + 10 + 2 (dragon pair) + 2 (tanki) =
    // 34 → 40 fu, 1 han: 1,300.
    expect(
        play("234m567m345p678s77z", &[], "7z", false, |w| w.riichi = true),
        &[(1, 1), (53, 0)],
        &[],
        [40, 1300, 0],
    );
    // The dealer (east) in the east round with an east pair, 23m + 4m ron, riichi: no pinfu;
    // 20 + 10 + 4 = 34 → 40 fu, 1 han: 320·6 = 1,920 → 2,000. (Tenhou counts 4: the corpus
    // test fails with 2, e.g. phoenix/2020010112gm-00a9-0000-cd67bebd.xml hand 9, 50 fu.)
    expect(
        play("234m567m345p678s11z", &[], "4m", false, |w| {
            w.riichi = true;
            w.dealer = true;
            w.seat_wind = 0;
        }),
        &[(1, 1), (53, 0)],
        &[],
        [40, 2000, 0],
    );
}

/// Kiriage mangan is off: 30 fu 4 han and 60 fu 3 han are below mangan.
#[test]
fn no_kiriage_mangan() {
    // phoenix/2009090100gm-00a9-0000-6920f1ac.mjlog hand 2: 234m 567m 123p 22s 999s, riichi
    // ippatsu tsumo 2m, dora 1p (indicator 9p), ura 0 (7p → 8p): 4 han; 20 + 8 (999s) + 2 =
    // 30 fu: 1,920 → 3,900 + 2,000 + 2,000 = 7,900, limit 0.
    expect(
        real(
            "5,8,13,17,23,27,39,43,44,76,79,105,106,107",
            "",
            5,
            0,
            0,
            1,
            1,
            "70",
            "60",
            |w| w.ippatsu = true,
        ),
        &[(0, 1), (1, 1), (2, 1), (52, 1), (53, 0)],
        &[],
        [30, 7900, 0],
    );
    // phoenix/2009090100gm-00a9-0000-6920f1ac.mjlog hand 6: dealer riichi ron 1m, pinfu and
    // sanshoku 678: 4 han 30 fu: 1,920·6 = 11,520 → 11,600.
    expect(
        real(
            "1,5,9,21,25,29,56,57,59,60,67,94,98,100",
            "",
            1,
            0,
            2,
            0,
            4,
            "135",
            "101",
            |_| {},
        ),
        &[(1, 1), (7, 1), (25, 2), (53, 0)],
        &[],
        [30, 11600, 0],
    );
    // Ankan 3m, 111p 456s 678p 99s, riichi ron 9s tanki, dora 5s and 6p (indicators 4s,
    // 5p): 20 + 10 + 8 + 16 + 2 = 56 → 60 fu, 3 han: 1,920·4 = 7,680 → 7,700.
    let ankan = [meld(MeldKind::Ankan, "3333m")];
    expect(
        play_dora("111p456s678p99s", &ankan, "9s", false, "4s5p", |w| {
            w.riichi = true
        }),
        &[(1, 1), (52, 2), (53, 0)],
        &[],
        [60, 7700, 0],
    );
}

/// 13 han without a yakuman is a counted yakuman (limit 5), 11–12 han sanbaiman (4).
#[test]
fn kazoe_yakuman_and_sanbaiman() {
    // 123p 123p 456p 789p 55p, riichi tsumo 4p: riichi 1, tsumo 1, pinfu 1, iipeikou 1,
    // ittsu 2, chinitsu 6 = 12 han, 20 fu: sanbaiman 6,000 base → 12,000 + 6,000 + 6,000.
    expect(
        play("112233456789p55p", &[], "4p", true, |w| w.riichi = true),
        &[(0, 1), (1, 1), (7, 1), (9, 1), (24, 2), (35, 6), (53, 0)],
        &[],
        [20, 24000, 4],
    );
    // With one dora (indicator 3p → 4p) 13 han: 8,000 base, 32,000, limit 5, yaku listed.
    expect(
        play_dora("112233456789p55p", &[], "4p", true, "3p", |w| {
            w.riichi = true
        }),
        &[
            (0, 1),
            (1, 1),
            (7, 1),
            (9, 1),
            (24, 2),
            (35, 6),
            (52, 1),
            (53, 0),
        ],
        &[],
        [20, 32000, 5],
    );
}

/// The situational yaku: chankan, rinshan, haitei, houtei, double riichi.
#[test]
fn situational_yaku_from_real_wins() {
    // phoenix/2010081709gm-00a9-0000-fe3371ad.mjlog hand 4: chi 789p, 345m 77m 345p 789s,
    // the dealer robs a kakan's 3p: chankan 1 han, 20 → 30 fu (open): 240·6 = 1,440 → 1,500.
    expect(
        real(
            "9,14,18,25,27,45,48,54,99,100,106",
            "42295",
            45,
            2,
            1,
            2,
            2,
            "80",
            "",
            |w| w.chankan = true,
        ),
        &[(3, 1)],
        &[],
        [30, 1500, 0],
    );
    // phoenix/2016052515gm-00a9-0000-c4d72066.mjlog hand 6: ankan 7s, chi 345s, pon 7p,
    // 0m6m7m 44p, the dealer's replacement draw 7m: rinshan 1 + tanyao 1 + red 1; 20 + 16 +
    // 2 + 2 = 40 fu: 1,280 → 2,600 ×3 = 7,800.
    expect(
        real(
            "16,20,25,48,49",
            "24576,50519,24107",
            25,
            1,
            1,
            1,
            1,
            "10,27",
            "",
            |w| w.rinshan = true,
        ),
        &[(4, 1), (8, 1), (54, 1)],
        &[],
        [40, 7800, 0],
    );
    // phoenix/2019032206gm-00a9-0000-0b6b7592.mjlog hand 2: riichi tsumo of the last tile
    // 6s, pinfu; dora 4m (indicator 3m), red 2, ura 3p (indicator 2p): 8 han baiman, 20 fu:
    // 8,000 + 4,000 + 4,000.
    expect(
        real(
            "13,16,21,37,41,47,52,57,63,80,82,85,89,92",
            "",
            92,
            0,
            0,
            1,
            1,
            "9",
            "40",
            |w| w.haitei = true,
        ),
        &[(0, 1), (1, 1), (5, 1), (7, 1), (52, 1), (53, 1), (54, 2)],
        &[],
        [20, 16000, 3],
    );
    // phoenix/2010050507gm-00a9-0000-f13f215d.mjlog hand 9: ankan 6s, 123m 222p 456p EE,
    // riichi ron on the last discard 1m: 20 + 10 + 4 + 16 = 50 fu; riichi, houtei, dora 5
    // (4p, and the four 6s), ura 1 (1m): 8 han: 16,000.
    expect(
        real(
            "2,5,10,40,42,43,50,54,58,108,110",
            "23552",
            2,
            1,
            2,
            3,
            7,
            "45,109,90",
            "35,21,61",
            |w| w.houtei = true,
        ),
        &[(1, 1), (6, 1), (52, 5), (53, 1)],
        &[],
        [50, 16000, 3],
    );
    // phoenix/2017081719gm-00a9-0000-2ad81a60.mjlog hand 9: 123m 789m 99p 456s 678s, double
    // riichi ron 9p tanki: 20 + 10 + 2 = 32 → 40 fu, 2 han: 640·4 = 2,560 → 2,600.
    expect(
        real(
            "2,7,8,24,29,35,69,70,85,91,93,95,98,102",
            "",
            70,
            3,
            2,
            1,
            5,
            "48",
            "51",
            |w| w.double_riichi = true,
        ),
        &[(21, 2), (53, 0)],
        &[],
        [40, 2600, 0],
    );
}

/// Yakuhai: seat and round winds by id, the dragons.
/// The dora follows its indicator within the indicator's own cycle (ids are kind·4 + copy):
/// 1m → 2m, 9m → 1m, 9p → 1p, 5s → 6s; East → South, North → East; haku → hatsu, chun → haku.
#[test]
fn dora_indicators_wrap_within_their_cycle() {
    let pairs: [(TileId, usize); 8] = [
        (0, 1),
        (8 * 4, 0),
        (17 * 4 + 3, 9),
        (22 * 4 + 1, 23),
        (27 * 4, 28),
        (30 * 4 + 2, 27),
        (31 * 4, 32),
        (33 * 4 + 3, 31),
    ];
    for (indicator, dora) in pairs {
        assert_eq!(
            Players::Four.dora_of(indicator),
            dora,
            "indicator {indicator}"
        );
    }
}

#[test]
fn winds_and_dragons() {
    // phoenix/2010091009gm-00a9-0000-83af2648.mjlog hand 0: pon haku, 33m 345p 444s NNN, seat
    // north, ron 3m tanki: 20 + 4 + 8 + 4 + 2 = 38 → 40 fu; north 1, haku 1, dora 4p 1 = 3
    // han: 1,280·4 = 5,120 → 5,200.
    expect(
        real(
            "9,11,46,48,53,84,85,87,120,122,123",
            "47625",
            9,
            3,
            2,
            0,
            0,
            "44",
            "",
            |_| {},
        ),
        &[(13, 1), (18, 1), (52, 1)],
        &[],
        [40, 5200, 0],
    );
    // phoenix/2020010109gm-00a9-0000-1ccf645c.xml hand 14 (the west round): pon west by the
    // west seat: seat west 1 + round west 1 + red 1, 20 + 4 → 30 fu: 960·4 → 3,900.
    expect(
        real(
            "15,19,20,25,26,48,52,58,78,81,84",
            "44585",
            15,
            2,
            3,
            0,
            8,
            "65",
            "",
            |_| {},
        ),
        &[(12, 1), (16, 1), (54, 1)],
        &[],
        [30, 3900, 0],
    );
    // phoenix/2009082817gm-00ab-0000-997dbe26.mjlog hand 6 (south round, south seat): pons
    // south and west, chi 123m, 99m 789p ron 9p: round south + seat south + open chanta 1 =
    // 3 han, 20 + 4 + 4 → 30 fu: 3,900.
    expect(
        real(
            "34,35,61,64,71",
            "43081,45643,471",
            71,
            2,
            3,
            1,
            5,
            "121",
            "",
            |_| {},
        ),
        &[(11, 1), (15, 1), (23, 1)],
        &[],
        [30, 3900, 0],
    );
    // The dealer's east triplet in the east round counts twice (10 and 14): 234m 567p 789s
    // 11p EEE, ron 2m: 20 + 10 + 8 = 38 → 40 fu, 2 han: 640·6 = 3,840 → 3,900.
    expect(
        play("111z234m567p789s11p", &[], "2m", false, |w| {
            w.dealer = true;
            w.seat_wind = 0;
        }),
        &[(10, 1), (14, 1)],
        &[],
        [40, 3900, 0],
    );
    // North seat in a north round (no Tenhou four-player game reaches it): 13 and 17, 2 han
    // 40 fu for a non-dealer: 2,560 → 2,600.
    expect(
        play("444z234m567p789s11p", &[], "2m", false, |w| {
            w.seat_wind = 3;
            w.round_wind = 3;
        }),
        &[(13, 1), (17, 1)],
        &[],
        [40, 2600, 0],
    );
    // phoenix/2015082211gm-00a9-0000-b665ff0a.mjlog hand 1: pons hatsu and west, 34p0p
    // haku ×3 chun ×2, tsumo chun tanki: shousangen 2, haku 1, hatsu 1, open honitsu 2, red 1
    // = 7 han haneman; 20 + 8 + 4 + 4 + 2 + 2 + 2 = 42 → 50 fu: 6,000 + 3,000 + 3,000.
    expect(
        real(
            "47,50,52,125,126,127,133,135",
            "49258,44651",
            135,
            0,
            0,
            1,
            1,
            "102",
            "",
            |_| {},
        ),
        &[(18, 1), (19, 1), (30, 2), (34, 2), (54, 1)],
        &[],
        [50, 12000, 2],
    );
    // phoenix/2022060100gm-00a9-0000-805032ea.mjlog hand 0: pon haku, 999s SSS hatsu ×2,
    // chun ×3 by ron: shousangen 2, toitoi 2, chun 1, haku 1, honroutou 2, honitsu 2 = 10
    // han baiman; 20 + 8 + 8 + 4 (chun by ron) + 4 + 2 = 46 → 50 fu: 16,000.
    expect(
        real(
            "104,105,106,112,114,115,128,131,133,134,135",
            "48650",
            135,
            2,
            0,
            0,
            0,
            "99",
            "",
            |_| {},
        ),
        &[(18, 1), (20, 1), (28, 2), (30, 2), (31, 2), (34, 2)],
        &[],
        [50, 16000, 3],
    );
}

/// Hand-shape yaku: tanyao, iipeikou, ittsu, chanta, junchan, sanshoku doukou, sankantsu,
/// toitoi, sanankou, honitsu.
#[test]
fn shape_yaku() {
    // 334455m 678p 234s 66s, ron 3m: pinfu, tanyao, iipeikou, 3 han 30 fu: 3,900.
    expect(
        play("334455m678p234s66s", &[], "3m", false, |_| {}),
        &[(7, 1), (8, 1), (9, 1)],
        &[],
        [30, 3900, 0],
    );
    // phoenix/2010030412gm-00e1-0000-4a275c59.mjlog hand 1: chi 123p, 456p 789p 123s NN, the
    // dealer's tsumo 6p: open ittsu 1 han, 20 + 2 → 30 fu: 240 → 500 ×3 = 1,500.
    expect(
        real(
            "48,54,58,61,67,68,75,77,80,121,123",
            "23935",
            58,
            1,
            1,
            1,
            1,
            "16",
            "",
            |_| {},
        ),
        &[(24, 1)],
        &[],
        [30, 1500, 0],
    );
    // phoenix/2020010101gm-00a9-0000-886d77f4.xml hand 1: 789m 123p 789p 123s 99s, the
    // dealer's ron 3p (penchan): junchan 3 + dora 1 (8p), 20 + 10 + 2 = 32 → 40 fu: 2,560 is
    // past 2,000: mangan, 12,000.
    expect(
        real(
            "25,28,32,36,40,44,62,66,69,72,77,82,104,106",
            "",
            44,
            1,
            3,
            1,
            1,
            "63",
            "",
            |_| {},
        ),
        &[(33, 3), (52, 1)],
        &[],
        [40, 12000, 1],
    );
    // phoenix/2010122717gm-00a9-0000-8e787e61.mjlog hand 7: ankan 2m, pon 2s, 111m 222p 5s0s,
    // the dealer's tsumo 2p: sanankou 2, toitoi 2, sanshoku doukou 2, red 1 = 7 han; 20 + 8 +
    // 4 + 16 + 2 + 2 = 52 → 60 fu: haneman 6,000 ×3 = 18,000.
    expect(
        real(
            "0,1,2,40,41,43,88,91",
            "1024,29193",
            41,
            1,
            1,
            1,
            5,
            "82,98",
            "",
            |_| {},
        ),
        &[(26, 2), (28, 2), (29, 2), (54, 1)],
        &[],
        [60, 18000, 2],
    );
    // phoenix/2024041523gm-00a9-0000-12a8c101.mjlog hand 3: ankan 3s, kakan north, kakan 9m,
    // 77m 111s, the north seat's ron 1s: sankantsu 2, toitoi 2, seat north 1 = 5 han
    // mangan; 20 + 4 (1s by ron) + 16 + 16 + 16 = 72 → 80 fu: 8,000.
    expect(
        real(
            "24,26,72,73,74",
            "20480,47121,12305",
            73,
            2,
            3,
            3,
            3,
            "103,27,17,55",
            "",
            |_| {},
        ),
        &[(13, 1), (27, 2), (28, 2)],
        &[],
        [80, 8000, 1],
    );
    // phoenix/2009082817gm-00ab-0000-997dbe26.mjlog hand 4: chi 234m, pon haku, 567m WWW NN,
    // the west seat's ron N tanki: seat west 1, haku 1, open honitsu 2, dora 7m 1 = 5 han;
    // 20 + 8 + 4 + 2 = 34 → 40 fu: mangan 8,000.
    expect(
        real(
            "18,22,26,116,118,119,121,123",
            "5279,48683",
            121,
            1,
            3,
            3,
            3,
            "23",
            "",
            |_| {},
        ),
        &[(12, 1), (18, 1), (34, 2), (52, 1)],
        &[],
        [40, 8000, 1],
    );
    // An open hand with no yaku scores nothing.
    let chi = [meld(MeldKind::Chi, "123p")];
    assert_eq!(play("234m567m678s55s", &chi, "2m", false, |_| {}), None);
}

/// Yakuman: 13 han each, added up; fu as for any hand (thirteen orphans 0).
#[test]
fn yakuman_from_real_wins() {
    // phoenix/2016090900gm-00a9-0000-a2a25bb6.mjlog hand 7: tenhou, pinfu shape, 20 fu:
    // 16,000 ×3.
    expect(
        real(
            "3,4,11,40,47,51,55,57,61,62,63,95,98,100",
            "",
            51,
            0,
            0,
            0,
            4,
            "35",
            "",
            |w| w.tenhou = true,
        ),
        &[],
        &[37],
        [20, 48000, 5],
    );
    // other/2021052419gm-0029-0000-0f9a817f.mjlog hand 1: chiihou; 20 + 4 (888m) + 8 (the
    // south seat's SSS) + 2 = 34 → 40 fu: 32,000.
    expect(
        real(
            "17,23,24,28,29,31,36,38,82,85,88,112,113,115",
            "",
            17,
            2,
            2,
            1,
            1,
            "98",
            "",
            |w| w.chiihou = true,
        ),
        &[],
        &[38],
        [40, 32000, 5],
    );
    // phoenix/2010091009gm-00a9-0000-83af2648.mjlog hand 7: daisangen, pons hatsu and chun:
    // 20 + 8 + 4 + 4 = 36 → 40 fu.
    expect(
        real(
            "6,9,14,90,91,124,125,126",
            "50219,50698",
            6,
            3,
            2,
            1,
            5,
            "39",
            "",
            |_| {},
        ),
        &[],
        &[39],
        [40, 32000, 5],
    );
    // phoenix/2020010105gm-00a9-0000-0d5dee6a.xml hand 2: suuankou by tsumo on a shanpon:
    // 20 + 4 + 4 + 4 + 8 + 2 = 42 → 50 fu.
    expect(
        real(
            "5,6,7,28,29,31,41,43,88,90,91,104,105,107",
            "",
            107,
            3,
            3,
            2,
            2,
            "12",
            "111",
            |_| {},
        ),
        &[],
        &[40],
        [50, 32000, 5],
    );
    // phoenix/2010112211gm-00a9-0000-56a320b2.mjlog hand 3: ankan 8p, 777m 111s WWW, ron 3s
    // tanki: suuankou tanki, a single yakuman on Tenhou; 20 + 10 + 16 + 4 + 8 + 8 + 2 = 68 →
    // 70 fu.
    expect(
        real(
            "24,26,27,73,74,75,81,82,116,117,118",
            "16384",
            81,
            2,
            0,
            1,
            1,
            "100,68",
            "",
            |_| {},
        ),
        &[],
        &[41],
        [70, 32000, 5],
    );
    // phoenix/2019103023gm-00a9-0000-f90e0fe9.mjlog hand 6: pons of the three dragons, WWW NN,
    // tsumo W: daisangen + tsuuiisou, two yakuman: 16,000 + 16,000 + 32,000; 20 + 12 + 8 + 2
    // = 42 → 50 fu.
    expect(
        real(
            "116,117,118,120,123",
            "51306,48650,49163",
            117,
            0,
            0,
            3,
            3,
            "58",
            "",
            |_| {},
        ),
        &[],
        &[39, 42],
        [50, 64000, 5],
    );
    // other/2014050315gm-0041-0000-06a52f11.mjlog hand 3: ryuuiisou, pon 8s, ankan 6s, 333s
    // (by ron) 444s FF: 20 + 2 + 4 + 2 + 16 + 2 = 46 → 50 fu.
    expect(
        real(
            "80,82,83,84,85,86,128,129",
            "38409,24064",
            83,
            1,
            0,
            2,
            2,
            "64,66",
            "",
            |_| {},
        ),
        &[],
        &[43],
        [50, 32000, 5],
    );
    // other/2010050420gm-0089-0000-1e338bad.mjlog hand 8: 1112345567899 9p + 1p by ron:
    // chuuren, not junsei (the thirteen before held two 1p); 20 + 10 + 4 (111p by ron) + 8 =
    // 42 → 50 fu.
    expect(
        real(
            "37,38,39,40,45,51,53,54,59,62,64,69,70,71",
            "",
            37,
            1,
            3,
            2,
            6,
            "31,106",
            "",
            |_| {},
        ),
        &[],
        &[45],
        [50, 32000, 5],
    );
    // phoenix/2020010113gm-00a9-0000-38bec9a0.xml hand 3: kokushi, written with 0 fu.
    expect(
        real(
            "1,34,38,70,71,75,106,108,115,118,121,127,131,135",
            "",
            75,
            3,
            1,
            0,
            0,
            "119",
            "",
            |_| {},
        ),
        &[],
        &[47],
        [0, 32000, 5],
    );
    // other/2021052000gm-0029-0000-06e146b2.mjlog hand 6: kokushi waiting on all thirteen
    // (won on S): a single yakuman on Tenhou.
    expect(
        real(
            "2,35,38,70,75,107,109,112,114,119,123,127,128,135",
            "",
            112,
            0,
            1,
            3,
            3,
            "95",
            "",
            |_| {},
        ),
        &[],
        &[48],
        [0, 32000, 5],
    );
    // phoenix/2020010112gm-00a9-0000-763280e5.xml hand 1: pons W S N, 123m + E tanki by
    // tsumo: shousuushii; 20 + 12 + 2 (round east pair) + 2 + 2 = 38 → 40 fu.
    expect(
        real(
            "1,5,11,109,111",
            "45129,43114,46121",
            111,
            0,
            0,
            1,
            1,
            "72",
            "",
            |_| {},
        ),
        &[],
        &[50],
        [40, 32000, 5],
    );
}

/// Yakuman the corpus does not hold: daisuushii, chinroutou, suukantsu, junsei chuuren,
/// tsuuiisou as seven pairs.
#[test]
fn yakuman_not_in_the_corpus() {
    // 11z 22z 33z 44z 55z 66z 77z by ron on 7z: seven pairs of honours, tsuuiisou (yakuman,
    // the seven-pairs reading's 25 fu), not chiitoitsu + honroutou; a non-dealer's 32,000.
    expect(
        play("11223344556677z", &[], "7z", false, |_| {}),
        &[],
        &[42],
        [25, 32000, 5],
    );
    // Pons E S W, NNN by ron with 55p: daisuushii (single on Tenhou); 20 + 4·3 + 4 = 36 →
    // 40 fu.
    let winds = [
        meld(MeldKind::Pon, "111z"),
        meld(MeldKind::Pon, "222z"),
        meld(MeldKind::Pon, "333z"),
    ];
    expect(
        play("444z55p", &winds, "4z", false, |_| {}),
        &[],
        &[49],
        [40, 32000, 5],
    );
    // Pon 1m, 999m 111p 99p, 999s by ron: chinroutou; 20 + 4 + 8 + 8 + 4 = 44 → 50 fu.
    let pon = [meld(MeldKind::Pon, "111m")];
    expect(
        play("999m111p99p999s", &pon, "9s", false, |_| {}),
        &[],
        &[44],
        [50, 32000, 5],
    );
    // The same with East for 9s as the pair (11z), by ron on 9s (a shanpon with 99s): no
    // chinroutou (East is an honour, not a terminal: East is kind 27, 9·3), but honroutou 2
    // and toitoi 2; 20 + 4 (pon 1m) + 8 + 8 (999m, 111p closed) + 4 (999s by ron) + 2 (round
    // East pair) = 46 → 50 fu; 4 han 50 fu is past 2,000 base: mangan, 8,000.
    expect(
        play("999m111p99s11z9s", &pon, "9s", false, |_| {}),
        &[(28, 2), (31, 2)],
        &[],
        [50, 8000, 1],
    );
    // Ankan 2m, daiminkan 3p, kakan 7s, ankan 8s, east tanki: suukantsu; 20 + 16 + 8 + 8 +
    // 16 + 2 (round east pair) + 2 = 72 → 80 fu.
    let kans = [
        meld(MeldKind::Ankan, "2222m"),
        meld(MeldKind::Daiminkan, "3333p"),
        meld(MeldKind::Kakan, "7777s"),
        meld(MeldKind::Ankan, "8888s"),
    ];
    expect(
        play("11z", &kans, "1z", false, |_| {}),
        &[],
        &[51],
        [80, 32000, 5],
    );
    // 1112345678999m + 5m by tsumo: junsei chuuren (the thirteen before waited on all nine);
    // 20 + 8 + 8 + 2 (tanki) + 2 = 40 fu; the dealer: 16,000 ×3.
    expect(
        play("11123455678999m", &[], "5m", true, |w| {
            w.dealer = true;
            w.seat_wind = 0;
        }),
        &[],
        &[46],
        [40, 48000, 5],
    );
}

/// The proof wired into the replay: every game of phoenix and other replays through
/// `replay_game` (wall check included) with every win proved, and the fixtures too; games of
/// another rule set (a GO type beyond 0xFF) replay without the proof.
#[test]
fn the_replay_proves_every_tenhou_win() {
    struct Nop;
    impl crate::replay::Observer for Nop {}
    let replay = |files: &[PathBuf]| -> (usize, u32, u32) {
        let out: Vec<(u32, u32)> = files
            .par_iter()
            .map(|f| {
                let (mut raw, mut out) = (Vec::new(), Vec::new());
                let bytes = crate::input::read_log(f, &mut raw, &mut out).unwrap();
                let log = decode(bytes).unwrap();
                if log.go_type.is_some_and(|g| g & go_type::THREE_PLAYER != 0) {
                    return (0, 0);
                }
                let g = crate::replay::replay_game(&log, &mut Nop)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                let wins = g.hands.iter().map(|h| u32::from(h.wins)).sum();
                let proved = g.hands.iter().map(|h| u32::from(h.wins_proved)).sum();
                (wins, proved)
            })
            .collect();
        let games = out.iter().filter(|o| o.0 > 0).count();
        (
            games,
            out.iter().map(|o| o.0).sum(),
            out.iter().map(|o| o.1).sum(),
        )
    };
    let listing = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "xml" || e == "mjlog"))
            .collect();
        v.sort();
        v
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (_, wins, proved) = replay(&listing(&root.join("fixtures")));
    assert!(wins >= 10, "{wins} fixture wins");
    assert_eq!(proved, wins);
    for (sub, at_least) in [("phoenix", 55_000), ("other", 37_000)] {
        let Some(dir) = corpus(sub) else { continue };
        let (games, wins, proved) = replay(&listing(&dir));
        eprintln!("{sub}: {games} games with wins, {wins} wins, {proved} proved");
        assert!(wins >= at_least, "{sub}: {wins} wins");
        assert_eq!(proved, wins, "{sub}");
    }
    if let Some(edge) = corpus("edge/dnovikoff_tenhou") {
        // GO type 553: a chip lobby whose rules are not Tenhou's standard ones.
        let (_, wins, proved) = replay(&[edge.join("chip.xml")]);
        assert_eq!((wins, proved), (8, 0));
    }
    // The edge corpus (logs from other projects, some broken on purpose): no file fails the
    // proof, and every win of a file that replays under the standard rules is proved.
    let Some(edge) = corpus("edge") else { return };
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&edge).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            files.extend(listing(&dir));
        }
    }
    let (mut wins, mut proved) = (0, 0);
    for f in &files {
        let (mut raw, mut out) = (Vec::new(), Vec::new());
        let Ok(bytes) = crate::input::read_log(f, &mut raw, &mut out) else {
            continue;
        };
        let Ok(log) = decode(bytes) else { continue };
        match crate::replay::replay_game(&log, &mut Nop) {
            Ok(g) => {
                let w: u32 = g.hands.iter().map(|h| u32::from(h.wins)).sum();
                let p: u32 = g.hands.iter().map(|h| u32::from(h.wins_proved)).sum();
                if log.go_type.is_some_and(|g| g <= 0xFF) {
                    assert_eq!(p, w, "{}", f.display());
                }
                wins += w;
                proved += p;
            }
            Err(e) => assert_ne!(
                e.check,
                crate::replay::Check::WinScoreMismatch,
                "{}: {e}",
                f.display()
            ),
        }
    }
    eprintln!(
        "edge: {} files, {wins} wins in games that replay, {proved} proved",
        files.len()
    );
    assert!(proved >= 100, "{proved} edge wins proved");
}

/// Random complete hands (standard form, up to four melds of any kind), every flag at random
/// and up to 40 indicators: scoring never panics, and a score is consistent (its han the sum
/// of its yaku, or 13 per yakuman; points at least the limit's; yaku at most once each but for
/// yakuhai and dora entries).
#[test]
fn random_complete_hands_score_consistently() {
    let mut rng = crate::hand::Lcg(7);
    let mut scored = 0;
    for _ in 0..20_000 {
        let mut counts = [0u8; 34];
        let take = |k: usize, n: u8, counts: &mut [u8; 34]| {
            if counts[k] + n > 4 {
                return false;
            }
            counts[k] += n;
            true
        };
        let mut melds = Vec::new();
        let mut concealed_kinds = Vec::new();
        let n_melds = rng.next() % 5;
        let mut sets = 0;
        let mut guard = 0;
        while sets < 4 && guard < 100 {
            guard += 1;
            let k = rng.next() % 34;
            let seq = k < 27 && k % 9 <= 6 && rng.next().is_multiple_of(2);
            let kan = !seq && rng.next().is_multiple_of(4) && sets < n_melds;
            if seq {
                if counts[k] >= 4 || counts[k + 1] >= 4 || counts[k + 2] >= 4 {
                    continue;
                }
                for j in 0..3 {
                    take(k + j, 1, &mut counts);
                }
            } else if !take(k, if kan { 4 } else { 3 }, &mut counts) {
                continue;
            }
            let ks: Vec<usize> = if seq {
                vec![k, k + 1, k + 2]
            } else {
                vec![k; if kan { 4 } else { 3 }]
            };
            if sets < n_melds {
                let kind = match (seq, kan, rng.next() % 3) {
                    (true, _, _) => MeldKind::Chi,
                    (false, false, _) => MeldKind::Pon,
                    (false, true, 0) => MeldKind::Ankan,
                    (false, true, 1) => MeldKind::Kakan,
                    _ => MeldKind::Daiminkan,
                };
                let mut tiles = [0u8; 4];
                let mut seen = [0u8; 34];
                for (i, &x) in ks.iter().enumerate() {
                    tiles[i] = (4 * x) as u8 + seen[x];
                    seen[x] += 1;
                }
                melds.push(Meld {
                    kind,
                    tiles,
                    len: ks.len() as u8,
                    called: None,
                    added: None,
                    from_rel: 0,
                });
            } else {
                concealed_kinds.extend(ks);
            }
            sets += 1;
        }
        if sets < 4 {
            continue;
        }
        let pair = rng.next() % 34;
        if !take(pair, 2, &mut counts) {
            continue;
        }
        concealed_kinds.extend([pair, pair]);
        // Ids: copy 3, 2, 1, 0 of each concealed kind (melds took copies from 0 up; the same
        // id twice does not matter to the scorer).
        let mut used = [0u8; 34];
        let concealed: Vec<TileId> = concealed_kinds
            .iter()
            .map(|&k| {
                used[k] += 1;
                (4 * k) as u8 + (4 - used[k]).min(3)
            })
            .collect();
        let win_tile = concealed[rng.next() % concealed.len()];
        let inds: Vec<TileId> = (0..rng.next() % 41)
            .map(|_| (rng.next() % 136) as u8)
            .collect();
        let bit = |rng: &mut crate::hand::Lcg| rng.next().is_multiple_of(2);
        let w = Win {
            concealed: &concealed,
            melds: &melds,
            win_tile,
            tsumo: bit(&mut rng),
            seat_wind: (rng.next() % 4) as u8,
            round_wind: (rng.next() % 4) as u8,
            dealer: bit(&mut rng),
            dora_indicators: &inds[..inds.len().min(5)],
            ura_indicators: &inds,
            riichi: bit(&mut rng),
            double_riichi: bit(&mut rng),
            ippatsu: bit(&mut rng),
            haitei: bit(&mut rng),
            houtei: bit(&mut rng),
            rinshan: bit(&mut rng),
            chankan: bit(&mut rng),
            tenhou: bit(&mut rng),
            chiihou: bit(&mut rng),
            red: bit(&mut rng),
            open_tanyao: bit(&mut rng),
            players: Players::Four,
            kita: 0,
        };
        let Some(s) = score(&w) else { continue };
        scored += 1;
        if s.yakuman().is_empty() {
            let han: u32 = s.yaku().iter().map(|&(_, h)| u32::from(h)).sum();
            assert_eq!(u32::from(s.han), han.min(255), "{s}");
            for &(id, _) in s.yaku() {
                let repeats = s.yaku().iter().filter(|y| y.0 == id).count();
                assert!(repeats == 1, "{s}");
            }
            assert!(s.points >= 1000 && s.limit <= 5, "{s}");
            assert!(s.fu >= 20 && s.fu % 5 == 0, "{s}");
        } else {
            assert_eq!(usize::from(s.han), 13 * s.yakuman().len(), "{s}");
            assert!(s.yaku().is_empty() && s.limit == 5, "{s}");
            assert!(s.points >= 32000, "{s}");
        }
    }
    assert!(scored > 5_000, "{scored} hands scored");
}

/// Three-player rules (§24): each kita is a dora, and one more for each dora indicator whose
/// dora is North (written inside yaku 52), for a riichi win under each ura indicator whose
/// dora is North (53); a 1m indicator's dora is 9m; a non-dealer tsumo is paid 2b + b (tsumo
/// loss: 30 fu 3 han, b = 960: 2,000 + 1,000 = 3,000, where four players pay 3,900).
/// Hand: 123p 456p 678p 234s 99s, riichi, tsumo on 9s (the pair: tanki), no yaku but riichi
/// and tsumo (no pinfu: a tanki).
#[test]
fn three_player_kita_dora_and_tsumo_loss() {
    let three = |w: &mut Win<'_>| {
        w.players = Players::Three;
        w.riichi = true;
    };
    // No indicator: 2 kitas, 2 dora.
    let s = play_dora("123p456p678p234s99s", &[], "9s", true, "", |w| {
        three(w);
        w.kita = 2;
    })
    .unwrap();
    assert!(s.yaku().contains(&(crate::yaku::DORA, 2)), "{s}");
    // A West indicator (its dora North): each kita counts twice.
    let s = play_dora("123p456p678p234s99s", &[], "9s", true, "3z", |w| {
        three(w);
        w.kita = 2;
    })
    .unwrap();
    assert!(s.yaku().contains(&(crate::yaku::DORA, 4)), "{s}");
    // The same under an ura indicator: ura 2 (the kitas), dora 2.
    // An ura indicator 3z (id 116).
    static URA: [TileId; 1] = [116];
    let s = play_dora("123p456p678p234s99s", &[], "9s", true, "", |w| {
        three(w);
        w.kita = 2;
        w.ura_indicators = &URA;
    })
    .unwrap();
    assert!(s.yaku().contains(&(crate::yaku::URA_DORA, 2)), "{s}");
    assert!(s.yaku().contains(&(crate::yaku::DORA, 2)), "{s}");
    // A 1m indicator points at 9m with three players (here no 9m held: no dora), at 2m with
    // four; a 9m indicator at 1m.
    let s = play_dora("111m456p789p234s99s", &[], "9s", true, "9m", three).unwrap();
    assert!(s.yaku().contains(&(crate::yaku::DORA, 3)), "{s}");
    let s = play_dora("999m456p789p234s99s", &[], "9s", true, "1m", three).unwrap();
    assert!(s.yaku().contains(&(crate::yaku::DORA, 3)), "{s}");
    let s = play_dora("999m456p789p234s99s", &[], "9s", true, "1m", |w| {
        w.riichi = true
    })
    .unwrap();
    assert!(
        !s.yaku().iter().any(|&(id, _)| id == crate::yaku::DORA),
        "{s}"
    );
    // Tsumo loss: riichi + tsumo = 2 han; a closed tsumo of 20 + 2 (tanki) + 2 (tsumo) = 24
    // rounds to 30 fu: b = 30 · 2^4 = 480; 2b + b = 1,000 + 500.
    let s = play("123p456p678p234s99s", &[], "9s", true, three).unwrap();
    assert_eq!((s.fu, s.han, s.base), (30, 2, 480));
    assert_eq!(s.points, 1500);
    let s = play("123p456p678p234s99s", &[], "9s", true, |w| w.riichi = true).unwrap();
    assert_eq!(s.points, 2000, "four players: 1,000 + 500 + 500");
    let s = play("123p456p678p234s99s", &[], "9s", true, |w| {
        three(w);
        w.dealer = true;
    })
    .unwrap();
    assert_eq!(
        s.points, 2000,
        "a dealer's tsumo with three players: 1,000 from each of two"
    );
}
