-- §13 The riichi declaration tile. Long form: one row per (section, number, wait_number).
-- section `trap` (a, suji traps モロ引っ掛け): the §2-qualifying declarations (not furiten, not
--   kokushi) whose declaration tile is a suited 4, 5 or 6 (a red five is a 5), by that number;
--   wait_number the suji trap position of the same suit (7 after a 4; 2 and 8 after a 5; 3
--   after a 6).
-- section `declaration-tile` (b): every declaration whose tile is suited, by its number, and
--   wait_number 1..9 of the same suit.
-- section `first-suited` (b): every declaration by the number of the declarer's first suited
--   discard of the hand (the declaration tile when none came before), wait_number 1..9 of
--   that tile's suit.
-- declarations: the declarations of that section and number; waits: those waiting on
-- wait_number (rate, with its 95% Wilson interval), split by the wait's shape (§0).
-- Tables: riichi, kinds.
WITH decl AS (
  -- Each declaration's wait letters of its tile's suit (9) and of its first suited discard's.
  SELECT qualifying,
    CAST(SUBSTR(tile, 1, 1) AS INT) AS n,
    SUBSTR(wait_shapes,
      CASE SUBSTR(tile, 2, 1) WHEN 'm' THEN 1 WHEN 'p' THEN 10 WHEN 's' THEN 19 END, 9) AS seg,
    CAST(SUBSTR(first_suited, 1, 1) AS INT) AS fn,
    SUBSTR(wait_shapes,
      CASE SUBSTR(first_suited, 2, 1) WHEN 'm' THEN 1 WHEN 'p' THEN 10 WHEN 's' THEN 19 END, 9)
      AS fseg
  FROM riichi
),
-- The declarations grouped by what the sections read (a few thousand groups at most), before
-- they are spread over the nine numbers.
by_tile AS (
  SELECT qualifying, n, seg, COUNT(*) AS c FROM decl WHERE seg IS NOT NULL
  GROUP BY qualifying, n, seg
),
by_first AS (
  SELECT fn, fseg, COUNT(*) AS c FROM decl WHERE fseg IS NOT NULL GROUP BY fn, fseg
),
nums AS (SELECT number AS i FROM kinds WHERE suit = 'm'),
cells AS (
  SELECT 1 AS o, 'trap' AS section, d.n AS number, k.i AS wait_number,
    SUBSTR(d.seg, k.i, 1) AS w, d.c
  FROM by_tile d CROSS JOIN nums k
  WHERE d.qualifying
    AND ((d.n = 4 AND k.i = 7) OR (d.n = 5 AND (k.i = 2 OR k.i = 8)) OR (d.n = 6 AND k.i = 3))
  UNION ALL
  SELECT 2 AS o, 'declaration-tile' AS section, d.n AS number, k.i AS wait_number,
    SUBSTR(d.seg, k.i, 1) AS w, d.c
  FROM by_tile d CROSS JOIN nums k
  UNION ALL
  SELECT 3 AS o, 'first-suited' AS section, d.fn AS number, k.i AS wait_number,
    SUBSTR(d.fseg, k.i, 1) AS w, d.c
  FROM by_first d CROSS JOIN nums k
),
g AS (
  SELECT o, section, number, wait_number, SUM(c) AS declarations,
    SUM(CASE WHEN w <> '-' THEN c ELSE 0 END) AS waits,
    SUM(CASE WHEN w = 'T' THEN c ELSE 0 END) AS tanki,
    SUM(CASE WHEN w = 'S' THEN c ELSE 0 END) AS shanpon,
    SUM(CASE WHEN w = 'K' THEN c ELSE 0 END) AS kanchan,
    SUM(CASE WHEN w = 'P' THEN c ELSE 0 END) AS penchan,
    SUM(CASE WHEN w = 'R' THEN c ELSE 0 END) AS ryanmen
  FROM cells GROUP BY o, section, number, wait_number
),
s AS (SELECT *, CAST(declarations AS DOUBLE) AS nn, CAST(waits AS DOUBLE) / declarations AS p FROM g)
SELECT section, number, wait_number, declarations, waits, p AS rate,
  CASE WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / nn - 1.96 * SQRT(p * (1 - p) / nn + 0.9604 / (nn * nn))) / (1 + 3.8416 / nn) END AS rate_lo,
  CASE WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / nn + 1.96 * SQRT(p * (1 - p) / nn + 0.9604 / (nn * nn))) / (1 + 3.8416 / nn) END AS rate_hi,
  tanki, shanpon, kanchan, penchan, ryanmen
FROM s ORDER BY o, number, wait_number
