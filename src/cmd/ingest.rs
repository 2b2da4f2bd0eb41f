//! `haifu ingest`.

use anyhow::{bail, Result};

use crate::cli::IngestArgs;
use crate::ingest::{self, IngestSummary};

pub fn run(args: &IngestArgs) -> Result<u8> {
    if args.decode_only {
        let start = std::time::Instant::now();
        let (files, games, events, failed) = ingest::decode_only(&args.input.inputs);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "decode-only: {files} files, {games} games, {events} events, {failed} undecodable in {secs:.2} s ({:.0} games/s)",
            games as f64 / secs.max(1e-9)
        );
        return Ok(if failed > 0 { 2 } else { 0 });
    }
    let Some(out) = &args.out else {
        bail!("--out DIR is required (unless --decode-only)");
    };
    let summary = ingest::ingest(&args.input.options(out))?;
    report_summary(&summary, out);
    Ok(summary.exit_code())
}

/// Prints the run's totals and every failure to stderr.
pub fn report_summary(s: &IngestSummary, out: &std::path::Path) {
    let t = &s.manifest.totals;
    for f in &s.manifest.files {
        if f.status == crate::manifest::Status::Failed {
            eprintln!("failed: {}: {}", f.path, f.reason.as_deref().unwrap_or(""));
        }
    }
    eprintln!(
        "{} files: {} ok, {} skipped, {} failed; {} games, {} hands in {:.2} s",
        t.files, t.ok, t.skipped, t.failed, t.games, t.hands, s.seconds
    );
    for (reason, n) in &s.manifest.skips_by_reason {
        eprintln!("  skipped {n}: {reason}");
    }
    if s.written {
        eprintln!("frames and manifest written to {}", out.display());
    } else {
        eprintln!("--strict: failures found, nothing written");
    }
}
