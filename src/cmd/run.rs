//! `haifu run`: ingest, then every report into `<out>/reports/`, the parameter file, and a
//! readable summary on stdout.

use std::path::PathBuf;

use anyhow::Result;

use super::args::{InputArgs, SliceArgs};
use super::{print, Done};
use crate::danger::EstimatorName;
use crate::frames::write_atomically;
use crate::ingest;
use crate::runtime::{return_freed_memory, timing};
use crate::{params, report};

/// Ingest logs, then write every report and the parameter file (the main job).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Output directory: frames, manifest.json and reports/.
    #[arg(long, short)]
    out: PathBuf,
    /// With a slice, the frames hold every game ingested and the reports only the selected
    /// games; the draw-rate reports and the parameter file, pooled over the ingest, are not
    /// written (use --since/--until or --room to ingest the slice itself).
    #[command(flatten)]
    slice: SliceArgs,
}

/// Reports shown on stdout after a run, in this order.
const SHOWN: [&str; 3] = ["summary", "riichi-response", "wait-danger"];

pub(crate) fn run(args: &Args) -> Result<Done> {
    // The ingest scores the §8 models as it finishes, unless only a slice is reported.
    let options = ingest::IngestOptions {
        tsumo_validation: args.slice.expr.is_none(),
        ..args.input.options(&args.out)
    };
    let mut summary = ingest::ingest(&options)?;
    eprintln!("{summary}");
    let done = Done::failed_if(summary.failed());
    if !summary.written {
        return Ok(done);
    }
    return_freed_memory();
    let reports_dir = args.out.join("reports");
    let mut slice = args.slice.select(&args.out)?;
    if let Some(s) = &mut slice {
        s.score_danger(&args.out, &EstimatorName::DEFAULT, None)?;
    }
    let t0 = std::time::Instant::now();
    let reports = report::write_all(&args.out, &reports_dir, slice.as_ref())?;
    timing("reports", t0.elapsed());
    let validation_df = summary.tsumo_validation.take();
    let report = |name: &str| {
        reports
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, df)| df)
            .expect("a bundled report")
    };
    let danger_tables =
        report::danger::render_reports(report("danger-eval"), report("danger-calibration"))?;
    let param_files = reports_dir.join("tsumo_rate.json");
    let validation = reports_dir.join("tsumo_validation.json");
    match &slice {
        None => {
            let df = validation_df.expect("the ingest scores §8 when there is no slice");
            write_atomically(&validation, (report::to_json(&df) + "\n").as_bytes())?;
            write_atomically(
                &validation.with_extension("csv"),
                report::to_csv(&df)?.as_bytes(),
            )?;
            let t0 = std::time::Instant::now();
            let (value, csv) = params::tsumo_rate_from(
                &summary.manifest.totals,
                &summary.manifest.corpus,
                params::Fold::All,
                report("draw-rate"),
                report("draw-rate-by-turn"),
            )?;
            timing("parameter file", t0.elapsed());
            params::write(&param_files, &value, &csv)?;
        }
        Some(s) => {
            // Pooled over the ingest: files from an earlier run would be out of step.
            for f in [&param_files, &validation] {
                let _ = std::fs::remove_file(f);
                let _ = std::fs::remove_file(f.with_extension("csv"));
            }
            write_atomically(
                &reports_dir.join("slice.json"),
                (serde_json::to_string_pretty(&s.json())? + "\n").as_bytes(),
            )?;
        }
    }
    let mut shown = String::new();
    if let Some(s) = &slice {
        shown.push_str(&format!("{}\n\n", s.header()));
    }
    for name in SHOWN {
        shown.push_str(&format!("== {name}\n{}\n", report::to_table(report(name))));
    }
    shown.push_str("== danger-eval\n");
    shown.push_str(&danger_tables);
    print(&shown)?;
    match &slice {
        None => eprintln!(
            "reports (CSV and JSON), tsumo_rate.json and tsumo_validation.json written to {}",
            reports_dir.display()
        ),
        Some(_) => eprintln!(
            "reports of the slice (CSV and JSON; no draw-rate reports, no parameter file: \
             they are pooled over the ingest) written to {}",
            reports_dir.display()
        ),
    }
    Ok(done)
}
