-- haifu compare: §1 riichi response splits as moments, from the rows of the split reports
-- themselves (queries/riichi_response_splits.sql, which haifu compare runs as the table
-- `report`): per (split, value, outcome), the share of the group's units and the mean income
-- (n = units, s1 = Σincome, s2 = Σincome²).
-- The derived table's name is this file's own: polars' SQL keeps such a name in its context
-- after the query, where another query's table of the same name would meet it.
SELECT split, value, outcome, measure, stat, n, s1, s2 FROM (
  SELECT split, value, outcome,
    CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
      WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END AS o,
    1 AS k, 'share' AS measure, 'share' AS stat,
    SUM(CASE WHEN outcome = 'all' THEN units ELSE 0 END) OVER (PARTITION BY split, value) AS n,
    CAST(units AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT split, value, outcome,
    CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
      WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END AS o,
    2 AS k, 'mean_income' AS measure, 'mean' AS stat, units AS n,
    CAST(income_sum AS DOUBLE) AS s1, CAST(income_sq_sum AS DOUBLE) AS s2 FROM report
) AS splits_moments
ORDER BY split, value, o, k
