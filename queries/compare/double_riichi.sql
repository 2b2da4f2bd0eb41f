-- haifu compare: §13 double riichi (queries/double_riichi.sql) as moments: per shape (good,
-- bad, all), win_rate (wins among declarations) and mean_points (a mean over the wins).
-- Table: riichi (written with --with development).
-- Portable form (polars, DuckDB, Spark SQL): the column `double` as r.double, not "double" (a string literal in Spark).
WITH dr AS (
  SELECT CASE WHEN outs_own >= 6 THEN 'good' ELSE 'bad' END AS shape, won,
    CAST(points AS DOUBLE) AS points
  FROM riichi r WHERE r.double
),
g AS (
  SELECT shape, COUNT(*) AS declarations, SUM(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
    COUNT(points) AS scored, SUM(points) AS p1, SUM(points * points) AS p2
  FROM dr GROUP BY shape
),
shapes AS (
  SELECT 1 AS o, 'good' AS shape UNION ALL SELECT 2 AS o, 'bad' AS shape
),
per AS (
  SELECT r.o, r.shape, COALESCE(g.declarations, 0) AS declarations, COALESCE(g.wins, 0) AS wins,
    COALESCE(g.scored, 0) AS scored, g.p1, g.p2
  FROM shapes r LEFT JOIN g ON r.shape = g.shape
  UNION ALL
  SELECT 3 AS o, 'all' AS shape, COALESCE(SUM(declarations), 0) AS declarations,
    COALESCE(SUM(wins), 0) AS wins, COALESCE(SUM(scored), 0) AS scored, SUM(p1) AS p1,
    SUM(p2) AS p2
  FROM g
),
m AS (
  SELECT shape, o, 1 AS k, 'win_rate' AS measure, 'share' AS stat, declarations AS n,
    CAST(wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM per
  UNION ALL
  SELECT shape, o, 2 AS k, 'mean_points' AS measure, 'mean' AS stat, scored AS n,
    p1 AS s1, p2 AS s2 FROM per
)
SELECT shape, measure, stat, n, s1, s2 FROM m ORDER BY o, k
