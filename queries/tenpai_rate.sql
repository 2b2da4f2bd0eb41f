-- §17 Opponent tenpai. Table: tenpai_units (one row per discard that is neither a riichi
-- declaration nor made after the discarder's own declaration; tenpai = shanten 0 after it).
-- Rows: by = `turns_left` (turns_left 17..0, turn null), then by = `turn` (turn 1..19, 19
-- standing for 19 and later, turns_left null); within each, by open_melds and riichi_others
-- (`all`, then `0` and `1+`: other seats that have declared). rate = tenpai / units with its
-- 95% Wilson interval.
WITH tr_units AS (
  SELECT turns_left, CASE WHEN turn >= 19 THEN 19 ELSE turn END AS turn, open_melds,
    CASE WHEN riichi_others = 0 THEN '0' ELSE '1+' END AS ro,
    CASE WHEN tenpai THEN 1 ELSE 0 END AS t
  FROM tenpai_units
),
tr_base AS (
  SELECT turns_left, turn, open_melds, ro, CAST(COUNT(*) AS BIGINT) AS n, CAST(SUM(t) AS BIGINT) AS k
  FROM tr_units GROUP BY turns_left, turn, open_melds, ro
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
