-- §14 Records: each maximum of the corpus (or slice), where it happened (game_id, hand,
-- seat where they apply), and how many share it (`ties`: games, seats' final scores, wins,
-- hands, rivers); the first by log id, hand and seat wins a tie (below). Records: hands in a game, a final score, a win's points (ten[1]), yaku entries
-- in one win (every entry of yaku and yakuman, dora entries included), han of a non-yakuman
-- win, honba at a hand's start, riichi sticks on the table at a win (the hand's starting
-- sticks plus the declarations established before the win), uncalled discards in one river
-- at a hand's end, melds on the table at a hand's end. Tables: games, hands, wins, hand_ends (ingest --with development).
-- Portable form (polars, DuckDB, Spark SQL), in memory bounded whatever the corpus: the rows of
-- each record are grouped by its value (a few hundred groups; games, hands and hand_ends once by
-- the values of both their records), each group keeping its rows' count and least key, and
-- each record's largest value and first row come from those groups. The first of the tied rows is the least key: games by
-- game_id, hands by (game_id, hand), wins by (game_id, hand, the winner's seat counted from the
-- discarder: the AGARI records' order in a double ron). A key is game_id, a tab, then six
-- digits: 1, the hand (three digits), that count, the seat; it orders as (game_id, hand,
-- count) whenever no log id holds a character below the tab. That is the frames' row order
-- whenever the inputs' sorted paths list the games in game_id order (as Tenhou's file names
-- do). Filtering a frame by its own maximum instead holds its rows while the maximum is
-- computed, and grouping wins by its four records' values at once (thousands of groups) holds
-- a buffer of keys per group (docs/scale.md).
WITH gm AS (
  -- Each game: its hands, its top final score, the first seat on it and how many seats are.
  SELECT hands, top_score, COUNT(*) AS games, SUM(n) AS seats, MIN(key) AS first FROM (
    SELECT hands, GREATEST(score_0, score_1, score_2, score_3) AS top_score,
      game_id || '	' || CAST(100000 + CASE WHEN score_0 = GREATEST(score_0, score_1, score_2, score_3) THEN 0
        WHEN score_1 = GREATEST(score_0, score_1, score_2, score_3) THEN 1
        WHEN score_2 = GREATEST(score_0, score_1, score_2, score_3) THEN 2 ELSE 3 END AS STRING) AS key,
      (CASE WHEN score_0 = GREATEST(score_0, score_1, score_2, score_3) THEN 1 ELSE 0 END)
        + (CASE WHEN score_1 = GREATEST(score_0, score_1, score_2, score_3) THEN 1 ELSE 0 END)
        + (CASE WHEN score_2 = GREATEST(score_0, score_1, score_2, score_3) THEN 1 ELSE 0 END)
        + (CASE WHEN score_3 = GREATEST(score_0, score_1, score_2, score_3) THEN 1 ELSE 0 END) AS n
    FROM games
  ) x GROUP BY hands, top_score
),
wk AS (
  SELECT points, entries, han, sticks, game_id || '	'
    || CAST(100000 + 100 * hand + 10 * COALESCE((seat - discarder + 4) % 4, 0) + seat AS STRING) AS key
  FROM wins
),
hd AS (
  SELECT honba, COUNT(*) AS hands, MIN(key) AS first FROM (
    SELECT honba, game_id || '	' || CAST(100000 + 100 * hand AS STRING) AS key FROM hands
  ) x GROUP BY honba
),
he AS (
  SELECT longest_river, melds, COUNT(*) AS hands, SUM(longest_rivers) AS rivers, MIN(key) AS first
  FROM (
    SELECT longest_river, melds, longest_rivers,
      game_id || '	' || CAST(100000 + 100 * hand + longest_river_seat AS STRING) AS key
    FROM hand_ends
  ) x GROUP BY longest_river, melds
),
-- Each record's candidates: (record o, value, rows or seats on it, least key). The groups of
-- games and hand_ends are crossed with their two records (a CTE is read at every use: one read
-- of each frame); wins is read once per record.
c AS (
  SELECT r.o, CASE r.o WHEN 1 THEN hands ELSE top_score END AS value,
    CASE r.o WHEN 1 THEN games ELSE seats END AS n, first
  FROM gm CROSS JOIN (SELECT 1 AS o UNION ALL SELECT 2 AS o) r
  UNION ALL
  SELECT 3 AS o, points AS value, COUNT(*) AS n, MIN(key) AS first FROM wk GROUP BY points
  UNION ALL
  SELECT 4 AS o, entries AS value, COUNT(*) AS n, MIN(key) AS first FROM wk GROUP BY entries
  UNION ALL
  SELECT 5 AS o, han AS value, COUNT(*) AS n, MIN(key) AS first FROM wk GROUP BY han
  UNION ALL
  SELECT 7 AS o, sticks AS value, COUNT(*) AS n, MIN(key) AS first FROM wk GROUP BY sticks
  UNION ALL
  SELECT 6 AS o, honba AS value, hands AS n, first FROM hd
  UNION ALL
  SELECT r.o, CASE r.o WHEN 8 THEN longest_river ELSE melds END AS value,
    CASE r.o WHEN 8 THEN rivers ELSE hands END AS n, first
  FROM he CROSS JOIN (SELECT 8 AS o UNION ALL SELECT 9 AS o) r
),
g AS (
  SELECT o, value, SUM(n) AS ties, MIN(first) AS first FROM c WHERE value IS NOT NULL GROUP BY o, value
),
best AS (
  SELECT o, value, ties, first, ROW_NUMBER() OVER (PARTITION BY o ORDER BY value DESC) AS rn FROM g
),
-- One row per record even without rows (value and place null; ties 0, or null where a sum).
names AS (
  SELECT 1 AS o, 'hands-in-a-game' AS record UNION ALL SELECT 2 AS o, 'final-score' AS record
  UNION ALL SELECT 3 AS o, 'win-points' AS record UNION ALL SELECT 4 AS o, 'yaku-entries' AS record
  UNION ALL SELECT 5 AS o, 'han' AS record UNION ALL SELECT 6 AS o, 'honba' AS record
  UNION ALL SELECT 7 AS o, 'sticks-at-a-win' AS record
  UNION ALL SELECT 8 AS o, 'river-discards' AS record UNION ALL SELECT 9 AS o, 'melds-on-table' AS record
)
SELECT m.record, b.value, SUBSTR(b.first, 1, LENGTH(b.first) - 7) AS game_id,
  CASE WHEN m.o > 2 THEN CAST(SUBSTR(b.first, LENGTH(b.first) - 4, 3) AS INT) END AS hand,
  CASE WHEN m.o IN (2, 3, 4, 5, 7, 8) THEN CAST(SUBSTR(b.first, LENGTH(b.first), 1) AS INT) END AS seat,
  CASE WHEN b.o IS NULL AND m.o NOT IN (2, 8) THEN 0 ELSE b.ties END AS ties
FROM names m LEFT JOIN (SELECT * FROM best WHERE rn = 1) b ON m.o = b.o
ORDER BY m.o
