//! Three-player games (docs/definitions.md §24) on the hand-worked fixtures of
//! `fixtures-sanma/` (f011, f012: every value below is worked by hand in
//! tools/fixtures/EXPECTED_V5.md, and cross-checked there by an independent Python replay),
//! frames of both tables (no report pools them; a four-player corpus's reports unchanged),
//! and three-player logs broken to break one rule each.

mod common;

use std::path::{Path, PathBuf};

use common::{fixtures, frame, haifu, ingest_cli, ingest_cli_exit, ok, sanma_fixtures, stats_json};
use polars::prelude::*;

const F011: &str = "2099011100gm-00b9-0000-0000f011";
const F012: &str = "2099011200gm-00b9-0000-0000f012";

fn strs(df: &DataFrame, c: &str) -> Vec<String> {
    let s = df.column(c).unwrap().cast(&DataType::String).unwrap();
    s.str()
        .unwrap()
        .iter()
        .map(|v| v.unwrap_or("null").to_string())
        .collect()
}

fn ints(df: &DataFrame, c: &str) -> Vec<i64> {
    let s = df.column(c).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().map(|v| v.unwrap_or(-999)).collect()
}

/// Rows of `frame` as text: `cols` joined by `|`, a row a string, in frame order.
fn rows(df: &DataFrame, cols: &[&str]) -> Vec<String> {
    let values: Vec<Vec<String>> = cols.iter().map(|c| strs(df, c)).collect();
    (0..df.height())
        .map(|i| {
            values
                .iter()
                .map(|v| v[i].as_str())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

/// Every hand's end and `sc` deltas (EXPECTED_V5.md §2 and §3 tables): tsumo loss (a
/// non-dealer mangan tsumo paid 4,000 + 2,000), a ron on a kita North, a double ron whose
/// second winner gets no honba, noten payments of 2,000 with one and with two tenpai, honba
/// 100 from each of two payers on a tsumo and 200 a stick on a ron; the fourth seat's delta
/// 0 throughout.
#[test]
fn every_hand_ends_and_pays_as_worked_by_hand() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=development"]);
    let hands = frame(out.path(), "hands");
    assert_eq!(
        rows(
            &hands,
            &[
                "game_id", "hand", "dealer", "honba", "kyotaku", "end", "delta_0", "delta_1",
                "delta_2", "delta_3"
            ]
        ),
        [
            format!("{F011}|0|0|0|0|tsumo|-4000|7000|-2000|0"),
            format!("{F011}|1|1|0|0|ron|0|-2600|3600|0"),
            format!("{F011}|2|2|0|0|double_ron|-32000|9000|24000|0"),
            format!("{F012}|0|0|0|0|exhaustive|-1000|2000|-1000|0"),
            format!("{F012}|1|1|1|1|exhaustive|-2000|1000|1000|0"),
            format!("{F012}|2|1|2|1|tsumo|-4100|9200|-4100|0"),
            format!("{F012}|3|1|3|0|ron|-36600|37600|0|0"),
        ]
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["totals"]["wins"], 6);
    assert_eq!(manifest["totals"]["wins_proved"], 6);
    // §10 with the kita column: kita dora inside `dora` (f011 hand 2 seat 1: the kita alone;
    // f012 hand 2: a kita under a West indicator counts 2), a 9m indicator's dora 1m (f011
    // hand 2 seat 2: dora 3 from 111m), rinshan on a kita's replacement draw, ippatsu kept by
    // a ron on the kita North, no chankan.
    let wins = frame(out.path(), "wins");
    assert_eq!(
        rows(
            &wins,
            &["game_id", "hand", "seat", "discarder", "fu", "points", "limit", "han", "dora", "ura_dora", "aka_dora", "kita", "yaku"]
        ),
        [
            format!("{F011}|0|1|null|30|6000|1|5|1|0|1|1|riichi:1 rinshan:1 menzen-tsumo:1 dora:1 aka-dora:1 ura-dora:0"),
            format!("{F011}|1|2|1|40|2600|0|2|0|0|0|0|riichi:1 ippatsu:1 ura-dora:0"),
            format!("{F011}|2|1|0|25|8000|1|5|1|0|0|1|chiitoitsu:2 honroutou:2 dora:1"),
            format!("{F011}|2|2|0|40|24000|3|8|3|0|0|0|riichi:1 ippatsu:1 junchan:3 dora:3 ura-dora:0"),
            format!("{F012}|2|1|null|30|7800|0|4|2|0|0|1|menzen-tsumo:1 tanyao:1 dora:2"),
            format!("{F012}|3|1|0|30|36000|4|11|0|0|0|0|riichi:1 ippatsu:1 pinfu:1 tanyao:1 iipeikou:1 chinitsu:6 ura-dora:0"),
        ]
    );
    // One row per kita: turn (discards so far), live_left (55 − draws so far, the North's
    // draw included), robbed.
    let kita = frame(out.path(), "kita");
    assert_eq!(
        rows(
            &kita,
            &["game_id", "hand", "seat", "turn", "live_left", "robbed"]
        ),
        [
            format!("{F011}|0|1|2|47|false"),
            format!("{F011}|1|0|0|52|false"),
            format!("{F011}|1|1|2|47|true"),
            format!("{F011}|2|1|0|52|false"),
            format!("{F012}|2|1|0|54|false"),
        ]
    );
}

/// The `games` and `seats` frames of a three-player game: players 3, three seats, the fourth
/// seat's columns 0 or null (§24), places 1..3 from `owari`.
#[test]
fn games_and_seats_have_three_seats() {
    let out = ingest_cli(&[sanma_fixtures()], &[]);
    let games = frame(out.path(), "games");
    assert_eq!(
        rows(
            &games,
            &[
                "game_id", "players", "place_0", "place_1", "place_2", "place_3", "score_0",
                "score_1", "score_2", "score_3", "name_3", "dan_3", "rate_3", "dan_2"
            ]
        ),
        [
            format!("{F011}|3|3|2|1|0|-1000|47400|58600|0|null|null|null|19"),
            format!("{F012}|3|3|1|2|0|-8700|82800|30900|0|null|null|null|16"),
        ]
    );
    let seats = frame(out.path(), "seats");
    assert_eq!(seats.height(), 6);
    assert_eq!(ints(&seats, "seat"), [0, 1, 2, 0, 1, 2]);
    assert_eq!(ints(&seats, "place"), [3, 2, 1, 3, 1, 2]);
    // A kita is not a call (§5's call rate).
    assert_eq!(ints(&seats, "call_hands").iter().sum::<i64>(), 0);
}

/// §1 on three seats (EXPECTED_V5.md: 6 units in f011, 4 in f012), the shanten under
/// three-player rules (f012 hand 0 seat 2, `1111m 123p 11s 7777z`: 2, where four-player
/// rules give 1); the report's rate per seat-hand over 3 × 7 hands.
#[test]
fn riichi_response_units_as_worked_by_hand() {
    let out = ingest_cli(&[sanma_fixtures()], &[]);
    let rr = frame(out.path(), "riichi_response");
    assert_eq!(
        rows(
            &rr,
            &[
                "game_id",
                "hand",
                "seat",
                "riichi_seat",
                "outcome",
                "income",
                "shanten",
                "seat_is_dealer",
                "riichi_is_dealer",
                "riichi_turn"
            ]
        ),
        [
            format!("{F011}|0|0|1|tsumo_other|-4000|2|true|false|2"),
            format!("{F011}|0|2|1|tsumo_other|-2000|2|false|false|2"),
            format!("{F011}|1|0|2|ron_other|0|6|false|false|2"),
            format!("{F011}|1|1|2|deal_in|-2600|4|true|false|2"),
            format!("{F011}|2|0|2|deal_in|-32000|2|false|true|2"),
            format!("{F011}|2|1|2|win|9000|0|false|true|2"),
            format!("{F012}|0|0|1|draw|-1000|2|true|false|2"),
            format!("{F012}|0|2|1|draw|-1000|2|false|false|2"),
            format!("{F012}|3|0|1|deal_in|-36600|1|false|true|2"),
            format!("{F012}|3|2|1|ron_other|0|3|false|true|2"),
        ]
    );
    let report = stats_json(out.path(), "riichi-response", &[]);
    let all = report.iter().find(|r| r["outcome"] == "all").unwrap();
    assert_eq!(all["units"], 10);
    // 10 units / (3 seats × 7 hands).
    let rate = all["rate_per_seat_hand"].as_f64().unwrap();
    assert!((rate - 10.0 / 21.0).abs() < 1e-12, "{rate}");
    // Mean income (−31,600 − 38,600) / 10.
    let mean = all["mean_income"].as_f64().unwrap();
    assert!((mean + 7020.0).abs() < 1e-9, "{mean}");
}

/// §2 with the 25 categories of three-player games: 27 units a declaration, 1m and 9m in the
/// `19m` group by publicly visible copies (kita Norths and a 9m indicator counted). Counts per
/// category over both games (EXPECTED_V5.md §2 tables: f011 81 units / 3 waits, f012 54 / 4).
#[test]
fn wait_danger_has_the_three_player_categories() {
    let out = ingest_cli(&[sanma_fixtures()], &[]);
    let wd = frame(out.path(), "wait_danger");
    assert_eq!(wd.height(), 5 * 27);
    let counts = wd
        .lazy()
        .group_by([col("category")])
        .agg([
            len().alias("units"),
            col("is_wait").cast(DataType::Int64).sum().alias("waits"),
        ])
        .sort(["category"], Default::default())
        .collect()
        .unwrap();
    assert_eq!(
        rows(&counts, &["category", "units", "waits"]),
        [
            "19-genbutsu|2|0",
            "19-musuji|17|1",
            "19-suji|1|0",
            "19m-0|7|0",
            "19m-1|2|1",
            "19m-genbutsu|1|0",
            "28-genbutsu|1|0",
            "28-musuji|19|0",
            "37-genbutsu|2|0",
            "37-musuji|17|1",
            "37-suji|1|0",
            "456-genbutsu|1|0",
            "456-katasuji|3|0",
            "456-musuji|25|3",
            "456-nakasuji|1|0",
            "honor-0|27|0",
            "honor-1|5|1",
            "honor-genbutsu|3|0",
        ]
    );
    // The report's 19m group rows (genbutsu out of the denominator, then in).
    let report = stats_json(out.path(), "wait-danger", &[]);
    let group: Vec<String> = report
        .iter()
        .filter(|r| r["pattern"] == "19m")
        .map(|r| format!("{}|{}|{}", r["level"], r["units"], r["waits"]))
        .collect();
    assert_eq!(group, ["\"excl_genbutsu\"|9|1", "\"incl_genbutsu\"|10|1"]);
}

/// §5 over three seats (EXPECTED_V5.md: 7 hands, 6 wins, 3 deal-ins, 5 declarations, no
/// caller, 2 draws, average win 14,066.67; rates over 3 × 7).
#[test]
fn summary_over_three_seats() {
    let out = ingest_cli(&[sanma_fixtures()], &[]);
    let summary = stats_json(out.path(), "summary", &[]);
    let all = summary.iter().find(|r| r["room"] == "all").unwrap();
    for (k, v) in [
        ("games", 2),
        ("hands", 7),
        ("wins", 6),
        ("deal_ins", 3),
        ("riichi", 5),
        ("callers", 0),
        ("draws", 2),
    ] {
        assert_eq!(all[k], v, "{k}");
    }
    let close = |k: &str, want: f64| {
        let got = all[k].as_f64().unwrap();
        assert!((got - want).abs() < 1e-9, "{k}: {got} vs {want}");
    };
    close("win_rate", 6.0 / 21.0);
    close("deal_in_rate", 3.0 / 21.0);
    close("riichi_rate", 5.0 / 21.0);
    close("draw_rate", 2.0 / 7.0);
    close("average_win_value", 84_400.0 / 6.0);
    let placement = stats_json(out.path(), "placement", &[]);
    assert!(
        placement.iter().all(|r| r["fourth_rate"] == 0.0),
        "{placement:?}"
    );
}

/// §3 over the 29 types of a three-player game with red fives: every draw counts 29 units
/// (no 2m–8m, no red 5m) in the three-player table of `draw_rate`, one of them its hit; the
/// parameter file says `"players": 3`.
#[test]
fn draw_rates_count_the_29_types() {
    let out = ingest_cli(&[sanma_fixtures()], &[]);
    let dr = frame(out.path(), "draw_rate");
    assert!(ints(&dr, "players").iter().all(|&p| p == 3));
    let types: std::collections::BTreeSet<String> = strs(&dr, "tile_type").into_iter().collect();
    assert_eq!(types.len(), 29, "{types:?}");
    assert!(!types.contains("2m") && !types.contains("0m") && types.contains("0p"));
    let hands = frame(out.path(), "hands");
    let draws: i64 = ints(&hands, "draws").iter().sum();
    assert_eq!(draws, 144);
    assert_eq!(ints(&dr, "hits").iter().sum::<i64>(), draws);
    assert_eq!(ints(&dr, "units").iter().sum::<i64>(), 29 * draws);
    let file = out.path().join("p.json");
    ok(&haifu(&[
        "params",
        "tsumo-rate",
        "--frames",
        out.path().to_str().unwrap(),
        "--out",
        file.to_str().unwrap(),
    ]));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(value["players"], 3);
    assert_eq!(value["corpus"]["games"], 2);
}

/// `haifu run` over four- and three-player games together: `reports/` is byte for byte the
/// run of the four-player games alone, `reports/sanma/` that of the three-player games alone
/// (no report pools the tables); `--players` picks a table in every other command, and one a
/// directory has no game of is refused.
#[test]
fn mixed_runs_never_pool_the_tables() {
    let run = |inputs: &[PathBuf]| {
        let out = tempfile::tempdir().unwrap();
        let mut args = vec!["run"];
        args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
        args.extend([
            "--room",
            "any",
            "--out",
            out.path().to_str().unwrap(),
            "--quiet",
        ]);
        let o = haifu(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (out, String::from_utf8_lossy(&o.stderr).to_string())
    };
    let (four, _) = run(&[fixtures()]);
    let (three, said) = run(&[sanma_fixtures()]);
    assert!(said.contains("2 three-player games"), "{said}");
    let (both, said) = run(&[fixtures(), sanma_fixtures()]);
    assert!(said.contains("4-player games only"), "{said}");
    let files = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        names
    };
    let same = |a: &Path, b: &Path| {
        let names = files(a);
        assert_eq!(names, files(b));
        assert!(names.len() > 30, "{names:?}");
        for n in names {
            let (x, y) = (
                std::fs::read(a.join(&n)).unwrap(),
                std::fs::read(b.join(&n)).unwrap(),
            );
            assert!(
                x == y,
                "{} differs from {}",
                b.join(&n).display(),
                a.join(&n).display()
            );
        }
    };
    same(&four.path().join("reports"), &both.path().join("reports"));
    assert!(!four.path().join("reports/sanma").exists());
    same(
        &three.path().join("reports/sanma"),
        &both.path().join("reports/sanma"),
    );
    // A corpus of three-player games alone: its default table is three-player.
    same(
        &three.path().join("reports/sanma"),
        &three.path().join("reports"),
    );
    // `--players` on the mixed frames equals each table alone.
    let summary = |dir: &Path, extra: &[&str]| stats_json(dir, "summary", extra);
    assert_eq!(
        summary(both.path(), &["--players", "3"]),
        summary(three.path(), &[])
    );
    assert_eq!(
        summary(both.path(), &["--players", "4"]),
        summary(four.path(), &[])
    );
    let o = haifu(&[
        "stats",
        "summary",
        "--frames",
        four.path().to_str().unwrap(),
        "--players",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("holds no 3-player game"), "{err}");
}

/// Three-player logs broken to break one rule each are refused with a reason naming it; the
/// batch goes on (the good file lands) and the manifest accounts for every file: a payment
/// without tsumo loss, a 2m–8m tile, a fourth seat dealt tiles, a fourth seat's draw, a chi,
/// a kita of a tile that is not a North.
#[test]
fn broken_three_player_logs_are_refused_by_name() {
    let good = std::fs::read_to_string(sanma_fixtures().join(format!("{F011}.xml"))).unwrap();
    let mutate = |from: &str, to: &str| {
        assert!(good.contains(from), "f011 no longer contains {from:?}");
        good.replacen(from, to, 1)
    };
    // Chi 2p3p4p on seat 0's 2p (44): base 8 (pinzu, 2), called first, copies 0 3 1, from
    // seat 0 to seat 1 (relative 3).
    let chi = ((8 * 3) << 10) | (3 << 5) | (1 << 7) | 0x4 | 3;
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "tsumo-loss",
            mutate("sc=\"350,-40,340,70,350,-20,0,0\"", "sc=\"350,-30,340,70,350,-30,0,0\""),
            "replay: hand 0: score-mismatch: AGARI sc gives seat 0 -3000, the payments under three-player rules (tsumo loss, honba 100 a payer) give -4000 (all: [-3000, 7000, -3000] against [-4000, 7000, -2000])",
        ),
        (
            "manzu",
            mutate("hai0=\"91,123,", "hai0=\"4,123,"),
            "replay: hand 0: three-player: 2m (id 4) is not a tile of a three-player game",
        ),
        (
            "fourth-seat",
            mutate("hai3=\"\"/><T44/>", "hai3=\"5\"/><T44/>"),
            "replay: hand 0: three-player: the INIT deals tiles to the fourth seat of a three-player game",
        ),
        (
            "fourth-draw",
            mutate("<F71/><T74/>", "<F71/><W74/>"),
            "replay: hand 0: three-player: seat 3 acts in a three-player game",
        ),
        (
            "chi",
            mutate("<D44/><U99/>", &format!("<D44/><N who=\"1\" m=\"{chi}\" /><U99/>")),
            "replay: hand 0: three-player: seat 1 calls chi in a three-player game",
        ),
        (
            "not-north",
            mutate("<U122/><N who=\"1\" m=\"31264\" />", "<U122/><N who=\"1\" m=\"23840\" />"),
            "replay: hand 0: bad-kita: seat 1's kita of 6s (id 93) is not a North",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, text, _) in &cases {
        std::fs::write(dir.path().join(format!("{name}.xml")), text).unwrap();
    }
    std::fs::write(dir.path().join(format!("{F011}.xml")), &good).unwrap();
    let out = ingest_cli_exit(&[dir.path().to_path_buf()], &[], 2);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("manifest.json")).unwrap())
            .unwrap();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), cases.len() + 1);
    for (name, _, reason) in &cases {
        let f = files
            .iter()
            .find(|f| {
                f["path"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("/{name}.xml"))
            })
            .unwrap();
        assert_eq!(f["status"], "failed", "{name}");
        assert_eq!(f["reason"].as_str().unwrap(), *reason, "{name}");
    }
    assert_eq!(manifest["totals"]["ok"], 1);
}

/// §17–§20 on three players (§24, `--with tables`), worked by hand from the logs
/// (EXPECTED_V5.md gives each draw record). live_left = 55 − the hand's draw records so far,
/// a kita's replacement draw among them; turns_left = floor(live_left / 3).
///
/// f011 hand 2 (dealer 2): `V125 F125` seat 2's first discard after 1 draw: 54, 18 (the
/// dealer's first discard, §24). `T40 D40` seat 0: 53, 17. `U121 N U79 E79` seat 1 draws,
/// makes a kita and draws its replacement: its first discard (turn 1: a kita is no discard)
/// after 4 draw records, 51, 17. `V67 REACH F67` seat 2's declaration: 50, 16, in riichi (an
/// §18 unit, not a §17 one). `T32 D32` seat 0: 49, 16; seats 1 and 2 ron it (double ron).
/// won: seats 1 and 2; won_within_2: each of their units (ron having drawn at most once
/// since: seat 1 none since E79, seat 2 once since F125 and none since F67).
/// f011 hand 1: `U97 E97 V135 F135 T120 N T35 D35`: seat 0's first discard after its kita's
/// replacement draw, the 4th draw record: 51, 17.
///
/// §19: both games are hanchan (GO 185) with owari. f011 ends seat 2 (58.6k), seat 1 (47.4k),
/// seat 0 (−1.0k): the seat list (2, 1, 0), order 5 of §24's six; f012 ends seat 1 (82.8k),
/// seat 2 (30.9k), seat 0 (−8.7k): (1, 2, 0), order 3. Each hand's start scores are its INIT
/// `ten` (s3 and rank_3 0).
#[test]
fn tables_units_count_kita_draws_and_number_six_orders() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=tables"]);
    let d = frame(out.path(), "discard_units");
    let cols = [
        "game_id",
        "hand",
        "seat",
        "live_left",
        "turns_left",
        "turn",
        "in_riichi",
        "dealer",
        "won",
        "won_within_2",
    ];
    let all = rows(&d, &cols);
    let of = |hand: &str| -> Vec<String> {
        all.iter()
            .filter(|r| r.starts_with(&format!("{F011}|{hand}|")))
            .map(|r| r[F011.len() + 1..].to_string())
            .collect()
    };
    assert_eq!(
        of("2"),
        [
            "2|2|54|18|1|false|true|true|true",
            "2|0|53|17|1|false|false|false|false",
            "2|1|51|17|1|false|false|true|true",
            "2|2|50|16|2|true|true|true|true",
            "2|0|49|16|2|false|false|false|false",
        ]
    );
    assert!(
        of("1").iter().any(|r| r.starts_with("1|0|51|17|1|")),
        "{:?}",
        of("1")
    );
    // Every discard of both games is a unit, at most 18 turns left.
    assert_eq!(ints(&d, "turns_left").into_iter().max(), Some(18));
    let p = frame(out.path(), "placement_units");
    assert_eq!(
        rows(
            &p,
            &[
                "game_id", "hand", "kyoku", "honba", "kyotaku", "s0", "s1", "s2", "s3", "order",
                "rank_0", "rank_1", "rank_2", "rank_3"
            ]
        ),
        [
            format!("{F011}|0|0|0|0|35000|35000|35000|0|5|3|2|1|0"),
            format!("{F011}|1|1|0|0|31000|41000|33000|0|5|3|2|1|0"),
            format!("{F011}|2|2|0|0|31000|38400|35600|0|5|3|2|1|0"),
            format!("{F012}|0|0|0|0|35000|35000|35000|0|3|3|1|2|0"),
            format!("{F012}|1|1|1|1|34000|36000|34000|0|3|3|1|2|0"),
            format!("{F012}|2|1|2|1|32000|37000|35000|0|3|3|1|2|0"),
            format!("{F012}|3|1|3|0|27900|46200|30900|0|3|3|1|2|0"),
        ]
    );
    // §20: one row per AGARI record (6 wins: f011's tsumo, ron on a kita, double ron;
    // f012's tsumo and ron).
    assert_eq!(frame(out.path(), "win_kinds").height(), 6);
}

/// §19's report over three seats: no fourth seat, and the fourth seat's 0 is no score above
/// or below anyone. Kyoku 0 of both games starts 35,000 each: seat 0 is first by the tie
/// rule (gap_above null, gap_below 0 → `(-4000,4000)`), seat 1 second (both gaps 0), seat 2
/// third (gap_below null). Final places: seat 0 third in both; seat 1 second (f011) and first
/// (f012); seat 2 first and second.
#[test]
fn final_placement_has_three_seats() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=tables"]);
    let rows = stats_json(out.path(), "final-placement", &[]);
    assert!(rows
        .iter()
        .all(|r| r["seat"].as_i64().unwrap() < 3 && r["place_4"] == 0));
    let kyoku0: Vec<String> = rows
        .iter()
        .filter(|r| r["kyoku"] == 0)
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {} {}",
                r["seat"],
                r["start_place"],
                r["gap_above"],
                r["gap_below"],
                r["units"],
                r["place_1"],
                r["place_2"],
                r["place_3"]
            )
        })
        .collect();
    assert_eq!(
        kyoku0,
        [
            "0 1 null \"(-4000,4000)\" 2 0 0 2",
            "1 2 \"(-4000,4000)\" \"(-4000,4000)\" 2 1 1 0",
            "2 3 \"(-4000,4000)\" null 2 1 1 0",
        ]
    );
}

/// The engines' files are four-player tables (§22, §24): `params validate --table` refuses
/// akochan's and mjai-manue's for three-player games, saying so (the files need not exist:
/// the refusal comes first); haifu's own tables score them.
#[test]
fn engine_files_are_refused_for_three_players() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=tables"]);
    let frames = out.path().to_str().unwrap();
    for (table, option) in [
        ("tenpai-rate", "--akochan"),
        ("tenpai-rate", "--manue"),
        ("placement", "--akochan"),
    ] {
        let o = haifu(&[
            "params",
            "validate",
            "--table",
            table,
            "--frames",
            frames,
            option,
            "/nonexistent",
        ]);
        assert_eq!(o.status.code(), Some(1), "{table} {option}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains("four-player tables") && e.contains("three-player games"),
            "{e}"
        );
    }
    let o = ok(&haifu(&[
        "params",
        "validate",
        "--table",
        "placement",
        "--frames",
        frames,
    ]));
    assert!(
        o.contains("on the 6 final orders") && o.contains("9 seat-place cells"),
        "{o}"
    );
}

/// The 278 three-player Phoenix games (skips loudly when absent), `--with tables`: every
/// §19 unit's order is §24's number of the seats sorted by final score (ties to the lower
/// seat), with rank_s the seat's place; turns_left runs 18..0 and is floor(live_left / 3);
/// haifu's softmax over the 6 orders beats the uniform 1/6 (log-loss ln 6) on the held-out fold.
#[test]
fn sanma_corpus_tables() {
    let Some(dir) = common::corpus("sanma") else {
        return;
    };
    let out = ingest_cli(&[dir], &["--with=tables"]);
    let games = frame(out.path(), "games");
    let gid = strs(&games, "game_id");
    let scores: Vec<Vec<i64>> = (0..3)
        .map(|s| ints(&games, &format!("score_{s}")))
        .collect();
    let index: std::collections::HashMap<&str, usize> = gid
        .iter()
        .enumerate()
        .map(|(i, g)| (g.as_str(), i))
        .collect();
    const ORDERS: [[u8; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let p = frame(out.path(), "placement_units");
    let (pid, order) = (strs(&p, "game_id"), ints(&p, "order"));
    let ranks: Vec<Vec<i64>> = (0..4).map(|s| ints(&p, &format!("rank_{s}"))).collect();
    for i in 0..p.height() {
        let g = index[pid[i].as_str()];
        let mut seats = [0u8, 1, 2];
        seats.sort_by_key(|&s| (-scores[s as usize][g], s));
        assert_eq!(ORDERS[order[i] as usize], seats, "{}", pid[i]);
        for (place, &s) in seats.iter().enumerate() {
            assert_eq!(ranks[s as usize][i], place as i64 + 1, "{}", pid[i]);
        }
        assert_eq!(ranks[3][i], 0);
    }
    assert!(p.height() > 2000, "{} §19 units", p.height());
    let d = frame(out.path(), "discard_units");
    let (tl, ll) = (ints(&d, "turns_left"), ints(&d, "live_left"));
    assert!(tl.iter().zip(&ll).all(|(t, l)| *t == l / 3));
    assert_eq!((tl.iter().min(), tl.iter().max()), (Some(&0), Some(&18)));
    let o = haifu(&[
        "params",
        "validate",
        "--table",
        "placement",
        "--frames",
        out.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    let loss = |model: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|r| r["part"] == "orders" && r["section"] == "models" && r["model"] == model)
            .unwrap()["log_loss"]
            .as_f64()
            .unwrap()
    };
    assert!((loss("uniform") - 6f64.ln()).abs() < 1e-9);
    assert!(
        loss("softmax") < loss("uniform") - 0.1,
        "{}",
        loss("softmax")
    );
    eprintln!(
        "§19 on the sanma corpus: {} units, softmax log-loss {:.5}",
        p.height(),
        loss("softmax")
    );
}

/// §7 on three players (`--with decisions`): each decision row carries every seat's kitas
/// (f011, EXPECTED_V5.md): none in hand 0 before seat 1's kita (its win follows at once);
/// in hand 1 seat 0's kita on its first draw (`T120 N T35 D35`) shows from its own discard
/// on ("1000"); in hand 2 seat 1's (`U121 N U79 E79`) likewise ("0100"). `haifu agree`'s
/// request says `players` 3, the kitas and the three-player rules, and the example engine
/// (max-ukeire from the request alone, kita Norths visible) equals the built-in.
#[test]
fn decisions_carry_kitas_and_agree_plays_three_players() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=decisions"]);
    let d = frame(out.path(), "decisions");
    let got: Vec<String> = rows(&d, &["game_id", "hand", "seat", "turn", "kitas"])
        .into_iter()
        .filter(|r| r.starts_with(F011))
        .map(|r| r[F011.len() + 1..].to_string())
        .collect();
    assert_eq!(
        got,
        [
            "0|0|1|0000",
            "0|1|1|0000",
            "0|2|1|0000",
            "0|0|2|0000",
            "0|1|2|0000",
            "0|2|2|0000",
            "0|0|3|0000",
            "1|1|1|0000",
            "1|2|1|0000",
            "1|0|1|1000",
            "1|1|2|1000",
            "1|2|2|1000",
            "1|0|2|1000",
            "2|2|1|0000",
            "2|0|1|0000",
            "2|1|1|0100",
            "2|2|2|0100",
            "2|0|2|0100",
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    let requests = dir.path().join("requests.jsonl");
    let engine = common::example("max_ukeire_engine");
    let cmd = format!("ex=tee {} | {}", requests.display(), engine.display());
    let frames = out.path().to_str().unwrap();
    let o = ok(&haifu(&[
        "agree",
        "--frames",
        frames,
        "--engine",
        "max-ukeire",
        "--engine-cmd",
        &cmd,
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    let agreement = |engine: &str| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["engine"] == engine)
            .map(|r| {
                format!(
                    "{} {} {} {}",
                    r["section"], r["value"], r["decisions"], r["agreement"]
                )
            })
            .collect()
    };
    assert_eq!(agreement("ex"), agreement("max-ukeire"));
    let text = std::fs::read_to_string(&requests).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        (first["players"].clone(), first["rules"]["players"].clone()),
        (3.into(), 3.into())
    );
    let later: serde_json::Value = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["game_id"] == F011 && r["hand"] == 2 && r["seat"] == 0 && r["turn"] == 2)
        .expect("f011 hand 2, seat 0's second discard");
    assert_eq!(later["kitas"], serde_json::json!([0, 1, 0, 0]));
}

/// `haifu compare` of three-player games (§24): two slices of the fixtures compare their
/// summary per player-hand over three seats (f011: 3 hands, n = 3 × 3 = 9 seat-hands and 4
/// wins: the tsumo, the ron on the kita, the double ron's two; f012: 4 hands, 12 seat-hands,
/// 2 wins); a three-player corpus against a four-player one compares the summary, refuses a
/// named report whose units differ (placement: places 1..3 against 1..4) and leaves such
/// reports out, with a note, when none is named.
#[test]
fn compare_three_players_and_refuse_across_tables() {
    let sanma = ingest_cli(&[sanma_fixtures()], &[]);
    let four = ingest_cli(&[fixtures()], &[]);
    let s = sanma.path().to_str().unwrap();
    let o = ok(&haifu(&[
        "compare",
        "--frames",
        s,
        "--where-a",
        &format!("game_id = '{F011}'"),
        "--where-b",
        &format!("game_id = '{F012}'"),
        "summary",
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    let win = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == "all" && r["measure"] == "win_rate")
        .unwrap();
    assert_eq!(
        (win["n_a"].clone(), win["n_b"].clone()),
        (9.into(), 12.into())
    );
    assert!((win["a"].as_f64().unwrap() - 4.0 / 9.0).abs() < 1e-12);
    assert!((win["b"].as_f64().unwrap() - 2.0 / 12.0).abs() < 1e-12);
    let f = four.path().to_str().unwrap();
    let named = haifu(&["compare", "--frames", s, "--frames", f, "placement"]);
    assert_eq!(named.status.code(), Some(1));
    let e = String::from_utf8_lossy(&named.stderr);
    assert!(
        e.contains(
            "report `placement` cannot compare a three-player corpus with a four-player one"
        ),
        "{e}"
    );
    let all = haifu(&["compare", "--frames", s, "--frames", f, "--format", "csv"]);
    let text = ok(&all);
    let e = String::from_utf8_lossy(&all.stderr);
    assert!(
        e.contains("placement, players, winning-tiles, by-turn, wait-danger: left out"),
        "{e}"
    );
    assert!(
        text.contains("summary,") && !text.contains("\nplacement,"),
        "{text}"
    );
}

/// §15 on three players (`--with danger-moments`): the observers are the two other seats,
/// d = 1, 2 (mod 3). f011 (EXPECTED_V5.md): hand 0, seat 1's riichi (wait 5s) is followed by
/// seat 2's draw (d = 1) and seat 0's (d = 2) before seat 1's rinshan tsumo; hand 1, seat 2's
/// riichi on the North (robbed from the dealer's kita) by seat 0 (d = 1, its draw T77) and
/// seat 1 (d = 2, its draw U122, the North it sets aside); hand 2, the dealer's (seat 2) 9m
/// tanki by seat 0's draw of the 9m it deals in (d = 1): one moment, holding that 9m.
#[test]
fn danger_moments_have_two_observers() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=danger-moments"]);
    let m = frame(out.path(), "danger_moments");
    let got: Vec<String> = rows(&m, &["game_id", "hand", "riichi_seat", "observer", "waits"])
        .into_iter()
        .filter(|r| r.starts_with(F011))
        .map(|r| r[F011.len() + 1..].to_string())
        .collect();
    let kind = |k: usize| {
        let mut d = ['0'; 34];
        d[k] = '1';
        d.iter().collect::<String>()
    };
    assert_eq!(
        got,
        [
            format!("0|1|1|{}", kind(22)),
            format!("0|1|2|{}", kind(22)),
            format!("1|2|1|{}", kind(30)),
            format!("1|2|2|{}", kind(30)),
            format!("2|2|1|{}", kind(8)),
        ]
    );
    let nine = rows(&m, &["game_id", "hand", "observer_holds"])
        .into_iter()
        .find(|r| r.starts_with(&format!("{F011}|2|")))
        .unwrap();
    assert_eq!(
        nine.as_bytes()[nine.len() - 34 + 8],
        b'1',
        "seat 0 holds the 9m: {nine}"
    );
    let by_turn = frame(out.path(), "danger_by_turn");
    assert!(ints(&by_turn, "observer").iter().all(|&d| d == 1 || d == 2));
    // A user's table of the 25 three-player categories is scored at the same moments.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table.csv");
    let names = haifu::danger::Category::of(haifu::rules::Players::Three);
    assert_eq!(names.len(), 25);
    let csv: String = names.iter().map(|c| format!("{},1\n", c.name())).collect();
    std::fs::write(&table, format!("category,weight\n{csv}")).unwrap();
    let o = ok(&haifu(&[
        "danger-eval",
        "--by-turn",
        "--table",
        table.to_str().unwrap(),
        "--frames",
        out.path().to_str().unwrap(),
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    let moments = |est: &str| -> Vec<(i64, String, i64)> {
        v.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["estimator"] == est)
            .map(|r| {
                let turn = r["turn"].as_str().unwrap().to_string();
                (
                    r["observer"].as_i64().unwrap(),
                    turn,
                    r["moments"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert!(!moments("table").is_empty());
    assert_eq!(moments("table"), moments("none"));
}

/// §16 on three players (`--with hand-reading`): a moment per draw record of every seat
/// (f011, EXPECTED_V5.md; no chi, pon or daiminkan there): seat 0 draws 3 + 3 + 2 times in
/// the three hands (T44 T74 T40; T120 T35 T77; T40 T32), seat 1 4 + 3 + 2 (U99 U75 U122 and
/// the replacement U90; U97 U83 U122; U121 U79), seat 2 2 + 2 + 2; each moment scored by the
/// four methods, and each kept in `hand_reading_moments` with every seat's kitas.
///
/// The moment of T35 (hand 1, seat 0's replacement draw after its kita of T120), from the log:
/// - seat 0 holds hai0 (67 91 113 78 2 33 55 131 126 109 101 40 118) and 9m (35), the North
///   (120) set aside: 1m 9m 9m 2p 5p 8p 2s 5s 8s 1z 2z 3z 5z 6z; no meld; kitas `1000`;
/// - seat 1 (the dealer) drew 7s (97) and threw it, seat 2 drew Chun (135) and threw it:
///   rivers `|7st|7zt|`; the dora indicator is Chun (133);
/// - the others are seat 1's and seat 2's 13 tiles each (26), one North among them (seat 2's
///   121) and no 2m–8m (none in a three-player game);
/// - seat 0 discarded nothing yet: turn 0; the next moment, seat 1's draw U83 after its one
///   discard (turn 1), sees the kita too.
///
/// Its request carries `"players":3,"kitas":[1,0,0,0]`.
#[test]
fn hand_reading_moments_of_three_seats() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=hand-reading-moments"]);
    let h = frame(out.path(), "hand_reading");
    let per_seat: std::collections::BTreeMap<(String, i64), i64> = {
        let (ids, seats, moments) = (strs(&h, "game_id"), ints(&h, "seat"), ints(&h, "moments"));
        let methods = strs(&h, "method");
        let mut m = std::collections::BTreeMap::new();
        for i in 0..h.height() {
            if methods[i] == "uniform" && ids[i] == F011 {
                *m.entry((ids[i].clone(), seats[i])).or_insert(0) += moments[i];
            }
        }
        m
    };
    let got: Vec<i64> = per_seat.values().copied().collect();
    assert_eq!(got, [8, 9, 6]);
    assert_eq!(h.height() % 4, 0, "four methods a key");

    let m = frame(out.path(), "hand_reading_moments");
    let (ids, hands, seats, turns) = (
        strs(&m, "game_id"),
        ints(&m, "hand"),
        ints(&m, "seat"),
        ints(&m, "turn"),
    );
    let kitas = strs(&m, "kitas");
    let of_f011 = ids.iter().filter(|g| *g == F011).count();
    assert_eq!(of_f011, 8 + 9 + 6, "a view per moment");
    let all: i64 = ints(&h, "moments").iter().sum::<i64>() / 4;
    assert_eq!(m.height() as i64, all);
    let i = (0..m.height())
        .find(|&i| ids[i] == F011 && kitas[i] == "1000")
        .unwrap();
    assert_eq!((hands[i], seats[i], turns[i]), (1, 0, 0));
    let text = |c: &str| strs(&m, c)[i].clone();
    assert_eq!(text("tiles"), "1m9m9m2p5p8p2s5s8s1z2z3z5z6z");
    assert_eq!(text("melds"), "|||");
    assert_eq!(text("rivers"), "|7st|7zt|");
    assert_eq!(text("dora"), "7z");
    let others: Vec<u32> = text("others")
        .bytes()
        .map(|b| u32::from(b - b'0'))
        .collect();
    assert_eq!(others.iter().sum::<u32>(), 26);
    assert_eq!(others[30], 1, "seat 2's North");
    assert!(others[1..8].iter().all(|&c| c == 0));
    assert_eq!(
        (
            hands[i + 1],
            seats[i + 1],
            turns[i + 1],
            kitas[i + 1].as_str()
        ),
        (1, 1, 1, "1000")
    );
    // Before the kita, no seat has one.
    assert_eq!(kitas[i - 1], "0000");

    // The request of that moment.
    let lines = common::moment_requests(out.path());
    assert_eq!(lines.len(), m.height(), "every moment is sent");
    let r: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
    assert_eq!(r["players"], 3);
    assert_eq!(r["kitas"], serde_json::json!([1, 0, 0, 0]));
    assert_eq!(r["tiles"].as_array().unwrap().len(), 14);
    let before: serde_json::Value = serde_json::from_str(&lines[i - 1]).unwrap();
    assert_eq!(before["kitas"], serde_json::json!([0, 0, 0, 0]));
}

/// The moment views of three-player games score every method as the observer does: with
/// --limit, the built-ins scored from `hand_reading_moments` (unseen counts with the kita
/// Norths seen and no 2m–8m, the RMSE over 27 kinds) give the report of the `hand_reading`
/// frame's sums, byte for byte; the example engine, which reads `players` and `kitas` from
/// the request, equals the built-in `combo`.
#[test]
fn three_player_moments_score_as_the_observer() {
    let out = ingest_cli(&[sanma_fixtures()], &["--with=hand-reading-moments"]);
    let dir = out.path().to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["hand-reading", "--frames", dir, "--format", "csv"];
        args.extend(extra);
        ok(&haifu(&args))
    };
    let sums = run(&[]);
    assert!(sums.lines().count() > 10, "{sums}");
    assert_eq!(sums, run(&["--limit", "1000000"]));
    example_engine_equals_combo(out.path());
}

/// Runs the example hand-reading engine over the frames in `dir` and checks its rows equal
/// the built-in `combo`'s (moments exactly, means to 1e-12).
fn example_engine_equals_combo(dir: &Path) {
    let cmd = common::example("hand_reading_engine").display().to_string();
    let o = ok(&haifu(&[
        "hand-reading",
        "--frames",
        dir.to_str().unwrap(),
        "--engine-cmd",
        &format!("mine={cmd}"),
        "--engine-timeout",
        "20",
        "--format",
        "json",
    ]));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&o).unwrap();
    let compared = common::assert_equals_combo(&rows, "mine", "three players");
    assert!(compared > 10, "{compared}");
}

/// The 278 three-player Phoenix games (skips loudly when absent) with every group: §7's
/// built-in engines answer every decision legally and the player agrees with itself; §15 has
/// the two observers only; §16 has a moment per draw record (the manifest's `wall_draws`) and
/// per pon or daiminkan (the `calls` frame), three seats, four methods each, a view of each
/// moment that scores as the observer does, and the example engine equals `combo`.
#[test]
fn sanma_corpus_every_group() {
    let Some(dir) = common::corpus("sanma") else {
        return;
    };
    let out = ingest_cli(&[dir], &["--all"]);
    let frames = out.path().to_str().unwrap();
    let agree: serde_json::Value = serde_json::from_str(&ok(&haifu(&[
        "agree", "--frames", frames, "--format", "json",
    ])))
    .unwrap();
    let rows = agree.as_array().unwrap();
    assert!(
        rows.iter().all(|r| r["invalid"] == 0),
        "an invalid built-in answer"
    );
    let all = |engine: &str| {
        rows.iter()
            .find(|r| r["section"] == "all" && r["engine"] == engine)
            .unwrap()["agreement"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(all("player"), 1.0);
    assert!(all("max-ukeire") > all("min-shanten"));
    let observers = ints(&frame(out.path(), "danger_by_turn"), "observer");
    assert!(observers.iter().all(|&d| d == 1 || d == 2) && observers.contains(&2));
    let h = frame(out.path(), "hand_reading");
    let (method, seat, moments) = (strs(&h, "method"), ints(&h, "seat"), ints(&h, "moments"));
    assert!(seat.iter().all(|&s| s < 3));
    let uniform: i64 = (0..h.height())
        .filter(|&i| method[i] == "uniform")
        .map(|i| moments[i])
        .sum();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("manifest.json")).unwrap())
            .unwrap();
    let draws = manifest["totals"]["wall_draws"].as_i64().unwrap();
    let kinds = strs(&frame(out.path(), "calls"), "kind");
    let taken = kinds
        .iter()
        .filter(|k| *k == "pon" || *k == "daiminkan")
        .count() as i64;
    assert_eq!(uniform, draws + taken);
    assert_eq!(h.height() % 4, 0);
    // Every moment's view is kept, and scores from the views as the observer does.
    assert_eq!(
        frame(out.path(), "hand_reading_moments").height() as i64,
        uniform
    );
    let report = |extra: &[&str]| {
        let mut args = vec!["hand-reading", "--frames", frames, "--format", "csv"];
        args.extend(extra);
        ok(&haifu(&args))
    };
    assert_eq!(report(&[]), report(&["--limit", "100000000"]));
    example_engine_equals_combo(out.path());
}
