-- §1 Riichi response, overall: one row per outcome class plus `all`.
-- Tables: riichi_response (already restricted by --seat), params (one row: hands, seats).
-- share: units / all units, 95% Wilson interval; mean_income: 95% normal interval.
-- The standard deviation comes from exact integer sums of income and income², so the result
-- does not depend on the order in which the engine adds rows.
-- Portable form (polars, DuckDB, Spark SQL): without units (an empty slice) share, share_lo and rate_per_seat_hand are NaN by
-- CASE, as polars' 0/0 gives (Spark's ANSI mode fails on a division by 0).
WITH by_outcome AS (
  SELECT outcome, COUNT(*) AS units, SUM(CAST(income AS BIGINT)) AS s1,
         SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response GROUP BY outcome
),
cells AS (
  SELECT outcome, units, s1, s2 FROM by_outcome
  UNION ALL
  SELECT 'all' AS outcome, COALESCE(SUM(units), 0) AS units, SUM(s1) AS s1, SUM(s2) AS s2
  FROM by_outcome
),
total AS (SELECT CAST(COALESCE(SUM(units), 0) AS DOUBLE) AS n_all FROM by_outcome),
moments AS (
  SELECT outcome, units,
         CAST(s1 AS DOUBLE) / CAST(units AS DOUBLE) AS mean_income,
         CASE WHEN units > 1
              THEN SQRT(GREATEST((CAST(s2 AS DOUBLE) - CAST(s1 AS DOUBLE) * CAST(s1 AS DOUBLE) / CAST(units AS DOUBLE))
                                 / CAST(units - 1 AS DOUBLE), 0.0))
         END AS sd
  FROM cells
),
stats AS (
  SELECT b.outcome, b.units, CASE WHEN t.n_all = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(b.units AS DOUBLE) / t.n_all END AS p, t.n_all AS n,
         b.mean_income, b.sd,
         CASE WHEN params.hands * params.seats = 0 THEN CAST('NaN' AS DOUBLE)
              ELSE CAST(b.units AS DOUBLE) / (CAST(params.hands AS DOUBLE) * params.seats) END AS per_seat_hand
  FROM moments b CROSS JOIN total t CROSS JOIN params
)
SELECT
  outcome,
  units,
  p AS share,
  CASE WHEN n = 0 THEN CAST('NaN' AS DOUBLE) WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_lo,
  CASE WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_hi,
  mean_income,
  mean_income - 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_lo,
  mean_income + 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_hi,
  per_seat_hand AS rate_per_seat_hand
FROM stats
ORDER BY CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
  WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END
