//! One module per subcommand, each owning its arguments (`Args`) and its `run`; shared
//! argument groups in `args.rs`. A command returns how it ended ([`Done`]) or an error; the
//! exit status is decided once, in [`crate::cli`].

pub(crate) mod agree;
pub(crate) mod args;
pub(crate) mod compare;
pub(crate) mod convert;
pub(crate) mod danger_eval;
pub(crate) mod hand_reading;
pub(crate) mod ingest;
pub(crate) mod merge;
pub(crate) mod params;
pub(crate) mod query;
pub(crate) mod review;
pub(crate) mod run;
pub(crate) mod stats;

use std::io::Write;

/// How a command that ran to its end ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Done {
    /// Everything went through (exit 0).
    Ok,
    /// The command finished, but some inputs failed (exit 2).
    InputsFailed,
}

impl Done {
    pub(crate) fn failed_if(failed: bool) -> Done {
        if failed {
            Done::InputsFailed
        } else {
            Done::Ok
        }
    }
}

/// Writes `text` to standard output. An error (a closed pipe, as in `haifu stats … | head`)
/// is returned rather than a panic, and [`crate::cli`] ends the run quietly on it.
pub(crate) fn print(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}
