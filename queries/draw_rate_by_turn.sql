-- §3 Draw rate by (turn, held, visible), pooled (`all`) and per tile class; turn = the
-- drawer's discards so far + 1. Same columns as draw_rate.sql.
WITH b AS (
  SELECT 'all' AS class, turn, held, visible, units, hits, naive_hits FROM draw_rate
  UNION ALL
  SELECT tile_class AS class, turn, held, visible, units, hits, naive_hits FROM draw_rate
),
g AS (
  SELECT class, turn, held, visible, SUM(units) AS units, SUM(hits) AS hits,
         SUM(naive_hits) AS naive_hits
  FROM b GROUP BY class, turn, held, visible
),
r AS (SELECT *, CAST(units AS DOUBLE) AS n, CAST(hits AS DOUBLE) / CAST(units AS DOUBLE) AS p FROM g)
SELECT class, turn, held, visible, units, hits, p AS rate,
  CASE WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS rate_lo,
  CASE WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS rate_hi,
  naive_hits, naive_hits / n AS naive_rate
FROM r
ORDER BY class, turn, held, visible
