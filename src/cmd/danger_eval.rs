//! `haifu danger-eval`: score danger estimators (§4) and print a table per moment with the
//! best value of each metric marked, then the calibration table per estimator.

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::args::SliceArgs;
use super::{print, Done};
use crate::danger::{CategoryTable, EstimatorName};
use crate::report::danger;
use crate::report::{rows_json, to_csv, Format};

/// Score danger estimators against the riichi hands' real waits (§4).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Directory written by `haifu ingest --out` or `haifu run --out`; danger_eval.parquet,
    /// danger_calibration.parquet and danger_eval_summary.parquet are written into it (each
    /// replacing the frame, in parts or not).
    #[arg(long)]
    frames: PathBuf,
    /// Your danger table: a CSV `category,weight` with all 19 categories of docs/definitions.md §6
    /// (scored as estimator `table`).
    #[arg(long)]
    table: Option<PathBuf>,
    /// Comma-separated estimators [default: none, combo, dennou-old, dennou, dennou-new,
    /// phoenix-table, and table when --table is given].
    #[arg(long, value_delimiter = ',', value_parser = parse_estimator)]
    estimators: Option<Vec<EstimatorName>>,
    /// With a slice, the situations of the selected games are scored (`phoenix-table` fitted
    /// on the slice) and printed; the frames in --frames are left as they are.
    #[command(flatten)]
    slice: SliceArgs,
    /// §15 instead: the built-in estimators (and --table, scored at every moment of the
    /// `danger_moments` frame) at every moment after a riichi, per observer (the seat 1, 2 or 3
    /// after the riichi seat) and turn, best per turn starred (the `danger-by-turn` report;
    /// needs frames ingested with --with danger-moments).
    #[arg(long)]
    by_turn: bool,
    /// `table`: a table per moment and the calibration table; `csv`: the `danger-eval` rows,
    /// a blank line, the `danger-calibration` rows; `json`: {"eval": [...], "calibration":
    /// [...]} (and "slice" under --where). With --by-turn, the `danger-by-turn` rows.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

fn parse_estimator(s: &str) -> Result<EstimatorName, String> {
    EstimatorName::from_name(s.trim()).ok_or_else(|| {
        let known: Vec<&str> = EstimatorName::ALL.iter().map(|e| e.as_str()).collect();
        format!("unknown estimator `{s}`; known: {}", known.join(", "))
    })
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    let user_table = match &args.table {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Some(
                CategoryTable::from_csv(&text)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    if args.by_turn {
        return by_turn(args, user_table.as_ref());
    }
    let names: Vec<EstimatorName> = match &args.estimators {
        Some(list) => list.clone(),
        None => {
            let mut v = EstimatorName::DEFAULT.to_vec();
            if user_table.is_some() {
                v.push(EstimatorName::Table);
            }
            v
        }
    };
    let (table, slice) = args.slice.select(&args.frames)?;
    // Over frames of both tables the table's games are scored as a slice of them (the
    // frames' own §4 files keep both tables' scores).
    let slice = match slice {
        None if table.mixed() => Some(crate::report::Slice::select(&args.frames, "true", &table)?),
        s => s,
    };
    let slice = match slice {
        Some(mut slice) => {
            slice.score_danger(&args.frames, &names, user_table.as_ref())?;
            Some(slice)
        }
        None => {
            danger::score(&args.frames, &names, user_table.as_ref(), table.players)?;
            None
        }
    };
    if let Some(h) = table.header() {
        eprintln!("{h}");
    }
    let (eval, calibration) = danger::reports(&args.frames, slice.as_ref(), &table)?;
    let text = match args.format {
        Format::Table => {
            let tables = danger::render_reports(&eval, &calibration, table.players)?;
            match &slice {
                Some(s) => format!("{}\n{tables}", s.header()),
                None => tables,
            }
        }
        Format::Csv => {
            if let Some(s) = &slice {
                eprintln!("{}", s.header());
            }
            format!("{}\n{}", to_csv(&eval)?, to_csv(&calibration)?)
        }
        Format::Json => {
            let mut value = serde_json::json!({
                "eval": rows_json(&eval),
                "calibration": rows_json(&calibration),
            });
            if let Some(s) = &slice {
                value["slice"] = s.json();
            }
            serde_json::to_string_pretty(&value)? + "\n"
        }
    };
    print(&text)?;
    Ok(Done::Ok)
}

/// `--by-turn`: the `danger-by-turn` report over the frames (and slice), the lowest value of
/// each metric per (observer, turn) starred.
fn by_turn(args: &Args, user_table: Option<&CategoryTable>) -> Result<Done> {
    use polars::prelude::*;
    let frame = "danger_by_turn";
    crate::frames::dataset::require(&args.frames, frame)?;
    let report = crate::report::find("danger-by-turn").expect("a bundled report");
    let (table, slice) = args.slice.select(&args.frames)?;
    let mut ctx = crate::report::context_over(&args.frames, None, slice.as_ref(), &table)?;
    let mut df = crate::report::run(&mut ctx, report.sql, None)?;
    if let Some(t) = user_table {
        let ids = slice.as_ref().map(|s| s.ids()).or(table.ids());
        let sums = crate::report::danger_by_turn::table_sums(&args.frames, t, ids, table.players)?;
        df = crate::report::danger_by_turn::with_table(&df, EstimatorName::Table.as_str(), &sums)?;
    }
    if let Some(names) = &args.estimators {
        let keep: Vec<&str> = names.iter().map(|e| e.as_str()).collect();
        let keep = Series::new("keep".into(), keep);
        df = df
            .lazy()
            .filter(col("estimator").is_in(lit(keep).implode(false), false))
            .collect()?;
    }
    let text = match args.format {
        Format::Table => {
            let mut text = String::new();
            if let Some(s) = &slice {
                text.push_str(&s.header());
                text.push('\n');
            }
            text.push_str(&crate::report::starred_table(
                &df,
                &["observer", "turn", "estimator", "moments"],
                &["rmse", "cross_entropy", "kld"],
            )?);
            text
        }
        other => {
            if let (Format::Csv, Some(s)) = (other, &slice) {
                eprintln!("{}", s.header());
            }
            crate::report::render(&df, other, slice.as_ref())?
        }
    };
    print(&text)?;
    Ok(Done::Ok)
}
