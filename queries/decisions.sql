-- §7 The players' discard decisions (docs/definitions.md §7; frame `decisions`, written by
-- `haifu ingest --with decisions`), counted by split: all, after (draw / call), turn (the seat's
-- turn + 1: 1-6, 7-12, 13+), riichi_opponents (0 / 1+: other seats that had declared) and
-- own_riichi (none / declaration / in_riichi). Per group: decisions, forced (one legal kind),
-- tsumogiri (the drawn tile itself), declarations, discards later called by another seat, and
-- the tsumogiri share of the unforced decisions with its 95% Wilson interval. How engines
-- agree with these decisions is `haifu agree`.
WITH d AS (
  SELECT after,
         CASE WHEN turn <= 6 THEN '1-6' WHEN turn <= 12 THEN '7-12' ELSE '13+' END AS turn_bucket,
         CASE WHEN riichi_opponents > 0 THEN '1+' ELSE '0' END AS opponents,
         CASE WHEN in_riichi THEN 'in_riichi' WHEN riichi THEN 'declaration' ELSE 'none' END AS own,
         CAST(forced AS BIGINT) AS forced, CAST(tsumogiri AS BIGINT) AS tsumogiri,
         CAST(riichi AS BIGINT) AS riichi, CAST(called AS BIGINT) AS called,
         CAST(tsumogiri AND NOT forced AS BIGINT) AS tsumogiri_unforced
  FROM decisions
),
cells AS (
  -- One grouped scan of the frame into its (after, turn, opponents, own) cells, a few dozen
  -- rows, which every split sums: a frame read by several branches would be held whole.
  SELECT after, turn_bucket, opponents, own, COUNT(*) AS decisions, SUM(forced) AS forced,
         SUM(tsumogiri) AS tsumogiri, SUM(riichi) AS declarations, SUM(called) AS called,
         SUM(tsumogiri_unforced) AS tsumogiri_unforced
  FROM d GROUP BY after, turn_bucket, opponents, own
),
raw AS (
  SELECT 'all' AS split, 'all' AS value, COALESCE(SUM(decisions), 0) AS decisions,
         SUM(forced) AS forced, SUM(tsumogiri) AS tsumogiri, SUM(declarations) AS declarations,
         SUM(called) AS called, SUM(tsumogiri_unforced) AS tsumogiri_unforced
  FROM cells
  UNION ALL
  SELECT 'after' AS split, after AS value, SUM(decisions) AS decisions, SUM(forced) AS forced, SUM(tsumogiri) AS tsumogiri,
         SUM(declarations) AS declarations, SUM(called) AS called, SUM(tsumogiri_unforced) AS tsumogiri_unforced
  FROM cells GROUP BY after
  UNION ALL
  SELECT 'turn' AS split, turn_bucket AS value, SUM(decisions) AS decisions, SUM(forced) AS forced, SUM(tsumogiri) AS tsumogiri,
         SUM(declarations) AS declarations, SUM(called) AS called, SUM(tsumogiri_unforced) AS tsumogiri_unforced
  FROM cells GROUP BY turn_bucket
  UNION ALL
  SELECT 'riichi_opponents' AS split, opponents AS value, SUM(decisions) AS decisions, SUM(forced) AS forced, SUM(tsumogiri) AS tsumogiri,
         SUM(declarations) AS declarations, SUM(called) AS called, SUM(tsumogiri_unforced) AS tsumogiri_unforced
  FROM cells GROUP BY opponents
  UNION ALL
  SELECT 'own_riichi' AS split, own AS value, SUM(decisions) AS decisions, SUM(forced) AS forced, SUM(tsumogiri) AS tsumogiri,
         SUM(declarations) AS declarations, SUM(called) AS called, SUM(tsumogiri_unforced) AS tsumogiri_unforced
  FROM cells GROUP BY own
),
shares AS (
  SELECT *, CAST(decisions - forced AS DOUBLE) AS n,
         CASE WHEN decisions > forced
              THEN CAST(tsumogiri_unforced AS DOUBLE) / CAST(decisions - forced AS DOUBLE) END AS p
  FROM raw
)
SELECT
  split,
  value,
  decisions,
  forced,
  decisions - forced AS unforced,
  tsumogiri,
  declarations,
  called,
  p AS tsumogiri_share_unforced,
  CASE WHEN n > 0 THEN (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS tsumogiri_share_lo,
  CASE WHEN n > 0 THEN (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS tsumogiri_share_hi
FROM shares
ORDER BY CASE split WHEN 'all' THEN 1 WHEN 'after' THEN 2 WHEN 'turn' THEN 3
  WHEN 'riichi_opponents' THEN 4 ELSE 5 END,
  CASE value WHEN 'draw' THEN 1 WHEN 'call' THEN 2 WHEN '1-6' THEN 1 WHEN '7-12' THEN 2
  WHEN '13+' THEN 3 WHEN '0' THEN 1 WHEN '1+' THEN 2 WHEN 'none' THEN 1
  WHEN 'declaration' THEN 2 WHEN 'in_riichi' THEN 3 ELSE 0 END
