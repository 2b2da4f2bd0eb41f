//! The top-level modules of `src/` import one another one way: no cycle (docs/contributing.md,
//! "Layers"). A module's imports are the `crate::<module>` paths in its files outside comments
//! and test code (the item after `#[cfg(test)]`, `tests.rs` and `*_tests.rs` files), which is how the
//! code base writes every cross-module use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module → the other top-level modules it names, each with the first place it does.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The `crate::<name>` names of one line of code (comments stripped first).
fn crate_paths(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    code.match_indices("crate::")
        .filter(|(i, _)| {
            // Not `haifu_crate::` or the like: `crate` as a word.
            *i == 0
                || !code.as_bytes()[i - 1].is_ascii_alphanumeric() && code.as_bytes()[i - 1] != b'_'
        })
        .map(|(i, _)| {
            code[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .filter(|s: &String| !s.is_empty())
        .collect()
}

/// The lines of `text` outside test code, numbered from 0: an item after `#[cfg(test)]` is
/// skipped to the end of its braces (or its `;`).
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut skipping = false;
    let (mut depth, mut opened) = (0i64, false);
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if !skipping && line.trim_start().starts_with("#[cfg(test)]") {
            (skipping, depth, opened) = (true, 0, false);
            continue;
        }
        if !skipping {
            out.push((n, line));
            continue;
        }
        for c in code.chars() {
            match c {
                '{' => (depth, opened) = (depth + 1, true),
                '}' => depth -= 1,
                _ => {}
            }
        }
        if (opened && depth == 0) || (!opened && code.trim_end().ends_with(';')) {
            skipping = false;
        }
    }
    out
}

fn graph_of(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut g = Graph::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "main" || module == "lib" {
            continue;
        }
        g.entry(module.clone()).or_default();
        let name = f.file_name().unwrap().to_string_lossy();
        if name.ends_with("_tests.rs") || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in code_lines(&text) {
            for other in crate_paths(line) {
                if other != module {
                    g.entry(module.clone())
                        .or_default()
                        .entry(other)
                        .or_insert_with(|| format!("{}:{}", rel.display(), n + 1));
                }
            }
        }
    }
    g
}

/// A cycle of `g` as the path of its modules (first = last), if there is one.
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    // Depth-first search with the path on a stack: 0 unseen, 1 on the path, 2 done.
    fn visit(
        g: &Graph,
        v: &str,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in g.get(v).into_iter().flat_map(|e| e.keys()) {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|p| p == w).unwrap();
                    let mut cycle = path[from..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(g, w, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in g.keys() {
        if state.get(v).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(g, v, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_top_level_modules_import_one_way() {
    let g = graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    // The graph is read at all: the replay imports the tile module, reports import the frames.
    assert!(g["replay"].contains_key("tile"), "{g:?}");
    assert!(g["report"].contains_key("frames"), "{g:?}");
    if let Some(cycle) = find_cycle(&g) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], g[&w[0]][&w[1]]))
            .collect();
        panic!("the modules import in a cycle:\n  {}", steps.join("\n  "));
    }
}

/// The checker finds a cycle where there is one (two modules naming each other through a third),
/// and reads `crate::` paths as the code writes them.
#[test]
fn a_cycle_is_found_and_paths_are_read() {
    let edge = |a: &str, bs: &[&str]| {
        (
            a.to_string(),
            bs.iter()
                .map(|b| (b.to_string(), "x.rs:1".to_string()))
                .collect::<BTreeMap<_, _>>(),
        )
    };
    let mut g: Graph = [edge("a", &["b"]), edge("b", &["c"]), edge("c", &[])].into();
    assert_eq!(find_cycle(&g), None);
    g.get_mut("c").unwrap().insert("a".into(), "c.rs:1".into());
    let cycle = find_cycle(&g).unwrap();
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.iter().collect::<BTreeSet<_>>().len(), 3, "{cycle:?}");
    assert_eq!(
        crate_paths("use crate::report::slice::Slice; // crate::ingest"),
        ["report"]
    );
    assert_eq!(
        crate_paths("f(crate::stats::Observe { .. }, crate::tile::KINDS)"),
        ["stats", "tile"]
    );
    assert!(crate_paths("my_crate::x").is_empty());
    let text = "use crate::a;\n#[cfg(test)]\nuse crate::b;\n#[cfg(test)]\nmod t {\n    use crate::c;\n}\nfn f() { crate::d::g() }";
    let kept: Vec<String> = code_lines(text)
        .into_iter()
        .flat_map(|(_, l)| crate_paths(l))
        .collect();
    assert_eq!(kept, ["a", "d"]);
}
