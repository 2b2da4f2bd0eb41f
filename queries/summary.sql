-- §5 Summary per room and overall. Rates per player-hand (÷ players × hands: 4, or 3 in a
-- three-player table's reports, §24) except draw_rate
-- (÷ hands). deal-in counts hands whose first terminal record is a ron (a double ron is one).
-- Each hand carries its game's room, so this is one grouped scan of each frame, with no join
-- by game id; the `all` rows add up the per-room rows (a frame scanned twice would be held
-- in memory whole, and a join's memory grows with the games). `x IN (...)` inside an aggregate
-- makes polars' streaming engine hold the whole column, so the end types are compared one by one.
-- A slice that selects no games gives one `all` row with zero counts (and null rates).
-- Portable form (polars, DuckDB, Spark SQL): a rate over 0 hands or games, and average_win_value over 0 wins, are NaN by CASE,
-- as polars' 0/0 gives (Spark's ANSI mode fails on a division by 0).
WITH by_room AS (
  SELECT h.room, COUNT(*) AS hands, SUM(h.wins) AS wins, SUM(h.win_value) AS win_value,
         SUM(CASE WHEN h.end = 'ron' OR h.end = 'double_ron' THEN 1 ELSE 0 END) AS deal_ins,
         SUM(h.declarations) AS riichi, SUM(h.callers) AS callers,
         SUM(CASE WHEN h.end = 'tsumo' OR h.end = 'ron' OR h.end = 'double_ron' THEN 0 ELSE 1 END)
           AS draws
  FROM hands h GROUP BY h.room
),
per_room AS (
  SELECT room, hands, wins, win_value, deal_ins, riichi, callers, draws FROM by_room
  UNION ALL
  SELECT 'all' AS room, COALESCE(SUM(hands), 0) AS hands, COALESCE(SUM(wins), 0) AS wins,
         COALESCE(SUM(win_value), 0) AS win_value, COALESCE(SUM(deal_ins), 0) AS deal_ins,
         COALESCE(SUM(riichi), 0) AS riichi, COALESCE(SUM(callers), 0) AS callers,
         COALESCE(SUM(draws), 0) AS draws
  FROM by_room
),
games_by_room AS (
  SELECT room, COUNT(*) AS games FROM games GROUP BY room
),
games_per_room AS (
  SELECT room, games FROM games_by_room
  UNION ALL
  SELECT 'all' AS room, COALESCE(SUM(games), 0) AS games FROM games_by_room
)
SELECT p.room, g.games, p.hands,
  CASE WHEN g.games = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.hands AS DOUBLE) / g.games END AS hands_per_game,
  CASE WHEN p.hands = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.wins AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) END AS win_rate,
  CASE WHEN p.hands = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.deal_ins AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) END AS deal_in_rate,
  CASE WHEN p.hands = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.riichi AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) END AS riichi_rate,
  CASE WHEN p.hands = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.callers AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) END AS call_rate,
  CASE WHEN p.hands = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.draws AS DOUBLE) / p.hands END AS draw_rate,
  CASE WHEN p.wins = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.win_value AS DOUBLE) / p.wins END AS average_win_value,
  p.wins, p.deal_ins, p.riichi, p.callers, p.draws
FROM per_room p JOIN games_per_room g ON p.room = g.room CROSS JOIN params
ORDER BY CASE WHEN p.room = 'all' THEN 1 ELSE 0 END, p.room
