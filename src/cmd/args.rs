//! Argument groups shared by several commands, validated into types as they are parsed.

use std::path::{Path, PathBuf};

use crate::groups::{Group, GROUPS};
use crate::ingest::{DateRange, IngestOptions, RoomFilter};
use crate::report::engine::EngineCommand;
use crate::report::{Format, Slice, Table};
use crate::rules::Players;
use crate::stats::Observe;

/// What to read and how, shared by `run` and `ingest`.
#[derive(Debug, clap::Args)]
pub(crate) struct InputArgs {
    /// Log files, directories (walked recursively) or log databases (houou-logs,
    /// phoenix-logs): mjlog XML, tenhou.net/6 JSON or mjai JSON lines, gzip'd or plain,
    /// recognised by content.
    #[arg(required = true)]
    pub(crate) inputs: Vec<PathBuf>,
    /// Keep only Tenhou games of this room. Games from elsewhere (rooms mahjongsoul, engine,
    /// other: Mahjong Soul exports, mjai self-play) are kept unless ROOM names one of them,
    /// which keeps only its games.
    #[arg(long, value_enum, default_value = "phoenix")]
    pub(crate) room: RoomFilter,
    /// Keep only games dated on or after DATE (YYYY-MM-DD, from the log id); others are
    /// skipped with reason `date` before they are read.
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub(crate) since: Option<String>,
    /// Keep only games dated on or before DATE (YYYY-MM-DD, from the log id).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub(crate) until: Option<String>,
    /// Exit 2 and write nothing if any file fails.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Also record and write the analyses NAME (comma-separated, or the option repeated); each
    /// adds frames (docs/frames.md), the reports that read them, and CPU time (measured on the
    /// 6,448 Phoenix games against the default run).
    #[arg(long = "with", value_name = "NAME", value_delimiter = ',', value_parser = group_parser())]
    pub(crate) with: Vec<Group>,
    /// Every analysis of --with.
    #[arg(long)]
    pub(crate) all: bool,
}

/// `--with`'s values: the names of [`GROUPS`], each with what it writes and costs.
fn group_parser() -> impl clap::builder::TypedValueParser<Value = Group> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = GROUPS.iter().map(|g| {
        let sections = match g.sections {
            "" => String::new(),
            s => format!("{s}: "),
        };
        let help = format!(
            "{sections}{}; frames {} ({})",
            g.about,
            g.frames.join(", "),
            g.cost
        );
        PossibleValue::new(g.name).help(help)
    });
    PossibleValuesParser::new(values)
        .map(|name| Group::from_name(&name).expect("a value the parser accepted"))
}

impl InputArgs {
    /// What the replay records: the groups of `--with`, or every group with `--all`.
    pub(crate) fn observe(&self) -> Observe {
        if self.all {
            let all: Vec<Group> = GROUPS.iter().map(|g| g.group).collect();
            Observe::with(&all)
        } else {
            Observe::with(&self.with)
        }
    }

    /// The ingest options for output directory `out`.
    pub(crate) fn options(&self, out: &Path) -> IngestOptions {
        IngestOptions {
            inputs: self.inputs.clone(),
            out: out.to_path_buf(),
            room: self.room,
            dates: DateRange {
                since: self.since.clone(),
                until: self.until.clone(),
            },
            strict: self.strict,
            progress: !self.quiet,
            observe: self.observe(),
            tsumo_validation: false,
            convert: None,
            append: false,
            shard: None,
        }
    }
}

/// `--engine-cmd`'s value: `NAME=CMD` (NAME letters, digits, `_`, `-`, `.` or `:`, before the
/// first `=`) names the engine in the report; a plain `CMD` is named `cmd:CMD`. A command
/// that itself starts with a variable assignment (`FOO=1 ./engine`) takes a name first:
/// `mine=FOO=1 ./engine`.
pub(crate) fn parse_engine_cmd(s: &str) -> Result<EngineCommand, String> {
    let named = s.split_once('=').filter(|(name, _)| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.:".contains(c))
    });
    let (name, cmd) = match named {
        Some((name, cmd)) => (name.to_string(), cmd.to_string()),
        None => (format!("cmd:{s}"), s.to_string()),
    };
    if cmd.trim().is_empty() {
        return Err(format!("`{s}` names no command"));
    }
    Ok(EngineCommand { name, cmd })
}

/// A calendar date `YYYY-MM-DD`.
pub(super) fn parse_date(s: &str) -> Result<String, String> {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let shaped = b.len() == 10 && b[4] == b'-' && b[7] == b'-' && digits(0..4) && digits(5..7);
    let shaped = shaped && digits(8..10);
    let month: u32 = if shaped {
        s[5..7].parse().unwrap_or(0)
    } else {
        0
    };
    let day: u32 = if shaped {
        s[8..10].parse().unwrap_or(0)
    } else {
        0
    };
    if !shaped || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(format!("`{s}` is not a date YYYY-MM-DD"));
    }
    Ok(s.to_string())
}

/// Which frames a report runs over and how it is printed, shared by `stats` and `query`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// Directory written by `haifu ingest --out` or `haifu run --out`.
    #[arg(long)]
    pub(crate) frames: PathBuf,
    #[command(flatten)]
    pub(crate) print: PrintArgs,
}

/// How a report is printed and over which units, shared by `stats` and `query`.
#[derive(Debug, clap::Args)]
pub(crate) struct PrintArgs {
    #[arg(long, value_enum, default_value = "table")]
    pub(crate) format: Format,
    /// Restrict riichi_response units to seat N (0..3; the classic table uses seat 0).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..4))]
    pub(crate) seat: Option<u8>,
    #[command(flatten)]
    pub(crate) slice: SliceArgs,
}

/// A slice of the games (docs/definitions.md §9), shared by every command that reports.
#[derive(Debug, Default, clap::Args)]
pub(crate) struct SliceArgs {
    /// Only the games for which EXPR holds: a polars-SQL condition over the `games` columns
    /// (date, dan_0..3, rate_0..3, room, hanchan, red, name_0..3, go_type, fold, ...), e.g.
    /// "date >= '2020-01-01'" or "rate_0 >= 2200 AND rate_1 >= 2200 AND rate_2 >= 2200 AND
    /// rate_3 >= 2200". Every per-game table is restricted to those games; reports of the
    /// pooled draw_rate frame refuse it (ingest the slice instead).
    #[arg(long = "where", value_name = "EXPR")]
    pub(crate) expr: Option<String>,
    /// Three- or four-player games (§24; no report pools them): by default four when the
    /// frames hold a four-player game, else three.
    #[arg(long, value_name = "N", value_parser = parse_players)]
    pub(crate) players: Option<Players>,
}

impl SliceArgs {
    /// The table the reports read (`--players`, or the frames' default).
    pub(crate) fn table(&self, dir: &Path) -> anyhow::Result<Table> {
        Table::select(dir, self.players)
    }

    /// The table, and the slice of its games in the frames in `dir` when one is asked for.
    pub(crate) fn select(&self, dir: &Path) -> anyhow::Result<(Table, Option<Slice>)> {
        let table = self.table(dir)?;
        let slice = self
            .expr
            .as_deref()
            .map(|e| Slice::select(dir, e, &table))
            .transpose()?;
        Ok((table, slice))
    }
}

impl SliceArgs {
    /// The games a command that reads rows of games reads: the slice asked for, else, over
    /// frames of both tables, the table's games as a slice of them (§24: none pools them);
    /// `None` for every game of the frames.
    pub(crate) fn games(&self, dir: &Path) -> anyhow::Result<Option<Slice>> {
        let (table, slice) = self.select(dir)?;
        if let Some(h) = table.header() {
            eprintln!("{h}");
        }
        match slice {
            None if table.mixed() => Ok(Some(Slice::select(dir, "true", &table)?)),
            s => Ok(s),
        }
    }
}

/// `--players`' value: 3 or 4.
pub(crate) fn parse_players(s: &str) -> Result<Players, String> {
    s.parse::<usize>()
        .ok()
        .and_then(Players::of_count)
        .ok_or_else(|| format!("`{s}` is not 3 or 4"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn engine_commands_are_named() {
        let named = super::parse_engine_cmd("mybot=./bot --fast").unwrap();
        assert_eq!(
            (named.name.as_str(), named.cmd.as_str()),
            ("mybot", "./bot --fast")
        );
        let plain = super::parse_engine_cmd("./bot --x=1").unwrap();
        assert_eq!(
            (plain.name.as_str(), plain.cmd.as_str()),
            ("cmd:./bot --x=1", "./bot --x=1")
        );
        let env = super::parse_engine_cmd("v2=FOO=1 ./bot").unwrap();
        assert_eq!((env.name.as_str(), env.cmd.as_str()), ("v2", "FOO=1 ./bot"));
        assert!(super::parse_engine_cmd("mybot=").is_err());
        assert!(super::parse_engine_cmd("  ").is_err());
    }

    #[test]
    fn dates() {
        assert_eq!(super::parse_date("2020-01-31").as_deref(), Ok("2020-01-31"));
        for bad in [
            "2020-1-31",
            "2020-13-01",
            "2020-00-10",
            "20200131",
            "2020-01-32",
            "x",
        ] {
            assert!(super::parse_date(bad).is_err(), "{bad}");
        }
    }
}
