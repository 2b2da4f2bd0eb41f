-- §10 Yaku of the wins. Tables: win_yaku (one row per entry of an AGARI's yaku and yakuman),
-- wins (one row per AGARI), yaku_names (the §10 table: id, yaku, name).
-- Rows: `all` (every win: mean points, mean han of the non-yakuman wins, yakuman wins), then
-- each yaku seen, most counted first, then the pooled `yakuhai` 翻牌 (ids 10-20).
-- count: the §10 yaku count (an entry counts 1; dora, ura dora and red dora count their han,
-- i.e. tiles); share = count / wins; wins_with: the wins that count it at least once, and
-- win_share = wins_with / wins with its 95% Wilson interval.
-- win_yaku has one row per (win, yaku id) (docs/frames.md), so a row with count > 0 is a win that
-- counts its yaku; the pooled yakuhai's wins are the wins whose `yaku` (wins: `key:han` entries,
-- space-separated) lists a seat wind, a round wind or a dragon. No step groups by win, so the
-- report's memory does not grow with the corpus.
WITH by_yaku AS (
  SELECT id, yaku, SUM(count) AS count, SUM(CASE WHEN count > 0 THEN 1 ELSE 0 END) AS wins_with
  FROM win_yaku GROUP BY id, yaku
),
yakuhai_count AS (
  SELECT COALESCE(SUM(count), 0) AS count FROM win_yaku WHERE id >= 10 AND id <= 20
),
yakuhai_wins AS (
  SELECT COALESCE(SUM(CASE WHEN (' ' || yaku) LIKE '% seat-wind-%' OR (' ' || yaku) LIKE '% round-wind-%'
      OR (' ' || yaku) LIKE '% haku:%' OR (' ' || yaku) LIKE '% hatsu:%' OR (' ' || yaku) LIKE '% chun:%' THEN 1 ELSE 0 END), 0) AS wins_with
  FROM wins
),
yakuhai AS (
  SELECT 99 AS id, 'yakuhai' AS yaku, c.count, w.wins_with
  FROM yakuhai_count c CROSS JOIN yakuhai_wins w
),
totals AS (
  SELECT COUNT(*) AS wins, AVG(CAST(points AS DOUBLE)) AS mean_points,
         AVG(CAST(han AS DOUBLE)) AS mean_han,
         SUM(CASE WHEN yakuman > 0 THEN 1 ELSE 0 END) AS yakuman_wins
  FROM wins
),
rows AS (
  SELECT 0 AS part, b.id, b.yaku, n.name, b.count, b.wins_with
  FROM by_yaku b LEFT JOIN yaku_names n ON b.id = n.id
  UNION ALL
  SELECT 1 AS part, id, yaku, '翻牌' AS name, count, wins_with FROM yakuhai
),
rated AS (
  SELECT r.*, t.wins, CASE WHEN t.wins > 0 THEN CAST(r.wins_with AS DOUBLE) / t.wins END AS p,
    CAST(t.wins AS DOUBLE) AS nw
  FROM rows r CROSS JOIN totals t
)
SELECT yaku, name, count, share, wins_with, win_share, win_share_lo, win_share_hi,
  mean_points, mean_han,
  yakuman_wins
FROM (
  SELECT -1 AS part, -1 AS id, 'all' AS yaku, '和了' AS name, wins AS count,
    CASE WHEN wins > 0 THEN 1.0 END AS share,
    wins AS wins_with, CASE WHEN wins > 0 THEN 1.0 END AS win_share,
    CASE WHEN wins > 0 THEN 1.0 END AS win_share_lo,
    CASE WHEN wins > 0 THEN 1.0 END AS win_share_hi, mean_points, mean_han, yakuman_wins
  FROM totals
  UNION ALL
  SELECT part, id, yaku, name, count,
    CASE WHEN wins > 0 THEN CAST(count AS DOUBLE) / wins END AS share, wins_with,
    p AS win_share,
    CASE WHEN nw = 0 THEN NULL WHEN p <= 0 THEN 0.0 ELSE (p + 1.9208 / nw - 1.96 * SQRT(p * (1 - p) / nw + 0.9604 / (nw * nw))) / (1 + 3.8416 / nw) END AS win_share_lo,
    CASE WHEN nw = 0 THEN NULL WHEN p >= 1 THEN 1.0 ELSE (p + 1.9208 / nw + 1.96 * SQRT(p * (1 - p) / nw + 0.9604 / (nw * nw))) / (1 + 3.8416 / nw) END AS win_share_hi,
    CAST(NULL AS DOUBLE) AS mean_points, CAST(NULL AS DOUBLE) AS mean_han,
    CAST(NULL AS BIGINT) AS yakuman_wins
  FROM rated
)
ORDER BY part, count DESC, id
