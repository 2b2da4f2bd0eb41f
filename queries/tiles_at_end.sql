-- §12 Where the tiles are at the end of a hand. First one row per type (1m..9m, 1p..9p,
-- 1s..9s, 1z..7z, then the red fives 0m, 0p, 0s; a red five also counts as its kind's 5):
-- copies in the concealed hands, in melds, in rivers (uncalled discards, ron tiles
-- included) and in the wall (live and dead), summed over the hands, and each as a share of
-- the copies (4 × hands; 1 × hands for a red type, in games with red fives). Then one row per
-- number (1..9 with the suits pooled, 0 the red fives, z the honours pooled): in_hands
-- (concealed and meld tiles but each meld's called tile) and in_rivers (every river tile,
-- called ones included), and hand_share = in_hands / (in_hands + in_rivers) with its 95%
-- Wilson interval. A type row has no number columns and a number row no type columns (null).
-- Table: tiles_at_end (per game and type).
-- Portable form (polars, DuckDB, Spark SQL): CAST(... AS STRING), not AS VARCHAR (Spark requires VARCHAR(n)); a share over 0 copies
-- (red types without red fives) is NaN by CASE, as polars' 0/0 gives (Spark's ANSI mode fails).
WITH t AS (
  SELECT type, SUM(hand) AS hand, SUM(melds) AS melds, SUM(river) AS river, SUM(wall) AS wall,
    SUM(copies) AS copies, SUM(in_hands) AS in_hands, SUM(in_rivers) AS in_rivers
  FROM tiles_at_end GROUP BY type
),
typed AS (
  SELECT *,
    CASE SUBSTR(type, 2, 1) WHEN 'm' THEN 0 WHEN 'p' THEN 1 WHEN 's' THEN 2 ELSE 3 END AS suit,
    CAST(SUBSTR(type, 1, 1) AS INT) AS digit
  FROM t
),
numbered AS (
  SELECT CASE WHEN suit = 3 THEN 'z' ELSE SUBSTR(type, 1, 1) END AS number,
    CASE WHEN suit = 3 THEN 10 ELSE digit END AS o2, in_hands, in_rivers
  FROM typed
),
numbers AS (
  SELECT number, MIN(o2) AS o2, SUM(in_hands) AS in_hands, SUM(in_rivers) AS in_rivers
  FROM numbered GROUP BY number
),
split AS (
  SELECT number, o2, in_hands, in_rivers, CAST(in_hands + in_rivers AS DOUBLE) AS n,
    CASE WHEN in_hands + in_rivers = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(in_hands AS DOUBLE) / (in_hands + in_rivers) END AS p
  FROM numbers
)
SELECT type, hand, melds, river, wall, hand_share, melds_share, river_share, wall_share,
  number, in_hands, in_rivers, in_hands_share, in_hands_share_lo, in_hands_share_hi
FROM (
  SELECT 0 AS part, CASE WHEN digit = 0 THEN 4 ELSE suit END AS o1,
    CASE WHEN digit = 0 THEN suit ELSE digit END AS o2,
    type, hand, melds, river, wall,
    CASE WHEN copies = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(hand AS DOUBLE) / copies END AS hand_share,
    CASE WHEN copies = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(melds AS DOUBLE) / copies END AS melds_share,
    CASE WHEN copies = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(river AS DOUBLE) / copies END AS river_share,
    CASE WHEN copies = 0 THEN CAST('NaN' AS DOUBLE) ELSE CAST(wall AS DOUBLE) / copies END AS wall_share,
    CAST(NULL AS STRING) AS number, CAST(NULL AS BIGINT) AS in_hands,
    CAST(NULL AS BIGINT) AS in_rivers, CAST(NULL AS DOUBLE) AS in_hands_share,
    CAST(NULL AS DOUBLE) AS in_hands_share_lo, CAST(NULL AS DOUBLE) AS in_hands_share_hi
  FROM typed
  UNION ALL
  SELECT 1 AS part, 0 AS o1, o2,
    CAST(NULL AS STRING) AS type, CAST(NULL AS BIGINT) AS hand, CAST(NULL AS BIGINT) AS melds,
    CAST(NULL AS BIGINT) AS river, CAST(NULL AS BIGINT) AS wall,
    CAST(NULL AS DOUBLE) AS hand_share, CAST(NULL AS DOUBLE) AS melds_share,
    CAST(NULL AS DOUBLE) AS river_share, CAST(NULL AS DOUBLE) AS wall_share,
    number, in_hands, in_rivers, p AS in_hands_share,
    CASE WHEN n = 0 THEN NULL WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS in_hands_share_lo,
    CASE WHEN n = 0 THEN NULL WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS in_hands_share_hi
  FROM split
) ORDER BY part, o1, o2
