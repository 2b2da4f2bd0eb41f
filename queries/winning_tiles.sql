-- §12 Winning tiles, per kind: (a) at every riichi declaration, whether the declarer waits on
-- it (riichi_waits, and riichi_share = riichi_waits / declarations); (b) at every win whose
-- winner made no declaration in the hand, whether the winner's hand before its winning tile
-- waited on it (dama_waits, dama_share = dama_waits / those wins). Shares with 95% Wilson
-- intervals. Tables: tiles_at_end (per game and type: riichi_waits, dama_waits), riichi, wins,
-- kinds (the 34 kinds in order: kind, pos).
-- Portable form (polars, DuckDB, Spark SQL): riichi_share (dama_share) without declarations (dama wins) is NaN by CASE, as
-- polars' 0/0 gives (Spark's ANSI mode fails on a division by 0).
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
    n.dama_wins, COALESCE(w.dama_waits, 0) AS dama_waits,
    CAST(n.declarations AS DOUBLE) AS nr, CAST(n.dama_wins AS DOUBLE) AS nd,
    CASE WHEN n.declarations = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(COALESCE(w.riichi_waits, 0) AS DOUBLE) / n.declarations END AS pr,
    CASE WHEN n.dama_wins = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(COALESCE(w.dama_waits, 0) AS DOUBLE) / n.dama_wins END AS pd
  FROM kinds k CROSS JOIN n LEFT JOIN w ON k.kind = w.type
)
SELECT kind, declarations, riichi_waits, pr AS riichi_share,
  CASE WHEN nr = 0 THEN NULL WHEN pr <= 0 THEN 0.0 ELSE (pr + 1.9208 / nr - 1.96 * SQRT(pr * (1 - pr) / nr + 0.9604 / (nr * nr))) / (1 + 3.8416 / nr) END AS riichi_share_lo,
  CASE WHEN nr = 0 THEN NULL WHEN pr >= 1 THEN 1.0 ELSE (pr + 1.9208 / nr + 1.96 * SQRT(pr * (1 - pr) / nr + 0.9604 / (nr * nr))) / (1 + 3.8416 / nr) END AS riichi_share_hi,
  dama_wins, dama_waits, pd AS dama_share,
  CASE WHEN nd = 0 THEN NULL WHEN pd <= 0 THEN 0.0 ELSE (pd + 1.9208 / nd - 1.96 * SQRT(pd * (1 - pd) / nd + 0.9604 / (nd * nd))) / (1 + 3.8416 / nd) END AS dama_share_lo,
  CASE WHEN nd = 0 THEN NULL WHEN pd >= 1 THEN 1.0 ELSE (pd + 1.9208 / nd + 1.96 * SQRT(pd * (1 - pd) / nd + 0.9604 / (nd * nd))) / (1 + 3.8416 / nd) END AS dama_share_hi
FROM s ORDER BY pos
