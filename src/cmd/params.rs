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
    /// The placement file: final orders per kyoku and fold and the softmax fitted per kyoku
    /// (§19, `--with tables`), JSON and CSV; the softmax also in akochan's layout, one file per
    /// kyoku (`para{k}_9000.txt` for East 1..South 4, `para{k}_nn.txt` for West 1..4) written
    /// in the directory of FILE.json (four players only: §24 writes no akochan layout for
    /// three).
    Placement(TsumoRate),
    /// Does the parameter file predict real tenpai draws better than a uniform draw? (§8) With
    /// --table, haifu's cross-fitted §17–§20 tables and the engines' own files scored on the
    /// real units (§22).
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
    /// Fit on the three- or four-player games (§24; a file is of one table): by default four
    /// when the frames hold a four-player game, else three.
    #[arg(long, value_name = "N", value_parser = super::args::parse_players)]
    players: Option<crate::rules::Players>,
}

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Models: uniform (what engines assume: u(t)/U), params-hv and \
params-thv (2-fold cross-fitted from the frames), file-hv and file-thv (from --params). \
Definitions: docs/definitions.md §8; columns: docs/frames.md; the file: docs/draw-rates.md.

With --table (docs/definitions.md §22, frames of `--with tables`; docs/engine-tables.md): \
tenpai-rate: uniform-rate, table-turns-left, table-turn, manue (--manue), akochan (--akochan); \
win-rate: table, csv (--csv); placement: uniform, table, softmax, akochan, on the 24 orders and \
on the place marginals; ron-share (dama wins): table, akochan. haifu's tables are fitted on one \
fold and scored on the other; an engine's file on every unit."
)]
struct Validate {
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long)]
    frames: PathBuf,
    /// A parameter file to score as well (models file-hv, file-thv): one from another corpus,
    /// another year, or your own smoothing, in the format of `haifu params tsumo-rate`.
    #[arg(long, conflicts_with = "table")]
    params: Option<PathBuf>,
    /// Score a §17–§20 table instead of §8's tsumo rates (§22).
    #[arg(long, value_enum)]
    table: Option<crate::engine_tables::Table>,
    /// akochan's `params` directory (tenpai_prob/ako, rank_prob/ako, ron_ratio/ako under it),
    /// or a directory holding para{k}_*.txt (as `haifu params placement` writes them), or for
    /// ron-share the file dama_ron_ratio.txt itself.
    #[arg(long, requires = "table")]
    akochan: Option<PathBuf>,
    /// mjai-manue's game_stats.json (its yamitenStats; tenpai-rate only).
    #[arg(long, requires = "table")]
    manue: Option<PathBuf>,
    /// A win-chance table to score (win-rate only): CSV with columns turns_left, shanten,
    /// open_melds (0 or 1+) and probability.
    #[arg(long, requires = "table")]
    csv: Option<PathBuf>,
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
            let table = report::Table::select(&a.frames, a.players)?;
            let (value, csv) = params::tsumo_rate(&a.frames, fold, &table)?;
            let csv_path = params::write(&a.out, &value, &csv)?;
            eprintln!("wrote {} and {}", a.out.display(), csv_path.display());
        }
        What::TenpaiRate(a) | What::WinRate(a) => {
            let table = match &args.what {
                What::TenpaiRate(_) => params::UnitTable::TenpaiRate,
                _ => params::UnitTable::WinRate,
            };
            let fold = a.fold.map_or(Fold::All, Fold::One);
            let games = report::Table::select(&a.frames, a.players)?;
            let (value, csv) = params::unit_table(&a.frames, table, fold, &games)?;
            let csv_path = params::write(&a.out, &value, &csv)?;
            eprintln!("wrote {} and {}", a.out.display(), csv_path.display());
        }
        What::Placement(a) => {
            let fold = a.fold.map_or(Fold::All, Fold::One);
            let games = report::Table::select(&a.frames, a.players)?;
            let (value, csv, fits) = params::placement(&a.frames, fold, &games)?;
            let csv_path = params::write(&a.out, &value, &csv)?;
            if games.players == crate::rules::Players::Three {
                // §24: akochan's text layout is not written for three players.
                eprintln!(
                    "wrote {} and {} (three players: no akochan files, whose layout is of 24 \
                     four-player orders)",
                    a.out.display(),
                    csv_path.display()
                );
                return Ok(Done::Ok);
            }
            let dir = match a.out.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let files = params::write_akochan(&dir, &fits)?;
            eprintln!(
                "wrote {}, {} and {} akochan files in {}",
                a.out.display(),
                csv_path.display(),
                files.len(),
                dir.display()
            );
        }
        What::Validate(a) if a.table.is_some() => {
            let table = a.table.expect("checked");
            if a.slice.expr.is_some() {
                anyhow::bail!(
                    "params validate --table cross-fits over every unit of the frames and \
                     cannot be restricted with --where: ingest the slice itself instead"
                );
            }
            let games = a.slice.table(&a.frames)?;
            if games.players == crate::rules::Players::Three
                && (a.akochan.is_some() || a.manue.is_some())
            {
                anyhow::bail!(
                    "akochan's and mjai-manue's files are four-player tables: they cannot be \
                     scored on three-player games (§22, §24); drop --akochan/--manue, or score \
                     the four-player games with --players 4"
                );
            }
            if let Some(h) = games.header() {
                eprintln!("{h}");
            }
            let engines = crate::engine_tables::Engines {
                akochan: a.akochan.clone(),
                manue: a.manue.clone(),
                csv: a.csv.clone(),
                games: games.keeps(),
                players: games.players,
            };
            let df = crate::engine_tables::report(&a.frames, table, &engines)?;
            let text = match a.format {
                Format::Table => crate::engine_tables::render_table(&df, table, games.players)?,
                other => report::render(&df, other, None)?,
            };
            print(&text)?;
        }
        What::Validate(a) => {
            if a.slice.expr.is_some() {
                report::refuse_pooled("FROM draw_rate", "params validate")?;
            }
            let table = a.slice.table(&a.frames)?;
            if let Some(h) = table.header() {
                eprintln!("{h}");
            }
            let df = report::tsumo::report(&a.frames, a.params.as_deref(), &table)?;
            let text = match a.format {
                Format::Table => report::tsumo::render_table(&df)?,
                other => report::render(&df, other, None)?,
            };
            print(&text)?;
        }
    }
    Ok(Done::Ok)
}
