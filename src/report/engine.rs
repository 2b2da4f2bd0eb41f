//! External engines: a command that reads one JSON object per request on its standard input
//! and writes one answer line per request, in any order (§7's discard engines, §16's
//! hand-reading methods: each its own [`Answer`]), and a file of answers that stands in for a
//! §7 engine.
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

use crate::tile::{self, KINDS};

/// An external engine's command line, and the name reports give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EngineCommand {
    /// `NAME` of `--engine-cmd NAME=CMD`, else `cmd:CMD`.
    pub(crate) name: String,
    pub(crate) cmd: String,
}

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

/// An answer line of one protocol, parsed by the reader thread.
pub(crate) trait Answer: Sized + Send + 'static {
    /// The request id and the answer of `line`, or why it is not one.
    fn parse(line: &str) -> std::result::Result<(u64, Self), String>;
}

/// §7: the kinds of `discard` (bit k), 0 for an empty set (an invalid answer, not an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Discard(pub(crate) u64);

impl Answer for Discard {
    /// `{"id": N, "discard": "5p"}` or `{"id": N, "discard": ["5p", "6p"]}`.
    fn parse(line: &str) -> std::result::Result<(u64, Self), String> {
        let v = parse_object(line)?;
        let kinds = v
            .get("discard")
            .and_then(parse_discard)
            .ok_or("`discard` is not a tile name or an array of tile names")?;
        Ok((id_of(&v)?, Discard(kinds)))
    }
}

/// §23: the actions of `action`, a legal set's text form (`pon`, `discard:5p`) or an array
/// of them. An action the decision does not allow is an invalid answer (counted), not an
/// error; text that is no action at all is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ActionSet(pub(crate) Vec<crate::replay::legal::Action>);

impl ActionSet {
    /// The actions of a string or an array of strings.
    pub(crate) fn of_value(v: &Value) -> std::result::Result<ActionSet, String> {
        let one = |v: &Value| {
            v.as_str()
                .ok_or_else(|| "`action` is not a string or an array of strings".to_string())
                .and_then(crate::agree::every::parse_action)
        };
        match v {
            Value::Array(items) => items
                .iter()
                .map(one)
                .collect::<std::result::Result<_, _>>()
                .map(ActionSet),
            v => Ok(ActionSet(vec![one(v)?])),
        }
    }
}

impl Answer for ActionSet {
    /// `{"id": N, "action": "pon"}` or `{"id": N, "action": ["discard:5p", "discard:6p"]}`.
    fn parse(line: &str) -> std::result::Result<(u64, Self), String> {
        let v = parse_object(line)?;
        let set = ActionSet::of_value(v.get("action").ok_or("no `action`")?)?;
        Ok((id_of(&v)?, set))
    }
}

/// The object of an answer line.
fn parse_object(line: &str) -> std::result::Result<Value, String> {
    serde_json::from_str(line).map_err(|_| "not JSON".to_string())
}

/// An answer's `id`.
fn id_of(v: &Value) -> std::result::Result<u64, String> {
    Ok(v.get("id")
        .and_then(Value::as_u64)
        .ok_or("no integer `id`")?)
}

/// §16: a method's weights over the 34 kinds, non-negative and not all zero.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Weights(pub(crate) [f64; KINDS]);

impl Answer for Weights {
    /// `{"id": N, "weights": [w_1m, …, w_7z]}`: 34 finite numbers ≥ 0, at least one > 0.
    fn parse(line: &str) -> std::result::Result<(u64, Self), String> {
        // The common case without building a JSON tree; a line that is not an object with an
        // integer id and an array of numbers takes the long way, which says what is wrong.
        #[derive(serde::Deserialize)]
        struct Line {
            id: u64,
            weights: Vec<f64>,
        }
        let (id, items) = match serde_json::from_str::<Line>(line) {
            Ok(Line { id, weights }) => (id, weights),
            Err(_) => {
                let v = parse_object(line)?;
                let id = id_of(&v)?;
                let items = v
                    .get("weights")
                    .and_then(Value::as_array)
                    .ok_or("no array `weights`")?;
                if items.len() != KINDS {
                    return Err(wrong_length(items.len()));
                }
                let numbers = items
                    .iter()
                    .enumerate()
                    .map(|(k, x)| x.as_f64().ok_or_else(|| not_a_weight(k)))
                    .collect::<std::result::Result<Vec<f64>, String>>()?;
                (id, numbers)
            }
        };
        let w = <[f64; KINDS]>::try_from(items).map_err(|items| wrong_length(items.len()))?;
        if let Some(k) = w.iter().position(|x| !(x.is_finite() && *x >= 0.0)) {
            return Err(not_a_weight(k));
        }
        if w.iter().all(|&x| x == 0.0) {
            return Err("every weight is 0".into());
        }
        Ok((id, Weights(w)))
    }
}

/// Why weight `k` (< 34) of an answer is refused.
fn not_a_weight(k: usize) -> String {
    format!(
        "weight {} ({}) is not a finite number ≥ 0",
        k + 1,
        tile::kind_name(k)
    )
}

/// Why `weights` of `n` numbers is refused.
fn wrong_length(n: usize) -> String {
    format!("`weights` has {n} numbers, not 34 (one per kind, 1m … 7z)")
}

/// Bytes of request lines passed to the writer thread at a time.
const CHUNK: usize = 1 << 16;

/// What the reader thread passes on: an answer (id, answer), or why the output ended.
enum Line<A> {
    Answer(u64, A),
    Bad(usize, String),
    Closed,
}

/// A running engine command answering with `A`.
pub(crate) struct External<A: Answer> {
    pub(crate) name: String,
    child: Child,
    /// Requests for the writer thread, which owns the engine's input, in chunks of whole
    /// lines; dropped to close it.
    stdin: Option<Sender<String>>,
    /// Lines not yet passed to the writer: they go in chunks of about 64 KiB (one allocation
    /// per chunk, not per request), and all of them before haifu waits for an answer.
    pending: String,
    answers: Receiver<Line<A>>,
    timeout: Duration,
    /// Answers of the requests sent and not yet collected, in id order from `base` (None while
    /// unanswered).
    window: VecDeque<Option<A>>,
    /// The id of the oldest request sent and not yet collected.
    base: u64,
    /// What a request is called in errors (`decision`, `moment`).
    noun: &'static str,
}

impl<A: Answer> External<A> {
    /// Starts `cmd` with `sh -c`; its errors call a request a `noun`.
    pub(crate) fn start(cmd: &str, timeout: Duration, noun: &'static str) -> Result<External<A>> {
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
                        Ok(line) => A::parse(&line).map_or_else(
                            |why| Line::Bad(n + 1, format!("{why}: {}", shorten(&line))),
                            |(id, a)| Line::Answer(id, a),
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
            noun,
            pending: String::new(),
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
        self.pending.push_str(line);
        self.pending.push('\n');
        if self.pending.len() >= CHUNK {
            self.pass_pending();
        }
        self.window.push_back(None);
    }

    /// Passes the pending lines to the writer thread.
    fn pass_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let chunk = std::mem::replace(&mut self.pending, String::with_capacity(CHUNK + 4096));
        if let Some(tx) = &self.stdin {
            // An error means the writer stopped: the engine closed its input.
            let _ = tx.send(chunk);
        }
    }

    /// Closes the engine's input after the last decision (once the writer has written every
    /// decision): an engine that holds answers until its input ends then writes them.
    pub(crate) fn close_input(&mut self) {
        self.pass_pending();
        drop(self.stdin.take());
    }

    /// Waits for the answers of the `n` oldest requests not yet collected and returns them,
    /// in id order; answers to later requests that come meanwhile are kept. `describe(i)`
    /// names the i-th of them.
    pub(crate) fn collect(
        &mut self,
        n: usize,
        describe: impl Fn(usize) -> String,
    ) -> Result<Vec<A>> {
        assert!(n <= self.window.len(), "only requests sent are collected");
        // Every request sent reaches the engine before haifu waits for one of its answers.
        self.pass_pending();
        let mut left = self.window.iter().take(n).filter(|a| a.is_none()).count();
        while left > 0 {
            let waiting =
                |w: &VecDeque<Option<A>>| w.iter().take(n).position(Option::is_none).unwrap_or(0);
            match self.answers.recv_timeout(self.timeout) {
                Ok(Line::Answer(id, answer)) => {
                    let i = id.checked_sub(self.base).map(|i| i as usize);
                    match i.filter(|&i| i < self.window.len()) {
                        Some(i) if self.window[i].is_some() => {
                            let which = if i < n {
                                format!(" ({})", describe(i))
                            } else {
                                String::new()
                            };
                            let noun = self.noun;
                            return Err(self.fail(format!("answered {noun} {id} twice{which}")));
                        }
                        Some(i) => {
                            self.window[i] = Some(answer);
                            left -= usize::from(i < n);
                        }
                        None => {
                            let noun = self.noun;
                            return Err(self.fail(format!(
                                "answered {noun} {id}, which it was not asked (or already \
                                 answered in an earlier batch)"
                            )));
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
                        "did not answer {} {} ({}) within {:?}",
                        self.noun,
                        self.base + i as u64,
                        describe(i),
                        self.timeout
                    )));
                }
            }
        }
        let out = self
            .window
            .drain(..n)
            .map(|a| a.expect("every answer collected"))
            .collect();
        self.base += n as u64;
        Ok(out)
    }

    /// Closes the engine's input and waits for it to exit.
    pub(crate) fn finish(mut self) -> Result<()> {
        self.pass_pending();
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
            "engine `{}` exited ({status}) before answering {} {waiting_for}",
            self.name, self.noun
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

impl<A: Answer> Drop for External<A> {
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
    while let Ok(chunk) = decisions.recv() {
        // This chunk of lines and every one already waiting, then a flush.
        for chunk in std::iter::once(chunk).chain(decisions.try_iter()) {
            if w.write_all(chunk.as_bytes()).is_err() {
                return;
            }
        }
        if w.flush().is_err() {
            return;
        }
    }
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

/// A file of answers standing in for an engine over every decision (§23): CSV
/// `game_id,hand,seat,seq,kind,action`, the action in its text form or several separated by
/// `|`. A decision is looked up by (game_id, hand, seat, seq, kind); when a seat makes two
/// decisions of one kind at one `seq` (two kans in a row), the file's rows answer them in
/// order.
pub(crate) struct EveryAnswers {
    pub(crate) name: String,
    map: HashMap<EveryKey, VecDeque<Vec<crate::replay::legal::Action>>>,
}

/// A decision's key in an every-decision answer file: (game_id, hand, seat, seq, kind).
type EveryKey = (String, u16, u8, u16, String);

/// The header of an every-decision answer file.
pub(crate) const EVERY_ANSWERS_HEADER: &str = "game_id,hand,seat,seq,kind,action";

impl EveryAnswers {
    pub(crate) fn read(path: &Path) -> Result<EveryAnswers> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read answers {}", path.display()))?;
        let mut lines = text.lines().enumerate();
        let header = lines.next().map(|(_, l)| l.trim()).unwrap_or_default();
        if header != EVERY_ANSWERS_HEADER {
            anyhow::bail!(
                "{}: the first line is {header:?}, expected {EVERY_ANSWERS_HEADER}",
                path.display()
            );
        }
        let mut map: HashMap<_, VecDeque<_>> = HashMap::new();
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let bad = || format!("{} line {}: {line:?}", path.display(), n + 1);
            let f: Vec<&str> = line.trim().split(',').collect();
            let [id, hand, seat, seq, kind, action] = f[..] else {
                anyhow::bail!("{}: expected 6 fields", bad());
            };
            let actions = action
                .split('|')
                .map(|a| crate::agree::every::parse_action(a.trim()))
                .collect::<std::result::Result<Vec<_>, String>>()
                .map_err(|why| anyhow::anyhow!("{}: {why}", bad()))?;
            let key = (
                id.to_string(),
                hand.parse().with_context(bad)?,
                seat.parse().with_context(bad)?,
                seq.parse().with_context(bad)?,
                kind.to_string(),
            );
            map.entry(key).or_default().push_back(actions);
        }
        Ok(EveryAnswers {
            name: format!("answers:{}", path.display()),
            map,
        })
    }

    /// The next answer for the decision with this key.
    pub(crate) fn answer(
        &mut self,
        game_id: &str,
        hand: u16,
        seat: u8,
        seq: u16,
        kind: &str,
    ) -> Result<Vec<crate::replay::legal::Action>> {
        self.map
            .get_mut(&(game_id.to_string(), hand, seat, seq, kind.to_string()))
            .and_then(VecDeque::pop_front)
            .ok_or_else(|| {
                EngineError(format!(
                    "{} has no answer for decision game {game_id} hand {hand} seat {seat} seq {seq} kind {kind}",
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
            Discard::parse(r#"{"id": 3, "discard": "5p"}"#),
            Ok((3, Discard(1 << 13)))
        );
        assert_eq!(
            Discard::parse(r#"{"id": 3, "discard": "0p"}"#),
            Ok((3, Discard(1 << 13)))
        );
        assert_eq!(
            Discard::parse(r#"{"id": 4, "discard": ["1m", "7z"]}"#),
            Ok((4, Discard(1 | 1 << 33)))
        );
        assert_eq!(
            Discard::parse(r#"{"id": 4, "discard": []}"#),
            Ok((4, Discard(0)))
        );
        // A kind named twice (a red five and a black one are one kind) is in the set once.
        assert_eq!(
            Discard::parse(r#"{"id": 5, "discard": ["5p", "0p", "7z"]}"#),
            Ok((5, Discard(1 << 13 | 1 << 33)))
        );
        assert!(Discard::parse("5p").is_err());
        // A number where a kind is expected, or no discard at all.
        assert!(Discard::parse(r#"{"id": 1, "discard": 5}"#).is_err());
        assert!(Discard::parse(r#"{"discard": "5p"}"#).is_err());
        assert!(Discard::parse(r#"{"id": 1, "discard": "5x"}"#).is_err());
        assert!(Discard::parse(r#"{"id": -1, "discard": "5p"}"#).is_err());
    }

    /// §16 answers: 34 finite numbers ≥ 0, not all 0; every other line refused with why.
    #[test]
    fn weights_parse() {
        let line = |w: &str| format!(r#"{{"id": 7, "weights": {w}}}"#);
        let ones: Vec<String> = (0..34).map(|k| format!("{}", k % 3)).collect();
        let (id, Weights(w)) = Weights::parse(&line(&format!("[{}]", ones.join(",")))).unwrap();
        assert_eq!(id, 7);
        assert_eq!((w[0], w[1], w[2], w[33]), (0.0, 1.0, 2.0, 0.0));
        let err = |l: &str| Weights::parse(l).unwrap_err();
        assert!(err(&line("[1, 2]")).contains("has 2 numbers, not 34"));
        let mut with = ones.clone();
        with[2] = "-0.5".into();
        assert!(err(&line(&format!("[{}]", with.join(",")))).contains("weight 3 (3m)"));
        with[2] = "\"x\"".into();
        assert!(err(&line(&format!("[{}]", with.join(",")))).contains("weight 3 (3m)"));
        with[2] = "1".into();
        with.push("\"x\"".into());
        assert!(err(&line(&format!("[{}]", with.join(",")))).contains("has 35 numbers"));
        let zeros = vec!["0"; 34].join(",");
        assert_eq!(err(&line(&format!("[{zeros}]"))), "every weight is 0");
        assert_eq!(err(r#"{"weights": []}"#), "no integer `id`");
        assert_eq!(err(r#"{"id": 1}"#), "no array `weights`");
        assert_eq!(err("weights"), "not JSON");
    }
}
