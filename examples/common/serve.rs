//! The request loop the example engines share: one JSON request per line in, one answer
//! line per request out, released as an engine of each kind would (the tests run them all).

use std::io::{BufRead, BufReader, BufWriter, Write};

/// When the engine writes the answers it holds.
#[derive(Clone, Copy, PartialEq)]
enum Release {
    /// Whenever no more input is waiting.
    Idle,
    /// Once it holds N answers, or its input ends (a learned model batching requests for a
    /// GPU): `--hold N`.
    Hold(usize),
    /// Each answer once the next request has come, the last at the end of its input (an
    /// engine that answers one request late): `--lag`.
    Lag,
}

/// Answers every request line of standard input with `answer` (given the line) on standard
/// output, released
/// as the command-line options say (`--hold N`, `--lag`, `--reverse`; none: whenever no more
/// input is waiting).
pub(crate) fn serve(answer: impl Fn(&str) -> String) {
    let args: Vec<String> = std::env::args().collect();
    // `--reverse`: answer each run of waiting requests last first (answers may come in any
    // order; the tests use this).
    let reverse = args.iter().any(|a| a == "--reverse");
    let release = match args.iter().position(|a| a == "--hold") {
        Some(i) => Release::Hold(args[i + 1].parse().expect("--hold N")),
        None if args.iter().any(|a| a == "--lag") => Release::Lag,
        None => Release::Idle,
    };
    let mut stdin = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    let mut held: Vec<String> = Vec::new();
    loop {
        line.clear();
        let eof = stdin.read_line(&mut line).expect("readable input") == 0;
        if !eof {
            held.push(answer(line.trim_end()));
        }
        // haifu sends the next batch of requests before it waits for the answers of the one
        // before, and closes the engine's input after the last: an engine may answer as soon
        // as it can, or hold answers back until more input or the end of its input.
        let now = match release {
            _ if eof => held.len(),
            Release::Idle if stdin.buffer().is_empty() => held.len(),
            Release::Idle => 0,
            Release::Hold(n) if held.len() >= n => held.len(),
            Release::Hold(_) => 0,
            Release::Lag => held.len().saturating_sub(1),
        };
        if now > 0 {
            let mut ready: Vec<String> = held.drain(..now).collect();
            if reverse {
                ready.reverse();
            }
            for a in ready {
                if writeln!(out, "{a}").is_err() {
                    return;
                }
            }
            if out.flush().is_err() {
                return;
            }
        }
        if eof {
            return;
        }
    }
}
