//! `haifu run`: ingest, then every report into `<out>/reports/`, the parameter file, and a
//! readable summary on stdout.

use std::path::PathBuf;

use anyhow::Result;

use super::args::InputArgs;
use super::{print, Done};
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
}

/// Reports shown on stdout after a run, in this order.
const SHOWN: [&str; 3] = ["summary", "riichi-response", "wait-danger"];

pub(crate) fn run(args: &Args) -> Result<Done> {
    let summary = ingest::ingest(&args.input.options(&args.out))?;
    eprintln!("{summary}");
    let done = Done::failed_if(summary.failed());
    if !summary.written {
        return Ok(done);
    }
    return_freed_memory();
    let reports_dir = args.out.join("reports");
    let t0 = std::time::Instant::now();
    let reports = report::write_all(&args.out, &reports_dir)?;
    timing("reports", t0.elapsed());
    let report = |name: &str| {
        reports
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, df)| df)
            .expect("a bundled report")
    };
    let danger_tables =
        report::danger::render_reports(report("danger-eval"), report("danger-calibration"))?;
    let t0 = std::time::Instant::now();
    let (value, csv) = params::tsumo_rate_from(
        &summary.manifest.totals,
        &summary.manifest.corpus,
        report("draw-rate"),
        report("draw-rate-by-turn"),
    )?;
    timing("parameter file", t0.elapsed());
    params::write(&reports_dir.join("tsumo_rate.json"), &value, &csv)?;
    let mut shown = String::new();
    for name in SHOWN {
        shown.push_str(&format!("== {name}\n{}\n", report::to_table(report(name))));
    }
    shown.push_str("== danger-eval\n");
    shown.push_str(&danger_tables);
    print(&shown)?;
    eprintln!(
        "reports (CSV and JSON) and tsumo_rate.json written to {}",
        reports_dir.display()
    );
    Ok(done)
}
