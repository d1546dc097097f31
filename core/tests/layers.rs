//! The folders (top-level modules) of `core/src` depend on each other one way only: this test reads
//! every source file, collects the `crate::<module>` paths it names outside comments, and fails on
//! any cycle between top-level modules, naming the files that close it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which top-level modules each top-level module names, with the files that name them.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules a line of code names through `crate::`, including `crate::{a, b::c}`.
fn named_modules(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in line.match_indices("crate::") {
        let rest = &line[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Only the first segment of each comma-separated item at the group's top level.
            let mut depth = 0;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_ascii_alphanumeric() || c == '_') => {
                        out.push(ident(&group[j..]).to_owned());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest).to_owned());
        }
    }
    out
}

fn graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    sources(src, &mut files);
    let top_level: BTreeSet<String> = files
        .iter()
        .filter_map(|f| {
            let rel = f.strip_prefix(src).unwrap();
            let first = rel.components().next()?.as_os_str().to_str()?;
            Some(first.trim_end_matches(".rs").to_owned())
        })
        .collect();
    let mut g = Graph::new();
    for file in &files {
        let rel = file.strip_prefix(src).unwrap();
        let from = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned();
        if from == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for to in named_modules(code) {
                if to != from && top_level.contains(&to) {
                    g.entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_default()
                        .insert(rel.display().to_string());
                }
            }
        }
    }
    g
}

/// A path of modules from `from` to `to`, if there is one.
fn path(g: &Graph, from: &str, to: &str) -> Option<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![vec![from.to_owned()]];
    while let Some(p) = stack.pop() {
        let last = p.last().unwrap().clone();
        if last == to {
            return Some(p);
        }
        if !seen.insert(last.clone()) {
            continue;
        }
        for next in g.get(&last).into_iter().flat_map(|m| m.keys()) {
            let mut q = p.clone();
            q.push(next.clone());
            stack.push(q);
        }
    }
    None
}

#[test]
fn top_level_modules_of_core_src_have_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph(&src);
    let mut cycles = Vec::new();
    for (from, targets) in &g {
        for (to, files) in targets {
            if let Some(back) = path(&g, to, from) {
                cycles.push(format!(
                    "{from} -> {to} (in {files:?}), and back: {}",
                    back.join(" -> ")
                ));
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_scanner_sees_plain_and_grouped_paths() {
    assert_eq!(named_modules("use crate::transport::Sink;"), ["transport"]);
    assert_eq!(
        named_modules("use crate::{error::{Error, Result}, meta, model::Tool};"),
        ["error", "meta", "model"]
    );
    assert_eq!(
        named_modules("let x = crate::server::Server::builder(crate::version::LATEST);"),
        ["server", "version"]
    );
}
