-- §20 Win values. Table: win_kinds (one row per AGARI record). Rows per (dealer, state, points):
-- count of the wins of that value (points = AGARI ten[1], without honba and sticks); with the
-- (dealer, state) group's wins, the row's share of them, the group's mean points and its share
-- of mangan and above (ten[2] >= 1).
-- Portable form (polars, DuckDB, Spark SQL): the column `limit` as w.limit, not "limit"; AVG over CAST(1 AS DOUBLE), not 1.0
-- (Spark: DECIMAL, rounded to 5 digits).
WITH wv_groups AS (
  SELECT dealer, state, CAST(COUNT(*) AS BIGINT) AS wins,
    AVG(CAST(points AS DOUBLE)) AS mean_points,
    AVG(CASE WHEN w.limit >= 1 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS mangan_share
  FROM win_kinds w GROUP BY dealer, state
),
wv_values AS (
  SELECT dealer, state, points, CAST(COUNT(*) AS BIGINT) AS count
  FROM win_kinds GROUP BY dealer, state, points
)
SELECT wv_values.dealer, wv_values.state, wv_values.points, wv_values.count, wv_groups.wins, CAST(wv_values.count AS DOUBLE) / wv_groups.wins AS share,
  wv_groups.mean_points, wv_groups.mangan_share
FROM wv_values JOIN wv_groups ON wv_values.dealer = wv_groups.dealer AND wv_values.state = wv_groups.state
ORDER BY wv_values.dealer, CASE wv_values.state WHEN 'riichi' THEN 0 WHEN 'dama' THEN 1 ELSE 2 END, wv_values.points
