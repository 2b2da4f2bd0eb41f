-- §4 metrics sliced by the riichi's turn at declaration (1-6, 7-12, 13+) and whether the
-- riichi seat is dealer, per moment and estimator: the slices of danger_eval_summary, where
-- haifu sums the metrics exactly while scoring (see danger_eval.sql).
SELECT moment, estimator, riichi_turn, riichi_seat, situations, rmse, cross_entropy, auc, brier
FROM danger_eval_summary
WHERE riichi_turn <> 'all'
ORDER BY moment, estimator, riichi_turn, riichi_seat
