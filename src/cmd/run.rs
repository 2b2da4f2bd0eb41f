//! `haifu run`: ingest, then every report into `<out>/reports/`, the parameter file, and a
//! readable summary on stdout.
//!
//! The whole run is one transaction: frames, manifest and reports are written into a staging
//! directory inside `<out>` ([`Staging`]) and moved into place only once every report is
//! written, so that Ctrl-C or an error at any point, the report phase included, leaves the
//! previous output as it was.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::args::{InputArgs, SliceArgs};
use super::{print, Done};
use crate::danger::EstimatorName;
use crate::frames::{dataset, write_atomically};
use crate::ingest;
use crate::report::Format;
use crate::rules::Players;
use crate::runtime::{check_interrupt, return_freed_memory, timing};
use crate::{frames, params, report};

/// Ingest logs, then write every report and the parameter file (the main job).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Output directory: frames, manifest.json and reports/.
    #[arg(long, short)]
    out: PathBuf,
    /// With a slice, the frames hold every game ingested and the reports only the selected
    /// games; the draw-rate reports and the parameter file, pooled over the ingest, are not
    /// written (use --since/--until or --room to ingest the slice itself).
    #[command(flatten)]
    slice: SliceArgs,
    /// How the reports shown on stdout are printed (every report is written to
    /// DIR/reports/ as CSV and JSON either way): `table`; `csv`, the summary, riichi-response,
    /// wait-danger, danger-eval and danger-calibration rows one block after another, a blank
    /// line between; `json`, one object with those reports' rows by name (and "slice").
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
}

/// The subdirectory of `reports/` that holds the three-player games' reports (§24).
const SANMA: &str = "sanma";

/// When the frames in `dir` hold three-player games, writes their reports into `out` (the
/// slice's, when one is given: selected among them), with their parameter file and its
/// validation unless sliced; returns how many games they are.
fn write_sanma(dir: &Path, out: &Path, slice_args: &SliceArgs) -> Result<Option<u64>> {
    let present = report::Table::present(dir)?;
    if !present.contains(&Players::Three) {
        return Ok(None);
    }
    let table = report::Table::of(dir, Players::Three, &present)?;
    let mut slice = slice_args
        .expr
        .as_deref()
        .map(|e| report::Slice::select(dir, e, &table))
        .transpose()?;
    if let Some(s) = &mut slice {
        s.score_danger(dir, &EstimatorName::DEFAULT, None)?;
    }
    let t0 = std::time::Instant::now();
    report::write_all(dir, out, slice.as_ref(), &table)?;
    match &slice {
        None => {
            let df = report::tsumo::report(dir, None, &table)?;
            let validation = out.join("tsumo_validation.json");
            write_atomically(&validation, (report::to_json(&df) + "\n").as_bytes())?;
            write_atomically(
                &validation.with_extension("csv"),
                report::to_csv(&df)?.as_bytes(),
            )?;
            let (value, csv) = params::tsumo_rate(dir, params::Fold::All, &table)?;
            params::write(&out.join("tsumo_rate.json"), &value, &csv)?;
        }
        Some(s) => write_atomically(
            &out.join("slice.json"),
            (serde_json::to_string_pretty(&s.json())? + "\n").as_bytes(),
        )?,
    }
    timing("three-player reports", t0.elapsed());
    Ok(Some(table_games(dir, Players::Three)?))
}

/// The games of `players` in the frames in `dir`.
fn table_games(dir: &Path, players: Players) -> Result<u64> {
    use polars::prelude::{col, len, lit};
    let games = report::collect(
        dataset::scan(dir, "games")?
            .filter(col("players").eq(lit(players.seats() as i32)))
            .select([len().alias("n")]),
    )?;
    Ok(games.column("n")?.get(0)?.extract::<u64>().unwrap_or(0))
}

/// Copies the files (not the directories) of `from` into `to`, which it creates.
fn copy_files(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to)?;
    for e in fs::read_dir(from)? {
        let e = e?;
        if e.file_type()?.is_file() {
            fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}

/// Reports shown on stdout after a run, in this order.
const SHOWN: [&str; 3] = ["summary", "riichi-response", "wait-danger"];

pub(crate) fn run(args: &Args) -> Result<Done> {
    let stage = Staging::new(&args.out)?;
    let dir = stage.dir.as_path();
    // The ingest scores the §8 models as it finishes, unless only a slice is reported.
    let options = ingest::IngestOptions {
        tsumo_validation: args.slice.expr.is_none(),
        ..args.input.options(dir)
    };
    let mut summary = ingest::ingest(&options)?;
    summary.out = args.out.clone();
    eprintln!("{summary}");
    let done = Done::failed_if(summary.failed());
    if !summary.written {
        return Ok(done);
    }
    return_freed_memory();
    let reports_dir = dir.join("reports");
    let (table, mut slice) = args.slice.select(dir)?;
    if let Some(s) = &mut slice {
        s.score_danger(dir, &EstimatorName::DEFAULT, None)?;
    }
    let t0 = std::time::Instant::now();
    let reports = report::write_all(dir, &reports_dir, slice.as_ref(), &table)?;
    timing("reports", t0.elapsed());
    let validation_df = summary.tsumo_validation.take();
    let report = |name: &str| {
        reports
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, df)| df)
            .expect("a bundled report")
    };
    let danger_tables = report::danger::render_reports(
        report("danger-eval"),
        report("danger-calibration"),
        table.players,
    )?;
    let param_files = reports_dir.join("tsumo_rate.json");
    let validation = reports_dir.join("tsumo_validation.json");
    match &slice {
        None => {
            let df = validation_df.expect("the ingest scores §8 when there is no slice");
            write_atomically(&validation, (report::to_json(&df) + "\n").as_bytes())?;
            write_atomically(
                &validation.with_extension("csv"),
                report::to_csv(&df)?.as_bytes(),
            )?;
            let t0 = std::time::Instant::now();
            let (value, csv) = if table.mixed() {
                params::tsumo_rate(dir, params::Fold::All, &table)?
            } else {
                params::tsumo_rate_from(
                    &summary.manifest.totals,
                    &summary.manifest.corpus,
                    params::Fold::All,
                    report("draw-rate"),
                    report("draw-rate-by-turn"),
                    table.players,
                )?
            };
            timing("parameter file", t0.elapsed());
            params::write(&param_files, &value, &csv)?;
        }
        Some(s) => {
            write_atomically(
                &reports_dir.join("slice.json"),
                (serde_json::to_string_pretty(&s.json())? + "\n").as_bytes(),
            )?;
        }
    }
    // §24: the three-player games' reports and parameter files in reports/sanma/: those just
    // written to reports/ when they are the three-player table's (a corpus of three-player
    // games only), else computed for it.
    let sanma = if table.players == Players::Three && !table.mixed() {
        copy_files(&reports_dir, &reports_dir.join(SANMA))?;
        Some(table_games(dir, Players::Three)?)
    } else {
        write_sanma(dir, &reports_dir.join(SANMA), &args.slice)?
    };
    // The last moment to stop: after it the new output replaces the old.
    check_interrupt()?;
    stage.commit()?;
    let reports_dir = args.out.join("reports");
    if let Some(h) = table.header() {
        eprintln!("{h}");
    }
    print(&shown(
        &report,
        slice.as_ref(),
        &danger_tables,
        args.format,
    )?)?;
    if let Some(games) = sanma {
        eprintln!(
            "{games} three-player games (§24): their reports (CSV and JSON){} written to {}",
            if slice.is_none() {
                ", tsumo_rate.json and tsumo_validation.json"
            } else {
                ""
            },
            reports_dir.join(SANMA).display()
        );
    }
    match &slice {
        None => eprintln!(
            "reports (CSV and JSON), tsumo_rate.json and tsumo_validation.json written to {}",
            reports_dir.display()
        ),
        Some(_) => eprintln!(
            "reports of the slice (CSV and JSON; no draw-rate reports, no parameter file: \
             they are pooled over the ingest) written to {}",
            reports_dir.display()
        ),
    }
    Ok(done)
}

/// The reports of [`SHOWN`] and §4's in `format`.
fn shown<'a>(
    report: &dyn Fn(&str) -> &'a polars::prelude::DataFrame,
    slice: Option<&report::Slice>,
    danger_tables: &str,
    format: Format,
) -> Result<String> {
    let names = SHOWN.iter().chain(&["danger-eval", "danger-calibration"]);
    Ok(match format {
        Format::Table => {
            let mut shown = String::new();
            if let Some(s) = slice {
                shown.push_str(&format!("{}\n\n", s.header()));
            }
            for name in SHOWN {
                shown.push_str(&format!("== {name}\n{}\n", report::to_table(report(name))));
            }
            shown.push_str("== danger-eval\n");
            shown.push_str(danger_tables);
            shown
        }
        Format::Csv => {
            let blocks: Vec<String> = names
                .map(|n| report::to_csv(report(n)))
                .collect::<polars::prelude::PolarsResult<_>>()?;
            blocks.join("\n")
        }
        Format::Json => {
            let mut value = serde_json::Map::new();
            if let Some(s) = slice {
                value.insert("slice".into(), s.json());
            }
            for n in names {
                value.insert(n.to_string(), report::rows_json(report(n)));
            }
            serde_json::to_string_pretty(&value)? + "\n"
        }
    })
}

/// A run's output directory being built: `<out>/.haifu-run-<pid>`, on the same file system as
/// `<out>` so that [`Staging::commit`] only renames. Dropped without a commit (an error, an
/// interrupt), it is removed with everything in it.
struct Staging {
    out: PathBuf,
    dir: PathBuf,
    committed: bool,
}

impl Staging {
    fn new(out: &Path) -> Result<Staging> {
        fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
        let dir = out.join(format!(".haifu-run-{}", std::process::id()));
        // A directory of that name is from a run of the same pid that was killed outright.
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Staging {
            out: out.to_path_buf(),
            dir,
            committed: false,
        })
    }

    /// Moves the staged output into `<out>`: the reports, then the frames, the manifest last
    /// (as an ingest renames it last). Files of an earlier run that this one did not write (a
    /// frame written on request, a report not written under a slice, the parameter file of an
    /// unsliced run) are removed, so that nothing left in `<out>` is out of step; so are the
    /// parts of a frame in parts, once the frame's one new file is in place. A frame the run
    /// wrote in parts replaces the frame in `<out>`, one file and parts.
    fn commit(mut self) -> Result<()> {
        let reports = self.out.join("reports");
        fs::create_dir_all(&reports)
            .with_context(|| format!("cannot create {}", reports.display()))?;
        for name in report_files() {
            if !self.dir.join("reports").join(&name).exists() {
                let _ = fs::remove_file(reports.join(&name));
            }
        }
        // The three-player reports of an earlier run go, replaced by this run's or not.
        let _ = fs::remove_dir_all(reports.join(SANMA));
        let names = || frames::FRAMES.iter().chain(&frames::ON_REQUEST_FRAMES);
        for name in names() {
            if !dataset::exists(&self.dir, name) {
                dataset::remove(&self.out, name)?;
            }
        }
        let staged_reports = self.dir.join("reports");
        if staged_reports.is_dir() {
            for e in fs::read_dir(&staged_reports)? {
                let e = e?;
                rename(&e.path(), &reports.join(e.file_name()))?;
            }
        }
        // A frame the run wrote in parts (past `frames::PART_ROW_GROUPS` row groups) replaces
        // the frame's one file and parts in `<out>` whole.
        let mut in_parts = Vec::new();
        for name in names() {
            let staged = self.dir.join(name);
            if staged.is_dir() {
                dataset::remove(&self.out, name)?;
                rename(&staged, &self.out.join(name))?;
                in_parts.push(*name);
            }
        }
        let mut top: Vec<PathBuf> = fs::read_dir(&self.dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<_>>()?;
        top.retain(|p| p.is_file());
        top.sort_by_key(|p| p.file_name().is_some_and(|n| n == "manifest.json"));
        for p in top {
            rename(&p, &self.out.join(p.file_name().expect("a file name")))?;
        }
        for name in names().filter(|n| !in_parts.contains(n)) {
            dataset::remove_parts(&self.out, name)?;
        }
        self.committed = true;
        let _ = fs::remove_dir_all(&self.dir);
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

fn rename(from: &Path, to: &Path) -> Result<()> {
    fs::rename(from, to)
        .with_context(|| format!("cannot move {} to {}", from.display(), to.display()))
}

/// Every file a run may write into `<out>/reports/`.
fn report_files() -> Vec<String> {
    let mut names: Vec<String> = report::REPORTS
        .iter()
        .flat_map(|r| [format!("{}.csv", r.name), format!("{}.json", r.name)])
        .collect();
    for stem in ["tsumo_rate", "tsumo_validation"] {
        names.push(format!("{stem}.json"));
        names.push(format!("{stem}.csv"));
    }
    names.push("slice.json".to_string());
    names
}
