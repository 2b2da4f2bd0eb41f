//! `haifu compare`: two corpora (or two slices of one) side by side, report by report.

use std::path::PathBuf;

use anyhow::{bail, Result};
use polars::prelude::*;

use super::{print, Done};
use crate::compare::{self, Compared, Comparison, Side, Table, COMPARISONS};
use crate::report::{self, Format};

/// Compare two corpora (or two slices of one) report by report, with the differences that are real
///
/// Each row's value on A and on B, the difference B − A with its 95% interval, and whether it
/// is significant at 5% after Holm's correction over the rows of that report.
#[derive(Debug, clap::Args)]
#[command(after_help = compare_help())]
pub(crate) struct Args {
    /// Reports to compare (default: all of those below whose frames both sides have).
    reports: Vec<String>,
    /// Frames of A, then of B: directories written by `haifu ingest` or `haifu run`. Given
    /// once, both sides read it (then tell them apart with --where-a / --where-b).
    #[arg(long, required = true, num_args = 1)]
    frames: Vec<PathBuf>,
    /// Names of the sides in the output, as A=NAME and B=NAME (default A and B).
    #[arg(long = "name", value_name = "SIDE=NAME")]
    names: Vec<String>,
    /// A slice of A's games (docs/definitions.md §9): a polars-SQL condition over `games`.
    #[arg(long = "where-a", value_name = "EXPR")]
    where_a: Option<String>,
    /// A slice of B's games.
    #[arg(long = "where-b", value_name = "EXPR")]
    where_b: Option<String>,
    /// Report `players`: A's seats are those of player NAME (compares only `players`).
    #[arg(long = "name-a", value_name = "NAME")]
    name_a: Option<String>,
    /// Report `players`: B's seats are those of player NAME.
    #[arg(long = "name-b", value_name = "NAME")]
    name_b: Option<String>,
    /// Report `players`: B's seats are those of every name but --name-a's (B's frames default
    /// to A's).
    #[arg(long, requires = "name_a", conflicts_with = "name_b")]
    rest: bool,
    /// Three- or four-player games of A (§24; no report pools them): by default four when A's
    /// frames hold a four-player game, else three.
    #[arg(long = "players-a", value_name = "N", value_parser = super::args::parse_players)]
    players_a: Option<crate::rules::Players>,
    /// Three- or four-player games of B: by default --players-a when the frames are A's, else
    /// as for A.
    #[arg(long = "players-b", value_name = "N", value_parser = super::args::parse_players)]
    players_b: Option<crate::rules::Players>,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

fn compare_help() -> String {
    let width = COMPARISONS
        .iter()
        .map(|c| c.report.len())
        .max()
        .unwrap_or(0);
    let list: String = COMPARISONS
        .iter()
        .map(|c| {
            let about = report::find(c.report).map(|r| r.about).unwrap_or("");
            format!("  {:width$}  {about}\n", c.report)
        })
        .collect();
    format!(
        "Reports that can be compared (queries/compare/ has their SQL):\n{list}\n\
         Shares (s successes of n units) are compared with Newcombe's hybrid score interval for a \
         difference of proportions and the pooled two-proportion z test; means with Welch's t. \
         p_adjusted is Holm's step-down adjustment over the rows of one report; significant means \
         p_adjusted < 0.05. A row only one side has is shown with the other side null.\n\n\
         A three-player side against a four-player one (§24) compares only summary, the \
         riichi-response reports, yaku, draw-reasons and double-riichi, whose units mean the same \
         under both rules; the others are left out (refused when named).\n\n\
         Report `review` (named alone) compares two bots' reviews: --frames gives the --out \
         directories of two `haifu review` runs; their match rates per kind of decision, by turn \
         and by riichi opponents."
    )
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if args.frames.len() > 2 {
        bail!(
            "--frames is given once or twice (A, then B), not {} times",
            args.frames.len()
        );
    }
    let (mut name_a, mut name_b) = ("A".to_string(), "B".to_string());
    for n in &args.names {
        match n.split_once('=') {
            Some(("A" | "a", v)) if !v.is_empty() => name_a = v.to_string(),
            Some(("B" | "b", v)) if !v.is_empty() => name_b = v.to_string(),
            _ => bail!("--name {n:?}: expected A=NAME or B=NAME"),
        }
    }
    if args.reports.iter().any(|r| r == "review") {
        if args.reports.len() > 1 || args.where_a.is_some() || args.where_b.is_some() {
            bail!("report `review` is compared alone, without --where-a or --where-b");
        }
        return run_review(args, &name_a, &name_b);
    }
    let by_name = args.name_a.is_some() || args.name_b.is_some();
    if let Some(r) = args.reports.iter().find(|r| by_name && *r != "players") {
        bail!("--name-a, --name-b and --rest compare report `players` only, not `{r}`");
    }
    let chosen: Vec<&Comparison> = if args.reports.is_empty() && by_name {
        vec![compare::find("players").expect("a comparable report")]
    } else if args.reports.is_empty() {
        COMPARISONS.iter().collect()
    } else {
        args.reports
            .iter()
            .map(|r| {
                compare::find(r).ok_or_else(|| {
                    let names: Vec<&str> = COMPARISONS.iter().map(|c| c.report).collect();
                    anyhow::anyhow!(
                        "report `{r}` cannot be compared; those that can are: {}",
                        names.join(", ")
                    )
                })
            })
            .collect::<Result<_>>()?
    };
    let frames_b = args.frames.get(1).unwrap_or(&args.frames[0]);
    let players_b = args
        .players_b
        .or(args.players_a.filter(|_| args.frames.len() == 1));
    let mut a = Side::open(
        &name_a,
        &args.frames[0],
        args.where_a.as_deref(),
        args.players_a,
    )?;
    let mut b = Side::open(&name_b, frames_b, args.where_b.as_deref(), players_b)?;
    if by_name {
        a.pick_player(args.name_a.as_deref().map(|n| (n, false)))?;
        let player_b = match (&args.name_b, args.rest) {
            (Some(n), _) => Some((n.as_str(), false)),
            (None, true) => args.name_a.as_deref().map(|n| (n, true)),
            (None, false) => None,
        };
        b.pick_player(player_b)?;
    }
    let compared = compare::compare(&mut a, &mut b, &chosen, !args.reports.is_empty())?;
    for n in &compared.notes {
        eprintln!("note: {n}");
    }
    print(&render(&a, &b, &compared, args.format)?)?;
    Ok(Done::Ok)
}

/// The comparison in `format`: tables one after another (a title line each), CSV blocks one
/// per report separated by a blank line, or one JSON object `{"a", "b", "rows", "notes"}`.
fn render(a: &Side, b: &Side, c: &Compared, format: Format) -> Result<String> {
    Ok(match format {
        Format::Table => {
            let mut out = format!("{}\n{}\n", a.describe(), b.describe());
            for t in &c.tables {
                out.push_str(&format!("\n== {}: {} − {}\n", t.report, b.name, a.name));
                out.push_str(&table(t)?);
            }
            out
        }
        Format::Csv => {
            let blocks: Vec<String> = c
                .tables
                .iter()
                .map(|t| report::to_csv(&t.rows))
                .collect::<PolarsResult<_>>()?;
            blocks.join("\n")
        }
        Format::Json => {
            let rows: Vec<serde_json::Value> = c
                .tables
                .iter()
                .flat_map(|t| match report::rows_json(&t.rows) {
                    serde_json::Value::Array(v) => v,
                    other => vec![other],
                })
                .collect();
            let value = serde_json::json!({
                "a": a.json(),
                "b": b.json(),
                "rows": rows,
                "notes": c.notes,
            });
            serde_json::to_string_pretty(&value).expect("serialisable") + "\n"
        }
    })
}

/// One report's rows for a person: keys and measure, units, values (shares as percentages),
/// the difference with its interval, Holm's p and a star for the significant rows.
fn table(t: &Table) -> Result<String> {
    let df = &t.rows;
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let labels = &names[1..t.keys + 2];
    let mut headers: Vec<String> = labels.to_vec();
    headers.extend(
        ["n_a", "n_b", "a", "b", "diff [95% CI]", "p_adjusted", ""]
            .iter()
            .map(|s| s.to_string()),
    );
    let kind = df.column("stat")?.str()?.clone();
    let f = |name: &str| -> Result<Float64Chunked> { Ok(df.column(name)?.f64()?.clone()) };
    let (va, vb, d, lo, hi, p) = (
        f("a")?,
        f("b")?,
        f("diff")?,
        f("diff_lo")?,
        f("diff_hi")?,
        f("p_adjusted")?,
    );
    let ints = |name: &str| -> Result<Int64Chunked> { Ok(df.column(name)?.i64()?.clone()) };
    let (na, nb) = (ints("n_a")?, ints("n_b")?);
    let sig = df.column("significant")?.bool()?.clone();
    let mut rows = Vec::new();
    for i in 0..df.height() {
        let share = kind.get(i) == Some("share");
        let num = |v: Option<f64>| match v {
            None => "-".to_string(),
            Some(x) if x.is_nan() => "-".to_string(),
            Some(x) if share => format!("{:.2}%", x * 100.0),
            Some(x) if x.abs() >= 1000.0 => format!("{x:.0}"),
            Some(x) => format!("{x:.3}"),
        };
        let signed = |v: Option<f64>| match v {
            Some(x) if share => format!("{:+.2}", x * 100.0),
            Some(x) if x.abs() >= 1000.0 => format!("{x:+.0}"),
            Some(x) => format!("{x:+.3}"),
            None => "-".into(),
        };
        let mut row: Vec<String> = labels
            .iter()
            .map(|l| match df.column(l).and_then(|c| c.get(i)) {
                Ok(AnyValue::String(s)) => s.to_string(),
                Ok(AnyValue::StringOwned(s)) => s.to_string(),
                Ok(AnyValue::Null) | Err(_) => "-".into(),
                Ok(v) => v.to_string(),
            })
            .collect();
        row.push(na.get(i).map_or("-".into(), |n| n.to_string()));
        row.push(nb.get(i).map_or("-".into(), |n| n.to_string()));
        row.push(num(va.get(i)));
        row.push(num(vb.get(i)));
        let mut diff = signed(d.get(i));
        if let (Some(l), Some(h)) = (lo.get(i), hi.get(i)) {
            diff = format!("{diff} [{}, {}]", signed(Some(l)), signed(Some(h)));
        }
        if share && d.get(i).is_some() {
            diff.push_str(" pt");
        }
        row.push(diff);
        row.push(p.get(i).map_or("-".into(), |p| {
            if p < 1e-4 {
                "<0.0001".into()
            } else {
                format!("{p:.4}")
            }
        }));
        row.push(if sig.get(i) == Some(true) {
            "*".into()
        } else {
            String::new()
        });
        rows.push(row);
    }
    let left = labels.len();
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r: &Vec<String>| r[c].chars().count())
                .chain([headers[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| -> String {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c < left {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(&headers);
    out.push_str(&line(
        &widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>(),
    ));
    for r in &rows {
        out.push_str(&line(r));
    }
    Ok(out)
}

/// `haifu compare review --frames OUT_A OUT_B`: two bots' reviews (the `--out` directories of
/// `haifu review`) side by side.
fn run_review(args: &Args, name_a: &str, name_b: &str) -> Result<Done> {
    let frames_b = args.frames.get(1).unwrap_or(&args.frames[0]);
    let t = compare::reviews(&args.frames[0], frames_b)?;
    let text = match args.format {
        Format::Table => format!(
            "A = {name_a}: {}\nB = {name_b}: {}\n\n== review: {name_b} − {name_a}\n{}",
            args.frames[0].display(),
            frames_b.display(),
            table(&t)?
        ),
        Format::Csv => report::to_csv(&t.rows)?,
        Format::Json => {
            let value = serde_json::json!({
                "a": {"name": name_a, "frames": args.frames[0].display().to_string()},
                "b": {"name": name_b, "frames": frames_b.display().to_string()},
                "rows": report::rows_json(&t.rows),
            });
            serde_json::to_string_pretty(&value).expect("serialisable") + "\n"
        }
    };
    print(&text)?;
    Ok(Done::Ok)
}
