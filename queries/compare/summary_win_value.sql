-- haifu compare: §5 summary's average_win_value (AGARI `ten`'s points, without honba and
-- kyotaku) as a mean over the wins of the `wins` frame (written with --with development), for its sum of
-- squares: one row per room and `all`, as queries/compare/summary.sql.
WITH w AS (
  SELECT h.room, CAST(w.points AS DOUBLE) AS v
  FROM wins w JOIN hands h ON w.game_id = h.game_id AND w.hand = h.hand
),
by_room AS (
  SELECT room, COUNT(*) AS n, SUM(v) AS s1, SUM(v * v) AS s2 FROM w GROUP BY room
),
rooms AS (
  SELECT room, n, s1, s2 FROM by_room
  UNION ALL
  SELECT 'all' AS room, SUM(n) AS n, SUM(s1) AS s1, SUM(s2) AS s2 FROM by_room
)
SELECT room, 'average_win_value' AS measure, 'mean' AS stat, n, s1, s2 FROM rooms
ORDER BY CASE WHEN room = 'all' THEN 1 ELSE 0 END, room
