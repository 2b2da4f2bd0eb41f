-- §3 Draw rate by (held, visible), pooled over all types (`all`) and per tile class
-- (honor, terminal, 28, 3to7, red5). rate = hits / units with a 95% Wilson interval;
-- naive_rate = naive expected hits / units (uniform draws from what the drawer cannot see).
WITH b AS (
  SELECT 'all' AS class, held, visible, units, hits, naive_hits FROM draw_rate
  UNION ALL
  SELECT tile_class AS class, held, visible, units, hits, naive_hits FROM draw_rate
),
g AS (
  SELECT class, held, visible, SUM(units) AS units, SUM(hits) AS hits, SUM(naive_hits) AS naive_hits
  FROM b GROUP BY class, held, visible
),
r AS (SELECT *, CAST(units AS DOUBLE) AS n, CAST(hits AS DOUBLE) / CAST(units AS DOUBLE) AS p FROM g)
SELECT class, held, visible, units, hits, p AS rate,
  CASE WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS rate_lo,
  CASE WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS rate_hi,
  naive_hits, naive_hits / n AS naive_rate
FROM r
ORDER BY class, held, visible
