-- §23 Call or pass (docs/definitions.md §23; frame `choices`, written with --with choices):
-- every observed `chi`, `pon` and `daiminkan` decision, split by the caller's shanten before
-- the call (of its 13 − 3·melds tiles: 0, 1, 2, 3+) and after it (the lowest its calls of that
-- kind leave: a chi or pon's after the best discard that follows, a daiminkan's before its
-- replacement draw), each with `all` as well: how many called, and the share with its 95% Wilson interval.
-- `lowers` is whether the call leaves a lower shanten than the hand had (both buckets 3+ may
-- hold either, so that cell comes in two rows).
-- Counted first by integer keys (shanten capped at 3), in one pass over the frame; labelled
-- after, on the few groups.
-- Portable form (polars, DuckDB, Spark SQL): CAST(... AS STRING), not AS VARCHAR (Spark requires VARCHAR(n)).
WITH c AS (
  SELECT kind,
         CASE WHEN shanten >= 3 THEN 3 ELSE shanten END AS b,
         CASE WHEN shanten_after >= 3 THEN 3 ELSE shanten_after END AS a,
         shanten_after < shanten AS lowers,
         COUNT(*) AS decisions,
         SUM(CAST(taken <> 'pass' AS BIGINT)) AS calls
  FROM choices
  WHERE kind IN ('chi', 'pon', 'daiminkan') AND observed
  GROUP BY kind, b, a, lowers
),
l AS (
  SELECT kind,
         CASE WHEN b >= 3 THEN '3+' ELSE CAST(b AS STRING) END AS before,
         CASE WHEN a >= 3 THEN '3+' ELSE CAST(a AS STRING) END AS after,
         lowers, decisions, calls
  FROM c
),
g AS (
  SELECT kind, before, after, lowers, decisions, calls FROM l
  UNION ALL
  SELECT kind, before, 'all' AS after, CAST(NULL AS BOOLEAN) AS lowers, SUM(decisions) AS decisions,
         SUM(calls) AS calls
  FROM l GROUP BY kind, before
  UNION ALL
  SELECT kind, 'all' AS before, 'all' AS after, CAST(NULL AS BOOLEAN) AS lowers,
         SUM(decisions) AS decisions, SUM(calls) AS calls
  FROM l GROUP BY kind
),
s AS (
  SELECT kind, before, after, lowers, decisions, calls, CAST(decisions AS DOUBLE) AS n,
         CAST(calls AS DOUBLE) / CAST(decisions AS DOUBLE) AS p
  FROM g
)
SELECT
  kind,
  before AS shanten,
  after AS shanten_after,
  lowers,
  decisions,
  calls,
  p AS call_share,
  (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) AS share_lo,
  (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) AS share_hi
FROM s
ORDER BY CASE kind WHEN 'chi' THEN 1 WHEN 'pon' THEN 2 ELSE 3 END,
  CASE shanten WHEN 'all' THEN 0 WHEN '0' THEN 1 WHEN '1' THEN 2 WHEN '2' THEN 3 ELSE 4 END,
  CASE shanten_after WHEN 'all' THEN 0 WHEN '0' THEN 1 WHEN '1' THEN 2 WHEN '2' THEN 3 ELSE 4 END,
  lowers
