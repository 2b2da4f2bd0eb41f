//! `haifu query`: a user's SQL (a file or the text itself) over the frames. Also the printing
//! of any SQL over the frames that `haifu stats` shares.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::args::{PrintArgs, ReportArgs};
use super::{print, Done};
use crate::danger::EstimatorName;
use crate::frames::{FRAMES, ON_REQUEST_FRAMES};
use crate::report;

/// Run your own SQL (polars dialect) over the frames: a file, or the SQL text itself. With
/// --print, print a bundled report's SQL (or yours) for DuckDB or Spark SQL instead.
#[derive(Debug, clap::Args)]
#[command(after_help = tables_help())]
pub(crate) struct Args {
    /// A SQL file, or SQL text ("SELECT count(*) AS games FROM games"), polars SQL dialect; with
    /// --print, also a bundled report's name (haifu stats --list).
    sql: String,
    /// Print the SQL instead of running it: views of the frames it reads (and of the tables
    /// haifu adds: params, kinds, yaku_names) over --frames, restricted as haifu restricts them
    /// (--players, --where, --seat), then the report itself, for --dialect (docs/scale.md).
    #[arg(long)]
    print: bool,
    /// The engine --print writes for.
    #[arg(long, value_enum, default_value = "duckdb", requires = "print")]
    dialect: report::portable::Dialect,
    #[command(flatten)]
    over: ReportArgs,
}

fn tables_help() -> String {
    format!(
        "Tables: {}, {} (written with --with NAME: haifu stats --list), and params (one row: \
         hands, seats). Columns: docs/frames.md.",
        FRAMES.join(", "),
        ON_REQUEST_FRAMES.join(", ")
    )
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if args.print {
        return print_for(args);
    }
    let (sql, what) = sql_of(&args.sql)?;
    print_sql(
        &args.over.frames,
        &args.over.print,
        &sql,
        None,
        &what,
        false,
        None,
    )?;
    Ok(Done::Ok)
}

/// `--print`: the SQL of a bundled report (by name) or of `args.sql`, for another engine.
fn print_for(args: &Args) -> Result<Done> {
    let (sql, filter, what) = match report::find(&args.sql) {
        Some(r) => (
            r.sql.to_string(),
            r.filter,
            format!("haifu report {}", r.name),
        ),
        None => {
            let (sql, what) = sql_of(&args.sql)?;
            (sql, None, what)
        }
    };
    let dir = &args.over.frames;
    let p = &args.over.print;
    let table = p.slice.table(dir)?;
    let scope = report::portable::Scope {
        slice: p.slice.expr.as_deref(),
        seat: p.seat,
    };
    print(&report::portable::print(
        dir,
        &sql,
        filter,
        &table,
        scope,
        args.dialect,
        &what,
    )?)?;
    Ok(Done::Ok)
}

/// The SQL `arg` names, and how to name it in a message: the contents of a file when `arg` is
/// one, else `arg` itself when it reads as SQL text (it has a space or a line break: no file
/// name a user types by hand is refused that way, since a missing file is named as one).
fn sql_of(arg: &str) -> Result<(String, String)> {
    let path = Path::new(arg);
    if path.is_file() {
        let sql = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        return Ok((sql, path.display().to_string()));
    }
    if arg.trim().contains(char::is_whitespace) {
        return Ok((arg.to_string(), "the query".to_string()));
    }
    bail!("cannot read {arg}: no such file (give a SQL file, or the SQL text in quotes)")
}

/// Runs `sql` (with `filter` on one of its columns) over the frames in `dir`, sliced and
/// printed as `print` says; `what` names it in a refusal. `note`: say on stderr which games'
/// formats do not record what it reads (bundled reports).
pub(crate) fn print_sql(
    dir: &Path,
    print_args: &PrintArgs,
    sql: &str,
    filter: Option<(&str, &str)>,
    what: &str,
    note: bool,
    min_games: Option<u64>,
) -> Result<()> {
    let (table, mut slice) = print_args.slice.select(dir)?;
    if let Some(s) = &mut slice {
        report::refuse_pooled(sql, what)?;
        if report::reads_danger(sql) {
            s.score_danger(dir, &EstimatorName::DEFAULT, None)?;
        }
    }
    if let Some(h) = table.header() {
        eprintln!("{h}");
    }
    let mut ctx = report::context_over(dir, print_args.seat, slice.as_ref(), &table)?;
    let mut df = report::run(&mut ctx, sql, filter)?;
    let rows = df.height();
    if let Some(n) = min_games {
        df = report::min_games(df, n)?;
    }
    // A bundled report that finds no unit says why (exit 3), after its (empty) table.
    let nothing = if note {
        match report::empty::no_games(&mut ctx, slice.as_ref())? {
            Some(why) => Some(why),
            None if df.height() > 0 => None,
            None if rows > 0 => Some(format!(
                "no name of the {rows} has --min-games {} games",
                min_games.unwrap_or(1)
            )),
            None => Some(report::empty::no_rows(&mut ctx, dir, sql, what)?),
        }
    } else {
        None
    };
    // Games whose format does not record what the report reads (on standard error, so that
    // CSV and JSON stay clean).
    if note {
        if let Some(n) = report::lacking_note(&mut ctx, sql)? {
            eprintln!("{n}");
        }
    }
    if let (report::Format::Csv, Some(s)) = (print_args.format, &slice) {
        eprintln!("{}", s.header());
    }
    print(&report::render(&df, print_args.format, slice.as_ref())?)?;
    match nothing {
        Some(why) => Err(report::empty::NothingToReport(why).into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sql_text_or_a_file() {
        let (sql, what) = super::sql_of("SELECT count(*) FROM games").unwrap();
        assert_eq!(
            (sql.as_str(), what.as_str()),
            ("SELECT count(*) FROM games", "the query")
        );
        let file = std::env::temp_dir().join(format!("haifu-q-{}.sql", std::process::id()));
        std::fs::write(&file, "SELECT 1 AS one").unwrap();
        let (sql, what) = super::sql_of(file.to_str().unwrap()).unwrap();
        assert_eq!(sql, "SELECT 1 AS one");
        assert_eq!(what, file.display().to_string());
        std::fs::remove_file(&file).unwrap();
        let e = super::sql_of("missing.sql").unwrap_err().to_string();
        assert!(e.contains("cannot read missing.sql: no such file"), "{e}");
    }
}
