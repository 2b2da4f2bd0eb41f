-- §4 metrics sliced by the riichi's turn at declaration (1-6, 7-12, 13+) and whether the
-- riichi seat is dealer, per moment and estimator. Grouped on the raw columns; the labels
-- are put on the few grouped rows.
WITH g AS (
  SELECT moment, estimator,
    CASE WHEN riichi_turn <= 6 THEN 0 WHEN riichi_turn <= 12 THEN 1 ELSE 2 END AS turn_bucket,
    riichi_is_dealer,
    COUNT(*) AS situations,
    AVG(rmse) AS rmse, AVG(cross_entropy) AS cross_entropy, AVG(auc) AS auc, AVG(brier) AS brier
  FROM danger_eval
  GROUP BY moment, estimator,
    CASE WHEN riichi_turn <= 6 THEN 0 WHEN riichi_turn <= 12 THEN 1 ELSE 2 END, riichi_is_dealer
)
SELECT moment, estimator,
  CASE turn_bucket WHEN 0 THEN '1-6' WHEN 1 THEN '7-12' ELSE '13+' END AS riichi_turn,
  CASE WHEN riichi_is_dealer THEN 'dealer' ELSE 'non-dealer' END AS riichi_seat,
  situations, rmse, cross_entropy, auc, brier
FROM g
ORDER BY moment, estimator, riichi_turn, riichi_seat
