-- haifu compare review: a bot's match rate (haifu review's `reviews` frame, docs/review.md) per
-- kind of decision (and `all`), in all and by turn (the seat's discards so far + 1: 1-6, 7-12,
-- 13+) and riichi opponents (0, 1+), as moments: a share of n decisions, s1 of them matched.
-- Portable form (polars, DuckDB, Spark SQL): the column `match` as v.match, not "match" (a string literal in Spark).
WITH r AS (
  SELECT kind,
         CASE WHEN turn < 6 THEN '1-6' WHEN turn < 12 THEN '7-12' ELSE '13+' END AS turns,
         CASE WHEN riichi_opponents > 0 THEN '1+' ELSE '0' END AS opponents,
         CAST(v.match AS BIGINT) AS m
  FROM reviews v
),
g AS (
  SELECT 'all' AS kind, 'all' AS section, 'all' AS value, COUNT(*) AS n, SUM(m) AS s FROM r
  UNION ALL
  SELECT 'all' AS kind, 'turn' AS section, turns AS value, COUNT(*) AS n, SUM(m) AS s
  FROM r GROUP BY turns
  UNION ALL
  SELECT 'all' AS kind, 'riichi_opponents' AS section, opponents AS value, COUNT(*) AS n,
         SUM(m) AS s
  FROM r GROUP BY opponents
  UNION ALL
  SELECT kind, 'all' AS section, 'all' AS value, COUNT(*) AS n, SUM(m) AS s FROM r GROUP BY kind
  UNION ALL
  SELECT kind, 'turn' AS section, turns AS value, COUNT(*) AS n, SUM(m) AS s
  FROM r GROUP BY kind, turns
  UNION ALL
  SELECT kind, 'riichi_opponents' AS section, opponents AS value, COUNT(*) AS n, SUM(m) AS s
  FROM r GROUP BY kind, opponents
)
SELECT kind, section, value, 'match_rate' AS measure, 'share' AS stat, n,
       CAST(s AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2
FROM g
ORDER BY CASE kind WHEN 'all' THEN 0 WHEN 'tsumo' THEN 1 WHEN 'ron' THEN 2 WHEN 'riichi' THEN 3
  WHEN 'kyuushu' THEN 4 WHEN 'ankan' THEN 5 WHEN 'kakan' THEN 6 WHEN 'daiminkan' THEN 7
  WHEN 'pon' THEN 8 WHEN 'chi' THEN 9 ELSE 10 END,
  CASE section WHEN 'all' THEN 0 WHEN 'turn' THEN 1 ELSE 2 END,
  CASE value WHEN 'all' THEN 0 WHEN '1-6' THEN 1 WHEN '7-12' THEN 2 WHEN '13+' THEN 3
    WHEN '0' THEN 4 ELSE 5 END
