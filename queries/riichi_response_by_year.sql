-- §1 Riichi response by calendar year (docs/definitions.md §9): one block per year of the game's
-- date, the first four digits of its log id (`games.date`; a game without a log id is in the
-- block whose year is null). Per year and outcome: units, share of the year's units with a 95%
-- Wilson interval, mean income with a 95% normal interval (standard deviation from exact
-- integer sums), and units per (hand × seat considered) of that year (params.seats: 4, or 1
-- with --seat). The year is read from game_id in each frame, so no frame is joined by game.
-- Portable form: a log id `^[0-9]{10}gm-` is told by SUBSTR, = and REPLACE (no regular
-- expression: DuckDB has no REGEXP_LIKE), once per distinct first 13 characters (the rows are
-- summed by those first: a few thousand, where the frame has hundreds of thousands of rows).
WITH rp AS (
  SELECT SUBSTR(game_id, 1, 13) AS prefix, outcome, COUNT(*) AS units,
         SUM(CAST(income AS BIGINT)) AS s1, SUM(CAST(income AS BIGINT) * CAST(income AS BIGINT)) AS s2
  FROM riichi_response
  GROUP BY SUBSTR(game_id, 1, 13), outcome
),
rr AS (
  SELECT CASE WHEN SUBSTR(prefix, 11, 3) = 'gm-'
             AND REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(SUBSTR(prefix, 1, 10), '0', ''), '1', ''), '2', ''), '3', ''), '4', ''), '5', ''), '6', ''), '7', ''), '8', ''), '9', '') = ''
              THEN SUBSTR(prefix, 1, 4) END AS year,
         outcome, units, s1, s2
  FROM rp
),
by_outcome AS (
  SELECT year, outcome, SUM(units) AS units, SUM(s1) AS s1, SUM(s2) AS s2
  FROM rr
  GROUP BY year, outcome
),
hp AS (
  SELECT SUBSTR(game_id, 1, 13) AS prefix, COUNT(*) AS hands FROM hands GROUP BY SUBSTR(game_id, 1, 13)
),
hy AS (
  SELECT CASE WHEN SUBSTR(prefix, 11, 3) = 'gm-'
             AND REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(SUBSTR(prefix, 1, 10), '0', ''), '1', ''), '2', ''), '3', ''), '4', ''), '5', ''), '6', ''), '7', ''), '8', ''), '9', '') = ''
              THEN SUBSTR(prefix, 1, 4) ELSE '' END AS year_key,
         hands
  FROM hp
),
hands_by_year AS (
  SELECT year_key, SUM(hands) AS hands FROM hy GROUP BY year_key
),
cells AS (
  SELECT year, outcome, units, s1, s2 FROM by_outcome
  UNION ALL
  SELECT year, 'all' AS outcome, SUM(units) AS units, SUM(s1) AS s1, SUM(s2) AS s2
  FROM by_outcome GROUP BY year
),
stats AS (
  SELECT c.year, c.outcome, c.units,
         CAST(SUM(CASE WHEN c.outcome = 'all' THEN c.units ELSE 0 END) OVER (PARTITION BY c.year) AS DOUBLE) AS n,
         CAST(c.s1 AS DOUBLE) / CAST(c.units AS DOUBLE) AS mean_income,
         CASE WHEN c.units > 1
              THEN SQRT(GREATEST((CAST(c.s2 AS DOUBLE) - CAST(c.s1 AS DOUBLE) * CAST(c.s1 AS DOUBLE) / CAST(c.units AS DOUBLE))
                             / CAST(c.units - 1 AS DOUBLE), 0.0))
         END AS sd,
         CAST(c.units AS DOUBLE) / (CAST(h.hands AS DOUBLE) * params.seats) AS per_seat_hand
  FROM cells c LEFT JOIN hands_by_year h ON COALESCE(c.year, '') = h.year_key CROSS JOIN params
),
shares AS (
  SELECT *, CAST(units AS DOUBLE) / n AS p FROM stats
)
SELECT
  year,
  outcome,
  units,
  p AS share,
  CASE WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / n - 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_lo,
  CASE WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / n + 1.96 * SQRT(p * (1 - p) / n + 0.9604 / (n * n))) / (1 + 3.8416 / n) END AS share_hi,
  mean_income,
  mean_income - 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_lo,
  mean_income + 1.96 * sd / SQRT(CAST(units AS DOUBLE)) AS mean_income_hi,
  per_seat_hand AS rate_per_seat_hand
FROM shares
ORDER BY year NULLS LAST, CASE outcome WHEN 'win' THEN 1 WHEN 'deal_in' THEN 2 WHEN 'tsumo_other' THEN 3
  WHEN 'ron_other' THEN 4 WHEN 'draw' THEN 5 ELSE 6 END
