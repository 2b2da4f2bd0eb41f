-- §1 Riichi response split by (a) the seat's shanten at the declaration (0, 1, 2, 3+),
-- (b) seat is dealer, (c) riichi seat is dealer, (d) the riichi seat's turn at declaration
-- (1-6, 7-12, 13+). Long form: one row per (split, value, outcome), `all` rows per value.
-- Shares are within the (split, value) group; 95% Wilson and normal intervals.
-- One grouped scan of the frame by the four split columns at once (`cube`: at most 4 x 2 x 2 x
-- 3 x 6 cells), which each split then sums by its own column (one scan, not one per split, so
-- the engine holds one scan's buffers: docs/scale.md, Memory); labels, the `all` rows and the
-- standard deviation (from the exact integer sums of income and income²) are computed on those
-- few rows, so the result does not depend on the order in which the engine adds rows.
-- Portable form (polars, DuckDB, Spark SQL): CAST(... AS STRING), not AS VARCHAR (Spark requires VARCHAR(n)).
WITH cube AS (
  SELECT LEAST(shanten, 3) AS shanten3, seat_is_dealer, riichi_is_dealer,
         CASE WHEN riichi_turn <= 6 THEN '1-6' WHEN riichi_turn <= 12 THEN '7-12' ELSE '13+' END AS turns,
         outcome, COUNT(*) AS units, SUM(CAST(income AS BIGINT)) AS s1,
         SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response
  GROUP BY LEAST(shanten, 3), seat_is_dealer, riichi_is_dealer,
           CASE WHEN riichi_turn <= 6 THEN '1-6' WHEN riichi_turn <= 12 THEN '7-12' ELSE '13+' END, outcome
),
splits AS (
  SELECT 'shanten' AS split UNION ALL SELECT 'seat_dealer' AS split
  UNION ALL SELECT 'riichi_dealer' AS split UNION ALL SELECT 'riichi_turn' AS split
),
raw AS (
  SELECT split,
         CASE WHEN split = 'shanten' THEN CAST(shanten3 AS STRING)
              WHEN split = 'seat_dealer' THEN CAST(seat_is_dealer AS STRING)
              WHEN split = 'riichi_dealer' THEN CAST(riichi_is_dealer AS STRING)
              ELSE turns END AS key,
         outcome, SUM(units) AS units, SUM(s1) AS s1, SUM(s2) AS s2
  FROM cube CROSS JOIN splits
  GROUP BY split,
         CASE WHEN split = 'shanten' THEN CAST(shanten3 AS STRING)
              WHEN split = 'seat_dealer' THEN CAST(seat_is_dealer AS STRING)
              WHEN split = 'riichi_dealer' THEN CAST(riichi_is_dealer AS STRING)
              ELSE turns END, outcome
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
stats AS (
  SELECT split, value, outcome, units,
         CAST(SUM(CASE WHEN outcome = 'all' THEN units ELSE 0 END) OVER (PARTITION BY split, value) AS DOUBLE) AS n,
         CAST(s1 AS DOUBLE) / CAST(units AS DOUBLE) AS mean_income,
         CASE WHEN units > 1
              THEN SQRT(GREATEST((CAST(s2 AS DOUBLE) - CAST(s1 AS DOUBLE) * CAST(s1 AS DOUBLE) / CAST(units AS DOUBLE))
                             / CAST(units - 1 AS DOUBLE), 0.0))
         END AS sd,
         s1, s2
  FROM cells
),
shares AS (
  SELECT *, CAST(units AS DOUBLE) / n AS p FROM stats
)
SELECT
  split,
  value,
  outcome,
  units,
  p AS share,
  CASE WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_lo,
  CASE WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_hi,
  mean_income,
  mean_income - 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_lo,
  mean_income + 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_hi,
  s1 AS income_sum, s2 AS income_sq_sum
FROM shares
ORDER BY split, value, CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
  WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END
