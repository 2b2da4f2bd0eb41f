//! `haifu params`: the §3 parameter file an engine loads, and the §8 report that scores it
//! against real tenpai draws.

use std::path::PathBuf;

use anyhow::Result;

use super::args::SliceArgs;
use super::{print, Done};
use crate::params::{self, Fold};
use crate::report::{self, Format};

/// Write a parameter file for an engine, or score one against real draws.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// The tsumo-rate file: draw rate by held and visible copies (§3), JSON and CSV.
    TsumoRate(TsumoRate),
    /// The tenpai-rate file: opponent tenpai counts per fold (§17, `--with tables`), JSON and CSV.
    TenpaiRate(TsumoRate),
    /// The win-rate file: win counts by turns left and shanten per fold (§18, `--with tables`),
    /// JSON and CSV.
    WinRate(TsumoRate),
    /// Does the parameter file predict real tenpai draws better than a uniform draw? (§8)
    Validate(Validate),
}

#[derive(Debug, clap::Args)]
struct TsumoRate {
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long)]
    frames: PathBuf,
    /// Output JSON path; the same numbers go to the same path with extension .csv.
    #[arg(long)]
    out: PathBuf,
    /// Fit on the games of one fold only (0 or 1, §8: the sum of a game id's bytes, mod 2);
    /// the file says which in its `fold` field (`all` without this).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..2))]
    fold: Option<u8>,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Models: uniform (what engines assume: u(t)/U), params-hv and \
params-thv (2-fold cross-fitted from the frames), file-hv and file-thv (from --params). \
Definitions: docs/definitions.md §8; columns: docs/frames.md; the file: docs/draw-rates.md."
)]
struct Validate {
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long)]
    frames: PathBuf,
    /// A parameter file to score as well (models file-hv, file-thv): one from another corpus,
    /// another year, or your own smoothing, in the format of `haifu params tsumo-rate`.
    #[arg(long)]
    params: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Refused: the fitted models read the pooled draw_rate frame (ingest the slice instead).
    #[command(flatten)]
    slice: SliceArgs,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    match &args.what {
        What::TsumoRate(a) => {
            let fold = a.fold.map_or(Fold::All, Fold::One);
            let (value, csv) = params::tsumo_rate(&a.frames, fold)?;
            let csv_path = params::write(&a.out, &value, &csv)?;
            eprintln!("wrote {} and {}", a.out.display(), csv_path.display());
        }
        What::TenpaiRate(a) | What::WinRate(a) => {
            let table = match &args.what {
                What::TenpaiRate(_) => params::UnitTable::TenpaiRate,
                _ => params::UnitTable::WinRate,
            };
            let fold = a.fold.map_or(Fold::All, Fold::One);
            let (value, csv) = params::unit_table(&a.frames, table, fold)?;
            let csv_path = params::write(&a.out, &value, &csv)?;
            eprintln!("wrote {} and {}", a.out.display(), csv_path.display());
        }
        What::Validate(a) => {
            if a.slice.expr.is_some() {
                report::refuse_pooled("FROM draw_rate", "params validate")?;
            }
            let df = report::tsumo::report(&a.frames, a.params.as_deref())?;
            let text = match a.format {
                Format::Table => report::tsumo::render_table(&df)?,
                other => report::render(&df, other, None)?,
            };
            print(&text)?;
        }
    }
    Ok(Done::Ok)
}
