//! `haifu run`: ingest, then every report into `<out>/reports/`, the parameter file, and a
//! readable summary on stdout.

use anyhow::Result;

use crate::cli::RunArgs;
use crate::cmd::ingest::report_summary;
use crate::cmd::stats::write_all_reports;
use crate::frames::write_atomically;
use crate::ingest;
use crate::{params, report};

/// Reports shown on stdout after a run, in this order.
const SHOWN: [&str; 3] = ["summary", "riichi-response", "wait-danger"];

pub fn run(args: &RunArgs) -> Result<u8> {
    let summary = ingest::ingest(&args.input.options(&args.out))?;
    report_summary(&summary, &args.out);
    if !summary.written {
        return Ok(summary.exit_code());
    }
    crate::ingest::return_freed_memory();
    let reports_dir = args.out.join("reports");
    let t0 = std::time::Instant::now();
    let reports = write_all_reports(&args.out, &reports_dir)?;
    ingest::timing("reports", t0.elapsed());
    let report = |name: &str| {
        reports
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, df)| df)
            .expect("a bundled report")
    };
    let danger_tables = crate::cmd::danger_eval::render_reports(
        report("danger-eval"),
        report("danger-calibration"),
    )?;
    let t0 = std::time::Instant::now();
    let (value, csv) = params::tsumo_rate_from(
        &summary.manifest.totals,
        &summary.manifest.corpus,
        report("draw-rate"),
        report("draw-rate-by-turn"),
    )?;
    ingest::timing("parameter file", t0.elapsed());
    write_atomically(
        &reports_dir.join("tsumo_rate.json"),
        (serde_json::to_string_pretty(&value)? + "\n").as_bytes(),
    )?;
    write_atomically(&reports_dir.join("tsumo_rate.csv"), csv.as_bytes())?;
    for name in SHOWN {
        println!("== {name}");
        print!("{}", report::to_table(report(name)));
        println!();
    }
    println!("== danger-eval");
    print!("{danger_tables}");
    eprintln!(
        "reports (CSV and JSON) and tsumo_rate.json written to {}",
        reports_dir.display()
    );
    Ok(summary.exit_code())
}
