-- haifu compare: §5 summary's average_win_value (AGARI `ten`'s points, without honba and
-- kyotaku) as a mean over the wins of the `wins` frame (written with --with development), for its sum of
-- squares: one row per room and `all`, as queries/compare/summary.sql.
-- A hand of one win has its points as `hands.win_value` (the sum of its wins' points, null
-- together with them where a format records none); only hands of several wins (double ron) are
-- joined to `wins`, so the join holds those few hands, not every hand.
WITH one AS (
  SELECT room, COUNT(*) AS n, SUM(CAST(win_value AS DOUBLE)) AS s1,
    SUM(CAST(win_value AS DOUBLE) * CAST(win_value AS DOUBLE)) AS s2
  FROM hands WHERE wins = 1 GROUP BY room
),
several AS (
  SELECT h.room, COUNT(*) AS n, SUM(CAST(w.points AS DOUBLE)) AS s1,
    SUM(CAST(w.points AS DOUBLE) * CAST(w.points AS DOUBLE)) AS s2
  FROM wins w JOIN (SELECT game_id, hand, room FROM hands WHERE wins > 1) h
    ON w.game_id = h.game_id AND w.hand = h.hand
  GROUP BY h.room
),
-- Sums of integers below 2^53, so exact in any order.
by_room AS (
  SELECT room, SUM(n) AS n, SUM(s1) AS s1, SUM(s2) AS s2
  FROM (SELECT room, n, s1, s2 FROM one UNION ALL SELECT room, n, s1, s2 FROM several) x
  GROUP BY room
),
rooms AS (
  SELECT room, n, s1, s2 FROM by_room
  UNION ALL
  SELECT 'all' AS room, SUM(n) AS n, SUM(s1) AS s1, SUM(s2) AS s2 FROM by_room
)
SELECT room, 'average_win_value' AS measure, 'mean' AS stat, n, s1, s2 FROM rooms
ORDER BY CASE WHEN room = 'all' THEN 1 ELSE 0 END, room
