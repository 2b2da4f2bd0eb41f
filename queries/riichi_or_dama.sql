-- §23 Riichi or dama (docs/definitions.md §23; frame `choices`, written with --with choices):
-- every observed `riichi` decision (a draw after which the seat could declare), split by the
-- wait it would declare with (the tenpai discard with the most winning tiles unseen by the
-- seat: `wait_shape`, its highest shape, and `wait_count`, those tiles: 1-2, 3-4, 5-6, 7+) and
-- by turn (the seat's discards so far + 1), each with `all` as well: how many declared, and the
-- share with its 95% Wilson interval. A decision on which the seat stayed dama counts each
-- draw it could have declared on.
-- Portable form: the intervals are guarded by n > 0 (without decisions p is null and so are
-- they, as in polars; Spark's ANSI mode would fail on 1.9208 / 0).
WITH r AS (
  SELECT COALESCE(wait_shape, 'none') AS shape,
         CASE WHEN wait_count <= 2 THEN '1-2' WHEN wait_count <= 4 THEN '3-4'
              WHEN wait_count <= 6 THEN '5-6' ELSE '7+' END AS waits,
         CASE WHEN turn < 6 THEN '1-6' WHEN turn < 12 THEN '7-12' ELSE '13+' END AS turns,
         CAST(taken = 'riichi' AS BIGINT) AS declared
  FROM choices
  WHERE kind = 'riichi' AND observed
),
g AS (
  SELECT 'shape' AS split, shape AS value, turns, COUNT(*) AS decisions, SUM(declared) AS riichi
  FROM r GROUP BY shape, turns
  UNION ALL
  SELECT 'shape' AS split, shape AS value, 'all' AS turns, COUNT(*) AS decisions,
         SUM(declared) AS riichi
  FROM r GROUP BY shape
  UNION ALL
  SELECT 'waits' AS split, waits AS value, turns, COUNT(*) AS decisions, SUM(declared) AS riichi
  FROM r GROUP BY waits, turns
  UNION ALL
  SELECT 'waits' AS split, waits AS value, 'all' AS turns, COUNT(*) AS decisions,
         SUM(declared) AS riichi
  FROM r GROUP BY waits
  UNION ALL
  SELECT 'all' AS split, 'all' AS value, turns, COUNT(*) AS decisions, SUM(declared) AS riichi
  FROM r GROUP BY turns
  UNION ALL
  SELECT 'all' AS split, 'all' AS value, 'all' AS turns, COUNT(*) AS decisions,
         SUM(declared) AS riichi
  FROM r
),
s AS (
  SELECT split, value, turns, decisions, riichi, CAST(decisions AS DOUBLE) AS n,
         CAST(riichi AS DOUBLE) / CAST(decisions AS DOUBLE) AS p
  FROM g
)
SELECT
  split,
  value,
  turns AS turn,
  decisions,
  riichi,
  p AS riichi_share,
  CASE WHEN n > 0 THEN (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_lo,
  CASE WHEN n > 0 THEN (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_hi
FROM s
ORDER BY CASE split WHEN 'all' THEN 1 WHEN 'shape' THEN 2 ELSE 3 END,
  CASE value WHEN 'all' THEN 0 WHEN 'ryanmen' THEN 1 WHEN 'penchan' THEN 2 WHEN 'kanchan' THEN 3
    WHEN 'shanpon' THEN 4 WHEN 'tanki' THEN 5 WHEN '1-2' THEN 6 WHEN '3-4' THEN 7
    WHEN '5-6' THEN 8 WHEN '7+' THEN 9 ELSE 10 END,
  CASE turn WHEN 'all' THEN 1 WHEN '1-6' THEN 2 WHEN '7-12' THEN 3 ELSE 4 END
