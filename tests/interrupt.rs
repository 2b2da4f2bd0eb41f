//! An interrupted run (Ctrl-C) leaves the previous output intact and no half-written file
//! under a final name.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn ctrl_c_leaves_the_previous_output_intact() {
    let exe = env!("CARGO_BIN_EXE_haifu");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // The previous output: a run over the fixtures.
    let ok = Command::new(exe)
        .args(["ingest", "--room", "any", "--quiet", "--out"])
        .arg(&out)
        .arg(common::fixtures())
        .status()
        .unwrap();
    assert!(ok.success());
    let before = listing(&out);
    assert!(before.iter().any(|(n, _)| n == "manifest.json"));

    // A long run into the same directory: the Phoenix corpus several times over when present,
    // else many renamed copies of the fixtures (each a distinct game id).
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    let mut args: Vec<PathBuf> = Vec::new();
    if let Some(phoenix) = common::corpus("phoenix") {
        for i in 0..4 {
            let link = inputs.join(format!("copy{i}"));
            std::os::unix::fs::symlink(&phoenix, &link).unwrap();
            args.push(link);
        }
    } else {
        let base =
            std::fs::read(common::fixtures().join("2099010100gm-00a9-0000-0000f001.xml")).unwrap();
        for i in 0..20_000u32 {
            let name = format!("2099010100gm-00a9-0000-{i:08x}.xml");
            std::fs::write(inputs.join(name), &base).unwrap();
        }
        args.push(inputs.clone());
    }
    let mut child = Command::new(exe)
        .args(["ingest", "--quiet", "--room", "any", "--out"])
        .arg(&out)
        .args(&args)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(600));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "run did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130), "an interrupted run exits 130");
    // Byte for byte what was there before: no new file, no temporary file left behind.
    assert_eq!(listing(&out), before);
}

/// Every regular file under `dir`, at any depth, as (path relative to `dir`, bytes), sorted;
/// hidden files (the writers' `.NAME.tmp-PID` temporary names) included.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_path_buf();
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

/// Protects the promise that Ctrl-C leaves the previous output as it was (README, "What a
/// run writes") for the phase of `haifu run` after the ingest: the reports. A first
/// `haifu run` over the fixtures writes frames, `manifest.json` and `reports/`; a second one
/// into the same directory, over other games, gets SIGINT after its ingest has finished and
/// before its reports are written. It must exit 130, and every file of the first run (frames,
/// manifest and every report, at any depth) must be there byte for byte, with no file added:
/// no temporary file, no report of the second run.
///
/// How the signal is placed, without racing the run: after its ingest, `haifu run` prints the
/// ingest's summary on stderr, whose first lines are the first 50 failed inputs with their
/// paths. The second run's inputs include 50 unreadable files under a directory path of about
/// 3,000 bytes, so that summary is about 150 KB, more than a pipe holds (64 KiB). The test does
/// not read the child's stderr until it has sent SIGINT: once 16 KiB wait in the pipe, the
/// child is printing that summary (with `--quiet`, the ingest itself prints nothing), and it
/// stays blocked there until the test reads. So the signal always arrives with the ingest done
/// and the reports not started, however slow or fast the machine.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn ctrl_c_during_the_reports_of_haifu_run_leaves_the_previous_output_intact() {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::process::Stdio;

    let exe = env!("CARGO_BIN_EXE_haifu");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // The previous output: a whole `haifu run` over the fixtures.
    let first = Command::new(exe)
        .args(["run", "--room", "any", "--quiet", "--out"])
        .arg(&out)
        .arg(common::fixtures())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(first.success(), "{first:?}");
    let before = tree(&out);
    let has = |name: &str| before.iter().any(|(p, _)| p == Path::new(name));
    assert!(has("manifest.json") && has("games.parquet"), "{before:?}");
    assert!(has("reports/summary.csv") && has("reports/tsumo_rate.json"));

    // The second run's inputs: 300 games the first run did not have (so frames and manifest
    // would differ if this run's ingest were kept), and 50 unreadable files deep down.
    let inputs = dir.path().join("inputs");
    let games = inputs.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let base =
        std::fs::read(common::fixtures().join("2099010100gm-00a9-0000-0000f001.xml")).unwrap();
    for i in 0..300u32 {
        std::fs::write(
            games.join(format!("2099010100gm-00a9-0000-{i:08x}.xml")),
            &base,
        )
        .unwrap();
    }
    let mut deep = inputs.join("bad");
    for c in b'a'..=b'l' {
        deep.push(std::iter::repeat_n(c as char, 250).collect::<String>());
    }
    std::fs::create_dir_all(&deep).unwrap();
    for i in 0..50 {
        std::fs::write(deep.join(format!("{i:02}.xml")), b"not a log").unwrap();
    }

    let mut child = Command::new(exe)
        .args(["run", "--room", "any", "--quiet", "--out"])
        .arg(&out)
        .arg(&inputs)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let fd = stderr.as_raw_fd();
    let start = Instant::now();
    loop {
        let mut waiting: libc::c_int = 0;
        // SAFETY: FIONREAD writes the count of bytes waiting in the pipe into the c_int given.
        let rc = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut waiting) };
        assert_eq!(rc, 0, "ioctl(FIONREAD)");
        if waiting >= 16 * 1024 {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            panic!("the run ended ({status}) before it printed its summary: {text}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the run never printed its summary"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill only sends a signal to the child, which has not been waited for.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(rc, 0, "kill -INT");
    // Let the child's signal handler thread record the request before the run goes on.
    std::thread::sleep(Duration::from_millis(500));
    let mut text = String::new();
    stderr.read_to_string(&mut text).unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "run did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        text.contains("350 files: 300 ok, 0 skipped, 50 failed"),
        "the signal came after the second run's ingest: {}",
        text.lines().last().unwrap_or_default()
    );
    let after = tree(&out);
    let names = |t: &[(PathBuf, Vec<u8>)]| t.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    let changed: Vec<&PathBuf> = after
        .iter()
        .filter(|(p, bytes)| !before.iter().any(|(q, b)| q == p && b == bytes))
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        status.code(),
        Some(130),
        "a run interrupted during its reports exits 130; files added or changed: {changed:?}"
    );
    assert_eq!(
        names(&after),
        names(&before),
        "no file added (temporary or new) or removed"
    );
    assert!(
        changed.is_empty(),
        "the previous output is byte for byte as it was; changed: {changed:?}"
    );
}
