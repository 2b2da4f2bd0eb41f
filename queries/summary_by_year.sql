-- §5 Summary by calendar year (docs/definitions.md §9): the rates of `summary`, all rooms together,
-- one row per year of the game's date (the first four digits of its log id, as `games.date`;
-- games without a log id are in the row whose year is null). The year is read from game_id in
-- each frame, so no frame is joined by game.
WITH by_year AS (
  SELECT CASE WHEN REGEXP_LIKE(h.game_id, '^[0-9]{10}gm-') THEN SUBSTR(h.game_id, 1, 4) END AS year,
         COUNT(*) AS hands, SUM(h.wins) AS wins, SUM(h.win_value) AS win_value,
         SUM(CASE WHEN h.end = 'ron' OR h.end = 'double_ron' THEN 1 ELSE 0 END) AS deal_ins,
         SUM(h.declarations) AS riichi, SUM(h.callers) AS callers,
         SUM(CASE WHEN h.end = 'tsumo' OR h.end = 'ron' OR h.end = 'double_ron' THEN 0 ELSE 1 END)
           AS draws
  FROM hands h
  GROUP BY CASE WHEN REGEXP_LIKE(h.game_id, '^[0-9]{10}gm-') THEN SUBSTR(h.game_id, 1, 4) END
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
  CAST(p.win_value AS DOUBLE) / p.wins AS average_win_value,
  p.wins, p.deal_ins, p.riichi, p.callers, p.draws
FROM by_year p LEFT JOIN games_by_year g ON COALESCE(p.year, '') = g.year_key CROSS JOIN params
ORDER BY p.year NULLS LAST
