-- §4 calibration: for bins of 34·w(k), the (situation, kind) pairs and how many were waits;
-- a calibrated estimator has wait_rate ≈ bin value / 34.
SELECT moment, estimator, bin, bin_label, pairs, waits,
  CAST(waits AS DOUBLE) / CAST(pairs AS DOUBLE) AS wait_rate
FROM danger_calibration
WHERE pairs > 0
ORDER BY moment, estimator, bin
