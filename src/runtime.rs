//! What a run needs from its surroundings, in one place: the interrupt flag (Ctrl-C), phase
//! timings (`HAIFU_TIMINGS=1`), the progress bar, handing freed memory back to the system, and
//! the bounds on what the reports keep in memory.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

/// Set when the user asks the run to stop (Ctrl-C; see [`stop_on_interrupt`]). A run that
/// sees it removes its temporary files and leaves the previous output as it was.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C (SIGINT/SIGTERM) request a clean stop instead of killing the process
/// mid-write. Call once, from the binary.
pub(crate) fn stop_on_interrupt() {
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
}

/// True once the user asked the run to stop.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The error an interrupted run returns.
#[derive(Debug)]
pub(crate) struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted: nothing was written; the previous output is as it was"
        )
    }
}

impl std::error::Error for Interrupted {}

/// The error of a run interrupted after it saved what it had done (`haifu review`'s frames,
/// which `--resume` goes on from): the message says what was kept.
#[derive(Debug)]
pub(crate) struct InterruptedKept(pub(crate) String);

impl std::fmt::Display for InterruptedKept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted: {}", self.0)
    }
}

impl std::error::Error for InterruptedKept {}

/// `Err(Interrupted)` once the user asked the run to stop.
pub(crate) fn check_interrupt() -> Result<(), Interrupted> {
    if interrupted() {
        Err(Interrupted)
    } else {
        Ok(())
    }
}

/// Hands the memory freed so far back to the system (glibc's `malloc_trim`; elsewhere nothing).
///
/// glibc keeps freed memory in the arena of the thread that allocated it, where other threads
/// do not reuse it: the input listing's paths (about 90 bytes each, allocated by the main
/// thread and freed as their inputs are merged) stayed resident for the whole ingest, 240 MB
/// at 2.58 M inputs; the ingest's own memory stayed resident through the reports, where the
/// peak of a run over 8 copies of its input was 1.3-1.4x the peak over one (BENCHMARKS.md). A
/// call costs a walk of the free lists, so the ingest makes one every [`TRIM_EVERY`] batches.
pub(crate) fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Bounds what the reports keep in memory, whatever the size of the frames they scan. Called
/// by the binary for the commands that read a frames directory, before any thread starts (it
/// sets environment variables polars reads). Not for an ingest or `haifu run`: there both cost
/// 2-5% CPU in the reports (a trimmed heap is faulted in again; one row group in flight
/// serialises small scans), and their peak is the ingest's, flat already.
///
/// Measured over the Phoenix frames (`--all`) and 8 distinct copies of them (BENCHMARKS.md,
/// thirty-first session), the reports' peak RSS grew with the corpus for two reasons besides
/// their groups:
/// - glibc kept the morsels the streaming engine freed (their sizes vary, across per-thread
///   arenas) instead of returning them: `hand-reading`'s private memory was 56 MiB at 1× and
///   143 MiB at 8×, of which 50 MiB was live. A trim threshold of 0 returns the top of each
///   heap as it is freed (it also fixes glibc's mmap threshold at its default, 128 KiB);
/// - polars' Parquet source keeps up to 16 row groups of each file in flight (at least 16,
///   however few threads run), each up to 146 k rows decoded: over a frame in parts,
///   `decisions` held 275 MiB at 8× against 102 at 1×. One row group in flight keeps both
///   threads of the streaming engine busy (the reports' times did not change, measured), and
///   its memory is that of a row group, not of the file.
///
/// A user's own `MALLOC_TRIM_THRESHOLD_` or `POLARS_ROW_GROUP_PREFETCH_SIZE` is kept.
pub(crate) fn bound_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_TRIM_THRESHOLD_").is_none() {
        // SAFETY: mallopt only changes the allocator's tuning; M_TRIM_THRESHOLD takes bytes.
        unsafe {
            libc::mallopt(libc::M_TRIM_THRESHOLD, 0);
        }
    }
    if std::env::var_os(ROW_GROUP_PREFETCH).is_none() {
        std::env::set_var(ROW_GROUP_PREFETCH, "1");
    }
}

/// The variable polars reads for the row groups its Parquet source keeps in flight.
const ROW_GROUP_PREFETCH: &str = "POLARS_ROW_GROUP_PREFETCH_SIZE";

/// Batches between two [`return_freed_memory`] calls during an ingest (32 k inputs).
pub(crate) const TRIM_EVERY: usize = 64;

/// CPU seconds (user + system) this process has used, its children apart; `None` where
/// unknown.
pub(crate) fn own_cpu_seconds() -> Option<f64> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: getrusage fills the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return Some(t(u.ru_utime) + t(u.ru_stime));
        }
    }
    None
}

/// With `HAIFU_TIMINGS=1`, prints how long a phase took to stderr (for `make bench`).
pub(crate) fn timing(phase: &str, d: std::time::Duration) {
    if std::env::var_os("HAIFU_TIMINGS").is_some() {
        eprintln!("timing: {phase}: {:.3} s", d.as_secs_f64());
    }
}

/// Under HAIFU_TIMINGS, how fast `phase` went since `t0` over `n` `things`: per second of wall
/// time and per CPU-second of haifu's own (every thread of this process, not the engines').
pub(crate) fn rate_timing(phase: &str, n: u64, things: &str, t0: std::time::Instant) {
    timing(phase, t0.elapsed());
    if std::env::var_os("HAIFU_TIMINGS").is_some() {
        let wall = t0.elapsed().as_secs_f64();
        let cpu = own_cpu_seconds().unwrap_or(f64::NAN);
        eprintln!(
            "timing: {phase}: {n} {things}, {:.0}/s wall, haifu's own CPU {cpu:.2} s ({:.0} {things} per CPU-second)",
            n as f64 / wall,
            n as f64 / cpu
        );
    }
}

/// A progress bar over `inputs` inputs on stderr, when `wanted` and stderr is a terminal.
pub(crate) fn progress_bar(wanted: bool, inputs: u64) -> Option<ProgressBar> {
    if !wanted || !std::io::stderr().is_terminal() {
        return None;
    }
    // A database input grows the length by its rows when it is opened.
    let pb = ProgressBar::new(inputs);
    pb.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} inputs  {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    Some(pb)
}
