-- haifu compare: §10 draw reasons (queries/draw_reasons.sql) as moments: per reason and
-- `all`, share_of_draws (n = drawn hands) and share_of_hands (n = hands).
-- Portable form (polars, DuckDB, Spark SQL): the column `end` as h.end, not "end" (a string literal in Spark: every count 0).
WITH counts AS (
  SELECT COUNT(*) AS hands,
    SUM(CASE WHEN h.end = 'exhaustive' THEN 1 ELSE 0 END) AS exhaustive,
    SUM(CASE WHEN h.end = 'nm' THEN 1 ELSE 0 END) AS nm,
    SUM(CASE WHEN h.end = 'yao9' THEN 1 ELSE 0 END) AS yao9,
    SUM(CASE WHEN h.end = 'kaze4' THEN 1 ELSE 0 END) AS kaze4,
    SUM(CASE WHEN h.end = 'reach4' THEN 1 ELSE 0 END) AS reach4,
    SUM(CASE WHEN h.end = 'ron3' THEN 1 ELSE 0 END) AS ron3,
    SUM(CASE WHEN h.end = 'kan4' THEN 1 ELSE 0 END) AS kan4
  FROM hands h
),
reasons AS (
  SELECT 1 AS o, 'exhaustive' AS reason, exhaustive AS n, hands FROM counts
  UNION ALL SELECT 2 AS o, 'nm' AS reason, nm AS n, hands FROM counts
  UNION ALL SELECT 3 AS o, 'yao9' AS reason, yao9 AS n, hands FROM counts
  UNION ALL SELECT 4 AS o, 'kaze4' AS reason, kaze4 AS n, hands FROM counts
  UNION ALL SELECT 5 AS o, 'reach4' AS reason, reach4 AS n, hands FROM counts
  UNION ALL SELECT 6 AS o, 'ron3' AS reason, ron3 AS n, hands FROM counts
  UNION ALL SELECT 7 AS o, 'kan4' AS reason, kan4 AS n, hands FROM counts
  UNION ALL SELECT 8 AS o, 'all' AS reason,
    exhaustive + nm + yao9 + kaze4 + reach4 + ron3 + kan4 AS n, hands FROM counts
),
r AS (
  SELECT r.o, r.reason, COALESCE(r.n, 0) AS n, COALESCE(r.hands, 0) AS hands,
    COALESCE(a.n, 0) AS draws
  FROM reasons r CROSS JOIN (SELECT n FROM reasons WHERE reason = 'all') a
),
m AS (
  SELECT reason, o, 1 AS k, 'share_of_draws' AS measure, 'share' AS stat, draws AS n,
    CAST(n AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM r
  UNION ALL
  SELECT reason, o, 2 AS k, 'share_of_hands' AS measure, 'share' AS stat, hands AS n,
    CAST(n AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM r
)
SELECT reason, measure, stat, n, s1, s2 FROM m ORDER BY o, k
