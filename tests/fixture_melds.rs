//! Meld (`<N m="...">`) decoding on every code that occurs in the fixtures, with the expected
//! tiles worked out by hand from the bit layout (src/mjlog/meld.rs):
//! - chi: bit 2 set; bits 10.. = (suit·7 + lowest number − 1)·3 + called index; bits 3-4, 5-6,
//!   7-8 = copy of the lowest, middle, highest tile;
//! - pon: bit 3 set; kakan: bit 4 set (bit 3 clear); bits 9.. = kind·3 + called index (index
//!   among the pon's three tiles, ascending), bits 5-6 = the copy not in the pon (for a kakan,
//!   the added copy);
//! - kan: bits 8.. = tile id (the called tile for daiminkan); low two bits 0 → ankan;
//! - bits 0-1 = where the called tile came from relative to the caller (1 shimocha,
//!   2 toimen, 3 kamicha).
//!
//! Tile id = kind·4 + copy; kinds 0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27-33 = 1z-7z.

mod common;

use haifu::mjlog::{decode, decode_meld, Event, MeldKind};

/// (hand index in the game, caller seat, m code, decoded kind).
type Call = (usize, u8, u32, MeldKind);

#[test]
fn chi_26679_f001() {
    // f001 hand 0: seat 1 chis 234p, calling 4p (48) from seat 0.
    // 26679 = 26·1024 + 55.  Low bits: 55 = 0b0_0011_0111 → bit 2 set (chi), from = 55 & 3 = 3
    // (kamicha: seat 0 is seat 1's left). 26 = 8·3 + 2 → called index 2, 8 = 1·7 + 1 → suit 1
    // (pinzu), lowest number 2 → 2p 3p 4p. Copies: (55 >> 3) & 3 = 2, (55 >> 5) & 3 = 1,
    // (55 >> 7) & 3 = 0 → ids 2p (kind 10) 40 + 2 = 42, 3p (kind 11) 44 + 1 = 45, 4p (kind 12)
    // 48 + 0 = 48. Called = tile index 2 = 48.
    let m = decode_meld(26679).unwrap();
    assert_eq!(m.kind, MeldKind::Chi);
    assert_eq!(m.tiles(), &[42, 45, 48]);
    assert_eq!(m.called, Some(48));
    assert_eq!(m.added, None);
    assert_eq!(m.from_rel, 3);
}

#[test]
fn chi_3431_f004() {
    // f004 hand 1: seat 2 chis 234m, calling 2m (4) from seat 1.
    // 3431 = 3·1024 + 359; 359 = 0b1_0110_0111 → bit 2 set (chi), from = 3 (kamicha).
    // 3 = 1·3 + 0 → called index 0; 1 = 0·7 + 1 → manzu, lowest number 2 → 2m 3m 4m.
    // Copies: (359 >> 3) & 3 = 44 & 3 = 0, (359 >> 5) & 3 = 11 & 3 = 3, (359 >> 7) & 3 = 2
    // → 2m (kind 1) 4 + 0 = 4, 3m (kind 2) 8 + 3 = 11, 4m (kind 3) 12 + 2 = 14. Called = 4.
    let m = decode_meld(3431).unwrap();
    assert_eq!(m.kind, MeldKind::Chi);
    assert_eq!(m.tiles(), &[4, 11, 14]);
    assert_eq!(m.called, Some(4));
    assert_eq!(m.from_rel, 3);
}

#[test]
fn pons() {
    // f001 hand 0: seat 2 pons haku calling 127 from seat 0 (toimen).
    // 48682 = 95·512 + 42; 42 = 0b10_1010 → bit 2 clear, bit 3 set (pon), from = 2.
    // 95 = 31·3 + 2 → kind 31 (5z, haku), called index 2; unused copy (42 >> 5) & 3 = 1
    // → pon tiles copies 0, 2, 3 = 124, 126, 127; called = index 2 = 127.
    let m = decode_meld(48682).unwrap();
    assert_eq!(m.kind, MeldKind::Pon);
    assert_eq!(m.tiles(), &[124, 126, 127]);
    assert_eq!((m.called, m.added, m.from_rel), (Some(127), None, 2));

    // f001 hand 2: seat 1 pons chun calling 135 from seat 3 (toimen).
    // 51754 = 101·512 + 42 → pon, from 2, unused copy 1; 101 = 33·3 + 2 → kind 33 (7z),
    // called index 2 → tiles 132, 134, 135; called 135.
    let m = decode_meld(51754).unwrap();
    assert_eq!(m.kind, MeldKind::Pon);
    assert_eq!(m.tiles(), &[132, 134, 135]);
    assert_eq!((m.called, m.added, m.from_rel), (Some(135), None, 2));

    // f002 hand 2: seat 3 pons hatsu calling 129 from seat 1 (toimen).
    // 49770 = 97·512 + 106; 106 = 0b110_1010 → pon, from 2, unused copy (106 >> 5) & 3 = 3;
    // 97 = 32·3 + 1 → kind 32 (6z), called index 1 → tiles 128, 129, 130; called 129.
    let m = decode_meld(49770).unwrap();
    assert_eq!(m.kind, MeldKind::Pon);
    assert_eq!(m.tiles(), &[128, 129, 130]);
    assert_eq!((m.called, m.added, m.from_rel), (Some(129), None, 2));

    // f004 hand 3: seat 0 pons chun calling 135 from seat 3 (kamicha).
    // 51723 = 101·512 + 11; 11 = 0b1011 → pon, from 3, unused copy 0; kind 33, called index 2
    // → tiles 133, 134, 135; called 135.
    let m = decode_meld(51723).unwrap();
    assert_eq!(m.kind, MeldKind::Pon);
    assert_eq!(m.tiles(), &[133, 134, 135]);
    assert_eq!((m.called, m.added, m.from_rel), (Some(135), None, 3));

    // f004 hand 3: seat 0 pons 2m calling 4 from seat 1 (shimocha).
    // 1641 = 3·512 + 105; 105 = 0b110_1001 → pon, from 1, unused copy 3; 3 = 1·3 + 0 → kind 1
    // (2m), called index 0 → tiles 4, 5, 6; called 4.
    let m = decode_meld(1641).unwrap();
    assert_eq!(m.kind, MeldKind::Pon);
    assert_eq!(m.tiles(), &[4, 5, 6]);
    assert_eq!((m.called, m.added, m.from_rel), (Some(4), None, 1));
}

#[test]
fn kakan_51762_f001() {
    // f001 hand 2: seat 1 adds 7z (133) to its pon 51754.
    // 51762 = 101·512 + 50; 50 = 0b11_0010 → bit 2 clear, bit 3 clear, bit 4 set (kakan),
    // from 2 (the pon's source, seat 3). Kind 33, called index 2; the copy not in the pon =
    // the added one = (50 >> 5) & 3 = 1 → 133. Pon tiles 132, 134, 135 (called 135) + 133.
    let m = decode_meld(51762).unwrap();
    assert_eq!(m.kind, MeldKind::Kakan);
    assert_eq!(m.tiles(), &[132, 133, 134, 135]);
    assert_eq!(m.called, Some(135));
    assert_eq!(m.added, Some(133));
    assert_eq!(m.from_rel, 2);
}

#[test]
fn daiminkan_23810_f001() {
    // f001 hand 3: seat 0 calls daiminkan on seat 2's 6s (93).
    // 23810 = 93·256 + 2 → low byte 2: bits 2-5 clear (no chi/pon/kakan/nukidora), from = 2
    // (toimen, not 0) → daiminkan of id 93 = 6s (kind 23) copy 1: tiles 92..95, called 93.
    let m = decode_meld(23810).unwrap();
    assert_eq!(m.kind, MeldKind::Daiminkan);
    assert_eq!(m.tiles(), &[92, 93, 94, 95]);
    assert_eq!(m.called, Some(93));
    assert_eq!(m.added, None);
    assert_eq!(m.from_rel, 2);
}

#[test]
fn ankans() {
    // f001 hand 1: seat 0's ankan 9999p. 17408 = 68·256 + 0 → id 68 = 9p (kind 17) copy 0,
    // from 0 → ankan, tiles 68..71, nothing called.
    let m = decode_meld(17408).unwrap();
    assert_eq!(m.kind, MeldKind::Ankan);
    assert_eq!(m.tiles(), &[68, 69, 70, 71]);
    assert_eq!((m.called, m.added, m.from_rel), (None, None, 0));

    // f005 hand 1 (no red fives): seat 1's ankan 5555s written with copy 2.
    // 23040 = 90·256 + 0 → id 90 = 5s (kind 22) copy 2, from 0 → ankan; by kind: 88..91.
    let m = decode_meld(23040).unwrap();
    assert_eq!(m.kind, MeldKind::Ankan);
    assert_eq!(m.tiles(), &[88, 89, 90, 91]);
    assert_eq!((m.called, m.added, m.from_rel), (None, None, 0));
}

/// Every `<N>` of every fixture file, decoded through `haifu::mjlog::decode`, against the
/// calls listed in tools/fixtures/README.md: (hand index, caller, m, kind).
#[test]
fn every_fixture_call_decodes_to_its_readme_kind() {
    use MeldKind::*;
    let f002 = [(2, 3, 49770, Pon)];
    let expected: [(&str, &[Call]); 12] = [
        (
            "2019061512gm-00a9-0000-0000f006.xml",
            &[
                (0, 1, 6311, Chi),
                (0, 2, 42279, Chi),
                (0, 0, 41995, Pon),
                (0, 1, 59575, Chi),
            ],
        ),
        ("2020010100gm-00a9-10011-0000f008.xml", &[]),
        (
            "2021031520gm-00a9-0000-0000f007.xml",
            &[(0, 3, 31744, Ankan)],
        ),
        ("2022010100gm-00a9-0000-0000f009.xml", &[]),
        (
            "2023010100gm-00a9-0000-0000f010.xml",
            &[
                (1, 2, 51818, Pon),
                (2, 3, 31338, Pon),
                (2, 2, 4354, Daiminkan),
                (2, 3, 16559, Chi),
                // The kakan robbed by a chankan (the AGARI follows this N).
                (2, 3, 31346, Kakan),
                (3, 3, 48683, Pon),
            ],
        ),
        (
            "2099010100gm-00a9-0000-0000f001.xml",
            &[
                (0, 2, 48682, Pon),
                (0, 1, 26679, Chi),
                (1, 0, 17408, Ankan),
                (2, 1, 51754, Pon),
                (2, 1, 51762, Kakan),
                (3, 0, 23810, Daiminkan),
            ],
        ),
        // The gzip copy decodes to the same document.
        ("2099010200gm-00a9-0000-0000f002.mjlog", &f002),
        ("2099010200gm-00a9-0000-0000f002.xml", &f002),
        ("2099010300gm-00a9-0000-0000f003.xml", &[]),
        (
            "2099010400gm-00e1-0000-0000f004.xml",
            &[(1, 2, 3431, Chi), (3, 0, 51723, Pon), (3, 0, 1641, Pon)],
        ),
        (
            "2099010500gm-00ab-0000-0000f005.xml",
            &[(1, 1, 23040, Ankan)],
        ),
        ("misc/local-game.xml", &[]),
    ];
    let dir = common::fixtures();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flat_map(|e| {
            let p = e.unwrap().path();
            match p.is_dir() {
                true => std::fs::read_dir(&p)
                    .unwrap()
                    .map(|f| f.unwrap().path())
                    .collect::<Vec<_>>(),
                false => vec![p],
            }
        })
        .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let listed: Vec<&str> = expected.iter().map(|e| e.0).collect();
    assert_eq!(names, listed, "fixture files changed");
    let mut total = 0;
    for (name, want) in expected {
        let (mut raw, mut out) = (Vec::new(), Vec::new());
        let bytes = haifu::input::read_log(&dir.join(name), &mut raw, &mut out).unwrap();
        let log = decode(bytes).unwrap();
        let mut hand: Option<usize> = None;
        let mut got = Vec::new();
        for e in &log.events {
            match e {
                Event::Init(_) => hand = Some(hand.map_or(0, |h| h + 1)),
                Event::Call { who, meld, m } => {
                    // The event's meld is the decoding of its own m code.
                    assert_eq!(decode_meld(*m).unwrap(), *meld, "{name}: m={m}");
                    got.push((hand.unwrap(), *who, *m, meld.kind));
                }
                _ => {}
            }
        }
        assert_eq!(got, want, "{name}");
        total += got.len();
    }
    // f006 4, f008 0, f007 1, f009 0, f010 6, f001 6, f002 1 + 1, f003 0, f004 3, f005 1,
    // misc 0.
    assert_eq!(total, 23);
}
