-- haifu: keep row order
-- §14 Records: each maximum of the corpus (or slice), where it happened (game_id, hand,
-- seat where they apply), and how many share it (`ties`: games, seats' final scores, wins,
-- hands, rivers); the first in frame order wins a tie. Records: hands in a game, a final score, a win's points (ten[1]), yaku entries
-- in one win (every entry of yaku and yakuman, dora entries included), han of a non-yakuman
-- win, honba at a hand's start, riichi sticks on the table at a win (the hand's starting
-- sticks plus the declarations established before the win), uncalled discards in one river
-- at a hand's end, melds on the table at a hand's end. Tables: games, hands, wins, hand_ends (ingest --with development).
-- The first line makes haifu run this on polars' in-memory engine, which keeps the frames' row
-- order through the filters and FIRST (the streaming engine does not: ties would name any row).
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
r AS (
  SELECT 1 AS o, 'hands-in-a-game' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    CAST(NULL AS INT) AS hand, CAST(NULL AS INT) AS seat, COUNT(*) AS ties
  FROM games x CROSS JOIN (SELECT MAX(hands) AS best FROM games) m WHERE x.hands = m.best
  UNION ALL
  SELECT 2 AS o, 'final-score' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    CAST(NULL AS INT) AS hand, FIRST(x.seat) AS seat, FIRST(t.n) AS ties
  FROM top x CROSS JOIN (SELECT MAX(v) AS best FROM top) m CROSS JOIN ties t WHERE x.v = m.best
  UNION ALL
  SELECT 3 AS o, 'win-points' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, FIRST(x.seat) AS seat, COUNT(*) AS ties
  FROM wins x CROSS JOIN (SELECT MAX(points) AS best FROM wins) m WHERE x.points = m.best
  UNION ALL
  SELECT 4 AS o, 'yaku-entries' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, FIRST(x.seat) AS seat, COUNT(*) AS ties
  FROM wins x CROSS JOIN (SELECT MAX(entries) AS best FROM wins) m WHERE x.entries = m.best
  UNION ALL
  SELECT 5 AS o, 'han' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, FIRST(x.seat) AS seat, COUNT(*) AS ties
  FROM wins x CROSS JOIN (SELECT MAX(han) AS best FROM wins) m WHERE x.han = m.best
  UNION ALL
  SELECT 6 AS o, 'honba' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, CAST(NULL AS INT) AS seat, COUNT(*) AS ties
  FROM hands x CROSS JOIN (SELECT MAX(honba) AS best FROM hands) m WHERE x.honba = m.best
  UNION ALL
  SELECT 7 AS o, 'sticks-at-a-win' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, FIRST(x.seat) AS seat, COUNT(*) AS ties
  FROM wins x CROSS JOIN (SELECT MAX(sticks) AS best FROM wins) m WHERE x.sticks = m.best
  UNION ALL
  SELECT 8 AS o, 'river-discards' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, FIRST(x.longest_river_seat) AS seat, SUM(x.longest_rivers) AS ties
  FROM hand_ends x CROSS JOIN (SELECT MAX(longest_river) AS best FROM hand_ends) m
  WHERE x.longest_river = m.best
  UNION ALL
  SELECT 9 AS o, 'melds-on-table' AS record, FIRST(m.best) AS value, FIRST(x.game_id) AS game_id,
    FIRST(x.hand) AS hand, CAST(NULL AS INT) AS seat, COUNT(*) AS ties
  FROM hand_ends x CROSS JOIN (SELECT MAX(melds) AS best FROM hand_ends) m WHERE x.melds = m.best
)
SELECT record, value, game_id, hand, seat, ties FROM r ORDER BY o
