//! The command layer: the exit-code policy, argument validation before any work, and a
//! closed standard output.

mod common;

use std::process::{Command, Output, Stdio};

use common::fixtures;

fn haifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(args)
        .output()
        .expect("haifu runs")
}

fn ingested_fixtures() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let o = haifu(&[
        "ingest",
        fixtures()
            .join("2099010100gm-00a9-0000-0000f001.xml")
            .to_str()
            .unwrap(),
        "--room",
        "any",
        "--out",
        out.path().to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// A refused argument is a usage error (exit 1) that names the value, before any work: an
/// unknown estimator, room, format or date, a seat out of range.
#[test]
fn arguments_are_validated_before_any_work() {
    let frames = ingested_fixtures();
    let dir = frames.path().to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "danger-eval",
                "--frames",
                dir,
                "--estimators",
                "none,combos",
            ],
            "combos",
        ),
        (&["ingest", "x", "--out", "y", "--room", "gold"], "gold"),
        (
            &["stats", "summary", "--frames", dir, "--format", "xml"],
            "xml",
        ),
        (
            &["ingest", "x", "--out", "y", "--since", "2020-13-01"],
            "2020-13-01",
        ),
        (&["stats", "summary", "--frames", dir, "--seat", "4"], "4"),
    ];
    for (args, named) in cases {
        let o = haifu(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(named), "{args:?}: {err}");
    }
    // Nothing was written by the refused ingests.
    assert!(!std::path::Path::new("y").exists());
    // Help is not an error.
    let o = haifu(&["stats", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = String::from_utf8_lossy(&o.stdout);
    for name in haifu::report::REPORTS.iter().map(|r| r.name) {
        assert!(help.contains(name), "{name} missing from stats --help");
    }
    let o = haifu(&["query", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    for name in haifu::frames::FRAMES {
        assert!(help.contains(name), "{name} missing from query --help");
    }
}

/// `haifu stats … | head`: when the reader has gone, haifu ends quietly with 0 instead of
/// panicking in a print.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn a_closed_stdout_ends_quietly() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let frames = ingested_fixtures();
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills two new descriptors, each owned once below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    for report in ["wait-danger", "riichi-response"] {
        let o = Command::new(env!("CARGO_BIN_EXE_haifu"))
            .args(["stats", report, "--frames", frames.path().to_str().unwrap()])
            .stdout(Stdio::from(write.try_clone().unwrap()))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{report}: {err}");
        assert!(err.is_empty(), "{report}: {err}");
    }
}
