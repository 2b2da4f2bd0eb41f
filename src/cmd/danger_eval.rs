//! `haifu danger-eval`: score danger estimators (§4) and print a table per moment with the
//! best value of each metric marked, then the calibration table per estimator.

use anyhow::{Context, Result};
use polars::prelude::*;

use crate::cli::DangerEvalArgs;
use crate::danger::{CategoryTable, Estimator};
use crate::danger_eval::{self, DEFAULT_ESTIMATORS};
use crate::frames::FrameWriter;
use crate::report;

pub fn run(args: &DangerEvalArgs) -> Result<u8> {
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
    let names: Vec<String> = match &args.estimators {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => {
            let mut v: Vec<String> = DEFAULT_ESTIMATORS.iter().map(|s| s.to_string()).collect();
            if user_table.is_some() {
                v.push("table".into());
            }
            v
        }
    };
    print!("{}", score_and_render(&args.frames, &names, user_table)?);
    Ok(0)
}

/// Scores, writes the frames, and renders the per-moment and calibration tables.
pub fn score_and_render(
    frames: &std::path::Path,
    names: &[String],
    user_table: Option<CategoryTable>,
) -> Result<String> {
    let estimators = danger_eval::resolve(names, &frames.join("wait_danger.parquet"), user_table)?;
    let mut writer = FrameWriter::new(frames)?;
    let written = write_scores(&mut writer, frames, &estimators);
    if written.is_err() {
        writer.abandon();
    }
    written?;
    render(frames)
}

/// Scores the situations in `frames` a slice at a time into the three §4 frames, each under a
/// temporary name until all are complete.
fn write_scores(
    writer: &mut FrameWriter,
    frames: &std::path::Path,
    estimators: &[Estimator],
) -> Result<()> {
    let (totals, _) = danger_eval::evaluate_file(
        &frames.join("danger_situations.parquet"),
        estimators,
        0,
        danger_eval::SITUATION_ROWS,
        |eval| Ok(writer.write_chunk("danger_eval", eval)?),
    )?;
    writer.write("danger_calibration", &totals.calibration_frame()?)?;
    writer.write("danger_eval_summary", &totals.summary_frame()?)?;
    writer.finish()?;
    writer.commit("danger_eval_summary.parquet")?;
    Ok(())
}

/// The per-moment tables (best value of each metric starred) and the calibration table of
/// the §4 frames in `frames`.
pub fn render(frames: &std::path::Path) -> Result<String> {
    let mut ctx = report::context(frames, None)?;
    let summary = report::run(
        &mut ctx,
        report::find("danger-eval").expect("bundled").sql,
        None,
    )?;
    let calib = report::run(
        &mut ctx,
        report::find("danger-calibration").expect("bundled").sql,
        None,
    )?;
    render_reports(&summary, &calib)
}

/// [`render`] from the `danger-eval` and `danger-calibration` reports already run.
pub fn render_reports(summary: &DataFrame, calib: &DataFrame) -> Result<String> {
    let mut out = String::new();
    for moment in ["declaration", "last_draw"] {
        let df = summary
            .clone()
            .lazy()
            .filter(col("moment").eq(lit(moment)))
            .collect()?;
        out.push_str(&format!("== moment: {moment} (* = best)\n"));
        out.push_str(&marked_table(&df)?);
        out.push('\n');
    }
    out.push_str("== calibration (pairs of (situation, kind) by 34·w bin)\n");
    out.push_str(&report::to_table(calib));
    Ok(out)
}

/// Estimators as rows, metrics as columns, the best value of each metric starred.
fn marked_table(df: &DataFrame) -> Result<String> {
    const METRICS: [(&str, bool); 4] = [
        ("rmse", false),
        ("cross_entropy", false),
        ("auc", true),
        ("brier", false),
    ];
    let est = df.column("estimator")?.str()?.clone();
    let n = df.column("situations")?.cast(&DataType::Int64)?;
    let n = n.i64()?.clone();
    let mut rows: Vec<Vec<String>> = (0..df.height())
        .map(|i| {
            vec![
                est.get(i).unwrap_or_default().to_string(),
                n.get(i).unwrap_or(0).to_string(),
            ]
        })
        .collect();
    for (m, higher) in METRICS {
        let v = df.column(m)?.f64()?.clone();
        let vals: Vec<f64> = (0..df.height())
            .map(|i| v.get(i).unwrap_or(f64::NAN))
            .collect();
        let best = vals
            .iter()
            .copied()
            .filter(|x| !x.is_nan())
            .fold(None, |b: Option<f64>, x| match b {
                None => Some(x),
                Some(b) => Some(if (x > b) == higher { x } else { b }),
            });
        for (i, x) in vals.iter().enumerate() {
            let star = if Some(*x) == best { "*" } else { " " };
            rows[i].push(format!("{x:.5}{star}"));
        }
    }
    let headers = [
        "estimator",
        "situations",
        "rmse",
        "cross_entropy",
        "auc",
        "brier",
    ];
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([headers[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let fmt_row = |cells: Vec<String>| -> String {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if c == 0 {
                    format!("{s:<w$}", w = widths[c])
                } else {
                    format!("{s:>w$}", w = widths[c])
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    out.push_str(&fmt_row(headers.iter().map(|s| s.to_string()).collect()));
    out.push_str(&fmt_row(widths.iter().map(|w| "-".repeat(*w)).collect()));
    for r in rows {
        out.push_str(&fmt_row(r));
    }
    Ok(out)
}
