//! External discard engines of §7: a command that reads one JSON object per decision on its
//! standard input and writes one answer line per decision, in any order, and a file of answers
//! that stands in for one.
//!
//! The command is started once (`sh -c CMD`). A writer thread writes the decisions and a
//! reader thread takes the answers as they come, so neither side can block the other on a
//! full pipe, and an engine that stops reading cannot keep haifu past the timeout. An
//! engine may hold answers back (a learned model batching requests for a GPU, an engine that
//! answers one request late): haifu sends the next batch of decisions before it waits for the
//! answers of the one before, so at most two batches are in flight (haifu holds their
//! decisions), and it closes the engine's input after the last decision, so that an engine
//! waiting for more input answers what it holds. haifu waits only for answers it is owed: it
//! times out when one is owed and none has come for the timeout. Any failure — the command
//! exits or closes its output early, writes a line that is not an answer, answers an id twice
//! or one it was never asked, or keeps one waiting past the timeout — is an [`EngineError`]
//! naming the decision, which ends `haifu agree` with exit 2 before any report is written.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::Value;

use crate::tile;

/// An engine that failed to answer as the protocol asks (exit 2).
#[derive(Debug)]
pub(crate) struct EngineError(pub(crate) String);

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

/// The kinds of an answer's `discard`: a tile name (`5p`, `0p` for a red five: the same
/// kind) or an array of them.
pub(crate) fn parse_discard(v: &Value) -> Option<u64> {
    let kind = |v: &Value| v.as_str().and_then(tile::parse_kind).map(|k| 1u64 << k);
    match v {
        Value::Array(items) => items.iter().try_fold(0u64, |m, v| Some(m | kind(v)?)),
        v => kind(v),
    }
}

/// What the reader thread passes on: an answer (id, kinds), or why the output ended.
enum Line {
    Answer(u64, u64),
    Bad(usize, String),
    Closed,
}

/// A running engine command.
pub(crate) struct External {
    pub(crate) name: String,
    child: Child,
    /// Decisions for the writer thread, which owns the engine's input; dropped to close it.
    stdin: Option<Sender<String>>,
    answers: Receiver<Line>,
    timeout: Duration,
    /// Answers of the decisions sent and not yet collected, in id order from `base`: kinds,
    /// 0 while unanswered, `u64::MAX` for an answer with no kind (an invalid one).
    window: VecDeque<u64>,
    /// The id of the oldest decision sent and not yet collected.
    base: u64,
}

impl External {
    /// Starts `cmd` with `sh -c`.
    pub(crate) fn start(cmd: &str, timeout: Duration) -> Result<External> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Its own process group, so that stopping it stops whatever the shell started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start engine `{cmd}`"))?;
        let stdin = child.stdin.take().expect("piped");
        let (to_engine, decisions) = mpsc::channel::<String>();
        std::thread::Builder::new()
            .name("haifu-engine-writer".into())
            .spawn(move || write_decisions(decisions, stdin))
            .context("cannot start the engine writer thread")?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("haifu-engine-reader".into())
            .spawn(move || {
                for (n, line) in BufReader::with_capacity(1 << 16, stdout)
                    .lines()
                    .enumerate()
                {
                    let msg = match line {
                        Ok(line) => parse_answer(&line).map_or_else(
                            |why| Line::Bad(n + 1, format!("{why}: {}", shorten(&line))),
                            |(id, kinds)| Line::Answer(id, kinds),
                        ),
                        Err(e) => Line::Bad(n + 1, format!("unreadable output: {e}")),
                    };
                    let stop = matches!(msg, Line::Bad(..));
                    if tx.send(msg).is_err() || stop {
                        return;
                    }
                }
                let _ = tx.send(Line::Closed);
            })
            .context("cannot start the engine reader thread")?;
        Ok(External {
            name: cmd.to_string(),
            child,
            stdin: Some(to_engine),
            answers: rx,
            timeout,
            window: VecDeque::new(),
            base: 0,
        })
    }

    /// The id the next decision sent gets (decisions are numbered 0, 1, … in the order sent).
    pub(crate) fn next_id(&self) -> u64 {
        self.base + self.window.len() as u64
    }

    /// Sends decision [`External::next_id`] (a JSON object without its newline). It is
    /// written by a thread of its own, so an engine that stops reading cannot block haifu past
    /// the timeout. An engine that has closed its input is found out when its answers are
    /// collected, as the oldest decision it did not answer (whatever the writer managed to
    /// write before it noticed).
    pub(crate) fn send(&mut self, line: &str) {
        if let Some(tx) = &self.stdin {
            // An error means the writer stopped: the engine closed its input.
            let _ = tx.send(line.to_string());
        }
        self.window.push_back(0);
    }

    /// Closes the engine's input after the last decision (once the writer has written every
    /// decision): an engine that holds answers until its input ends then writes them.
    pub(crate) fn close_input(&mut self) {
        drop(self.stdin.take());
    }

    /// Waits for the answers of the `out.len()` oldest decisions not yet collected and moves
    /// them into `out`, in id order; answers to later decisions that come meanwhile are kept.
    /// `describe(i)` names the i-th of them.
    pub(crate) fn collect(
        &mut self,
        out: &mut [u64],
        describe: impl Fn(usize) -> String,
    ) -> Result<()> {
        let n = out.len();
        assert!(n <= self.window.len(), "only decisions sent are collected");
        let mut left = self.window.iter().take(n).filter(|&&a| a == 0).count();
        while left > 0 {
            let waiting = |w: &VecDeque<u64>| w.iter().take(n).position(|&a| a == 0).unwrap_or(0);
            match self.answers.recv_timeout(self.timeout) {
                Ok(Line::Answer(id, kinds)) => {
                    let i = id.checked_sub(self.base).map(|i| i as usize);
                    match i.filter(|&i| i < self.window.len()) {
                        Some(i) if self.window[i] != 0 => {
                            let which = if i < n {
                                format!(" ({})", describe(i))
                            } else {
                                String::new()
                            };
                            return Err(self.fail(format!("answered decision {id} twice{which}")));
                        }
                        Some(i) => {
                            // An empty set is an answer too (an invalid one): mark it apart.
                            self.window[i] = if kinds == 0 { u64::MAX } else { kinds };
                            left -= usize::from(i < n);
                        }
                        None => {
                            return Err(self.fail(format!(
                                "answered decision {id}, which it was not asked (or already \
                                 answered in an earlier batch)"
                            )))
                        }
                    }
                }
                Ok(Line::Bad(line, why)) => {
                    return Err(self.fail(format!(
                        "wrote a line that is not an answer (line {line}): {why}"
                    )))
                }
                Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let i = waiting(&self.window);
                    return Err(self.exited(&describe(i)));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let i = waiting(&self.window);
                    return Err(self.fail(format!(
                        "did not answer decision {} ({}) within {:?}",
                        self.base + i as u64,
                        describe(i),
                        self.timeout
                    )));
                }
            }
        }
        for o in out.iter_mut() {
            let a = self.window.pop_front().expect("n decisions are waiting");
            *o = if a == u64::MAX { 0 } else { a };
        }
        self.base += n as u64;
        Ok(())
    }

    /// Closes the engine's input and waits for it to exit.
    pub(crate) fn finish(mut self) -> Result<()> {
        drop(self.stdin.take());
        let status = self.child.wait().context("cannot wait for the engine")?;
        if !status.success() {
            return Err(EngineError(format!(
                "engine `{}` exited with {status} after its last answer",
                self.name
            ))
            .into());
        }
        Ok(())
    }

    fn exited(&mut self, waiting_for: &str) -> anyhow::Error {
        drop(self.stdin.take());
        let status = self
            .child
            .wait()
            .map_or_else(|e| format!("(status unknown: {e})"), |s| s.to_string());
        EngineError(format!(
            "engine `{}` exited ({status}) before answering decision {waiting_for}",
            self.name
        ))
        .into()
    }

    fn fail(&mut self, what: String) -> anyhow::Error {
        self.stop();
        EngineError(format!("engine `{}` {what}", self.name)).into()
    }

    /// Kills the engine's process group (the shell and what it started) and reaps the shell.
    fn stop(&mut self) {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: kill with a negative pid signals the group the child leads.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        drop(self.stdin.take());
    }
}

impl Drop for External {
    /// An engine left running (haifu stopped on an error of its own) is stopped.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.stop();
        }
    }
}

/// The writer thread: writes each decision as a line, flushing whenever no more are waiting
/// (an engine may answer what it has before more comes); closes the engine's input when the
/// sender is dropped, and stops when the engine closes it.
fn write_decisions(decisions: Receiver<String>, stdin: ChildStdin) {
    let mut w = BufWriter::with_capacity(1 << 16, stdin);
    while let Ok(line) = decisions.recv() {
        // This decision and every one already waiting, then a flush.
        for line in std::iter::once(line).chain(decisions.try_iter()) {
            let written = w
                .write_all(line.as_bytes())
                .and_then(|_| w.write_all(b"\n"));
            if written.is_err() {
                return;
            }
        }
        if w.flush().is_err() {
            return;
        }
    }
}

/// An answer line: `{"id": N, "discard": "5p"}` or `{"id": N, "discard": ["5p", "6p"]}`.
fn parse_answer(line: &str) -> std::result::Result<(u64, u64), &'static str> {
    let v: Value = serde_json::from_str(line).map_err(|_| "not JSON")?;
    let id = v
        .get("id")
        .and_then(Value::as_u64)
        .ok_or("no integer `id`")?;
    let kinds = v
        .get("discard")
        .and_then(parse_discard)
        .ok_or("`discard` is not a tile name or an array of tile names")?;
    Ok((id, kinds))
}

fn shorten(line: &str) -> String {
    let mut s: String = line.chars().take(120).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// A file of answers (CSV `game_id,hand,seat,turn,discard`, a header line first; `discard` a
/// tile name or several separated by `|`), keyed by decision.
pub(crate) struct Answers {
    pub(crate) name: String,
    map: HashMap<(String, u16, u8, u8), u64>,
}

impl Answers {
    pub(crate) fn read(path: &Path) -> Result<Answers> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read answers {}", path.display()))?;
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l.trim()).unwrap_or_default();
        if header != "game_id,hand,seat,turn,discard" {
            anyhow::bail!(
                "{}: the first line is {header:?}, expected game_id,hand,seat,turn,discard",
                path.display()
            );
        }
        let mut map = HashMap::new();
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || format!("{} line {}: {line:?}", path.display(), n + 1);
            let f: Vec<&str> = line.trim().split(',').collect();
            let [id, hand, seat, turn, discard] = f[..] else {
                anyhow::bail!("{}: expected 5 fields", bad());
            };
            let kinds = discard
                .split('|')
                .try_fold(0u64, |m, t| tile::parse_kind(t.trim()).map(|k| m | 1 << k));
            let key = (
                id.to_string(),
                hand.parse().with_context(bad)?,
                seat.parse().with_context(bad)?,
                turn.parse().with_context(bad)?,
            );
            let kinds = kinds.with_context(|| format!("{}: not a tile name", bad()))?;
            if map.insert(key, kinds).is_some() {
                anyhow::bail!("{}: a second answer for the same decision", bad());
            }
        }
        Ok(Answers {
            name: format!("answers:{}", path.display()),
            map,
        })
    }

    /// The answer to a decision, or an error naming it.
    pub(crate) fn answer(&self, game_id: &str, hand: u16, seat: u8, turn: u8) -> Result<u64> {
        self.map
            .get(&(game_id.to_string(), hand, seat, turn))
            .copied()
            .ok_or_else(|| {
                EngineError(format!(
                    "{} has no answer for decision game {game_id} hand {hand} seat {seat} turn {turn}",
                    self.name
                ))
                .into()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse() {
        assert_eq!(
            parse_answer(r#"{"id": 3, "discard": "5p"}"#),
            Ok((3, 1 << 13))
        );
        assert_eq!(
            parse_answer(r#"{"id": 3, "discard": "0p"}"#),
            Ok((3, 1 << 13))
        );
        assert_eq!(
            parse_answer(r#"{"id": 4, "discard": ["1m", "7z"]}"#),
            Ok((4, 1 | 1 << 33))
        );
        assert_eq!(parse_answer(r#"{"id": 4, "discard": []}"#), Ok((4, 0)));
        // A kind named twice (a red five and a black one are one kind) is in the set once.
        assert_eq!(
            parse_answer(r#"{"id": 5, "discard": ["5p", "0p", "7z"]}"#),
            Ok((5, 1 << 13 | 1 << 33))
        );
        assert!(parse_answer("5p").is_err());
        assert!(parse_answer(r#"{"discard": "5p"}"#).is_err());
        assert!(parse_answer(r#"{"id": 1, "discard": "5x"}"#).is_err());
        assert!(parse_answer(r#"{"id": -1, "discard": "5p"}"#).is_err());
    }
}
