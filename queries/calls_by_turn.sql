-- §11 Calls by turn: every chi, pon and daiminkan by the caller's turn (its discards before
-- the call's discard) and its open melds just after the call (1..4; an ankan is not one):
-- calls, their share of all calls, and the mean shanten at the call (after a chi or pon the
-- lowest over the hands one discard leaves, a complete hand 0; after a daiminkan its own).
-- Table: calls.
WITH c AS (
  SELECT turn, open_melds, COUNT(*) AS calls, AVG(CAST(shanten AS DOUBLE)) AS mean_shanten,
    SUM(CASE WHEN kind = 'chi' THEN 1 ELSE 0 END) AS chi,
    SUM(CASE WHEN kind = 'pon' THEN 1 ELSE 0 END) AS pon,
    SUM(CASE WHEN kind = 'daiminkan' THEN 1 ELSE 0 END) AS daiminkan
  FROM calls WHERE kind = 'chi' OR kind = 'pon' OR kind = 'daiminkan'
  GROUP BY turn, open_melds
)
SELECT c.turn, c.open_melds, c.calls, CAST(c.calls AS DOUBLE) / a.total AS share,
  c.mean_shanten, c.chi, c.pon, c.daiminkan
FROM c CROSS JOIN (SELECT SUM(calls) AS total FROM c) a
ORDER BY c.turn, c.open_melds
