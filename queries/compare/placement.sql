-- haifu compare: §5 placement (queries/placement.sql) as moments: per seat, the shares of
-- first … fourth places (n = games) and average_place as a mean (sum s1, squares s2).
WITH p AS (
  SELECT 0 AS seat, place_0 AS place FROM games
  UNION ALL SELECT 1 AS seat, place_1 AS place FROM games
  UNION ALL SELECT 2 AS seat, place_2 AS place FROM games
  UNION ALL SELECT 3 AS seat, place_3 AS place FROM games
),
s AS (
  SELECT seat, COUNT(*) AS games,
    SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS p1,
    SUM(CASE WHEN place = 2 THEN 1 ELSE 0 END) AS p2,
    SUM(CASE WHEN place = 3 THEN 1 ELSE 0 END) AS p3,
    SUM(CASE WHEN place = 4 THEN 1 ELSE 0 END) AS p4,
    SUM(CAST(place AS BIGINT)) AS s1, SUM(CAST(place AS BIGINT) * CAST(place AS BIGINT)) AS s2
  FROM p GROUP BY seat
),
m AS (
  SELECT seat, 1 AS k, 'first_rate' AS measure, 'share' AS stat, games AS n,
         CAST(p1 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM s
  UNION ALL
  SELECT seat, 2 AS k, 'second_rate' AS measure, 'share' AS stat, games AS n,
         CAST(p2 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM s
  UNION ALL
  SELECT seat, 3 AS k, 'third_rate' AS measure, 'share' AS stat, games AS n,
         CAST(p3 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM s
  UNION ALL
  SELECT seat, 4 AS k, 'fourth_rate' AS measure, 'share' AS stat, games AS n,
         CAST(p4 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM s
  UNION ALL
  SELECT seat, 5 AS k, 'average_place' AS measure, 'mean' AS stat, games AS n,
         CAST(s1 AS DOUBLE) AS s1, CAST(s2 AS DOUBLE) AS s2 FROM s
)
SELECT seat, measure, stat, n, s1, s2 FROM m ORDER BY seat, k
