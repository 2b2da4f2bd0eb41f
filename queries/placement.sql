-- §5 Placement rates and average placement per seat (0..3; 0..2 in a three-player table's
-- report, whose fourth seat has no place, §24).
-- Portable form (polars, DuckDB, Spark SQL): AVG over CAST(1 AS DOUBLE) / CAST(0 AS DOUBLE), not 1.0 / 0.0 (DECIMAL(2,1) in Spark,
-- whose AVG is then DECIMAL(6,5): rates rounded to 5 digits).
WITH p AS (
  SELECT 0 AS seat, place_0 AS place FROM games
  UNION ALL SELECT 1 AS seat, place_1 AS place FROM games
  UNION ALL SELECT 2 AS seat, place_2 AS place FROM games
  UNION ALL SELECT 3 AS seat, place_3 AS place FROM games WHERE place_3 > 0
)
SELECT seat, COUNT(*) AS games,
  AVG(CASE WHEN place = 1 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS first_rate,
  AVG(CASE WHEN place = 2 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS second_rate,
  AVG(CASE WHEN place = 3 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS third_rate,
  AVG(CASE WHEN place = 4 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) AS fourth_rate,
  AVG(CAST(place AS DOUBLE)) AS average_place
FROM p GROUP BY seat ORDER BY seat
