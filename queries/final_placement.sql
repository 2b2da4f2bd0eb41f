-- §19 Final placement from the start of a hand. Table: placement_units (one row per hand of
-- a hanchan with owari; s0..s3 the scores at the hand's start, rank_0..3 the final places; a
-- three-player game's fourth seat has rank_3 = 0 and is no seat here, nor a score above or
-- below, §24). Rows per (kyoku, seat, start_place, gap_above, gap_below): start_place is the
-- seat's place by the start scores (ties to the seat nearer the first dealer), gap_above its score
-- minus the score of the seat just above (null for the leader), gap_below its score minus the
-- score of the seat just below (null for the last), each binned by truncation toward zero in
-- 4,000 points. units (hands), place_1..place_4 (counts of the seat's final place) and their
-- shares rate_1..rate_4 with 95% Wilson intervals.
-- Portable form (polars, DuckDB, Spark SQL): DIV(a, b) as CAST(FLOOR(a / b) AS BIGINT) (DuckDB has no DIV; `/` is a float
-- division in all three engines; the keys are non-negative and far below 2^53).
WITH fp_units AS (
  SELECT kyoku, s0, s1, s2, CASE WHEN rank_3 > 0 THEN s3 END AS s3, rank_0, rank_1, rank_2, rank_3
  FROM placement_units
),
fp_rel AS (
  SELECT kyoku, 0 AS seat, s0 AS s, rank_0 AS r, CASE WHEN s1 > s0 THEN 1 ELSE 0 END + CASE WHEN s2 > s0 THEN 1 ELSE 0 END + CASE WHEN s3 > s0 THEN 1 ELSE 0 END AS above_n,
    LEAST(CASE WHEN s1 > s0 THEN s1 END, CASE WHEN s2 > s0 THEN s2 END, CASE WHEN s3 > s0 THEN s3 END) AS above_s,
    GREATEST(CASE WHEN s1 > s0 THEN NULL ELSE s1 END, CASE WHEN s2 > s0 THEN NULL ELSE s2 END, CASE WHEN s3 > s0 THEN NULL ELSE s3 END) AS below_s
  FROM fp_units
  UNION ALL
  SELECT kyoku, 1 AS seat, s1 AS s, rank_1 AS r, CASE WHEN s0 >= s1 THEN 1 ELSE 0 END + CASE WHEN s2 > s1 THEN 1 ELSE 0 END + CASE WHEN s3 > s1 THEN 1 ELSE 0 END AS above_n,
    LEAST(CASE WHEN s0 >= s1 THEN s0 END, CASE WHEN s2 > s1 THEN s2 END, CASE WHEN s3 > s1 THEN s3 END) AS above_s,
    GREATEST(CASE WHEN s0 >= s1 THEN NULL ELSE s0 END, CASE WHEN s2 > s1 THEN NULL ELSE s2 END, CASE WHEN s3 > s1 THEN NULL ELSE s3 END) AS below_s
  FROM fp_units
  UNION ALL
  SELECT kyoku, 2 AS seat, s2 AS s, rank_2 AS r, CASE WHEN s0 >= s2 THEN 1 ELSE 0 END + CASE WHEN s1 >= s2 THEN 1 ELSE 0 END + CASE WHEN s3 > s2 THEN 1 ELSE 0 END AS above_n,
    LEAST(CASE WHEN s0 >= s2 THEN s0 END, CASE WHEN s1 >= s2 THEN s1 END, CASE WHEN s3 > s2 THEN s3 END) AS above_s,
    GREATEST(CASE WHEN s0 >= s2 THEN NULL ELSE s0 END, CASE WHEN s1 >= s2 THEN NULL ELSE s1 END, CASE WHEN s3 > s2 THEN NULL ELSE s3 END) AS below_s
  FROM fp_units
  UNION ALL
  SELECT kyoku, 3 AS seat, s3 AS s, rank_3 AS r, CASE WHEN s0 >= s3 THEN 1 ELSE 0 END + CASE WHEN s1 >= s3 THEN 1 ELSE 0 END + CASE WHEN s2 >= s3 THEN 1 ELSE 0 END AS above_n,
    LEAST(CASE WHEN s0 >= s3 THEN s0 END, CASE WHEN s1 >= s3 THEN s1 END, CASE WHEN s2 >= s3 THEN s2 END) AS above_s,
    GREATEST(CASE WHEN s0 >= s3 THEN NULL ELSE s0 END, CASE WHEN s1 >= s3 THEN NULL ELSE s1 END, CASE WHEN s2 >= s3 THEN NULL ELSE s2 END) AS below_s
  FROM fp_units
  WHERE rank_3 > 0
),
-- Each (hand, seat) is binned to integers (a gap's bin 1..9 from ≤-16000 up, 0 when it has
-- none) and counted by one packed integer,
--   key = (((kyoku·4 + seat)·4 + start_place − 1)·10 + above bin)·10 + below bin)·4 + place − 1,
-- then unpacked and labelled on the few thousand groups.
fp_keys AS (
  SELECT ((((kyoku * 4 + seat) * 4 + above_n) * 10 + CASE WHEN s - above_s IS NULL THEN 0 WHEN s - above_s <= -16000 THEN 1
      WHEN s - above_s <= -12000 THEN 2 WHEN s - above_s <= -8000 THEN 3 WHEN s - above_s <= -4000 THEN 4
      WHEN s - above_s < 4000 THEN 5 WHEN s - above_s < 8000 THEN 6 WHEN s - above_s < 12000 THEN 7
      WHEN s - above_s < 16000 THEN 8 ELSE 9 END) * 10
      + CASE WHEN s - below_s IS NULL THEN 0 WHEN s - below_s <= -16000 THEN 1
      WHEN s - below_s <= -12000 THEN 2 WHEN s - below_s <= -8000 THEN 3 WHEN s - below_s <= -4000 THEN 4
      WHEN s - below_s < 4000 THEN 5 WHEN s - below_s < 8000 THEN 6 WHEN s - below_s < 12000 THEN 7
      WHEN s - below_s < 16000 THEN 8 ELSE 9 END) * 4 + r - 1 AS key,
    CAST(COUNT(*) AS BIGINT) AS n
  FROM fp_rel
  GROUP BY key
),
fp_unpacked AS (
  SELECT CAST(FLOOR(key / 6400) AS BIGINT) AS kyoku, CAST(FLOOR(key / 1600) AS BIGINT) % 4 AS seat, CAST(FLOOR(key / 400) AS BIGINT) % 4 + 1 AS start_place,
    CAST(FLOOR(key / 40) AS BIGINT) % 10 AS ab, CAST(FLOOR(key / 4) AS BIGINT) % 10 AS bb, key % 4 + 1 AS r, n
  FROM fp_keys
),
fp_cells AS (
  SELECT kyoku, seat, start_place, ab, bb,
    CASE ab WHEN 0 THEN NULL WHEN 1 THEN '≤-16000' WHEN 2 THEN '(-16000,-12000]'
      WHEN 3 THEN '(-12000,-8000]' WHEN 4 THEN '(-8000,-4000]' WHEN 5 THEN '(-4000,4000)'
      WHEN 6 THEN '[4000,8000)' WHEN 7 THEN '[8000,12000)' WHEN 8 THEN '[12000,16000)'
      ELSE '≥16000' END AS gap_above,
    CASE bb WHEN 0 THEN NULL WHEN 1 THEN '≤-16000' WHEN 2 THEN '(-16000,-12000]'
      WHEN 3 THEN '(-12000,-8000]' WHEN 4 THEN '(-8000,-4000]' WHEN 5 THEN '(-4000,4000)'
      WHEN 6 THEN '[4000,8000)' WHEN 7 THEN '[8000,12000)' WHEN 8 THEN '[12000,16000)'
      ELSE '≥16000' END AS gap_below,
    SUM(n) AS units, SUM(CASE WHEN r = 1 THEN n ELSE 0 END) AS place_1,
    SUM(CASE WHEN r = 2 THEN n ELSE 0 END) AS place_2,
    SUM(CASE WHEN r = 3 THEN n ELSE 0 END) AS place_3,
    SUM(CASE WHEN r = 4 THEN n ELSE 0 END) AS place_4
  FROM fp_unpacked GROUP BY kyoku, seat, start_place, ab, bb
)
SELECT kyoku, seat, start_place, gap_above, gap_below, units, place_1, place_2, place_3, place_4,
  CASE WHEN units > 0 THEN CAST(place_1 AS DOUBLE) / units END AS rate_1,
  CASE WHEN units = 0 THEN NULL WHEN place_1 <= 0 THEN 0.0 ELSE ((CAST(place_1 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(place_1 AS DOUBLE) / units) * (1 - (CAST(place_1 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_1_lo,
  CASE WHEN units = 0 THEN NULL WHEN place_1 >= units THEN 1.0 ELSE ((CAST(place_1 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(place_1 AS DOUBLE) / units) * (1 - (CAST(place_1 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_1_hi,
  CASE WHEN units > 0 THEN CAST(place_2 AS DOUBLE) / units END AS rate_2,
  CASE WHEN units = 0 THEN NULL WHEN place_2 <= 0 THEN 0.0 ELSE ((CAST(place_2 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(place_2 AS DOUBLE) / units) * (1 - (CAST(place_2 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_2_lo,
  CASE WHEN units = 0 THEN NULL WHEN place_2 >= units THEN 1.0 ELSE ((CAST(place_2 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(place_2 AS DOUBLE) / units) * (1 - (CAST(place_2 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_2_hi,
  CASE WHEN units > 0 THEN CAST(place_3 AS DOUBLE) / units END AS rate_3,
  CASE WHEN units = 0 THEN NULL WHEN place_3 <= 0 THEN 0.0 ELSE ((CAST(place_3 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(place_3 AS DOUBLE) / units) * (1 - (CAST(place_3 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_3_lo,
  CASE WHEN units = 0 THEN NULL WHEN place_3 >= units THEN 1.0 ELSE ((CAST(place_3 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(place_3 AS DOUBLE) / units) * (1 - (CAST(place_3 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_3_hi,
  CASE WHEN units > 0 THEN CAST(place_4 AS DOUBLE) / units END AS rate_4,
  CASE WHEN units = 0 THEN NULL WHEN place_4 <= 0 THEN 0.0 ELSE ((CAST(place_4 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) - 1.96 * SQRT((CAST(place_4 AS DOUBLE) / units) * (1 - (CAST(place_4 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_4_lo,
  CASE WHEN units = 0 THEN NULL WHEN place_4 >= units THEN 1.0 ELSE ((CAST(place_4 AS DOUBLE) / units) + 1.9208 / CAST(units AS DOUBLE) + 1.96 * SQRT((CAST(place_4 AS DOUBLE) / units) * (1 - (CAST(place_4 AS DOUBLE) / units)) / CAST(units AS DOUBLE) + 0.9604 / (CAST(units AS DOUBLE) * CAST(units AS DOUBLE)))) / (1 + 3.8416 / CAST(units AS DOUBLE)) END AS rate_4_hi
FROM fp_cells
ORDER BY kyoku, seat, start_place, ab, bb
