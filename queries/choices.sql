-- §23 Every decision (docs/definitions.md §23; frame `choices`, written with --with choices):
-- per kind of decision (discard, riichi, tsumo, ron, chi, pon, daiminkan, ankan, kakan,
-- kyuushu) and turn (the seat's discards so far + 1: 1-6, 7-12, 13+, and all), the decisions,
-- the unobserved ones (another seat's call or win kept the choice out of the log), and per
-- action taken (its name without the tile: discard, riichi, pass, pon, ...) how many observed
-- decisions took it and their share with its 95% Wilson interval. For a `riichi` decision,
-- `riichi` against `discard` is declaring against staying dama; for a call, the call against
-- `pass`.
-- The frame is read once: counted by (kind, turn bucket, taken text, observed), a few hundred
-- groups, from which every other number comes (the action's name is cut from each distinct text,
-- not from every one of the millions of rows; the per-turn and per-kind totals are windows over
-- those groups, not second passes over the frame).
WITH g AS (
  SELECT kind,
         CAST(turn >= 6 AS INT) + CAST(turn >= 12 AS INT) AS tb,
         taken,
         observed,
         COUNT(*) AS n
  FROM choices
  GROUP BY kind, tb, taken, observed
),
-- One row per (kind, turns, action); the unobserved decisions as the action null.
t AS (
  SELECT kind, CASE tb WHEN 0 THEN '1-6' WHEN 1 THEN '7-12' ELSE '13+' END AS turns,
         CASE WHEN observed THEN split_part(taken, ':', 1) END AS action,
         SUM(n) AS n
  FROM g
  GROUP BY kind, turns, action
),
t2 AS (
  SELECT kind, turns, action, n FROM t
  UNION ALL
  SELECT kind, 'all' AS turns, action, SUM(n) AS n FROM t GROUP BY kind, action
),
-- Each row with its (kind, turns) totals: decisions, and the observed ones.
w AS (
  SELECT kind, turns, action, n AS taken,
         SUM(n) OVER (PARTITION BY kind, turns) AS decisions,
         SUM(CASE WHEN action IS NULL THEN 0 ELSE n END) OVER (PARTITION BY kind, turns) AS observed
  FROM t2
),
shares AS (
  SELECT kind, turns, action, decisions, decisions - observed AS unobserved,
         taken, CAST(observed AS DOUBLE) AS n,
         CAST(taken AS DOUBLE) / CAST(observed AS DOUBLE) AS p
  FROM w WHERE action IS NOT NULL
)
SELECT
  kind,
  turns AS turn,
  action,
  decisions,
  unobserved,
  taken,
  p AS share,
  (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) AS share_lo,
  (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) AS share_hi
FROM shares
ORDER BY CASE kind WHEN 'discard' THEN 1 WHEN 'riichi' THEN 2 WHEN 'tsumo' THEN 3
  WHEN 'ron' THEN 4 WHEN 'chi' THEN 5 WHEN 'pon' THEN 6 WHEN 'daiminkan' THEN 7
  WHEN 'ankan' THEN 8 WHEN 'kakan' THEN 9 ELSE 10 END,
  CASE turn WHEN 'all' THEN 1 WHEN '1-6' THEN 2 WHEN '7-12' THEN 3 ELSE 4 END,
  taken DESC, action
