//! `haifu review`: an mjai bot driven over a corpus, every decision scored against the players.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};

use super::args::SliceArgs;
use super::{print, Done};
use crate::report::{self, Format};
use crate::review::{self, session::Style, Options};
use crate::runtime::rate_timing;

/// Drive an mjai bot over the games of a frames directory and score its every decision (§23)
/// against the players' (docs/review.md)
#[derive(Debug, clap::Args)]
#[command(
    after_help = "For each (game, seat) the bot is started with `sh -c CMD` ({seat} in CMD \
replaced by the seat it plays) and sent the game as mjai events from that seat's view (the other \
seats' dealt tiles and draws as \"?\"), one event per line; at each of the seat's decisions (win, \
riichi, call, kan, kyuushu, discard) its answer is compared with what the player did, then the game \
goes on as the player played it. --mjai-style says when the bot answers: each (one answer line per \
event line: Mortal's review mode), actionable (an array of one or two events after its own tsumo and \
every other seat's dahai or kakan: akochan's pipe mode), array (the events since its last answer as \
one JSON array where it has a decision, one answer back: mjai.app).

The games are read again from the logs the frames' manifest.json names (run from the directory the \
ingest ran in). The frames reviews (one row per decision, in parts: reviews/part-NNNNN.parquet) and \
review_failures.parquet (one row per failed (game, seat)) are written into --out as the review goes; \
--resume skips the pairs already there. A bot that exits, hangs past --timeout or writes a line that is not mjai \
fails that (game, seat), which counts no decision; the review goes on and exits 2. An answer the \
rules do not allow there counts as invalid.

Three-player games (§24, --players 3): seats 0-2, the mjai dialect of the three-player Mortal \
forks (three names, scores, hands and deltas; a kita is {\"type\":\"nukidora\",\"actor\":A,\"pai\":\"N\"}); \
the bot may answer nukidora after its own tsumo, and another seat's nukidora asks it whether it \
rons the North."
)]
pub(crate) struct Args {
    /// Directory of a `haifu run` or `haifu ingest` (its manifest names the logs).
    #[arg(long)]
    frames: PathBuf,
    /// The bot's command line (`{seat}` is replaced by the seat it plays).
    #[arg(long, value_name = "CMD")]
    mjai: String,
    /// The bot's name in the frames and reports (default: the command).
    #[arg(long)]
    name: Option<String>,
    /// Output directory for the frames reviews (reviews/part-*.parquet) and review_failures.
    #[arg(long, short)]
    out: PathBuf,
    /// When the bot answers.
    #[arg(long, value_enum, default_value = "each")]
    mjai_style: Style,
    /// The seats to review, comma-separated (default: every seat, 0-3; 0-2 in three-player
    /// games).
    #[arg(long, value_delimiter = ',')]
    seats: Option<Vec<u8>>,
    /// Bot processes at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Review N games sampled evenly from the corpus (not the first N).
    #[arg(long, value_name = "N")]
    limit_games: Option<usize>,
    /// Seconds the bot may take for an answer.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    timeout: f64,
    /// Keep a bot process between games of its seat (the next start_game follows end_game).
    #[arg(long)]
    reuse: bool,
    /// Skip the (game, seat) pairs already in --out's reviews frame.
    #[arg(long)]
    resume: bool,
    /// The report: per kind of decision, or per (game, seat).
    #[arg(long, value_enum, default_value = "kind")]
    by: By,
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Never show a progress bar.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    slice: SliceArgs,
}

/// What the report is split by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum By {
    /// Per kind of decision, by turn and by riichi opponents.
    Kind,
    /// Per (game, seat).
    Game,
}

pub(crate) fn run(args: &Args) -> Result<Done> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    // §24: the games reviewed are of one table; a three-player game has seats 0-2.
    let table = args.slice.table(&args.frames)?.players;
    let last = table.seats() as u8 - 1;
    let mut seats = args.seats.clone().unwrap_or_else(|| (0..=last).collect());
    if let Some(s) = seats.iter().find(|&&s| s > last) {
        bail!(
            "--seats: {s} is not a seat of a {}-player game (0-{last})",
            table.seats()
        );
    }
    seats.sort_unstable();
    seats.dedup();
    let slice = args.slice.games(&args.frames)?;
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let t0 = std::time::Instant::now();
    let summary = review::run(&Options {
        frames: args.frames.clone(),
        out: args.out.clone(),
        cmd: args.mjai.clone(),
        name: args.name.clone().unwrap_or_else(|| args.mjai.clone()),
        seats,
        jobs,
        limit_games: args.limit_games,
        timeout: Duration::from_secs_f64(args.timeout),
        slice,
        style: args.mjai_style,
        reuse: args.reuse,
        resume: args.resume,
        progress: !args.quiet,
    })?;
    rate_timing("review", summary.decisions, "decisions", t0);
    eprintln!(
        "haifu: review: {} (game, seat) pairs reviewed ({} from an earlier run), {} failed; {} decisions",
        summary.pairs + summary.resumed,
        summary.resumed,
        summary.failed,
        summary.decisions
    );
    let (df, decisions) = review::report(&args.out, args.by == By::Game)?;
    print(&report::render(&df, args.format, None)?)?;
    if decisions == 0 && summary.failed == 0 {
        let (table, slice) = args.slice.select(&args.frames)?;
        let why = report::empty::no_decisions(
            &args.frames,
            &table,
            slice.as_ref(),
            None,
            None,
            "review",
        )?;
        return Err(report::empty::NothingToReport(why).into());
    }
    Ok(Done::failed_if(summary.failed > 0))
}
