-- haifu compare: §1 riichi response (queries/riichi_response.sql) as moments: per outcome
-- and `all`, share (units of the outcome among all units), mean_income (a mean over the
-- outcome's units: exact integer sums of income and income²) and rate_per_seat_hand (units
-- per seat-hand: n = hands × seats of table `params`).
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
total AS (SELECT COALESCE(SUM(units), 0) AS n_all FROM by_outcome),
c AS (
  SELECT c.outcome, c.units, c.s1, c.s2, t.n_all, params.hands * params.seats AS seat_hands,
    CASE c.outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
      WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END AS o
  FROM cells c CROSS JOIN total t CROSS JOIN params
),
m AS (
  SELECT outcome, o, 1 AS k, 'share' AS measure, 'share' AS stat, n_all AS n,
         CAST(units AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM c
  UNION ALL
  SELECT outcome, o, 2 AS k, 'mean_income' AS measure, 'mean' AS stat, units AS n,
         CAST(s1 AS DOUBLE) AS s1, CAST(s2 AS DOUBLE) AS s2 FROM c
  UNION ALL
  SELECT outcome, o, 3 AS k, 'rate_per_seat_hand' AS measure, 'share' AS stat, seat_hands AS n,
         CAST(units AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM c
)
SELECT outcome, measure, stat, n, s1, s2 FROM m ORDER BY o, k
