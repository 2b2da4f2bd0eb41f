-- haifu compare: §2 wait danger (queries/wait_danger.sql) as moments: per (pattern, level),
-- rate (wait units among the units) and rate_tanki … rate_ryanmen (wait units of that shape
-- among the units), every one a share of n = units. The rows are the report's.
-- Not a portability fix: the pattern order of queries/wait_danger.sql (with the three-player
-- 19m-* categories and group 19m, §24), so a three-player table's rows have one order (with
-- the old list they all sorted as 23 with 456 and came out in any order, on every engine).
WITH units AS (
  -- The one full scan of the frame: units per category.
  SELECT category, COUNT(*) AS units FROM wait_danger GROUP BY category
),
shapes AS (
  -- Wait units only (a few percent of the rows), by shape.
  SELECT category,
         COUNT(*) AS wait,
         SUM(CASE WHEN wait_shape = 'tanki' THEN 1 ELSE 0 END) AS tanki,
         SUM(CASE WHEN wait_shape = 'shanpon' THEN 1 ELSE 0 END) AS shanpon,
         SUM(CASE WHEN wait_shape = 'kanchan' THEN 1 ELSE 0 END) AS kanchan,
         SUM(CASE WHEN wait_shape = 'penchan' THEN 1 ELSE 0 END) AS penchan,
         SUM(CASE WHEN wait_shape = 'ryanmen' THEN 1 ELSE 0 END) AS ryanmen
  FROM wait_danger WHERE is_wait GROUP BY category
),
per_category AS (
  -- Everything below works on these 19 (25) rows.
  SELECT u.category, u.units,
         COALESCE(s.wait, 0) AS wait, COALESCE(s.tanki, 0) AS tanki,
         COALESCE(s.shanpon, 0) AS shanpon, COALESCE(s.kanchan, 0) AS kanchan,
         COALESCE(s.penchan, 0) AS penchan, COALESCE(s.ryanmen, 0) AS ryanmen
  FROM units u LEFT JOIN shapes s ON u.category = s.category
),
w AS (
  SELECT *,
         CASE WHEN category LIKE 'honor%' THEN 'honor' ELSE SPLIT_PART(category, '-', 1) END AS grp,
         category LIKE '%genbutsu' AS genbutsu
  FROM per_category
),
rows AS (
  SELECT category AS pattern, 'category' AS level, units, wait AS waits,
         tanki, shanpon, kanchan, penchan, ryanmen
  FROM w
  UNION ALL
  SELECT grp AS pattern, 'excl_genbutsu' AS level, SUM(units) AS units, SUM(wait) AS waits,
         SUM(tanki) AS tanki, SUM(shanpon) AS shanpon, SUM(kanchan) AS kanchan,
         SUM(penchan) AS penchan, SUM(ryanmen) AS ryanmen
  FROM w WHERE NOT genbutsu GROUP BY grp
  UNION ALL
  SELECT grp AS pattern, 'incl_genbutsu' AS level, SUM(units) AS units, SUM(wait) AS waits,
         SUM(tanki) AS tanki, SUM(shanpon) AS shanpon, SUM(kanchan) AS kanchan,
         SUM(penchan) AS penchan, SUM(ryanmen) AS ryanmen
  FROM w GROUP BY grp
),
o AS (
  SELECT *,
    CASE level WHEN 'category' THEN 0 WHEN 'excl_genbutsu' THEN 1 ELSE 2 END AS lo,
    CASE pattern
      WHEN 'honor-0' THEN 0 WHEN 'honor-1' THEN 1 WHEN 'honor-2' THEN 2 WHEN 'honor-3' THEN 3
      WHEN 'honor-4' THEN 4 WHEN 'honor-genbutsu' THEN 5 WHEN '19-musuji' THEN 6
      WHEN '19-suji' THEN 7 WHEN '19-genbutsu' THEN 8 WHEN '28-musuji' THEN 9 WHEN '28-suji' THEN 10
      WHEN '28-genbutsu' THEN 11 WHEN '37-musuji' THEN 12 WHEN '37-suji' THEN 13
      WHEN '37-genbutsu' THEN 14 WHEN '456-musuji' THEN 15 WHEN '456-katasuji' THEN 16
      WHEN '456-nakasuji' THEN 17 WHEN '456-genbutsu' THEN 18 WHEN '19m-0' THEN 19
      WHEN '19m-1' THEN 20 WHEN '19m-2' THEN 21 WHEN '19m-3' THEN 22 WHEN '19m-4' THEN 23
      WHEN '19m-genbutsu' THEN 24 WHEN 'honor' THEN 25 WHEN '19' THEN 26
      WHEN '28' THEN 27 WHEN '37' THEN 28 WHEN '456' THEN 29 ELSE 30 END AS po
  FROM rows
),
m AS (
  SELECT pattern, level, lo, po, 0 AS k, 'rate' AS measure, 'share' AS stat, units AS n, CAST(waits AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM o
  UNION ALL SELECT pattern, level, lo, po, 1 AS k, 'rate_tanki' AS measure, 'share' AS stat, units AS n, CAST(tanki AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM o
  UNION ALL SELECT pattern, level, lo, po, 2 AS k, 'rate_shanpon' AS measure, 'share' AS stat, units AS n, CAST(shanpon AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM o
  UNION ALL SELECT pattern, level, lo, po, 3 AS k, 'rate_kanchan' AS measure, 'share' AS stat, units AS n, CAST(kanchan AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM o
  UNION ALL SELECT pattern, level, lo, po, 4 AS k, 'rate_penchan' AS measure, 'share' AS stat, units AS n, CAST(penchan AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM o
  UNION ALL SELECT pattern, level, lo, po, 5 AS k, 'rate_ryanmen' AS measure, 'share' AS stat, units AS n, CAST(ryanmen AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2 FROM o
)
SELECT pattern, level, measure, stat, n, s1, s2 FROM m ORDER BY lo, po, k
