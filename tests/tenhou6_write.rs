//! The tenhou.net/6 writer (`haifu convert --to tenhou6`) against Tenhou's own export of the
//! same games (../shared/corpus/formats/golden/: its `mjlog2json` service, paired with the
//! mjlog of `../phoenix/` and `../other/`).

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn ours(mjlog: &Path, id: &str) -> String {
    let log = common::proved_log(mjlog);
    let mut text = String::new();
    haifu::formats::tenhou6::write(&log, id, &mut text);
    text
}

fn mjlog_of(id: &str) -> PathBuf {
    for dir in ["phoenix", "other"] {
        let Some(d) = common::corpus(dir) else {
            continue;
        };
        for ext in ["mjlog", "xml"] {
            let p = d.join(format!("{id}.{ext}"));
            if p.exists() {
                return p;
            }
        }
    }
    panic!("no mjlog for {id}");
}

/// Fixture f006's second hand worked from its XML: East 2 (`seed="1,0,0,…,31"`: round 1, no
/// honba, no sticks), scores 22400 23700 23700 30200, dora indicator id 31 = 8m (18), no ura.
/// Starting hands (ids to codes, sorted): seat 0 2468m 2468p 2468s Haku; seat 1 357m 357p 357s
/// South West North Chun; seat 2 19m 19p 19s ESWN Haku Hatsu Hatsu; seat 3 1368m 1368p 1368s
/// Chun. Seat 1 (the dealer) draws West (43) and throws Chun (47, not the tile drawn); seat 2
/// rons it with kokushi: deltas 0, −32000, +32000, 0; `[2, 1, 2, "役満32000点",
/// "国士無双(役満)"]` (no one liable: the winner's own seat).
#[test]
fn f006_second_hand_by_hand() {
    let f = common::fixtures().join("2019061512gm-00a9-0000-0000f006.xml");
    let text = ours(&f, "2019061512gm-00a9-0000-0000f006");
    let v: Value = serde_json::from_str(&text).unwrap();
    let want: Value = serde_json::from_str(
        r#"[[1,0,0],[22400,23700,23700,30200],[18],[],
        [12,14,16,18,22,24,26,28,32,34,36,38,45],[],[],
        [13,15,17,23,25,27,33,35,37,42,43,44,47],[43],[47],
        [11,19,21,29,31,39,41,42,43,44,45,46,46],[],[],
        [11,13,16,18,21,23,26,28,31,33,36,38,47],[],[],
        ["和了",[0,-32000,32000,0],[2,1,2,"役満32000点","国士無双(役満)"]]]"#,
    )
    .unwrap();
    assert_eq!(v["log"][1], want);
    assert_eq!(v["ref"], "2019061512gm-00a9-0000-0000f006");
    assert_eq!(v["rule"]["disp"], "鳳南喰赤");
    // Hand 1: seat 3's riichi with East is "r41"; seat 2's tsumogiri of the 1p it drew is 60;
    // seat 1's chi of 3m (from seat 0) with its 4m and 5m is "c131415", seat 0's pon of East
    // from seat 3 (its left) "p414141".
    let hand = &v["log"][0];
    assert!(hand[4 + 3 * 3 + 2]
        .as_array()
        .unwrap()
        .contains(&Value::from("r41")));
    assert_eq!(hand[4 + 3 * 2 + 2][0], 60);
    assert_eq!(hand[4 + 3 + 1][1], "c131415");
    assert!(hand[4 + 1]
        .as_array()
        .unwrap()
        .contains(&Value::from("p414141")));
}

/// Every golden game, through `haifu convert --to tenhou6`: byte for byte Tenhou's own export,
/// the `connection` list of the one game with a disconnection included.
/// A three-player game (§24), fixture f011's first hand worked from its XML: four seat slots,
/// the fourth empty and its score 0; seat 1 draws 7s, 1s (its riichi: `r60`), North, which it
/// sets aside (`N m="31264"`: 122 × 256 + 0x20, a kita, written `f44` in its discards), then
/// its replacement 5s, on which it wins (rinshan kaihou): a non-dealer's mangan by tsumo,
/// which the absent seat does not pay (`ten` 6000: `満貫2000-4000点`). Seat 1's hand, ids to
/// codes: 93 → 36, 58 → 26, 61 → 27, 47 → 23, 106 → 39, 87 → 34, 104 → 39, 52 → 52 (the red
/// 5p), 76 → 32, 53 → 25, 49 → 24, 85 → 34, 82 → 33. The room `三鳳南喰赤`, `ratingc` PF3.
#[test]
fn f011_a_three_player_hand_with_a_kita() {
    let f = common::sanma_fixtures().join("2099011100gm-00b9-0000-0000f011.xml");
    let text = ours(&f, "2099011100gm-00b9-0000-0000f011");
    let v: Value = serde_json::from_str(&text).unwrap();
    let want: Value = serde_json::from_str(
        r#"[[0,0,0],[35000,35000,35000,0],[46],[41],
        [21,25,29,31,35,39,41,42,43,44,45,46,47],[23,31,22],[60,60,60],
        [23,24,25,52,26,27,32,33,34,34,36,39,39],[37,31,44,35],[60,"r60","f44"],
        [11,19,21,25,29,31,35,39,41,43,45,46,47],[29,11],[60,60],
        [],[],[],
        ["和了",[-4000,7000,-2000,0],[1,1,1,"満貫2000-4000点","立直(1飜)","嶺上開花(1飜)","門前清自摸和(1飜)","ドラ(1飜)","赤ドラ(1飜)"]]]"#,
    )
    .unwrap();
    assert_eq!(v["log"][0], want);
    assert_eq!(v["rule"]["disp"], "三鳳南喰赤");
    assert_eq!(v["ratingc"], "PF3");
    assert_eq!(v["name"][3], "");
    assert_eq!(v["sc"].as_array().unwrap()[6..], [0, 0]);
    // Every hand keeps the fourth seat's lists empty.
    for hand in v["log"].as_array().unwrap() {
        assert_eq!(hand[1][3], 0);
        for i in 13..16 {
            assert_eq!(hand[i], serde_json::json!([]));
        }
    }
}

#[test]
fn tenhou6_equals_tenhous_own_export() {
    let Some(golden) = common::corpus("formats/golden") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut ids = Vec::new();
    for e in std::fs::read_dir(&golden).unwrap() {
        let id = e
            .unwrap()
            .path()
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let src = mjlog_of(&id);
        std::os::unix::fs::symlink(&src, dir.path().join(src.file_name().unwrap())).unwrap();
        ids.push(id);
    }
    let out = dir.path().join("out");
    common::ok(&common::haifu(&[
        "convert",
        dir.path().to_str().unwrap(),
        "--to",
        "tenhou6",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]));
    assert_eq!(ids.len(), 6);
    for id in &ids {
        let mine = std::fs::read(out.join(format!("{id}.json"))).unwrap();
        let theirs = std::fs::read(golden.join(format!("{id}.json"))).unwrap();
        assert!(mine == theirs, "{id}: not Tenhou's bytes");
    }
}

/// The 171 games of ../shared/corpus/formats/tenhou6/ (tsubakisakura/mjlog2json): every one
/// equal as JSON (that converter orders keys its own way).
#[test]
fn tenhou6_equals_the_converted_corpus() {
    let (Some(t6), Some(phoenix)) = (common::corpus("formats/tenhou6"), common::corpus("phoenix"))
    else {
        return;
    };
    let mut n = 0;
    for e in std::fs::read_dir(&t6).unwrap() {
        let f = e.unwrap().path();
        let id = f.file_stem().unwrap().to_str().unwrap();
        let src = ["mjlog", "xml"]
            .iter()
            .map(|x| phoenix.join(format!("{id}.{x}")))
            .find(|p| p.exists())
            .unwrap();
        let mine: Value = serde_json::from_str(&ours(&src, id)).unwrap();
        let theirs: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert!(mine == theirs, "{id}");
        n += 1;
    }
    assert_eq!(n, 171);
}

/// A game not from a Tenhou room keeps its own rule text in `rule.disp` (or its room's name
/// when it had none), never a Tenhou room's name made up from its rules; read back, it is not
/// a Tenhou game. The seeds of the `formats` fuzz target, renamed so that no log id names
/// them: a majiang paipu whose title is an engine's (`電脳麻将 selfplay`, read back as room
/// `other`), and an mjai game, which records no points and so is skipped as `unconvertible`
/// rather than written with made-up ones.
#[test]
fn games_of_other_sources_keep_their_rule_text() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/formats");
    let input = tempfile::tempdir().unwrap();
    std::fs::copy(
        seeds.join("2099010100gm-00a9-0000-0000f001.mjai.jsonl"),
        input.path().join("engine-game.jsonl"),
    )
    .unwrap();
    let paipu = std::fs::read_to_string(seeds.join("tenhou-hand.majiang.json")).unwrap();
    let title = paipu.split('"').nth(3).unwrap().to_string();
    let paipu = paipu.replacen(&title, "電脳麻将 selfplay\\nseed=1", 1);
    std::fs::write(input.path().join("selfplay.json"), paipu).unwrap();
    let out = tempfile::tempdir().unwrap();
    let said = common::ok(&common::haifu(&[
        "convert",
        input.path().to_str().unwrap(),
        "--to",
        "tenhou6",
        "--out",
        out.path().to_str().unwrap(),
    ]));
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["skips_by_reason"],
        serde_json::json!({"unconvertible": 1}),
        "{said}"
    );
    let written: Vec<PathBuf> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with("manifest.json"))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let v: Value = serde_json::from_slice(&std::fs::read(&written[0]).unwrap()).unwrap();
    assert_eq!(v["rule"]["disp"], "電脳麻将 selfplay");
    let frames = common::ingest_cli(&written, &[]);
    let games = common::frame(frames.path(), "games");
    let rooms = games.column("room").unwrap().str().unwrap().clone();
    let rooms: Vec<&str> = rooms.iter().map(|r| r.unwrap()).collect();
    assert_eq!(rooms, ["other"]);
}
