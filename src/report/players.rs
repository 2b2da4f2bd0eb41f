//! §21 player profiles: what the `players` report adds after its SQL (queries/players.sql).
//!
//! The SQL gives each name's places in hanchan games (`dan_1` … `dan_4`); this replaces them
//! with the stable dan's 95% bootstrap interval (`stable_dan_lo`, `stable_dan_hi`), which SQL
//! cannot draw.
//!
//! The bootstrap: 2,000 resamples, each of as many games as the name has hanchan games with a
//! place, drawn with replacement; each resample's stable dan is (6·n1 + 3·n2)/n4 − 2, or +∞
//! when it has no 4th place. The interval is the 50th smallest and the 50th largest of the
//! 2,000 (the 2.5% and 97.5% points); a bound that is +∞ is null, as is the interval of a name
//! with no such game. The generator is MT19937-64 ([`rand_mt::Mt64`]; rand_mt is the
//! maintained reference Mersenne Twister the wall check already depends on, with a fixed,
//! documented stream on every platform) keyed by the name's UTF-8 bytes (one key word a byte),
//! so a name's interval depends only on the name and its four counts: the same on every run,
//! every thread count and every order of the games. Each 64-bit word gives two draws, its low
//! 32 bits then its high 32 bits; a draw x picks the place at index ⌊x·n / 2³²⌋ of the name's
//! places in order (1sts, then 2nds, …; the bias is below n / 2³²).

use anyhow::Result;
use polars::prelude::*;
use rayon::prelude::*;

/// The report's SQL.
pub(crate) const SQL: &str = include_str!("../../queries/players.sql");

/// The first line of a query whose rows get the interval (the report's, and a user's copy).
const MARKER: &str = "-- haifu: stable dan interval";

/// True when `sql` asks for the interval ([`MARKER`] as its first line).
pub(crate) fn wants_interval(sql: &str) -> bool {
    sql.lines().next().is_some_and(|l| l.trim() == MARKER)
}

/// Bootstrap resamples per name.
pub const RESAMPLES: usize = 2000;

/// The 95% bootstrap interval of the stable dan of a name with `places` = (n1, n2, n3, n4)
/// hanchan places; `None` bounds where it is unbounded (or there is no game).
pub fn stable_dan_interval(name: &str, places: [u64; 4]) -> (Option<f64>, Option<f64>) {
    let n: u64 = places.iter().sum();
    // No game, or no 4th place to draw: every resample's dan is +∞ (what drawing them gives).
    if places[3] == 0 {
        return (None, None);
    }
    // A game drawn is the place at index ⌊x·n / 2³²⌋ of the places in order (x a 32-bit
    // draw): place k + 1 when that index is below the k-th cumulative count and not below the
    // one before; index ≥ c ⟺ x ≥ ⌈c·2³² / n⌉, so each draw is three comparisons.
    let cumulative = [
        places[0],
        places[0] + places[1],
        places[0] + places[1] + places[2],
    ];
    let at = cumulative.map(|c| (c << 32).div_ceil(n));
    let mut rng = rand_mt::Mt64::new_with_key(name.bytes().map(u64::from));
    // One resample's draws: two from each 64-bit word, its low half, then its high half (the
    // high half of the last word unused when n is odd).
    let mut draws = vec![0u32; n as usize + 1];
    let mut values: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for pair in draws.chunks_exact_mut(2) {
                let w = rng.next_u64();
                pair[0] = w as u32;
                pair[1] = (w >> 32) as u32;
            }
            // Draws at or past each threshold (branch-free, so the loop vectorises).
            let mut past = [0u64; 3];
            for &x in &draws[..n as usize] {
                let x = u64::from(x);
                past[0] += u64::from(x >= at[0]);
                past[1] += u64::from(x >= at[1]);
                past[2] += u64::from(x >= at[2]);
            }
            let c = [n - past[0], past[0] - past[1], past[1] - past[2], past[2]];
            stable_dan(c).unwrap_or(f64::INFINITY)
        })
        .collect();
    // The 50th smallest and the 50th largest (two selections, not a sort).
    let bound = |v: f64| v.is_finite().then_some(v);
    let lo = *values.select_nth_unstable_by(49, f64::total_cmp).1;
    let hi = *values
        .select_nth_unstable_by(RESAMPLES - 50, f64::total_cmp)
        .1;
    (bound(lo), bound(hi))
}

/// (6·n1 + 3·n2)/n4 − 2; `None` when n4 = 0.
pub fn stable_dan(places: [u64; 4]) -> Option<f64> {
    (places[3] > 0).then(|| (6 * places[0] + 3 * places[1]) as f64 / places[3] as f64 - 2.0)
}

/// The report's rows with `dan_1` … `dan_4` replaced by the interval, after `stable_dan`.
pub(crate) fn finish(df: DataFrame) -> Result<DataFrame> {
    let names = df.column("name")?.str()?.clone();
    let count = |k: usize| -> Result<Vec<u64>> {
        let c = df.column(&format!("dan_{k}"))?.cast(&DataType::UInt64)?;
        Ok(c.u64()?.iter().map(|v| v.unwrap_or(0)).collect())
    };
    let counts = [count(1)?, count(2)?, count(3)?, count(4)?];
    let bounds: Vec<(Option<f64>, Option<f64>)> = (0..df.height())
        .into_par_iter()
        .map(|i| {
            let places = [counts[0][i], counts[1][i], counts[2][i], counts[3][i]];
            stable_dan_interval(names.get(i).unwrap_or(""), places)
        })
        .collect();
    let lo: Vec<Option<f64>> = bounds.iter().map(|b| b.0).collect();
    let hi: Vec<Option<f64>> = bounds.iter().map(|b| b.1).collect();
    let mut cols: Vec<Column> = Vec::new();
    for c in df.columns() {
        match c.name().as_str() {
            "dan_1" | "dan_2" | "dan_3" | "dan_4" => {}
            "stable_dan" => {
                cols.push(c.clone());
                cols.push(Column::new("stable_dan_lo".into(), lo.clone()));
                cols.push(Column::new("stable_dan_hi".into(), hi.clone()));
            }
            _ => cols.push(c.clone()),
        }
    }
    Ok(DataFrame::new_infer_height(cols)?)
}

/// The rows of names with at least `min` games.
pub(crate) fn min_games(df: DataFrame, min: u64) -> Result<DataFrame> {
    if min <= 1 {
        return Ok(df);
    }
    Ok(df
        .lazy()
        .filter(col("games").cast(DataType::UInt64).gt_eq(lit(min)))
        .collect()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula: 3, 4, 3 and 3 games in 1st … 4th place give (6·3 + 3·4)/3 − 2 = 30/3 − 2
    /// = 8; a quarter in every place gives (6 + 3)/1 − 2 = 7; the places 3, 4, 3, 3 of four
    /// games (n3 = 3, n4 = 1) give (0 + 0)/1 − 2 = −2; no 4th place gives none.
    #[test]
    fn stable_dan_by_the_formula() {
        assert_eq!(stable_dan([3, 4, 3, 3]), Some(8.0));
        assert_eq!(stable_dan([0, 0, 3, 1]), Some(-2.0));
        assert_eq!(stable_dan([5, 5, 5, 5]), Some(7.0));
        assert_eq!(stable_dan([1, 2, 0, 1]), Some(10.0));
        assert_eq!(stable_dan([1, 1, 1, 0]), None);
    }

    /// The interval is a function of the name and the counts, holds the estimate, and is
    /// null where resamples without a 4th place make it unbounded.
    #[test]
    fn bootstrap_interval() {
        let a = stable_dan_interval("Ａさん", [30, 25, 25, 20]);
        assert_eq!(a, stable_dan_interval("Ａさん", [30, 25, 25, 20]));
        let (lo, hi) = (a.0.unwrap(), a.1.unwrap());
        let est = stable_dan([30, 25, 25, 20]).unwrap();
        assert!(lo < est && est < hi, "{lo} {est} {hi}");
        assert_ne!(a, stable_dan_interval("Ｂさん", [30, 25, 25, 20]));
        // One 4th place in four games: a quarter of the resamples have none.
        assert_eq!(stable_dan_interval("x", [1, 1, 1, 1]).1, None);
        assert_eq!(stable_dan_interval("x", [0, 0, 0, 0]), (None, None));
        // Only 4th places: every resample is −2.
        assert_eq!(
            stable_dan_interval("", [0, 0, 0, 3]),
            (Some(-2.0), Some(-2.0))
        );
    }
}
