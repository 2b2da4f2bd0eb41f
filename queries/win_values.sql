-- §20 Win values. Table: win_kinds (one row per AGARI record). Rows per (dealer, state, points):
-- count of the wins of that value (points = AGARI ten[1], without honba and sticks); with the
-- (dealer, state) group's wins, the row's share of them, the group's mean points and its share
-- of mangan and above (ten[2] >= 1).
WITH g AS (
  SELECT dealer, state, CAST(COUNT(*) AS BIGINT) AS wins,
    AVG(CAST(points AS DOUBLE)) AS mean_points,
    AVG(CASE WHEN "limit" >= 1 THEN 1.0 ELSE 0.0 END) AS mangan_share
  FROM win_kinds GROUP BY dealer, state
),
v AS (
  SELECT dealer, state, points, CAST(COUNT(*) AS BIGINT) AS count
  FROM win_kinds GROUP BY dealer, state, points
)
SELECT v.dealer, v.state, v.points, v.count, g.wins, CAST(v.count AS DOUBLE) / g.wins AS share,
  g.mean_points, g.mangan_share
FROM v JOIN g ON v.dealer = g.dealer AND v.state = g.state
ORDER BY v.dealer, CASE v.state WHEN 'riichi' THEN 0 WHEN 'dama' THEN 1 ELSE 2 END, v.points
