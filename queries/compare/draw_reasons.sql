-- haifu compare: §10 draw reasons as moments, from the rows of the `draw-reasons` report
-- itself (queries/draw_reasons.sql, which haifu compare runs as the table `report`): per
-- reason, share_of_draws (n = draws) and share_of_hands (n = hands).
-- The derived table's name is this file's own: polars' SQL keeps such a name in its context
-- after the query, where another query's table of the same name would meet it.
SELECT reason, measure, stat, n, s1, s2 FROM (
  SELECT reason, CASE reason WHEN 'exhaustive' THEN 1 WHEN 'nm' THEN 2 WHEN 'yao9' THEN 3
      WHEN 'kaze4' THEN 4 WHEN 'reach4' THEN 5 WHEN 'ron3' THEN 6 WHEN 'kan4' THEN 7 ELSE 8 END AS o,
    1 AS k, 'share_of_draws' AS measure, 'share' AS stat, draws AS n,
    CAST(count AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT reason, CASE reason WHEN 'exhaustive' THEN 1 WHEN 'nm' THEN 2 WHEN 'yao9' THEN 3
      WHEN 'kaze4' THEN 4 WHEN 'reach4' THEN 5 WHEN 'ron3' THEN 6 WHEN 'kan4' THEN 7 ELSE 8 END AS o,
    2 AS k, 'share_of_hands' AS measure, 'share' AS stat, hands AS n,
    CAST(count AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
) AS draw_reasons_moments
ORDER BY o, k
