//! No import circles between the library's top-level modules: the `crate::…` paths of each file
//! under `src/` (the binary's `src/cli/` and `src/main.rs` aside) are read as edges "this module
//! uses that one", and a circle among them fails the test with its path. A module that needs
//! another's type puts the code that joins them on one side only (see `ARCHITECTURE.md`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module a file under `src/` belongs to (`src/grid/cell.rs` → `grid`).
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main" | "cli")).then(|| name.to_string())
}

/// The top-level modules named by `crate::NAME` in `text`, outside line comments.
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The edges between top-level modules, from the sources.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = Vec::new();
    files(src, &mut all);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in all {
        let Some(from) = module_of(path.strip_prefix(src).unwrap()) else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let targets = edges.entry(from.clone()).or_default();
        targets.extend(uses(&text).into_iter().filter(|t| *t != from));
    }
    edges
}

/// A circle in `edges`, as the path that closes it, if any (depth-first search).
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut c = path[at..].to_vec();
            c.push(node.to_string());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_library_modules_import_one_another_without_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&src);
    assert!(edges.len() > 10, "too few modules read: {edges:?}");
    assert!(edges["engine"].contains("propagate"), "edges not read");
    if let Some(c) = circle(&edges) {
        panic!("import circle: {}", c.join(" → "));
    }
}

/// The checker itself finds a circle, and a long one.
#[test]
fn the_circle_check_finds_circles() {
    let edges = |pairs: &[(&str, &str)]| {
        let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            e.entry(a.to_string()).or_default().insert(b.to_string());
        }
        e
    };
    assert!(circle(&edges(&[("a", "b"), ("b", "c")])).is_none());
    let c = circle(&edges(&[("a", "b"), ("b", "c"), ("c", "a")])).unwrap();
    assert_eq!(c.first(), c.last());
    assert_eq!(c.len(), 4);
    assert_eq!(
        uses("use crate::grid::{Cell}; // crate::engine\nx(crate::format::y)"),
        ["format", "grid"].map(String::from).into()
    );
}

/// The edges between the binary's modules (one file each under `src/cli/`): `super::NAME` where
/// NAME is a sibling file. `mod.rs` declares them all and is left out.
fn cli_graph(cli: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut all = Vec::new();
    files(cli, &mut all);
    let names: BTreeSet<String> = all
        .iter()
        .filter_map(|p| p.file_stem()?.to_str().map(String::from))
        .filter(|n| n != "mod")
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &all {
        let from = path.file_stem().unwrap().to_str().unwrap().to_string();
        if from == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(path)
            .unwrap()
            .replace("super::", "crate::");
        let targets = edges.entry(from.clone()).or_default();
        targets.extend(
            uses(&text)
                .into_iter()
                .filter(|t| *t != from && names.contains(t)),
        );
    }
    edges
}

#[test]
fn the_command_modules_import_one_another_without_a_circle() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let edges = cli_graph(&cli);
    assert!(edges.len() > 8, "too few modules read: {edges:?}");
    assert!(edges["chain"].contains("output"), "edges not read");
    if let Some(c) = circle(&edges) {
        panic!("import circle in src/cli: {}", c.join(" → "));
    }
}
