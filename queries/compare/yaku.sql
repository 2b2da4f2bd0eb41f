-- haifu compare: §10 yaku (queries/yaku.sql) as moments. Row `all`: mean_points (AGARI
-- points over the wins) and mean_han (over the wins with a han count, i.e. not yakuman);
-- then per yaku (and the pooled `yakuhai`): win_share, the wins that count it at least once
-- among all wins. Tables: win_yaku, wins (written with --with development).
-- As queries/yaku.sql, without a step that groups by win.
WITH by_yaku AS (
  SELECT id, yaku, SUM(CASE WHEN count > 0 THEN 1 ELSE 0 END) AS wins_with
  FROM win_yaku GROUP BY id, yaku
),
yakuhai AS (
  SELECT 99 AS id, 'yakuhai' AS yaku,
    COALESCE(SUM(CASE WHEN (' ' || yaku) LIKE '% seat-wind-%' OR (' ' || yaku) LIKE '% round-wind-%'
      OR (' ' || yaku) LIKE '% haku:%' OR (' ' || yaku) LIKE '% hatsu:%' OR (' ' || yaku) LIKE '% chun:%' THEN 1 ELSE 0 END), 0) AS wins_with
  FROM wins
),
totals AS (
  SELECT COUNT(*) AS wins,
         SUM(CAST(points AS DOUBLE)) AS p1, SUM(CAST(points AS DOUBLE) * CAST(points AS DOUBLE)) AS p2,
         COUNT(han) AS hans, SUM(CAST(han AS DOUBLE)) AS h1,
         SUM(CAST(han AS DOUBLE) * CAST(han AS DOUBLE)) AS h2
  FROM wins
),
rows AS (
  SELECT 0 AS part, id, yaku, wins_with FROM by_yaku
  UNION ALL
  SELECT 1 AS part, id, yaku, wins_with FROM yakuhai
),
m AS (
  SELECT -1 AS part, 1 AS k, -1 AS id, 0 AS wins_with, 'all' AS yaku, 'mean_points' AS measure,
         'mean' AS stat, wins AS n, p1 AS s1, p2 AS s2 FROM totals
  UNION ALL
  SELECT -1 AS part, 2 AS k, -1 AS id, 0 AS wins_with, 'all' AS yaku, 'mean_han' AS measure,
         'mean' AS stat, hans AS n, h1 AS s1, h2 AS s2 FROM totals
  UNION ALL
  SELECT r.part, 1 AS k, r.id, r.wins_with, r.yaku, 'win_share' AS measure, 'share' AS stat,
         t.wins AS n, CAST(r.wins_with AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2
  FROM rows r CROSS JOIN totals t
)
SELECT yaku, measure, stat, n, s1, s2 FROM m ORDER BY part, wins_with DESC, id, k
