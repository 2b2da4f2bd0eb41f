-- haifu compare: §2 wait danger as moments, from the rows of the `wait-danger` report itself
-- (queries/wait_danger.sql, which haifu compare runs as the table `report`): per (pattern,
-- level), rate (wait units among the units) and rate_tanki … rate_ryanmen (wait units of that
-- shape among the units), every one a share of n = units.
-- The derived table's name is this file's own: polars' SQL keeps such a name in its context
-- after the query, where another query's table of the same name would meet it.
SELECT pattern, level, measure, stat, n, s1, s2 FROM (
  SELECT pattern, level, 0 AS k, 'rate' AS measure, 'share' AS stat, units AS n,
    CAST(waits AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT pattern, level, 1 AS k, 'rate_tanki' AS measure, 'share' AS stat, units AS n,
    CAST(tanki AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT pattern, level, 2 AS k, 'rate_shanpon' AS measure, 'share' AS stat, units AS n,
    CAST(shanpon AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT pattern, level, 3 AS k, 'rate_kanchan' AS measure, 'share' AS stat, units AS n,
    CAST(kanchan AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT pattern, level, 4 AS k, 'rate_penchan' AS measure, 'share' AS stat, units AS n,
    CAST(penchan AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
  UNION ALL
  SELECT pattern, level, 5 AS k, 'rate_ryanmen' AS measure, 'share' AS stat, units AS n,
    CAST(ryanmen AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM report
) AS wait_danger_moments
ORDER BY CASE level WHEN 'category' THEN 0 WHEN 'excl_genbutsu' THEN 1 ELSE 2 END,
CASE pattern
    WHEN 'honor-0' THEN 0 WHEN 'honor-1' THEN 1 WHEN 'honor-2' THEN 2 WHEN 'honor-3' THEN 3
    WHEN 'honor-4' THEN 4 WHEN 'honor-genbutsu' THEN 5 WHEN '19-musuji' THEN 6
    WHEN '19-suji' THEN 7 WHEN '19-genbutsu' THEN 8 WHEN '28-musuji' THEN 9 WHEN '28-suji' THEN 10
    WHEN '28-genbutsu' THEN 11 WHEN '37-musuji' THEN 12 WHEN '37-suji' THEN 13
    WHEN '37-genbutsu' THEN 14 WHEN '456-musuji' THEN 15 WHEN '456-katasuji' THEN 16
    WHEN '456-nakasuji' THEN 17 WHEN '456-genbutsu' THEN 18 WHEN '19m-0' THEN 19
    WHEN '19m-1' THEN 20 WHEN '19m-2' THEN 21 WHEN '19m-3' THEN 22 WHEN '19m-4' THEN 23
    WHEN '19m-genbutsu' THEN 24 WHEN 'honor' THEN 25 WHEN '19' THEN 26
    WHEN '28' THEN 27 WHEN '37' THEN 28 WHEN '456' THEN 29 ELSE 30 END,
  k
