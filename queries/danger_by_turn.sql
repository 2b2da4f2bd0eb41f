-- §15 Danger at every moment, by turn. Per observer offset d (`observer`: 1, 2, 3, the seat d
-- after the hand's first riichi), turn (the observer's discards so far at the moment; 19 and
-- more pooled as `19+`) and built-in estimator: the moments, and the mean RMSE, cross-entropy
-- and KLD over them; `best_*` marks the lowest estimator of each (observer, turn) for that
-- metric. Then, per observer and estimator, the totals over every turn (turn `all`).
-- Table: danger_by_turn (written with --with danger-moments). Its sums are exact integers in units
-- of 2^-32, split as hi · 2^24 + lo, so they add up to the same totals in any row order.
-- Portable form (polars, DuckDB, Spark SQL): CAST(... AS STRING), not AS VARCHAR (Spark requires VARCHAR(n)).
WITH g AS (
  SELECT observer, turn, estimator, SUM(moments) AS moments,
    SUM(rmse_hi) AS rh, SUM(rmse_lo) AS rl,
    SUM(cross_entropy_hi) AS ch, SUM(cross_entropy_lo) AS cl,
    SUM(kld_hi) AS kh, SUM(kld_lo) AS kl
  FROM danger_by_turn GROUP BY observer, turn, estimator
),
per_turn AS (
  SELECT observer, turn, estimator, moments, rh, rl, ch, cl, kh, kl FROM g
  UNION ALL
  SELECT observer, 100 AS turn, estimator, SUM(moments) AS moments, SUM(rh) AS rh,
    SUM(rl) AS rl, SUM(ch) AS ch, SUM(cl) AS cl, SUM(kh) AS kh, SUM(kl) AS kl
  FROM g GROUP BY observer, estimator
),
m AS (
  SELECT observer, turn AS t, estimator, moments,
    (CAST(rh AS DOUBLE) * 16777216.0 + CAST(rl AS DOUBLE)) / 4294967296.0 / moments AS rmse,
    (CAST(ch AS DOUBLE) * 16777216.0 + CAST(cl AS DOUBLE)) / 4294967296.0 / moments AS cross_entropy,
    (CAST(kh AS DOUBLE) * 16777216.0 + CAST(kl AS DOUBLE)) / 4294967296.0 / moments AS kld,
    CASE estimator WHEN 'none' THEN 0 WHEN 'combo' THEN 1 WHEN 'dennou-old' THEN 2
      WHEN 'dennou' THEN 3 ELSE 4 END AS e
  FROM per_turn
)
SELECT observer,
  CASE WHEN t = 100 THEN 'all' WHEN t >= 19 THEN '19+' ELSE CAST(t AS STRING) END AS turn,
  estimator, moments, rmse, cross_entropy, kld,
  rmse = MIN(rmse) OVER (PARTITION BY observer, t) AS best_rmse,
  cross_entropy = MIN(cross_entropy) OVER (PARTITION BY observer, t) AS best_cross_entropy,
  kld = MIN(kld) OVER (PARTITION BY observer, t) AS best_kld
FROM m
ORDER BY observer, t, e
