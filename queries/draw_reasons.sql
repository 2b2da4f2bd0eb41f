-- §10 Draw reasons: the hands that ended in a draw, by `hands.end`, in the order
-- exhaustive, nm (nagashi mangan), yao9, kaze4, reach4, ron3, kan4, then `all` draws.
-- share_of_draws and share_of_hands with 95% Wilson intervals (null without draws, or hands);
-- draws and hands: their denominators (which `haifu compare` reads, queries/compare/).
-- Portable form (polars, DuckDB, Spark SQL): the column `end` as h.end, not "end" (a string literal in Spark: every count 0).
WITH counts AS (
  SELECT COUNT(*) AS hands,
    SUM(CASE WHEN h.end = 'exhaustive' THEN 1 ELSE 0 END) AS exhaustive,
    SUM(CASE WHEN h.end = 'nm' THEN 1 ELSE 0 END) AS nm,
    SUM(CASE WHEN h.end = 'yao9' THEN 1 ELSE 0 END) AS yao9,
    SUM(CASE WHEN h.end = 'kaze4' THEN 1 ELSE 0 END) AS kaze4,
    SUM(CASE WHEN h.end = 'reach4' THEN 1 ELSE 0 END) AS reach4,
    SUM(CASE WHEN h.end = 'ron3' THEN 1 ELSE 0 END) AS ron3,
    SUM(CASE WHEN h.end = 'kan4' THEN 1 ELSE 0 END) AS kan4
  FROM hands h
),
-- The one row of counts read once, crossed with the list of reasons (a frame read by several
-- branches is read, and held, once per branch: docs/scale.md, Memory).
reasons AS (
  SELECT l.o, l.reason,
    CASE l.o WHEN 1 THEN c.exhaustive WHEN 2 THEN c.nm WHEN 3 THEN c.yao9 WHEN 4 THEN c.kaze4
      WHEN 5 THEN c.reach4 WHEN 6 THEN c.ron3 WHEN 7 THEN c.kan4
      ELSE c.exhaustive + c.nm + c.yao9 + c.kaze4 + c.reach4 + c.ron3 + c.kan4 END AS n,
    c.exhaustive + c.nm + c.yao9 + c.kaze4 + c.reach4 + c.ron3 + c.kan4 AS draws,
    c.hands
  FROM counts c CROSS JOIN (
    SELECT 1 AS o, 'exhaustive' AS reason UNION ALL SELECT 2 AS o, 'nm' AS reason
    UNION ALL SELECT 3 AS o, 'yao9' AS reason UNION ALL SELECT 4 AS o, 'kaze4' AS reason
    UNION ALL SELECT 5 AS o, 'reach4' AS reason UNION ALL SELECT 6 AS o, 'ron3' AS reason
    UNION ALL SELECT 7 AS o, 'kan4' AS reason UNION ALL SELECT 8 AS o, 'all' AS reason) l
),
shares AS (
  SELECT r.o, r.reason, COALESCE(r.n, 0) AS hands_n, r.hands, r.draws AS a_n,
    CAST(COALESCE(r.draws, 0) AS DOUBLE) AS d, CAST(r.hands AS DOUBLE) AS h,
    CASE WHEN r.draws > 0 THEN CAST(r.n AS DOUBLE) / r.draws END AS pd,
    CASE WHEN r.hands > 0 THEN CAST(r.n AS DOUBLE) / r.hands END AS ph
  FROM reasons r
)
SELECT reason, hands_n AS count, pd AS share_of_draws,
  CASE WHEN d = 0 THEN NULL WHEN pd <= 0 THEN 0.0 ELSE (pd + 1.9208 / d - 1.96 * SQRT(pd * (1 - pd) / d + 0.9604 / (d * d))) / (1 + 3.8416 / d) END AS share_of_draws_lo,
  CASE WHEN d = 0 THEN NULL WHEN pd >= 1 THEN 1.0 ELSE (pd + 1.9208 / d + 1.96 * SQRT(pd * (1 - pd) / d + 0.9604 / (d * d))) / (1 + 3.8416 / d) END AS share_of_draws_hi,
  ph AS share_of_hands,
  CASE WHEN h = 0 THEN NULL WHEN ph <= 0 THEN 0.0 ELSE (ph + 1.9208 / h - 1.96 * SQRT(ph * (1 - ph) / h + 0.9604 / (h * h))) / (1 + 3.8416 / h) END AS share_of_hands_lo,
  CASE WHEN h = 0 THEN NULL WHEN ph >= 1 THEN 1.0 ELSE (ph + 1.9208 / h + 1.96 * SQRT(ph * (1 - ph) / h + 0.9604 / (h * h))) / (1 + 3.8416 / h) END AS share_of_hands_hi,
  COALESCE(a_n, 0) AS draws, COALESCE(hands, 0) AS hands
FROM shares ORDER BY o
