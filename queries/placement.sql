-- §5 Placement rates and average placement per seat (0..3; 0..2 in a three-player table's
-- report, whose fourth seat has no place, §24).
WITH p AS (
  SELECT 0 AS seat, place_0 AS place FROM games
  UNION ALL SELECT 1 AS seat, place_1 AS place FROM games
  UNION ALL SELECT 2 AS seat, place_2 AS place FROM games
  UNION ALL SELECT 3 AS seat, place_3 AS place FROM games WHERE place_3 > 0
)
SELECT seat, COUNT(*) AS games,
  AVG(CASE WHEN place = 1 THEN 1.0 ELSE 0.0 END) AS first_rate,
  AVG(CASE WHEN place = 2 THEN 1.0 ELSE 0.0 END) AS second_rate,
  AVG(CASE WHEN place = 3 THEN 1.0 ELSE 0.0 END) AS third_rate,
  AVG(CASE WHEN place = 4 THEN 1.0 ELSE 0.0 END) AS fourth_rate,
  AVG(CAST(place AS DOUBLE)) AS average_place
FROM p GROUP BY seat ORDER BY seat
