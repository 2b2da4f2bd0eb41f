use super::*;
use crate::replay::legal::Action::*;
use crate::rules::Players;

fn counts(s: &str) -> KindCounts {
    hand::parse(s).unwrap()
}

fn situation(hand: &str, melds: u8, legal: &[Action], offered: Option<usize>) -> Situation {
    Situation {
        concealed: counts(hand),
        melds,
        legal: Actions::of(legal, offered.unwrap_or(0) as u8),
        offered,
        players: Players::Four,
    }
}

fn answers(s: &Situation, taken: Action) -> [Vec<Action>; 4] {
    EveryBuiltin::ALL.map(|b| b.answer(s, taken))
}

/// `23m 9m 1p 456p 3s 789s 11z` (13 tiles, no meld): two sets, the 1z pair, 23m, and three
/// singles: shanten 8 − 2·2 − 1 − 1 = 2. A pon of 1z leaves `23m 9m 1p 456p 3s 789s`, and
/// after the best discard (a single) three sets with the meld and 23m, no pair: 8 − 6 − 1 = 1;
/// a chi of 1m with 2m 3m leaves `9m 1p 456p 3s 789s 11z`, after a single's discard three sets
/// and the pair: 8 − 6 − 1 = 1. Both lower the shanten (2 → 1): min-shanten calls.
#[test]
fn a_call_that_lowers_the_shanten_is_taken() {
    let hand = "23m9m1p456p3s789s11z";
    let pon = situation(hand, 0, &[Pon, Pass], Some(27));
    assert_eq!(hand::shanten(&pon.concealed, 0), 2);
    let [player, always, never, min] = answers(&pon, Pass);
    assert_eq!(
        (player, always, never, min),
        (vec![Pass], vec![Pon], vec![Pass], vec![Pon])
    );
    // 1m from the seat on the left, taken with 2m (type 1) and 3m (type 2).
    let chi = situation(hand, 0, &[Chi(1, 2), Pass], Some(0));
    assert_eq!(EveryBuiltin::MinShanten.answer(&chi, Pass), vec![Chi(1, 2)]);
    assert_eq!(EveryBuiltin::Always.answer(&chi, Pass), vec![Chi(1, 2)]);
    // Both offered at once (a call that does not lower, daiminkan, is left out): the two
    // calls tie at 1.
    let both = Situation {
        legal: Actions::of(&[Pon, Chi(1, 2), Pass], 0),
        offered: Some(27),
        ..pon.clone()
    };
    // (The chi's tiles are judged against the offered kind, here 1z: not a real chi, but the
    // tie rule is what is looked at: the pon lowers, so the pass is out.)
    assert!(EveryBuiltin::MinShanten.answer(&both, Pass).contains(&Pon));
}

/// `123m 456p 789s 11z 55z` (13 tiles) is tenpai on 1z or 5z (shanten 0). A pon of 5z leaves
/// `123m 456p 789s 11z`, and after discarding a 1z a tanki on 1z: still 0. Not lower: the
/// pass.
#[test]
fn a_call_that_does_not_lower_is_passed() {
    let s = situation("123m456p789s11z55z", 0, &[Pon, Pass], Some(31));
    assert_eq!(hand::shanten(&s.concealed, 0), 0);
    assert_eq!(EveryBuiltin::MinShanten.answer(&s, Pon), vec![Pass]);
    assert_eq!(EveryBuiltin::Always.answer(&s, Pon), vec![Pon]);
    assert_eq!(EveryBuiltin::Player.answer(&s, Pon), vec![Pon]);
}

/// After drawing 9m to `123m 456p 789s 11z 55z`: discarding 9m keeps the shanpon (0); any
/// other discard leaves shanten 1 (a 1z: three sets, the 5z pair, 1z and 9m single: 8 − 6 −
/// 1 = 1; 1m: two sets, 23m, 55z as a partial, the 1z pair: 8 − 4 − 2 − 1 = 1). Riichi is
/// legal: min-shanten and always declare, never stays dama with the 9m discard.
#[test]
fn riichi_is_declared_when_legal() {
    let hand = "1239m456p789s11z55z";
    let discards: Vec<Action> = [0u8, 1, 2, 8, 12, 13, 14, 24, 25, 26, 27, 31]
        .map(Discard)
        .to_vec();
    let mut legal = discards.clone();
    legal.push(Riichi);
    let s = situation(hand, 0, &legal, None);
    let [_, always, never, min] = answers(&s, Discard(8));
    assert_eq!((always, min), (vec![Riichi], vec![Riichi]));
    assert_eq!(never, vec![Discard(8)]);
}

/// `123m 456p 789s 11z 555z` is complete: min-shanten and always take the tsumo; never
/// discards, and every discard leaves the hand tenpai (a tanki, a shanpon, a kanchan or
/// penchan with the 1z pair), so its answer is every legal discard.
#[test]
fn a_win_is_taken_and_never_declines_it() {
    let hand = "123m456p789s11z555z";
    let kinds: Vec<u8> = vec![0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 31];
    let mut legal: Vec<Action> = kinds.iter().map(|&k| Discard(k)).collect();
    legal.push(Tsumo);
    let s = situation(hand, 0, &legal, None);
    let [_, always, never, min] = answers(&s, Tsumo);
    assert_eq!((always, min), (vec![Tsumo], vec![Tsumo]));
    assert_eq!(never, kinds.iter().map(|&k| Discard(k)).collect::<Vec<_>>());
}

/// `19m 19p 19s 1234567z` and a drawn 2m: thirteen distinct terminal and honour kinds.
/// Always aborts (kyuushu); min-shanten and never play on and discard the 2m (thirteen
/// orphans tenpai, shanten 0; any other discard leaves 1).
#[test]
fn kyuushu_only_for_always() {
    let hand = "129m19p19s1234567z";
    let mut legal: Vec<Action> = [0u8, 1, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        .map(Discard)
        .to_vec();
    legal.push(Kyuushu);
    let s = situation(hand, 0, &legal, None);
    let [_, always, never, min] = answers(&s, Kyuushu);
    assert_eq!(always, vec![Kyuushu]);
    assert_eq!((never, min), (vec![Discard(1)], vec![Discard(1)]));
}

/// `1111m 456p 789s 11z 55z` after a draw, ankan of 1m legal. The kan leaves `456p 789s 11z
/// 55z` with a meld: three sets and two pairs, 8 − 6 − 1 − 1 = 0; discarding a 1m leaves the
/// same 0, so the kan does not lower and min-shanten discards the 1m (every other discard
/// leaves 1: 4p leaves 111m, 789s, 56p and two pairs, 8 − 4 − 2 − 1 = 1). Always kans.
#[test]
fn a_kan_that_does_not_lower_is_not_made() {
    let hand = "1111m456p789s11z55z";
    let mut legal: Vec<Action> = [0u8, 12, 13, 14, 24, 25, 26, 27, 31].map(Discard).to_vec();
    legal.push(Ankan(0));
    let s = situation(hand, 0, &legal, None);
    let [_, always, never, min] = answers(&s, Discard(0));
    assert_eq!(always, vec![Ankan(0)]);
    assert_eq!((never, min), (vec![Discard(0)], vec![Discard(0)]));
}

#[test]
fn agreement_of_action_sets() {
    let legal = Actions::of(&[Pon, Pass], 0);
    assert_eq!(agreement(&[Pass], &legal, Pass), (AGREEMENT_UNIT, false));
    assert_eq!(
        agreement(&[Pon, Pass], &legal, Pass),
        (AGREEMENT_UNIT / 2, false)
    );
    assert_eq!(agreement(&[Pon], &legal, Pass), (0, false));
    // A repeat counts once.
    assert_eq!(agreement(&[Pon, Pon], &legal, Pon), (AGREEMENT_UNIT, false));
    // An action that is not legal makes the answer invalid, as does an empty one.
    assert_eq!(agreement(&[Ron], &legal, Pass), (0, true));
    assert_eq!(agreement(&[Pass, Ron], &legal, Pass), (0, true));
    assert_eq!(agreement(&[], &legal, Pass), (0, true));
}

#[test]
fn groups_by_turn_and_riichi_opponents() {
    // turn is the seat's discards so far: the groups are by turn + 1.
    assert_eq!(every_groups_of(0, 0), [0, 1, 4]);
    assert_eq!(every_groups_of(5, 1), [0, 1, 5]);
    assert_eq!(every_groups_of(6, 0), [0, 2, 4]);
    assert_eq!(every_groups_of(11, 3), [0, 2, 5]);
    assert_eq!(every_groups_of(12, 0), [0, 3, 4]);
}

#[test]
fn actions_read_back_from_their_text() {
    for a in [
        Tsumo,
        Riichi,
        Kyuushu,
        Ron,
        Pon,
        Daiminkan,
        Pass,
        Discard(0),
        Discard(33),
        Ankan(13),
        Kakan(27),
        Chi(3, 5),
        Chi(3, 34), // 4m with the red 5m
    ] {
        assert_eq!(parse_action(&a.to_string()), Ok(a), "{a}");
    }
    // The pair may come in either order.
    assert_eq!(parse_action("chi:0m4m"), Ok(Chi(3, 34)));
    assert!(parse_action("discard:0x").is_err());
    assert!(parse_action("chii").is_err());
    assert!(parse_action("chi:4m").is_err());
}

/// Two batches added equal both at once. Decision a: a pon decision (turn 2, no riichi) the
/// player passed; engine 0 answers pass (agreement 1), engine 1 {pon, pass} (1/2). Decision
/// b: a ron decision (turn 9, one riichi) the player took; engine 0 answers pass (0), engine
/// 1 ron (1). In pon/all: engine 1 has 1/2; in ron/riichi_opponents 1+: engine 0 has 0.
#[test]
fn totals_add_as_one_batch() {
    let legal_a = Actions::of(&[Pon, Pass], 0);
    let legal_b = Actions::of(&[Ron, Pass], 0);
    let a_answers = [vec![Pass], vec![Pon, Pass]];
    let b_answers = [vec![Pass], vec![Ron]];
    let (ga, gb) = (every_groups_of(1, 0), every_groups_of(8, 1));
    let mut a = EveryTotals::new(2);
    a.add(DecisionKind::Pon, &ga, &legal_a, Pass, &a_answers);
    a.add_unobserved(DecisionKind::Chi);
    let mut b = EveryTotals::new(2);
    b.add(DecisionKind::Ron, &gb, &legal_b, Ron, &b_answers);
    let mut both = EveryTotals::new(2);
    both.add(DecisionKind::Pon, &ga, &legal_a, Pass, &a_answers);
    both.add_unobserved(DecisionKind::Chi);
    both.add(DecisionKind::Ron, &gb, &legal_b, Ron, &b_answers);
    let mut sum = EveryTotals::new(2);
    sum += &a;
    sum += &b;
    assert_eq!(sum, both);
    assert_eq!(sum.decisions(), 2);
    let (pon, ron, chi) = (
        kind_index(DecisionKind::Pon),
        kind_index(DecisionKind::Ron),
        kind_index(DecisionKind::Chi),
    );
    assert_eq!((sum.observed[chi], sum.unobserved[chi]), (0, 1));
    assert_eq!(sum.engines[1][pon][0].units, AGREEMENT_UNIT / 2);
    assert_eq!(sum.engines[0][pon][0].units, AGREEMENT_UNIT);
    assert_eq!(sum.engines[0][ron][5].units, 0);
    assert_eq!(sum.engines[1][ron][5].units, AGREEMENT_UNIT);
    assert_eq!(sum.engines[1][ron][4].decisions, 0);
}

/// Fixture f001 replayed with every built-in and the requests: one item per decision of the
/// replay (as many as the `choices` rows), the player agreeing on every observed one; each
/// request is a JSON object whose legal actions are the decision's, whose rivers' `seq`s are
/// 0, 1, … in some order (every discard of the hand before the decision once), and whose
/// `kind` is the decision's.
#[test]
fn every_decision_of_a_fixture() {
    let log = crate::mjlog::decode(include_bytes!(
        "../../fixtures/2099010100gm-00a9-0000-0000f001.xml"
    ))
    .unwrap();
    let mut obs = EveryObserver::new(EveryOptions {
        builtins: EveryBuiltin::ALL.to_vec(),
        requests: true,
        game_id: "f001".into(),
        hanchan: true,
    });
    crate::replay::replay_game(&log, &mut obs).unwrap();
    let mut choices = crate::stats::choices::ChoiceObserver::default();
    crate::replay::replay_game(&log, &mut choices).unwrap();
    assert_eq!(obs.items.len(), choices.rows.len());
    let mut totals = EveryTotals::new(EveryBuiltin::ALL.len());
    let mut requests = 0;
    for (item, c) in obs.items.iter().zip(&choices.rows) {
        assert_eq!(
            (item.kind, item.taken, item.seat),
            (c.d.kind, c.d.taken, c.d.seat)
        );
        let Some(taken) = item.taken else {
            assert!(item.request.is_none() && item.answers.is_empty());
            totals.add_unobserved(item.kind);
            continue;
        };
        for a in &item.answers {
            assert!(
                !a.is_empty() && a.iter().all(|x| item.legal.contains(*x)),
                "{a:?}"
            );
        }
        let groups = every_groups_of(item.turn, item.riichi_opponents);
        totals.add(item.kind, &groups, &item.legal, taken, &item.answers);
        let text = format!("{{\"id\":0,{}", item.request.as_ref().unwrap());
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["kind"], item.kind.as_str());
        assert_eq!(v["seq"], u64::from(item.seq));
        let legal: Vec<String> = item.legal.actions().iter().map(|a| a.to_string()).collect();
        assert_eq!(v["legal"], serde_json::json!(legal));
        let mut seqs: Vec<u64> = v["rivers"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t["seq"].as_u64().unwrap())
            })
            .collect();
        seqs.sort_unstable();
        assert_eq!(seqs, (0..u64::from(item.seq)).collect::<Vec<_>>());
        // 14 − 3·melds tiles on the seat's own turn, 13 − 3·melds on another's tile.
        assert!(!v["tiles"].as_array().unwrap().len().is_multiple_of(3));
        requests += 1;
    }
    assert!(requests > 50, "{requests}");
    for k in 0..DecisionKind::ALL.len() {
        let t = totals.engines[0][k][0];
        assert_eq!(t.decisions, totals.observed[k]);
        assert_eq!(
            t.units,
            AGREEMENT_UNIT * u128::from(t.decisions),
            "player agrees"
        );
    }
}

/// Three players (§24), after a draw with a North: `123p 456p 789s 55s 11z 4z`. Setting the
/// North aside leaves `123p 456p 789s 55s 11z`, tenpai (5s and 1z), as discarding it does: so
/// min-shanten answers the kita (it keeps the turn); always takes it; never discards the 4z.
/// With two Norths, `123p 456p 789s 55s 44z 1z`, discarding 1z leaves tenpai on 5s and 4z,
/// while a kita leaves `123p 456p 789s 55s 4z 1z`, three sets, a pair and two singles:
/// 1-shanten. Then min-shanten discards 1z.
#[test]
fn kita_when_the_north_is_as_good_to_lose_as_any() {
    // Every held kind of either hand may be discarded, or the North set aside.
    let legal = [
        Kita,
        Discard(9),
        Discard(10),
        Discard(11),
        Discard(12),
        Discard(13),
        Discard(14),
        Discard(22),
        Discard(24),
        Discard(25),
        Discard(26),
        Discard(27),
        Discard(30),
    ];
    let kita = |hand: &str| Situation {
        players: Players::Three,
        ..situation(hand, 0, &legal, None)
    };
    let one = kita("123p456p789s55s11z4z");
    assert_eq!(one.shanten_after(Kita), 0);
    let [_, always, never, min] = answers(&one, Kita);
    assert_eq!(
        (always, never, min),
        (vec![Kita], vec![Discard(30)], vec![Kita])
    );
    let two = kita("123p456p789s55s1z44z");
    assert_eq!(two.shanten_after(Kita), 1);
    assert_eq!(
        EveryBuiltin::MinShanten.answer(&two, Discard(27)),
        vec![Discard(27)]
    );
    // A ron on another seat's kita North is a win: min-shanten and always take it.
    let ron = Situation {
        players: Players::Three,
        ..situation("123p456p789s55s4z", 0, &[Ron, Pass], Some(30))
    };
    let [_, always, never, min] = answers(&ron, Ron);
    assert_eq!((always, never, min), (vec![Ron], vec![Pass], vec![Ron]));
    assert_eq!(parse_action("kita"), Ok(Kita));
}
