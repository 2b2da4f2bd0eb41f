-- §18 Win chance by wall and shanten. Table: discard_units (one row per discard).
-- Rows by (in_riichi, open_melds `0` or `1+`, turns_left 17..0, shanten 0..6): units, won (the
-- discarder won the hand), won_within_2 (by tsumo on its next or second-next draw, or by ron
-- having drawn at most once since), their rates with 95% Wilson intervals; and over the units
-- of exhaustive hands (exhaustive_units), tenpai_at_end (the discarder shown tenpai at the
-- draw) and its rate.
-- Counted in one pass over the frame by integer and boolean keys, then labelled.
WITH wr_keys AS (
  SELECT turns_left, shanten, open_melds > 0 AS opened, in_riichi,
    CAST(COUNT(*) AS BIGINT) AS units,
    CAST(SUM(CAST(won AS INT)) AS BIGINT) AS won,
    CAST(SUM(CAST(won_within_2 AS INT)) AS BIGINT) AS won_within_2,
    CAST(SUM(CAST(exhaustive AS INT)) AS BIGINT) AS exhaustive_units,
    CAST(SUM(CAST(tenpai_at_end AS INT)) AS BIGINT) AS tenpai_at_end
  FROM discard_units
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
