-- §5 Placement rates and average placement per player name (names as in the first UN tag).
WITH p AS (
  SELECT name_0 AS name, place_0 AS place FROM games
  UNION ALL SELECT name_1 AS name, place_1 AS place FROM games
  UNION ALL SELECT name_2 AS name, place_2 AS place FROM games
  UNION ALL SELECT name_3 AS name, place_3 AS place FROM games
)
SELECT name, COUNT(*) AS games,
  AVG(CASE WHEN place = 1 THEN 1.0 ELSE 0.0 END) AS first_rate,
  AVG(CASE WHEN place = 2 THEN 1.0 ELSE 0.0 END) AS second_rate,
  AVG(CASE WHEN place = 3 THEN 1.0 ELSE 0.0 END) AS third_rate,
  AVG(CASE WHEN place = 4 THEN 1.0 ELSE 0.0 END) AS fourth_rate,
  AVG(CAST(place AS DOUBLE)) AS average_place
FROM p GROUP BY name ORDER BY games DESC, name
