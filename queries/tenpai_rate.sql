-- §17 Opponent tenpai. Table: discard_units, its rows with in_riichi false (the §17 units: the
-- discards that are neither a riichi declaration nor made after the discarder's own
-- declaration; tenpai = shanten 0 after it).
-- Rows: by = `turns_left` (turns_left 17..0, turn null), then by = `turn` (turn 1..19, 19
-- standing for 19 and later, turns_left null); within each, by open_melds and riichi_others
-- (`all`, then `0` and `1+`: other seats that have declared). rate = tenpai / units with its
-- 95% Wilson interval.
-- Counted in one pass over the frame, grouped by one packed integer rather than by four
-- columns (a single integer key is what polars groups fastest):
--   key = turn·4096 + turns_left·128 + open_melds·16 + riichi_others·2 + tenpai,
-- each part below its multiplier's step (turns_left ≤ 17, open_melds ≤ 4, riichi_others ≤ 3),
-- then unpacked and labelled on the few thousand groups.
-- Portable form (polars, DuckDB, Spark SQL): DIV(a, b) as CAST(FLOOR(a / b) AS BIGINT) (DuckDB has no DIV); the column alias
-- by unquoted and read as c.by ("by" is a string literal in Spark).
WITH tr_keys AS (
  SELECT turn * 4096 + turns_left * 128 + open_melds * 16 + riichi_others * 2
      + CAST(tenpai AS INT) AS key,
    CAST(COUNT(*) AS BIGINT) AS n
  FROM discard_units
  WHERE NOT in_riichi
  GROUP BY key
),
tr_base AS (
  SELECT CAST(FLOOR((key % 4096) / 128) AS BIGINT) AS turns_left,
    CASE WHEN CAST(FLOOR(key / 4096) AS BIGINT) >= 19 THEN 19 ELSE CAST(FLOOR(key / 4096) AS BIGINT) END AS turn,
    CAST(FLOOR((key % 128) / 16) AS BIGINT) AS open_melds,
    CASE WHEN CAST(FLOOR((key % 16) / 2) AS BIGINT) = 0 THEN '0' ELSE '1+' END AS ro,
    n, CASE WHEN key % 2 = 1 THEN n ELSE 0 END AS k
  FROM tr_keys
),
tr_cells AS (
  SELECT 0 AS part, 'turns_left' AS by, turns_left, CAST(NULL AS INT) AS turn, open_melds,
    'all' AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turns_left, open_melds
  UNION ALL
  SELECT 0 AS part, 'turns_left' AS by, turns_left, CAST(NULL AS INT) AS turn, open_melds,
    ro AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turns_left, open_melds, ro
  UNION ALL
  SELECT 1 AS part, 'turn' AS by, CAST(NULL AS INT) AS turns_left, turn, open_melds,
    'all' AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turn, open_melds
  UNION ALL
  SELECT 1 AS part, 'turn' AS by, CAST(NULL AS INT) AS turns_left, turn, open_melds,
    ro AS riichi_others, SUM(n) AS units, SUM(k) AS tenpai
  FROM tr_base GROUP BY turn, open_melds, ro
)
SELECT c.by, turns_left, turn, open_melds, riichi_others, units, tenpai,
  CASE WHEN units > 0 THEN CAST(tenpai AS DOUBLE) / units END AS rate,
  CASE WHEN units = 0 THEN NULL WHEN tenpai <= 0 THEN 0.0 ELSE ((CAST(tenpai AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(tenpai AS DOUBLE) / units) * (1 - (CAST(tenpai AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_lo,
  CASE WHEN units = 0 THEN NULL WHEN tenpai >= units THEN 1.0 ELSE ((CAST(tenpai AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(tenpai AS DOUBLE) / units) * (1 - (CAST(tenpai AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_hi
FROM tr_cells c
ORDER BY part, COALESCE(turns_left, 0) DESC, COALESCE(turn, 0), open_melds,
  CASE riichi_others WHEN 'all' THEN 0 WHEN '0' THEN 1 ELSE 2 END
