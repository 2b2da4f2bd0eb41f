//! Docs that run: every shell example of README.md and docs/*.md is executed, and
//! docs/frames.md lists exactly the columns the frames have.
//!
//! The convention (docs/contributing.md):
//! - a fenced block with info string `sh` is run: the block is one bash script (`set -e`,
//!   `pipefail`) with `haifu` (and the example engines) on the PATH, in a scratch directory in
//!   which `fixtures/`, `fixtures-sanma/`, `queries/`, `examples/` and `notebooks/` are the
//!   repository's and
//!   `../shared` is the shared corpus's folder; the blocks of one page run in order in the same
//!   scratch directory. A block that reads `../shared/corpus` runs only when the corpus is
//!   there (absent, it is skipped loudly; with `HAIFU_REQUIRE_CORPUS=1` that is a failure);
//! - a block `text output` right after an `sh` block (blank lines between at most) must equal
//!   what that block printed on stdout, line for line, trailing spaces aside (not compared
//!   when that block was skipped for want of the corpus);
//! - a block `sh norun` is not run, and its first line says why: `# not run: <reason>`;
//! - any other shell block (`bash`, `shell`, `console`, `sh` with another word) fails the test,
//!   so that no example escapes both.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fenced block of a page.
#[derive(Debug)]
struct Block {
    /// The info string: language, then words.
    info: String,
    /// The line of the opening fence (1-based).
    line: usize,
    text: String,
}

/// The fenced blocks of a Markdown text (fences of three backticks at the start of a line).
fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                open = Some(Block {
                    info: line.trim_start().trim_start_matches('`').trim().to_string(),
                    line: i + 1,
                    text: String::new(),
                });
            }
            (Some(_), true) => out.push(open.take().expect("an open block")),
            (Some(b), false) => {
                b.text.push_str(line);
                b.text.push('\n');
            }
            (None, false) => {}
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    out
}

/// The pages whose examples are run: README.md and every docs/*.md.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

const SHELLS: [&str; 5] = ["sh", "bash", "shell", "console", "zsh"];

/// What one page's examples came to.
#[derive(Default)]
struct Tally {
    run: usize,
    compared: usize,
    not_run: usize,
    skipped: usize,
    failures: Vec<String>,
}

/// A scratch directory laid out as the examples expect: `work/` (the working directory) with
/// the repository's folders linked in, and `shared` beside it linked to the shared folder.
fn scratch(corpus_present: bool) -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = tempfile::tempdir().unwrap();
    let work = t.path().join("work");
    std::fs::create_dir(&work).unwrap();
    for d in [
        "fixtures",
        "fixtures-sanma",
        "queries",
        "examples",
        "notebooks",
    ] {
        std::os::unix::fs::symlink(root.join(d), work.join(d)).unwrap();
    }
    let shared = common::corpus_root().join("..");
    if corpus_present {
        std::os::unix::fs::symlink(shared.canonicalize().unwrap(), t.path().join("shared"))
            .unwrap();
    }
    t
}

/// The PATH for the examples: haifu's directory and its examples' first.
fn path_env() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_haifu")).parent().unwrap();
    format!(
        "{}:{}:{}",
        bin.display(),
        bin.join("examples").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn run_page(page: &Path, corpus_present: bool) -> Tally {
    let text = std::fs::read_to_string(page).unwrap();
    let name = page.file_name().unwrap().to_string_lossy().to_string();
    let dir = scratch(corpus_present);
    let work = dir.path().join("work");
    let mut tally = Tally::default();
    let all = blocks(&text);
    // The stdout of the last `sh` block run, for an output block right after it.
    let mut last: Option<(usize, String)> = None;
    // The `sh` block skipped for want of the corpus, if any: its output is not compared.
    let mut skipped: Option<usize> = None;
    for (i, b) in all.iter().enumerate() {
        let mut words = b.info.split_whitespace();
        let lang = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        let at = format!("{name}:{}", b.line);
        match (lang, rest.as_slice()) {
            ("sh", []) => {}
            ("sh", ["norun"]) => {
                if !b.text.starts_with("# not run: ") || b.text.lines().next().unwrap().len() < 16 {
                    tally.failures.push(format!(
                        "{at}: a `sh norun` block must start with `# not run: <reason>`"
                    ));
                }
                tally.not_run += 1;
                last = None;
                continue;
            }
            ("text", ["output"]) if skipped.is_some_and(|k| k + 1 == i) => continue,
            ("text", ["output"]) => {
                let before = i.checked_sub(1).map(|k| &all[k]);
                match (&last, before) {
                    (Some((k, out)), Some(_)) if *k + 1 == i => {
                        let norm = |s: &str| {
                            s.lines()
                                .map(str::trim_end)
                                .collect::<Vec<_>>()
                                .join("\n")
                                .trim_end()
                                .to_string()
                        };
                        if norm(out) != norm(&b.text) {
                            tally.failures.push(format!(
                                "{at}: the output shown is not what the block above prints:\n--- shown\n{}\n--- printed\n{}",
                                norm(&b.text),
                                norm(out)
                            ));
                        }
                        tally.compared += 1;
                    }
                    _ => tally.failures.push(format!(
                        "{at}: a `text output` block must follow an `sh` block that ran"
                    )),
                }
                continue;
            }
            (l, _) if SHELLS.contains(&l) => {
                tally.failures.push(format!(
                    "{at}: shell block `{}`: write `sh` (run by the tests) or `sh norun` with `# not run: <reason>`",
                    b.info
                ));
                last = None;
                continue;
            }
            _ => {
                last = None;
                continue;
            }
        }
        if b.text.contains("../shared/corpus") && !corpus_present {
            tally.skipped += 1;
            skipped = Some(i);
            last = None;
            continue;
        }
        let o = Command::new("bash")
            .args(["-e", "-o", "pipefail", "-c", &b.text])
            .current_dir(&work)
            .env("PATH", path_env())
            .output()
            .expect("bash runs");
        tally.run += 1;
        if !o.status.success() {
            tally.failures.push(format!(
                "{at}: exit {:?}\n{}\nstderr:\n{}",
                o.status.code(),
                b.text,
                String::from_utf8_lossy(&o.stderr)
            ));
            last = None;
        } else {
            last = Some((i, String::from_utf8_lossy(&o.stdout).to_string()));
        }
    }
    tally
}

/// Every shell example of the README and docs/ runs (or says why not), and every output shown
/// is what it prints.
#[test]
fn every_shell_example_runs() {
    // The examples call the example engines by name (cargo test builds them).
    common::example("max_ukeire_engine");
    common::example("hand_reading_engine");
    common::example("every_decision_engine");
    common::example("tsumogiri_bot");
    let corpus_present = common::corpus("phoenix").is_some();
    let mut failures = Vec::new();
    let mut totals = (0, 0, 0, 0);
    for page in pages() {
        let t = run_page(&page, corpus_present);
        eprintln!(
            "{}: {} run, {} outputs compared, {} not run (reason given), {} skipped (no corpus)",
            page.display(),
            t.run,
            t.compared,
            t.not_run,
            t.skipped
        );
        totals.0 += t.run;
        totals.1 += t.compared;
        totals.2 += t.not_run;
        totals.3 += t.skipped;
        failures.extend(t.failures);
    }
    eprintln!(
        "docs examples: {} run, {} outputs compared, {} not run, {} skipped",
        totals.0, totals.1, totals.2, totals.3
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(totals.0 >= 20, "only {} examples run", totals.0);
}

/// The block parser: fences, info strings, lines.
#[test]
fn blocks_are_read_with_their_info_and_line() {
    let md = "intro\n```sh\nhaifu --help\n```\n\n```text output\nhelp\n```\n```sh norun\n# not run: x\n```\n";
    let b = blocks(md);
    assert_eq!(b.len(), 3);
    assert_eq!(
        (b[0].info.as_str(), b[0].line, b[0].text.as_str()),
        ("sh", 2, "haifu --help\n")
    );
    assert_eq!(b[1].info, "text output");
    assert_eq!(b[2].info, "sh norun");
}

/// The frames and their columns as docs/frames.md lists them: `## \`name\`` sections, each
/// with a table whose rows start `| \`column\` | Type |`.
fn documented_frames() -> BTreeMap<String, Vec<(String, String)>> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/frames.md"))
            .expect("docs/frames.md exists");
    let mut frames: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            current = h
                .trim()
                .strip_prefix('`')
                .and_then(|h| h.strip_suffix('`'))
                .map(str::to_string);
            if let Some(c) = &current {
                assert!(frames.insert(c.clone(), Vec::new()).is_none(), "{c} twice");
            }
            continue;
        }
        let Some(frame) = &current else { continue };
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() >= 4 && cells[1].starts_with('`') && cells[1].ends_with('`') {
            let column = cells[1].trim_matches('`').to_string();
            frames
                .get_mut(frame)
                .unwrap()
                .push((column, cells[2].to_string()));
        }
    }
    frames
}

/// docs/frames.md lists every frame a run with every group writes, and for each exactly its
/// columns, in order, with their types.
#[test]
fn frames_md_lists_exactly_the_frames_columns() {
    let out = common::ingest_cli(&[common::fixtures()], &["--all"]);
    let documented = documented_frames();
    let mut actual: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for name in haifu::frames::FRAMES
        .iter()
        .chain(&haifu::frames::ON_REQUEST_FRAMES)
    {
        let df = common::frame(out.path(), name);
        let cols = df
            .columns()
            .iter()
            .map(|c| (c.name().to_string(), format!("{:?}", c.dtype())))
            .collect();
        actual.insert(name.to_string(), cols);
    }
    let mut problems = Vec::new();
    for (name, cols) in &actual {
        match documented.get(name) {
            None => problems.push(format!("frame `{name}` is not in docs/frames.md")),
            Some(doc) if doc != cols => {
                problems.push(format!(
                    "frame `{name}`:\n  docs/frames.md {doc:?}\n  the frame      {cols:?}"
                ));
            }
            Some(_) => {}
        }
    }
    for name in documented.keys() {
        if !actual.contains_key(name) {
            problems.push(format!(
                "docs/frames.md lists `{name}`, which no run writes"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
