-- §17 Opponent tenpai. Table: discard_units, its rows with in_riichi false (the §17 units: the
-- discards that are neither a riichi declaration nor made after the discarder's own
-- declaration; tenpai = shanten 0 after it).
-- Rows: by = `turns_left` (turns_left 17..0, turn null), then by = `turn` (turn 1..19, 19
-- standing for 19 and later, turns_left null); within each, by open_melds and riichi_others
-- (`all`, then `0` and `1+`: other seats that have declared). rate = tenpai / units with its
-- 95% Wilson interval.
-- Counted in one pass over the frame by integer keys (riichi_others as whether it is 0), then
-- labelled on the few hundred groups.
WITH tr_keys AS (
  SELECT turns_left, CASE WHEN turn >= 19 THEN 19 ELSE turn END AS t19, open_melds,
    riichi_others = 0 AS r0, CAST(COUNT(*) AS BIGINT) AS n,
    CAST(SUM(CAST(tenpai AS INT)) AS BIGINT) AS k
  FROM discard_units
  WHERE NOT in_riichi
  GROUP BY turns_left, t19, open_melds, r0
),
tr_base AS (
  SELECT turns_left, t19 AS turn, open_melds, CASE WHEN r0 THEN '0' ELSE '1+' END AS ro, n, k
  FROM tr_keys
),
tr_cells AS (
  SELECT 0 AS part, 'turns_left' AS "by", turns_left, CAST(NULL AS INT) AS turn, open_melds,
    'all' AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turns_left, open_melds
  UNION ALL
  SELECT 0 AS part, 'turns_left' AS "by", turns_left, CAST(NULL AS INT) AS turn, open_melds,
    ro AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turns_left, open_melds, ro
  UNION ALL
  SELECT 1 AS part, 'turn' AS "by", CAST(NULL AS INT) AS turns_left, turn, open_melds,
    'all' AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turn, open_melds
  UNION ALL
  SELECT 1 AS part, 'turn' AS "by", CAST(NULL AS INT) AS turns_left, turn, open_melds,
    ro AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turn, open_melds, ro
)
SELECT "by", turns_left, turn, open_melds, riichi_others, units, tenpai,
  CASE WHEN units > 0 THEN CAST(tenpai AS DOUBLE) / units END AS rate,
  CASE WHEN units = 0 THEN NULL WHEN tenpai <= 0 THEN 0.0 ELSE ((CAST(tenpai AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(tenpai AS DOUBLE) / units) * (1 - (CAST(tenpai AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_lo,
  CASE WHEN units = 0 THEN NULL WHEN tenpai >= units THEN 1.0 ELSE ((CAST(tenpai AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(tenpai AS DOUBLE) / units) * (1 - (CAST(tenpai AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_hi
FROM tr_cells
ORDER BY part, COALESCE(turns_left, 0) DESC, COALESCE(turn, 0), open_melds,
  CASE riichi_others WHEN 'all' THEN 0 WHEN '0' THEN 1 ELSE 2 END
