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
    SUM(hands) AS hands, SUM(draws) AS draws,
    SUM(dealer_hands) AS dealer_hands, SUM(dealer_wins) AS dealer_wins,
    SUM(wins) AS wins, SUM(win_points) AS win_points, SUM(win_points2) AS win_points2,
    SUM(win_turns) AS win_turns, SUM(win_turns2) AS win_turns2,
    SUM(riichi_wins) AS riichi_wins, SUM(riichi_win_points) AS riichi_win_points,
    SUM(riichi_win_points2) AS riichi_win_points2,
    SUM(call_wins) AS call_wins, SUM(call_win_points) AS call_win_points,
    SUM(call_win_points2) AS call_win_points2,
    SUM(deal_ins) AS deal_ins, SUM(deal_in_points) AS deal_in_points,
    SUM(deal_in_points2) AS deal_in_points2,
    SUM(deal_in_turns) AS deal_in_turns, SUM(deal_in_turns2) AS deal_in_turns2,
    SUM(declarations) AS declarations, SUM(declaration_turns) AS declaration_turns,
    SUM(declaration_turns2) AS declaration_turns2,
    SUM(riichi_deal_ins) AS riichi_deal_ins, SUM(chases) AS chases,
    SUM(call_hands) AS call_hands, SUM(call_deal_ins) AS call_deal_ins
  FROM player_seats
),
m AS (
  SELECT 1 AS k, 'place_1' AS measure, 'share' AS stat, placed AS n,
         CAST(p1 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT 2, 'place_2', 'share', placed, CAST(p2 AS DOUBLE), CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 3, 'place_3', 'share', placed, CAST(p3 AS DOUBLE), CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 4, 'place_4', 'share', placed, CAST(p4 AS DOUBLE), CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 5, 'average_place', 'mean', placed, place1, place2 FROM t
  UNION ALL SELECT 6, 'busts', 'share', scored, CAST(busts AS DOUBLE), CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 7, 'score_per_game', 'mean', scored, score1, score2 FROM t
  UNION ALL SELECT 8, 'win_rate', 'share', hands, CAST(wins AS DOUBLE), CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 9, 'deal_in_rate', 'share', hands, CAST(deal_ins AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 10, 'riichi_rate', 'share', hands, CAST(declarations AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 11, 'call_rate', 'share', hands, CAST(call_hands AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 12, 'draw_rate', 'share', hands, CAST(draws AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 13, 'average_win', 'mean', wins, CAST(win_points AS DOUBLE),
    CAST(win_points2 AS DOUBLE) FROM t
  UNION ALL SELECT 14, 'average_deal_in', 'mean', deal_ins, CAST(deal_in_points AS DOUBLE),
    CAST(deal_in_points2 AS DOUBLE) FROM t
  UNION ALL SELECT 15, 'average_win_riichi', 'mean', riichi_wins,
    CAST(riichi_win_points AS DOUBLE), CAST(riichi_win_points2 AS DOUBLE) FROM t
  UNION ALL SELECT 16, 'average_win_open', 'mean', call_wins, CAST(call_win_points AS DOUBLE),
    CAST(call_win_points2 AS DOUBLE) FROM t
  UNION ALL SELECT 17, 'average_win_dama', 'mean', wins - riichi_wins - call_wins,
    CAST(win_points - riichi_win_points - call_win_points AS DOUBLE),
    CAST(win_points2 - riichi_win_points2 - call_win_points2 AS DOUBLE) FROM t
  UNION ALL SELECT 18, 'average_win_turn', 'mean', wins, CAST(win_turns AS DOUBLE),
    CAST(win_turns2 AS DOUBLE) FROM t
  UNION ALL SELECT 19, 'average_deal_in_turn', 'mean', deal_ins, CAST(deal_in_turns AS DOUBLE),
    CAST(deal_in_turns2 AS DOUBLE) FROM t
  UNION ALL SELECT 20, 'average_riichi_turn', 'mean', declarations,
    CAST(declaration_turns AS DOUBLE), CAST(declaration_turns2 AS DOUBLE) FROM t
  UNION ALL SELECT 21, 'riichi_win_rate', 'share', declarations, CAST(riichi_wins AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 22, 'riichi_deal_in_rate', 'share', declarations,
    CAST(riichi_deal_ins AS DOUBLE), CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 23, 'chasing_rate', 'share', declarations, CAST(chases AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 24, 'call_win_rate', 'share', call_hands, CAST(call_wins AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 25, 'call_deal_in_rate', 'share', call_hands, CAST(call_deal_ins AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
  UNION ALL SELECT 26, 'dealer_win_rate', 'share', dealer_hands, CAST(dealer_wins AS DOUBLE),
    CAST(NULL AS DOUBLE) FROM t
)
SELECT measure, stat, n, s1, s2 FROM m ORDER BY k
