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

/// Prints the run's totals, the first failures and the count of every reason to stderr.
pub fn report_summary(s: &IngestSummary, out: &std::path::Path) {
    let m = &s.manifest;
    let t = &m.totals;
    for f in m.first_failures() {
        eprintln!("failed: {}: {}", f.path, f.reason.as_deref().unwrap_or(""));
    }
    let unlisted = t.failed - m.first_failures().len() as u64;
    if unlisted > 0 {
        eprintln!("… and {unlisted} more failed inputs: every one is in manifest.json");
    }
    eprintln!(
        "{} files: {} ok, {} skipped, {} failed; {} games, {} hands in {:.2} s",
        t.files, t.ok, t.skipped, t.failed, t.games, t.hands, s.seconds
    );
    for (reason, n) in &m.failures_by_reason {
        eprintln!("  failed {n}: {reason}");
    }
    for (reason, n) in &m.skips_by_reason {
        eprintln!("  skipped {n}: {reason}");
    }
    if s.written {
        eprintln!("frames and manifest written to {}", out.display());
    } else {
        eprintln!("--strict: failures found, nothing written");
    }
}
