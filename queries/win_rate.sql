-- §18 Win chance by wall and shanten. Table: discard_units (one row per discard).
-- Rows by (in_riichi, open_melds `0` or `1+`, turns_left 17..0, shanten 0..6): units, won (the
-- discarder won the hand), won_within_2 (by tsumo on its next or second-next draw, or by ron
-- having drawn at most once since), their rates with 95% Wilson intervals; and over the units
-- of exhaustive hands (exhaustive_units), tenpai_at_end (the discarder shown tenpai at the
-- draw) and its rate.
-- Counted in one pass over the frame, grouped by one packed integer rather than by eight
-- columns (a single integer key is what polars groups fastest):
--   key = turns_left·2048 + shanten·256 + open_melds·32 + in_riichi·16 + won·8
--         + won_within_2·4 + exhaustive·2 + tenpai_at_end,
-- each part below its multiplier's step (shanten ≤ 6, open_melds ≤ 4), then unpacked, summed
-- by (turns_left, shanten, opened, in_riichi) and labelled on the few thousand groups.
-- Portable form (polars, DuckDB, Spark SQL): DIV(a, b) as CAST(FLOOR(a / b) AS BIGINT) (DuckDB has no DIV; `/` is a float
-- division in all three engines; the keys are non-negative and far below 2^53).
WITH wr_packed AS (
  SELECT turns_left * 2048 + shanten * 256 + open_melds * 32 + CAST(in_riichi AS INT) * 16
      + CAST(won AS INT) * 8 + CAST(won_within_2 AS INT) * 4 + CAST(exhaustive AS INT) * 2
      + CAST(tenpai_at_end AS INT) AS key,
    CAST(COUNT(*) AS BIGINT) AS n
  FROM discard_units
  GROUP BY key
),
wr_keys AS (
  SELECT CAST(FLOOR(key / 2048) AS BIGINT) AS turns_left, CAST(FLOOR((key % 2048) / 256) AS BIGINT) AS shanten,
    CAST(FLOOR((key % 256) / 32) AS BIGINT) > 0 AS opened, CAST(FLOOR((key % 32) / 16) AS BIGINT) = 1 AS in_riichi,
    SUM(n) AS units,
    SUM(CASE WHEN CAST(FLOOR((key % 16) / 8) AS BIGINT) = 1 THEN n ELSE 0 END) AS won,
    SUM(CASE WHEN CAST(FLOOR((key % 8) / 4) AS BIGINT) = 1 THEN n ELSE 0 END) AS won_within_2,
    SUM(CASE WHEN CAST(FLOOR((key % 4) / 2) AS BIGINT) = 1 THEN n ELSE 0 END) AS exhaustive_units,
    SUM(CASE WHEN key % 2 = 1 THEN n ELSE 0 END) AS tenpai_at_end
  FROM wr_packed
  GROUP BY turns_left, shanten, opened, in_riichi
),
wr_cells AS (
  SELECT turns_left, shanten, CASE WHEN opened THEN '1+' ELSE '0' END AS open_melds, in_riichi,
    units, won, won_within_2, exhaustive_units, tenpai_at_end
  FROM wr_keys
)
SELECT turns_left, shanten, open_melds, in_riichi, units, won, won_within_2,
  CASE WHEN units > 0 THEN CAST(won AS DOUBLE) / units END AS won_rate,
  CASE WHEN units = 0 THEN NULL WHEN won <= 0 THEN 0.0 ELSE ((CAST(won AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(won AS DOUBLE) / units) * (1 - (CAST(won AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS won_rate_lo,
  CASE WHEN units = 0 THEN NULL WHEN won >= units THEN 1.0 ELSE ((CAST(won AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(won AS DOUBLE) / units) * (1 - (CAST(won AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS won_rate_hi,
  CASE WHEN units > 0 THEN CAST(won_within_2 AS DOUBLE) / units END AS within_2_rate,
  CASE WHEN units = 0 THEN NULL WHEN won_within_2 <= 0 THEN 0.0 ELSE ((CAST(won_within_2 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(won_within_2 AS DOUBLE) / units) * (1 - (CAST(won_within_2 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS within_2_rate_lo,
  CASE WHEN units = 0 THEN NULL WHEN won_within_2 >= units THEN 1.0 ELSE ((CAST(won_within_2 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(won_within_2 AS DOUBLE) / units) * (1 - (CAST(won_within_2 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS within_2_rate_hi,
  exhaustive_units, tenpai_at_end,
  CASE WHEN exhaustive_units > 0 THEN CAST(tenpai_at_end AS DOUBLE) / exhaustive_units END AS tenpai_at_end_rate,
  CASE WHEN exhaustive_units = 0 THEN NULL WHEN tenpai_at_end <= 0 THEN 0.0 ELSE ((CAST(tenpai_at_end AS DOUBLE) / exhaustive_units) + 1.9208 / CAST(exhaustive_units AS DOUBLE) - 1.96 * SQRT((CAST(tenpai_at_end AS DOUBLE) / exhaustive_units) * (1 - (CAST(tenpai_at_end AS DOUBLE) / exhaustive_units)) / CAST(exhaustive_units AS DOUBLE) + 0.9604 / (CAST(exhaustive_units AS DOUBLE) * CAST(exhaustive_units AS DOUBLE)))) / (1 + 3.8416 / CAST(exhaustive_units AS DOUBLE)) END AS tenpai_at_end_rate_lo,
  CASE WHEN exhaustive_units = 0 THEN NULL WHEN tenpai_at_end >= exhaustive_units THEN 1.0 ELSE ((CAST(tenpai_at_end AS DOUBLE) / exhaustive_units) + 1.9208 / CAST(exhaustive_units AS DOUBLE) + 1.96 * SQRT((CAST(tenpai_at_end AS DOUBLE) / exhaustive_units) * (1 - (CAST(tenpai_at_end AS DOUBLE) / exhaustive_units)) / CAST(exhaustive_units AS DOUBLE) + 0.9604 / (CAST(exhaustive_units AS DOUBLE) * CAST(exhaustive_units AS DOUBLE)))) / (1 + 3.8416 / CAST(exhaustive_units AS DOUBLE)) END AS tenpai_at_end_rate_hi
FROM wr_cells
ORDER BY in_riichi, open_melds, turns_left DESC, shanten
