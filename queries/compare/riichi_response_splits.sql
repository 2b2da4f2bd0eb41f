-- haifu compare: §1 riichi response splits (queries/riichi_response_splits.sql) as moments:
-- per (split, value, outcome), share (units among the (split, value) group's units) and
-- mean_income (a mean over the outcome's units, from exact integer sums). `haifu compare`
-- keeps one split per report, as `haifu stats` does.
-- Portable form (polars, DuckDB, Spark SQL): CAST(... AS STRING), not AS VARCHAR (Spark requires VARCHAR(n)).
WITH raw AS (
  SELECT 'shanten' AS split, CAST(LEAST(shanten, 3) AS STRING) AS key, outcome,
         COUNT(*) AS units, SUM(CAST(income AS BIGINT)) AS s1,
         SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response GROUP BY LEAST(shanten, 3), outcome
  UNION ALL
  SELECT 'seat_dealer' AS split, CAST(seat_is_dealer AS STRING) AS key, outcome,
         COUNT(*) AS units, SUM(CAST(income AS BIGINT)) AS s1,
         SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response GROUP BY seat_is_dealer, outcome
  UNION ALL
  SELECT 'riichi_dealer' AS split, CAST(riichi_is_dealer AS STRING) AS key, outcome,
         COUNT(*) AS units, SUM(CAST(income AS BIGINT)) AS s1,
         SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response GROUP BY riichi_is_dealer, outcome
  UNION ALL
  SELECT 'riichi_turn' AS split,
         CASE WHEN riichi_turn <= 6 THEN '1-6' WHEN riichi_turn <= 12 THEN '7-12' ELSE '13+' END AS key,
         outcome, COUNT(*) AS units, SUM(CAST(income AS BIGINT)) AS s1,
         SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response
  GROUP BY CASE WHEN riichi_turn <= 6 THEN '1-6' WHEN riichi_turn <= 12 THEN '7-12' ELSE '13+' END, outcome
),
labelled AS (
  SELECT split,
         CASE WHEN split = 'shanten' AND key = '3' THEN '3+'
              WHEN key = 'true' THEN 'dealer' WHEN key = 'false' THEN 'non-dealer'
              ELSE key END AS value,
         outcome, units, s1, s2
  FROM raw
),
cells AS (
  SELECT split, value, outcome, units, s1, s2 FROM labelled
  UNION ALL
  SELECT split, value, 'all' AS outcome, SUM(units) AS units, SUM(s1) AS s1, SUM(s2) AS s2
  FROM labelled GROUP BY split, value
),
c AS (
  SELECT split, value, outcome, units, s1, s2,
    SUM(CASE WHEN outcome = 'all' THEN units ELSE 0 END) OVER (PARTITION BY split, value) AS n_all,
    CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
      WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END AS o
  FROM cells
),
m AS (
  SELECT split, value, outcome, o, 1 AS k, 'share' AS measure, 'share' AS stat, n_all AS n,
         CAST(units AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM c
  UNION ALL
  SELECT split, value, outcome, o, 2 AS k, 'mean_income' AS measure, 'mean' AS stat, units AS n,
         CAST(s1 AS DOUBLE) AS s1, CAST(s2 AS DOUBLE) AS s2 FROM c
)
SELECT split, value, outcome, measure, stat, n, s1, s2 FROM m ORDER BY split, value, o, k
