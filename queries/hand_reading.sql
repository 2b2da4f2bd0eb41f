-- §16 Hand reading. Per seat V (0..3, then `all` pooled), turn (V's discards so far at the
-- moment; 19 and more pooled as `19+`; then `all`) and built-in method: the moments, and the
-- mean RMSE and cross-entropy over them of the method's density against the tiles the other
-- three seats hold; `best_*` marks the lowest method of each (seat, turn) for that metric.
-- `haifu hand-reading --engine-cmd` adds users' methods (`cmd:…`) after the built-ins.
-- Table: hand_reading (written with --with hand-reading). Its sums are exact integers in units of
-- 2^-32, split as hi · 2^24 + lo, so they add up to the same totals in any row order.
-- Portable form (polars, DuckDB, Spark SQL): CAST(... AS STRING), not AS VARCHAR (Spark requires VARCHAR(n)).
WITH g AS (
  SELECT seat, turn, method, SUM(moments) AS moments,
    SUM(rmse_hi) AS rh, SUM(rmse_lo) AS rl,
    SUM(cross_entropy_hi) AS ch, SUM(cross_entropy_lo) AS cl
  FROM hand_reading GROUP BY seat, turn, method
),
by_seat AS (
  SELECT seat, turn, method, moments, rh, rl, ch, cl FROM g
  UNION ALL
  SELECT 4 AS seat, turn, method, SUM(moments) AS moments, SUM(rh) AS rh, SUM(rl) AS rl,
    SUM(ch) AS ch, SUM(cl) AS cl
  FROM g GROUP BY turn, method
),
turns AS (
  SELECT seat, turn, method, moments, rh, rl, ch, cl FROM by_seat
  UNION ALL
  SELECT seat, 100 AS turn, method, SUM(moments) AS moments, SUM(rh) AS rh, SUM(rl) AS rl,
    SUM(ch) AS ch, SUM(cl) AS cl
  FROM by_seat GROUP BY seat, method
),
m AS (
  SELECT seat AS v, turn AS t, method, moments,
    (CAST(rh AS DOUBLE) * 16777216.0 + CAST(rl AS DOUBLE)) / 4294967296.0 / moments AS rmse,
    (CAST(ch AS DOUBLE) * 16777216.0 + CAST(cl AS DOUBLE)) / 4294967296.0 / moments AS cross_entropy,
    CASE method WHEN 'uniform' THEN 0 WHEN 'combo' THEN 1 WHEN 'statistical' THEN 2
      WHEN 'statistical-combo' THEN 3 ELSE 4 END AS e
  FROM turns
)
SELECT
  CASE WHEN v = 4 THEN 'all' ELSE CAST(v AS STRING) END AS seat,
  CASE WHEN t = 100 THEN 'all' WHEN t >= 19 THEN '19+' ELSE CAST(t AS STRING) END AS turn,
  method, moments, rmse, cross_entropy,
  rmse = MIN(rmse) OVER (PARTITION BY v, t) AS best_rmse,
  cross_entropy = MIN(cross_entropy) OVER (PARTITION BY v, t) AS best_cross_entropy
FROM m
ORDER BY v, t, e, method
