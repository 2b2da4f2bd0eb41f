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
    let reports_dir = args.out.join("reports");
    let danger_tables = crate::cmd::danger_eval::render(&args.out)?;
    let reports = write_all_reports(&args.out, &reports_dir)?;
    let (value, csv) = params::tsumo_rate(&args.out)?;
    write_atomically(
        &reports_dir.join("tsumo_rate.json"),
        (serde_json::to_string_pretty(&value)? + "\n").as_bytes(),
    )?;
    write_atomically(&reports_dir.join("tsumo_rate.csv"), csv.as_bytes())?;
    for name in SHOWN {
        if let Some((_, df)) = reports.iter().find(|(n, _)| *n == name) {
            println!("== {name}");
            print!("{}", report::to_table(df));
            println!();
        }
    }
    println!("== danger-eval");
    print!("{danger_tables}");
    eprintln!(
        "reports (CSV and JSON) and tsumo_rate.json written to {}",
        reports_dir.display()
    );
    Ok(summary.exit_code())
}
