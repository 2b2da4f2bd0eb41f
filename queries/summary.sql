-- §5 Summary per room and overall. Rates per player-hand (÷ 4 × hands) except draw_rate
-- (÷ hands). deal-in counts hands whose first terminal record is a ron (a double ron is one).
-- Each hand carries its game's room, so this is two grouped scans and no join by game id
-- (whose memory would grow with the games).
WITH h AS (
  SELECT h.room, h.end, h.wins, h.win_value, h.declarations, h.callers FROM hands h
),
per_room AS (
  SELECT room, COUNT(*) AS hands, SUM(wins) AS wins, SUM(win_value) AS win_value,
         SUM(CASE WHEN h.end IN ('ron', 'double_ron') THEN 1 ELSE 0 END) AS deal_ins,
         SUM(declarations) AS riichi, SUM(callers) AS callers,
         SUM(CASE WHEN h.end IN ('tsumo', 'ron', 'double_ron') THEN 0 ELSE 1 END) AS draws
  FROM h GROUP BY room
  UNION ALL
  SELECT 'all' AS room, COUNT(*) AS hands, SUM(wins) AS wins, SUM(win_value) AS win_value,
         SUM(CASE WHEN h.end IN ('ron', 'double_ron') THEN 1 ELSE 0 END) AS deal_ins,
         SUM(declarations) AS riichi, SUM(callers) AS callers,
         SUM(CASE WHEN h.end IN ('tsumo', 'ron', 'double_ron') THEN 0 ELSE 1 END) AS draws
  FROM h
),
games_per_room AS (
  SELECT room, COUNT(*) AS games FROM games GROUP BY room
  UNION ALL
  SELECT 'all' AS room, COUNT(*) AS games FROM games
)
SELECT p.room, g.games, p.hands,
  CAST(p.hands AS DOUBLE) / g.games AS hands_per_game,
  CAST(p.wins AS DOUBLE) / (4.0 * p.hands) AS win_rate,
  CAST(p.deal_ins AS DOUBLE) / (4.0 * p.hands) AS deal_in_rate,
  CAST(p.riichi AS DOUBLE) / (4.0 * p.hands) AS riichi_rate,
  CAST(p.callers AS DOUBLE) / (4.0 * p.hands) AS call_rate,
  CAST(p.draws AS DOUBLE) / p.hands AS draw_rate,
  CAST(p.win_value AS DOUBLE) / p.wins AS average_win_value,
  p.wins, p.deal_ins, p.riichi, p.callers, p.draws
FROM per_room p JOIN games_per_room g ON p.room = g.room
ORDER BY CASE WHEN p.room = 'all' THEN 1 ELSE 0 END, p.room
