-- §13 (c) Double riichi: declarations on the declarer's first discard of the hand with no
-- chi, pon or kan of any kind before it. Shape `good` when the waits hold at least 6 tiles
-- outside the declarer's own concealed hand (outs_own: Σ over waits of 4 − its own copies;
-- visible tiles ignored), else `bad`; then `all`. Per shape: declarations, wins by the
-- declarer in that hand (win_rate with its 95% Wilson interval), mean points (ten[1]) of
-- those wins. Table: riichi.
-- Portable form (polars, DuckDB, Spark SQL): the column `double` as r.double, not "double" (a string literal in Spark); win_rate of a
-- shape without declarations is NaN by CASE, as polars' 0/0 gives (Spark's ANSI mode fails).
WITH dr AS (
  SELECT CASE WHEN outs_own >= 6 THEN 'good' ELSE 'bad' END AS shape, won, points
  FROM riichi r WHERE r.double
),
g AS (
  SELECT shape, COUNT(*) AS declarations, SUM(CASE WHEN won THEN 1 ELSE 0 END) AS wins,
    AVG(CAST(points AS DOUBLE)) AS mean_points
  FROM dr GROUP BY shape
),
shapes AS (
  SELECT 1 AS o, 'good' AS shape UNION ALL SELECT 2 AS o, 'bad' AS shape
),
per AS (
  SELECT r.o, r.shape, COALESCE(g.declarations, 0) AS declarations, COALESCE(g.wins, 0) AS wins,
    g.mean_points
  FROM shapes r LEFT JOIN g ON r.shape = g.shape
  UNION ALL
  SELECT 3 AS o, 'all' AS shape, COALESCE(SUM(declarations), 0) AS declarations,
    COALESCE(SUM(wins), 0) AS wins,
    SUM(mean_points * wins) / SUM(wins) AS mean_points
  FROM g
),
s AS (SELECT *, CAST(declarations AS DOUBLE) AS n, CASE WHEN declarations = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(wins AS DOUBLE) / declarations END AS p FROM per)
SELECT shape, declarations, wins, p AS win_rate,
  CASE WHEN n = 0 THEN NULL WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS win_rate_lo,
  CASE WHEN n = 0 THEN NULL WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS win_rate_hi,
  mean_points
FROM s ORDER BY o
