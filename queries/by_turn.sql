-- §11 By turn: per turn 0, 1, 2, …, the shanten units (turn 0: the four starting hands of
-- every hand; turn t > 0: every discard that was its seat's t-th, the hand right after it),
-- their split by shanten 0..6 (counts, then shares), the mean shanten, and the riichi
-- declarations and wins at that turn (counts, and per shanten unit of the turn).
-- tenpai_lo/tenpai_hi: the 95% Wilson interval of share_0 (the tenpai share).
-- Table: by_turn (per game and turn).
WITH t AS (
  SELECT turn, SUM(units) AS units,
    SUM(shanten_0) AS shanten_0, SUM(shanten_1) AS shanten_1, SUM(shanten_2) AS shanten_2,
    SUM(shanten_3) AS shanten_3, SUM(shanten_4) AS shanten_4, SUM(shanten_5) AS shanten_5,
    SUM(shanten_6) AS shanten_6, SUM(declarations) AS declarations, SUM(wins) AS wins
  FROM by_turn GROUP BY turn
),
s AS (
  SELECT *, CAST(units AS DOUBLE) AS n, CAST(shanten_0 AS DOUBLE) / units AS p FROM t
)
SELECT turn, units, shanten_0, shanten_1, shanten_2, shanten_3, shanten_4, shanten_5,
  shanten_6, declarations, wins,
  p AS share_0,
  CASE WHEN units = 0 THEN NULL WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS tenpai_lo,
  CASE WHEN units = 0 THEN NULL WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS tenpai_hi,
  shanten_1 / n AS share_1, shanten_2 / n AS share_2, shanten_3 / n AS share_3,
  shanten_4 / n AS share_4, shanten_5 / n AS share_5, shanten_6 / n AS share_6,
  (shanten_1 + 2 * shanten_2 + 3 * shanten_3 + 4 * shanten_4 + 5 * shanten_5 + 6 * shanten_6) / n
    AS mean_shanten,
  declarations / n AS declaration_rate, wins / n AS win_rate
FROM s ORDER BY turn
