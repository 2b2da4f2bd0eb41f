-- haifu compare: §5 summary (queries/summary.sql) as the moments `haifu compare` tests.
-- One row per (room, measure), `all` rooms last. kind `share`: s1 successes of n units
-- (win_rate, deal_in_rate, riichi_rate, call_rate per player-hand: n = players × hands, 4 or
-- 3 from table `params`, §24; draw_rate per hand); kind `mean`: n values with sum s1 and sum of squares s2 (hands_per_game, over the
-- games of the `games` frame). The shares equal summary's columns of the same name.
WITH by_room AS (
  SELECT h.room, COUNT(*) AS hands, SUM(h.wins) AS wins,
         SUM(CASE WHEN h.end = 'ron' OR h.end = 'double_ron' THEN 1 ELSE 0 END) AS deal_ins,
         SUM(h.declarations) AS riichi, SUM(h.callers) AS callers,
         SUM(CASE WHEN h.end = 'tsumo' OR h.end = 'ron' OR h.end = 'double_ron' THEN 0 ELSE 1 END)
           AS draws
  FROM hands h GROUP BY h.room
),
-- Hands per game squared, from `games.hands` (each game's rows of `hands`: a group per game of
-- `hands` would hold an entry per game).
squares AS (
  SELECT room, SUM(CAST(hands AS BIGINT) * CAST(hands AS BIGINT)) AS hands2 FROM games GROUP BY room
),
games_by_room AS (
  SELECT room, COUNT(*) AS games FROM games GROUP BY room
),
joined AS (
  SELECT b.room, g.games, b.hands, b.wins, b.deal_ins, b.riichi, b.callers, b.draws, q.hands2
  FROM by_room b JOIN games_by_room g ON b.room = g.room JOIN squares q ON b.room = q.room
),
rooms AS (
  SELECT room, games, hands, wins, deal_ins, riichi, callers, draws, hands2 FROM joined
  UNION ALL
  SELECT 'all' AS room, SUM(games) AS games, SUM(hands) AS hands, SUM(wins) AS wins,
         SUM(deal_ins) AS deal_ins, SUM(riichi) AS riichi, SUM(callers) AS callers,
         SUM(draws) AS draws, SUM(hands2) AS hands2
  FROM joined
),
m AS (
  SELECT room, 1 AS k, 'win_rate' AS measure, 'share' AS stat, params.players * rooms.hands AS n,
         CAST(wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM rooms CROSS JOIN params
  UNION ALL
  SELECT room, 2 AS k, 'deal_in_rate' AS measure, 'share' AS stat, params.players * rooms.hands AS n,
         CAST(deal_ins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM rooms CROSS JOIN params
  UNION ALL
  SELECT room, 3 AS k, 'riichi_rate' AS measure, 'share' AS stat, params.players * rooms.hands AS n,
         CAST(riichi AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM rooms CROSS JOIN params
  UNION ALL
  SELECT room, 4 AS k, 'call_rate' AS measure, 'share' AS stat, params.players * rooms.hands AS n,
         CAST(callers AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM rooms CROSS JOIN params
  UNION ALL
  SELECT room, 5 AS k, 'draw_rate' AS measure, 'share' AS stat, hands AS n,
         CAST(draws AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM rooms
  UNION ALL
  SELECT room, 6 AS k, 'hands_per_game' AS measure, 'mean' AS stat, games AS n,
         CAST(hands AS DOUBLE) AS s1, CAST(hands2 AS DOUBLE) AS s2 FROM rooms
)
SELECT room, measure, stat, n, s1, s2 FROM m
ORDER BY CASE WHEN room = 'all' THEN 1 ELSE 0 END, room, k
