-- §20 Ron or tsumo by winning kind. Table: win_kinds (one row per AGARI record; state
-- `riichi` = the winner declared in this hand, `dama` = no chi, pon or daiminkan and no
-- declaration, `open` = the rest; class of the winning kind: `honour`, `1/9`, `2/8`, `3/7`,
-- `4/6`, `5`). Rows by state (riichi, dama, open) and class: wins, rons and the ron share with
-- its 95% Wilson interval.
WITH rs_cells AS (
  SELECT state, class, CAST(COUNT(*) AS BIGINT) AS wins,
    CAST(SUM(CASE WHEN ron THEN 1 ELSE 0 END) AS BIGINT) AS rons
  FROM win_kinds GROUP BY state, class
)
SELECT state, class, wins, rons,
  CASE WHEN wins > 0 THEN CAST(rons AS DOUBLE) / wins END AS share,
  CASE WHEN wins = 0 THEN NULL WHEN rons <= 0 THEN 0.0 ELSE ((CAST(rons AS DOUBLE) / wins) + 1.9208 / CAST(wins AS DOUBLE) - 1.96 * SQRT((CAST(rons AS DOUBLE) / wins) * (1 - (CAST(rons AS DOUBLE) / wins)) / CAST(wins AS DOUBLE) + 0.9604 / (CAST(wins AS DOUBLE) * CAST(wins AS DOUBLE)))) / (1 + 3.8416 / CAST(wins AS DOUBLE)) END AS share_lo,
  CASE WHEN wins = 0 THEN NULL WHEN rons >= wins THEN 1.0 ELSE ((CAST(rons AS DOUBLE) / wins) + 1.9208 / CAST(wins AS DOUBLE) + 1.96 * SQRT((CAST(rons AS DOUBLE) / wins) * (1 - (CAST(rons AS DOUBLE) / wins)) / CAST(wins AS DOUBLE) + 0.9604 / (CAST(wins AS DOUBLE) * CAST(wins AS DOUBLE)))) / (1 + 3.8416 / CAST(wins AS DOUBLE)) END AS share_hi
FROM rs_cells
ORDER BY CASE state WHEN 'riichi' THEN 0 WHEN 'dama' THEN 1 ELSE 2 END,
  CASE class WHEN 'honour' THEN 0 WHEN '1/9' THEN 1 WHEN '2/8' THEN 2 WHEN '3/7' THEN 3
    WHEN '4/6' THEN 4 ELSE 5 END
