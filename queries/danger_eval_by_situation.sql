-- §4 metrics sliced by the riichi's turn at declaration (1-6, 7-12, 13+) and whether the
-- riichi seat is dealer, per moment and estimator.
SELECT moment, estimator,
  CASE WHEN riichi_turn <= 6 THEN '1-6' WHEN riichi_turn <= 12 THEN '7-12' ELSE '13+' END AS riichi_turn,
  CASE WHEN riichi_is_dealer THEN 'dealer' ELSE 'non-dealer' END AS riichi_seat,
  COUNT(*) AS situations,
  AVG(rmse) AS rmse, AVG(cross_entropy) AS cross_entropy, AVG(auc) AS auc, AVG(brier) AS brier
FROM danger_eval
GROUP BY moment, estimator, 3, 4
ORDER BY moment, estimator, riichi_turn, riichi_seat
