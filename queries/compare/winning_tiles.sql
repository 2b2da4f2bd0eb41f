-- haifu compare: §12 winning tiles (queries/winning_tiles.sql) as moments: per kind,
-- riichi_share (declarations waiting on it) and dama_share (wins without a declaration whose
-- hand waited on it). Tables: tiles_at_end, riichi, wins, kinds (written with --with development).
WITH w AS (
  SELECT type, SUM(riichi_waits) AS riichi_waits, SUM(dama_waits) AS dama_waits
  FROM tiles_at_end GROUP BY type
),
n AS (
  SELECT a.declarations, b.dama_wins
  FROM (SELECT COUNT(*) AS declarations FROM riichi) a
  CROSS JOIN (SELECT COUNT(*) AS dama_wins FROM wins WHERE NOT riichi) b
),
s AS (
  SELECT k.pos, k.kind, n.declarations, COALESCE(w.riichi_waits, 0) AS riichi_waits,
    n.dama_wins, COALESCE(w.dama_waits, 0) AS dama_waits
  FROM kinds k CROSS JOIN n LEFT JOIN w ON k.kind = w.type
),
m AS (
  SELECT kind, pos, 1 AS k, 'riichi_share' AS measure, 'share' AS stat, declarations AS n,
    CAST(riichi_waits AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM s
  UNION ALL
  SELECT kind, pos, 2 AS k, 'dama_share' AS measure, 'share' AS stat, dama_wins AS n,
    CAST(dama_waits AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM s
)
SELECT kind, measure, stat, n, s1, s2 FROM m ORDER BY pos, k
