//! One mjai bot process: started with `sh -c CMD` (`{seat}` in CMD replaced by the seat it
//! plays), fed lines on its standard input by a writer thread, read line by line by a reader
//! thread, so that a bot that stops reading or writing cannot keep haifu past the timeout.
//!
//! Invariants: every failure (the bot exits or closes its output, writes a line that is not
//! JSON, or keeps haifu waiting past the timeout) is a [`BotFault`] with the reason; a bot is
//! killed (its whole process group) when it fails or is dropped while running.

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, Command, Stdio};
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
use std::sync::mpsc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use serde_json::Value;

/// Why a bot failed a (game, seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BotFault {
    /// `exited`, `timeout`, `not-mjai` or `start`.
    pub(crate) reason: &'static str,
    pub(crate) detail: String,
}

impl BotFault {
    pub(crate) fn new(reason: &'static str, detail: impl Into<String>) -> BotFault {
        BotFault {
            reason,
            detail: detail.into(),
        }
    }
}

// Linux serves the pipes with poll (`fast`); elsewhere two threads and these messages do.
#[cfg_attr(all(target_os = "linux", target_env = "gnu"), allow(dead_code))]
enum Line {
    Text(String),
    Closed(String),
}

/// A running bot.
pub(crate) struct Bot {
    child: Child,
    to_bot: Option<Sender<String>>,
    lines: Option<Receiver<Line>>,
    /// Linux: the pipes served by `poll` on this thread (no thread hop per line).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    pipes: Option<fast::Pipes>,
    timeout: Duration,
}

impl Bot {
    /// Starts `cmd` for `seat`.
    pub(crate) fn start(cmd: &str, seat: u8, timeout: Duration) -> Result<Bot, BotFault> {
        let cmd = cmd.replace("{seat}", &seat.to_string());
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| BotFault::new("start", format!("cannot start `{cmd}`: {e}")))?;
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            let stdin = child.stdin.take().expect("piped");
            let stdout = child.stdout.take().expect("piped");
            let pipes = fast::Pipes::new(stdin, stdout)
                .map_err(|e| BotFault::new("start", format!("cannot set up the pipes: {e}")))?;
            Ok(Bot {
                child,
                to_bot: None,
                lines: None,
                pipes: Some(pipes),
                timeout,
            })
        }
        #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
        {
            let stdin = child.stdin.take().expect("piped");
            let (to_bot, from_haifu) = mpsc::channel::<String>();
            std::thread::Builder::new()
                .name("haifu-bot-writer".into())
                .spawn(move || write_lines(from_haifu, stdin))
                .map_err(|e| {
                    BotFault::new("start", format!("cannot start a writer thread: {e}"))
                })?;
            let stdout = child.stdout.take().expect("piped");
            let (tx, lines) = mpsc::channel();
            std::thread::Builder::new()
                .name("haifu-bot-reader".into())
                .spawn(move || {
                    for line in BufReader::new(stdout).lines() {
                        match line {
                            Ok(l) if l.trim().is_empty() => continue,
                            Ok(l) => {
                                if tx.send(Line::Text(l)).is_err() {
                                    return;
                                }
                            }
                            Err(e) => {
                                let _ = tx.send(Line::Closed(format!("unreadable output: {e}")));
                                return;
                            }
                        }
                    }
                    let _ = tx.send(Line::Closed("closed its output".into()));
                })
                .map_err(|e| {
                    BotFault::new("start", format!("cannot start a reader thread: {e}"))
                })?;
            Ok(Bot {
                child,
                to_bot: Some(to_bot),
                lines: Some(lines),
                timeout,
            })
        }
    }

    /// Sends one line (a newline is added).
    pub(crate) fn send(&mut self, line: &str) {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        if let Some(p) = &mut self.pipes {
            p.push(line);
            return;
        }
        if let Some(tx) = &self.to_bot {
            let mut l = String::with_capacity(line.len() + 1);
            l.push_str(line);
            l.push('\n');
            let _ = tx.send(l);
        }
    }

    /// The next line the bot writes, parsed as JSON.
    pub(crate) fn read(&mut self) -> Result<Value, BotFault> {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        if let Some(p) = &mut self.pipes {
            return match p.line(self.timeout) {
                Ok(l) => serde_json::from_str(&l).map_err(|_| {
                    BotFault::new(
                        "not-mjai",
                        format!("wrote a line that is not JSON: {}", shorten(&l)),
                    )
                }),
                Err(fast::Stop::Closed(why)) => Err(self.exited(&why)),
                Err(fast::Stop::Interrupted) => {
                    self.kill();
                    Err(BotFault::new(
                        "interrupted",
                        "the review was interrupted (Ctrl-C) while the bot was thinking",
                    ))
                }
                Err(fast::Stop::Timeout) => {
                    self.kill();
                    Err(BotFault::new(
                        "timeout",
                        format!("did not answer within {:?}", self.timeout),
                    ))
                }
            };
        }
        let Some(lines) = &self.lines else {
            return Err(self.exited("closed its output"));
        };
        match lines.recv_timeout(self.timeout) {
            Ok(Line::Text(l)) => serde_json::from_str(&l).map_err(|_| {
                BotFault::new(
                    "not-mjai",
                    format!("wrote a line that is not JSON: {}", shorten(&l)),
                )
            }),
            Ok(Line::Closed(why)) => Err(self.exited(&why)),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited("closed its output")),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(BotFault::new(
                    "timeout",
                    format!("did not answer within {:?}", self.timeout),
                ))
            }
        }
    }

    /// Closes the bot's input and waits for it to end (killing it after the timeout).
    pub(crate) fn finish(mut self) {
        self.close_input();
        let deadline = std::time::Instant::now() + self.timeout;
        while std::time::Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
    }

    fn exited(&mut self, why: &str) -> BotFault {
        self.close_input();
        let status = self
            .child
            .wait()
            .map_or_else(|e| format!("status unknown: {e}"), |s| s.to_string());
        BotFault::new("exited", format!("{why} ({status})"))
    }

    fn kill(&mut self) {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: signals the bot's own process group (it was started as its leader).
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.close_input();
    }

    /// Closes the bot's standard input (what is still buffered is written first, as far as the
    /// bot reads it within the timeout).
    fn close_input(&mut self) {
        drop(self.to_bot.take());
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        if let Some(mut p) = self.pipes.take() {
            p.drain(self.timeout);
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn write_lines(lines: Receiver<String>, stdin: std::process::ChildStdin) {
    let mut w = BufWriter::with_capacity(1 << 16, stdin);
    while let Ok(first) = lines.recv() {
        for l in std::iter::once(first).chain(lines.try_iter()) {
            if w.write_all(l.as_bytes()).is_err() {
                return;
            }
        }
        if w.flush().is_err() {
            return;
        }
    }
}

/// At most 160 characters of `line`.
pub(crate) fn shorten(line: &str) -> String {
    let mut s: String = line.chars().take(160).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// Linux: both pipes served from the calling thread with `poll`, non-blocking, so that a line
/// costs no thread hop, and a bot that stops reading or writing still cannot block haifu past
/// the timeout (pending input is written whenever the bot can take it, its output read
/// whenever it has some, in one loop).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod fast {
    use std::os::fd::AsRawFd;
    use std::process::{ChildStdin, ChildStdout};
    use std::time::{Duration, Instant};

    /// Why no line came.
    pub(crate) enum Stop {
        Closed(String),
        Timeout,
        /// The user asked the run to stop (Ctrl-C): a slow bot is not waited for.
        Interrupted,
    }

    pub(crate) struct Pipes {
        stdin: Option<ChildStdin>,
        stdout: ChildStdout,
        /// Bytes not yet written to the bot.
        wbuf: Vec<u8>,
        wpos: usize,
        /// Bytes read from the bot, not yet returned as lines.
        rbuf: Vec<u8>,
        eof: bool,
    }

    fn nonblocking(fd: i32) -> std::io::Result<()> {
        // SAFETY: fcntl on a pipe descriptor this process owns.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }

    impl Pipes {
        pub(crate) fn new(stdin: ChildStdin, stdout: ChildStdout) -> std::io::Result<Pipes> {
            nonblocking(stdin.as_raw_fd())?;
            nonblocking(stdout.as_raw_fd())?;
            Ok(Pipes {
                stdin: Some(stdin),
                stdout,
                wbuf: Vec::with_capacity(1 << 16),
                wpos: 0,
                rbuf: Vec::with_capacity(1 << 12),
                eof: false,
            })
        }

        /// Queues one line for the bot (written at the next [`Pipes::line`], or at once when
        /// much is queued).
        pub(crate) fn push(&mut self, line: &str) {
            self.wbuf.extend_from_slice(line.as_bytes());
            self.wbuf.push(b'\n');
            if self.wbuf.len() - self.wpos > 1 << 16 {
                // Written as far as the bot takes it now; the rest waits for the next read.
                let _ = self.pump(Some(Duration::ZERO), false);
            }
        }

        /// The bot's next non-empty line, writing what is queued meanwhile.
        pub(crate) fn line(&mut self, timeout: Duration) -> Result<String, Stop> {
            let deadline = Instant::now() + timeout;
            loop {
                if let Some(l) = self.take_line() {
                    return Ok(l);
                }
                if self.eof {
                    return Err(Stop::Closed("closed its output".into()));
                }
                let now = Instant::now();
                if now >= deadline {
                    return Err(Stop::Timeout);
                }
                if crate::runtime::interrupted() {
                    return Err(Stop::Interrupted);
                }
                // A slice at a time, so that Ctrl-C is seen within a fifth of a second.
                let slice = (deadline - now).min(Duration::from_millis(200));
                self.pump(Some(slice), true)?;
            }
        }

        /// Writes what is queued within `timeout` and closes the bot's input.
        pub(crate) fn drain(&mut self, timeout: Duration) {
            let deadline = Instant::now() + timeout;
            while self.wpos < self.wbuf.len() && self.stdin.is_some() {
                let now = Instant::now();
                if now >= deadline || self.pump(Some(deadline - now), false).is_err() {
                    break;
                }
            }
            self.stdin = None;
        }

        fn take_line(&mut self) -> Option<String> {
            loop {
                let nl = self.rbuf.iter().position(|&b| b == b'\n')?;
                let line: Vec<u8> = self.rbuf.drain(..=nl).collect();
                let text = String::from_utf8_lossy(&line[..nl]).trim().to_string();
                if !text.is_empty() {
                    return Some(text);
                }
            }
        }

        /// One poll: writes what the bot can take, reads what it has written (`read`).
        fn pump(&mut self, timeout: Option<Duration>, read: bool) -> Result<(), Stop> {
            let writing = self.wpos < self.wbuf.len() && self.stdin.is_some();
            let mut fds = [
                libc::pollfd {
                    fd: self.stdout.as_raw_fd(),
                    events: if read { libc::POLLIN } else { 0 },
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.stdin.as_ref().map_or(-1, |s| s.as_raw_fd()),
                    events: if writing { libc::POLLOUT } else { 0 },
                    revents: 0,
                },
            ];
            let ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as i32);
            // SAFETY: two valid pollfd structures (a negative fd is ignored by poll).
            let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
            if n < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    return Ok(());
                }
                return Err(Stop::Closed(format!("poll failed: {e}")));
            }
            if fds[1].revents & (libc::POLLOUT | libc::POLLERR | libc::POLLHUP) != 0 {
                let rest = &self.wbuf[self.wpos..];
                // SAFETY: writes from a live buffer to the bot's input pipe.
                let w = unsafe { libc::write(fds[1].fd, rest.as_ptr().cast(), rest.len()) };
                if w > 0 {
                    self.wpos += w as usize;
                    if self.wpos == self.wbuf.len() {
                        self.wbuf.clear();
                        self.wpos = 0;
                    }
                } else if w < 0 {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != std::io::ErrorKind::WouldBlock {
                        // The bot closed its input: nothing more can reach it.
                        self.stdin = None;
                        self.wbuf.clear();
                        self.wpos = 0;
                    }
                }
            }
            if read && fds[0].revents & (libc::POLLIN | libc::POLLERR | libc::POLLHUP) != 0 {
                let mut chunk = [0u8; 1 << 14];
                // SAFETY: reads into a live stack buffer from the bot's output pipe.
                let r = unsafe { libc::read(fds[0].fd, chunk.as_mut_ptr().cast(), chunk.len()) };
                if r > 0 {
                    self.rbuf.extend_from_slice(&chunk[..r as usize]);
                } else if r == 0 {
                    self.eof = true;
                } else {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != std::io::ErrorKind::WouldBlock
                        && e.kind() != std::io::ErrorKind::Interrupted
                    {
                        return Err(Stop::Closed(format!("unreadable output: {e}")));
                    }
                }
            }
            Ok(())
        }
    }
}
