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
