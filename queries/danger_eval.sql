-- §4 danger-table validation: per moment and estimator, the number of situations scored and
-- the metrics averaged over them (RMSE, cross-entropy, Brier: lower is better; AUC: higher).
SELECT moment, estimator, COUNT(*) AS situations,
  AVG(rmse) AS rmse, AVG(cross_entropy) AS cross_entropy, AVG(auc) AS auc, AVG(brier) AS brier
FROM danger_eval
GROUP BY moment, estimator
ORDER BY moment,
  CASE estimator WHEN 'none' THEN 0 WHEN 'combo' THEN 1 WHEN 'dennou-old' THEN 2
    WHEN 'dennou' THEN 3 WHEN 'dennou-new' THEN 4 WHEN 'phoenix-table' THEN 5 ELSE 6 END,
  estimator
