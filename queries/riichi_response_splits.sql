-- §1 Riichi response split by (a) the seat's shanten at the declaration (0, 1, 2, 3+),
-- (b) seat is dealer, (c) riichi seat is dealer, (d) the riichi seat's turn at declaration
-- (1-6, 7-12, 13+). Long form: one row per (split, value, outcome), `all` rows per value.
-- Shares are within the (split, value) group; 95% Wilson and normal intervals.
WITH long AS (
  SELECT 'shanten' AS split,
         CASE WHEN shanten >= 3 THEN '3+' ELSE CAST(shanten AS VARCHAR) END AS value,
         outcome, CAST(income AS DOUBLE) AS income FROM riichi_response
  UNION ALL
  SELECT 'seat_dealer' AS split, CASE WHEN seat_is_dealer THEN 'dealer' ELSE 'non-dealer' END AS value,
         outcome, CAST(income AS DOUBLE) AS income FROM riichi_response
  UNION ALL
  SELECT 'riichi_dealer' AS split, CASE WHEN riichi_is_dealer THEN 'dealer' ELSE 'non-dealer' END AS value,
         outcome, CAST(income AS DOUBLE) AS income FROM riichi_response
  UNION ALL
  SELECT 'riichi_turn' AS split,
         CASE WHEN riichi_turn <= 6 THEN '1-6' WHEN riichi_turn <= 12 THEN '7-12' ELSE '13+' END AS value,
         outcome, CAST(income AS DOUBLE) AS income FROM riichi_response
),
groups AS (
  SELECT split, value, CAST(COUNT(*) AS DOUBLE) AS n FROM long GROUP BY split, value
),
cells AS (
  SELECT split, value, outcome, COUNT(*) AS units, AVG(income) AS mean_income, STDDEV(income) AS sd
  FROM long GROUP BY split, value, outcome
  UNION ALL
  SELECT split, value, 'all' AS outcome, COUNT(*) AS units, AVG(income) AS mean_income, STDDEV(income) AS sd
  FROM long GROUP BY split, value
),
stats AS (
  SELECT c.split, c.value, c.outcome, c.units, g.n, CAST(c.units AS DOUBLE) / g.n AS p,
         c.mean_income, c.sd
  FROM cells c JOIN groups g ON c.split = g.split AND c.value = g.value
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
  mean_income + 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_hi
FROM stats
ORDER BY split, value, CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
  WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END
