-- §14 Records: each maximum of the corpus (or slice), where it happened (game_id, hand,
-- seat where they apply), and how many share it (`ties`: games, seats' final scores, wins,
-- hands, rivers); the first by log id, hand and seat wins a tie (below). Records: hands in a game, a final score, a win's points (ten[1]), yaku entries
-- in one win (every entry of yaku and yakuman, dora entries included), han of a non-yakuman
-- win, honba at a hand's start, riichi sticks on the table at a win (the hand's starting
-- sticks plus the declarations established before the win), uncalled discards in one river
-- at a hand's end, melds on the table at a hand's end. Tables: games, hands, wins, hand_ends (ingest --with development).
-- Portable form (polars, DuckDB, Spark SQL): the first of the tied rows is chosen by
-- ROW_NUMBER() over an explicit order, not by FIRST() in frame order (which DuckDB and Spark do
-- not keep): games by game_id, hands by (game_id, hand), wins by (game_id, hand, the winner's
-- seat counted from the discarder: the AGARI records' order in a double ron). That is the
-- frames' row order whenever the inputs' sorted paths list the games in game_id order (as
-- Tenhou's file names do); haifu could write an explicit ordinal to make it hold always.
WITH top AS (
  SELECT game_id, GREATEST(score_0, score_1, score_2, score_3) AS v,
    CASE WHEN score_0 = GREATEST(score_0, score_1, score_2, score_3) THEN 0
         WHEN score_1 = GREATEST(score_0, score_1, score_2, score_3) THEN 1
         WHEN score_2 = GREATEST(score_0, score_1, score_2, score_3) THEN 2 ELSE 3 END AS seat
  FROM games
),
ties AS (
  -- Seats of one game on the same top score each count.
  SELECT SUM((CASE WHEN score_0 = m.best THEN 1 ELSE 0 END) + (CASE WHEN score_1 = m.best THEN 1 ELSE 0 END)
    + (CASE WHEN score_2 = m.best THEN 1 ELSE 0 END) + (CASE WHEN score_3 = m.best THEN 1 ELSE 0 END)) AS n
  FROM games CROSS JOIN (SELECT MAX(v) AS best FROM top) m
),
-- Each record's tied rows, numbered in order (rn = 1: the one named).
t1 AS (
  SELECT m.best AS value, x.game_id, ROW_NUMBER() OVER (ORDER BY x.game_id) AS rn
  FROM games x CROSS JOIN (SELECT MAX(hands) AS best FROM games) m WHERE x.hands = m.best
),
t2 AS (
  SELECT m.best AS value, x.game_id, x.seat, t.n, ROW_NUMBER() OVER (ORDER BY x.game_id) AS rn
  FROM top x CROSS JOIN (SELECT MAX(v) AS best FROM top) m CROSS JOIN ties t WHERE x.v = m.best
),
wn AS (
  SELECT game_id, hand, seat, points, entries, han, sticks,
    COALESCE((seat - discarder + 4) % 4, 0) AS k
  FROM wins
),
t3 AS (
  SELECT m.best AS value, x.game_id, x.hand, x.seat,
    ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand, x.k) AS rn
  FROM wn x CROSS JOIN (SELECT MAX(points) AS best FROM wins) m WHERE x.points = m.best
),
t4 AS (
  SELECT m.best AS value, x.game_id, x.hand, x.seat,
    ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand, x.k) AS rn
  FROM wn x CROSS JOIN (SELECT MAX(entries) AS best FROM wins) m WHERE x.entries = m.best
),
t5 AS (
  SELECT m.best AS value, x.game_id, x.hand, x.seat,
    ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand, x.k) AS rn
  FROM wn x CROSS JOIN (SELECT MAX(han) AS best FROM wins) m WHERE x.han = m.best
),
t6 AS (
  SELECT m.best AS value, x.game_id, x.hand, ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand) AS rn
  FROM hands x CROSS JOIN (SELECT MAX(honba) AS best FROM hands) m WHERE x.honba = m.best
),
t7 AS (
  SELECT m.best AS value, x.game_id, x.hand, x.seat,
    ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand, x.k) AS rn
  FROM wn x CROSS JOIN (SELECT MAX(sticks) AS best FROM wins) m WHERE x.sticks = m.best
),
t8 AS (
  SELECT m.best AS value, x.game_id, x.hand, x.longest_river_seat AS seat, x.longest_rivers,
    ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand) AS rn
  FROM hand_ends x CROSS JOIN (SELECT MAX(longest_river) AS best FROM hand_ends) m
  WHERE x.longest_river = m.best
),
t9 AS (
  SELECT m.best AS value, x.game_id, x.hand, ROW_NUMBER() OVER (ORDER BY x.game_id, x.hand) AS rn
  FROM hand_ends x CROSS JOIN (SELECT MAX(melds) AS best FROM hand_ends) m WHERE x.melds = m.best
),
-- One row per record even without rows (value and place null, ties 0 or null, as FIRST gave).
r AS (
  SELECT 1 AS o, 'hands-in-a-game' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id,
    CAST(NULL AS INT) AS hand, CAST(NULL AS INT) AS seat, COUNT(*) AS ties
  FROM t1
  UNION ALL
  SELECT 2 AS o, 'final-score' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id,
    CAST(NULL AS INT) AS hand, MAX(CASE WHEN rn = 1 THEN seat END) AS seat, MAX(n) AS ties
  FROM t2
  UNION ALL
  SELECT 3 AS o, 'win-points' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    MAX(CASE WHEN rn = 1 THEN seat END) AS seat, COUNT(*) AS ties
  FROM t3
  UNION ALL
  SELECT 4 AS o, 'yaku-entries' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    MAX(CASE WHEN rn = 1 THEN seat END) AS seat, COUNT(*) AS ties
  FROM t4
  UNION ALL
  SELECT 5 AS o, 'han' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    MAX(CASE WHEN rn = 1 THEN seat END) AS seat, COUNT(*) AS ties
  FROM t5
  UNION ALL
  SELECT 6 AS o, 'honba' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    CAST(NULL AS INT) AS seat, COUNT(*) AS ties
  FROM t6
  UNION ALL
  SELECT 7 AS o, 'sticks-at-a-win' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    MAX(CASE WHEN rn = 1 THEN seat END) AS seat, COUNT(*) AS ties
  FROM t7
  UNION ALL
  SELECT 8 AS o, 'river-discards' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    MAX(CASE WHEN rn = 1 THEN seat END) AS seat, SUM(longest_rivers) AS ties
  FROM t8
  UNION ALL
  SELECT 9 AS o, 'melds-on-table' AS record, MAX(value) AS value,
    MAX(CASE WHEN rn = 1 THEN game_id END) AS game_id, MAX(CASE WHEN rn = 1 THEN hand END) AS hand,
    CAST(NULL AS INT) AS seat, COUNT(*) AS ties
  FROM t9
)
SELECT record, value, game_id, hand, seat, ties FROM r ORDER BY o
