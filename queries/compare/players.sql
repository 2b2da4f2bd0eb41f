-- haifu compare: §21 player profiles (queries/players.sql) as moments, over the seats of table
-- `player_seats` (the `seats` frame with each seat's name and the game's hanchan flag; haifu
-- keeps the seats of the name a side compares: --name-a, --name-b, --rest; all seats without
-- them). One row per measure. kind `share`: s1 successes of n units (places and busts per game
-- with a final score, the per-hand rates per hand, the per-declaration rates per declaration,
-- the per-call rates per hand with a call, the dealer's win rate per dealer hand); kind `mean`:
-- n values with sum s1 and sum of squares s2.
WITH t AS (
  SELECT
    COUNT(place) AS placed,
    SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS p1,
    SUM(CASE WHEN place = 2 THEN 1 ELSE 0 END) AS p2,
    SUM(CASE WHEN place = 3 THEN 1 ELSE 0 END) AS p3,
    SUM(CASE WHEN place = 4 THEN 1 ELSE 0 END) AS p4,
    SUM(CAST(place AS DOUBLE)) AS place1, SUM(CAST(place * place AS DOUBLE)) AS place2,
    COUNT(score) AS scored,
    SUM(CASE WHEN score < 0 THEN 1 ELSE 0 END) AS busts,
    SUM(CAST(score AS DOUBLE) - 25000.0) AS score1,
    SUM((CAST(score AS DOUBLE) - 25000.0) * (CAST(score AS DOUBLE) - 25000.0)) AS score2,
    SUM(CAST(hands AS BIGINT)) AS hands, SUM(CAST(draws AS BIGINT)) AS draws,
    SUM(CAST(dealer_hands AS BIGINT)) AS dealer_hands, SUM(CAST(dealer_wins AS BIGINT)) AS dealer_wins,
    SUM(CAST(wins AS BIGINT)) AS wins, SUM(CAST(win_points AS BIGINT)) AS win_points, SUM(CAST(win_points2 AS BIGINT)) AS win_points2,
    SUM(CAST(win_turns AS BIGINT)) AS win_turns, SUM(CAST(win_turns2 AS BIGINT)) AS win_turns2,
    SUM(CAST(riichi_wins AS BIGINT)) AS riichi_wins, SUM(CAST(riichi_win_points AS BIGINT)) AS riichi_win_points,
    SUM(CAST(riichi_win_points2 AS BIGINT)) AS riichi_win_points2,
    SUM(CAST(call_wins AS BIGINT)) AS call_wins, SUM(CAST(call_win_points AS BIGINT)) AS call_win_points,
    SUM(CAST(call_win_points2 AS BIGINT)) AS call_win_points2,
    SUM(CAST(deal_ins AS BIGINT)) AS deal_ins, SUM(CAST(deal_in_points AS BIGINT)) AS deal_in_points,
    SUM(CAST(deal_in_points2 AS BIGINT)) AS deal_in_points2,
    SUM(CAST(deal_in_turns AS BIGINT)) AS deal_in_turns, SUM(CAST(deal_in_turns2 AS BIGINT)) AS deal_in_turns2,
    SUM(CAST(declarations AS BIGINT)) AS declarations, SUM(CAST(declaration_turns AS BIGINT)) AS declaration_turns,
    SUM(CAST(declaration_turns2 AS BIGINT)) AS declaration_turns2,
    SUM(CAST(riichi_deal_ins AS BIGINT)) AS riichi_deal_ins, SUM(CAST(chases AS BIGINT)) AS chases,
    SUM(CAST(call_hands AS BIGINT)) AS call_hands, SUM(CAST(call_deal_ins AS BIGINT)) AS call_deal_ins
  FROM player_seats
),
m AS (
  SELECT 1 AS k, 'place_1' AS measure, 'share' AS stat, placed AS n,
    CAST(p1 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 2 AS k, 'place_2' AS measure, 'share' AS stat, placed AS n,
    CAST(p2 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 3 AS k, 'place_3' AS measure, 'share' AS stat, placed AS n,
    CAST(p3 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 4 AS k, 'place_4' AS measure, 'share' AS stat, placed AS n,
    CAST(p4 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 5 AS k, 'average_place' AS measure, 'mean' AS stat, placed AS n,
    place1 AS s1, place2 AS s2 FROM t
  UNION ALL SELECT 6 AS k, 'busts' AS measure, 'share' AS stat, scored AS n,
    CAST(busts AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 7 AS k, 'score_per_game' AS measure, 'mean' AS stat, scored AS n,
    score1 AS s1, score2 AS s2 FROM t
  UNION ALL SELECT 8 AS k, 'win_rate' AS measure, 'share' AS stat, hands AS n,
    CAST(wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 9 AS k, 'deal_in_rate' AS measure, 'share' AS stat, hands AS n,
    CAST(deal_ins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 10 AS k, 'riichi_rate' AS measure, 'share' AS stat, hands AS n,
    CAST(declarations AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 11 AS k, 'call_rate' AS measure, 'share' AS stat, hands AS n,
    CAST(call_hands AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 12 AS k, 'draw_rate' AS measure, 'share' AS stat, hands AS n,
    CAST(draws AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 13 AS k, 'average_win' AS measure, 'mean' AS stat, wins AS n,
    CAST(win_points AS DOUBLE) AS s1, CAST(win_points2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 14 AS k, 'average_deal_in' AS measure, 'mean' AS stat, deal_ins AS n,
    CAST(deal_in_points AS DOUBLE) AS s1, CAST(deal_in_points2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 15 AS k, 'average_win_riichi' AS measure, 'mean' AS stat, riichi_wins AS n,
    CAST(riichi_win_points AS DOUBLE) AS s1, CAST(riichi_win_points2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 16 AS k, 'average_win_open' AS measure, 'mean' AS stat, call_wins AS n,
    CAST(call_win_points AS DOUBLE) AS s1, CAST(call_win_points2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 17 AS k, 'average_win_dama' AS measure, 'mean' AS stat, wins - riichi_wins - call_wins AS n,
    CAST(win_points - riichi_win_points - call_win_points AS DOUBLE) AS s1, CAST(win_points2 - riichi_win_points2 - call_win_points2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 18 AS k, 'average_win_turn' AS measure, 'mean' AS stat, wins AS n,
    CAST(win_turns AS DOUBLE) AS s1, CAST(win_turns2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 19 AS k, 'average_deal_in_turn' AS measure, 'mean' AS stat, deal_ins AS n,
    CAST(deal_in_turns AS DOUBLE) AS s1, CAST(deal_in_turns2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 20 AS k, 'average_riichi_turn' AS measure, 'mean' AS stat, declarations AS n,
    CAST(declaration_turns AS DOUBLE) AS s1, CAST(declaration_turns2 AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 21 AS k, 'riichi_win_rate' AS measure, 'share' AS stat, declarations AS n,
    CAST(riichi_wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 22 AS k, 'riichi_deal_in_rate' AS measure, 'share' AS stat, declarations AS n,
    CAST(riichi_deal_ins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 23 AS k, 'chasing_rate' AS measure, 'share' AS stat, declarations AS n,
    CAST(chases AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 24 AS k, 'call_win_rate' AS measure, 'share' AS stat, call_hands AS n,
    CAST(call_wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 25 AS k, 'call_deal_in_rate' AS measure, 'share' AS stat, call_hands AS n,
    CAST(call_deal_ins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 26 AS k, 'dealer_win_rate' AS measure, 'share' AS stat, dealer_hands AS n,
    CAST(dealer_wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
)
SELECT measure, stat, n, s1, s2 FROM m ORDER BY k
