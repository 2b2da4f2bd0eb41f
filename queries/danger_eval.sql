-- §4 danger-table validation: per moment and estimator, the number of situations scored and
-- the metrics averaged over them (RMSE, cross-entropy, Brier: lower is better; AUC: higher).
-- The means come from danger_eval_summary, where haifu sums them exactly while scoring (a
-- float AVG over the danger_eval frame gives the same numbers to about 1e-13, with last
-- digits that vary from run to run).
SELECT moment, estimator, situations, rmse, cross_entropy, auc, brier
FROM danger_eval_summary
WHERE riichi_turn = 'all' AND riichi_seat = 'all'
ORDER BY moment,
  CASE estimator WHEN 'none' THEN 0 WHEN 'combo' THEN 1 WHEN 'dennou-old' THEN 2
    WHEN 'dennou' THEN 3 WHEN 'dennou-new' THEN 4 WHEN 'phoenix-table' THEN 5 ELSE 6 END,
  estimator
