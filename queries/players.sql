-- haifu: stable dan interval
-- §21 Player profiles: one row per player name (the name of the seat in `games`), summed over
-- every seat the name held, in the games of one table (§24: a name's three- and four-player
-- games are separate profiles; a three-player table's stable dan is null, having no 4th
-- place). Counts come from the `seats` frame (one row per game and seat); place and score
-- are, for a game without `owari`, those the replay ends with (the sticks left to the first). A rate or mean whose denominator is 0
-- is null. `dan_1` … `dan_4` are the name's places in hanchan games: haifu replaces them with
-- the stable dan's 95% bootstrap interval (`stable_dan_lo`, `stable_dan_hi`;
-- src/report/players.rs), which SQL cannot draw, in any query whose first line is
-- `-- haifu: stable dan interval` (a copy of this one run with `haifu query` too).
WITH named AS (
  SELECT
    CASE s.seat WHEN 0 THEN g.name_0 WHEN 1 THEN g.name_1 WHEN 2 THEN g.name_2 ELSE g.name_3 END
      AS name,
    g.hanchan, s.*
  FROM seats s JOIN games g ON s.game_id = g.game_id
),
totals AS (
  SELECT name,
    COUNT(*) AS games,
    SUM(CAST(hands AS BIGINT)) AS hands,
    SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS place_1,
    SUM(CASE WHEN place = 2 THEN 1 ELSE 0 END) AS place_2,
    SUM(CASE WHEN place = 3 THEN 1 ELSE 0 END) AS place_3,
    SUM(CASE WHEN place = 4 THEN 1 ELSE 0 END) AS place_4,
    AVG(CAST(place AS DOUBLE)) AS average_place,
    SUM(CASE WHEN hanchan AND place = 1 THEN 1 ELSE 0 END) AS dan_1,
    SUM(CASE WHEN hanchan AND place = 2 THEN 1 ELSE 0 END) AS dan_2,
    SUM(CASE WHEN hanchan AND place = 3 THEN 1 ELSE 0 END) AS dan_3,
    SUM(CASE WHEN hanchan AND place = 4 THEN 1 ELSE 0 END) AS dan_4,
    SUM(CASE WHEN score < 0 THEN 1 ELSE 0 END) AS busts,
    COUNT(score) AS scored, SUM(CAST(score AS BIGINT)) AS scores,
    SUM(CAST(draws AS BIGINT)) AS draws, SUM(CAST(dealer_hands AS BIGINT)) AS dealer_hands, SUM(CAST(dealer_wins AS BIGINT)) AS dealer_wins,
    SUM(CAST(wins AS BIGINT)) AS wins, SUM(CAST(win_points AS BIGINT)) AS win_points, SUM(CAST(win_turns AS BIGINT)) AS win_turns,
    SUM(CAST(riichi_wins AS BIGINT)) AS riichi_wins, SUM(CAST(riichi_win_points AS BIGINT)) AS riichi_win_points,
    SUM(CAST(call_wins AS BIGINT)) AS call_wins, SUM(CAST(call_win_points AS BIGINT)) AS call_win_points,
    SUM(CAST(deal_ins AS BIGINT)) AS deal_ins, SUM(CAST(deal_in_points AS BIGINT)) AS deal_in_points,
    SUM(CAST(deal_in_turns AS BIGINT)) AS deal_in_turns,
    SUM(CAST(declarations AS BIGINT)) AS declarations, SUM(CAST(declaration_turns AS BIGINT)) AS declaration_turns,
    SUM(CAST(riichi_deal_ins AS BIGINT)) AS riichi_deal_ins, SUM(CAST(chases AS BIGINT)) AS chases,
    SUM(CAST(call_hands AS BIGINT)) AS call_hands, SUM(CAST(call_deal_ins AS BIGINT)) AS call_deal_ins
  FROM named GROUP BY name
),
-- The final score above the start: 25,000, or 35,000 in a three-player table (§24); taken
-- from the sums (exact integers), so that the seats are not joined to `params` one by one.
gains AS (
  SELECT t.*, t.scores - CAST(t.scored AS BIGINT) * CASE WHEN params.players = 3 THEN 35000 ELSE 25000 END AS gain
  FROM totals t CROSS JOIN params
)
SELECT name, games, hands, place_1, place_2, place_3, place_4, average_place,
  CASE WHEN dan_4 > 0 THEN CAST(6 * dan_1 + 3 * dan_2 AS DOUBLE) / dan_4 - 2.0 END AS stable_dan,
  dan_1, dan_2, dan_3, dan_4,
  busts, CASE WHEN scored > 0 THEN gain END AS score,
  CAST(gain AS DOUBLE) / NULLIF(scored, 0) AS score_per_game,
  CAST(wins AS DOUBLE) / NULLIF(hands, 0) AS win_rate,
  CAST(deal_ins AS DOUBLE) / NULLIF(hands, 0) AS deal_in_rate,
  CAST(declarations AS DOUBLE) / NULLIF(hands, 0) AS riichi_rate,
  CAST(call_hands AS DOUBLE) / NULLIF(hands, 0) AS call_rate,
  CAST(draws AS DOUBLE) / NULLIF(hands, 0) AS draw_rate,
  CAST(win_points AS DOUBLE) / NULLIF(wins, 0) AS average_win,
  CAST(deal_in_points AS DOUBLE) / NULLIF(deal_ins, 0) AS average_deal_in,
  CAST(riichi_win_points AS DOUBLE) / NULLIF(riichi_wins, 0) AS average_win_riichi,
  CAST(call_win_points AS DOUBLE) / NULLIF(call_wins, 0) AS average_win_open,
  -- dama: the wins neither riichi nor open (an open hand cannot riichi)
  CAST(win_points - riichi_win_points - call_win_points AS DOUBLE)
    / NULLIF(wins - riichi_wins - call_wins, 0) AS average_win_dama,
  CAST(win_turns AS DOUBLE) / NULLIF(wins, 0) AS average_win_turn,
  CAST(deal_in_turns AS DOUBLE) / NULLIF(deal_ins, 0) AS average_deal_in_turn,
  CAST(declaration_turns AS DOUBLE) / NULLIF(declarations, 0) AS average_riichi_turn,
  CAST(riichi_wins AS DOUBLE) / NULLIF(declarations, 0) AS riichi_win_rate,
  CAST(riichi_deal_ins AS DOUBLE) / NULLIF(declarations, 0) AS riichi_deal_in_rate,
  CAST(chases AS DOUBLE) / NULLIF(declarations, 0) AS chasing_rate,
  CAST(call_wins AS DOUBLE) / NULLIF(call_hands, 0) AS call_win_rate,
  CAST(call_deal_ins AS DOUBLE) / NULLIF(call_hands, 0) AS call_deal_in_rate,
  dealer_hands, dealer_wins
FROM gains
ORDER BY games DESC, name
