-- haifu compare: §11 by turn (queries/by_turn.sql) as moments: per turn, the shares of the
-- turn's shanten units at shanten 0 … 6 (share_0 … share_6), mean_shanten (a mean over the
-- units, its squares from the counts), declaration_rate and win_rate (declarations and wins
-- per unit of the turn). Table: by_turn (written with --with development).
WITH t AS (
  SELECT turn, SUM(units) AS units,
    SUM(shanten_0) AS c0, SUM(shanten_1) AS c1, SUM(shanten_2) AS c2, SUM(shanten_3) AS c3,
    SUM(shanten_4) AS c4, SUM(shanten_5) AS c5, SUM(shanten_6) AS c6,
    SUM(declarations) AS declarations, SUM(wins) AS wins
  FROM by_turn GROUP BY turn
),
m AS (
  SELECT turn, 0 AS k, 'share_0' AS measure, 'share' AS stat, units AS n, CAST(c0 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT turn, 1 AS k, 'share_1' AS measure, 'share' AS stat, units AS n, CAST(c1 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT turn, 2 AS k, 'share_2' AS measure, 'share' AS stat, units AS n, CAST(c2 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT turn, 3 AS k, 'share_3' AS measure, 'share' AS stat, units AS n, CAST(c3 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT turn, 4 AS k, 'share_4' AS measure, 'share' AS stat, units AS n, CAST(c4 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT turn, 5 AS k, 'share_5' AS measure, 'share' AS stat, units AS n, CAST(c5 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL SELECT turn, 6 AS k, 'share_6' AS measure, 'share' AS stat, units AS n, CAST(c6 AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL
  SELECT turn, 7 AS k, 'mean_shanten' AS measure, 'mean' AS stat, units AS n,
    CAST(c1 + 2 * c2 + 3 * c3 + 4 * c4 + 5 * c5 + 6 * c6 AS DOUBLE) AS s1,
    CAST(c1 + 4 * c2 + 9 * c3 + 16 * c4 + 25 * c5 + 36 * c6 AS DOUBLE) AS s2 FROM t
  UNION ALL
  SELECT turn, 8 AS k, 'declaration_rate' AS measure, 'share' AS stat, units AS n,
    CAST(declarations AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
  UNION ALL
  SELECT turn, 9 AS k, 'win_rate' AS measure, 'share' AS stat, units AS n,
    CAST(wins AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM t
)
SELECT turn, measure, stat, n, s1, s2 FROM m ORDER BY turn, k
