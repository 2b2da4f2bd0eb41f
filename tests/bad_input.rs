//! Bad input: every broken file gets a named error in the manifest, the good files still
//! ingest, and each replay invariant catches a log broken to violate it.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::{fixtures, run_ingest};
use haifu::ingest::RoomFilter;
use haifu::manifest::{FileEntry, Status};

/// The "every tag and meld" fixture game (see tools/fixtures/README.md, game f001).
const BASE: &str = "2099010100gm-00a9-0000-0000f001.xml";

fn base_text() -> String {
    std::fs::read_to_string(fixtures().join(BASE)).unwrap()
}

/// `text` with `from` replaced once by `to`; panics if `from` is not there, so a fixture change
/// cannot silently turn a mutation into a no-op.
fn mutate(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "fixture no longer contains {from:?}");
    text.replacen(from, to, 1)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn entry<'a>(files: &'a [FileEntry], name: &str) -> &'a FileEntry {
    files
        .iter()
        .find(|f| Path::new(&f.path).file_name().unwrap() == name)
        .unwrap_or_else(|| panic!("{name} is not in the manifest"))
}

/// (file name, bytes, expected status, expected reason prefix).
fn cases() -> Vec<(String, Vec<u8>, Status, &'static str)> {
    let base = base_text();
    // Each broken game keeps a distinct log id so duplicates don't mask each other.
    let named = |n: u32| format!("2099010100gm-00a9-0000-0000b{n:03}.xml");
    let mut random = Vec::with_capacity(4096);
    let mut x: u32 = 12345;
    for _ in 0..4096 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        random.push((x >> 16) as u8);
    }
    let gz = gzip(base.as_bytes());
    let cut_at = base.find("<T26/>").unwrap() + 3; // inside the tag `<T26/>`
    let end_of_hand0 = base.find("<INIT seed=\"1,").unwrap();
    vec![
        ("empty.xml".into(), Vec::new(), Status::Failed, "empty"),
        ("random.bin".into(), random, Status::Failed, "not-mjlog"),
        (
            "truncated.mjlog".into(),
            gz[..gz.len() / 2].to_vec(),
            Status::Failed,
            "corrupt-gzip",
        ),
        (
            "page.html".into(),
            b"<!DOCTYPE html><html><body>404 Not Found</body></html>".to_vec(),
            Status::Failed,
            "not-mjlog",
        ),
        (
            named(1),
            base.as_bytes()[..cut_at].to_vec(),
            Status::Failed,
            "xml",
        ),
        // Cut at a tag boundary inside hand 1: decodes, but the hand never ends.
        (
            named(2),
            base[..end_of_hand0 + 400]
                .rsplit_once("/>")
                .map(|(a, _)| format!("{a}/>"))
                .unwrap()
                .into_bytes(),
            Status::Failed,
            "replay: hand 1: truncated",
        ),
        (
            named(3),
            {
                let i = base.find(" owari=\"").unwrap();
                let j = i + 1 + base[i + 1..].find("\" ").unwrap() + 1;
                format!("{}{}", &base[..i], &base[j..]).into_bytes()
            },
            Status::Failed,
            "replay: truncated",
        ),
        (
            named(4),
            mutate(&base, "<T94/>", "<T136/>").into_bytes(),
            Status::Failed,
            "bad-tile",
        ),
        // Tile 5 is in seat 0's starting hand: drawing it again duplicates it.
        (
            named(5),
            mutate(&base, "<T94/>", "<T5/>").into_bytes(),
            Status::Failed,
            "replay: hand 0: duplicate-tile",
        ),
        // Seat 0 discards 126, which seat 2 holds.
        (
            named(6),
            mutate(&base, "<D127/>", "<D126/>").into_bytes(),
            Status::Failed,
            "replay: hand 0: not-in-hand",
        ),
        // Seat 0 is dealt 12 tiles.
        (
            named(7),
            mutate(&base, "hai0=\"5,118,", "hai0=\"118,").into_bytes(),
            Status::Failed,
            "replay: hand 0: hand-size",
        ),
        // The first AGARI's hai names tile 7, which the winner does not hold.
        (
            named(8),
            mutate(&base, "hai=\"6,11,12,58", "hai=\"7,11,12,58").into_bytes(),
            Status::Failed,
            "replay: hand 0: agari-mismatch",
        ),
        // The first AGARI's m names a meld the winner did not make.
        (
            named(9),
            mutate(
                &base,
                "m=\"48682\" machi=\"64\"",
                "m=\"48690\" machi=\"64\"",
            )
            .into_bytes(),
            Status::Failed,
            "replay: hand 0: agari-mismatch",
        ),
        // The first AGARI's deltas do not balance (+30 against −20).
        (
            named(10),
            mutate(
                &base,
                "sc=\"250,0,250,-20,250,20,250,0\"",
                "sc=\"250,0,250,-20,250,30,250,0\"",
            )
            .into_bytes(),
            Status::Failed,
            "replay: hand 0: score-mismatch",
        ),
        // The second INIT's ten disagrees with the first hand's end.
        (
            named(11),
            mutate(&base, "ten=\"250,230,270,250\"", "ten=\"250,230,270,260\"").into_bytes(),
            Status::Failed,
            "replay: hand 1: score-mismatch",
        ),
        // The exhaustive draw shows a hand seat 1 does not have.
        (
            named(12),
            mutate(&base, "hai1=\"4,7,15,17", "hai1=\"5,7,15,17").into_bytes(),
            Status::Failed,
            "replay: hand 2: shown-hand-mismatch",
        ),
        // A draw after the game's final record (the AGARI with `owari`).
        (
            named(13),
            mutate(&base, "/></mjloggm>", "/><T94/></mjloggm>").into_bytes(),
            Status::Failed,
            "replay: after-owari",
        ),
        // A draw after hand 0's AGARI, before the next INIT.
        (
            named(14),
            mutate(
                &base,
                "sc=\"250,0,250,-20,250,20,250,0\" /><INIT",
                "sc=\"250,0,250,-20,250,20,250,0\" /><T94/><INIT",
            )
            .into_bytes(),
            Status::Failed,
            "replay: hand 0: after-end",
        ),
        // A final record whose owari gives three seats' scores and places.
        (
            named(15),
            mutate(
                &base,
                "owari=\"547,64.7,-17,-51.7,235,3.5,235,-16.5\"",
                "owari=\"547,64.7,-17,-51.7,235,3.5\"",
            )
            .into_bytes(),
            Status::Failed,
            "replay: bad-owari",
        ),
        // The first place's final score 100 points above where the replay ends, with no
        // sticks left on the table to explain it.
        (
            named(16),
            mutate(&base, "owari=\"547,64.7,", "owari=\"548,64.8,").into_bytes(),
            Status::Failed,
            "replay: score-mismatch",
        ),
    ]
    .into_iter()
    .chain(replay_check_cases(&base, named))
    .chain([
        // The same log id as the good base file: counted once, the copy reported.
        (
            format!("copy-{}.mjlog", &BASE[..BASE.len() - 4]),
            gz.clone(),
            Status::Skipped,
            "duplicate",
        ),
    ])
    .collect()
}

/// One broken log for each refusal of the replay's event function (`HandState::apply`,
/// src/replay/apply.rs), each f001 changed in one place (the hand's tags are in the comments;
/// m codes decoded as in src/mjlog/meld.rs). The expected reason runs into the detail where a
/// check has more than one cause, so each case shows that its own refusal fired.
fn replay_check_cases(
    base: &str,
    named: impl Fn(u32) -> String,
) -> Vec<(String, Vec<u8>, Status, &'static str)> {
    let case = |n: u32, from: &str, to: &str, reason: &'static str| {
        (
            named(n),
            mutate(base, from, to).into_bytes(),
            Status::Failed,
            reason,
        )
    };
    vec![
        // Hand 0: after seat 2's pon and discard F108, seat 1 draws instead of seat 3.
        case(20, "<W84/>", "<U84/>", "replay: hand 0: out-of-turn: seat 1 draws"),
        // Seat 1 discards instead of seat 0, who has just drawn T94.
        case(
            21,
            "<T94/><D127/>",
            "<T94/><E17/>",
            "replay: hand 0: out-of-turn: seat 1 discards",
        ),
        // Seat 2's pon of 127 (m 48682) before seat 0 has discarded anything.
        case(
            22,
            "<T94/><D127/>",
            "<T94/><N who=\"2\" m=\"48682\" /><D127/>",
            "replay: hand 0: bad-call: seat 2 calls pon with no discard to call",
        ),
        // The same pon made by seat 0 on its own discard.
        case(
            23,
            "<N who=\"2\" m=\"48682\" />",
            "<N who=\"0\" m=\"48682\" />",
            "replay: hand 0: bad-call: seat 0 calls pon on its own discard",
        ),
        // Seat 0 discards 128 (green dragon) instead of 127; the pon (white dragons) still takes 127.
        case(
            24,
            "<D127/>",
            "<D128/>",
            "replay: hand 0: bad-call: seat 2's pon takes tile Some(127)",
        ),
        // The pon made by seat 1, whose relative seat 2 is seat 3, not the discarder 0.
        case(
            25,
            "<N who=\"2\" m=\"48682\" />",
            "<N who=\"1\" m=\"48682\" />",
            "replay: hand 0: bad-call: seat 1's pon says it came from relative seat 2",
        ),
        // Hand 2: seat 3 (riichi since G126) pons seat 0's D120 (m 46185: 120, 121, 122 from
        // relative seat 1).
        case(
            26,
            "<T120/><D120/><U133/>",
            "<T120/><D120/><N who=\"3\" m=\"46185\" /><U133/>",
            "replay: hand 2: bad-call: seat 3 calls after riichi",
        ),
        // Hand 1: seat 1 declares seat 0's ankan of 9p (m 17408) after seat 0's draw T71.
        case(
            27,
            "<N who=\"0\" m=\"17408\" />",
            "<N who=\"1\" m=\"17408\" />",
            "replay: hand 1: out-of-turn: seat 1 declares ankan",
        ),
        // Hand 2: seat 1 adds 130 to a pon of kind 32 (m 50258) it does not have; its pon is
        // of kind 33.
        case(
            28,
            "<N who=\"1\" m=\"51762\" />",
            "<N who=\"1\" m=\"50258\" />",
            "replay: hand 2: bad-call: seat 1 adds tile 130 to a pon it does not have",
        ),
        // Seat 1 adds 132 (m 51730: tiles 133, 134, 135 + 132), but its pon is 132, 134, 135.
        case(
            29,
            "<N who=\"1\" m=\"51762\" />",
            "<N who=\"1\" m=\"51730\" />",
            "replay: hand 2: bad-call: seat 1's kakan tiles",
        ),
        // Hand 0: a nukidora (m 7968: bit 5, tile 31) in a four-player game.
        case(
            30,
            "<T94/><D127/>",
            "<T94/><N who=\"0\" m=\"7968\" /><D127/>",
            "replay: hand 0: three-player",
        ),
        // Hand 1: seat 1 declares riichi while seat 0 holds its drawn T6.
        case(
            31,
            "<T6/><REACH who=\"0\" step=\"1\"/>",
            "<T6/><REACH who=\"1\" step=\"1\"/>",
            "replay: hand 1: bad-riichi: seat 1 declares riichi out of turn or twice",
        ),
        // Seat 0 declares again after its riichi is established.
        case(
            32,
            "<T87/><D87/>",
            "<T87/><REACH who=\"0\" step=\"1\"/><D87/>",
            "replay: hand 1: bad-riichi: seat 0 declares riichi out of turn or twice",
        ),
        // Hand 2: seat 1 declares riichi right after its pon.
        case(
            33,
            "<N who=\"1\" m=\"51754\" /><E69/>",
            "<N who=\"1\" m=\"51754\" /><REACH who=\"1\" step=\"1\"/><E69/>",
            "replay: hand 2: bad-riichi: seat 1 declares riichi with an open hand",
        ),
        // Hand 1: step 2 with no step 1 before seat 0's discard D6.
        case(
            34,
            "<REACH who=\"0\" step=\"1\"/><D6/>",
            "<D6/>",
            "replay: hand 1: bad-riichi: REACH step 2 for seat 0",
        ),
        // Step 2's scores without seat 0's 1000 paid.
        case(
            35,
            "ten=\"240,230,270,250\"",
            "ten=\"250,230,270,250\"",
            "replay: hand 1: score-mismatch: REACH step 2",
        ),
        // Hand 1's DORA names 95, which seat 0 was dealt.
        case(
            36,
            "<DORA hai=\"108\" />",
            "<DORA hai=\"95\" />",
            "replay: hand 1: duplicate-tile: dora indicator 95",
        ),
        // Five DORA records after the first indicator: the sixth indicator (2, 3, 8 and 10 are
        // nowhere in hand 1).
        case(
            37,
            "<DORA hai=\"108\" />",
            "<DORA hai=\"108\" /><DORA hai=\"2\" /><DORA hai=\"3\" /><DORA hai=\"8\" /><DORA hai=\"10\" />",
            "replay: hand 1: duplicate-tile: a sixth dora indicator",
        ),
        // Hand 1's tsumo names 5 (in the hand) as its winning tile; seat 0 drew T20.
        case(
            38,
            "machi=\"20\"",
            "machi=\"5\"",
            "replay: hand 1: agari-mismatch: seat 0 tsumo on 5",
        ),
        // Hand 0's ron names 58 (in seat 2's hand) as its winning tile; seat 1 discarded 64.
        case(
            39,
            "machi=\"64\"",
            "machi=\"58\"",
            "replay: hand 0: agari-mismatch: seat 2 ron on 58 from seat 1",
        ),
        // Hand 0: seat 2 rons seat 1's E9 (3m) with its real concealed tiles: 1m 2m 3m 6p 7p
        // 3s 4s 5s 8s 8s + 3m and a pon is not complete (8p, 64, was its wait).
        case(
            40,
            "<E9/>",
            "<E9/><AGARI ba=\"0,0\" hai=\"6,9,11,12,58,61,80,87,88,100,101\" m=\"48682\" machi=\"9\" ten=\"30,2000,0\" yaku=\"18,1,54,1\" doraHai=\"115\" who=\"2\" fromWho=\"1\" sc=\"250,0,250,-20,250,20,250,0\" />",
            "replay: hand 0: agari-mismatch: winning tile 3m is not a wait",
        ),
        // Hand 0's AGARI says one honba; the table has none.
        case(
            41,
            "<AGARI ba=\"0,0\"",
            "<AGARI ba=\"1,0\"",
            "replay: hand 0: stick-mismatch: AGARI ba 1,0",
        ),
        // Hand 0's AGARI twice: the second is the same winner again.
        case(
            42,
            "sc=\"250,0,250,-20,250,20,250,0\" />",
            "sc=\"250,0,250,-20,250,20,250,0\" /><AGARI ba=\"0,0\" hai=\"6,11,12,58,61,64,80,87,88,100,101\" m=\"48682\" machi=\"64\" ten=\"30,2000,0\" yaku=\"18,1,54,1\" doraHai=\"115\" who=\"2\" fromWho=\"1\" sc=\"250,0,230,-20,270,20,250,0\" />",
            "replay: hand 0: bad-agari",
        ),
        // Hand 1's tsumo (seat 0 on T20), then a ron by seat 1 on seat 0's tile: a second
        // AGARI after a tsumo.
        case(
            43,
            "sc=\"240,90,230,-40,270,-20,250,-20\" />",
            "sc=\"240,90,230,-40,270,-20,250,-20\" /><AGARI ba=\"0,0\" hai=\"1,9,18,20,27,34,43,51,56,65,72,81,90,96\" machi=\"20\" ten=\"30,1000,0\" yaku=\"8,1\" who=\"1\" fromWho=\"0\" sc=\"330,0,190,0,250,0,230,0\" />",
            "replay: hand 1: bad-agari",
        ),
        // Hand 2: seat 1 draws after the 70th draw (9 is in the dead wall).
        case(
            44,
            "<D71/><RYUUKYOKU ba=\"0,1\"",
            "<D71/><U9/><RYUUKYOKU ba=\"0,1\"",
            "replay: hand 2: wall-exhausted",
        ),
        // Hand 2's RYUUKYOKU says no stick; seat 3's riichi stick is on the table.
        case(
            45,
            "<RYUUKYOKU ba=\"0,1\"",
            "<RYUUKYOKU ba=\"0,0\"",
            "replay: hand 2: stick-mismatch: RYUUKYOKU ba 0,0",
        ),
        // Its deltas sum to +1000.
        case(
            46,
            "sc=\"330,-15,190,15,250,-15,220,15\"",
            "sc=\"330,-15,190,15,250,-15,220,25\"",
            "replay: hand 2: score-mismatch: RYUUKYOKU deltas sum to 1000",
        ),
        // Its scores before say seat 0 had 33100.
        case(
            47,
            "sc=\"330,-15,190,15,250,-15,220,15\"",
            "sc=\"331,-15,190,15,250,-15,220,15\"",
            "replay: hand 2: score-mismatch: RYUUKYOKU sc says seat 0 had 33100",
        ),
        // Hand 0: seat 1 is dealt tile 5, which seat 0 was dealt too.
        case(
            48,
            "hai1=\"17,",
            "hai1=\"5,",
            "replay: hand 0: duplicate-tile: tile 5 dealt twice",
        ),
        // Hand 0's first dora indicator is tile 5, in seat 0's hand.
        case(
            49,
            "seed=\"0,0,0,2,4,115\"",
            "seed=\"0,0,0,2,4,5\"",
            "replay: hand 0: duplicate-tile: dora indicator 5",
        ),
    ]
}

#[test]
fn every_bad_file_gets_a_named_reason_and_the_rest_ingest() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    // The good game is named so that it sorts before its duplicate copy.
    std::fs::copy(fixtures().join(BASE), inputs.join(format!("a-{BASE}"))).unwrap();
    let cases = cases();
    for (name, bytes, _, _) in &cases {
        std::fs::write(inputs.join(name), bytes).unwrap();
    }
    let out = dir.path().join("out");
    let s = run_ingest(std::slice::from_ref(&inputs), &out, RoomFilter::Any);
    let files = &s.manifest.files().unwrap();
    assert_eq!(
        files.len(),
        cases.len() + 1,
        "every input is in the manifest once"
    );
    let good = entry(files, &format!("a-{BASE}"));
    assert_eq!(good.status, Status::Ok, "{good:?}");
    assert_eq!((good.games, good.hands), (1, 5));
    let mut wrong = Vec::new();
    for (name, _, status, reason) in &cases {
        let e = entry(files, name);
        let got = e.reason_text().unwrap_or_default();
        // `name: detail`, or `replay: [hand N: ]check: detail`: something after the name.
        let name_parts = match got.strip_prefix("replay: ") {
            Some(rest) if rest.starts_with("hand ") => 3,
            Some(_) => 2,
            None => 1,
        };
        if e.status != *status || !got.starts_with(reason) {
            wrong.push(format!(
                "{name}: {:?} {got:?}, expected {reason:?}…",
                e.status
            ));
        } else if got.split(": ").count() <= name_parts {
            wrong.push(format!("{name}: reason has no detail: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(s.failed());
    assert!(out.join("manifest.json").exists() && out.join("games.parquet").exists());
    assert_eq!(s.manifest.totals.games, 1);
}

#[test]
fn strict_writes_nothing_when_a_file_fails() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    std::fs::copy(fixtures().join(BASE), inputs.join(BASE)).unwrap();
    std::fs::write(inputs.join("empty.xml"), b"").unwrap();
    let out = dir.path().join("out");
    let s = haifu::ingest::ingest(&haifu::ingest::IngestOptions {
        inputs: vec![inputs],
        out: out.clone(),
        room: RoomFilter::Any,
        dates: Default::default(),
        strict: true,
        progress: false,
        observe: Default::default(),
        tsumo_validation: false,
        convert: None,
        append: false,
        shard: None,
    })
    .unwrap();
    assert!(!s.written);
    assert!(s.failed());
    let left: Vec<PathBuf> = std::fs::read_dir(&out)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "strict run left {left:?}");
}

#[test]
fn a_missing_input_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let s = run_ingest(
        &[fixtures().join(BASE), dir.path().join("no-such-dir")],
        &out,
        RoomFilter::Any,
    );
    assert_eq!(s.manifest.totals.ok, 1);
    assert_eq!(s.manifest.totals.failed, 1);
    let missing = s
        .manifest
        .files()
        .unwrap()
        .into_iter()
        .find(|f| f.path.ends_with("no-such-dir"))
        .unwrap();
    assert!(missing
        .reason_text()
        .as_deref()
        .unwrap()
        .starts_with("unreadable"));
}

/// A game counts in the draw-rate frame once whatever else the run holds: a copy of it that
/// fails mid-game (sorted first, same log id), a duplicate copy (sorted last), and another
/// game that fails in its third hand add nothing. Workers commit a game's draws only when it
/// replays whole, and only the copy that lands.
#[test]
fn draw_rate_counts_each_landed_game_once() {
    let base = base_text();
    // Hand 2's exhaustive draw shows a hand seat 1 does not have: the replay fails there,
    // after the draws of hands 0 and 1.
    let broken = mutate(&base, "hai1=\"4,7,15,17", "hai1=\"5,7,15,17");
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("alone");
    let mixed = dir.path().join("mixed");
    std::fs::create_dir(&alone).unwrap();
    std::fs::create_dir(&mixed).unwrap();
    std::fs::write(alone.join(BASE), &base).unwrap();
    let id = &BASE[..BASE.len() - 4];
    std::fs::write(mixed.join(format!("0-{id}.xml")), &broken).unwrap();
    std::fs::write(mixed.join(format!("1-{id}.xml")), &base).unwrap();
    std::fs::write(mixed.join(format!("2-{id}.mjlog")), gzip(base.as_bytes())).unwrap();
    let other = broken.replace("0000f001", "0000f0ff");
    std::fs::write(mixed.join("2099010100gm-00a9-0000-0000f0ff.xml"), other).unwrap();

    let (out_alone, out_mixed) = (dir.path().join("out-alone"), dir.path().join("out-mixed"));
    run_ingest(std::slice::from_ref(&alone), &out_alone, RoomFilter::Any);
    let s = run_ingest(std::slice::from_ref(&mixed), &out_mixed, RoomFilter::Any);
    let statuses: Vec<Status> = s
        .manifest
        .files()
        .unwrap()
        .iter()
        .map(|f| f.status)
        .collect();
    assert_eq!(
        statuses,
        [Status::Failed, Status::Ok, Status::Skipped, Status::Failed]
    );
    let a = common::frame(&out_alone, "draw_rate");
    let b = common::frame(&out_mixed, "draw_rate");
    assert!(a.height() > 0);
    assert!(a.equals(&b), "draw_rate differs:\n{a}\n{b}");
}
