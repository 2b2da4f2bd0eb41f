-- §23 Every decision (docs/definitions.md §23; frame `choices`, written with --with choices):
-- per kind of decision (discard, riichi, tsumo, ron, chi, pon, daiminkan, ankan, kakan,
-- kyuushu) and turn (the seat's discards so far + 1: 1-6, 7-12, 13+, and all), the decisions,
-- the unobserved ones (another seat's call or win kept the choice out of the log), and per
-- action taken (its name without the tile: discard, riichi, pass, pon, ...) how many observed
-- decisions took it and their share with its 95% Wilson interval. For a `riichi` decision,
-- `riichi` against `discard` is declaring against staying dama; for a call, the call against
-- `pass`.
WITH g AS (
  -- Counted first by the taken action's text (a few hundred values), so that the action's
  -- name is cut from each distinct text, not from every one of the millions of rows.
  SELECT kind,
         CASE WHEN turn < 6 THEN '1-6' WHEN turn < 12 THEN '7-12' ELSE '13+' END AS turns,
         taken,
         observed,
         COUNT(*) AS n
  FROM choices
  GROUP BY kind, turns, taken, observed
),
c AS (
  SELECT kind, turns,
         CASE WHEN observed THEN split_part(taken, ':', 1) END AS action,
         CAST(observed AS BIGINT) * n AS observed,
         n
  FROM g
),
per_turn AS (
  SELECT kind, turns, SUM(n) AS decisions, SUM(observed) AS observed FROM c GROUP BY kind, turns
  UNION ALL
  SELECT kind, 'all' AS turns, SUM(n) AS decisions, SUM(observed) AS observed FROM c GROUP BY kind
),
took AS (
  SELECT kind, turns, action, SUM(n) AS taken FROM c WHERE action IS NOT NULL
  GROUP BY kind, turns, action
  UNION ALL
  SELECT kind, 'all' AS turns, action, SUM(n) AS taken FROM c WHERE action IS NOT NULL
  GROUP BY kind, action
),
shares AS (
  SELECT t.kind, t.turns, t.action, b.decisions, b.decisions - b.observed AS unobserved,
         b.observed, t.taken, CAST(b.observed AS DOUBLE) AS n,
         CAST(t.taken AS DOUBLE) / CAST(b.observed AS DOUBLE) AS p
  FROM took t JOIN per_turn b ON t.kind = b.kind AND t.turns = b.turns
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
