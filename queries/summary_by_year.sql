-- §5 Summary by calendar year (docs/definitions.md §9): the rates of `summary`, all rooms together,
-- one row per year of the game's date (the first four digits of its log id, as `games.date`;
-- games without a log id are in the row whose year is null). The year is read from game_id in
-- each frame, so no frame is joined by game.
-- Portable form: a log id `^[0-9]{10}gm-` is told by SUBSTR, = and REPLACE (no regular
-- expression: DuckDB has no REGEXP_LIKE), once per distinct first 13 characters of the log
-- ids (the hands are summed by those first); average_win_value of a
-- year without wins is NaN as polars' 0/0 gives (Spark's ANSI mode fails on a division by 0).
WITH by_prefix AS (
  SELECT SUBSTR(game_id, 1, 13) AS prefix,
         COUNT(*) AS hands, SUM(wins) AS wins, SUM(win_value) AS win_value,
         SUM(CASE WHEN h.end = 'ron' OR h.end = 'double_ron' THEN 1 ELSE 0 END) AS deal_ins,
         SUM(declarations) AS riichi, SUM(callers) AS callers,
         SUM(CASE WHEN h.end = 'tsumo' OR h.end = 'ron' OR h.end = 'double_ron' THEN 0 ELSE 1 END)
           AS draws
  FROM hands h
  GROUP BY SUBSTR(game_id, 1, 13)
),
hy AS (
  SELECT CASE WHEN SUBSTR(prefix, 11, 3) = 'gm-'
             AND REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(SUBSTR(prefix, 1, 10), '0', ''), '1', ''), '2', ''), '3', ''), '4', ''), '5', ''), '6', ''), '7', ''), '8', ''), '9', '') = ''
              THEN SUBSTR(prefix, 1, 4) END AS year,
         hands, wins, win_value, deal_ins, riichi, callers, draws
  FROM by_prefix
),
by_year AS (
  SELECT year, SUM(hands) AS hands, SUM(wins) AS wins, SUM(win_value) AS win_value,
         SUM(deal_ins) AS deal_ins, SUM(riichi) AS riichi, SUM(callers) AS callers,
         SUM(draws) AS draws
  FROM hy
  GROUP BY year
),
games_by_year AS (
  SELECT COALESCE(SUBSTR(date, 1, 4), '') AS year_key, COUNT(*) AS games FROM games
  GROUP BY COALESCE(SUBSTR(date, 1, 4), '')
)
SELECT p.year, g.games, p.hands,
  CAST(p.hands AS DOUBLE) / g.games AS hands_per_game,
  CAST(p.wins AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) AS win_rate,
  CAST(p.deal_ins AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) AS deal_in_rate,
  CAST(p.riichi AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) AS riichi_rate,
  CAST(p.callers AS DOUBLE) / (CAST(params.players AS DOUBLE) * p.hands) AS call_rate,
  CAST(p.draws AS DOUBLE) / p.hands AS draw_rate,
  CASE WHEN p.wins = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(p.win_value AS DOUBLE) / p.wins END AS average_win_value,
  p.wins, p.deal_ins, p.riichi, p.callers, p.draws
FROM by_year p LEFT JOIN games_by_year g ON COALESCE(p.year, '') = g.year_key CROSS JOIN params
ORDER BY p.year NULLS LAST
