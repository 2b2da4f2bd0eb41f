//! Prints the XML document that a `mutate` input (a corpus entry or a crash artifact)
//! describes, so a crash can be saved as a plain regression file:
//!
//!     cargo run --manifest-path fuzz/Cargo.toml --example render_mutation -- \
//!         fuzz/artifacts/mutate/crash-… > fuzz/regressions/NAME.xml
//!
//! With `--ops` it prints the decoded operations to stderr as well.

use arbitrary::{Arbitrary, Unstructured};
use haifu_fuzz::mutate::{render, Case};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show_ops = args.iter().any(|a| a == "--ops");
    let path = args
        .iter()
        .find(|a| *a != "--ops")
        .expect("usage: render_mutation [--ops] INPUT");
    let bytes = std::fs::read(path).expect("readable input");
    // libfuzzer-sys decodes a typed input with `arbitrary_take_rest`.
    let case = Case::arbitrary_take_rest(Unstructured::new(&bytes)).expect("decodable input");
    if show_ops {
        eprintln!("{case:#?}");
    }
    std::io::stdout().write_all(&render(&case)).unwrap();
}
