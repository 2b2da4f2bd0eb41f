//! Determinism by construction, checked where every checkout can: the fixtures (no corpus
//! needed). Every file an ingest writes (each frame, the on-request `decisions` and `walls`
//! frames included, and the manifest) is the same byte for byte at 1, 2 and 4 threads and with the
//! inputs given in sorted or reversed order. (tests/corpus.rs checks the same on 700 Phoenix
//! games when the corpus is present.)

mod common;

use std::path::{Path, PathBuf};

use common::fixtures;
use haifu::ingest::{ingest, IngestOptions, RoomFilter};

/// Every input file of fixtures/, sorted.
fn fixture_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&fixtures(), &mut files);
    files.sort();
    files
}

/// The files of an ingest of `inputs` on `threads` threads, by name, with their bytes.
fn output(threads: usize, inputs: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    let out = tempfile::tempdir().unwrap();
    let opts = IngestOptions {
        inputs: inputs.to_vec(),
        out: out.path().to_path_buf(),
        room: RoomFilter::Any,
        dates: Default::default(),
        strict: false,
        progress: false,
        observe: haifu::stats::Observe::with(&haifu::groups::GROUPS.map(|g| g.group)),
        tsumo_validation: false,
        convert: None,
        append: false,
        shard: None,
    };
    let summary = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| ingest(&opts))
        .expect("ingest runs");
    assert!(summary.written);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn fixture_output_is_the_same_at_any_thread_count_and_input_order() {
    // The fixtures and a made-up game whose walls the replay checks (the fixtures' seeds are
    // not Tenhou's), so that the `walls` frame has rows.
    let walled = tempfile::tempdir().unwrap();
    let mut words = [0u32; 624];
    for (i, w) in words.iter_mut().enumerate() {
        *w = (i as u32).wrapping_mul(0x2545_F491) ^ 0x5bd1_e995;
    }
    let made_up = walled.path().join("2099020100gm-00a9-0000-0000a001.xml");
    std::fs::write(&made_up, haifu::wall::tsumogiri_log(&words, 3)).unwrap();
    let mut files = fixture_files();
    files.push(made_up);
    assert!(files.len() >= 10, "{files:?}");
    let mut reversed = files.clone();
    reversed.reverse();
    let want = output(1, &files);
    let names: Vec<&str> = want.iter().map(|(n, _)| n.as_str()).collect();
    // Every frame (the on-request one too) and the manifest, so that a missing file cannot
    // make the comparison vacuous.
    for f in haifu::frames::FRAMES
        .iter()
        .chain(&haifu::frames::ON_REQUEST_FRAMES)
    {
        assert!(
            names.contains(&format!("{f}.parquet").as_str()),
            "{names:?}"
        );
    }
    assert!(names.contains(&"manifest.json"), "{names:?}");
    let manifest = &want.iter().find(|(n, _)| n == "manifest.json").unwrap().1;
    let manifest: serde_json::Value = serde_json::from_slice(manifest).unwrap();
    assert_eq!(manifest["totals"]["wall_checked"], 1);
    assert_eq!(manifest["totals"]["wall_hands"], 3);
    for (threads, inputs, order) in [
        (2, &files, "sorted"),
        (4, &files, "sorted"),
        (1, &reversed, "reversed"),
        (2, &reversed, "reversed"),
        (4, &reversed, "reversed"),
    ] {
        let got = output(threads, inputs);
        assert_eq!(
            got.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            want.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            "{threads} threads, {order} inputs: other files"
        );
        for ((name, bytes), (_, want_bytes)) in got.iter().zip(&want) {
            assert!(
                bytes == want_bytes,
                "{name} differs at {threads} threads with the inputs {order}"
            );
        }
    }
}
